"""``wadlclient stubgen --fixups``: what a WADL gets wrong, corrected; and compressed WADLs.

The Launchpad table types as ``X | None`` the fields Launchpad sends as
null although its WADL says required, retypes untyped ones, and refuses a
WADL that lacks a field it names (so it cannot go stale silently).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from benchmarks.config import launchpad_published_wadl_path

from wadlclient.cli import main
from wadlclient.errors import WADLError
from wadlclient.stubgen import command, generate, load


@pytest.fixture(scope="module")
def devel(launchpad_devel_package: dict[str, str]) -> tuple[str, str]:
    """The devel package's stub without the fixups and with them (the shipped package's)."""
    schema, root = load(str(launchpad_published_wadl_path("devel")))
    plain = generate(schema, root, "launchpad", untyped="any")["__init__.pyi"]
    return plain, launchpad_devel_package["__init__.pyi"]


def _member(stub: str, cls: str, name: str) -> str:
    """The declaration of ``cls.name`` in ``stub`` (its first line)."""
    body = stub.split(f"\nclass {cls}(", 1)[1].split("\nclass ", 1)[0]
    found = re.search(rf"^    (?:def {name}\(self\) -> (.+):|{name}: (.+))$", body, re.MULTILINE)
    assert found is not None, f"{cls}.{name} not declared"
    return found.group(1) or found.group(2)


def _result(stub: str, cls: str, name: str) -> str:
    """What the named operation ``cls.name`` returns in ``stub``."""
    body = stub.split(f"\nclass {cls}(", 1)[1].split("\nclass ", 1)[0]
    found = re.search(rf"def {name}\(.*?\) -> (.+?):", body, re.DOTALL)
    assert found is not None, f"{cls}.{name} not declared"
    return found.group(1)


def test_fields_launchpad_sends_as_null_are_optional_only_with_the_fixups(
    devel: tuple[str, str],
) -> None:
    plain, fixed = devel

    assert _member(plain, "Snap", "git_ref") == "GitRef"
    assert _member(fixed, "Snap", "git_ref") == "GitRef | None"
    assert _member(fixed, "SnapBuild", "builder") == "Builder | None"
    assert _member(fixed, "Bug", "duplicate_of") == "Bug | None"
    assert _member(fixed, "Snap", "owner") == "Person"  # not named: as the WADL says


def test_the_fixups_retype_tags_and_say_which_lookups_answer_404(devel: tuple[str, str]) -> None:
    plain, fixed = devel

    assert (_member(plain, "Bug", "tags"), _member(fixed, "Bug", "tags")) == (
        "typing.Any", "list[str]",
    )  # fmt: skip
    assert (_result(plain, "Snaps", "getByName"), _result(fixed, "Snaps", "getByName")) == (
        "Snap | None", "Snap",
    )  # fmt: skip


def test_the_fixups_type_list_and_dict_params_from_launchpads_facts(
    devel: tuple[str, str],
) -> None:
    plain, fixed = devel

    def argument(stub: str, cls: str, operation: str, param: str) -> str:
        body = stub.split(f"\nclass {cls}(", 1)[1].split("\nclass ", 1)[0]
        signature = body.split(f"def {operation}(", 1)[1].split(") ->", 1)[0]
        found = re.search(rf"\b{param}: ([^=\n]+?)(?: = \.\.\.)?,?\n", signature + "\n")
        assert found is not None, f"{cls}.{operation}({param}=) not declared"
        return found.group(1)

    assert argument(plain, "Archive", "setProcessors", "processors") == "typing.Any"
    assert argument(fixed, "Archive", "setProcessors", "processors") == (
        "Processor | str | typing.Sequence[Processor | str]"
    )
    assert argument(fixed, "Archive", "copyPackages", "source_names") == (
        "str | typing.Sequence[str]"
    )
    assert argument(fixed, "Snap", "requestBuilds", "channels") == (
        "typing.Mapping[str, typing.Any] | typing.Sequence[str]"
    )


def test_the_fixups_refuse_a_wadl_that_lacks_a_field_they_name(
    launchpad_wadl_path: Path,
) -> None:
    schema, root = load(str(launchpad_wadl_path))  # launchpadlib's old 1.0 test WADL

    with pytest.raises(WADLError, match=r"the launchpad fixups name fields this WADL lacks: \[.*"
                       r"'\*/date_started'.*'snaps/getByName'"):  # fmt: skip
        generate(schema, root, "launchpad", fixups="launchpad")


def test_a_corrupt_gzip_file_is_one_line_of_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "devel.wadl.gz"
    broken.write_bytes(gzip.compress(b"<application/>")[:-6] + b"garbage")

    status = main(["stubgen", str(broken), "--output", str(tmp_path), "--name", "typed"])

    error = capsys.readouterr().err
    assert status == 1
    assert error.count("\n") == 1 and "not a readable gzip file" in error
    assert not (tmp_path / "typed").exists()


def test_a_gzip_file_that_expands_past_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(command, "MAX_WADL_BYTES", 1000)
    bomb = tmp_path / "bomb.wadl.gz"
    bomb.write_bytes(gzip.compress(b" " * 5000))

    status = main(["stubgen", str(bomb), "--output", str(tmp_path), "--name", "typed"])

    assert status == 1
    assert "expands to more than 1000 bytes; refused" in capsys.readouterr().err

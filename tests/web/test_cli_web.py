"""``wadlclient get`` takes a Launchpad web address or reference, alone or as PATH."""

from __future__ import annotations

import json

import pytest

from wadlclient import cli
from wadlclient.testing import FakeEntry, FakeService, routed_to

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, fake: FakeService, *argv: str) -> tuple[int, str, str]:
    """``wadlclient ARGV`` in this process, every root for api.launchpad.net reaching ``fake``."""
    with routed_to(fake):
        try:
            status = cli.main(list(argv))
        except SystemExit as exit:  # argparse's own usage errors
            status = int(exit.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("argv", "kind"),
    [
        (["https://bugs.launchpad.net/ubuntu/+source/hello/+bug/1"], "bug_task"),
        (["LP: #1"], "bug"),
        (["ppa:ada/tools"], "ppa"),
        (["https://code.launchpad.net/~ada/frob/+git/frob/+merge/7"], "merge_proposal"),
        (["https://api.launchpad.net/", "LP: #1", "--api-version", "devel"], "bug"),
        (
            ["https://api.launchpad.net/", "https://launchpad.net/~ada", "--api-version", "devel"],
            "person",
        ),
    ],
)
def test_get_prints_the_object_a_web_address_or_reference_names(
    capsys: Capsys, fake: FakeService, objects: dict[str, FakeEntry], argv: list[str], kind: str
) -> None:
    status, out, err = run(capsys, fake, "get", *argv)

    assert (status, err) == (0, "")
    assert json.loads(out)["self_link"] == fake.url_of(objects[kind])


def test_a_web_address_alone_speaks_devel_to_its_instance(
    capsys: Capsys, fake: FakeService
) -> None:
    """The fake serves devel only (it answers a 1.0 root 404): every request is answered."""
    before = len(list(fake.journal))

    status, _, err = run(capsys, fake, "get", "https://bugs.launchpad.net/bugs/1")

    assert (status, err) == (0, "")
    served = [(step.path, step.status) for step in list(fake.journal)[before:]]
    assert served[-1] == ("bugs/1", 200)
    assert all(status == 200 for _, status in served), served


@pytest.mark.parametrize(
    ("argv", "cause"),
    [
        (["https://bugs.launchpad.net/frob/+bugs"], "+bugs is a page listing many objects"),
        (["frob"], "give SERVICE and PATH, or one Launchpad web address or reference"),
        (
            ["https://api.launchpad.net/", "https://launchpad.net/~ada/+ppas", "--api-version",
             "devel"],
            "+ppas is a page listing many objects",
        ),
    ],
)  # fmt: skip
def test_text_that_names_no_one_object_is_a_usage_error_in_one_line(
    capsys: Capsys, fake: FakeService, argv: list[str], cause: str
) -> None:
    status, out, err = run(capsys, fake, "get", *argv)

    assert (status, out) == (2, "")
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert cause in err

"""A recording's files: the WADL stored once beside them, old files still read, bad ones named."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from wadlclient.errors import TransportError
from wadlclient.http import Transport
from wadlclient.testing import FakeService
from wadlclient.testing.record import (
    RecordingError,
    ReplaySender,
    recorded_root,
    replayed_root,
)

SCRIPT = Path(__file__).with_name("lp_recorded_script.py")


def record(wadl: bytes, path: Path, names: list[str]) -> str:
    """Record look-ups of people (by index) on a fake Launchpad; the root's URL."""
    with FakeService(wadl) as fake:
        for name in names:
            fake.add("people", name=name, display_name=name.title())
        record_on(fake, path, names)
        return fake.service_root


def record_on(fake: FakeService, path: Path, names: list[str]) -> None:
    with recorded_root(path, None, fake.service_root, version=fake.version) as root:
        for number, name in enumerate(names):
            assert root.people[number].display_name == name.title()


def replay(path: Path, root_url: str, names: list[str]) -> list[str]:
    with replayed_root(path, None, root_url, version="1.0") as root:
        return [root.people[number].display_name for number in range(len(names))]


# -- the WADL, once -----------------------------------------------------------------------


def test_the_wadl_is_stored_once_beside_the_recordings_of_a_directory(
    launchpad_wadl_bytes: bytes, tmp_path: Path
) -> None:
    with FakeService(launchpad_wadl_bytes) as fake:
        for name in ("ada", "grace"):
            fake.add("people", name=name, display_name=name.title())
        record_on(fake, tmp_path / "first.json", ["ada"])
        record_on(fake, tmp_path / "second.json", ["ada", "grace"])

    (wadl,) = tmp_path.glob("wadl-*.xml")  # the fake's WADL: Launchpad's, with its own base
    stored = wadl.read_bytes()
    assert fake.base.encode() in stored and len(stored) > 1_000_000
    for recording in ("first.json", "second.json"):
        size = (tmp_path / recording).stat().st_size
        assert size < len(stored) / 50  # a few KiB, not the 1.5 MB WADL
        assert b"<wadl:application" not in (tmp_path / recording).read_bytes()
    assert replay(tmp_path / "first.json", fake.service_root, ["ada"]) == ["Ada"]
    assert replay(tmp_path / "second.json", fake.service_root, ["ada", "grace"]) == ["Ada", "Grace"]


def test_a_wadl_file_changed_or_gone_is_one_error_naming_both_files(
    launchpad_wadl_bytes: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "session.json"
    record(launchpad_wadl_bytes, path, ["ada"])
    (wadl,) = tmp_path.glob("wadl-*.xml")

    wadl.write_bytes(launchpad_wadl_bytes.replace(b"people", b"peoplf", 1))
    with pytest.raises(RecordingError) as changed:
        ReplaySender(path)
    wadl.unlink()
    with pytest.raises(RecordingError) as gone:
        ReplaySender(path)

    assert str(changed.value) == (
        f"{path}: exchange 1: the WADL file {wadl.name} beside it was changed since"
    )
    assert str(gone.value) == (
        f"{path}: exchange 1: the WADL file {wadl.name} beside it cannot be read "
        "(No such file or directory)"
    )


def test_a_recording_of_format_1_with_the_wadl_inline_still_replays(
    launchpad_wadl_bytes: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "session.json"
    root_url = record(launchpad_wadl_bytes, path, ["ada"])
    document = json.loads(path.read_text())
    for exchange in document["exchanges"]:
        if exchange["body"] and "file" in exchange["body"]:
            exchange["body"] = {"text": launchpad_wadl_bytes.decode("utf-8")}
    document["format"] = "wadlclient-recording/1"
    for wadl in tmp_path.glob("wadl-*.xml"):
        wadl.unlink()
    path.write_text(json.dumps(document))

    assert replay(path, root_url, ["ada"]) == ["Ada"]


def test_a_value_an_older_recorder_left_in_clear_matches_once_scrubbed(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    url = "http://127.0.0.1:9/1.0/things?api_key=kept-by-format-1&ws.op=find"
    exchange = {"method": "GET", "url": url, "request_headers": {}, "request_body": None,
                "status": 200, "reason": "OK", "headers": {"content-type": "application/json"},
                "body": {"text": '{"found": 1}'}}  # fmt: skip
    path.write_text(json.dumps({"format": "wadlclient-recording/1", "exchanges": [exchange]}))

    with Transport(sender=ReplaySender(path)) as transport:
        answer = transport.request("GET", url.replace("kept-by-format-1", "another-key"))
        with pytest.raises(TransportError, match=r"ws\.op=search: not in the recording"):
            transport.request("GET", url.replace("find", "search"))

    assert answer.json() == {"found": 1}


# -- a file that is not a sound recording -------------------------------------------------

Change = Callable[[dict[str, Any]], object]


def _set(key: str, value: Any) -> Change:
    return lambda exchange: exchange.__setitem__(key, value)


EXCHANGE_FAULTS: list[tuple[str, Change, str]] = [
    ("no-method", lambda e: e.pop("method"), "exchange 2: 'method' is missing or not a string"),
    ("url-number", _set("url", 7), "exchange 2: 'url' is missing or not a string"),
    ("status-text", _set("status", "200"), "exchange 2: 'status' is missing or not a status code"),
    ("status-99", _set("status", 99), "exchange 2: 'status' is missing or not a status code"),
    ("status-true", _set("status", True), "exchange 2: 'status' is missing or not a status code"),
    ("headers-list", _set("headers", []), "exchange 2: 'headers' is missing or not an object"),
    ("header-number", _set("headers", {"etag": 1}), "exchange 2: 'headers' is missing or not"),
    ("no-body", lambda e: e.pop("body"), "exchange 2: 'body' is missing"),
    ("no-request-body", lambda e: e.pop("request_body"), "exchange 2: 'request_body' is missing"),
    ("body-string", _set("body", "hello"), "exchange 2: 'body' is not null or an object with"),
    ("body-two-kinds", _set("body", {"text": "a", "base64": "YQ=="}),
     "exchange 2: 'body' is not null or"),
    ("bad-base64", _set("body", {"base64": "not base64!"}), "exchange 2: 'body' holds bad base64"),
    ("file-escapes", _set("body", {"file": "../../etc/passwd", "sha256": "0" * 64}),
     "exchange 2: 'body' names '../../etc/passwd', not a WADL file of a recording"),
    ("request-file", _set("request_body", {"file": "wadl-0000000000000000.xml", "sha256": "0"}),
     "exchange 2: 'request_body' is not null or an object"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("change", "says"),
    [(change, says) for _, change, says in EXCHANGE_FAULTS],
    ids=[name for name, _, _ in EXCHANGE_FAULTS],
)
def test_a_tampered_exchange_is_one_error_naming_the_file_and_the_fault(
    launchpad_wadl_bytes: bytes, tmp_path: Path, change: Change, says: str
) -> None:
    path = tmp_path / "session.json"
    record(launchpad_wadl_bytes, path, ["ada"])
    document = json.loads(path.read_text())
    change(document["exchanges"][1])
    path.write_text(json.dumps(document))

    with pytest.raises(RecordingError) as caught:
        ReplaySender(path)

    assert str(caught.value).startswith(f"{path}: {says}")
    assert caught.value.__cause__ is None


WHOLE_FILE_FAULTS = [
    ("empty", b"", "not a recording (not JSON: Expecting value: line 1 column 1 (char 0))"),
    ("truncated", b'{"format": "wadlclient-recording/2", "exchanges": [{"meth',
     "not a recording (not JSON: Unterminated string starting at: line 1 column 53"),
    ("binary", b"\x89PNG\r\n\x1a\n\x00", "not a recording (not UTF-8 text)"),
    ("a-list", b"[]", "not a recording of format 'wadlclient-recording/2'"),
    ("no-format", b'{"exchanges": []}', "not a recording of format 'wadlclient-recording/2'"),
    ("format-3", b'{"format": "wadlclient-recording/3", "exchanges": []}', "not a recording of"),
    ("no-exchanges", b'{"format": "wadlclient-recording/2"}', "'exchanges' is missing or not"),
    ("exchanges-object", b'{"format": "wadlclient-recording/2", "exchanges": {}}',
     "'exchanges' is missing or not a list"),
    ("exchange-string", b'{"format": "wadlclient-recording/2", "exchanges": ["GET /"]}',
     "exchange 1: not an object"),
    ("deep", b"[" * 100_000, "not a recording (JSON nested too deeply)"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("content", "says"),
    [(content, says) for _, content, says in WHOLE_FILE_FAULTS],
    ids=[name for name, _, _ in WHOLE_FILE_FAULTS],
)
def test_a_file_that_is_not_a_recording_is_one_error_naming_it(
    tmp_path: Path, content: bytes, says: str
) -> None:
    path = tmp_path / "session.json"
    path.write_bytes(content)

    with pytest.raises(RecordingError) as caught:
        ReplaySender(path)

    assert str(caught.value).startswith(f"{path}: {says}")
    assert isinstance(caught.value, ValueError)  # as the recorder's errors always were


def test_a_missing_recording_is_one_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"

    with pytest.raises(RecordingError, match=r"nowhere.json: cannot be read \(No such file"):
        ReplaySender(path)


def test_a_good_recording_is_untouched_by_the_checks(
    launchpad_wadl_bytes: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "session.json"
    root_url = record(launchpad_wadl_bytes, path, ["ada", "grace"])
    document = json.loads(path.read_text())
    path.write_text(json.dumps(copy.deepcopy(document)))

    assert replay(path, root_url, ["ada", "grace"]) == ["Ada", "Grace"]


BAD_REPLAY_FILES = {
    "cut short": b'{"format": "wadlclient-recording/2", "exchanges": [{"m',
    "not an exchange": b'{"format": "wadlclient-recording/2", "exchanges": [7]}',
}


@pytest.fixture(scope="module")
def refusals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[Any]]]:
    """Each bad file's path and runner's ``[status, stderr, stdout]``: ``python -m
    wadlclient.lazr_compat --replay BAD ...``, all run in one child (`cli_runs.py`)."""
    scratch = tmp_path_factory.mktemp("refusals")
    runs, paths = [], {}
    for name, content in BAD_REPLAY_FILES.items():
        bad = paths[name] = scratch / f"{name.replace(' ', '_')}.json"
        bad.write_bytes(content)
        arguments = ["--replay", str(bad), str(SCRIPT), "http://127.0.0.1:9/", "1.0"]
        runs.append(("wadlclient.lazr_compat", arguments, {}))
    plan = scratch / "runs.json"
    plan.write_text(json.dumps(runs))
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("cli_runs.py")), str(plan)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return dict(zip(paths, zip(paths.values(), json.loads(done.stdout), strict=True), strict=True))


@pytest.mark.parametrize("bad_file", BAD_REPLAY_FILES)
def test_the_runner_refuses_a_bad_replay_file_in_one_line(
    bad_file: str, refusals: dict[str, tuple[Path, list[Any]]]
) -> None:
    bad, (status, stderr, stdout) = refusals[bad_file]

    assert status == 2
    assert stdout == ""
    assert stderr.startswith(f"python -m wadlclient.lazr_compat: {bad}: ")
    assert stderr.count("\n") == 1

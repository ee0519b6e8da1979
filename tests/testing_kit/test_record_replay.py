"""A session recorded against a live service replays from its file offline, credentials scrubbed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from wadlclient import AccessToken, OAuthAuthorizer, TransportError
from wadlclient.testing import FakeService
from wadlclient.testing.record import recorded_root, replayed_root, scrub

SCRIPT = Path(__file__).with_name("lp_recorded_script.py")


def record_people(wadl: bytes, path: Path, lookups: int) -> tuple[list[str], str, int]:
    """Record ``lookups`` look-ups by index: (what was read, the root URL, requests served)."""
    token = AccessToken("token-key-123", "token-secret-456")
    authorizer = OAuthAuthorizer("recorder", access_token=token)
    with FakeService(wadl) as fake:
        for number in range(lookups):
            fake.add("people", name=f"p{number}", display_name=f"Person {number}")
        with recorded_root(path, authorizer, fake.service_root) as root:
            names = [root.people[number].display_name for number in range(lookups)]
        return names, fake.service_root, len(fake.journal)


def test_a_50_request_session_replays_offline(launchpad_wadl_bytes: bytes, tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    recorded, root_url, served = record_people(launchpad_wadl_bytes, path, 48)
    assert served == 50  # the WADL, the root, 48 look-ups; the fake is closed from here on

    with replayed_root(path, None, root_url) as root:
        replayed = [root.people[number].display_name for number in range(48)]

    assert replayed == recorded


def test_the_recording_is_readable_and_holds_no_credentials(
    launchpad_wadl_bytes: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "session.json"
    record_people(launchpad_wadl_bytes, path, 1)

    text = path.read_text(encoding="utf-8")
    exchanges = json.loads(text)["exchanges"]

    assert "token-key-123" not in text and "token-secret-456" not in text
    assert {e["request_headers"].get("authorization") for e in exchanges} == {"<scrubbed>"}
    assert exchanges[-1]["url"].endswith("/1.0/people?ws.start=0&ws.size=1")
    assert '"display_name": "Person 0"' in exchanges[-1]["body"]["text"]


def test_tokens_in_urls_and_bodies_are_scrubbed() -> None:
    body = "oauth_token=abc&oauth_token_secret=xyz&lp.context=none"

    assert scrub(body) == "oauth_token=<scrubbed>&oauth_token_secret=<scrubbed>&lp.context=none"
    assert scrub('{"password": "hunter2"}') == '{"password": "<scrubbed>"}'


def test_a_request_that_was_not_recorded_fails_naming_it(
    launchpad_wadl_bytes: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "session.json"
    _names, root_url, _served = record_people(launchpad_wadl_bytes, path, 1)

    with replayed_root(path, None, root_url) as root:
        assert root.people[0].name == "p0"
        with pytest.raises(TransportError, match=r"GET .*/1.0/bugs\?ws.start=0&ws.size=1: not in"):
            root.bugs[0]
        with pytest.raises(TransportError, match=r"people\?ws.start=0&ws.size=1 again: not in"):
            root.people[0]


def test_a_session_with_the_real_cookbook_service_replays_without_it(
    cookbook_service: Any, tmp_path: Path
) -> None:
    path = tmp_path / "cookbook.json"
    with recorded_root(path, None, cookbook_service.base_url) as root:
        recorded = [(recipe.id, recipe.dish.name) for recipe in root.recipes[:5]]
    served = len(cookbook_service.journal.entries())

    with replayed_root(path, None, cookbook_service.base_url) as root:
        replayed = [(recipe.id, recipe.dish.name) for recipe in root.recipes[:5]]

    assert len(recorded) == 5 and replayed == recorded
    assert len(cookbook_service.journal.entries()) == served  # nothing more reached the service


def _run_script(*options: str, root: str, version: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "wadlclient.lazr_compat", *options, str(SCRIPT), root, version]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


class Recorded(NamedTuple):
    """A launchpadlib script's run with ``--record``, against a fake that is closed since."""

    run: subprocess.CompletedProcess[str]
    root: str
    version: str
    served: int
    path: Path


@pytest.fixture(scope="module")
def recorded(launchpad_wadl_bytes: bytes, tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    """The script recorded once per module; each test replays a copy of its own (`copied`)."""
    path = tmp_path_factory.mktemp("recorded") / "launchpadlib.json"
    with FakeService(launchpad_wadl_bytes) as fake:
        ada = fake.add("people", name="ada", display_name="Ada Lovelace")
        fake.add("bugs", title="Crash on start", owner=ada)
        run = _run_script("--record", str(path), root=fake.service_root, version=fake.version)
        return Recorded(run, fake.service_root, fake.version, len(fake.journal), path)


def copied(recorded: Recorded, directory: Path) -> Path:
    """The recording, and the WADL file beside it, copied into ``directory``."""
    for file in recorded.path.parent.iterdir():
        (directory / file.name).write_bytes(file.read_bytes())
    return directory / recorded.path.name


def test_a_launchpadlib_program_is_recorded_and_replayed_unchanged(
    recorded: Recorded, tmp_path: Path
) -> None:
    path = copied(recorded, tmp_path)
    assert recorded.run.returncode == 0, recorded.run.stderr
    assert json.loads(recorded.run.stdout) == ["Ada Lovelace", "Crash on start", "ada"]
    exchanges = json.loads(path.read_text())["exchanges"]
    assert len(exchanges) == recorded.served  # every request the fake answered, nothing else

    replayed = _run_script("--replay", str(path), root=recorded.root, version=recorded.version)

    # The fake is closed: the answers can only have come from the file.
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout == recorded.run.stdout


def test_a_replayed_launchpadlib_program_asking_something_new_fails_naming_it(
    recorded: Recorded, tmp_path: Path
) -> None:
    path = copied(recorded, tmp_path)
    assert recorded.run.returncode == 0, recorded.run.stderr
    document = json.loads(path.read_text())
    document["exchanges"] = [e for e in document["exchanges"] if "/bugs/1" not in e["url"]]
    path.write_text(json.dumps(document))
    root, version = recorded.root, recorded.version

    replayed = _run_script("--replay", str(path), root=root, version=version)

    assert replayed.returncode != 0
    assert f"GET {root}{version}/bugs/1: not in the recording {path}" in replayed.stderr


def test_recording_through_a_proxy_is_refused_before_anything_is_sent(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import httplib2

    from wadlclient.lazr.restfulclient.resource import ServiceRoot as LazrServiceRoot

    monkeypatch.setenv("WADLCLIENT_RECORD", str(tmp_path / "session.json"))
    proxy = httplib2.ProxyInfo(httplib2.socks.PROXY_TYPE_HTTP, "127.0.0.1", 9)

    with pytest.raises(ValueError, match="requests through a proxy_info go through httplib2"):
        LazrServiceRoot(None, "http://127.0.0.1:9/", proxy_info=proxy, version="1.0")


def test_recording_and_replaying_at_once_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from wadlclient.http.pool import ConnectionPool
    from wadlclient.testing.record import sender_from_environment

    monkeypatch.setenv("WADLCLIENT_RECORD", str(tmp_path / "a.json"))
    monkeypatch.setenv("WADLCLIENT_REPLAY", str(tmp_path / "b.json"))

    with pytest.raises(ValueError, match="are both set: choose one"):
        sender_from_environment(ConnectionPool())


def test_the_runner_wants_a_file_after_record() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wadlclient.lazr_compat", "--record"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "usage: python -m wadlclient.lazr_compat [--record FILE | --replay FILE]" in done.stderr

"""A recording replays on a fresh machine: made on a warm cache, or against a routed fake.

Each replay runs in another process with an empty cache of its own (the
script's launchpadlib directory is a fresh temporary one), as CI or a
colleague would run it; the fake is closed by then, so every answer can
only come from the file.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wadlclient import TransportError
from wadlclient.testing import FakeService, routed_to
from wadlclient.testing.record import recorded_root, replayed_root

SCRIPT = Path(__file__).with_name("lp_recorded_script.py")
SEED = """
def seed(fake):
    ada = fake.add("people", name="ada", display_name="Ada Lovelace")
    fake.add("bugs", title="Crash on start", owner=ada)
"""
READ = ["Ada Lovelace", "Crash on start", "ada"]


def run_script(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``python -m wadlclient.lazr_compat ARGUMENTS``: the options, the script and its own."""
    command = [sys.executable, "-m", "wadlclient.lazr_compat", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def statuses(recording: Path) -> list[int]:
    return [exchange["status"] for exchange in json.loads(recording.read_text())["exchanges"]]


def seeded(fake: FakeService) -> FakeService:
    ada = fake.add("people", name="ada", display_name="Ada Lovelace")
    fake.add("bugs", title="Crash on start", owner=ada)
    return fake


def test_a_launchpadlib_script_recorded_on_a_warm_cache_replays_on_an_empty_one(
    fake_lp: FakeService, tmp_path: Path
) -> None:
    seeded(fake_lp)
    home, recording = tmp_path / "launchpadlib", tmp_path / "rec" / "session.json"
    script = (str(SCRIPT), fake_lp.service_root, "devel")
    warm = run_script(*script, str(home))  # the cache now holds every answer, with its ETag
    recorded = run_script("--record", str(recording), *script, str(home))
    fake_lp.close()

    replayed = run_script("--replay", str(recording), *script)  # a fresh launchpadlib directory

    assert [json.loads(run.stdout) for run in (warm, recorded)] == [READ] * 2
    assert set(statuses(recording)) == {200}  # whole answers, never a 304 only a cache could use
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == READ


@pytest.mark.parametrize(
    ("asked", "address"),
    [
        ("production", "https://api.launchpad.net/"),
        ("staging", "https://api.staging.launchpad.net/"),
    ],
)
def test_a_script_run_against_the_fake_with_record_replays_for_the_address_it_asked(
    tmp_path: Path, asked: str, address: str
) -> None:
    seed, recording = tmp_path / "seed.py", tmp_path / "rec" / "session.json"
    seed.write_text(SEED)
    script = (str(SCRIPT), asked, "devel")

    recorded = run_script("--fake", str(seed), "--record", str(recording), *script)
    replayed = run_script("--replay", str(recording), *script)

    assert recorded.returncode == 0, recorded.stderr
    assert json.loads(recorded.stdout) == READ
    text = recording.read_text()
    assert "127.0.0.1" not in text
    assert f'"url": "{address}devel/~ada"' in text
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == READ


def test_a_native_recording_under_routed_to_replays_for_the_address_the_code_asked(
    fake_lp: FakeService, tmp_path: Path
) -> None:
    seeded(fake_lp)
    recording = tmp_path / "session.json"
    with (
        routed_to(fake_lp),
        recorded_root(recording, None, "https://api.launchpad.net/", version="devel") as root,
    ):
        recorded = root.people["ada"].display_name
    fake_lp.close()

    with replayed_root(recording, None, "https://api.launchpad.net/", version="devel") as root:
        assert root.people["ada"].display_name == recorded == "Ada Lovelace"


def test_a_native_recording_on_a_warm_cache_starts_from_an_empty_one(
    fake_lp: FakeService, tmp_path: Path
) -> None:
    seeded(fake_lp)
    cache, recording = tmp_path / "cache", tmp_path / "session.json"
    for _warming in range(2):
        with recorded_root(
            tmp_path / "warming.json", None, fake_lp.service_root, cache, version="devel"
        ) as root:
            root.people["ada"].display_name  # noqa: B018 - reading it is the request
    with recorded_root(recording, None, fake_lp.service_root, cache=cache, version="devel") as root:
        root.people["ada"].display_name  # noqa: B018 - reading it is the request
    fake_lp.close()

    with replayed_root(recording, None, fake_lp.service_root, version="devel") as root:
        assert root.people["ada"].display_name == "Ada Lovelace"
    assert statuses(recording) == [200, 200, 200]  # the WADL, the root, ~ada


def test_a_replay_for_another_address_says_which_one_it_was_recorded_for(
    fake_lp: FakeService, tmp_path: Path
) -> None:
    seeded(fake_lp)
    recording = tmp_path / "session.json"
    with recorded_root(recording, None, fake_lp.service_root, version="devel") as root:
        root.people["ada"].name  # noqa: B018 - reading it is the request

    with pytest.raises(TransportError) as refused:
        replayed_root(recording, None, "https://api.launchpad.net/", version="devel")

    message = str(refused.value)
    assert "\n" not in message
    assert f"(it was recorded for {fake_lp.service_root}, another address)" in message


def test_a_replay_of_an_answer_recorded_as_a_304_says_it_was_recorded_on_a_warm_cache(
    fake_lp: FakeService, tmp_path: Path
) -> None:
    seeded(fake_lp)
    recording = tmp_path / "session.json"
    with recorded_root(recording, None, fake_lp.service_root, version="devel") as root:
        root.people["ada"].name  # noqa: B018 - reading it is the request
    document = json.loads(recording.read_text())  # as an older wadlclient recorded it
    document["exchanges"][-1].update(status=304, reason="Not Modified", body=None)
    recording.write_text(json.dumps(document))

    with (
        replayed_root(recording, None, fake_lp.service_root, version="devel") as root,
        pytest.raises(TransportError, match="it was recorded on a warm cache; record it again"),
    ):
        root.people["ada"].name  # noqa: B018 - reading it is the request

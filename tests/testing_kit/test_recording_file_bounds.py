"""A recording and the WADL file beside it are read only when small regular files (issue 40, 4).

A symbolic link to ``/dev/zero`` or a sparse file of gigabytes would fill
memory if read whole; a FIFO would block the replay for ever. Each is one
`RecordingError` naming the file and why, before a byte of it is read.
The recording is made for real, on a fake Launchpad over loopback.
"""

from __future__ import annotations

import os
import shutil
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from wadlclient.testing import FakeService
from wadlclient.testing.record import RecordingError, ReplaySender, recorded_root, replayed_root

#: A sparse file this big, read whole, would exhaust the memory of most machines.
HUGE = 3 << 30


@pytest.fixture(scope="module")
def recorded(
    launchpad_wadl_bytes: bytes, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, str]:
    """A directory holding one recording of a look-up of Ada and its WADL file; the root's URL."""
    directory = tmp_path_factory.mktemp("recorded")
    with FakeService(launchpad_wadl_bytes) as fake:
        fake.add("people", name="ada", display_name="Ada")
        with recorded_root(
            directory / "session.json", None, fake.service_root, version=fake.version
        ) as root:
            assert root.people[0].display_name == "Ada"
        return directory, fake.service_root


@pytest.fixture
def copy(recorded: tuple[Path, str], tmp_path: Path) -> tuple[Path, Path, str]:
    """A copy of the recording (its path, its WADL file's path) and the root's URL."""
    directory, root_url = recorded
    for item in directory.iterdir():
        shutil.copy(item, tmp_path / item.name)
    (wadl,) = tmp_path.glob("wadl-*.xml")
    return tmp_path / "session.json", wadl, root_url


def _sparse(path: Path) -> None:
    with path.open("wb") as out:
        out.truncate(HUGE)


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


REPLACEMENTS: dict[str, tuple[Callable[[Path], None], str]] = {
    "sparse-3GiB": (_sparse, f"it holds {HUGE} bytes, more than any"),
    "link-to-dev-zero": (_zero, "it is a character device, not a regular file"),
    "fifo": (_fifo, "it is a FIFO, not a regular file"),
}


def replay_error(path: Path) -> BaseException | None:
    """What opening the replay of ``path`` raises, in a thread given 10 s (a FIFO may block)."""
    caught: list[BaseException] = []

    def replay() -> None:
        try:
            ReplaySender(path)
        except BaseException as error:  # handed to the test, whatever it is
            caught.append(error)

    tracemalloc.start()
    try:
        reader = threading.Thread(target=replay, daemon=True)
        reader.start()
        reader.join(10)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    if reader.is_alive():
        for fifo in (path, *path.parent.glob("wadl-*.xml")):
            if fifo.is_fifo():
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"replaying {path} blocked for 10 s")
    assert peak < 64 << 20, f"reading took {peak} bytes"
    return caught[0] if caught else None


@pytest.mark.usefixtures("python_gc_thresholds")
@pytest.mark.parametrize("kind", REPLACEMENTS)
def test_a_wadl_file_that_is_not_a_small_regular_file_is_one_error(
    copy: tuple[Path, Path, str], kind: str
) -> None:
    path, wadl, _ = copy
    make, says = REPLACEMENTS[kind]
    wadl.unlink()
    make(wadl)

    error = replay_error(path)

    assert isinstance(error, RecordingError)
    assert str(error).startswith(f"{path}: exchange ")
    assert f"the WADL file {wadl.name} beside it cannot be read ({says}" in str(error)


@pytest.mark.usefixtures("python_gc_thresholds")
@pytest.mark.parametrize("kind", REPLACEMENTS)
def test_a_recording_that_is_not_a_small_regular_file_is_one_error(
    copy: tuple[Path, Path, str], kind: str
) -> None:
    path, _, _ = copy
    make, says = REPLACEMENTS[kind]
    path.unlink()
    make(path)

    error = replay_error(path)

    assert isinstance(error, RecordingError)
    assert str(error).startswith(f"{path}: cannot be read ({says}")


def test_recording_again_beside_a_wadl_file_planted_as_a_link_to_dev_zero_replaces_it(
    launchpad_wadl_bytes: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "session.json"
    with FakeService(launchpad_wadl_bytes) as fake:
        fake.add("people", name="ada", display_name="Ada")
        for again in (False, True):
            if again:  # the WADL file the second recording would share: a link to /dev/zero
                (wadl,) = tmp_path.glob("wadl-*.xml")
                wadl.unlink()
                _zero(wadl)
            with recorded_root(path, None, fake.service_root, version=fake.version) as root:
                assert root.people[0].display_name == "Ada"
        root_url = fake.service_root

    assert not wadl.is_symlink()
    with replayed_root(path, None, root_url, version="1.0") as root:
        assert root.people[0].display_name == "Ada"

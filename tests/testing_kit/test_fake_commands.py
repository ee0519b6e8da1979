"""A fake Launchpad from the command line, for launchpadlib scripts left as they are.

``python -m wadlclient.testing serve`` keeps one listening; ``python -m
wadlclient.lazr_compat --fake SEED`` runs one script against one. Both
take a seed file defining ``seed(fake)``; each mistake is one line.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from wadlclient.testing import FakeService, launchpad_wadl

SCRIPT = Path(__file__).with_name("lp_recorded_script.py")
SEED = """
def seed(fake):
    ada = fake.add("people", name="ada", display_name="Ada Lovelace")
    fake.add("bugs", title="Crash on start", owner=ada)
"""


@pytest.fixture
def seed(tmp_path: Path) -> Path:
    path = tmp_path / "seed.py"
    path.write_text(SEED)
    return path


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port something else listens on."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield int(taken.getsockname()[1])


def python(*arguments: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def test_serve_keeps_a_seeded_fake_that_an_unchanged_launchpadlib_script_reaches(
    seed: Path,
) -> None:
    command = [sys.executable, "-m", "wadlclient.testing", "serve", "--seed", str(seed)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as server:
        try:
            assert server.stdout is not None
            banner = server.stdout.readline()
            root = banner.split(" at ")[1].split()[0]
            run = python(str(SCRIPT), root, "devel")  # stock launchpadlib, no wadlclient in it
        finally:
            server.terminate()

    assert banner.startswith("a fake Launchpad (devel) at http://127.0.0.1:")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == ["Ada Lovelace", "Crash on start", "ada"]


def test_lazr_compat_runs_an_unchanged_script_for_launchpads_address_on_the_fake(
    seed: Path,
) -> None:
    run = python(
        "-m", "wadlclient.lazr_compat", "--fake", str(seed), str(SCRIPT), "production", "devel"
    )

    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == ["Ada Lovelace", "Crash on start", "ada"]


def test_a_fake_listens_on_the_port_it_is_given() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = int(probe.getsockname()[1])

    with FakeService(launchpad_wadl(), port=free) as fake:
        assert fake.service_root == f"http://127.0.0.1:{free}/"


def test_a_port_in_use_is_one_line(busy_port: int, seed: Path) -> None:
    with pytest.raises(OSError, match=f"the fake cannot listen on 127.0.0.1:{busy_port}"):
        FakeService(launchpad_wadl(), port=busy_port)

    served = python(
        "-m", "wadlclient.testing", "serve", "--port", str(busy_port), "--seed", str(seed)
    )

    assert served.returncode == 2
    assert served.stderr.count("\n") == 1
    assert f"cannot listen on 127.0.0.1:{busy_port}" in served.stderr


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["serve", "--seed", "missing.py"], "missing.py: no such seed file"),
        (["serve", "--launchpad", "2.0"], "argument --launchpad: invalid choice: '2.0'"),
        (["serve", "--bogus"], "unrecognized arguments: --bogus (see --help)"),
    ],
)
def test_a_serve_mistake_is_one_line(arguments: list[str], said: str) -> None:
    served = python("-m", "wadlclient.testing", *arguments)

    assert served.returncode == 2
    assert served.stderr.count("\n") == 1 and said in served.stderr


@pytest.mark.parametrize(
    ("seed_text", "said"),
    [
        ("x = 1\n", "a seed file defines seed(fake)"),
        (
            "def seed(fake):\n    fake.add('people', nme='x')\n",
            "seed(fake) failed: ValueError: nme",
        ),
        ("raise RuntimeError('broken')\n", "the seed file failed: RuntimeError: broken"),
    ],
)
def test_a_bad_seed_file_is_one_line(tmp_path: Path, seed_text: str, said: str) -> None:
    seed = tmp_path / "seed.py"
    seed.write_text(seed_text)

    run = python(
        "-m", "wadlclient.lazr_compat", "--fake", str(seed), str(SCRIPT), "production", "devel"
    )

    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and said in run.stderr


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("WADLCLIENT_CACHE", "redis://host:port/0", "$WADLCLIENT_CACHE is 'redis://host:port/0'"),
        ("WADLCLIENT_LOOK_AHEAD", "lots", "WADLCLIENT_LOOK_AHEAD must be a whole number"),
        ("WADLCLIENT_MAX_IN_FLIGHT", "0", "WADLCLIENT_MAX_IN_FLIGHT must be a whole number"),
    ],
)
def test_a_bad_wadlclient_variable_under_the_runner_is_one_line(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, said: str
) -> None:
    monkeypatch.setenv(variable, value)

    run = python("-m", "wadlclient.lazr_compat", str(SCRIPT), "production", "devel")

    assert run.returncode == 2
    assert run.stderr == f"python -m wadlclient.lazr_compat: {run.stderr.partition(': ')[2]}"
    assert run.stderr.count("\n") == 1 and said in run.stderr

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
from typing import Any

import pytest

from wadlclient.testing import FakeService, launchpad_wadl

SCRIPT = Path(__file__).with_name("lp_recorded_script.py")
RUNS = Path(__file__).with_name("cli_runs.py")
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


SERVE_MISTAKES = {
    "missing seed": (["serve", "--seed", "missing.py"], "missing.py: no such seed file"),
    "unknown version": (
        ["serve", "--launchpad", "2.0"],
        "argument --launchpad: invalid choice: '2.0'",
    ),
    "unknown option": (["serve", "--bogus"], "unrecognized arguments: --bogus (see --help)"),
}
BAD_SEEDS = {
    "no seed": ("x = 1\n", "a seed file defines seed(fake)"),
    "seed fails": (
        "def seed(fake):\n    fake.add('people', nme='x')\n",
        "seed(fake) failed: ValueError: nme",
    ),
    "file fails": ("raise RuntimeError('broken')\n", "the seed file failed: RuntimeError: broken"),
}
BAD_VARIABLES = {
    "WADLCLIENT_CACHE": ("redis://host:port/0", "$WADLCLIENT_CACHE is 'redis://host:port/0'"),
    "WADLCLIENT_LOOK_AHEAD": ("lots", "WADLCLIENT_LOOK_AHEAD must be a whole number"),
    "WADLCLIENT_MAX_IN_FLIGHT": ("0", "WADLCLIENT_MAX_IN_FLIGHT must be a whole number"),
}


@pytest.fixture(scope="module")
def mistakes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[Any]]]:
    """Each mistake's ``[status, stderr, stdout]``, by name: its command line run as ``python
    -m`` runs it, all in one child (`cli_runs.py`) rather than a child each."""
    scratch = tmp_path_factory.mktemp("mistakes")
    seed = scratch / "seed.py"
    seed.write_text(SEED)
    runs: dict[str, tuple[str, list[str], dict[str, str]]] = {
        name: ("wadlclient.testing", arguments, {})
        for name, (arguments, _) in SERVE_MISTAKES.items()
    }
    for name, (text, _) in BAD_SEEDS.items():
        bad = scratch / f"{name.replace(' ', '_')}.py"
        bad.write_text(text)
        runs[name] = (
            "wadlclient.lazr_compat",
            ["--fake", str(bad), str(SCRIPT), "production", "devel"],
            {},
        )
    for variable, (value, _) in BAD_VARIABLES.items():
        arguments = [str(SCRIPT), "production", "devel"]
        runs[variable] = ("wadlclient.lazr_compat", arguments, {variable: value})
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = int(taken.getsockname()[1])
        runs["port in use"] = (
            "wadlclient.testing",
            ["serve", "--port", str(busy), "--seed", str(seed)],
            {},
        )
        plan = scratch / "runs.json"
        plan.write_text(json.dumps(list(runs.values())))
        done = python(str(RUNS), str(plan))
    assert done.returncode == 0, done.stderr
    results = dict(zip(runs, json.loads(done.stdout), strict=True))
    results["port in use"].append(busy)
    yield results


def test_a_port_in_use_is_one_line(busy_port: int, mistakes: dict[str, list[Any]]) -> None:
    with pytest.raises(OSError, match=f"the fake cannot listen on 127.0.0.1:{busy_port}"):
        FakeService(launchpad_wadl(), port=busy_port)

    status, stderr, _stdout, port = mistakes["port in use"]  # the same from the command line

    assert status == 2
    assert stderr.count("\n") == 1
    assert f"cannot listen on 127.0.0.1:{port}" in stderr


@pytest.mark.parametrize("mistake", SERVE_MISTAKES)
def test_a_serve_mistake_is_one_line(mistake: str, mistakes: dict[str, list[Any]]) -> None:
    status, stderr, _stdout = mistakes[mistake]

    assert status == 2
    assert stderr.count("\n") == 1 and SERVE_MISTAKES[mistake][1] in stderr


@pytest.mark.parametrize("mistake", BAD_SEEDS)
def test_a_bad_seed_file_is_one_line(mistake: str, mistakes: dict[str, list[Any]]) -> None:
    status, stderr, _stdout = mistakes[mistake]

    assert status == 2
    assert stderr.count("\n") == 1 and BAD_SEEDS[mistake][1] in stderr


@pytest.mark.parametrize("mistake", BAD_VARIABLES)
def test_a_bad_wadlclient_variable_under_the_runner_is_one_line(
    mistake: str, mistakes: dict[str, list[Any]]
) -> None:
    status, stderr, _stdout = mistakes[mistake]

    assert status == 2
    assert stderr == f"python -m wadlclient.lazr_compat: {stderr.partition(': ')[2]}"
    assert stderr.count("\n") == 1 and BAD_VARIABLES[mistake][1] in stderr

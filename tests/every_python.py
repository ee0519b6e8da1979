"""The suite on every Python the package claims: ``python -m tests.every_python``, run by .ci/run.

The claimed versions are pyproject.toml's ``Programming Language :: Python
:: 3.N`` classifiers (`tests/newcomer/test_packaging.py` checks that they
agree with ``requires-python``). Each is found, in this order, at
``$WADLCLIENT_PYTHON_3_N`` (a path), under pyenv (``$PYENV_ROOT/versions/
3.N.*``, ``~/.pyenv`` by default, the newest patch release), or as
``python3.N`` on ``PATH``; a claimed version that is not found fails the
run, naming where it was looked for: a version skipped in silence is a
version nobody tests.

The version of ``.venv`` (``make test``'s own run, which .ci/run makes
first) is not run again: ``--default-log`` names that run's output, whose
tallies are reported with the others. Every other version gets a venv of
its own (``.venv-3.N``, remade when pyproject.toml changes) with the extras
``make test`` installs, and runs what ``make test`` runs after ``make
lint``: pytest (as many workers as make test's, pytest-xdist), launchpadlib's suite and
lazr.restfulclient's. Versions run ``--jobs`` at a time (default: one per
two cores), their output in ``.ci-logs/python3.N.log``; the summary names
each version with its tallies. Nothing is left out on any version.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / ".ci-logs"
EXTRAS = "test,lint,bench,docs,package"  # what make test installs (the Makefile's STAMP)
#: What make test runs after make lint, as module arguments to the venv's python.
SUITES = (
    ("pytest", ["-m", "pytest", "-q", "-p", "no:cacheprovider"]),
    ("launchpadlib", ["-m", "tests.lazr.launchpadlib_suite"]),
    ("lazr.restfulclient", ["-m", "tests.lazr.restfulclient_suite"]),
)
#: The line that tallies each suite's run.
TALLY = {
    "pytest": re.compile(r"^=*\s*(\d+ (?:passed|failed|errors?)\b.* in [\d.]+s.*?)\s*=*$", re.M),
    "launchpadlib": re.compile(r"^launchpadlib \S+ suite on wadlclient.*?: (.*)$", re.M),
    "lazr.restfulclient": re.compile(
        r"^lazr\.restfulclient \S+ suite on wadlclient.*?: (.*)$", re.M
    ),
}


class Outcome(NamedTuple):
    """One version's run: the interpreter, each suite's tally, whether all passed, how long."""

    version: str
    python: str
    tallies: dict[str, str]
    passed: bool
    seconds: float


def claimed_versions() -> list[str]:
    """The ``3.N`` versions pyproject.toml's classifiers claim, oldest first."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = set(re.findall(r'"Programming Language :: Python :: (3\.\d+)"', text))
    return sorted(found, key=lambda v: tuple(map(int, v.split("."))))


def _pyenv_candidates(version: str) -> list[Path]:
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    matches = [p for p in root.glob(f"{version}.*") if re.fullmatch(rf"{version}\.\d+", p.name)]
    matches.sort(key=lambda p: int(p.name.rsplit(".", 1)[1]), reverse=True)
    return [p / "bin" / f"python{version}" for p in matches]


def find_python(version: str) -> tuple[Path | None, list[str]]:
    """The interpreter for ``version`` (see the module's docstring), and where it was looked for."""
    variable = "WADLCLIENT_PYTHON_" + version.replace(".", "_")
    looked = [f"${variable}"]
    candidates: list[Path] = []
    if os.environ.get(variable):
        candidates.append(Path(os.environ[variable]))
    looked.append(str(Path(os.environ.get("PYENV_ROOT") or "~/.pyenv") / f"versions/{version}.*"))
    candidates += _pyenv_candidates(version)
    looked.append(f"python{version} on PATH")
    on_path = shutil.which(f"python{version}")
    if on_path and "/shims/" not in on_path:  # a pyenv shim answers for versions it lacks
        candidates.append(Path(on_path))
    for candidate in candidates:
        if candidate.is_file() and _version_of(candidate) == version:
            return candidate, looked
    return None, looked


def _version_of(python: Path) -> str:
    done = subprocess.run(
        [str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return done.stdout.strip()


def venv_for(version: str, python: Path, log: Path) -> Path:
    """``.venv-3.N`` with the project and make test's extras (remade when pyproject changes)."""
    venv = ROOT / f".venv-{version}"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:12]
    stamp = venv / f".installed-{digest}"
    if stamp.exists():
        return venv
    with log.open("a") as out:
        if not (venv / "bin" / "python").exists():
            make = [str(python), "-m", "venv", str(venv)]
            subprocess.run(make, check=True, stdout=out, stderr=out)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True, stdout=out, stderr=out)
        subprocess.run([*pip, "-e", f".[{EXTRAS}]"], cwd=ROOT, check=True, stdout=out, stderr=out)
    for old in venv.glob(".installed-*"):
        old.unlink()
    stamp.touch()
    return venv


def tally(suite: str, output: str) -> str:
    """The suite's tally line in its ``output`` (the last one)."""
    lines = TALLY[suite].findall(output)
    return lines[-1].strip() if lines else "no tally (did it run?)"


def bytecode_env(venv: Path) -> dict[str, str]:
    """As make test's: compiled bytecode kept in the venv, whatever the machine's setting."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(venv / "pycache")
    return env


def run_version(version: str, python: Path, workers: int) -> Outcome:
    """make test's suites (lint aside) on ``version``, in its own venv; output in .ci-logs/."""
    LOGS.mkdir(exist_ok=True)
    log = LOGS / f"python{version}.log"
    log.write_text("")
    began = time.monotonic()
    try:
        venv = venv_for(version, python, log)
    except subprocess.CalledProcessError as error:
        return Outcome(version, str(python), {"venv": f"not made: {error}"}, False, 0.0)
    passed, found = True, {}
    for suite, args in SUITES:
        extra = ["-n", str(workers), "--dist", "worksteal"] if suite == "pytest" else []
        done = subprocess.run(
            [str(venv / "bin" / "python"), *args, *extra], cwd=ROOT, capture_output=True,
            text=True, check=False, env=bytecode_env(venv),
        )  # fmt: skip
        output = done.stdout + done.stderr
        with log.open("a") as out:
            out.write(f"\n==== {suite} on Python {version}\n{output}")
        found[suite] = tally(suite, output)
        passed = passed and done.returncode == 0
    return Outcome(version, str(python), found, passed, time.monotonic() - began)


def default_tallies(log: Path | None) -> dict[str, str]:
    """make test's tallies, from its output: pytest's first, then the two suites'."""
    text = log.read_text(encoding="utf-8", errors="replace") if log else ""
    pytest_part = text.split("tests.lazr.launchpadlib_suite", 1)[0]
    return {
        "pytest": tally("pytest", pytest_part),
        "launchpadlib": tally("launchpadlib", text),
        "lazr.restfulclient": tally("lazr.restfulclient", text),
    }


def report(outcome: Outcome) -> str:
    mark = "ok  " if outcome.passed else "FAIL"
    took = f", {outcome.seconds:.0f} s" if outcome.seconds else ""
    lines = [f"{mark} Python {outcome.version} ({outcome.python}{took})"]
    lines += [f"       {suite}: {tally}" for suite, tally in outcome.tallies.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.every_python", description=__doc__)
    parser.add_argument("--default-log", type=Path, help="make test's output, for its tallies")
    cores = len(os.sched_getaffinity(0))
    parser.add_argument("--jobs", type=int, default=max(1, cores // 2))
    args = parser.parse_args(argv)
    default = "{}.{}".format(*sys.version_info[:2])
    versions = claimed_versions()
    found = {v: find_python(v) for v in versions if v != default}
    missing = [(v, looked) for v, (python, looked) in found.items() if python is None]
    for version, looked in missing:
        print(f"FAIL Python {version} is claimed (pyproject.toml) but not found; looked at "
              + ", ".join(looked))  # fmt: skip
    others = [(v, python) for v, (python, _) in found.items() if python is not None]
    # As make test: half again as many pytest workers as the cores a version has.
    workers = max(2, (3 * cores // max(1, min(args.jobs, len(others) or 1)) + 1) // 2)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(lambda vp: run_version(vp[0], vp[1], workers), others))
    if default in versions:
        found = default_tallies(args.default_log)
        ran = all("no tally" not in line for line in found.values())
        outcomes.append(Outcome(default, f"{sys.executable}: make test's run", found, ran, 0.0))
    for outcome in sorted(outcomes, key=lambda o: tuple(map(int, o.version.split(".")))):
        print(report(outcome))
    return 0 if not missing and all(o.passed for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())

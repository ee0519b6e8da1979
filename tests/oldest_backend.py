"""The package built with the oldest build backend it claims to support: ``python -m
tests.oldest_backend``, run by ``make package`` after its own build into ``dist/``.

A distribution builds wadlclient with the hatchling it ships (Ubuntu 22.04:
0.15.0, Debian 12: 1.12.2), not the newest. The floor is read from
pyproject.toml's ``[build-system] requires`` (``hatchling>=X``); hatchling X
is installed from the package index into a throwaway venv, builds the wheel
and the sdist, and they must hold the same files and the same metadata as
the ones in ``dist/`` (the license file's folder in the wheel's dist-info
aside: older hatchling names it ``license_files``), and pass ``twine check
--strict``. Exits 1, saying what differs, when they do not.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import zipfile
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
#: Metadata fields compared as written (the core metadata version and the license fields
#: differ by design; Requires-Dist is compared by what it requires, see `requirements`).
FIELDS = ("Name", "Version", "Summary", "Requires-Python", "Provides-Extra", "Classifier",
          "Keywords", "Description-Content-Type")  # fmt: skip
_FLOOR = re.compile(r'"hatchling>=([\d.]+)"')


def floor() -> str:
    """The oldest hatchling pyproject.toml's build requirements accept."""
    found = _FLOOR.search((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    if found is None:
        raise SystemExit('pyproject.toml: no "hatchling>=X" in [build-system] requires')
    return found.group(1)


def build_with(version: str, where: Path) -> tuple[Path, Path]:
    """The wheel and sdist hatchling ``version`` builds, in a venv of its own under ``where``."""
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = [str(python), "-m", "pip", "install", "--quiet", f"hatchling=={version}"]
    subprocess.run(install, check=True)
    out = where / "dist"
    build = (
        "import sys; from hatchling.build import build_wheel, build_sdist; "
        "print(build_wheel(sys.argv[1])); print(build_sdist(sys.argv[1]))"
    )
    subprocess.run([str(python), "-c", build, str(out)], cwd=ROOT, check=True)
    return next(out.glob("*.whl")), next(out.glob("*.tar.gz"))


def wheel_files(wheel: Path) -> set[str]:
    """The wheel's files, the license file's folder made one name for all hatchling versions."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    return {re.sub(r"\.dist-info/license_files/", ".dist-info/licenses/", n) for n in names}


def metadata(wheel: Path) -> dict[str, object]:
    """The compared fields, and per extra (and "" for none) the distributions it requires."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        message = Parser().parsestr(archive.read(name).decode("utf-8"))
    fields: dict[str, object] = {f: sorted(message.get_all(f) or []) for f in FIELDS}
    extras = ["", *(message.get_all("Provides-Extra") or [])]
    requires = message.get_all("Requires-Dist") or []
    fields["Requires-Dist"] = {e: requirements(message["Name"], requires, e) for e in extras}
    return fields


def requirements(name: str, requires: list[str], extra: str) -> list[str]:
    """What installing ``name[extra]`` requires, names normalised and the package's extras
    that name its own others (``wadlclient[server]``) expanded: newer hatchling writes both
    so, older writes them as given."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    own, found, todo, seen = canonicalize_name(name), set(), [extra], set()
    while todo:
        wanted = todo.pop()
        seen.add(wanted)
        for line in requires:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is not None and not marker.evaluate({"extra": wanted}):
                continue
            if marker is None and wanted:
                continue
            if canonicalize_name(requirement.name) == own:
                todo.extend(e for e in requirement.extras if e not in seen)
                continue
            extras = ",".join(sorted(requirement.extras))
            found.add(f"{canonicalize_name(requirement.name)}[{extras}]{requirement.specifier}")
    return sorted(found)


def sdist_files(sdist: Path) -> set[str]:
    import tarfile

    with tarfile.open(sdist) as archive:
        return {name for name in archive.getnames() if not name.endswith("/PKG-INFO")}


def differences(old: tuple[Path, Path], new: tuple[Path, Path]) -> list[str]:
    """What the old backend's wheel and sdist have that the new one's have not, and back."""
    found = []
    for what, read in (("wheel files", wheel_files), ("metadata", metadata)):
        before, after = read(old[0]), read(new[0])
        if before != after:
            found.append(f"{what}: {before!r} != {after!r}")
    if sdist_files(old[1]) != sdist_files(new[1]):
        found.append(f"sdist files: {sorted(sdist_files(old[1]) ^ sdist_files(new[1]))}")
    return found


def main() -> int:
    version = floor()
    new = (next(DIST.glob("*.whl")), next(DIST.glob("*.tar.gz")))
    with tempfile.TemporaryDirectory(prefix="oldest-backend-") as temporary:
        try:
            old = build_with(version, Path(temporary))
            check = [sys.executable, "-m", "twine", "check", "--strict", *map(str, old)]
            subprocess.run(check, check=True)
        except subprocess.CalledProcessError as error:
            print(f"hatchling {version} (the oldest supported) failed: {error}")
            return 1
        found = differences(old, new)
    if found:
        print(f"hatchling {version} builds another package:", *found, sep="\n  ")
        return 1
    print(f"hatchling {version} (the oldest supported) builds the same wheel and sdist")
    return 0


if __name__ == "__main__":
    sys.exit(main())

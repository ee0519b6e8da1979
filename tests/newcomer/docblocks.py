"""The code blocks of the README and docs/, and which of them run.

Every fenced block tagged ``python`` runs, in file order: README.md
first, then docs/*.md by name. In blocks tagged ``sh``, each line that
starts with ``wadlclient`` runs (other lines, like ``make`` or ``pip``,
are set-up a user does once). A block opts out with the line
``<!-- not run: why -->`` just above its fence. A ``text`` block with the
line ``<!-- output -->`` just above it is what the python block before it
prints, exactly.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).parents[2]
FENCE = re.compile(r"^```(\w*)\s*$")
NOT_RUN = re.compile(r"^<!-- not run: .+ -->$")
OUTPUT = "<!-- output -->"


class Block(NamedTuple):
    where: str  # "README.md:42", the line of the opening fence
    lang: str
    text: str
    runs: bool
    output: str | None  # what a python block must print, when the document says


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]


def blocks_of(path: Path) -> list[Block]:
    """The fenced blocks of one Markdown file, in order."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    name = path.relative_to(ROOT).as_posix()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        above = next((line.strip() for line in reversed(lines[:index]) if line.strip()), "")
        end = next(i for i in range(index + 1, len(lines)) if lines[i].startswith("```"))
        text = "\n".join(lines[index + 1 : end]) + "\n"
        lang = opening.group(1)
        if lang == "text" and above == OUTPUT and found and found[-1].lang == "python":
            found[-1] = found[-1]._replace(output=text)
        runs = lang in ("python", "sh") and not NOT_RUN.match(above)
        found.append(Block(f"{name}:{index + 1}", lang, text, runs, None))
        index = end + 1
    return found


def runnable_blocks() -> list[Block]:
    return [block for path in doc_files() for block in blocks_of(path) if block.runs]

"""Every Python block of the README and docs/ can be pasted into the interactive interpreter.

The README says its blocks run in one Python session. Typed or pasted
into ``python`` (3.11's REPL), a compound statement ends at a blank line
only: a statement right after one, or a blank line inside one, is a
syntax error there although the file runs. This reads each block line by
line as the REPL does (``code.InteractiveConsole``), compiling without
running.
"""

from __future__ import annotations

import code
import sys

import pytest

from .docblocks import ROOT, Block, blocks_of, doc_files


class _Paste(code.InteractiveConsole):
    """An interactive console that compiles what is typed and runs nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.errors: list[str] = []

    def runcode(self, code: object) -> None:
        """Compiled: a statement the REPL accepts (not run here)."""

    def showsyntaxerror(self, filename: str | None = None, **kwargs: object) -> None:
        error = sys.exc_info()[1]
        self.errors.append(f"{type(error).__name__}: {error}")
        self.resetbuffer()


def _python_blocks() -> list[Block]:
    return [b for path in doc_files() for b in blocks_of(path) if b.lang == "python"]


@pytest.mark.parametrize("block", _python_blocks(), ids=lambda block: block.where)
def test_the_block_pastes_into_the_repl(block: Block) -> None:
    console = _Paste()
    for line in block.text.splitlines():
        console.push(line)
    console.push("")

    assert console.errors == [], f"{block.where}: {console.errors}"


def test_the_blocks_are_found() -> None:
    assert len(_python_blocks()) > 10
    assert blocks_of(ROOT / "README.md")

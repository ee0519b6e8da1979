"""A progress line on a terminal: entries, pages, rate and, where the total is known, time left."""

from __future__ import annotations

import time
from typing import TextIO

__all__ = ["TerminalProgress"]


class TerminalProgress:
    """Redraws one line of ``stream`` at most five times a second; `finish` ends it."""

    def __init__(self, stream: TextIO, page_size: int) -> None:
        self._stream = stream
        self._page_size = page_size
        self._total: int | None = None
        self._entries = 0
        self._started = time.monotonic()
        self._drawn = 0.0

    def start(self, total: int | None) -> None:
        self._total, self._started = total, time.monotonic()
        self._draw(force=True)

    def advance(self, entries: int) -> None:
        self._entries += entries
        self._draw()

    def finish(self) -> None:
        self._draw(force=True)
        self._stream.write("\n")
        self._stream.flush()

    def line(self) -> str:
        """The text shown: ``1200/20000 entries, 8 pages, 350/s, 54s left``."""
        elapsed = max(time.monotonic() - self._started, 1e-6)
        rate = self._entries / elapsed
        pages = -(-self._entries // self._page_size)
        done = f"{self._entries}/{self._total}" if self._total is not None else str(self._entries)
        text = f"{done} entries, {pages} pages, {rate:.0f}/s, {elapsed:.0f}s"
        if self._total is not None and rate > 0:
            text += f", {max(self._total - self._entries, 0) / rate:.0f}s left"
        return text

    def _draw(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._drawn < 0.2:
            return
        self._drawn = now
        self._stream.write("\r\x1b[K" + self.line())
        self._stream.flush()

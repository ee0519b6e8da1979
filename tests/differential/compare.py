"""The comparison: stock's observations against the layer's, but for the documented differences.

The differences the layer makes on purpose are the table of
docs/lazr-compat.md's "Where the layer differs on purpose" section,
parsed here: the doc a user reads is the list the tester allows.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["ABSENT", "Allowed", "documented", "unexplained"]

DOC = Path(__file__).resolve().parents[2] / "docs" / "lazr-compat.md"
HEADING = "## Where the layer differs on purpose"
#: An observation one side does not have.
ABSENT = "<none>"

_CODE = re.compile(r"`([^`]*)`")
#: One encoder for every observation: ``json.dumps(sort_keys=True)`` builds a new one per call.
_ENCODE = json.JSONEncoder(sort_keys=True).encode
#: Where a probe has no observation, in the fast comparison (never a JSON value).
_MISSING = object()


class Allowed(NamedTuple):
    """One row of the table: where a difference may be, and what it is."""

    probes: tuple[str, ...]
    stock: str
    wadlclient: str
    why: str

    def matches(self, probe: str) -> bool:
        return any(_glob(pattern).fullmatch(probe) for pattern in self.probes)

    def explains(self, probe: str, stock: str, wadlclient: str) -> bool:
        if not self.matches(probe):
            return False
        if "*" in self.stock + self.wadlclient:
            return bool(
                _glob(self.stock).fullmatch(stock) and _glob(self.wadlclient).fullmatch(wadlclient)
            )
        return wadlclient.replace(self.wadlclient, self.stock) == stock


@functools.cache
def _glob(pattern: str) -> re.Pattern[str]:
    """``*`` for any text; everything else as written (brackets included)."""
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")))


def documented(doc: Path = DOC) -> list[Allowed]:
    """The rows of the doc's table of deliberate differences."""
    text = doc.read_text(encoding="utf-8")
    start = text.index(HEADING)
    end = text.find("\n## ", start + len(HEADING))
    rows = []
    for line in text[start : end if end != -1 else None].splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        probes, stock, wadlclient = (_CODE.findall(cell) for cell in cells[:3])
        if not (probes and len(stock) == 1 and len(wadlclient) == 1):
            raise ValueError(f"{doc}: a row of {HEADING!r} that the tester cannot read: {line}")
        rows.append(Allowed(tuple(probes), stock[0], wadlclient[0], cells[3]))
    if not rows:
        raise ValueError(f"{doc}: no table under {HEADING!r}")
    return rows


def as_text(observations: Mapping[str, Any], probe: str) -> str:
    if probe not in observations:
        return ABSENT
    return _ENCODE(observations[probe])


def same(first: Any, second: Any) -> bool:
    """Whether two decoded observations have one JSON text, without writing either.

    Types are compared too, as the text would: ``True``, ``1`` and ``1.0`` are
    equal in Python, not in JSON; a float by its text (``-0.0``, ``NaN``).
    """
    kind = type(first)
    if kind is not type(second):
        return False
    if kind is list:
        return len(first) == len(second) and all(map(same, first, second))
    if kind is dict:
        return first.keys() == second.keys() and all(same(v, second[k]) for k, v in first.items())
    if kind is float:
        return repr(first) == repr(second)
    return bool(first == second)


def unexplained(
    stock: Mapping[str, Any], wadlclient: Mapping[str, Any], allowed: list[Allowed]
) -> tuple[list[str], set[Allowed]]:
    """Each difference no row explains (one line each), and the rows that explained one."""
    problems = []
    used: set[Allowed] = set()
    for probe in sorted(set(stock) | set(wadlclient)):
        if same(stock.get(probe, _MISSING), wadlclient.get(probe, _MISSING)):
            continue
        theirs, ours = as_text(stock, probe), as_text(wadlclient, probe)
        if theirs == ours:
            continue
        row = next((row for row in allowed if row.explains(probe, theirs, ours)), None)
        if row is None:
            problems.append(f"{probe}\n    stock:      {theirs:.300}\n    wadlclient: {ours:.300}")
        else:
            used.add(row)
    return problems, used

"""Where an entry lives: URL path templates over its fields and the entries it links to.

A rule is a template (``"~{owner.name}/+snap/{name}"``), a sequence of
templates (the first whose every placeholder has a value is used), or a
function of a `PathSource` that answers a path or None. In a template:

- ``{name}``: a field of the entry;
- ``{owner}``: the path of the entry a link field names (``~ada``);
- ``{owner.name}``: a field of that entry (``{snap.owner.name}`` goes on);
- ``{parent}``, ``{parent.id}``: the entry it was added to with ``add_to``;
- ``{n}``: its number among the entries of its type, from 1.

Paths are kept as the server reads them (unquoted); the renderer quotes them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol
from urllib.parse import quote

__all__ = ["PathRule", "PathSource", "first_missing", "path_from", "quote_path"]

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][\w.]*)\}")


class Linked(Protocol):
    """What a link field holds: an entry with a path and its fields by name."""

    path: str
    values: dict[str, Any]


class PathSource(NamedTuple):
    """What a rule may read: the new entry's fields, its parent, its number."""

    values: Mapping[str, Any]
    parent: Linked | None
    number: int

    def lookup(self, dotted: str) -> Any:
        """The value a placeholder names, or None when a step of it has none."""
        first, *rest = dotted.split(".")
        if first == "n" and not rest:
            return self.number
        value: Any = self.parent if first == "parent" else self.values.get(first)
        for step in rest:
            if value is None or not hasattr(value, "values"):
                return None
            value = value.values.get(step)
        if value is not None and hasattr(value, "path"):
            return value.path
        return value


PathRule = str | Sequence[str] | Callable[[PathSource], "str | None"]


def _fill(template: str, source: PathSource) -> str | None:
    """The template with every placeholder filled, or None when one has no value."""
    missing = False

    def value_of(match: re.Match[str]) -> str:
        nonlocal missing
        value = source.lookup(match.group(1))
        if value is None or value == "":
            missing = True
            return ""
        return str(value)

    path = _PLACEHOLDER.sub(value_of, template)
    return None if missing else path


def path_from(rule: PathRule, source: PathSource) -> str | None:
    """The path ``rule`` gives for ``source``, or None when it gives none."""
    if callable(rule):
        return rule(source)
    templates = [rule] if isinstance(rule, str) else list(rule)
    for template in templates:
        path = _fill(template, source)
        if path is not None:
            return path
    return None


def first_missing(rule: PathRule, source: PathSource) -> str:
    """What the first template of ``rule`` lacks, for an error naming it."""
    if callable(rule):
        return "the values its path is made of"
    template = rule if isinstance(rule, str) else next(iter(rule), "")
    for match in _PLACEHOLDER.finditer(template):
        if source.lookup(match.group(1)) in (None, ""):
            return match.group(1)
    return "the values its path is made of"


@functools.lru_cache(maxsize=4096)
def quote_path(path: str) -> str:
    """A path as it goes in a URL: ``~``, ``+`` and ``/`` as they are, the rest quoted.

    Remembered: every link of every entry rendered is quoted again, of few paths.
    """
    return quote(path, safe="/+:@!$&'()*,;=")

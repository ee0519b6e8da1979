"""List and dict arguments of named operations, read as lazr.restful's marshallers read them.

The WADL does not say which parameters take a list or a dict; Launchpad's
do, by the table of `wadlclient.facts.launchpad`. For those, what a
handler receives is what Launchpad's code would:

- a list from a JSON list, from repeated form values, or from a lone value
  (``store_channels=edge`` is ``["edge"]``), each item read on its own (JSON
  if it parses, else the text) and, for a list of links, dereferenced to
  the entry it names: a link to nothing is a 400, as lazr.restful's;
- a dict from a JSON object, or from ``name,value`` strings (one or
  repeated); anything else is a 400 (``got '[...]', list of name,value pairs``).

``null`` is None for either.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from wadlclient.facts.launchpad import Argument
from wadlclient.testing.description import check_scalar
from wadlclient.testing.errors import HTTPException
from wadlclient.wadl import Param

__all__ = ["marshal"]

#: ``check_link(where, link type, value)``: the entry a link names, or a 400.
LinkChecker = Callable[[str, "str | None", Any], Any]


def _json_or_text(value: Any) -> Any:
    """lazr.restful's first step: the value's text decoded as JSON if it parses, else the
    value as it is (an item of a JSON list is read again so: ``5`` stays 5, ``"5"`` is 5)."""
    if value == "":
        return value
    try:
        return json.loads(value if isinstance(value, str) else str(value))
    except ValueError:
        return value


def _sent(values: Sequence[str]) -> Any:
    """One form value decoded as JSON if it parses; repeated values as the list of them."""
    return _json_or_text(values[0]) if len(values) == 1 else list(values)


def marshal(
    param: Param, argument: Argument, values: Sequence[str], check_link: LinkChecker
) -> Any:
    """The value a handler receives for a list or dict param sent as ``values``."""
    value = _sent(values)
    if value is None:
        return None
    if argument.is_list:
        items = value if isinstance(value, list) else [value]
        return [_item(param, argument, item, check_link) for item in items]
    if isinstance(value, dict):
        return value
    pairs = value if isinstance(value, list) else [value]
    try:
        return dict(_pair(text) for text in pairs)
    except ValueError:
        raise HTTPException(400, f"{param.name}: got '{pairs}', list of name,value pairs") from None


def _pair(text: Any) -> tuple[str, str]:
    """``"core,stable"`` -> ``("core", "stable")``; anything else a ValueError."""
    if not isinstance(text, str):
        raise ValueError(text)
    parts = text.split(",", 2)
    if len(parts) != 2:
        raise ValueError(text)
    return parts[0], parts[1]


def _item(param: Param, argument: Argument, item: Any, check_link: LinkChecker) -> Any:
    """One item of a list, read as its own marshaller reads it."""
    item = _json_or_text(item)
    if argument.links:
        return check_link(param.name, argument.link_type, item)
    if argument.items == "str" and not isinstance(item, str) and item is not None:
        return str(item)
    if argument.items == "choice" and param.options:
        return check_scalar(param.name, param, item)
    return item

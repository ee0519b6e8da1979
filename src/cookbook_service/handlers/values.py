"""Field values and operation arguments: from the wire to what the store keeps.

Each function raises ``ValueError`` with the message lazr.restful gives; the
caller collects them into one 400.
"""

from __future__ import annotations

import json
import math
import unicodedata
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any
from urllib.parse import unquote, urlsplit

from cookbook_service.forms import FormValue
from cookbook_service.handlers.base import Problem
from cookbook_service.render import Renderer
from cookbook_service.schema import Field, Param
from cookbook_service.store import Store

#: The longest cookbook name accepted.
MAX_NAME_LENGTH = 1000


def parse_datetime(text: str) -> str:
    """Normalise an ISO 8601 date or date-time to an ISO string with a timezone."""
    value = datetime.fromisoformat(text.strip())
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.isoformat()


def date_value(value: Any) -> str:
    """A date-time from a JSON value, normalised; ValueError unless it is one."""
    if not isinstance(value, str):
        raise ValueError("Value doesn't look like a date.")
    try:
        return parse_datetime(value)
    except ValueError:
        raise ValueError("Value doesn't look like a date.") from None


def check_text(value: str) -> str:
    """A string the store can keep and search: no NUL, no lone surrogate; ValueError if not."""
    if "\x00" in value:
        raise ValueError("Text may not contain a NUL character.")
    if any("\ud800" <= char <= "\udfff" for char in value):
        raise ValueError("Text may not contain a lone surrogate (it is not valid Unicode).")
    return value


def check_name(name: str) -> None:
    """A cookbook name must be servable as a URL segment: ValueError if it is not."""
    if not name:
        raise ValueError("A cookbook's name may not be empty.")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"A cookbook's name may be at most {MAX_NAME_LENGTH} characters long.")
    check_text(name)
    if name in (".", ".."):
        raise ValueError(f"A cookbook may not be named {name!r}.")
    if name != name.strip():
        raise ValueError("A cookbook's name may not begin or end with whitespace.")
    if any(unicodedata.category(char) == "Cc" for char in name):
        raise ValueError("A cookbook's name may not contain control characters.")


def check_price(name: str, amount: Decimal) -> Decimal:
    """Prices are never negative."""
    if name == "price" and amount < 0:
        raise ValueError("A price may not be negative.")
    return amount


def check_name_or_problem(name: str) -> None:
    try:
        check_name(name)
    except ValueError as error:
        raise Problem(400, f"name: {error}") from None


def decimal(value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"got {json.dumps(value)}, expected a number.")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("expected a finite number.")
    return Decimal(str(value))


def field_value(store: Store, render: Renderer, spec: Field, value: Any) -> tuple[str, object]:
    """The column and stored value for a new field value; ValueError if invalid."""
    if spec.kind == "string":
        if not isinstance(value, str):
            raise ValueError(f"Expected a string, got {json.dumps(value)}.")
        if spec.options and value not in spec.options:
            raise ValueError(
                f'Invalid value "{value}". Acceptable values are: {", ".join(spec.options)}'
            )
        check_text(value)
        if spec.name == "description":
            value = value.strip()
        if spec.name == "name":
            check_name(value)
        return spec.name, value
    if spec.kind == "decimal":
        return spec.name, str(check_price(spec.name, decimal(value)))
    if spec.kind == "datetime":
        return spec.name, None if value is None else date_value(value)
    if spec.kind == "link":
        return f"{spec.name}_id", link_target(store, render, spec, value)
    raise ValueError("You tried to modify a read-only attribute.")


def link_target(store: Store, render: Renderer, spec: Field, value: Any) -> int:
    """The id of the entry a link points to; ValueError unless it is one of ours."""
    if not isinstance(value, str) or not value.startswith(render.root):
        raise ValueError(f"{json.dumps(value)} is not a link to a {spec.target}.")
    parts = [unquote(p) for p in urlsplit(value[len(render.root) :]).path.split("/")]
    if spec.target == "dish" and len(parts) == 2 and parts[0] == "dishes":
        dish_id = int(parts[1]) if parts[1].isascii() and parts[1].isdigit() else -1
        if store.dish(dish_id) is not None:
            return dish_id
    if spec.target == "cookbook" and len(parts) == 2 and parts[0] == "cookbooks":
        book = store.cookbook_named(parts[1])
        if book is not None:
            return int(book["id"])
    raise ValueError(f"{value} is not a link to a {spec.target}.")


def decode_arg(param: Param, value: FormValue) -> object:
    """A named-operation argument from its wire form (JSON unless options or binary)."""
    if param.kind == "binary":
        return value if isinstance(value, bytes) else value.encode("utf-8")
    raw = value if isinstance(value, str) else value.decode("utf-8", "replace")
    if param.kind == "options":
        if raw in param.options:
            return raw
        try:
            decoded = json.loads(raw)
        except (ValueError, RecursionError):
            decoded = None
        if isinstance(decoded, str) and decoded in param.options:
            return decoded
        raise ValueError(
            f'Invalid value "{raw}". Acceptable values are: {", ".join(param.options)}'
        )
    try:
        decoded = json.loads(raw)
    except (ValueError, RecursionError):
        decoded = raw
    if param.kind == "string":
        return check_text(decoded if isinstance(decoded, str) else raw)
    if param.kind == "decimal":
        if isinstance(decoded, bool) or not isinstance(decoded, (int, float)):
            raise ValueError(f"got {raw!r}, expected a JSON number.")
        return check_price(param.name, decimal(decoded))
    if param.kind == "datetime":
        return date_value(decoded)
    return decoded

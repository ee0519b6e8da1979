"""lazr.restfulclient's Python values for the wire's dates and decimals.

lazr reads fields through wadllib: an ``xsd:dateTime`` or ``xsd:date``
is a ``datetime.datetime`` (naive unless the text names an offset), an
``xsd:decimal`` stays the JSON number (a float). Programs written for
lazr compute with those types (``book.price * 1.08``, ``json.dumps``),
so the compatibility layer gives them; wadlclient's native objects give
``date``, aware ``datetime`` and ``Decimal`` (docs/lazr-compat.md).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from types import MappingProxyType
from typing import Any

from wadlclient.schema import converter_for

__all__ = ["LAZR_CONVERTERS", "lazr_datetime"]

# wadllib's ISO 8601 form: date, "T", time, optional microseconds and offset.
_ISO_TIME = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{6}))?([-+]\d{2}:\d{2})?$"
)


def lazr_datetime(value: Any) -> Any:
    """A date or date-time text as wadllib reads it: a ``datetime`` (ValueError if neither)."""
    if not isinstance(value, str):
        return value
    match = _ISO_TIME.match(value)
    if match is None:
        return datetime.strptime(value, "%Y-%m-%d")
    year, month, day, hour, minute, second, micro, offset = match.groups()
    parsed = datetime(
        int(year), int(month), int(day), int(hour), int(minute), int(second), int(micro or 0)
    )
    if offset is None:
        return parsed
    hours, minutes = offset[1:].split(":")
    delta = timedelta(hours=int(hours), minutes=int(minutes))
    return parsed.replace(tzinfo=timezone(-delta if offset[0] == "-" else delta))


def _lazr_converters() -> dict[Any, Any]:
    replaced: dict[Any, Any] = {}
    for xsd_type, lazr in (("dateTime", lazr_datetime), ("date", lazr_datetime), ("decimal", None)):
        native = converter_for(xsd_type)
        if native is not None:
            replaced[native] = lazr
    return replaced


#: The schema's converters replaced by lazr's (None: the value as JSON gave it).
LAZR_CONVERTERS = MappingProxyType(_lazr_converters())

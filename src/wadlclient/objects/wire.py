"""What the objects put on and read off the wire: page URLs, media types, sent JSON."""

from __future__ import annotations

import json
import urllib.parse
from datetime import date, datetime, time
from typing import Any

from wadlclient.http import HTTPResponse
from wadlclient.objects.resource import Resource, url_of

__all__ = ["media_type_of", "page_url", "query_parts", "start_of", "to_json", "with_query"]

#: The query variables of lazr.restful's paging.
START = "ws.start"
SIZE = "ws.size"
#: lazr.batchnavigator's place markers in a next link: the key of the entry a page
#: goes on from, and which way. The server reads them before the offset, so a link
#: moved to another offset must lose them.
POSITION_MARKERS = ("memo", "direction")


def query_parts(url: str) -> tuple[str, str, str]:
    """``(before "?", query, "#fragment" or "")``, split as `urllib.parse.urlsplit` does.

    Page URLs are new with every page: splitting them by hand keeps them
    out of ``urlsplit``'s process-wide memo, which would otherwise fill up
    with page URLs during a long walk.
    """
    url, hash_mark, fragment = url.partition("#")
    base, _, query = url.partition("?")
    return base, query, hash_mark + fragment


def start_of(url: str) -> int | None:
    """The ``ws.start`` of a page URL (None when absent or not a number)."""
    for name, value in urllib.parse.parse_qsl(query_parts(url)[1]):
        if name == START:
            return int(value) if value.isascii() and value.isdigit() else None
    return None


def with_query(url: str, drop: tuple[str, ...] = (), **values: object) -> str:
    """``url`` with the given query variables set and those in ``drop`` removed (others kept)."""
    base, query, fragment = query_parts(url)
    pairs = [
        (k, v)
        for k, v in urllib.parse.parse_qsl(query, keep_blank_values=True)
        if k not in values and k not in drop
    ]
    pairs += [(k, str(v)) for k, v in values.items()]
    query = urllib.parse.urlencode(pairs)
    return f"{base}?{query}{fragment}" if query else f"{base}{fragment}"


def page_url(url: str, start: int | None = None, size: int | None = None) -> str:
    """``url`` asking for the page from ``start`` of ``size`` entries (as it is when neither).

    A next link moved to another start loses its position markers: with a
    ``memo`` left in, lazr.restful serves the page after the memo's entry,
    whatever the offset says.
    """
    values: dict[str, object] = {}
    if start is not None:
        values[START] = start
    if size is not None:
        values[SIZE] = size
    if not values:
        return url
    return with_query(url, POSITION_MARKERS if start is not None else (), **values)


def media_type_of(response: HTTPResponse) -> str:
    """The media type of a response, without parameters, in lower case ('' when none)."""
    value: str = response.headers.get("content-type", "")
    return value.split(";", 1)[0].strip().lower()


def _json_default(value: Any) -> Any:
    """Encode the non-JSON values the dialect knows how to send."""
    if isinstance(value, Resource):
        return url_of(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    # Imported here: a Decimal exists only once decimal is imported, so a process
    # that never sends one does not pay for decimal at start-up.
    from decimal import Decimal

    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"cannot send a {type(value).__name__} value to the web service")


def to_json(value: Any) -> str:
    """A value as JSON text, resources sent as their URLs."""
    return json.dumps(value, default=_json_default)

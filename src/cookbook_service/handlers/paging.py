"""Pages of entries: ``ws.start``/``ws.size``, the links between pages, ``ws.show``.

Shared by collections and by the named operations that answer a page.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote, urlencode

from cookbook_service.handlers.base import Answer, Call, Problem, json_answer
from cookbook_service.render import Renderer
from cookbook_service.schema import EntryType
from cookbook_service.store import Row

#: The largest page a caller may ask for with ``ws.size``.
MAX_PAGE_SIZE = 300


def paging(call: Call, page_size: int) -> tuple[int, int]:
    """The start and size a call asks for; ``page_size`` when it does not say."""
    start_text = call.query_value("ws.start")
    size_text = call.query_value("ws.size")
    start, size = 0, page_size
    if start_text is not None:
        if not _whole_number(start_text):
            raise Problem(400, f"ws.start must be a non-negative integer, not {start_text!r}.")
        start = int(start_text)
    if size_text is not None:
        if not _whole_number(size_text) or int(size_text) < 1:
            raise Problem(400, f"ws.size must be a positive integer, not {size_text!r}.")
        size = min(int(size_text), MAX_PAGE_SIZE)
    return start, size


def _page_url(call: Call) -> Callable[[int, int], str]:
    """Makes the URL of another page of what ``call`` asked for."""
    base = call.host_url + "/".join(quote(s, safe="") for s in call.segments)
    others = [(k, v) for k, v in call.query if k not in ("ws.start", "ws.size")]

    def build(start: int, size: int) -> str:
        return f"{base}?{urlencode([*others, ('ws.size', str(size)), ('ws.start', str(start))])}"

    return build


def page_answer(
    call: Call,
    render: Renderer,
    entry_type: EntryType,
    rows: list[Row],
    total: int,
    start: int,
    size: int,
) -> Answer:
    """A page, or with ``ws.show=total_size`` the bare size (lazr.restful's size link)."""
    show = call.query_value("ws.show")
    if show == "total_size":
        return json_answer(total)
    if show is not None:
        raise Problem(400, f"ws.show may only be 'total_size', not {show!r}.")
    return json_answer(render.page(entry_type, rows, total, start, size, _page_url(call)))


def _whole_number(text: str) -> bool:
    """ASCII digits, at most 18 (``str.isdigit`` also accepts ``²``, which ``int`` refuses)."""
    return text.isascii() and text.isdigit() and len(text) <= 18

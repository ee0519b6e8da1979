"""Which handler answers which path: the service's routing table.

``/files/<id>[/<name>]`` is a hosted file; everything else lives under a
version (``/1.0/``, ``/devel/``): its service root, then a top-level
collection from ``ROUTES``, one of its entries (found by the route's
``find``), and what lies below an entry (the route's ``children``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from cookbook_service.handlers.base import Answer, Call, Context, Problem, int_segment
from cookbook_service.handlers.collections import answer_collection
from cookbook_service.handlers.entries import (
    answer_entry,
    find_cookbook,
    find_dish,
    find_recipe,
)
from cookbook_service.handlers.files import answer_cover, answer_file
from cookbook_service.handlers.paging import MAX_PAGE_SIZE
from cookbook_service.handlers.root import ServiceRoots
from cookbook_service.render import Renderer
from cookbook_service.schema import COOKBOOK, DISH, RECIPE, VERSIONS, EntryType
from cookbook_service.store import Row, Store

#: Answers a path below an entry, given that entry.
Child = Callable[[Context, Call, Renderer, Row], Answer]


def _recipes_of(owner: str) -> Child:
    """The handler of an entry's collection of recipes (``/dishes/1/recipes``)."""

    def answer(ctx: Context, call: Call, render: Renderer, row: Row) -> Answer:
        return answer_collection(ctx, call, render, RECIPE, (owner, row))

    return answer


@dataclass(frozen=True)
class Route:
    """A top-level collection: its entries' type, how a segment names one, what is below one.

    A route with no children answers nothing below an entry, and says so
    without looking the entry up.
    """

    entry_type: EntryType
    find: Callable[[Context, Call, str], Row]
    children: Mapping[str, Child] = field(default_factory=dict)


ROUTES: Mapping[str, Route] = {
    "recipes": Route(RECIPE, find_recipe),
    "dishes": Route(DISH, find_dish, {"recipes": _recipes_of("dish")}),
    "cookbooks": Route(
        COOKBOOK, find_cookbook, {"recipes": _recipes_of("cookbook"), "cover": answer_cover}
    ),
}


class Service:
    """Answers calls against a :class:`Store`; caches the WADL per root URL."""

    def __init__(self, store: Store, *, page_size: int = 5) -> None:
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise ValueError(f"page size must be between 1 and {MAX_PAGE_SIZE}, not {page_size}")
        self.store = store
        self.page_size = page_size
        self._context = Context(store, page_size)
        self._roots = ServiceRoots(store)

    def answer(self, call: Call) -> Answer:
        segments = call.segments
        if len(segments) in (2, 3) and segments[0] == "files":
            # /files/<id>/<name>, as a librarian serves it; /files/<id> also works.
            return answer_file(self._context, call, int_segment(segments[1]))
        if not segments or segments[0] not in VERSIONS:
            raise Problem(404, "No such resource: the path must start with a version (1.0, devel).")
        version = segments[0]
        root = f"{call.host_url}{version}/"
        rest = segments[1:]
        if not rest:
            return Answer(301, headers={"Location": root})
        if rest == [""]:
            return self._roots.answer(call, version, root)
        if "" in rest:
            raise Problem(404, "No such resource.")
        render = Renderer(root, self.store, anonymous=call.anonymous)
        return self._resource(call, render, rest)

    def _resource(self, call: Call, render: Renderer, path: list[str]) -> Answer:
        """Answer a path below a service root, through ``ROUTES``."""
        route = ROUTES.get(path[0])
        more = path[1:]
        if route is None or (len(more) > 1 and not route.children):
            raise Problem(404, "No such resource.")
        ctx = self._context
        if not more:
            return answer_collection(ctx, call, render, route.entry_type, None)
        row = route.find(ctx, call, more[0])
        if len(more) == 1:
            return answer_entry(ctx, call, render, route.entry_type, row)
        child = route.children.get(more[1]) if len(more) == 2 else None
        if child is None:
            raise Problem(404, "No such resource.")
        return child(ctx, call, render, row)

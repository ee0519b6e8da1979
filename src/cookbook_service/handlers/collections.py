"""Collections: a page of a top-level collection or of an entry's recipes, or a ``ws.op``.

Only top-level collections have named operations; an entry's collection of
recipes (``/dishes/1/recipes``) answers pages only.
"""

from __future__ import annotations

from cookbook_service.handlers.base import Answer, Call, Context, not_allowed
from cookbook_service.handlers.operations import invoke, op_name
from cookbook_service.handlers.paging import page_answer, paging
from cookbook_service.render import Renderer
from cookbook_service.schema import DISH, RECIPE, EntryType
from cookbook_service.store import Row

#: Whose collection it is: ``("dish", row)``, ``("cookbook", row)``, or None for top level.
Owner = tuple[str, Row] | None


def answer_collection(
    ctx: Context, call: Call, render: Renderer, entry_type: EntryType, owner: Owner
) -> Answer:
    name = op_name(call)
    if call.method == "POST":
        if name is None:
            raise not_allowed("POST without ws.op", ("GET", "HEAD"))
    elif call.method not in ("GET", "HEAD"):
        raise not_allowed(call.method, ("GET", "HEAD", "POST"))
    if name is not None:
        op = entry_type.operation(name, on_collection=True) if owner is None else None
        return invoke(ctx, call, render, op, name, None)
    start, size = paging(call, ctx.page_size)
    store = ctx.store
    if entry_type is RECIPE:
        dish_id = owner[1]["id"] if owner and owner[0] == "dish" else None
        book_id = owner[1]["id"] if owner and owner[0] == "cookbook" else None
        rows, total = store.recipes(
            start, size, sees_private=call.sees_private, dish_id=dish_id, cookbook_id=book_id
        )
    elif entry_type is DISH:
        rows, total = store.dishes(start, size)
    else:
        rows, total = store.cookbooks(start, size)
    return page_answer(call, render, entry_type, rows, total, start, size)

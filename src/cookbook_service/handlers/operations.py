"""Named operations (``ws.op``): their arguments, and what each one does.

The schema declares each operation (HTTP method, params, what it returns);
``OPERATIONS`` maps its name to the function that carries it out, given the
decoded arguments and the entry it was invoked on (None on a collection).
"""

from __future__ import annotations

from collections.abc import Callable

from cookbook_service.forms import FORM, MULTIPART, FormError, FormValue, parse_form
from cookbook_service.handlers.base import (
    Answer,
    Call,
    Context,
    Problem,
    json_answer,
    moved,
    not_allowed,
    require_write,
)
from cookbook_service.handlers.paging import page_answer, paging
from cookbook_service.handlers.values import check_name_or_problem, decode_arg, link_target
from cookbook_service.render import Renderer
from cookbook_service.schema import COOKBOOK, RECIPE, Field, Operation
from cookbook_service.store import NameTaken, Row, since_text

Args = dict[str, object]
#: Carries out one operation: (context, call, renderer, arguments, entry or None) -> answer.
Operate = Callable[[Context, Call, Renderer, Args, Row | None], Answer]


def _form(call: Call) -> dict[str, FormValue]:
    try:
        form = parse_form(call.header("Content-Type"), call.body)
    except FormError as error:
        raise Problem(400, str(error)) from None
    if form is None:
        if not call.body:
            return {}
        raise Problem(415, f"A named POST operation needs a {FORM} or {MULTIPART} body.")
    return form


def op_name(call: Call) -> str | None:
    """``ws.op`` from the query string or, for a POST, the form body."""
    name = call.query_value("ws.op")
    if name is None and call.method == "POST":
        value = _form(call).get("ws.op")
        name = value if isinstance(value, str) else None
    return name


def invoke(
    ctx: Context, call: Call, render: Renderer, op: Operation | None, name: str, row: Row | None
) -> Answer:
    """Check the method and arguments of operation ``name``, then carry it out."""
    if op is None:
        raise Problem(400, f"No such operation: {name}")
    wanted = "GET" if call.method == "HEAD" else call.method
    if op.http_method != wanted:
        raise not_allowed(call.method, (op.http_method,))
    if op.http_method == "POST":
        require_write(call)
        raw: dict[str, FormValue] = {**dict(call.query), **_form(call)}
    else:
        raw = dict(call.query)
    args = _decode_args(ctx, render, op, raw)
    operate = OPERATIONS.get(op.name)
    if operate is None:
        raise Problem(400, f"No such operation: {name}")
    return operate(ctx, call, render, args, row)


def _decode_args(ctx: Context, render: Renderer, op: Operation, raw: dict[str, FormValue]) -> Args:
    """Every argument decoded and checked; a 400 lists every problem."""
    args: Args = {}
    errors: list[str] = []
    for param in op.params:
        value = raw.get(param.name)
        if value is None or (value in ("", b"") and param.kind not in ("string", "binary")):
            if param.required:
                errors.append(f"{param.name}: Required input is missing.")
            continue
        try:
            decoded = decode_arg(param, value)
            if param.kind == "link":
                spec = Field(param.name, "link", param.doc, target=param.target)
                decoded = link_target(ctx.store, render, spec, decoded)
            args[param.name] = decoded
        except ValueError as error:
            errors.append(f"{param.name}: {error}")
    if errors:
        raise Problem(400, "\n".join(sorted(errors)))
    return args


def _on_entry(row: Row | None, name: str) -> Row:
    """The entry an entry-only operation works on; 400 on a collection."""
    if row is None:
        raise Problem(400, f"No such operation: {name}")
    return row


def _find_recipes(
    ctx: Context, call: Call, render: Renderer, args: Args, row: Row | None
) -> Answer:
    start, size = paging(call, ctx.page_size)
    rows, total = ctx.store.recipes(
        start,
        size,
        sees_private=call.sees_private,
        cookbook_id=None if row is None else int(row["id"]),
        search=str(args["search"]),
        modified_since=(
            None if args.get("modified_since") is None else since_text(str(args["modified_since"]))
        ),
    )
    return page_answer(call, render, RECIPE, rows, total, start, size)


def _find_for_cuisine(
    ctx: Context, call: Call, render: Renderer, args: Args, row: Row | None
) -> Answer:
    start, size = paging(call, ctx.page_size)
    rows, total = ctx.store.cookbooks(start, size, cuisine=str(args["cuisine"]))
    return page_answer(call, render, COOKBOOK, rows, total, start, size)


def _create(ctx: Context, call: Call, render: Renderer, args: Args, row: Row | None) -> Answer:
    name = str(args["name"])
    check_name_or_problem(name)
    values: dict[str, object] = {
        "name": name,
        "cuisine": args["cuisine"],
        "copyright_date": args["copyright_date"],
        "price": str(args["price"]),
        "last_printing": args.get("last_printing"),
    }
    try:
        ctx.store.create_cookbook(values)
    except NameTaken:
        raise Problem(409, f"A cookbook named {name!r} already exists.") from None
    return Answer(201, headers={"Location": render.cookbook_url(name)})


def _find_recipe_for(
    ctx: Context, call: Call, render: Renderer, args: Args, row: Row | None
) -> Answer:
    book = _on_entry(row, "find_recipe_for")
    rows, _total = ctx.store.recipes(
        0,
        1,
        sees_private=call.sees_private,
        cookbook_id=int(book["id"]),
        dish_id=int(str(args["dish"])),
    )
    return json_answer(render.entry(RECIPE, rows[0]) if rows else None)


def _replace_cover(
    ctx: Context, call: Call, render: Renderer, args: Args, row: Row | None
) -> Answer:
    book = _on_entry(row, "replace_cover")
    cover = args["cover"]
    assert isinstance(cover, bytes)
    ctx.store.set_cover(int(book["id"]), "application/octet-stream", cover)
    return json_answer(None)


def _make_more_interesting(
    ctx: Context, call: Call, render: Renderer, args: Args, row: Row | None
) -> Answer:
    book = _on_entry(row, "make_more_interesting")
    new_name = f"The New {book['name']}"
    check_name_or_problem(new_name)
    try:
        ctx.store.update_cookbook(int(book["id"]), {"name": new_name})
    except NameTaken:
        raise Problem(409, f"A cookbook named {new_name!r} already exists.") from None
    return moved(render.cookbook_url(new_name))


#: What each operation the schema declares does, by name.
OPERATIONS: dict[str, Operate] = {
    "find_recipes": _find_recipes,
    "find_for_cuisine": _find_for_cuisine,
    "create": _create,
    "find_recipe_for": _find_recipe_for,
    "replace_cover": _replace_cover,
    "make_more_interesting": _make_more_interesting,
}

"""Entries: finding one by its URL, GET with ETags, PATCH/PUT, DELETE, ``ws.op``.

A change is checked whole before anything is written (a 400 lists every
bad field); renaming a cookbook moves it, which answers 301 to its new URL.
"""

from __future__ import annotations

import json
from typing import Any

from cookbook_service.handlers.base import (
    JSON,
    Answer,
    Call,
    Context,
    Problem,
    int_segment,
    json_answer,
    matches,
    moved,
    not_allowed,
    require_write,
)
from cookbook_service.handlers.operations import invoke, op_name
from cookbook_service.handlers.values import field_value
from cookbook_service.render import Renderer
from cookbook_service.schema import DISH, RECIPE, EntryType
from cookbook_service.store import NameTaken, Row

_READ_ONLY_META = ("self_link", "resource_type_link", "http_etag")


def find_recipe(ctx: Context, call: Call, segment: str) -> Row:
    recipe_id = int_segment(segment)
    row = ctx.store.recipe(recipe_id, sees_private=call.sees_private)
    if row is None:
        raise Problem(404, f"No such recipe: {recipe_id}.")
    return row


def find_dish(ctx: Context, call: Call, segment: str) -> Row:
    dish = ctx.store.dish(int_segment(segment))
    if dish is None:
        raise Problem(404, f"No such dish: {segment}.")
    return dish


def find_cookbook(ctx: Context, call: Call, segment: str) -> Row:
    book = ctx.store.cookbook_named(segment)
    if book is None:
        raise Problem(404, f"No such cookbook: {segment!r}.")
    return book


def answer_entry(
    ctx: Context, call: Call, render: Renderer, entry_type: EntryType, row: Row
) -> Answer:
    if call.method in ("GET", "HEAD"):
        name = call.query_value("ws.op")
        if name is not None:
            return invoke(ctx, call, render, entry_type.operation(name), name, row)
        document = render.entry(entry_type, row)
        etag = document["http_etag"]
        if matches(call.header("If-None-Match"), etag):
            return Answer(304, headers={"ETag": etag})
        return json_answer(document, headers={"ETag": etag})
    if call.method == "POST":
        name = op_name(call)
        if name is None:
            raise not_allowed("POST without ws.op", _entry_methods(entry_type))
        return invoke(ctx, call, render, entry_type.operation(name), name, row)
    if call.method in ("PATCH", "PUT"):
        return _modify(ctx, call, render, entry_type, row)
    if call.method == "DELETE" and entry_type.deletable:
        require_write(call)
        ctx.store.delete_recipe(int(row["id"]))
        return Answer(200)
    raise not_allowed(call.method, _entry_methods(entry_type))


def _entry_methods(entry_type: EntryType) -> tuple[str, ...]:
    methods = ("GET", "HEAD", "PUT", "PATCH", "POST")
    return (*methods, "DELETE") if entry_type.deletable else methods


def _modify(ctx: Context, call: Call, render: Renderer, entry_type: EntryType, row: Row) -> Answer:
    """PATCH or PUT: the JSON body's changes, checked whole, then written (209)."""
    require_write(call)
    content_type = (call.header("Content-Type") or "").split(";")[0].strip().lower()
    if content_type != JSON:
        raise Problem(415, f"{call.method} needs a JSON body (Content-Type: {JSON}).")
    current = render.entry(entry_type, row)
    if_match = call.header("If-Match")
    if if_match is not None and not matches(if_match, current["http_etag"]):
        raise Problem(412, "The entry has changed since you fetched it (If-Match failed).")
    try:
        changes = json.loads(call.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise Problem(400, f"The body is not valid JSON: {error}.") from None
    except RecursionError:
        raise Problem(400, "The body is not valid JSON: it is nested too deeply.") from None
    if not isinstance(changes, dict):
        raise Problem(400, "The body must be a JSON object of the fields to change.")
    columns, errors = _validate_changes(ctx, render, entry_type, current, changes)
    if errors:
        raise Problem(400, "\n".join(sorted(errors)))
    moved_to = _write(ctx, render, entry_type, row, columns)
    if moved_to is not None:
        return moved(moved_to)
    fresh = _reload(ctx, entry_type, row)
    document = render.entry(entry_type, fresh)
    return json_answer(document, 209, {"ETag": document["http_etag"]})


def _write(
    ctx: Context, render: Renderer, entry_type: EntryType, row: Row, columns: dict[str, object]
) -> str | None:
    """Store the changed columns; the cookbook's new URL when a rename moved it."""
    store = ctx.store
    if entry_type is RECIPE:
        store.update_recipe(int(row["id"]), columns)
        return None
    if entry_type is DISH:
        store.update_dish(int(row["id"]), columns)
        return None
    try:
        store.update_cookbook(int(row["id"]), columns)
    except NameTaken:
        raise Problem(409, f"A cookbook named {columns['name']!r} already exists.") from None
    if "name" in columns and columns["name"] != row["name"]:
        return render.cookbook_url(str(columns["name"]))
    return None


def _reload(ctx: Context, entry_type: EntryType, row: Row) -> Row:
    row_id = int(row["id"])
    store = ctx.store
    fresh = (
        store.recipe(row_id, sees_private=True)
        if entry_type is RECIPE
        else store.dish(row_id)
        if entry_type is DISH
        else store.cookbook(row_id)
    )
    assert fresh is not None
    return fresh


def _validate_changes(
    ctx: Context,
    render: Renderer,
    entry_type: EntryType,
    current: dict[str, Any],
    changes: dict[str, Any],
) -> tuple[dict[str, object], list[str]]:
    """The columns to write, and a message for each change refused."""
    columns: dict[str, object] = {}
    errors: list[str] = []
    for key, value in changes.items():
        if key in _READ_ONLY_META:
            if value != current[key]:
                errors.append(f"{key}: You tried to modify a read-only attribute.")
            continue
        spec = entry_type.field(key)
        if spec is None:
            errors.append(f"{key}: You tried to modify a nonexistent attribute.")
            continue
        if value == current[key]:
            continue
        if not spec.writable:
            errors.append(f"{key}: You tried to modify a read-only attribute.")
            continue
        try:
            column, stored = field_value(ctx.store, render, spec, value)
        except ValueError as error:
            errors.append(f"{key}: {error}")
            continue
        columns[column] = stored
    return columns, errors

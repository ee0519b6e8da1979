"""Three mistakes mypy --strict must report, one a line, with the typed access (never run)."""

from __future__ import annotations

from cookbook_typed import connect

root = connect(None, "http://127.0.0.1:8080/")
collection = root.recipies  # mistake: a misspelt collection
total = root.cookbooks[0].price + "x"  # mistake: a Decimal plus a str
name = root.recipes[0].dish.nmae  # mistake: a misspelt field

"""A correct user script on the typed access to the example service (checked by mypy, and run)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from cookbook_typed import Recipe, connect

if TYPE_CHECKING:
    from typing_extensions import reveal_type  # typing has it from 3.11 only


def read(url: str) -> tuple[str, Decimal, list[Recipe]]:
    with connect(None, url) as root:
        name = root.recipes[0].dish.name
        book = root.cookbooks[0]
        doubled = book.price * 2
        found = root.cookbooks.find_recipes(search="e")[0:2]
        if TYPE_CHECKING:
            reveal_type(name)  # str
            reveal_type(doubled)  # Decimal
            reveal_type(found)  # list[Recipe]
            reveal_type(root.cookbooks.find_for_cuisine(cuisine="Française"))
        return name, doubled, found

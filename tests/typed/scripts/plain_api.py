"""The plain API, typed for users: what a collection's index, slice and iteration are.

Checked by mypy only (never run).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wadlclient import Collection, Entry, ServiceRoot

if TYPE_CHECKING:
    from typing_extensions import reveal_type  # typing has it from 3.11 only

with ServiceRoot(None, "http://127.0.0.1:8080/") as root:
    recipes: Collection[Entry] = root.recipes
    reveal_type(recipes[0])  # Entry
    reveal_type(recipes[0:2])  # list[Entry]
    for recipe in recipes:
        reveal_type(recipe)  # Entry
    reveal_type(recipes["key"])  # Entry
    reveal_type(recipes(4))  # Entry
    reveal_type(recipes.lookup(4))  # Entry
    reveal_type(len(recipes))  # int
    reveal_type(root.load("recipes/1"))  # Resource

"""Rules of the generated types mypy --strict enforces (never run): each marked line is an error."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal

from cookbook_typed import connect

root = connect(None, "http://127.0.0.1:8080/")
book = root.cookbooks[0]
book.description = "Settable: in the PATCH representation."
book.copyright_date = datetime.now(timezone.utc)  # error: read-only (not in PATCH)
book.cuisine = "Italian"  # error: not one of the options
root.cookbooks.create(name="A", cuisine="General", price=Decimal(1))  # error: copyright_date
root.cookbooks.find_recipes("e")  # error: keyword arguments only
recipe = book.find_recipe_for(dish=root.dishes[0])
instructions = recipe.instructions  # error: the result may be None

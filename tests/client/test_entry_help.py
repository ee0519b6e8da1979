"""help(entry) shows what the WADL documents: each entry type is a class of its own, documented.

An entry of type ``recipe`` is a ``Recipe``, a subclass of `Entry` made
once per schema, whose docstring is the WADL's doc of the type and of each
field, link, collection and named operation; nothing else about the entry
changes. (Named operations carry theirs: tests/client/test_operation_help.py.)
"""

from __future__ import annotations

import pydoc

from cookbook_service.testing import RunningService
from wadlclient import Entry, ServiceRoot


def test_help_on_an_entry_shows_its_types_wadl_doc_and_its_fields_docs(
    root: ServiceRoot,
) -> None:
    recipe = root.recipes[0]
    book = root.cookbooks[0]
    shown = pydoc.render_doc(recipe, renderer=pydoc.plaintext)

    assert type(recipe).__name__ == "Recipe"
    assert "A recipe for a dish, printed in a cookbook." in shown
    assert "instructions: How to prepare the dish." in shown
    assert "dish: The dish this recipe prepares." in shown
    assert "Named operations:" in (type(book).__doc__ or "")
    assert "find_recipe_for" in (type(book).__doc__ or "")


def test_entries_of_one_type_share_their_class_and_stay_entries(root: ServiceRoot) -> None:
    first, second = root.recipes[0:2]

    assert type(first) is type(second) is type(root.recipes[0])
    assert isinstance(first, Entry) and type(first).__mro__[1] is Entry
    assert first == root.recipes[0] and first != second
    assert type(root.cookbooks[0]) is not type(first)


def test_a_registered_entry_class_is_used_as_it_is(service: RunningService) -> None:
    class Recipe(Entry):
        """Mine."""

    class Root(ServiceRoot):
        RESOURCE_TYPE_CLASSES = {"recipe": Recipe}

    with Root(None, service.base_url) as root:
        assert type(root.recipes[0]) is Recipe

"""A link whose prefetch failed is not attached: reading it raises that entry's own error."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.hostile.server import HostileServer, recipe

from wadlclient import NotFound, ServiceRoot


def test_an_entry_whose_link_failed_raises_its_own_error_when_read(
    hostile: HostileServer, make_root: Callable[..., ServiceRoot]
) -> None:
    base = hostile.url + "/1.0"
    pages = [recipe(f"{base}/recipes/{n}", n) for n in (1, 2)]
    pages[0]["dish_link"] = f"{base}/dishes/1"
    pages[1]["dish_link"] = f"{base}/dishes/404"
    hostile.routes["/1.0/recipes"] = lambda ex: ex.json({"entries": pages, "start": 0})
    hostile.routes["/1.0/dishes/1"] = lambda ex: ex.json(
        {"self_link": f"{base}/dishes/1", "resource_type_link": "#dish", "id": 1, "name": "Soup"}
    )
    hostile.routes["/1.0/dishes/404"] = lambda ex: ex.send(404, b"no such dish")
    root = make_root()

    good, bad = root.recipes[:2].prefetch("dish")

    assert good.dish.name == "Soup"
    with pytest.raises(NotFound, match=r"dishes/404"):
        bad.dish.name  # noqa: B018
    # Fetched once by the prefetch, once more when read: the failure was not kept.
    assert hostile.count("/1.0/dishes/404") == 2
    assert hostile.count("/1.0/dishes/1") == 1

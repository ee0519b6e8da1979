"""The same WADL served from another address is rebased, not parsed again.

A test suite starts many fakes of Launchpad's 2.2 MB devel WADL, each on
its own port, so each serves other bytes (its address is written 2,235
times in them). The model keeps only the references' fragments, so the
second root's model is the first's with its ``url`` and ``base`` moved:
parsing again would build the same thing. The process's first model (here
the fake's own, of the WADL as published) is kept with its document until
a second address comes, and then rebased too. Counted with the calls of
``parse_wadl`` made through the object layer, as test_model_persistence does.
"""

from __future__ import annotations

import pytest

from wadlclient import ServiceRoot
from wadlclient.objects import session_of
from wadlclient.testing import FakeService, launchpad_wadl, models
from wadlclient.wadl.rebase import shape_of


def test_a_second_fake_of_the_same_wadl_is_read_without_parsing(
    parses: list[str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    # As in a process where the kit keeps no model of its WADL on disk (`testing.models`).
    monkeypatch.setattr(models, "model_directory", lambda: None)
    wadl = launchpad_wadl("devel")
    apps = []
    for _ in range(3):
        with FakeService(wadl) as fake, ServiceRoot(None, fake.base, version=None) as root:
            fake.add("people", name="ada", display_name="Ada")
            assert root.people["ada"].display_name == "Ada"
            apps.append((fake.base, session_of(root).schema.app))

    # The one parse is the first fake's own, of the WADL as published: every root's is rebased.
    assert parses == ["https://api.launchpad.net/devel/"]
    (_, first), (_, second), (base, third) = apps
    assert second.resource_types is first.resource_types is third.resource_types
    assert (third.url, third.base) == (base, base)


def test_a_base_quoted_anywhere_but_in_references_is_no_shape() -> None:
    wadl = launchpad_wadl("devel")
    quoted = wadl.replace(b"</wadl:doc>", b" See https://api.launchpad.net/devel/ </wadl:doc>", 1)

    assert shape_of(wadl) is not None
    assert shape_of(quoted) is None
    assert shape_of(wadl.replace(b"https://api.launchpad.net/devel/", b"http://x/devel/")) == (
        shape_of(wadl)._replace(base="http://x/devel/")  # type: ignore[union-attr]
    )

"""pytest loads the kit's plugin in every session: loading it imports no fake.

The ``pytest11`` entry point makes every pytest run of every project that
installs wadlclient import `wadlclient.testing.pytest_plugin`, and with it
the package `wadlclient.testing`. Its names are imported when first asked
for, so a session that uses no fake imports neither the fake (its server,
its routing), nor the HTTP stack under it, nor launchpadlib. (pytest, which
the plugin imports, is the control: the probe sees an import.)
"""

from __future__ import annotations

from tests import import_probe

import wadlclient.testing
from wadlclient.testing import service

ON_DEMAND = ["pytest", "wadlclient.testing.service", "wadlclient.testing.routing",
             "wadlclient.objects", "wadlclient.http", "http.server", "launchpadlib"]  # fmt: skip


def loaded_after(code: str) -> list[str]:
    """Which of `ON_DEMAND` a fresh interpreter has imported after running ``code``."""
    return import_probe.loaded_after(code, ON_DEMAND)


def test_loading_the_plugin_imports_neither_the_fake_nor_the_http_stack() -> None:
    assert loaded_after("import wadlclient.testing.pytest_plugin") == ["pytest"]


def test_the_first_use_of_a_name_of_the_kit_imports_its_module() -> None:
    loaded = loaded_after("import wadlclient.testing\nwadlclient.testing.FakeService")

    assert "wadlclient.testing.service" in loaded


def test_every_name_of_the_kit_is_the_object_of_its_module() -> None:
    names = {name: getattr(wadlclient.testing, name) for name in wadlclient.testing.__all__}

    assert names["FakeService"] is service.FakeService
    assert set(wadlclient.testing.__all__) <= set(dir(wadlclient.testing))

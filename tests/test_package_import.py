"""``import wadlclient`` is cheap: the API's names are imported when first used.

Every subpackage's import (``wadlclient.cli``, ``wadlclient.testing``,
``wadlclient.lazr``) runs the package's ``__init__`` first, and so does each
of the hundreds of child processes the tests and the benchmarks start. The
package imports its exceptions and its version at once; the HTTP stack (with
http.client, ssl and email), the cache, the authorizers, logging and typing
come with the first name that needs them; so do http's enum of statuses (an
error's reason phrase) and urllib.parse (with ipaddress), which the errors'
redaction uses only once it has a URL or a secret to hide.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests import import_probe

import wadlclient
from wadlclient import objects

#: Modules ``import wadlclient`` leaves for first use (and the errors, imported at once:
#: the control that the probe sees an import).
ON_DEMAND = ["wadlclient.errors", "wadlclient.objects", "wadlclient.http", "wadlclient.auth",
             "wadlclient.cache", "http", "http.client", "ssl", "email", "urllib.parse",
             "logging", "typing"]  # fmt: skip


def loaded_after(code: str) -> list[str]:
    """Which of `ON_DEMAND` a fresh interpreter has imported after running ``code``."""
    return import_probe.loaded_after(code, ON_DEMAND)


def test_import_wadlclient_imports_its_errors_and_nothing_of_the_http_stack() -> None:
    assert loaded_after("import wadlclient") == ["wadlclient.errors"]


def test_the_first_use_of_a_name_imports_its_module() -> None:
    assert "wadlclient.objects" in loaded_after("import wadlclient\nwadlclient.ServiceRoot")


def test_prefetch_is_the_function_even_once_the_submodule_of_its_name_is_imported() -> None:
    """``wadlclient.objects.prefetch`` names the submodule once a walk has imported it."""
    code = "import wadlclient.objects.prefetch\nprint(type(wadlclient.prefetch).__name__)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )

    assert (done.returncode, done.stdout) == (0, "function\n"), done.stderr


def test_every_name_of_the_api_is_the_object_of_its_module() -> None:
    names = {name: getattr(wadlclient, name) for name in wadlclient.__all__}

    assert names["ServiceRoot"] is objects.ServiceRoot
    assert set(wadlclient.__all__) <= set(dir(wadlclient))


def test_a_name_the_api_lacks_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match=r"^module 'wadlclient' has no attribute 'NoSuch'$"):
        _ = wadlclient.NoSuch  # type: ignore[attr-defined]


#: Standard modules a script's first names (``ServiceRoot`` and its objects) never need:
#: dataclasses and inspect (with ast, dis and tokenize), secrets (with hmac).
#: ``typing`` is the control: the objects import it, so the probe is seen to see an import.
HEAVY_FOR_A_START = ["typing", "dataclasses", "inspect", "secrets", "hmac"]


def test_the_objects_a_script_starts_with_import_neither_dataclasses_nor_inspect_nor_secrets() -> (
    None
):
    loaded = import_probe.loaded_after("import wadlclient.objects", HEAVY_FOR_A_START)

    assert loaded == ["typing"]


def test_installing_the_lazr_layer_imports_neither_importlib_abc_nor_tempfile() -> None:
    """Every ``python -m wadlclient.lazr_compat`` start installs it before the script runs."""
    code = "import wadlclient\nwadlclient.install_as_lazr_restfulclient()"

    loaded = import_probe.loaded_after(code, ["typing", "importlib.abc", "tempfile"])

    assert loaded == ["typing"]

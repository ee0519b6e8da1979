"""A warm launchpadlib start on wadlclient imports only what it uses.

The launchpadlib row of the benchmarks times a whole process, so every
module imported at start-up is paid by every script. A start must not
import the thread pool of link prefetching, decimal, or the pyparsing
under httplib2's challenge parser, which an anonymous login and one
collection read never use. (The WADL parser is imported with
wadlclient's service root, `wadlclient.objects`, not when first parsing:
a cold start, timed from after that import, then pays nothing for it.)
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.lazr.lpservice import LoopbackServer
from tests.lazr.test_launchpadlib_on_loopback import run_script

from wadlclient import lazr_compat
from wadlclient.cache import environment as cache
from wadlclient.http import limits
from wadlclient.lazr.restfulclient import _browser
from wadlclient.objects import links

PROBE = Path(__file__).with_name("lp_start_probe.py")
PEOPLE = ["ada", "alan", "grace"]


def run_probe(server: LoopbackServer, directory: Path) -> dict[str, Any]:
    """The probe script, as a user runs it: ``python -m wadlclient.lazr_compat``."""
    return run_script(PROBE, [server.service_root, str(directory)], directory)


def test_a_start_imports_neither_the_thread_pool_nor_decimal_nor_pyparsing(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    cold = run_probe(launchpad_like, tmp_path)
    warm = run_probe(launchpad_like, tmp_path)

    # expat, the control: the probe sees an import when there is one.
    assert cold == {"people": PEOPLE, "loaded": ["xml.parsers.expat"]}
    assert warm == {"people": PEOPLE, "loaded": ["xml.parsers.expat"]}


#: What the runner's own checks once imported before the program ran, settings or none:
#: the cache, the HTTP stack (with http.client), and the layer's browser over them.
CHECKERS = ["wadlclient.cache", "wadlclient.http", "http.client",
            "wadlclient.lazr.restfulclient._browser"]  # fmt: skip
REPORT = "import json, sys\nprint(json.dumps([m for m in {!r} if m in sys.modules]))\n"


def loaded_by_the_runner(directory: Path, **settings: str) -> list[str]:
    """Which of `CHECKERS` a program importing nothing finds imported, run under
    ``python -m wadlclient.lazr_compat`` with ``settings`` and none other of the layer's."""
    script = directory / "report.py"
    script.write_text(REPORT.format(CHECKERS))
    others = {name for name, _, _ in lazr_compat._CHECKED_SETTINGS}
    env = {name: value for name, value in os.environ.items() if name not in others}
    done = subprocess.run(
        [sys.executable, "-m", "wadlclient.lazr_compat", str(script)],
        capture_output=True, text=True, env={**env, **settings}, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_the_runner_imports_no_checker_for_a_setting_that_is_not_there(tmp_path: Path) -> None:
    # WADLCLIENT_CACHE set, the control: the cache's module is imported to check it.
    assert loaded_by_the_runner(tmp_path) == []
    assert loaded_by_the_runner(tmp_path, WADLCLIENT_CACHE=str(tmp_path / "cache"))[0] == (
        "wadlclient.cache"
    )


def test_the_runner_checks_a_ca_bundle_without_the_layers_browser(tmp_path: Path) -> None:
    """``HTTPLIB2_CA_CERTS`` is set on many machines (this one's CI, say): its check is light."""
    bundle = tmp_path / "bundle.pem"
    bundle.write_text("")

    assert loaded_by_the_runner(tmp_path, HTTPLIB2_CA_CERTS=str(bundle)) == []


def test_the_runner_checks_each_setting_by_the_name_its_reader_reads() -> None:
    """The runner names each setting to know when to import its checker: the same name."""
    readers = {
        cache.CACHE_VARIABLE: cache.cache_from_environment,
        links.LOOK_AHEAD_VARIABLE: links.look_ahead_from_env,
        limits.MAX_IN_FLIGHT_VARIABLE: limits.max_in_flight_from_env,
        _browser.CA_CERTS_VARIABLE: _browser.verify_from_environment,
    }
    named = {
        name: getattr(importlib.import_module(module), function)
        for name, module, function in lazr_compat._CHECKED_SETTINGS
    }

    assert named == readers

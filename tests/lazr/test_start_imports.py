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

from pathlib import Path
from typing import Any

from tests.lazr.lpservice import LoopbackServer
from tests.lazr.test_launchpadlib_on_loopback import run_script

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

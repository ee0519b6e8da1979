"""A ``wadlclient`` command line imports what its command uses, and no more.

The docs' examples and the tests start the command by the dozen, and a user
types ``wadlclient --version`` to see that it is installed: each start pays
for every module imported. ``--version`` and ``--help`` parse the command
line without the HTTP stack (http.client, ssl, email), the authorizers, the
WADL parser or logging; ``describe`` and ``get`` do not import the stub generator, which
only ``stubgen`` needs. (The stubgen run is the control: the probe sees an
import when there is one.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

PROBE = Path(__file__).with_name("cli_start_probe.py")
HTTP_STACK = ["wadlclient.http", "wadlclient.objects", "wadlclient.auth", "wadlclient.wadl",
              "http.client", "ssl", "email", "logging"]  # fmt: skip


def probe(*argv: str) -> dict[str, Any]:
    """The probe's exit status and on-demand imports, for ``wadlclient ARGV``, in a child."""
    done = subprocess.run(
        [sys.executable, str(PROBE), *argv],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_version_imports_neither_the_http_stack_nor_logging_nor_the_stub_generator() -> None:
    assert probe("--version") == {"status": 0, "loaded": []}


def test_help_imports_neither_the_http_stack_nor_logging_nor_the_stub_generator() -> None:
    assert probe("--help") == {"status": 0, "loaded": []}


def test_describe_imports_the_http_stack_but_not_the_stub_generator(
    cookbook_service: Any,
) -> None:
    assert probe("describe", cookbook_service.base_url) == {"status": 0, "loaded": HTTP_STACK}


def test_stubgen_imports_the_stub_generator(tmp_path: Path) -> None:
    wadl = tmp_path / "service.wadl"
    wadl.write_text(
        '<application xmlns="http://research.sun.com/wadl/2006/10">'
        '<resources base="http://127.0.0.1:1/"/></application>'
    )

    found = probe("stubgen", str(wadl), "--output", str(tmp_path), "--name", "typed")

    assert found == {"status": 0, "loaded": [*HTTP_STACK, "wadlclient.stubgen.plan"]}
    assert (tmp_path / "typed" / "__init__.pyi").is_file()

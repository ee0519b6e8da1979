"""The ``Bearer`` authorizer exactly as docs/cache-backends.md shows it.

A module of its own, light to import: a child process the tests start
uses it without importing pytest and the test modules.
"""

from __future__ import annotations

from typing import Any

from tests.newcomer.docblocks import ROOT, blocks_of

from wadlclient import HttpAuthorizer


def docs_bearer() -> type[HttpAuthorizer]:
    """The ``Bearer`` class exactly as docs/cache-backends.md shows it."""
    block = next(
        block.text
        for block in blocks_of(ROOT / "docs" / "cache-backends.md")
        if "class Bearer(HttpAuthorizer)" in block.text
    )
    namespace: dict[str, Any] = {}
    exec(compile(block, "docs/cache-backends.md", "exec"), namespace)
    bearer: type[HttpAuthorizer] = namespace["Bearer"]
    return bearer

"""The command line's tests: ``wadlclient`` runs forked from one process (`forked_commands`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.cli.forked_commands import ForkedCommands


@pytest.fixture(scope="session")
def forked_commands() -> Iterator[ForkedCommands]:
    """``forked_commands.run(*argv, env=None)``: ``python -m wadlclient ARGV`` as a user runs it."""
    commands = ForkedCommands()
    yield commands
    commands.close()

"""The command line's tests: ``wadlclient`` runs forked from one process (`forked_commands`)."""

from __future__ import annotations

import pytest
from tests.cli import forked_commands as forked


@pytest.fixture
def forked_commands() -> forked.ForkedCommands:
    """``forked_commands.run(*argv, env=None)``: ``python -m wadlclient ARGV`` as a user runs it."""
    return forked.shared()

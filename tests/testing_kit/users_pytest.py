"""How the kit's tests run a user's pytest session."""

from __future__ import annotations

#: The plugins of craft-application and craft-cli, installed for tests/consumers (pyproject's
#: addopts leaves them out of this suite too), are no user's: their session runs without them.
NOT_THE_USERS = ("-p", "no:craft_application", "-p", "no:emitter")

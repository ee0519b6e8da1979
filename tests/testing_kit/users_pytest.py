"""How the project's tests run a user's pytest session."""

from __future__ import annotations

#: Plugins this project's tests install that are no user's: craft-application's and craft-cli's
#: (installed for tests/consumers; pyproject's addopts leaves them out of this suite too), and
#: hypothesis', pytest-xdist's and anyio's, which no user's session here uses (hypothesis'
#: takes most of a second to load). A user's session runs without them.
NOT_THE_USERS = (
    "-p", "no:craft_application", "-p", "no:emitter",
    "-p", "no:hypothesispytest", "-p", "no:xdist", "-p", "no:anyio",
)  # fmt: skip

#: For a user's session run in this process (pytester's in-process runs): this suite names its
#: plugins (pyproject's addopts), so pytest imported wadlclient, hypothesis and the rest here
#: without marking them for assertion rewriting, and the user's session, which marks them, would
#: warn that it comes too late. A user's own session imports them itself and has no such warning.
IN_THIS_PROCESS = (
    "-W", "ignore:Module already imported so cannot be rewritten:pytest.PytestAssertRewriteWarning",
)  # fmt: skip

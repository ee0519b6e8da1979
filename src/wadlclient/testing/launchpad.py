"""launchpadlib pointed at a fake: code under test logs in as it always does and reaches the fake.

    with FakeService(wadl) as fake, patched_launchpad(fake):
        lp = Launchpad.login_with("my-app", "production")   # the code under test, unchanged

`Launchpad(...)`, `Launchpad.login_with` and `Launchpad.login_anonymously`
are patched for the duration: whatever service root and version they are
given, they reach the fake's, with no proxy (loopback), no browser, no
keyring and no credentials file. ``login_with`` logs in with a made-up
token (the fake takes any); ``login_anonymously`` anonymously, as usual.
It patches the class launchpadlib defines, so it works alike with stock
launchpadlib and with launchpadlib on wadlclient
(`wadlclient.install_as_lazr_restfulclient`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from wadlclient.testing.service import FakeService

__all__ = ["FAKE_TOKEN", "patched_launchpad"]

#: The OAuth token key ``login_with`` uses against the fake (never a real one).
FAKE_TOKEN = "fake-launchpad-token"


@contextlib.contextmanager
def patched_launchpad(fake: FakeService, *, cache: str | None = None) -> Iterator[FakeService]:
    """Within the block, every launchpadlib login reaches ``fake`` (``cache``: lazr's cache dir)."""
    try:
        from launchpadlib.credentials import (  # type: ignore[import-untyped]
            AccessToken,
            AnonymousAccessToken,
            Credentials,
        )
        from launchpadlib.launchpad import Launchpad as launchpad_class
    except ImportError:
        raise RuntimeError(
            "patched_launchpad needs launchpadlib: pip install launchpadlib"
        ) from None
    # Any: the class is patched, whatever its stubs say of its methods.
    Launchpad: Any = launchpad_class
    saved = {
        name: Launchpad.__dict__[name] for name in ("__init__", "login_with", "login_anonymously")
    }
    original_init = saved["__init__"]

    def __init__(self: Any, credentials: Any, *args: Any, **kwargs: Any) -> None:
        engine = args[0] if args else kwargs.get("authorization_engine")
        store = args[1] if len(args) > 1 else kwargs.get("credential_store")
        original_init(
            self, credentials, engine, store,
            service_root=fake.service_root,
            cache=kwargs.get("cache", args[3] if len(args) > 3 else cache),
            timeout=kwargs.get("timeout"),
            proxy_info=None,
            version=fake.version,
        )  # fmt: skip

    def login_with(cls: Any, application_name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        name = application_name or kwargs.get("consumer_name") or "wadlclient-testing"
        token = AccessToken(FAKE_TOKEN, "fake-launchpad-secret")
        return cls(Credentials(name, access_token=token), None, None, cache=cache)

    def login_anonymously(cls: Any, consumer_name: str, *args: Any, **kwargs: Any) -> Any:
        credentials = Credentials(consumer_name, access_token=AnonymousAccessToken())
        return cls(credentials, None, None, cache=cache)

    Launchpad.__init__ = __init__
    Launchpad.login_with = classmethod(login_with)
    Launchpad.login_anonymously = classmethod(login_anonymously)
    try:
        yield fake
    finally:
        for name, value in saved.items():
            setattr(Launchpad, name, value)

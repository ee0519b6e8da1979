"""launchpadlib and wadlclient pointed at a fake: code under test logs in as it always does.

    with FakeService(launchpad_wadl()) as fake, patched_launchpad(fake):
        lp = Launchpad.login_with("my-app", "production", version="devel")  # unchanged code

`Launchpad(...)`, `Launchpad.login_with` and `Launchpad.login_anonymously`
are patched for the duration: whatever service root they are given, they
reach the fake, with no proxy (loopback), no browser, no keyring and no
credentials file. ``login_with`` logs in with a made-up token (the fake
takes any); ``login_anonymously`` anonymously, as usual. The version is
the one the code asks for (launchpadlib's default is ``1.0``): a fake of
another version answers 404 naming both, never another version's root.

It patches the class launchpadlib defines, so it works alike with stock
launchpadlib and with launchpadlib on wadlclient
(`wadlclient.install_as_lazr_restfulclient`); and it puts `routed_to` in
force, so `wadlclient.launchpad.connect`, `login_anonymously` and any
`wadlclient.ServiceRoot` for Launchpad's addresses reach the fake too.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Iterator
from typing import Any

from wadlclient.testing.routing import routed_to
from wadlclient.testing.service import FakeService

__all__ = ["FAKE_TOKEN", "patched_launchpad"]

#: The OAuth token key ``login_with`` uses against the fake (never a real one).
FAKE_TOKEN = "fake-launchpad-token"
_PATCHED = ("__init__", "login_with", "login_anonymously")


@contextlib.contextmanager
def patched_launchpad(fake: FakeService, *, cache: str | None = None) -> Iterator[FakeService]:
    """Within the block, every launchpadlib and wadlclient login reaches ``fake``.

    ``cache``: launchpadlib's cache directory (a fresh temporary one if None).
    """
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

    from launchpadlib.uris import lookup_service_root

    # Any: the class is patched, whatever its stubs say of its methods.
    Launchpad: Any = launchpad_class
    saved = {name: Launchpad.__dict__[name] for name in _PATCHED}
    original_init = saved["__init__"]
    asked_version = _argument_reader(original_init, "version")
    asked_root = _argument_reader(original_init, "service_root")
    routing = routed_to(fake)

    def __init__(self: Any, credentials: Any, *args: Any, **kwargs: Any) -> None:
        engine = args[0] if args else kwargs.get("authorization_engine")
        store = args[1] if len(args) > 1 else kwargs.get("credential_store")
        # What the code asked for: a recording made meanwhile holds it, not the fake's address.
        routing.remember(lookup_service_root(asked_root(self, credentials, *args, **kwargs)))
        original_init(
            self, credentials, engine, store,
            service_root=fake.service_root,
            cache=kwargs.get("cache", args[3] if len(args) > 3 else cache),
            timeout=kwargs.get("timeout"),
            proxy_info=None,
            version=asked_version(self, credentials, *args, **kwargs),
        )  # fmt: skip

    login_version = _argument_reader(saved["login_with"].__func__, "version")
    login_root = _argument_reader(saved["login_with"].__func__, "service_root")
    anonymous_version = _argument_reader(saved["login_anonymously"].__func__, "version")
    anonymous_root = _argument_reader(saved["login_anonymously"].__func__, "service_root")

    def login_with(cls: Any, *args: Any, **kwargs: Any) -> Any:
        name = (args[0] if args else None) or kwargs.get("application_name")
        name = name or kwargs.get("consumer_name") or "wadlclient-testing"
        token = AccessToken(FAKE_TOKEN, "fake-launchpad-secret")
        version, root = login_version(cls, *args, **kwargs), login_root(cls, *args, **kwargs)
        credentials = Credentials(name, access_token=token)
        return cls(credentials, None, None, service_root=root, version=version)

    def login_anonymously(cls: Any, *args: Any, **kwargs: Any) -> Any:
        name = args[0] if args else kwargs.get("consumer_name")
        credentials = Credentials(name, access_token=AnonymousAccessToken())
        version = anonymous_version(cls, *args, **kwargs)
        root = anonymous_root(cls, *args, **kwargs)
        return cls(credentials, None, None, service_root=root, version=version)

    Launchpad.__init__ = __init__
    Launchpad.login_with = classmethod(login_with)
    Launchpad.login_anonymously = classmethod(login_anonymously)
    try:
        with routing:
            yield fake
    finally:
        for name, value in saved.items():
            setattr(Launchpad, name, value)


def _argument_reader(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """Reads argument ``name`` of a call to ``function`` as Python binds it, default included."""
    signature = inspect.signature(function)

    def read(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return bound.arguments[name]

    return read

"""launchpadlib's ``login_with`` in CI and containers: credentials from the environment.

launchpadlib's ``Launchpad`` subclasses this layer's ``ServiceRoot``, whose
``__init_subclass__`` hands the class to `adapt_login`. When
``$WADLCLIENT_CREDENTIALS`` is set (a credentials file's content or its
path; see `wadlclient.auth.environment`), two of launchpadlib's class
methods change:

- ``credential_store_factory`` answers a store holding those credentials:
  no keyring is opened, nothing is saved, nobody is prompted. (An explicit
  ``credentials_file``, ``credential_store`` or ``$LP_CREDENTIALS_FILE``
  still wins, as launchpadlib decides before asking the factory.)
- ``_may_reuse_credentials`` accepts them whatever consumer they were
  issued to: launchpadlib would otherwise drop a token issued to
  ``consumer_name="x"`` when ``login_with("x")`` asks for the system-wide
  consumer, and start an interactive authorization. Whoever set the
  variable chose these credentials; the service judges them.
- ``_get_paths``: when the launchpadlib directory cannot be made (no
  ``$HOME``, or a read-only one), a private temporary directory serves,
  so the cache lives as long as the process. (So it does when only
  ``$WADLCLIENT_CACHE`` is set: the cache is then elsewhere anyway; see
  ``resource._caches``.)

And a root logged in with those credentials never re-authorizes: when
the service calls the token expired or invalid, launchpadlib would run
its authorization engine (a browser, a console prompt: in a container it
hangs or fails obscurely); `without_renewal` puts `NoRenewal` in its
place, which raises `wadlclient.errors.CredentialsRefused` at once.

Unset, launchpadlib behaves exactly as it does on lazr.restfulclient.
"""

from __future__ import annotations

import functools
import importlib
import logging
from collections.abc import Callable
from typing import Any

from wadlclient.auth.environment import (
    CREDENTIALS_VARIABLE,
    credentials_from_environment,
    credentials_refused,
)
from wadlclient.cache import cache_from_environment

__all__ = ["EnvironmentCredentialStore", "NoRenewal", "adapt_login", "without_renewal"]

logger = logging.getLogger("wadlclient.lazr")


class EnvironmentCredentialStore:
    """A launchpadlib credential store answering the credentials of ``$WADLCLIENT_CREDENTIALS``.

    ``save`` keeps nothing: a variable cannot be written back.
    """

    def __init__(
        self, values: dict[str, str], credential_save_failed: Callable[[], None] | None = None
    ) -> None:
        self._values = values
        self.credential_save_failed = credential_save_failed

    def __repr__(self) -> str:
        return f"EnvironmentCredentialStore(${CREDENTIALS_VARIABLE})"

    def save(self, credentials: Any, unique_consumer_id: str) -> Any:
        """Keep nothing (launchpadlib calls this after authorizing a new token)."""
        return credentials

    def load(self, unique_key: str) -> Any:
        """The credentials, as launchpadlib's ``Credentials``, whoever asks (``unique_key``)."""
        values = self._values
        credentials_module = importlib.import_module("launchpadlib.credentials")
        oauth = importlib.import_module("lazr.restfulclient.authorize.oauth")
        credentials = credentials_module.Credentials()
        credentials.consumer = oauth.Consumer(values["consumer_key"], values["consumer_secret"])
        token = oauth.AccessToken(values["access_token"], values["access_secret"])
        credentials.access_token = token
        credentials.credentials_source = f"${CREDENTIALS_VARIABLE}"
        return credentials


class NoRenewal:
    """launchpadlib's authorization engine for credentials from the environment: it refuses.

    launchpadlib calls its engine when the service answers 401 "Expired
    token" (or "Invalid token", "Unknown access token"); this one raises
    `CredentialsRefused` naming the variable, and prompts nobody. Every
    other attribute is the replaced engine's.
    """

    def __init__(self, source: str, engine: Any) -> None:
        self._source = source
        self._engine = engine

    def __call__(self, credentials: Any, credential_store: Any) -> Any:
        raise credentials_refused(self._source, credentials)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)


def without_renewal(root: Any, credentials: Any) -> None:
    """Put `NoRenewal` in place of ``root``'s authorization engine for the variable's credentials.

    launchpadlib's ``Launchpad`` sets ``authorization_engine`` before the
    compatibility root's ``__init__`` runs, and its HTTP object takes it
    from there when made, which is during that ``__init__``.
    """
    source = getattr(credentials, "credentials_source", None)
    engine = getattr(root, "authorization_engine", None)
    if isinstance(source, str) and engine is not None and not isinstance(engine, NoRenewal):
        root.authorization_engine = NoRenewal(source, engine)


def adapt_login(cls: type[Any]) -> None:
    """Wrap the class's own ``credential_store_factory`` and ``_get_paths``, if it has them."""
    factory = cls.__dict__.get("credential_store_factory")
    if isinstance(factory, classmethod):
        cls.credential_store_factory = classmethod(_environment_first(factory.__func__))
    reuse = cls.__dict__.get("_may_reuse_credentials")
    if isinstance(reuse, staticmethod):
        cls._may_reuse_credentials = staticmethod(_environment_reused(reuse.__func__))
    paths = cls.__dict__.get("_get_paths")
    if isinstance(paths, classmethod):
        cls._get_paths = classmethod(_home_optional(paths.__func__))


def _environment_first(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def credential_store_factory(cls: type[Any], credential_save_failed: Any = None) -> Any:
        values = credentials_from_environment()
        if values is None:
            return original(cls, credential_save_failed)
        logger.debug("launchpadlib: credentials from $%s", CREDENTIALS_VARIABLE)
        return EnvironmentCredentialStore(values, credential_save_failed)

    return credential_store_factory


def _environment_reused(original: Callable[..., bool]) -> Callable[..., bool]:
    @functools.wraps(original)
    def may_reuse_credentials(cached_credentials: Any, requested_consumer: Any) -> bool:
        if isinstance(getattr(cached_credentials, "credentials_source", None), str):
            return True
        return original(cached_credentials, requested_consumer)

    return may_reuse_credentials


def _home_optional(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def get_paths(cls: type[Any], service_root: Any, launchpadlib_dir: Any = None) -> Any:
        try:
            return original(cls, service_root, launchpadlib_dir)
        except (OSError, ValueError) as error:
            if credentials_from_environment() is None and cache_from_environment() is None:
                raise
            import tempfile

            private = tempfile.mkdtemp(prefix="launchpadlib-")
            logger.info(
                "launchpadlib directory unusable (%s); using %s for this process",
                error.strerror if isinstance(error, OSError) else "no $HOME",
                private,
            )
            return original(cls, service_root, private)

    return get_paths

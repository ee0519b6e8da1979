"""launchpadlib's `Launchpad`, typed as Launchpad's service root.

`Launchpad` is declared as a subclass of `wadlclient.launchpad.ServiceRoot`,
the protocol generated from Launchpad's published devel WADL:
``launchpad.snaps.findByOwner(owner=...)``, ``snap.requestBuilds(...)`` and
``task.status = "Fix Released"`` are checked against the WADL, and so is a
misspelt collection, field or named operation. The login methods return
the class they are called on, as launchpadlib's do; a path may be a `str`
or an `os.PathLike`, as launchpadlib accepts both.

``launchpad.me`` is a `Person` after any login: launchpadlib's class is
the same for an anonymous login, whose ``me`` raises `Unauthorized` at
run time (Launchpad answers 401), as code that tells the two apart by
catching it expects.
"""

import os
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, TypeVar

import wadlclient.launchpad
from wadlclient.objects.resource import Resource

_L = TypeVar("_L", bound=Launchpad)

#: How `login_with` reports a failure to save credentials.
CredentialSaveFailed = Callable[[], None]
#: A file or directory, as launchpadlib takes it (it calls `os.path` functions on it).
_StrPath = str | os.PathLike[str]

class Launchpad(wadlclient.launchpad.ServiceRoot):
    """The root of Launchpad's web service, as launchpadlib hands it out."""

    DEFAULT_VERSION: str
    RESOURCE_TYPE_CLASSES: dict[str, type[Any]]
    credentials: Any
    @property
    def service_root(self) -> str: ...
    @property
    def lp_collections(self) -> list[str]: ...
    @property
    def lp_entries(self) -> list[str]: ...
    @property
    def lp_operations(self) -> list[str]: ...
    def load(self, url: str) -> Resource: ...
    def close(self) -> None: ...
    def __enter__(self: _L) -> _L: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    def __init__(
        self,
        credentials: Any,
        authorization_engine: Any,
        credential_store: Any,
        service_root: str = ...,
        cache: _StrPath | None = ...,
        timeout: float | None = ...,
        proxy_info: Any = ...,
        version: str = ...,
    ) -> None: ...
    @classmethod
    def login_anonymously(
        cls: type[_L],
        consumer_name: str,
        service_root: str = ...,
        launchpadlib_dir: _StrPath | None = ...,
        timeout: float | None = ...,
        proxy_info: Any = ...,
        version: str = ...,
    ) -> _L: ...
    @classmethod
    def login_with(
        cls: type[_L],
        application_name: str | None = ...,
        service_root: str = ...,
        launchpadlib_dir: _StrPath | None = ...,
        timeout: float | None = ...,
        proxy_info: Any = ...,
        authorization_engine: Any = ...,
        allow_access_levels: Sequence[str] | None = ...,
        max_failed_attempts: int | None = ...,
        credentials_file: _StrPath | None = ...,
        version: str = ...,
        consumer_name: str | None = ...,
        credential_save_failed: CredentialSaveFailed | None = ...,
        credential_store: Any = ...,
    ) -> _L: ...
    @classmethod
    def login(
        cls: type[_L],
        consumer_name: str,
        token_string: str,
        access_secret: str,
        service_root: str = ...,
        cache: _StrPath | None = ...,
        timeout: float | None = ...,
        proxy_info: Any = ...,
        authorization_engine: Any = ...,
        allow_access_levels: Sequence[str] | None = ...,
        max_failed_attempts: int | None = ...,
        credential_store: Any = ...,
        credential_save_failed: CredentialSaveFailed | None = ...,
        version: str = ...,
    ) -> _L: ...

"""A Launchpad client in the shape of a build tool's (craft-application's), on launchpadlib.

What such real code does that the stubs once refused: it reads ``me``
without a None check after a login (and tells an anonymous session by
`Unauthorized`), hands launchpadlib `pathlib.Path` objects for its
directories and credentials file, and annotates its wrappers with
lazr.restfulclient's own ``Entry`` and ``Collection``, into which it
passes what launchpadlib returns. ``tests/typed/test_launchpad_devel.py``
checks that ``mypy --strict`` and pyright in strict mode accept it
(never run).
"""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any, Protocol, TypeVar

import launchpadlib.launchpad
import launchpadlib.uris
import lazr.restfulclient.errors
from lazr.restfulclient.resource import Collection, Entry

DEFAULT_CACHE_PATH = pathlib.Path.home() / ".cache" / "launchpad-client"

R_co = TypeVar("R_co", covariant=True)


class RetryCallable(Protocol[R_co]):
    def __call__(self, *args: Any, **kwargs: Any) -> R_co: ...


def retry(
    action: str, exception: type[Exception], call: RetryCallable[R_co], /, **kwargs: Any
) -> R_co:
    """Try ``call`` three times while it raises ``exception``."""
    for _ in range(2):
        try:
            return call(**kwargs)
        except exception:
            continue
    return call(**kwargs)


class Client:
    """The tool's Launchpad: launchpadlib's, and who is logged in."""

    def __init__(self, app_name: str, launchpad: launchpadlib.launchpad.Launchpad) -> None:
        self.app_name = app_name
        self.lp = launchpad
        try:
            self.username = str(self.lp.me.name)
        except lazr.restfulclient.errors.Unauthorized:
            self.username = "anonymous"

    @classmethod
    def anonymous(
        cls,
        app_name: str,
        root: str = launchpadlib.uris.LPNET_SERVICE_ROOT,
        cache_dir: pathlib.Path | None = DEFAULT_CACHE_PATH,
        version: str = "devel",
        timeout: int | None = None,
    ) -> Client:
        return cls(
            app_name,
            launchpadlib.launchpad.Launchpad.login_anonymously(
                consumer_name=app_name,
                service_root=root,
                launchpadlib_dir=cache_dir,
                version=version,
                timeout=timeout,
            ),
        )

    @classmethod
    def login(
        cls,
        app_name: str,
        root: str = launchpadlib.uris.LPNET_SERVICE_ROOT,
        cache_dir: pathlib.Path | None = DEFAULT_CACHE_PATH,
        credentials_file: pathlib.Path | None = None,
        version: str = "devel",
    ) -> Client:
        return cls(
            app_name,
            launchpadlib.launchpad.Launchpad.login_with(
                application_name=app_name,
                service_root=root,
                launchpadlib_dir=cache_dir,
                credentials_file=credentials_file,
                version=version,
            ),
        )


class LaunchpadObject:
    """A wrapper of a launchpadlib entry, annotated with lazr's class."""

    def __init__(self, client: Client, lp_obj: Entry) -> None:
        if not isinstance(lp_obj, Entry):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"Cannot use type {lp_obj.__class__.__name__} for launchpad entries.")
        self._client = client
        self._obj = lp_obj

    def __getattr__(self, item: str) -> Any:
        if item in self._obj.lp_attributes:
            return getattr(self._obj, item)
        raise AttributeError(item)

    @property
    def self_link(self) -> str:
        return self._obj.self_link

    def delete(self) -> None:
        try:
            self._obj.lp_delete()
        except lazr.restfulclient.errors.ResponseError as error:
            raise RuntimeError("Object could not be deleted") from error

    def get_entry(self) -> Entry:
        return self._obj


class SnapRecipe(LaunchpadObject):
    @classmethod
    def get(cls, client: Client, name: str, owner: str) -> SnapRecipe:
        snap = retry(
            f"get snap recipe {name!r}",
            lazr.restfulclient.errors.NotFound,
            client.lp.snaps.getByName,
            owner=f"/~{owner}",
            name=name,
        )
        return cls(client, snap)

    @classmethod
    def find(cls, client: Client, owner: str) -> Iterator[SnapRecipe]:
        for recipe in client.lp.snaps.findByOwner(owner=f"/~{owner}"):
            yield cls(client, recipe)


def count(collection: Collection) -> int:
    """A collection as lazr names it: what ``findByOwner`` returns, or a top-level one."""
    return len(collection)


def recipes(client: Client, owner: str) -> tuple[int, int]:
    return count(client.lp.snaps.findByOwner(owner=f"/~{owner}")), count(client.lp.rock_recipes)

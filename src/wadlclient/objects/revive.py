"""Pickling without secrets: a root travels as a recipe, and comes back to life lazily.

What a job hands to another process (entries, collections, walks, shards,
the root) pickles with its root's `RootRecipe`: the root's class and URL,
its cache (a directory, or a Redis URL without its password), options, and
the *kind* of its authorizer, never a credential. Unpickling sends
nothing: the objects get a `LazySession`, one per recipe and process,
that makes a root of its own at the first request, with the credentials
this process supplies (`supply_credentials`) or finds in its environment
(``$WADLCLIENT_CREDENTIALS``, and ``$WADLCLIENT_CACHE`` for the cache);
a root that needs credentials and finds none raises `CredentialsNeeded`.
Where this process made a root of the same recipe itself (the parent that
gets its workers' results back), unpickled objects use that root while it
is open.

A process forked after roots were revived starts with none (the parent's
connections are not the child's: requests #4323).
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import urllib.parse
import weakref
from collections.abc import Callable
from typing import Any, NamedTuple

from wadlclient.cache import HTTPCache
from wadlclient.cache.redis_store import is_redis_url
from wadlclient.errors import CredentialsNeeded
from wadlclient.objects.writelog import WriteLog
from wadlclient.schema import TypeInfo

__all__ = [
    "LazySession",
    "PendingInfo",
    "RootRecipe",
    "cache_recipe",
    "close_revived_roots",
    "importable_class",
    "lazy_session",
    "revive_resource",
    "supply_credentials",
]


class RootRecipe(NamedTuple):
    """How to make a service root again elsewhere: everything but credentials.

    ``authorizer``: the authorizer's class as ``module:qualname`` (None: no
    credentials). ``cache``: a directory or a Redis URL (its password
    removed); None, a private temporary directory. ``options``: the keyword
    arguments the root's class takes again (`ServiceRoot.from_recipe`).
    """

    root_class: type[Any]
    url: str
    cache: str | None = None
    authorizer: str | None = None
    options: tuple[tuple[str, Any], ...] = ()

    def describe(self) -> str:
        return f"the service root {self.url}"


def _without_password(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    query = [
        (name, value)
        for name, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
        if "pass" not in name.lower() and "secret" not in name.lower()
    ]
    return urllib.parse.urlunsplit(parts._replace(netloc=host, query=urllib.parse.urlencode(query)))


def cache_recipe(cache: object) -> str | None:
    """The cache a recipe names for the ``cache`` a root was given (None: a private one)."""
    if is_redis_url(cache):
        assert isinstance(cache, str)
        return _without_password(cache)
    if isinstance(cache, (str, bytes, os.PathLike)):
        return os.path.abspath(os.fsdecode(cache))
    if isinstance(cache, HTTPCache):
        return str(cache.directory)
    return None


_named: dict[type[Any], type[Any]] = {}


def importable_class(cls: type[Any]) -> type[Any]:
    """``cls``, or its nearest base that pickle can name (entry classes made per type are not)."""
    found = _named.get(cls)
    if found is None:
        found = cls
        for candidate in cls.__mro__:
            module = sys.modules.get(candidate.__module__)
            target: Any = module
            for part in candidate.__qualname__.split("."):
                target = getattr(target, part, None)
            if target is candidate:
                found = candidate
                break
        _named[cls] = found
    return found


def authorizer_kind(authorizer: object) -> str | None:
    """``module:qualname`` of the authorizer's class (None without one): no secret in it."""
    if authorizer is None:
        return None
    cls = type(authorizer)
    return f"{cls.__module__}:{cls.__qualname__}"


# -- credentials a worker supplies -----------------------------------------------

#: Authorizers (or factories of them) by service root URL prefix; "" for any service.
_supplied: dict[str, Any] = {}
_lock = threading.Lock()


def supply_credentials(authorizer: Any, service_root: str | None = None) -> None:
    """The credentials roots revived in this process use (for ``service_root``, else any).

    ``authorizer``: an authorizer (`OAuthAuthorizer`, `BasicHttpAuthorizer`,
    ...), or a callable that makes one (called once per revived root), or
    None to take back what was supplied. Call it in the worker before it
    uses unpickled objects (a pool's ``initializer``, Celery's
    ``worker_process_init``). A root that was pickled without credentials
    is revived without them.
    """
    key = "" if service_root is None else service_root.rstrip("/") + "/"
    with _lock:
        if authorizer is None:
            _supplied.pop(key, None)
        else:
            _supplied[key] = authorizer


def _credentials_for(recipe: RootRecipe) -> Any:
    """The authorizer a revived root uses: supplied, else from the environment, else an error."""
    if recipe.authorizer is None:
        return None
    with _lock:
        keys = sorted((key for key in _supplied if recipe.url.startswith(key)), key=len)
        supplied = _supplied[keys[-1]] if keys else None
    if supplied is not None:
        if callable(supplied) and not hasattr(supplied, "authorizeRequest"):
            supplied = supplied()
        return supplied
    module, _, name = recipe.authorizer.partition(":")
    try:
        kind: Any = importlib.import_module(module)
    except ImportError:
        kind = None
    for part in name.split("."):
        kind = getattr(kind, part, None)
    from_environment = getattr(kind, "from_environment", None)
    found = from_environment() if callable(from_environment) else None
    if found is not None:
        return found
    raise CredentialsNeeded(
        f"{recipe.url}: this root was pickled with credentials ({name}), which a pickle never "
        "carries, and this process has none: call wadlclient.supply_credentials(authorizer) "
        "in the worker before it uses unpickled objects, or set $WADLCLIENT_CREDENTIALS"
    )


# -- the lazy session ------------------------------------------------------------


class _LazyTransport:
    """The transport of a `LazySession`: makes the root at the first request."""

    __slots__ = ("_session",)

    def __init__(self, session: LazySession) -> None:
        self._session = session

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session.connect().transport, name)

    def close(self) -> None:
        self._session.close()


class LazySession:
    """The session of the objects of a revived root: the root is made at first need.

    Offers what a `Session` does; ``root_url``, ``conventions``, ``writes``
    and ``transport`` are answered without a request, the rest once the
    root is made (`connect`). One per recipe and process (`lazy_session`).
    """

    def __init__(self, recipe: RootRecipe) -> None:
        self.recipe = recipe
        self.writes = WriteLog()
        self.transport: Any = _LazyTransport(self)
        self._lock = threading.Lock()
        self._real: Any = None
        self._root: Any = None

    @property
    def connected(self) -> bool:
        return self._real is not None

    def connect(self) -> Any:
        """The real session (the root made now if not yet, with this process's credentials)."""
        real = self._real
        if real is None or real.transport.closed:
            with self._lock:
                real = self._real
                if real is not None and real.transport.closed:
                    # The live root it used was closed since: make one of its own.
                    real = self._real = None
                if real is None:
                    recipe = self.recipe
                    live = _live_root(recipe)
                    if live is not None:
                        # This process made that root itself, with its own credentials.
                        real = live._session
                    else:
                        root = recipe.root_class.from_recipe(recipe, _credentials_for(recipe))
                        self._root = root
                        real = root._session
                    real = self._real = real._replace(writes=self.writes)
        return real

    def root(self) -> Any:
        """The service root made for this recipe (or the live one of this process it uses)."""
        self.connect()
        return self._root if self._root is not None else _live_root(self.recipe)

    def close(self) -> None:
        """Close the root made, if any; the next request makes another."""
        with self._lock:
            root, self._root, self._real = self._root, None, None
        if root is not None:
            root.close()

    @property
    def root_url(self) -> str:
        return self.recipe.url

    @property
    def conventions(self) -> Any:
        return self.recipe.root_class.CONVENTIONS

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.connect(), name)

    def __reduce__(self) -> tuple[Callable[[RootRecipe], LazySession], tuple[RootRecipe]]:
        return lazy_session, (self.recipe,)

    def __repr__(self) -> str:
        state = "connected" if self.connected else "not connected yet"
        return f"<LazySession of {self.recipe.url}, {state}>"


_sessions: dict[RootRecipe, LazySession] = {}
#: The roots this process made, by recipe: unpickled objects of theirs use them.
_live: weakref.WeakValueDictionary[RootRecipe, Any] = weakref.WeakValueDictionary()


def register_live_root(recipe: RootRecipe, root: object) -> None:
    """``root`` (made in this process) serves unpickled objects of ``recipe`` while open."""
    _live[recipe] = root


def _live_root(recipe: RootRecipe) -> Any:
    root = _live.get(recipe)
    if root is None or root._session.transport.closed:
        return None
    return root


def lazy_session(recipe: RootRecipe) -> LazySession:
    """The one `LazySession` of this process for ``recipe``."""
    session = _sessions.get(recipe)
    if session is None:
        with _lock:
            session = _sessions.setdefault(recipe, LazySession(recipe))
    return session


def close_revived_roots() -> None:
    """Close the roots this process made for unpickled objects, and forget them.

    Objects unpickled before make their root again at their next request
    (with the credentials supplied then); a worker may call this at its end.
    """
    with _lock:
        sessions = list(_sessions.values())
        _sessions.clear()
    for session in sessions:
        session.close()


def _forget_in_child() -> None:
    """A forked child makes its own roots: the parent's connections are not its own."""
    global _lock
    _lock = threading.Lock()
    _sessions.clear()
    _live.clear()


os.register_at_fork(after_in_child=_forget_in_child)


class PendingInfo:
    """A revived object's type descriptors: its type id now, the rest from the schema at need."""

    __slots__ = ("_info", "_session", "id")

    def __init__(self, session: LazySession, type_id: str) -> None:
        self._session = session
        self.id = type_id
        self._info: TypeInfo | None = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        info = self._info
        if info is None:
            info = self._info = self._session.connect().schema.type_info(self.id)
        return getattr(info, name)


def type_info_for(session: LazySession, type_id: str | None) -> Any:
    """What a revived object of ``type_id`` knows of its type: all of it once connected.

    Before that, a `PendingInfo`: a `TypeInfo` to its readers.
    """
    if type_id is None:
        return None
    if session.connected:
        return session.connect().schema.type_info(type_id)
    return PendingInfo(session, type_id)


def revive_resource(
    recipe: RootRecipe,
    cls: type[Any],
    url: str,
    type_id: str | None,
    data: dict[str, Any] | None,
    state: dict[str, Any],
) -> Any:
    """A pickled resource, unpickled: of its class, on its recipe's `LazySession`; no request."""
    session = lazy_session(recipe)
    return cls._revived(session, url, type_info_for(session, type_id), data, state)


def takes_keyword(cls: type[Any], name: str) -> bool:
    """Whether ``cls(...)`` takes the keyword argument ``name``."""
    import inspect  # here: a start that revives nothing does not pay for its import

    try:
        parameters = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    return name in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())

"""What a `ServiceRoot` adds to pickle as a recipe and come back lazily (`objects.revive`).

In a module of its own so that the root's module keeps to its one job:
the recipe a root records, how a recipe makes a root again
(`RootPickling.from_recipe`, the extension point for subclasses whose
constructor differs), and ``credentials`` of a root that was unpickled.
"""

from __future__ import annotations

from typing import Any

from wadlclient.cache import cache_from_environment
from wadlclient.objects.resource import Resource, SessionLike
from wadlclient.objects.revive import (
    LazySession,
    RootRecipe,
    authorizer_kind,
    cache_recipe,
    importable_class,
    register_live_root,
    takes_keyword,
)

__all__ = ["RootPickling", "recipe_for"]


def recipe_for(
    root: object,
    url: str,
    cache: object,
    authorizer: object,
    timeout: float | None,
    max_retries: int,
    base_client_name: str,
    wadl_media_type: str,
) -> RootRecipe:
    """The recipe of a root made with these arguments (no credential, only its kind).

    The root serves unpickled objects of that recipe in this process while open.
    """
    options = (
        ("timeout", timeout),
        ("max_retries", max_retries),
        ("base_client_name", base_client_name),
        ("wadl_media_type", wadl_media_type),
    )
    recipe = RootRecipe(
        importable_class(type(root)), url, cache_recipe(cache), authorizer_kind(authorizer), options
    )
    register_live_root(recipe, root)
    return recipe


class RootPickling:
    """A root pickles as its `RootRecipe`; unpickled, it is made again at its first request."""

    __slots__ = ()

    _session: SessionLike
    _credentials: Any

    @classmethod
    def from_recipe(cls, recipe: RootRecipe, authorizer: Any) -> Any:
        """The root a `RootRecipe` describes, with ``authorizer``: how a pickled root comes back.

        The cache is ``$WADLCLIENT_CACHE`` when set, else the recipe's. A
        subclass whose constructor takes other arguments overrides this.
        """
        cache = cache_from_environment() or recipe.cache
        options = {name: value for name, value in recipe.options if takes_keyword(cls, name)}
        root: Any = cls(authorizer, recipe.url, cache, version=None, **options)  # type: ignore[call-arg]
        object.__setattr__(root, "_session", root._session._replace(recipe=recipe))
        return root

    @classmethod
    def _revived(
        cls, session: Any, url: str, info: Any, data: dict[str, Any] | None, state: dict[str, Any]
    ) -> Any:
        """An unpickled root: made again (with this process's credentials) at its first request."""
        root: Any = cls.__new__(cls)
        Resource.__init__(root, session, url, info, data)
        object.__setattr__(root, "_credentials", None)
        object.__setattr__(root, "_made_cache", None)
        return root

    @property
    def credentials(self) -> Any:
        """The authorizer (None without one); an unpickled root's, once it is made again."""
        # Read while the root is being made too (launchpadlib does): no session yet then.
        session = getattr(self, "_session", None)
        if isinstance(session, LazySession):
            return session.root().credentials
        return self._credentials

    @credentials.setter
    def credentials(self, authorizer: Any) -> None:
        object.__setattr__(self, "_credentials", authorizer)

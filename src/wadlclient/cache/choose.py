"""What a ``cache`` argument that is not a directory means: a Redis URL or a `CacheStore`."""

from __future__ import annotations

from wadlclient.cache.backend import CacheStore
from wadlclient.cache.locations import check_location
from wadlclient.cache.redis_store import RedisStore, is_redis_url
from wadlclient.cache.stored import StoreCache

__all__ = ["store_cache_for"]


def store_cache_for(argument: object) -> StoreCache | None:
    """The cache for a ``redis://`` URL or a `CacheStore` object; None for anything else.

    A cache made from a URL owns its connection (closing the cache closes
    it); a store object the caller made stays the caller's to close. A
    string written as a URL of another scheme is a `CacheError`, never a
    directory (`check_location`).
    """
    if is_redis_url(argument):
        assert isinstance(argument, str)
        return StoreCache(RedisStore(argument), owns_store=True)
    if isinstance(argument, CacheStore):
        return StoreCache(argument)
    if isinstance(argument, (str, bytes)):
        check_location(argument)
    return None

"""The HTTP cache: one set of rules, and backends that keep its bytes.

`rules.CacheRules` holds the HTTP rules (what is stored, how a 304
refreshes an entry; `freshness` says when a stored response may be used).
`store.HTTPCache` keeps entries as files, with lazr.restfulclient's names
(`names`) and layout (`fileformat`), so a launchpadlib user keeps a warm
cache when moving over, and can move back. `stored.StoreCache` keeps them
in any `backend.CacheStore`: `backend.MemoryStore`, or
`redis_store.RedisStore` shared by a fleet of workers. Credential headers
never reach a store, and an authorized answer is kept for the principal
that asked (`sharing`: RFC 9111's rules for a cache shared by principals).
"""

from wadlclient.cache.backend import CacheStore, MemoryStore
from wadlclient.cache.choose import store_cache_for
from wadlclient.cache.environment import CACHE_VARIABLE, cache_from_environment
from wadlclient.cache.freshness import CachedResponse
from wadlclient.cache.names import MAX_FILE_NAME_LENGTH, cache_file_name, cache_key
from wadlclient.cache.redis_store import RedisStore
from wadlclient.cache.rules import CacheRules
from wadlclient.cache.store import HTTPCache
from wadlclient.cache.stored import StoreCache

__all__ = [
    "CACHE_VARIABLE",
    "MAX_FILE_NAME_LENGTH",
    "CacheRules",
    "CacheStore",
    "CachedResponse",
    "HTTPCache",
    "MemoryStore",
    "RedisStore",
    "StoreCache",
    "cache_file_name",
    "cache_from_environment",
    "cache_key",
    "store_cache_for",
]

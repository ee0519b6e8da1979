"""The on-disk HTTP cache, shareable with lazr.restfulclient (httplib2 underneath).

File names follow its scheme (`names`), file contents its layout
(`fileformat`); `freshness` says when a stored response may be used, and
`store.HTTPCache` keeps the directory. A launchpadlib user keeps a warm
cache when moving over, and can move back. Credential headers never reach
a file.
"""

from wadlclient.cache.freshness import CachedResponse
from wadlclient.cache.names import MAX_FILE_NAME_LENGTH, cache_file_name, cache_key
from wadlclient.cache.store import HTTPCache

__all__ = [
    "MAX_FILE_NAME_LENGTH",
    "CachedResponse",
    "HTTPCache",
    "cache_file_name",
    "cache_key",
]

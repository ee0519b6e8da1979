"""The service root of a version: its JSON links, or its WADL on request.

``Accept`` picks the WADL (in either media type lazr clients ask for);
anything else gets the JSON root. Both carry an ETag and the version's
``max-age``; WADL documents are kept per root URL, they never change.
"""

from __future__ import annotations

import hashlib
import json

from cookbook_service.handlers.base import JSON, Answer, Call, matches, not_allowed
from cookbook_service.render import Renderer
from cookbook_service.schema import ENTRY_TYPES, TOP_LEVEL_ENTRIES, VERSIONS, WADL_MEDIA_TYPES
from cookbook_service.store import Store
from cookbook_service.wadl import generate_wadl


def _wanted_wadl(accept: str | None) -> str | None:
    """The WADL media type an Accept header asks for, or None for JSON."""
    if not accept:
        return None
    for item in accept.split(","):
        media_type = item.split(";")[0].strip().lower()
        if media_type in WADL_MEDIA_TYPES:
            return media_type
    return None


class ServiceRoots:
    """Answers for the service roots of one store; caches each WADL document."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[tuple[str, str], tuple[bytes, str]] = {}

    def answer(self, call: Call, version: str, root: str) -> Answer:
        if call.method not in ("GET", "HEAD"):
            raise not_allowed(call.method, ("GET", "HEAD"))
        media_type = _wanted_wadl(call.header("Accept"))
        body, etag = self._document(root, media_type)
        headers = {
            "ETag": etag,
            "Cache-Control": f"max-age={VERSIONS[version]}",
            "Vary": "Accept",
        }
        if matches(call.header("If-None-Match"), etag):
            return Answer(304, headers=headers)
        return Answer(200, body, media_type or JSON, headers)

    def _document(self, root: str, media_type: str | None) -> tuple[bytes, str]:
        """The body and ETag of the root in ``media_type`` (None: JSON, made afresh)."""
        key = (root, media_type or JSON)
        cached = self._cache.get(key)
        if cached is None:
            body = generate_wadl(root, media_type) if media_type is not None else self._json(root)
            cached = (body, '"' + hashlib.sha1(body).hexdigest() + '"')
            if len(self._cache) > 64:
                self._cache.clear()
            if media_type is not None:
                self._cache[key] = cached
        return cached

    def _json(self, root: str) -> bytes:
        document: dict[str, str | None] = {
            f"{t.plural}_collection_link": f"{root}{t.plural}" for t in ENTRY_TYPES
        }
        featured = self.store.featured_cookbook()
        for name in TOP_LEVEL_ENTRIES:
            document[f"{name}_link"] = (
                Renderer(root, self.store, anonymous=False).cookbook_url(featured["name"])
                if featured is not None
                else None
            )
        document["resource_type_link"] = f"{root}#service-root"
        return json.dumps(document, ensure_ascii=False).encode("utf-8")

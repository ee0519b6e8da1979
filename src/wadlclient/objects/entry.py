"""`Entry`: a resource whose fields can be changed (PATCH), refreshed and deleted."""

from __future__ import annotations

import contextlib
import json
import urllib.parse
from typing import Any

from wadlclient.errors import HTTPError, ResponseError
from wadlclient.http import HTTPResponse
from wadlclient.objects.resource import Resource, ResourceState, SessionLike, url_of
from wadlclient.objects.wire import media_type_of, to_json
from wadlclient.schema import JSON_MEDIA_TYPE, Field, FieldKind, TypeInfo

__all__ = ["Entry", "changes_of", "drop_changes", "writing"]

#: Field kinds an assignment may change.
_SETTABLE = (FieldKind.ATTRIBUTE, FieldKind.ENTRY)


def _moved_to(url: str, response: HTTPResponse) -> str | None:
    """Where a PATCH answer says the entry now is (a rename: 3xx, or 200/201 with Location)."""
    location: str | None = response.headers.get("location")
    if location and (300 <= response.status < 400 or response.status in (200, 201)):
        return urllib.parse.urljoin(url, location)
    return None


def writing(resource: Resource, url: str) -> contextlib.AbstractContextManager[None]:
    """Count a write to ``url`` in the resource's root's `WriteLog` (walks watch it)."""
    log = resource._session.writes
    return log.writing(url) if log is not None else contextlib.nullcontext()


def changes_of(entry: Entry) -> dict[str, Any]:
    """The changes a save would send, by JSON key, as the JSON values sent ({} when none)."""
    if not entry._dirty:
        return {}
    document: dict[str, Any] = json.loads(entry._changes())
    return document


def drop_changes(entry: Entry) -> None:
    """Forget the unsaved changes, sending nothing (`lp_refresh` drops them with a GET)."""
    entry._dirty.clear()


class Entry(Resource):
    """A resource with fields that can be changed (PATCH), refreshed and deleted.

    Not guarded against two threads modifying one entry at once
    (assignment, ``lp_save``, ``lp_refresh``): coordinating writers is the
    caller's business.
    """

    __slots__ = ("_dirty",)

    _dirty: dict[str, Any]

    def __init__(
        self,
        session: SessionLike,
        url: str,
        info: TypeInfo | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(session, url, info, data)
        object.__setattr__(self, "_dirty", {})

    def _pickled_state(self) -> dict[str, Any]:
        return {"dirty": dict(self._dirty)} if self._dirty else {}

    @classmethod
    def _revived(
        cls, session: Any, url: str, info: Any, data: dict[str, Any] | None, state: dict[str, Any]
    ) -> Entry:
        entry = cls.__new__(cls)
        Entry.__init__(entry, session, url, info, data)
        entry._dirty.update(state.get("dirty", {}))
        return entry

    def _lookup(self, name: str) -> Any:
        dirty = self._dirty
        if name in dirty:
            return dirty[name]
        return super()._lookup(name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        info = self._info()
        descriptor = info.fields.get(name)
        if descriptor is None or descriptor.kind not in _SETTABLE:
            raise AttributeError(f"{self._describe()} has no field {name!r} that can be set")
        if self._session.conventions.check_values:
            self._check_value(info, descriptor, value)
        self._dirty[name] = value

    def _check_value(self, info: TypeInfo, descriptor: Field, value: Any) -> None:
        """Refuse what the WADL says the server would refuse with a 400, before sending it."""
        name = descriptor.name
        if info.writable is not None and descriptor.key not in info.writable:
            raise AttributeError(
                f"{name} of {self._describe()} is read-only: the service's WADL does not "
                "let it be changed"
            )
        options = descriptor.options
        if options and value is not None and value not in options:
            raise ValueError(
                f"{name} of {self._describe()} may only be one of {', '.join(map(repr, options))}"
                f", not {value!r}"
            )

    def _operation_wrote(self, moved_to: str | None) -> None:
        """Read the entry afresh when next needed, from its new URL if it moved."""
        object.__setattr__(self, "_state", ResourceState(self._state.info, None))
        if moved_to is not None:
            object.__setattr__(self, "_url", moved_to)

    def __str__(self) -> str:
        return self._url

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Entry):
            return NotImplemented
        if self is other:
            return True
        return (
            self.self_link == other.self_link
            and self._data() == other._data()
            and self._dirty == other._dirty
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def self_link(self) -> str:
        """The entry's canonical URL, as the server states it."""
        value = self._data().get("self_link", self._url)
        return str(value)

    @property
    def http_etag(self) -> str | None:
        """The ETag of the representation held (None when the server gave none)."""
        value = self._data().get("http_etag")
        return value if isinstance(value, str) else None

    def lp_refresh(self) -> None:
        """Re-read the entry with a conditional GET; a 304 keeps the data.

        Local unsaved changes are dropped, as in lazr.restfulclient.
        """
        data = self._state.data
        headers: dict[str, str] = {}
        if data is not None and isinstance(data.get("http_etag"), str):
            headers["If-None-Match"] = data["http_etag"]
        self._fetch(headers)
        self._dirty.clear()

    def lp_save(self) -> None:
        """PATCH the changed fields (with ``If-Match``) and adopt the server's answer.

        A refused save (a 412 `PreconditionFailed`, a 400 for a value the
        server will not take) keeps the local changes and says so in the
        error's message, naming them. When the change moved the entry (a
        rename answers 301, or 200 with a ``Location``), the entry is re-read
        from its new URL.
        """
        if not self._dirty:
            return
        headers: dict[str, str] = {}
        etag = self.http_etag
        if etag is not None:
            headers["If-Match"] = etag
        url = self.self_link
        try:
            with writing(self, url):
                response = self._session.transport.request(
                    "PATCH",
                    url,
                    body=self._changes().encode("utf-8"),
                    content_type=JSON_MEDIA_TYPE,
                    headers=headers,
                    follow_redirects=False,
                )
        except HTTPError as error:
            error.note = "; ".join(filter(None, (error.note, self._kept_changes_note())))
            raise
        self._adopt(url, response)
        self._dirty.clear()

    def _kept_changes_note(self) -> str:
        """What a refused save leaves behind, so the next save does not fail the same way unseen."""
        names = ", ".join(sorted(self._dirty))
        return (
            f"unsaved changes kept ({names}): set them again and call lp_save(), "
            "or lp_refresh() to drop them"
        )

    def _changes(self) -> str:
        """The JSON of the changed fields, by their keys; linked entries as URLs."""
        info = self._info()
        changes: dict[str, Any] = {}
        for name, value in self._dirty.items():
            descriptor = info.fields[name]
            if descriptor.kind is FieldKind.ENTRY and isinstance(value, Resource):
                value = url_of(value)
            changes[descriptor.key] = value
        return to_json(changes)

    def _adopt(self, url: str, response: HTTPResponse) -> None:
        """Take the entry as the PATCH answer left it: moved, served back, or to re-read."""
        moved_to = _moved_to(url, response)
        if moved_to is not None:
            object.__setattr__(self, "_url", moved_to)
            self._fetch()
        elif media_type_of(response) == JSON_MEDIA_TYPE and response.content:
            document = response.json()
            if not isinstance(document, dict):
                raise ResponseError(f"{url} answered the PATCH with something not an entry")
            self._bind(document)
            new_link = document.get("self_link")
            if isinstance(new_link, str):
                object.__setattr__(self, "_url", new_link)
        else:
            self._fetch()

    def lp_delete(self) -> None:
        """DELETE the entry on the server."""
        url = self.self_link
        with writing(self, url):
            self._session.transport.request("DELETE", url)

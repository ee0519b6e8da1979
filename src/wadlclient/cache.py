"""The on-disk HTTP cache: one file per cached response.

The directory is shareable with lazr.restfulclient (httplib2 underneath):
file names follow its scheme (the cache key ``<url>-<media type>`` made
safe, at most 143 characters, ending in the key's MD5) and file contents
its layout (a ``status: NNN`` line, the headers, a blank line, the body,
CRLF line ends). A launchpadlib user keeps a warm cache when moving over,
and can move back.

Writes go to a temporary file in the same directory and are renamed into
place, so a reader in any thread or process sees a whole file or none. A
file that cannot be read or understood is a miss; a directory that cannot
be written to means no caching, announced by one warning. Credential
headers never reach a file.
"""

from __future__ import annotations

import atexit
import contextlib
import email.utils
import errno
import functools
import hashlib
import io
import logging
import os
import re
import shutil
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from wadlclient.errors import CacheError

__all__ = [
    "MAX_FILE_NAME_LENGTH",
    "CachedResponse",
    "HTTPCache",
    "cache_file_name",
    "cache_key",
]

logger = logging.getLogger("wadlclient.cache")

#: The longest file name written: eCryptfs-safe, as lazr.restfulclient chose.
MAX_FILE_NAME_LENGTH = 143
_DIGEST_LENGTH = 32
_READABLE_LENGTH = MAX_FILE_NAME_LENGTH - _DIGEST_LENGTH - 1

#: Temporary files start with a dot; ``cache_file_name`` never does.
_TEMP_PREFIX = ".wadlclient-tmp-"
#: Blob names: no comma (every cache file name has one before its digest),
#: no leading dot (temporary files), nothing a file system could object to.
_BLOB_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}", re.ASCII)

_SCHEME = re.compile(rb"^\w+://", re.ASCII)
_SEPARATORS = re.compile(rb"[?/:|]+")
# RFC 3986, appendix B.
_URI = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?")
_HEADER_NAME = re.compile(rb"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
# The first read of a file: enough for the head and a small body at once.
_HEAD_READ = 16384

# Headers that identify or authenticate someone: never written to a file.
_SECRET_HEADERS = frozenset(
    {
        b"authorization",
        b"proxy-authorization",
        b"cookie",
        b"cookie2",
        b"set-cookie",
        b"set-cookie2",
        b"www-authenticate",
        b"proxy-authenticate",
        b"authentication-info",
        b"proxy-authentication-info",
    }
)
# Hop-by-hop headers (RFC 9110 7.6.1) and the ones that described the
# bytes on the wire rather than the stored body.
_HOP_BY_HOP = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"te",
        b"trailer",
        b"trailers",
        b"transfer-encoding",
        b"upgrade",
        b"content-encoding",
    }
)
# Not taken from a 304: it carries no body, so these would describe nothing.
_BODY_HEADERS = frozenset({b"content-length", b"content-type", b"content-encoding"})

# Media types delete() removes when not told which one.
_WELL_KNOWN_MEDIA_TYPES = (
    "application/json",
    "application/vnd.sun.wadl+xml",
    "application/vnd.example.wadl+xml",
    "application/xhtml+xml",
)


def cache_key(url: str, media_type: str) -> str:
    """The cache key of ``url`` fetched as ``media_type``: ``<url>-<media type>``.

    The URL is first normalised the way httplib2 does before it computes
    its keys (IDNA host, non-ASCII and spaces percent-encoded, scheme and
    authority lower-cased, an empty path read as ``/``, no fragment), so
    the same resource gets the same file under both libraries.
    """
    return f"{_normalise_url(url)}-{_percent_encode_non_ascii(media_type)}"


def cache_file_name(key: str) -> str:
    """The file name for a cache key, at most 143 characters.

    The scheme is dropped, every run of ``/ ? : |`` becomes ``,``, the
    readable part is cut so that the whole name fits, and ``,`` plus the
    MD5 of the complete key is appended: two keys cut to the same
    beginning still get different files.

    Names of keys without a query (the service root, entries being
    refreshed) are remembered; keys with one (collection pages, named
    operations) rarely repeat, and a walk over a big collection must not
    grow the process by one remembered name per page.
    """
    if "?" in key:
        return _file_name(key)
    return _remembered_file_name(key)


def _file_name(key: str) -> str:
    raw = key.encode("utf-8")
    digest = hashlib.md5(raw, usedforsecurity=False).hexdigest()
    readable = _SEPARATORS.sub(b",", _SCHEME.sub(b"", raw))[:_READABLE_LENGTH]
    name = f"{readable.decode('utf-8', 'ignore')},{digest}"
    if name.startswith("."):
        # Only a malformed URL gets here; the leading dot is reserved for
        # temporary files.
        name = "," + name[1:]
    return name


_remembered_file_name = functools.lru_cache(maxsize=256)(_file_name)


def _percent_encode_non_ascii(text: str) -> str:
    if text.isascii():
        return text
    return "".join(
        char
        if char.isascii()
        else "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
        for char in text
    )


def _idna_authority(authority: str) -> str:
    if authority.isascii():
        return authority
    try:
        return authority.encode("idna").decode("ascii")
    except UnicodeError:
        return authority


def _normalise_url(url: str) -> str:
    if not url.isascii():
        parts = urllib.parse.urlsplit(url)
        url = urllib.parse.urlunsplit(parts._replace(netloc=_idna_authority(parts.netloc)))
        url = _percent_encode_non_ascii(url)
    url = url.replace(" ", "%20").replace("\r", "%0D").replace("\n", "%0A")
    match = _URI.match(url)
    if match is None:  # pragma: no cover - the pattern matches every string
        return url
    scheme, authority, path, query = match.group(2), match.group(4), match.group(5), match.group(7)
    if not scheme or not authority:
        return url
    request_uri = f"{path or '/'}?{query}" if query else path or "/"
    return f"{scheme.lower()}://{authority.lower()}{request_uri}"


def _cache_directives(headers: httpx.Headers) -> dict[str, str | None]:
    directives: dict[str, str | None] = {}
    for value in headers.get_list("cache-control"):
        for part in value.split(","):
            name, has_argument, argument = part.partition("=")
            name = name.strip().lower()
            if name:
                directives[name] = argument.strip().strip('"') if has_argument else None
    return directives


def _http_date(value: str | None) -> float | None:
    if not value:
        return None
    parsed = email.utils.parsedate_tz(value)
    if parsed is None:
        return None
    try:
        return float(email.utils.mktime_tz(parsed))
    except (OverflowError, ValueError):
        return None


def _seconds(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return max(0, int(value.strip()))
    except ValueError:
        return None


@dataclass(frozen=True)
class CachedResponse:
    """A response as stored: status, headers (never a credential) and body."""

    status: int
    headers: httpx.Headers
    body: bytes = field(repr=False)

    def freshness_lifetime(self) -> float:
        """Seconds the response stays fresh after its Date (0 when unsaid)."""
        directives = _cache_directives(self.headers)
        if "max-age" in directives:
            return float(_seconds(directives["max-age"]) or 0)
        if "expires" in self.headers:
            date = _http_date(self.headers.get("date"))
            expires = _http_date(self.headers.get("expires"))
            if date is None or expires is None:
                return 0.0
            return max(0.0, expires - date)
        return 0.0

    def is_fresh(self, now: float) -> bool:
        """Whether it may be used without asking the server.

        Age is the time since ``Date`` plus any ``Age`` the response came
        with: without the moment it was received this may count a proxy's
        time twice, which errs towards asking again, never towards serving
        a stale response. ``no-cache`` makes every use ask.
        """
        directives = _cache_directives(self.headers)
        if "no-cache" in directives or "no-store" in directives:
            return False
        date = _http_date(self.headers.get("date"))
        if date is None:
            return False
        age = max(0.0, now - date) + (_seconds(self.headers.get("age")) or 0)
        return self.freshness_lifetime() > age

    def validators(self) -> dict[str, str]:
        """The conditional-request headers this response allows."""
        conditions: dict[str, str] = {}
        etag = self.headers.get("etag")
        if etag:
            conditions["If-None-Match"] = etag
        last_modified = self.headers.get("last-modified")
        if last_modified:
            conditions["If-Modified-Since"] = last_modified
        return conditions


def _storable(raw: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """Header pairs fit for a file: lower-case names, no credential, one line each."""
    kept = []
    for name, value in raw:
        lname = name.strip().lower()
        if (
            lname in _SECRET_HEADERS
            or lname in _HOP_BY_HOP
            or lname == b"status"
            or lname.startswith(b"-varied-")
            or not _HEADER_NAME.match(lname)
        ):
            continue
        kept.append((lname, value.replace(b"\r", b" ").replace(b"\n", b" ").strip()))
    return kept


def _serialise(response: CachedResponse, media_type: str, now: float) -> bytes:
    """httplib2's layout: ``status: NNN``, headers, blank line, body; CRLF."""
    pairs = [p for p in _storable(response.headers.raw) if p[0] != b"content-length"]
    names = {name for name, _ in pairs}
    lines = [b"status: %d" % response.status]
    lines += [name + b": " + value for name, value in pairs]
    # The body as stored (decoded), so a truncated file shows as one.
    lines.append(b"content-length: %d" % len(response.body))
    if b"date" not in names:
        lines.append(b"date: " + email.utils.formatdate(now, usegmt=True).encode("ascii"))
    vary = ",".join(response.headers.get_list("vary")).lower()
    if "accept" in (item.strip() for item in vary.split(",")):
        # httplib2 only serves a Vary: Accept entry to the same Accept.
        lines.append(b"-varied-accept: " + media_type.encode("utf-8"))
    return b"\r\n".join(lines) + b"\r\n\r\n" + response.body


def _read(file: io.FileIO) -> CachedResponse | None:
    """Read a cache file; None unless it is whole and well formed.

    The head is read first and the body on its own, straight into its
    final bytes object: a big body (a 1.5 MB WADL) is copied once, not
    read whole and then split.
    """
    start = file.read(_HEAD_READ)
    end = start.find(b"\r\n\r\n")
    if end < 0:
        if len(start) < _HEAD_READ:
            return None
        start += file.read()
        end = start.find(b"\r\n\r\n")
        if end < 0:
            return None
    if len(start) < _HEAD_READ:
        body = start[end + 4 :]
    else:
        file.seek(end + 4)
        body = file.read()
    return _parse(start[:end], body)


def _parse(head: bytes, body: bytes) -> CachedResponse | None:
    """A cached response from a file's head and body; None unless well formed."""
    pairs: list[tuple[bytes, bytes]] = []
    for line in head.split(b"\r\n"):
        if line[:1] in (b" ", b"\t") and pairs:
            name, value = pairs[-1]
            pairs[-1] = (name, value + b" " + line.strip())
            continue
        name, colon, value = line.partition(b":")
        name = name.strip().lower()
        if not colon or not _HEADER_NAME.match(name):
            return None
        pairs.append((name, value.strip()))
    fields = dict(pairs)
    try:
        status = int(fields.get(b"status", b""))
        length = int(fields[b"content-length"]) if b"content-length" in fields else len(body)
    except ValueError:
        return None
    if not 100 <= status <= 599 or length != len(body):
        return None
    return CachedResponse(status, httpx.Headers(_storable(pairs)), body)


class HTTPCache:
    """A directory of cached HTTP responses, safe to share between threads and processes.

    ``directory=None`` makes a private temporary directory, removed at
    interpreter exit or by ``close()``. ``clock`` gives the current time
    in seconds since the epoch; tests inject one to check expiry exactly.
    """

    def __init__(
        self,
        directory: str | bytes | os.PathLike[str] | os.PathLike[bytes] | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._warned = False
        self._closed = False
        self._media_types: set[str] = set(_WELL_KNOWN_MEDIA_TYPES)
        self._remove_directory: Callable[[], None] | None = None
        if directory is None:
            path = tempfile.mkdtemp(prefix="wadlclient-cache-")
            self._remove_directory = functools.partial(shutil.rmtree, path, ignore_errors=True)
            atexit.register(self._remove_directory)
        else:
            path = os.fsdecode(os.fspath(directory))
            if not path:
                raise CacheError("the cache directory must not be an empty path")
            if os.path.exists(path) and not os.path.isdir(path):
                raise CacheError(f"cache directory {path!r} exists and is not a directory")
            try:
                os.makedirs(path, mode=0o700, exist_ok=True)
            except OSError as error:
                raise CacheError(
                    f"cannot create cache directory {path!r}: {error.strerror or error}"
                ) from error
        self.directory = Path(path)
        # Joined as strings on the hot paths: pathlib interns every path part,
        # and a walk over a big collection would intern one name per page.
        self._directory = path

    def _path(self, name: str) -> str:
        return os.path.join(self._directory, name)

    def __repr__(self) -> str:
        return f"HTTPCache({str(self.directory)!r})"

    def key(self, url: str, media_type: str) -> str:
        """The cache key, ``<url>-<media type>`` (see ``cache_key``)."""
        return cache_key(url, media_type)

    def filename(self, url: str, media_type: str) -> str:
        """The name of the file holding ``url`` as ``media_type``."""
        return cache_file_name(cache_key(url, media_type))

    def get(self, url: str, media_type: str) -> CachedResponse | None:
        """The stored response, or None when missing, unreadable or malformed."""
        if self._closed:
            return None
        self._remember(media_type)
        name = self.filename(url, media_type)
        try:
            with open(self._path(name), "rb", buffering=0) as file:
                cached = _read(file)
        except FileNotFoundError:
            logger.debug("cache miss: %s (%s)", url, media_type)
            return None
        except (OSError, ValueError) as error:
            logger.debug("cache unreadable: %s (%s): %s", url, media_type, type(error).__name__)
            return None
        if cached is None or not 200 <= cached.status < 300:
            logger.debug("cache entry not usable, treated as a miss: %s (%s)", url, media_type)
            return None
        logger.debug("cache hit: %s (%s)", url, media_type)
        return cached

    def put(
        self,
        url: str,
        media_type: str,
        response: httpx.Response | CachedResponse,
        body: bytes,
    ) -> None:
        """Store a representation of ``url``; a ``no-store`` response removes it instead.

        The file records what a GET answers, so a 209 (PATCH returning the
        new representation) or a 304 is stored as 200.
        """
        if self._closed:
            return
        if isinstance(response, httpx.Response):
            status, headers = response.status_code, response.headers
        else:
            status, headers = response.status, response.headers
        if "no-store" in _cache_directives(headers):
            logger.debug("cache: not storing (no-store): %s (%s)", url, media_type)
            self.delete(url, media_type)
            return
        if status in (209, 304):
            status = 200
        self._remember(media_type)
        self._store(url, media_type, CachedResponse(status, headers, body))

    def refresh(
        self, url: str, media_type: str, not_modified: httpx.Response
    ) -> CachedResponse | None:
        """Merge a 304's headers into the stored entry and rewrite it.

        The entry is then as fresh as if the server had sent the whole
        representation again: the 304's Date (or now, if it has none),
        ETag, Cache-Control and Expires replace the stored ones; the
        stored Age, which described the old response, is dropped. Returns
        None when nothing usable is stored.
        """
        cached = self.get(url, media_type)
        if cached is None:
            return None
        fresh = {name.lower() for name, _ in not_modified.headers.raw}
        merged = [
            (name, value)
            for name, value in cached.headers.raw
            if name.lower() not in fresh and name.lower() != b"age"
        ]
        merged += [
            (name, value)
            for name, value in not_modified.headers.raw
            if name.lower() not in _BODY_HEADERS
        ]
        if b"date" not in fresh:
            now = email.utils.formatdate(self.clock(), usegmt=True).encode("ascii")
            merged = [(n, v) for n, v in merged if n.lower() != b"date"] + [(b"date", now)]
        refreshed = CachedResponse(cached.status, httpx.Headers(_storable(merged)), cached.body)
        if "no-store" in _cache_directives(refreshed.headers):
            self.delete(url, media_type)
        else:
            self._store(url, media_type, refreshed)
        return refreshed

    def delete(self, url: str, media_type: str | None = None) -> None:
        """Forget ``url`` as ``media_type``, or as every media type seen or well known."""
        if self._closed:
            return
        if media_type is not None:
            media_types = [media_type]
        else:
            with self._lock:
                media_types = sorted(self._media_types)
        for each in media_types:
            self._unlink(self.filename(url, each))
            logger.debug("cache delete: %s (%s)", url, each)

    @property
    def is_private(self) -> bool:
        """Whether this is a private temporary directory (removed at exit)."""
        return self._remove_directory is not None or self._closed

    def has_blob(self, name: str) -> bool:
        """Whether a blob called ``name`` is stored (without reading it)."""
        return not self._closed and os.path.isfile(self._path(_blob_file_name(name)))

    def get_blob(self, name: str) -> bytes | None:
        """The bytes stored with `put_blob` under ``name``, or None.

        Blobs are derived data kept beside the responses (a compiled WADL
        model, say): a missing or unreadable one is simply None, and the
        caller must check what it reads, since any process may write here.
        """
        if self._closed:
            return None
        path = self._path(_blob_file_name(name))
        try:
            with open(path, "rb") as file:
                return file.read()
        except (OSError, ValueError) as error:
            logger.debug("cache blob not read: %s: %s", name, type(error).__name__)
            return None

    def put_blob(self, name: str, data: bytes) -> None:
        """Store ``data`` under ``name`` atomically; a failed write is one warning at most.

        ``name`` is letters, digits, ``_``, ``.`` and ``-`` (not first),
        at most 100 characters; it can never name a cached response's file
        nor a temporary file.
        """
        if self._closed:
            return
        if self._write(_blob_file_name(name), data):
            logger.debug("cache blob write: %s (%d bytes)", name, len(data))

    def close(self) -> None:
        """Remove a private temporary directory now rather than at exit."""
        if self._remove_directory is not None:
            self._closed = True
            self._remove_directory()
            atexit.unregister(self._remove_directory)
            self._remove_directory = None

    def _remember(self, media_type: str) -> None:
        if media_type not in self._media_types:
            with self._lock:
                self._media_types.add(media_type)

    def _store(self, url: str, media_type: str, response: CachedResponse) -> None:
        name = self.filename(url, media_type)
        if self._write(name, _serialise(response, media_type, self.clock())):
            logger.debug("cache write: %s (%s) -> %s", url, media_type, name)

    def _write(self, name: str, data: bytes) -> bool:
        """Replace the file ``name`` atomically; on failure remove it and warn once."""
        temp_path: str | None = None
        try:
            descriptor, temp_path = tempfile.mkstemp(prefix=_TEMP_PREFIX, dir=self.directory)
            try:
                _write_all(descriptor, data)
            finally:
                os.close(descriptor)
            os.replace(temp_path, self._path(name))
        except (OSError, ValueError) as error:
            if temp_path is not None:
                _remove_quietly(temp_path)
            # The old file no longer matches what should be there.
            _remove_quietly(self._path(name))
            self._warn_once(error)
            return False
        return True

    def _unlink(self, name: str) -> None:
        try:
            os.unlink(self._path(name))
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as error:
            self._warn_once(error)

    def _warn_once(self, error: Exception) -> None:
        with self._lock:
            if self._warned:
                return
            self._warned = True
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        if isinstance(error, OSError) and error.errno == errno.ENOSPC:
            reason = "no space left on device"
        logger.warning(
            "cache directory %s cannot be written (%s); continuing without caching",
            self.directory,
            reason,
        )


def _blob_file_name(name: str) -> str:
    if not isinstance(name, str) or not _BLOB_NAME.fullmatch(name):
        raise ValueError(f"invalid cache blob name {name!r}")
    return name


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(descriptor, view)
        view = view[written:]


def _remove_quietly(path: str | os.PathLike[str]) -> None:
    with contextlib.suppress(OSError, ValueError):
        os.unlink(path)


"""The cache file layout, httplib2's: ``status: NNN``, the headers, a blank line, the body; CRLF.

Credential headers, hop-by-hop headers and anything that could break a
line never reach a file; a file that is not whole and well formed reads
as nothing. An entry's metadata lines follow its headers, as httplib2
writes its own: ``-varied-<header>`` and ``-wadlclient-principal``
(`CachedResponse.meta`); a response's own header of such a name is dropped.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable

from wadlclient.cache.freshness import CachedResponse
from wadlclient.headers import Headers, format_http_date

__all__ = ["parse", "read", "serialise", "storable"]

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
# Names of metadata lines (httplib2's and ours), never a response's headers.
_META_PREFIXES = (b"-varied-", b"-wadlclient-")
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


def storable(raw: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """Header pairs fit for a file: lower-case names, no credential, one line each."""
    kept = []
    for name, value in raw:
        lname = name.strip().lower()
        if (
            lname in _SECRET_HEADERS
            or lname in _HOP_BY_HOP
            or lname == b"status"
            or lname.startswith(_META_PREFIXES)
            or not _HEADER_NAME.match(lname)
        ):
            continue
        kept.append((lname, value.replace(b"\r", b" ").replace(b"\n", b" ").strip()))
    return kept


def serialise(response: CachedResponse, now: float) -> bytes:
    """httplib2's layout: ``status: NNN``, headers, metadata lines, blank line, body; CRLF."""
    pairs = [p for p in storable(response.headers.raw) if p[0] != b"content-length"]
    names = {name for name, _ in pairs}
    lines = [b"status: %d" % response.status]
    lines += [name + b": " + value for name, value in pairs]
    # The body as stored (decoded), so a truncated file shows as one.
    lines.append(b"content-length: %d" % len(response.body))
    if b"date" not in names:
        lines.append(b"date: " + format_http_date(now).encode("ascii"))
    lines += [name + b": " + _one_line(value) for name, value in response.meta]
    return b"\r\n".join(lines) + b"\r\n\r\n" + response.body


def _one_line(value: bytes) -> bytes:
    return value.replace(b"\r", b" ").replace(b"\n", b" ").strip()


def read(file: io.FileIO, limit: int) -> CachedResponse | None:
    """Read a cache file; None unless it is whole, well formed and at most ``limit`` bytes.

    The head is read first and the body on its own, straight into its
    final bytes object: a big body (a 1.5 MB WADL) is copied once, not
    read whole and then split. Nothing past the file's size as opened or
    ``limit`` is read: a file that grows meanwhile is not whole.
    """
    most = min(os.fstat(file.fileno()).st_size, limit)
    start = file.read(min(_HEAD_READ, most + 1))
    end = start.find(b"\r\n\r\n")
    if end < 0:
        if len(start) < _HEAD_READ:
            return None
        start += file.read(most + 1 - len(start))
        end = start.find(b"\r\n\r\n")
        if end < 0:
            return None
    if len(start) < _HEAD_READ:
        body = start[end + 4 :]
    else:
        file.seek(end + 4)
        body = file.read(most + 1 - (end + 4))
    if end + 4 + len(body) > most:
        return None
    return parse(start[:end], body)


def parse(head: bytes, body: bytes) -> CachedResponse | None:
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
    meta = tuple((name, value) for name, value in pairs if name.startswith(_META_PREFIXES))
    return CachedResponse(status, Headers(storable(pairs)), body, meta)

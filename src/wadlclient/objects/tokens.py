"""Resume tokens: where a walk is, as a short, versioned, URL-safe string with no secret in it.

A token reads ``w2.`` (its format's version) and then base64url bytes:
flags, a digest of the service root's URL, of the collection's URL and of
the shard (zeros for a whole walk), the shard's number and count, the
offset the walk reads next (a guess the resume checks), the collection's
size when last seen, the digests of the last entries handed out (their
``self_link``: the resume looks for them to find its place again), the
walk's random id and the offset of the page it hands out from (the pages
it keeps in a shared cache are found by both: `wadlclient.objects.kept`),
and a checksum. Only digests of URLs go in: a token may be logged, stored
in a database or put in a URL. Format 1 (no walk id, no page) is still read.

Learnt from botocore's paginators (boto/botocore #1041, #862, boto3
#1984): a token after every entry, not only between pages; a version in
the token, so that a newer format is told from a damaged one; and every
token this library writes is one it can read back, with a clear
`WalkTokenError` for any other.
"""

# No ``from __future__ import annotations``: a named tuple's class compiles each field
# annotation that is a string when it is defined, a cost every start paid.
import base64
import binascii
import hashlib
import re
from typing import NamedTuple

from wadlclient.errors import WalkTokenError

__all__ = [
    "ANCHORS",
    "FORMAT",
    "Position",
    "Scope",
    "check_scope",
    "decode_token",
    "digest",
    "encode_token",
]

#: The token format this library writes.
FORMAT = 2
#: The formats this library reads.
READS = (1, 2)
#: Entries handed out last that a token remembers (by digest) to find its place again.
ANCHORS = 4
_SERVICE_BYTES = 4
_COLLECTION_BYTES = 6
_SHARD_BYTES = 4
_LINK_BYTES = 6
#: The bytes of a walk's id (`Position.walk`), when it has one.
WALK_BYTES = 4
_CHECK_BYTES = 4
_DONE = 1
_INCLUSIVE = 2
_TOKEN = re.compile(r"w(\d{1,6})\.([A-Za-z0-9_-]{1,400})")


def digest(text: str, size: int = _LINK_BYTES) -> bytes:
    """A short digest of ``text`` that is the same in every process (``hash`` is not)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=size).digest()


class Scope:
    """What a token belongs to: a service, a collection, and a shard of it (or the whole walk).

    A plain class, not a dataclass (``dataclasses`` imports ``inspect``: a cost
    every start would pay) nor a named tuple (its ``index`` and ``count`` are
    tuple methods).
    """

    __slots__ = ("collection", "count", "index", "service", "shard")

    def __init__(
        self,
        service: bytes,
        collection: bytes,
        shard: bytes = bytes(_SHARD_BYTES),
        index: int = 0,
        count: int = 0,
    ) -> None:
        self.service, self.collection, self.shard = service, collection, shard
        self.index, self.count = index, count

    def _fields(self) -> tuple[bytes, bytes, bytes, int, int]:
        return (self.service, self.collection, self.shard, self.index, self.count)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scope):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Scope({!r}, {!r}, {!r}, {!r}, {!r})".format(*self._fields())

    @classmethod
    def of(
        cls, root_url: str, collection_url: str, shard: str = "", index: int = 0, count: int = 0
    ) -> "Scope":
        """The scope of a walk over ``collection_url``; ``shard`` names a shard's bounds."""
        return cls(
            digest(root_url, _SERVICE_BYTES),
            digest(collection_url, _COLLECTION_BYTES),
            digest(shard, _SHARD_BYTES) if shard else bytes(_SHARD_BYTES),
            index,
            count,
        )

    def describe(self) -> str:
        return f"shard {self.index + 1} of {self.count}" if self.count else "a whole walk"


class Position(NamedTuple):
    """Where a walk is: the offset it reads next and the entries it handed out last.

    ``inclusive``: ``anchors`` are where the walk starts (a shard's first
    entries), not entries already handed out. ``done``: the walk ended.
    ``walk``: the id under which the walk keeps its pages in a shared cache
    (empty: it keeps none); ``page``: the offset of the page holding its
    next entry (or its last one), the first kept page a resume looks for.
    """

    scope: Scope
    pos: int = 0
    total: int | None = None
    anchors: tuple[bytes, ...] = ()
    inclusive: bool = False
    done: bool = False
    walk: bytes = b""
    page: int = 0


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def encode_token(position: Position) -> str:
    """The token for ``position`` (`decode_token` reads it back)."""
    scope = position.scope
    flags = (_DONE if position.done else 0) | (_INCLUSIVE if position.inclusive else 0)
    anchors = position.anchors[-ANCHORS:]
    total = 0 if position.total is None else position.total + 1
    body = b"".join(
        [
            bytes([flags]),
            scope.service,
            scope.collection,
            scope.shard,
            _varint(scope.index),
            _varint(scope.count),
            _varint(position.pos),
            _varint(total),
            bytes([len(anchors)]),
            *anchors,
            bytes([len(position.walk)]),
            position.walk,
            _varint(position.page),
        ]
    )
    body += digest(body.hex(), _CHECK_BYTES)
    return f"w{FORMAT}." + base64.urlsafe_b64encode(body).rstrip(b"=").decode("ascii")


class _Reader:
    __slots__ = ("at", "data")

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, size: int) -> bytes:
        part = self.data[self.at : self.at + size]
        if len(part) != size:
            raise ValueError("short")
        self.at += size
        return part

    def varint(self) -> int:
        value = shift = 0
        while shift < 64:
            byte = self.take(1)[0]
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
        raise ValueError("long")


def decode_token(token: object) -> Position:
    """The position a token holds; `WalkTokenError` for anything this library did not write."""
    if not isinstance(token, str):
        raise WalkTokenError(f"a walk's resume token is a str, not {type(token).__name__}")
    found = _TOKEN.fullmatch(token)
    if found is None:
        raise WalkTokenError(
            f"{token[:20]!r}... is not a walk's resume token (they read w{FORMAT}.<letters>)"
            if len(token) > 20
            else f"{token!r} is not a walk's resume token (they read w{FORMAT}.<letters>)"
        )
    version = int(found.group(1))
    if version not in READS:
        raise WalkTokenError(
            f"the resume token is of format {version}; this wadlclient reads formats "
            f"{' and '.join(map(str, READS))} (a newer wadlclient wrote it: resume with that "
            "version)"
        )
    text = found.group(2)
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        body, check = data[:-_CHECK_BYTES], data[-_CHECK_BYTES:]
        if len(data) <= _CHECK_BYTES or digest(body.hex(), _CHECK_BYTES) != check:
            raise ValueError("checksum")
        return _read(_Reader(body), version)
    except (ValueError, binascii.Error):
        raise WalkTokenError(
            "the resume token is damaged (cut short or changed): use the token as the walk gave it"
        ) from None


def _read(reader: _Reader, version: int) -> Position:
    flags = reader.take(1)[0]
    scope = Scope(
        reader.take(_SERVICE_BYTES),
        reader.take(_COLLECTION_BYTES),
        reader.take(_SHARD_BYTES),
        reader.varint(),
        reader.varint(),
    )
    pos, total = reader.varint(), reader.varint()
    count = reader.take(1)[0]
    if count > ANCHORS:
        raise ValueError("anchors")
    anchors = tuple(reader.take(_LINK_BYTES) for _ in range(count))
    walk, page = b"", 0
    if version >= 2:
        size = reader.take(1)[0]
        if size not in (0, WALK_BYTES):
            raise ValueError("walk")
        walk, page = reader.take(size), reader.varint()
    if reader.at != len(reader.data):
        raise ValueError("trailing")
    return Position(
        scope, pos, None if total == 0 else total - 1, anchors, bool(flags & _INCLUSIVE),
        bool(flags & _DONE), walk, page,
    )  # fmt: skip


def check_scope(position: Position, expected: Scope, name: str) -> None:
    """Refuse a position of another service, collection or shard than ``expected`` (``name``)."""
    got = position.scope
    if got.service != expected.service:
        raise WalkTokenError(f"the resume token is from a walk of another service, not of {name}")
    if got.collection != expected.collection:
        raise WalkTokenError(f"the resume token is from a walk of another collection than {name}")
    if got.shard != expected.shard or (got.index, got.count) != (expected.index, expected.count):
        raise WalkTokenError(
            f"the resume token is from {got.describe()} of {name}, not from "
            f"{expected.describe()} (or from shards split another time)"
        )

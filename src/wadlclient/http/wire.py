"""What a sender adds to and removes from the bytes: framing headers, content coding."""

from __future__ import annotations

from wadlclient.errors import ResponseError, RestfulError
from wadlclient.headers import Headers
from wadlclient.http.models import Request
from wadlclient.http.urls import Target

__all__ = [
    "ACCEPT_ENCODING",
    "BodyTooLarge",
    "InvalidURL",
    "content_codings",
    "decode_body",
    "framed_headers",
]

#: The codings `decode_body` undoes (zlib is in every Python).
ACCEPT_ENCODING = "gzip, deflate"
_KNOWN_CODINGS = {"gzip": "gzip", "x-gzip": "gzip", "deflate": "deflate"}
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
#: Bytes decoded at a time: a bomb is stopped within this much of the cap.
_DECODE_PIECE = 1024 * 1024


def framed_headers(request: Request, target: Target) -> list[tuple[str, str]]:
    """The request's headers with ``Host`` and ``Content-Length`` set as the bytes require."""
    headers = request.headers.copy()
    headers["Host"] = target.host_header
    if request.body is not None:
        headers["Content-Length"] = str(len(request.body))
    elif request.method in _BODY_METHODS:
        headers["Content-Length"] = "0"
    return headers.pairs()


def decode_body(content: bytes, headers: Headers, max_size: int | None = None) -> bytes:
    """The body with its ``Content-Encoding`` (gzip, deflate; several in turn) undone.

    An unknown coding is left as it is, as httpx does; a body that does not
    decode is a `ResponseError`, and so is one that would grow past
    ``max_size`` bytes: decoding stops there, so a decompression bomb never
    takes more memory than the cap.
    """
    codings = content_codings(headers)
    if not content or not codings:
        return content
    import zlib

    try:
        for coding in reversed(codings):
            if coding == "gzip":
                content = _decompress(content, zlib.MAX_WBITS | 16, max_size)
            else:
                content = _inflate(content, max_size)
    except zlib.error as error:
        raise ResponseError(f"the answer's {', '.join(codings)} body does not decode") from error
    return content


def content_codings(headers: Headers) -> list[str]:
    """The ``Content-Encoding`` codings we undo ("gzip" or "deflate"), in the order applied.

    Any other coding is left on the body as it is, as httpx does.
    """
    named = ",".join(headers.get_list("content-encoding")).split(",")
    codings = [_KNOWN_CODINGS.get(c.strip().lower()) for c in named]
    return [c for c in codings if c is not None]


class BodyTooLarge(ResponseError):
    """An answer's body, as sent or once decoded, is larger than the transport allows."""


class InvalidURL(RestfulError, ValueError):
    """A URL to send a request to is not an absolute http(s) URL (often a server's bad link)."""


def _decompress(content: bytes, wbits: int, max_size: int | None) -> bytes:
    """One zlib stream decoded piece by piece, stopping as soon as it passes ``max_size``."""
    import zlib

    decoder = zlib.decompressobj(wbits)
    parts: list[bytes] = []
    total = 0
    data = content
    while not decoder.eof:
        piece = decoder.decompress(data, _DECODE_PIECE)
        data = decoder.unconsumed_tail
        if not piece and not data:
            break  # all input read and no output pending: the stream is cut short
        total += len(piece)
        if max_size is not None and total > max_size:
            raise BodyTooLarge(f"the answer's body decodes to more than {max_size} bytes")
        parts.append(piece)
    parts.append(decoder.flush())
    if not decoder.eof:
        raise zlib.error("incomplete or truncated stream")
    return b"".join(parts)


def _inflate(content: bytes, max_size: int | None) -> bytes:
    """Deflate as sent in the wild: zlib-wrapped (RFC 9110) or, from some servers, raw."""
    import zlib

    try:
        return _decompress(content, zlib.MAX_WBITS, max_size)
    except zlib.error:
        return _decompress(content, -zlib.MAX_WBITS, max_size)

"""What a sender adds to and removes from the bytes: framing headers, content coding."""

from __future__ import annotations

from wadlclient.errors import ResponseError
from wadlclient.headers import Headers
from wadlclient.http.models import Request
from wadlclient.http.urls import Target

__all__ = ["ACCEPT_ENCODING", "decode_body", "framed_headers"]

#: The codings `decode_body` undoes (zlib is in every Python).
ACCEPT_ENCODING = "gzip, deflate"
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def framed_headers(request: Request, target: Target) -> list[tuple[str, str]]:
    """The request's headers with ``Host`` and ``Content-Length`` set as the bytes require."""
    headers = request.headers.copy()
    headers["Host"] = target.host_header
    if request.body is not None:
        headers["Content-Length"] = str(len(request.body))
    elif request.method in _BODY_METHODS:
        headers["Content-Length"] = "0"
    return headers.pairs()


def decode_body(content: bytes, headers: Headers) -> bytes:
    """The body with its ``Content-Encoding`` (gzip, deflate; several in turn) undone.

    An unknown coding is left as it is, as httpx does; a body that does not
    decode is a `ResponseError`.
    """
    codings = [c.strip().lower() for c in ",".join(headers.get_list("content-encoding")).split(",")]
    if not content or not any(c in ("gzip", "x-gzip", "deflate") for c in codings):
        return content
    import zlib

    try:
        for coding in reversed(codings):
            if coding in ("gzip", "x-gzip"):
                content = zlib.decompress(content, zlib.MAX_WBITS | 16)
            elif coding == "deflate":
                content = _inflate(content)
    except zlib.error as error:
        raise ResponseError(f"the answer's {', '.join(codings)} body does not decode") from error
    return content


def _inflate(content: bytes) -> bytes:
    """Deflate as sent in the wild: zlib-wrapped (RFC 9110) or, from some servers, raw."""
    import zlib

    try:
        return zlib.decompress(content)
    except zlib.error:
        return zlib.decompress(content, -zlib.MAX_WBITS)

"""Following a redirect: which answers are one, and the next hop's URL, method and headers."""

from __future__ import annotations

from wadlclient.errors import ResponseError
from wadlclient.http.models import Request, Response
from wadlclient.http.urls import join, parse_url
from wadlclient.redact import shown_url

__all__ = [
    "REDIRECT_STATUSES",
    "becomes_get",
    "check_redirect",
    "next_request",
    "redirect_location",
]

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
#: Headers that describe a body: dropped when the next hop becomes a GET.
_BODY_HEADERS = ("content-type", "content-length", "transfer-encoding")


def redirect_location(response: Response) -> str | None:
    """Where a redirect answer points, or None when it is not one to follow."""
    if response.status not in REDIRECT_STATUSES:
        return None
    return response.headers.get("location") or None


def becomes_get(status: int, method: str) -> bool:
    """Whether the next hop is a bodiless GET: after a 303 (but to HEAD), or a 301/302 to POST."""
    return (status == 303 and method != "HEAD") or (status in (301, 302) and method == "POST")


def next_request(request: Request, status: int, location: str) -> Request:
    """The request for the next hop; becoming a GET drops the body and its headers."""
    url = join(request.url, location)
    if not becomes_get(status, request.method):
        return request._replace(url=url)
    headers = request.headers.copy()
    for name in _BODY_HEADERS:
        headers.pop(name, None)
    return Request("GET", url, headers, None)


def check_redirect(request: Request, next_hop: Request, allow_insecure: bool) -> None:
    """Refuse a redirect to anything but http(s), and from https to http unless allowed."""
    target = parse_url(next_hop.url)
    if target is None:
        raise ResponseError(
            f"{request.method} {shown_url(request.url)}: redirected to "
            f"{shown_url(next_hop.url)!r}, "
            "which is not an http or https URL"
        )
    if target.scheme == "http" and request.url[:6].lower() == "https:" and not allow_insecure:
        raise ResponseError(
            f"{request.method} {shown_url(request.url)}: redirected from https to http "
            f"({shown_url(next_hop.url)}); refused "
            "(Transport(allow_insecure_redirects=True) allows it)"
        )

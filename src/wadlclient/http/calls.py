"""One call as its caller sees it: the request made from the call's arguments and
the cache (`prepare`), and the answer given back (`give_answer`).

The transport's pipeline (`wadlclient.http.pipeline`) sends what `prepare`
made; these steps know the cache and the caller, never the wire.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping

from wadlclient.errors import TransportError, UnexpectedResponseError, error_for
from wadlclient.headers import Headers
from wadlclient.http import cache_policy
from wadlclient.http.cache_policy import Cache, CacheOutcome
from wadlclient.http.logs import log_exchange
from wadlclient.http.models import HTTPResponse, PendingResponse, Request, Response
from wadlclient.http.parts import CacheUse, check_url, from_cached, wrap
from wadlclient.http.sender import Exchange, finished

__all__ = ["answered", "failed", "give_answer", "prepare", "settle"]

_CONDITIONAL_HEADERS = frozenset({"if-none-match", "if-modified-since"})


def prepare(
    fixed: Headers,
    cache: Cache | None,
    method: str,
    url: str,
    accept: str,
    body: bytes | str | None,
    content_type: str | None,
    headers: Mapping[str, str] | None,
    authorizer: object = None,
) -> tuple[Request, CacheUse] | HTTPResponse:
    """The request to send and how it uses ``cache``; or the fresh cached answer.

    A caller's own ``If-None-Match``/``If-Modified-Since`` bypasses the
    cache; else a stored entry ``authorizer``'s principal may use is served
    while fresh, or its validators make the request conditional.
    """
    began = time.monotonic()
    check_url(method, url)
    if isinstance(body, str):
        body = body.encode("utf-8")
    sent = fixed.copy()
    sent["Accept"] = accept
    if content_type is not None:
        sent["Content-Type"] = content_type
    caller_conditional = False
    for name, value in (headers or {}).items():
        sent[name] = value
        caller_conditional = caller_conditional or name.lower() in _CONDITIONAL_HEADERS
    request = Request(method, url, sent, body)
    principal = None if cache is None else cache_policy.principal_of(authorizer, request)
    cached = None if caller_conditional else cache_policy.lookup(cache, request, accept, principal)
    if cached is not None and cache is not None:
        if cached.is_fresh(cache.clock()):
            log_exchange(method, url, cached.status, CacheOutcome.FRESH.value, began)
            return from_cached(cached, url)
        for name, value in cached.validators().items():
            sent[name] = value  # the request's own headers: it was made for this
    return request, CacheUse(cache, accept, cached, caller_conditional, began, principal)


def give_answer(
    request: Request, response: Response, use: CacheUse, follow_redirects: bool, has_cache: bool
) -> HTTPResponse:
    """The caller's answer: a 304 resolved, an error status raised, the cache updated.

    ``has_cache``: the transport has a cache, even if this call did not use it.
    """
    method, url, status = request.method, request.url, response.status
    cache, cached, accept = use.cache, use.cached, use.accept
    if status == 304:
        if use.caller_conditional:
            log_exchange(method, url, status, CacheOutcome.BYPASS.value, use.began)
            return wrap(response, not_modified=True)
        if cached is not None and cache is not None:
            refreshed = cache.refresh(
                url, accept, response, cached, principal=use.principal, headers=request.headers
            )
            log_exchange(method, url, status, CacheOutcome.REVALIDATED.value, use.began)
            return from_cached(refreshed if refreshed is not None else cached, url)
        log_exchange(method, url, status, CacheOutcome.UNEXPECTED.value, use.began)
        raise UnexpectedResponseError(response, response.content)
    error = error_for(response, response.content, method)
    if error is None and 300 <= status < 400 and follow_redirects:
        # A redirect without a Location, or a 300/305: nothing to follow.
        error = UnexpectedResponseError(response, response.content)
    if error is not None:
        log_exchange(method, response.url, status, CacheOutcome.NONE.value, use.began)
        raise error
    if cache is not None:
        had_entry = cached is not None
        outcome = cache_policy.update(cache, request, accept, response, had_entry, use.principal)
    else:
        outcome = CacheOutcome.BYPASS if has_cache else CacheOutcome.NONE
    log_exchange(method, response.url, status, outcome.value, use.began)
    return wrap(response)


def settle(request: Request, use: CacheUse) -> None:
    """The call is over, answered or failed: the cache may end a claim it took at the lookup."""
    if use.cached is None and use.cache is not None:
        cache_policy.settle(use.cache, request.url, use.accept)


def answered(response: HTTPResponse) -> PendingResponse:
    """A `PendingResponse` whose answer is already here (a fresh cached one)."""
    return PendingResponse(functools.partial(_same, response), _nothing)


def failed(error: TransportError) -> Exchange:
    """An exchange that failed to start: reading it raises ``error``, where retries apply."""
    return finished(functools.partial(_raise, error))


def _same(response: HTTPResponse) -> HTTPResponse:
    return response


def _nothing() -> None:
    pass


def _raise(error: TransportError) -> Response:
    raise error

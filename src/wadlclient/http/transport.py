"""`Transport`: one logical request, from the caller's arguments to its answer.

`Transport.request` -> cache lookup (`calls.prepare`) -> `Pipeline.send`
(redirects, retries, authorization, `Sender.send`; `pipeline.py`); the
answer then goes through `calls.give_answer` (304s, error statuses, cache
update). Identical GETs in flight share one (`flights.Flights`).
`Transport.begin` takes the same steps, its first attempt put on the wire
at once (`Pipeline.start_first`) and read when its answer is asked for.
`Transport.stream` takes them without the cache (`Pipeline.open`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING

from wadlclient.errors import UnexpectedResponseError, error_for
from wadlclient.http.budget import Budget
from wadlclient.http.cache_policy import Cache, CacheOutcome
from wadlclient.http.calls import answered, give_answer, prepare, settle
from wadlclient.http.connection import Verify, check_verify
from wadlclient.http.flights import Flights
from wadlclient.http.logs import log_exchange
from wadlclient.http.models import (
    DEFAULT_DEADLINE,
    DEFAULT_MAX_BODY,
    HTTPResponse,
    PendingResponse,
    Request,
    Timeout,
)
from wadlclient.http.parts import (
    Authorizer,
    CacheUse,
    check_limits,
    check_url,
    fixed_headers,
    make_sender,
    origin_of,
)
from wadlclient.http.pipeline import Pipeline
from wadlclient.http.retry import RETRY_METHODS, Retry, full_jitter
from wadlclient.http.sender import Exchange, Sender
from wadlclient.http.stream import StreamedResponse
from wadlclient.http.user_agent import build_user_agent

if TYPE_CHECKING:
    import httpx

__all__ = ["Transport"]


class Transport:
    """Sends requests for one service root through a `Sender`.

    Thread-safe: every attribute is set once in ``__init__``; the sender,
    the cache and the authorizer are shared as they are.

    The sender is ``sender`` when given (and `close` closes it); else a
    caller's ``client`` (an ``httpx.Client``, used with its own settings,
    ``timeout`` and ``pool`` then ignored, and left open by `close`); else
    ``pool="stdlib"`` (the default, `wadlclient.http.pool.ConnectionPool`
    over http.client) or ``pool="httpx"`` (httpx's own pools).

    Limits (the README's "Reliability" section): ``deadline`` (one call,
    retries and waits included), ``max_body`` (an answer, sent and decoded),
    ``retry_methods`` (retried after a 502/503; idempotent ones by default),
    ``auth_origin`` (the one origin credentials go to; None: each call's
    first URL's), ``allow_insecure_redirects`` (https -> http). ``verify``:
    how https certificates are checked (`wadlclient.http.connection.Verify`:
    the system's trust store by default, a CA bundle, an ``ssl.SSLContext``).
    ``budget``: a request budget shared with other processes (`budget`; None:
    the one installed for the process by `budget.use_budget`, if any).
    """

    def __init__(
        self,
        *,
        authorizer: Authorizer | None = None,
        cache: Cache | None = None,
        timeout: float | Timeout | None = None,
        max_retries: int = 6,
        base_client_name: str = "",
        client: httpx.Client | None = None,
        pool: str = "stdlib",
        sleep: Callable[[float], None] = time.sleep,
        max_redirects: int = 10,
        max_backoff: float = 30.0,
        max_retry_after: float = 30.0,
        sender: Sender | None = None,
        deadline: float | None = DEFAULT_DEADLINE,
        max_body: int = DEFAULT_MAX_BODY,
        retry_methods: Iterable[str] = RETRY_METHODS,
        jitter: Callable[[float], float] = full_jitter,
        auth_origin: str | None = None,
        allow_insecure_redirects: bool = False,
        retry: Retry | None = None,
        verify: Verify = True,
        budget: Budget | None = None,
    ) -> None:
        if retry is not None:
            max_retries = retry.total
        check_limits(max_retries, max_redirects, deadline, max_body, pool)
        check_verify(verify)
        self._authorizer = authorizer
        self._cache = cache
        params = authorizer.user_agent_params if authorizer is not None else {}
        self._user_agent = build_user_agent(base_client_name, params)
        self._fixed_headers = fixed_headers(self._user_agent)
        if retry is None:
            retry = Retry(
                total=max_retries,
                backoff_max=max_backoff,
                retry_after_max=max_retry_after,
                methods=frozenset(m.upper() for m in retry_methods),
                jitter=jitter,
            )
        origin, limit = origin_of(auth_origin), Timeout.of(timeout)
        self._pipeline = Pipeline(
            sender=sender if sender is not None else make_sender(pool, client, max_body, verify),
            retry=retry,
            timeout=limit,
            deadline=deadline,
            max_body=max_body,
            max_redirects=max_redirects,
            authorizer=authorizer,
            auth_origin=origin,
            allow_insecure_redirects=allow_insecure_redirects,
            sleep=sleep,
            budget=budget,
        )
        self._owns_sender = client is None
        self._flights = Flights()

    @property
    def user_agent(self) -> str:
        """The User-Agent header sent with every request."""
        return self._user_agent

    @property
    def authorizer(self) -> Authorizer | None:
        """The authorizer consulted for every request (or None)."""
        return self._authorizer

    @property
    def closed(self) -> bool:
        """Whether `close` closed this transport (it sends nothing more)."""
        return self._pipeline.closed

    def close(self) -> None:
        """Close the sender (not a client supplied by the caller)."""
        if self._owns_sender:
            self._pipeline.close()

    def __enter__(self) -> Transport:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def request(
        self,
        method: str,
        url: str,
        *,
        accept: str = "application/json",
        body: bytes | str | None = None,
        content_type: str | None = None,
        headers: Mapping[str, str] | None = None,
        follow_redirects: bool = True,
        use_cache: bool = True,
    ) -> HTTPResponse:
        """Send one logical request; return the answer or raise its error.

        Non-2xx answers raise `wadlclient.errors.error_for(...)`, except a 304
        for the caller's own ``If-None-Match``/``If-Modified-Since`` (returned
        with ``not_modified=True``) and, with ``follow_redirects=False``, a
        3xx (returned for the caller to handle).
        """
        prepared = prepare(
            self._fixed_headers, self._cache if use_cache else None,
            method.upper(), url, accept, body, content_type, headers, self._authorizer,
        )  # fmt: skip
        if isinstance(prepared, HTTPResponse):
            return prepared
        request, use = prepared
        end = self._pipeline.end()
        finish = functools.partial(self._complete, request, use, follow_redirects, end, None)
        key = _flight_key(request.method, url, accept, body, headers, follow_redirects, use_cache)
        if key is None:
            return finish()
        flight, _started = self._flights.join(key, lambda: finish)
        return flight.result()

    def begin(self, method: str, url: str, *, accept: str = "application/json") -> PendingResponse:
        """Put a bodiless request on the wire now; answer it when `PendingResponse.result` asks.

        The server works while the caller does something else (a service
        root parses its WADL while its JSON is on the way). The answer is
        what `request` gives, errors included, redirects and retries taken
        when it is read; a fresh cached answer sends nothing. A sender that
        is not a `StartingSender` sends when the answer is asked for.
        """
        prepared = prepare(
            self._fixed_headers, self._cache, method.upper(), url, accept, None, None, None,
            self._authorizer,
        )  # fmt: skip
        if isinstance(prepared, HTTPResponse):
            return answered(prepared)
        request, use = prepared
        end = self._pipeline.end()
        started: list[Exchange | None] = []

        def start() -> Callable[[], HTTPResponse]:
            started.append(self._pipeline.start_first(request, end))
            return functools.partial(self._complete, request, use, True, end, started[0])

        key = _flight_key(request.method, url, accept, None, None, True, True)
        if key is None:
            return PendingResponse(start(), _discarder(started))
        flight, _new = self._flights.join(key, start)

        def discard() -> None:
            if flight.abandon():
                _discarder(started)()

        return PendingResponse(flight.result, discard)

    def _complete(
        self,
        request: Request,
        use: CacheUse,
        follow_redirects: bool,
        end: float | None,
        started: Exchange | None,
    ) -> HTTPResponse:
        """Send (or read the attempt ``started`` already), follow, retry; the caller's answer."""
        try:
            response = self._pipeline.send(request, follow_redirects, end, started)
            return give_answer(request, response, use, follow_redirects, self._cache is not None)
        finally:
            settle(request, use)

    def stream(
        self,
        method: str,
        url: str,
        *,
        accept: str = "*/*",
        headers: Mapping[str, str] | None = None,
    ) -> StreamedResponse:
        """Send one bodiless request; return its 2xx answer with the body still to read.

        Authorization, redirects, retries (only before the body starts) and
        the deadline are as for `request`; the cache is not used. An error
        status raises what `request` raises (from at most 1 MiB of its
        body). The body must be read within what is left of the deadline
        and the read timeout; close the stream (or use ``with``) when done.
        """
        method, began = method.upper(), time.monotonic()
        check_url(method, url)
        sent = self._fixed_headers.copy()
        sent["Accept"] = accept
        for name, value in (headers or {}).items():
            sent[name] = value
        request = Request(method, url, sent, None)
        answer = self._pipeline.open(request, self._pipeline.end())
        log_exchange(method, answer.url, answer.status, CacheOutcome.NONE.value, began)
        if isinstance(answer, StreamedResponse):
            return answer
        content = answer.content
        raise error_for(answer, content, method) or UnexpectedResponseError(answer, content)


def _discarder(started: list[Exchange | None]) -> Callable[[], None]:
    """What gives up an answer begun early: closes its exchange, if one was put on the wire."""

    def discard() -> None:
        for exchange in started:
            if exchange is not None:
                exchange.discard()

    return discard


def _flight_key(
    method: str,
    url: str,
    accept: str,
    body: bytes | str | None,
    headers: Mapping[str, str] | None,
    follow_redirects: bool,
    use_cache: bool,
) -> tuple[str, str, bool] | None:
    """The key under which identical requests share one flight (None: this one never does).

    Only a plain GET: with a body or headers of the caller's own (a
    conditional one wants its own 304) or redirects not followed, the
    caller asked for something of its own.
    """
    if method != "GET" or body is not None or headers or not follow_redirects:
        return None
    return url, accept, use_cache

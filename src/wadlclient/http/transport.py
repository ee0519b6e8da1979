"""`Transport`: one logical request as a short pipeline of named steps.

`Transport.request` -> cache lookup (`calls.prepare`) -> `_send_handling_redirects`
-> `_send_handling_retries` -> `_authorized` -> `Sender.send`; the answer
then goes through `calls.give_answer` (304s, error statuses, cache update).
`Transport.begin` takes the same steps, its first attempt put on the wire
at once (`StartingSender.start`) and read when its answer is asked for.
`Transport.stream` takes the same steps without the cache, and ends in
`Sender.open` when the sender streams.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar

from wadlclient.errors import (
    TransportError,
    UnexpectedResponseError,
    error_for,
)
from wadlclient.http.cache_policy import Cache, CacheOutcome
from wadlclient.http.calls import answered, failed, give_answer, prepare
from wadlclient.http.connection import Verify, check_verify
from wadlclient.http.flights import Flights
from wadlclient.http.logs import describe, log_exchange, logger
from wadlclient.http.models import (
    DEFAULT_DEADLINE,
    DEFAULT_MAX_BODY,
    HTTPResponse,
    PendingResponse,
    Request,
    Response,
    Timeout,
)
from wadlclient.http.parts import (
    Authorizer,
    CacheUse,
    check_limits,
    check_url,
    fixed_headers,
    is_at,
    make_sender,
    origin_of,
    timeout_left,
)
from wadlclient.http.redirects import check_redirect, next_request, redirect_location
from wadlclient.http.retry import RETRY_METHODS, Retry, RetryExhausted, full_jitter, is_transient
from wadlclient.http.sender import Exchange, Sender, StartingSender, StreamingSender
from wadlclient.http.stream import StreamedResponse, whole_stream
from wadlclient.http.tries import Tries
from wadlclient.http.urls import Origin, parse_url
from wadlclient.http.user_agent import build_user_agent
from wadlclient.http.wire import BodyTooLarge

if TYPE_CHECKING:
    import httpx

__all__ = ["Transport"]

#: Bytes of an error answer's body read from a stream, for the error's message.
_ERROR_BODY_LIMIT = 1024 * 1024
#: What one hop of the pipeline gives back: an answer read whole, or (streaming) a 2xx to read.
_Answer = TypeVar("_Answer", Response, Response | StreamedResponse)


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
    ) -> None:
        if retry is not None:
            max_retries = retry.total
        check_limits(max_retries, max_redirects, deadline, max_body, pool)
        check_verify(verify)
        self._authorizer = authorizer
        self._cache = cache
        self._max_redirects = max_redirects
        self._retry = retry if retry is not None else Retry(
            total=max_retries,
            backoff_max=max_backoff,
            retry_after_max=max_retry_after,
            methods=frozenset(m.upper() for m in retry_methods),
            jitter=jitter,
        )
        self._deadline = deadline
        self._max_body = max_body
        self._auth_origin = origin_of(auth_origin)
        self._allow_insecure_redirects = allow_insecure_redirects
        self._sleep = sleep
        params = authorizer.user_agent_params if authorizer is not None else {}
        self._user_agent = build_user_agent(base_client_name, params)
        self._fixed_headers = fixed_headers(self._user_agent)
        self._timeout = Timeout.of(timeout)
        self._sender = (
            sender if sender is not None else make_sender(pool, client, max_body, verify)
        )
        self._owns_sender = client is None
        self._closed = False
        self._flights = Flights()

    @property
    def user_agent(self) -> str:
        """The User-Agent header sent with every request."""
        return self._user_agent

    @property
    def authorizer(self) -> Authorizer | None:
        """The authorizer consulted for every request (or None)."""
        return self._authorizer

    def close(self) -> None:
        """Close the sender (not a client supplied by the caller)."""
        if self._owns_sender:
            self._closed = True
            self._sender.close()

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
            method.upper(), url, accept, body, content_type, headers,
        )  # fmt: skip
        if isinstance(prepared, HTTPResponse):
            return prepared
        request, use = prepared
        end = self._end()
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
            self._fixed_headers, self._cache, method.upper(), url, accept, None, None, None
        )
        if isinstance(prepared, HTTPResponse):
            return answered(prepared)
        request, use = prepared
        end = self._end()
        started: list[Exchange | None] = []

        def start() -> Callable[[], HTTPResponse]:
            started.append(self._start_first(request, end))
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
        response = self._send_handling_redirects(
            request, follow_redirects, end, self._send_single_request, started
        )
        return give_answer(request, response, use, follow_redirects, self._cache is not None)

    def _start_first(self, request: Request, end: float | None) -> Exchange | None:
        """The first attempt of ``request`` on the wire now; None when the sender cannot start."""
        sender = self._sender
        if not isinstance(sender, StartingSender):
            return None
        origin = self._credentials_origin(request.url)
        try:
            timeout = self._timeout_left(request, end)
            authorized = self._authorized(request, is_at(request.url, origin))
            return sender.start(authorized, timeout=timeout)
        except TransportError as error:
            # Raised when the answer is read, where a first attempt's failure is retried.
            return failed(error)

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
        answer = self._send_handling_redirects(request, True, self._end(), self._open_single)
        log_exchange(method, answer.url, answer.status, CacheOutcome.NONE.value, began)
        if isinstance(answer, StreamedResponse):
            return answer
        content = answer.content
        raise error_for(answer, content, method) or UnexpectedResponseError(answer, content)

    def _end(self) -> float | None:
        """When a call that starts now must be over (None: no deadline)."""
        return None if self._deadline is None else time.monotonic() + self._deadline

    def _send_handling_redirects(
        self,
        request: Request,
        follow_redirects: bool,
        end: float | None,
        send: Callable[[Request, float | None], _Answer],
        started: Exchange | None = None,
    ) -> _Answer:
        """Send, following redirects; authorization goes only to the credentials' origin.

        ``started``: the first hop's first attempt, already on the wire.
        """
        origin = self._credentials_origin(request.url)
        asked = request
        for _hop in range(self._max_redirects + 1):
            same_origin = is_at(request.url, origin)
            response = self._send_handling_retries(request, same_origin, end, send, started)
            started = None
            if isinstance(response, StreamedResponse):
                return response
            location = redirect_location(response) if follow_redirects else None
            if location is None:
                return response
            next_hop = next_request(request, response.status, location)
            check_redirect(request, next_hop, self._allow_insecure_redirects)
            where = (request.method, request.url, response.status, next_hop.url)
            logger.debug("%s %s -> %d redirect to %s", *where)
            request = next_hop
        raise TransportError(
            f"{asked.method} {asked.url}: more than {self._max_redirects} redirects",
            url=asked.url,
            method=asked.method,
        )

    def _send_handling_retries(
        self,
        request: Request,
        authorize: bool,
        end: float | None,
        send: Callable[[Request, float | None], _Answer],
        started: Exchange | None = None,
    ) -> _Answer:
        """Send one hop, retrying as the `Retry` policy says, within the deadline.

        ``started``: the first attempt, already on the wire. When the tries
        run out, the error says how many were made, over how long.
        """
        retry, began = self._retry, time.monotonic()
        while True:
            try:
                response: Response | StreamedResponse
                if started is not None:
                    exchange, started = started, None
                    response = self._bounded(request, exchange.result())
                else:
                    response = send(self._authorized(request, authorize), end)
            except TransportError as error:
                tries = Tries(request, retry.attempts + 1, began)
                try:
                    retry = retry.increment(request.method, error=error)
                except TransportError:
                    raise tries.failure(error, self._why_not(retry, request, error)) from error
                cause = describe(error)
                if not self._may_wait(retry, end, tries, cause):
                    raise tries.failure(error, self._past_deadline(retry)) from error
                retry.sleep(self._sleep)
                continue
            if isinstance(response, StreamedResponse) or not retry.is_retry(
                request.method, response.status
            ):
                return response
            tries = Tries(request, retry.attempts + 1, began)
            try:
                retry = retry.increment(request.method, response=response)
            except RetryExhausted:
                raise tries.gave_up(response, f"no retry left of {retry.total}") from None
            if not self._may_wait(retry, end, tries, f"-> {response.status}"):
                raise tries.gave_up(response, self._past_deadline(retry))
            retry.sleep(self._sleep)

    def _may_wait(self, retry: Retry, end: float | None, tries: Tries, cause: str) -> bool:
        """Whether the retry's wait ends within the deadline; logs the retry when it does."""
        if end is not None and time.monotonic() + retry.delay >= end:
            return False
        logger.warning(
            "%s %s %s; retry %d of %d in %.1f s",
            tries.request.method, tries.request.url, cause, retry.attempts, retry.total,
            retry.delay,
        )  # fmt: skip
        return True

    def _past_deadline(self, retry: Retry) -> str:
        return f"waiting {retry.delay:.1f} s more would pass the {self._deadline:g} s deadline"

    @staticmethod
    def _why_not(retry: Retry, request: Request, error: TransportError) -> str:
        """Why a failed attempt is not tried again ("" when the reason is plain)."""
        if request.method not in retry.methods:
            return f"{request.method} is not retried: it may have acted on the server"
        if not is_transient(error):
            return ""
        return f"no retry left of {retry.total}"

    def _credentials_origin(self, first_url: str) -> Origin | None:
        """The one origin a call's credentials go to: ``auth_origin``, else its first URL's."""
        if self._auth_origin is not None:
            return self._auth_origin
        target = parse_url(first_url)
        return target.origin if target is not None else None

    def _authorized(self, request: Request, authorize: bool) -> Request:
        """The request with fresh credentials (same origin) or none at all (another origin).

        Built anew rather than with ``_replace``, which leaves a spare tuple
        in CPython's free lists on each call: a long walk's peak would grow.
        """
        if authorize and self._authorizer is not None:
            headers = request.headers.copy()
            headers.pop("authorization", None)
            self._authorizer.authorizeRequest(request.url, request.method, request.body, headers)
            request = Request(request.method, request.url, headers, request.body)
        elif not authorize and "authorization" in request.headers:
            headers = request.headers.copy()
            del headers["authorization"]
            request = Request(request.method, request.url, headers, request.body)
        return request

    def _send_single_request(self, request: Request, end: float | None) -> Response:
        """One request on the wire, its answer read whole, within what is left of the deadline."""
        return self._bounded(
            request, self._sender.send(request, timeout=self._timeout_left(request, end))
        )

    def _bounded(self, request: Request, response: Response) -> Response:
        """The answer, unless its body is over ``max_body`` (a sender that does not bound it)."""
        if len(response.content) > self._max_body:
            raise BodyTooLarge(
                f"{request.method} {request.url}: the answer's body is over {self._max_body} bytes"
            )
        return response

    def _open_single(self, request: Request, end: float | None) -> Response | StreamedResponse:
        """One request on the wire: a 2xx answer's body left to read, any other's read (bounded)."""
        if not isinstance(self._sender, StreamingSender):
            response = self._send_single_request(request, end)
            return whole_stream(response) if 200 <= response.status < 300 else response
        stream = self._sender.open(request, timeout=self._timeout_left(request, end))
        if 200 <= stream.status < 300:
            return stream
        with stream:
            content = stream.read(_ERROR_BODY_LIMIT)
        return Response(stream.status, stream.reason, stream.headers, content, stream.url)

    def _timeout_left(self, request: Request, end: float | None) -> Timeout:
        """The timeout of one exchange, shortened to what is left of the call's deadline."""
        if self._closed:
            raise RuntimeError("the transport is closed; make a new one")
        return timeout_left(self._timeout, self._deadline, end, request)



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


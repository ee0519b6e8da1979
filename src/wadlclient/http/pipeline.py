"""`Pipeline`: the steps every call takes once the cache has had its say.

`send` -> `_send_handling_redirects` -> `_send_handling_retries` ->
`_authorized` -> `Sender.send`; `open` ends in `Sender.open` instead (a
2xx answer's body left on the wire); `start_first` puts a first attempt on
the wire at once (`StartingSender.start`) for `send` to read later.
`wadlclient.http.transport.Transport` drives it; it knows neither the
cache nor the caller's arguments, only requests, hops and tries.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from wadlclient.errors import TransportError
from wadlclient.http.budget import Budget, Lease, budget_in_use, holds_started, leased
from wadlclient.http.calls import failed
from wadlclient.http.logs import describe, logger
from wadlclient.http.models import Request, Response, Timeout
from wadlclient.http.parts import Authorizer, is_at, timeout_left
from wadlclient.http.redirects import check_redirect, next_request, redirect_location
from wadlclient.http.retry import Retry, RetryExhausted, is_transient
from wadlclient.http.sender import Exchange, Sender, StartingSender, StreamingSender
from wadlclient.http.stream import StreamedResponse, whole_stream
from wadlclient.http.tries import Tries
from wadlclient.http.urls import Origin, parse_url
from wadlclient.http.wire import BodyTooLarge
from wadlclient.redact import shown_url

__all__ = ["Pipeline"]

#: Bytes of an error answer's body read from a stream, for the error's message.
_ERROR_BODY_LIMIT = 1024 * 1024
#: What one hop of the pipeline gives back: an answer read whole, or (streaming) a 2xx to read.
_Answer = TypeVar("_Answer", Response, Response | StreamedResponse)


class Pipeline:
    """Redirects, retries, authorization and one exchange, for one transport.

    Thread-safe: every attribute is set once in ``__init__``, but for
    ``closed``, which only ever turns True.
    """

    def __init__(
        self,
        *,
        sender: Sender,
        retry: Retry,
        timeout: Timeout,
        deadline: float | None,
        max_body: int,
        max_redirects: int,
        authorizer: Authorizer | None,
        auth_origin: Origin | None,
        allow_insecure_redirects: bool,
        sleep: Callable[[float], None],
        budget: Budget | None = None,
    ) -> None:
        self.sender = sender
        self._budget = budget
        self._retry = retry
        self._timeout = timeout
        self._deadline = deadline
        self._max_body = max_body
        self._max_redirects = max_redirects
        self._authorizer = authorizer
        self._auth_origin = auth_origin
        self._allow_insecure_redirects = allow_insecure_redirects
        self._sleep = sleep
        self.closed = False

    def close(self) -> None:
        """Close the sender; a later call raises rather than reopening it."""
        self.closed = True
        self.sender.close()

    def end(self) -> float | None:
        """When a call that starts now must be over (None: no deadline)."""
        return None if self._deadline is None else time.monotonic() + self._deadline

    def send(
        self,
        request: Request,
        follow_redirects: bool,
        end: float | None,
        started: Exchange | None = None,
    ) -> Response:
        """Send (or read the attempt ``started`` already), follow, retry: the answer read whole."""
        return self._send_handling_redirects(
            request, follow_redirects, end, self._send_single_request, started
        )

    def open(self, request: Request, end: float | None) -> Response | StreamedResponse:
        """As `send`, but a 2xx answer comes back with its body still to read."""
        return self._send_handling_redirects(request, True, end, self._open_single)

    def start_first(self, request: Request, end: float | None) -> Exchange | None:
        """The first attempt of ``request`` on the wire now; None when the sender cannot start."""
        sender = self.sender
        if not isinstance(sender, StartingSender):
            return None
        origin = self._credentials_origin(request.url)
        try:
            lease = self._spend(request, end, slot=True)
            try:
                timeout = self._timeout_left(request, end)
                authorized = self._authorized(request, is_at(request.url, origin))
                exchange = sender.start(authorized, timeout=timeout)
            except BaseException:
                if lease is not None:
                    lease.give()
                raise
            return exchange if lease is None else leased(exchange, lease)
        except TransportError as error:
            # Raised when the answer is read, where a first attempt's failure is retried.
            return failed(error)

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
            where = (request.method, shown_url(request.url), response.status)
            logger.debug("%s %s -> %d redirect to %s", *where, shown_url(next_hop.url))
            request = next_hop
        raise TransportError(
            f"{asked.method} {shown_url(asked.url)}: more than {self._max_redirects} redirects",
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
            tries.request.method, shown_url(tries.request.url), cause, retry.attempts, retry.total,
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
        lease = self._spend(request, end, slot=True)
        try:
            return self._bounded(
                request, self.sender.send(request, timeout=self._timeout_left(request, end))
            )
        finally:
            if lease is not None:
                lease.give()

    def _spend(self, request: Request, end: float | None, *, slot: bool) -> Lease | None:
        """One request of the shared budget (`budget`), waited for; None when there is none."""
        budget = self._budget if self._budget is not None else budget_in_use()
        target = parse_url(request.url) if budget is not None else None
        if budget is None or target is None:
            return None
        return budget.take(target.origin, slot=slot and not holds_started(), until=end)

    def _bounded(self, request: Request, response: Response) -> Response:
        """The answer, unless its body is over ``max_body`` (a sender that does not bound it)."""
        if len(response.content) > self._max_body:
            raise BodyTooLarge(
                f"{request.method} {shown_url(request.url)}: the answer's body is over "
                f"{self._max_body} bytes"
            )
        return response

    def _open_single(self, request: Request, end: float | None) -> Response | StreamedResponse:
        """One request on the wire: a 2xx answer's body left to read, any other's read (bounded)."""
        if not isinstance(self.sender, StreamingSender):
            response = self._send_single_request(request, end)
            return whole_stream(response) if 200 <= response.status < 300 else response
        lease = self._spend(request, end, slot=False)
        if lease is not None:
            lease.give()
        stream = self.sender.open(request, timeout=self._timeout_left(request, end))
        if 200 <= stream.status < 300:
            return stream
        with stream:
            content = stream.read(_ERROR_BODY_LIMIT)
        return Response(stream.status, stream.reason, stream.headers, content, stream.url)

    def _timeout_left(self, request: Request, end: float | None) -> Timeout:
        """The timeout of one exchange, shortened to what is left of the call's deadline."""
        if self.closed:
            raise RuntimeError("the transport is closed; make a new one")
        return timeout_left(self._timeout, self._deadline, end, request)

"""The tries of one request, and the error that says how they ended.

When retries run out, or the deadline leaves no time for another wait,
the caller's error names the method and URL, the last cause, how many
attempts were made and over how long: a flaky network's cost in one line.
"""

# No ``from __future__ import annotations``: a named tuple's class compiles each field
# annotation that is a string when it is defined, a cost every start paid.
import time
from typing import NamedTuple

from wadlclient.errors import HTTPError, TransportError, UnexpectedResponseError, error_for
from wadlclient.http.logs import log_exchange
from wadlclient.http.models import Request, Response
from wadlclient.http.parts import failure

__all__ = ["Tries"]


class Tries(NamedTuple):
    """``made`` attempts of ``request`` made since ``began`` (a `time.monotonic` value)."""

    request: Request
    made: int
    began: float

    def failure(self, error: TransportError, why: str = "") -> TransportError:
        """The transport's error for the last attempt's failure, with the tries told."""
        note = self._note(why)
        made = failure(self.request, error, note)
        made.attempts, made.elapsed = self.made, self._elapsed()
        return made

    def gave_up(self, response: Response, why: str) -> HTTPError:
        """The error of the last answer (a 429, 502, 503 or 504) after the tries ran out."""
        method = self.request.method
        error = error_for(response, response.content, method) or UnexpectedResponseError(
            response, response.content, method=method
        )
        error.attempts, error.elapsed, error.note = self.made, self._elapsed(), self._note(why)
        log_exchange(method, response.url, response.status, "none", self.began)
        return error

    def _elapsed(self) -> float:
        return time.monotonic() - self.began

    def _note(self, why: str) -> str:
        """``"3 attempts over 4.2 s; <why>"``, what of it applies ("" for one plain try)."""
        parts = [f"{self.made} attempts over {self._elapsed():.1f} s"] if self.made > 1 else []
        if why:
            parts.append(why)
        return "; ".join(parts)

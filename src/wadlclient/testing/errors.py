"""`HTTPException`: what the fake answers with an error status, raised by it or by a test's handler.

A handler of a named operation raises it to answer as the real service
would (``raise HTTPException(404, "No such snap.")``); the fake raises it
itself for whatever the WADL does not allow, with lazr.restful's message.
"""

from __future__ import annotations

from typing import Any

from wadlclient.errors import reduce_error

__all__ = ["HTTPException"]


class HTTPException(Exception):
    """An error answer: ``status`` (400-599) and the plain-text ``message`` sent as its body."""

    def __init__(self, status: int, message: str) -> None:
        if not isinstance(status, int) or not 400 <= status <= 599:
            raise ValueError(f"an HTTPException answers an error status (400-599), not {status!r}")
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_error(self)  # its __init__ takes what its args do not hold

    def __repr__(self) -> str:
        return f"HTTPException({self.status}, {self.message!r})"

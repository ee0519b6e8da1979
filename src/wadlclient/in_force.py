"""Hooks in force for a whole process: a stack a ``with`` block pushes one onto.

Address rewrites (`wadlclient.objects.addresses`) and request routes
(`wadlclient.http.routes`) are each such a stack: the code under test may
start a root or send a request from any thread, so a hook entered applies
to the whole process until its block ends, and the latest entered is asked
first.
"""

from __future__ import annotations

import threading
from types import TracebackType
from typing import ClassVar, Generic, TypeVar

__all__ = ["HookInForce"]

Hook = TypeVar("Hook")


class HookInForce(Generic[Hook]):
    """Within the ``with`` block, ``hook`` is in force; each subclass keeps a stack of its own."""

    _entered: ClassVar[list[HookInForce]]  # type: ignore[type-arg]
    _lock: ClassVar[threading.Lock]

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._entered, cls._lock = [], threading.Lock()

    def __init__(self, hook: Hook) -> None:
        self._hook = hook

    def __enter__(self) -> Hook:
        with self._lock:
            self._entered.append(self)
        return self._hook

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with self._lock:
            self._entered[:] = [entered for entered in self._entered if entered is not self]

    @classmethod
    def in_force(cls) -> tuple[Hook, ...]:
        """The hooks in force, the latest entered first (an empty tuple costs nothing)."""
        if not cls._entered:
            return ()
        with cls._lock:
            return tuple(entered._hook for entered in reversed(cls._entered))

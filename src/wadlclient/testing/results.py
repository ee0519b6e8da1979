"""A handler's value, checked against what the WADL says the operation answers.

lazr.restful serves an operation's result by its declaration: a factory
answers 201 with the new entry's ``Location``, an operation returning an
entry answers that entry or null, one returning a collection answers a
page of entries, and one with no declared representation answers its
value as JSON (a list of URLs stays a list). A value that does not fit is
the test's mistake: a 500 naming the operation and what came back.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from wadlclient.testing.description import Description
from wadlclient.testing.errors import HTTPException
from wadlclient.testing.store import FakeEntry

__all__ = ["Result", "ResultKind"]


class ResultKind(enum.Enum):
    CREATED = "created"
    ENTRY = "entry"
    PAGE = "page"
    JSON = "json"


class Result(NamedTuple):
    """What one handler returned, and what the WADL says the operation answers."""

    label: str
    kind: ResultKind
    #: The entry type of the declared entry or page, when the WADL names one.
    entry_type: str | None
    value: Any

    def checked(self, description: Description) -> Any:
        """The value, if it fits the declaration; a 500 saying what was declared if not."""
        value = self.value
        if self.kind is ResultKind.CREATED:
            fits = isinstance(value, FakeEntry)
        elif self.kind is ResultKind.ENTRY:
            fits = value is None or self._conforms(description, value)
        elif self.kind is ResultKind.PAGE:
            fits = isinstance(value, (list, tuple)) and all(
                self._conforms(description, item) for item in value
            )
        else:
            return value
        if not fits:
            raise HTTPException(
                500, f"{self.label}: its WADL says it answers {self._wanted()}, "
                f"but its handler returned {_shown(value)}.",
            )  # fmt: skip
        return value

    def _wanted(self) -> str:
        kind = f"{self.entry_type} " if self.entry_type else ""
        if self.kind is ResultKind.CREATED:
            return "201 and the new entry's URL (it is a factory: return the entry)"
        if self.kind is ResultKind.ENTRY:
            return f"one {kind}entry or None"
        return f"a page of {kind}entries (return a list of them)"

    def _conforms(self, description: Description, value: Any) -> bool:
        if not isinstance(value, FakeEntry):
            return False
        return self.entry_type is None or description.conforms(value.type_id, self.entry_type)


def _shown(value: Any) -> str:
    """A short account of a value for an error message."""
    if isinstance(value, (list, tuple)):
        strays = [item for item in value if not isinstance(item, FakeEntry)]
        if strays:
            return f"a list holding {_shown(strays[0])}"
        kinds = sorted({item.type_id for item in value})
        return f"a list of {', '.join(kinds)} entries"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."

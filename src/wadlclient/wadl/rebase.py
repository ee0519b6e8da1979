"""One parsed model for the same WADL served from another address.

A lazr.restful service writes its own address into its WADL: the
``<resources base=...>`` and every ``resource_type=``/``href=`` reference
(Launchpad's devel WADL names it 2,235 times). The same document served
from another address (a test's fake on a fresh port, a staging copy) is
other bytes, so another digest, and would be parsed again, though the model
keeps only the references' fragments (``#person``) and would come out the
same but for its ``url`` and ``base``. `shape_of` gives a digest that leaves
the address out, and only when every occurrence of it is in such a place,
so that a model of the same shape, rebased (`Twins`), is exactly what parsing
would have built.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from typing import NamedTuple

from wadlclient.wadl.model import Application

__all__ = ["Shape", "Twins", "shape_of"]

_BASE = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?resources\b[^>]*?\bbase=\"([^\"<>]+)\"")
#: The attributes whose values the model keeps as fragments only (and ``base`` itself).
_REFERENCES = (b'resource_type="', b'href="', b'base="')


class Shape(NamedTuple):
    """A WADL document's digest with its base left out, and the base it had."""

    digest: str
    base: str


def shape_of(content: bytes) -> Shape | None:
    """The document's `Shape`, or None when its base occurs anywhere the model keeps whole."""
    match = _BASE.search(content)
    if match is None:
        return None
    base = match.group(1)
    if b"&" in base:  # an entity: the model's base is not these bytes
        return None
    everywhere = content.count(base)
    in_references = sum(content.count(attribute + base) for attribute in _REFERENCES)
    if everywhere != in_references:
        return None
    digest = hashlib.sha256(content.replace(base, b"\x00")).hexdigest()
    return Shape(digest, base.decode("utf-8", "surrogateescape"))


class Twins:
    """The last few models parsed, by shape: a document of a known shape is rebased.

    A process's first model is kept with its document, unshaped (`schema_for`
    works a shape out only once a second WADL comes): its shape is worked
    out when a shaped document is asked for, so a process whose first WADL
    is a fake's (as published) and its second the same served from the
    fake's port rebases the first rather than parse the XML again.
    """

    KEPT = 8

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._models: OrderedDict[str, Application] = OrderedDict()
        self._unshaped: tuple[bytes, Application] | None = None

    def rebased(self, shape: Shape | None, url: str) -> Application | None:
        """The model of a document of ``shape`` read from ``url``, if one of its shape is kept."""
        if shape is None:
            return None
        with self._lock:
            unshaped, self._unshaped = self._unshaped, None
        if unshaped is not None:
            self.remember(shape_of(unshaped[0]), unshaped[1])
        with self._lock:
            twin = self._models.get(shape.digest)
        return None if twin is None else twin._replace(url=url, base=shape.base)

    def remember(self, shape: Shape | None, app: Application, content: bytes = b"") -> None:
        """Keep ``app`` as the model of documents of ``shape``; with no shape, the model
        of ``content`` until a shape is asked for (None and no content: nothing to keep)."""
        if shape is None:
            if content:
                with self._lock:
                    self._unshaped = (content, app)
            return
        with self._lock:
            self._models[shape.digest] = app
            self._models.move_to_end(shape.digest)
            while len(self._models) > self.KEPT:
                self._models.popitem(last=False)

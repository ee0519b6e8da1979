"""WADL document -> `Application`, in one pass of expat.

No element tree is built, and the XHTML inside ``<doc>`` never reaches
Python except as text: expat's handlers push open elements on a stack and,
on each end tag, hand the element to its builder (`wadl.builder`).

Parsing is safe on untrusted input: the DOCTYPE goes through the entity
guard (`wadl.guard`) before anything is expanded.
"""

from __future__ import annotations

from collections.abc import Callable
from xml.parsers import expat

from wadlclient.errors import WADLError
from wadlclient.wadl.builder import APPLICATION, DOC, Attrs, Frame, ModelBuilder
from wadlclient.wadl.guard import EntityGuard, decode_wide
from wadlclient.wadl.model import WADL_NS, Application

__all__ = ["parse_wadl"]


class _Parser:
    """The expat side of one parse: the element stack and ``<doc>`` text."""

    def __init__(self, url: str | None, on_root: Callable[[], None] | None = None) -> None:
        self.where = url or "WADL document"
        self.on_root = on_root
        self.expat = expat.ParserCreate(namespace_separator="}")
        self.stack: list[Frame] = []
        self.doc_chunks: list[str] = []
        self.builder = ModelBuilder(url, self.stack, self._error)
        self.builders = self.builder.builders

    def parse(self, data: bytes | str) -> Application:
        if isinstance(data, (bytearray, memoryview)):
            data = bytes(data)
        if not isinstance(data, (bytes, str)):
            raise TypeError(f"WADL must be bytes or str, not {type(data).__name__}")
        if not data.strip():
            raise WADLError(f"{self.where}: empty document")
        if isinstance(data, bytes):
            try:
                data = decode_wide(data)
            except UnicodeDecodeError as exc:
                raise WADLError(f"{self.where}: undecodable document: {exc.reason}") from None
        parser = self.expat
        parser.buffer_text = True
        EntityGuard(data, self._error).install(parser)
        parser.StartElementHandler = self._start_root
        parser.EndElementHandler = self._end
        try:
            parser.Parse(data, True)
        except expat.ExpatError as exc:
            message = expat.ErrorString(exc.code)
            raise WADLError(
                f"{self.where}: malformed XML at line {exc.lineno}, column {exc.offset}: {message}"
            ) from None
        except UnicodeError as exc:
            raise WADLError(f"{self.where}: undecodable document: {exc}") from None
        return self.builder.finish()

    def _error(self, message: str) -> WADLError:
        line = self.expat.CurrentLineNumber
        column = self.expat.CurrentColumnNumber
        return WADLError(f"{self.where}: {message} (line {line}, column {column})")

    def _start_root(self, name: str, attrs: Attrs) -> None:
        if name != APPLICATION:
            namespace, _, local = name.rpartition("}")
            where = f"namespace {namespace}" if namespace else "no namespace"
            raise self._error(
                f"not a WADL document: the root element is <{local}> in {where}, "
                f"not <application> in namespace {WADL_NS}"
            )
        self.expat.StartElementHandler = self._start
        self.stack.append((name, attrs, [], []))
        if self.on_root is not None:
            self.on_root()

    def _start(self, name: str, attrs: Attrs) -> None:
        if name == DOC:
            parser = self.expat
            self.doc_chunks = []
            parser.CharacterDataHandler = self.doc_chunks.append
            parser.StartElementHandler = None
            parser.EndElementHandler = self._end_doc
            return
        self.stack.append((name, attrs, [], []))

    def _end_doc(self, name: str) -> None:
        """Close a ``<doc>``: its text, whitespace normalised, goes to its parent."""
        if name != DOC:
            return
        parser = self.expat
        parser.CharacterDataHandler = None
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        text = " ".join("".join(self.doc_chunks).split())
        self.doc_chunks = []
        self.stack[-1][3].append(self.builder.intern(text))

    def _end(self, name: str) -> None:
        stack = self.stack
        frame = stack.pop()
        build = self.builders.get(name)
        if build is None:
            return
        built = build(frame[1], frame[2], frame[3])
        if built is not None and stack:
            stack[-1][2].append(built)


def parse_wadl(
    data: bytes | str, url: str | None = None, *, on_root: Callable[[], None] | None = None
) -> Application:
    """Parse a WADL document into an ``Application``.

    Raises ``wadlclient.errors.WADLError`` for malformed XML, a document that
    is not WADL, external entities, or entity-expansion bombs; the message
    names ``url`` and, where expat knows it, the line and column.
    ``on_root`` is called once the root element shows the document is WADL,
    before the rest is read: work that needs the model only at the end can
    start then (the service root asks for its JSON).
    """
    return _Parser(url, on_root).parse(data)

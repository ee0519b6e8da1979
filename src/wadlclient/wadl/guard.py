"""The entity guard: what a WADL document's DOCTYPE may declare.

A DOCTYPE may declare internal entities (lazr.restful declares ``&nbsp;``),
but external entities, an external DTD, parameter entities, entities that
refer to other entities, and declarations whose references would add more
than ``MAX_EXPANSION`` characters are refused with ``WADLError`` before
expat expands anything.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from xml.parsers import expat

from wadlclient.errors import WADLError

__all__ = ["MAX_ENTITIES", "MAX_ENTITY_LENGTH", "MAX_EXPANSION", "EntityGuard", "decode_wide"]

#: At most this many entities may be declared in a DOCTYPE.
MAX_ENTITIES = 64
#: An entity's replacement text may be at most this many characters long.
MAX_ENTITY_LENGTH = 1024
#: Entity references may add at most this many characters (or as many as
#: the document has, if it is larger) before the document is refused.
MAX_EXPANSION = 1 << 20


def decode_wide(data: bytes) -> str | bytes:
    """Decode UTF-16/UTF-32 input, whose entity references bytes.count cannot see."""
    head = data[:4]
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return data.decode("utf-32")
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16")
    if head in (b"\x00\x00\x00<", b"<\x00\x00\x00"):
        return data.decode("utf-32-be" if head[0] == 0 else "utf-32-le")
    if head in (b"\x00<\x00?", b"<\x00?\x00", b"\x00<\x00w", b"<\x00w\x00"):
        return data.decode("utf-16-be" if head[0] == 0 else "utf-16-le")
    return data


class EntityGuard:
    """The DOCTYPE handlers of one parse: internal entities only, small, not nested.

    ``data`` is the whole document (to count entity references before any
    expansion); ``error`` makes the ``WADLError`` to raise, naming where.
    """

    def __init__(self, data: str | bytes, error: Callable[[str], WADLError]) -> None:
        self.data = data
        self.error = error
        self.entities: dict[str, str] = {}

    def install(self, parser: expat.XMLParserType) -> None:
        """Make ``parser`` call this guard for every declaration of the DOCTYPE."""
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = self._doctype
        parser.EntityDeclHandler = self._entity_decl
        parser.AttlistDeclHandler = self._attlist_decl
        parser.EndDoctypeDeclHandler = self._end_doctype

    def _doctype(
        self, name: str, system_id: str | None, public_id: str | None, internal: int
    ) -> None:
        if system_id is not None or public_id is not None:
            raise self.error(
                f"the DOCTYPE refers to an external DTD ({system_id or public_id}); "
                "external entities are refused"
            )

    def _entity_decl(
        self,
        name: str,
        is_parameter: int,
        value: str | None,
        base: str | None,
        system_id: str | None,
        public_id: str | None,
        notation: str | None,
    ) -> None:
        if is_parameter:
            raise self.error(f"parameter entity %{name}; is refused")
        if value is None:
            raise self.error(f"external entity &{name}; ({system_id or public_id}) is refused")
        if "&" in value:
            raise self.error(
                f"entity &{name}; refers to other entities; nested entities are refused "
                "(entity-expansion bomb)"
            )
        if len(value) > MAX_ENTITY_LENGTH:
            raise self.error(
                f"entity &{name}; is {len(value)} characters long; "
                f"more than {MAX_ENTITY_LENGTH} is refused (entity-expansion bomb)"
            )
        if len(self.entities) >= MAX_ENTITIES:
            raise self.error(f"more than {MAX_ENTITIES} entities declared; refused")
        if isinstance(self.data, bytes) and not name.isascii():
            raise self.error(f"non-ASCII entity name &{name}; is refused")
        self.entities[name] = value

    def _attlist_decl(
        self, element: str, attribute: str, kind: str, default: str | None, required: int
    ) -> None:
        if default is not None and len(default) > MAX_ENTITY_LENGTH:
            raise self.error(
                f"default of attribute {attribute!r} is {len(default)} characters long; refused"
            )

    def _end_doctype(self) -> None:
        """Refuse, before any expansion, entities whose references would add too much."""
        data = self.data
        added = 0
        for name, value in self.entities.items():
            if not value:
                continue
            if isinstance(data, bytes):
                count = data.count(b"&" + name.encode("ascii") + b";")
            else:
                count = data.count("&" + name + ";")
            added += count * len(value)
        limit = max(MAX_EXPANSION, len(data))
        if added > limit:
            raise self.error(
                f"entity references would add {added} characters (limit {limit}); "
                "refused as an entity-expansion bomb"
            )

"""The persisted WADL model: `dump_model` and `load_model`.

A warm start on a big WADL (Launchpad's: ~100-200 ms to parse) loads this
instead of parsing the XML. Not imported by `wadlclient.wadl` itself, so that
only a process that persists or loads a model imports pickle and friends;
it builds on the model alone, never on the parser.
"""

from __future__ import annotations

import array
import hashlib
import io
import pickle
import struct
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from typing import Any

from wadlclient.errors import WADLError
from wadlclient.wadl.model import (
    Application,
    Link,
    Method,
    Param,
    Representation,
    Request,
    ResourceType,
    Response,
)

__all__ = ["MODEL_FORMAT_VERSION", "dump_model", "load_model"]


# --------------------------------------------------------------------------
# The persisted model (a warm start skips parsing)
#
# Layout: magic, format version, schema fingerprint, sha256 of the payload,
# payload.  The payload is a pickle of the document's scalars and, for each
# of the three indexes (resource types, representations, methods), a dict
# from id to that one object's own pickle.  A loaded model unpickles an
# object only when it is first looked up: a warm start on Launchpad's WADL
# needs the service root's type and a handful of representations, not the
# ~12,000 objects of the whole document (building them all costs ~10 ms).
# Inside an object's pickle, an indexed method or representation that
# another object refers to is written as a reference to its id, so shared
# objects stay shared.  Every model object is written as ``(class, field
# values)`` with the class as a reference too: the unpickler resolves no
# global at all, so even a forged blob can build nothing but model objects.

_MODEL_CLASSES = (
    Link,
    Param,
    Representation,
    Request,
    Response,
    Method,
    ResourceType,
    Application,
)
_MODEL_FIELDS: dict[type, tuple[str, ...]] = {cls: cls._fields for cls in _MODEL_CLASSES}

_MAGIC = b"WADLCLIENT-MODEL"
#: Bump when the meaning of the payload changes; a field change is caught
#: by the fingerprint below on its own.
MODEL_FORMAT_VERSION = 2
_FINGERPRINT = hashlib.sha256(
    repr(sorted((cls.__name__, names) for cls, names in _MODEL_FIELDS.items())).encode()
).digest()[:16]
_HEADER = _MAGIC + struct.pack(">H", MODEL_FORMAT_VERSION) + _FINGERPRINT
_DIGEST_SIZE = hashlib.sha256().digest_size
# Index tags used in references between objects' pickles.
_TYPES, _REPRESENTATIONS, _METHODS = "t", "r", "m"
# References to strings are their (non-negative) positions in the table;
# to model classes, negative numbers.
_SHARED_STRING_LENGTH = 6
_CLASS_REFERENCES = {cls: -1 - n for n, cls in enumerate(_MODEL_CLASSES)}
#: Plain values met inside model objects, never written as references. A model
#: is dumped at every cold start: these are about half of what the pickler meets.
_NEVER_REFERENCED = frozenset({tuple, type(None), bool, int, float})


def _model_class(reference: int) -> type:
    if not -len(_MODEL_CLASSES) <= reference < 0:
        raise pickle.UnpicklingError("unknown class in a WADL model")
    return _MODEL_CLASSES[-1 - reference]


class _ModelPickler(pickle.Pickler):
    """Writes model objects as ``(class, fields)``; shared parts as references.

    An indexed method or representation met inside another object is written
    as its id; a longer string already written for another object as its
    position in the shared string table (docs and JSONPaths repeat a lot).
    """

    def __init__(self, file: io.BytesIO, shared: Mapping[int, tuple[str, str]],
                 strings: _StringTable) -> None:
        super().__init__(file, protocol=5)
        self._shared = shared
        self._strings = strings
        self._top: object = None

    def dump_one(self, obj: object) -> None:
        self._top = obj
        self.dump(obj)

    def persistent_id(self, obj: Any) -> Any:
        kind = type(obj)
        if kind is str:
            return self._strings.reference(obj) if len(obj) >= _SHARED_STRING_LENGTH else None
        if kind in _NEVER_REFERENCED or obj is self._top:
            return None
        if kind is type:
            return _CLASS_REFERENCES.get(obj)
        return self._shared.get(id(obj))

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) not in _MODEL_FIELDS:
            return NotImplemented
        # A model class is a NamedTuple: its items are its field values, in field order.
        return type(obj), tuple(obj)


class _StringTable:
    """Strings written by more than one object's pickle, stored once."""

    def __init__(self) -> None:
        self._seen: dict[str, int | None] = {}
        self.strings: list[str] = []

    def reference(self, text: str) -> int | None:
        if text not in self._seen:
            self._seen[text] = None
            return None
        index = self._seen[text]
        if index is None:
            index = self._seen[text] = len(self.strings)
            self.strings.append(text)
        return index


class _ModelUnpickler(pickle.Unpickler):
    def __init__(self, data: bytes, model: _LazyModel | None = None) -> None:
        super().__init__(io.BytesIO(data))
        self._model = model

    def find_class(self, module: str, name: str) -> Any:
        # Model classes travel as references (see _ModelPickler): no global at all.
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a WADL model")

    def persistent_load(self, pid: Any) -> Any:
        if self._model is None:
            raise pickle.UnpicklingError("unexpected reference in a WADL model")
        if type(pid) is int:
            return self._model.string(pid) if pid >= 0 else _model_class(pid)
        if type(pid) is not tuple or len(pid) != 2:
            raise pickle.UnpicklingError("unexpected reference in a WADL model")
        return self._model.index(pid[0])[pid[1]]


class _Packed:
    """Byte strings stored end to end: ``item(i)`` is ``data[bounds[i]:bounds[i + 1]]``."""

    __slots__ = ("_bounds", "_data")

    def __init__(self, data: bytes, bounds: array.array[int]) -> None:
        self._data = data
        self._bounds = bounds

    @classmethod
    def pack(cls, items: list[bytes]) -> tuple[bytes, bytes]:
        bounds = array.array("I", [0])
        for item in items:
            bounds.append(bounds[-1] + len(item))
        if sys.byteorder != "little":
            bounds.byteswap()
        return b"".join(items), bounds.tobytes()

    @classmethod
    def unpack(cls, data: object, bounds: object, count: int) -> _Packed | None:
        if type(data) is not bytes or type(bounds) is not bytes:
            return None
        table = array.array("I")
        if table.itemsize != 4 or len(bounds) != 4 * (count + 1):
            return None
        table.frombytes(bounds)
        if sys.byteorder != "little":
            table.byteswap()
        if table[-1] != len(data):
            return None
        return cls(data, table)

    def item(self, position: int) -> bytes:
        return self._data[self._bounds[position] : self._bounds[position + 1]]


class _LazyIndex(Mapping[str, Any]):
    """An index of a loaded model: each object is unpickled on first look-up.

    Two threads looking up the same id at once may both unpickle it; the
    first stored wins, so every caller gets the same object.
    """

    __slots__ = ("_cls", "_loaded", "_model", "_pickles", "_positions")

    def __init__(self, model: _LazyModel, cls: type, keys: tuple[str, ...], pickles: _Packed):
        self._model = model
        self._cls = cls
        self._positions = {key: position for position, key in enumerate(keys)}
        self._pickles = pickles
        self._loaded: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        value = self._loaded.get(key)
        if value is None:
            position = self._positions[key]
            try:
                value = _ModelUnpickler(self._pickles.item(position), self._model).load()
            except Exception as error:
                raise WADLError(f"the persisted WADL model is damaged at {key!r}") from error
            if type(value) is not self._cls:
                raise WADLError(f"the persisted WADL model is damaged at {key!r}")
            value = self._loaded.setdefault(key, value)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._positions)

    def __len__(self) -> int:
        return len(self._positions)

    def __contains__(self, key: object) -> bool:
        return key in self._positions

    def __repr__(self) -> str:
        return f"<lazily loaded {self._cls.__name__} index of {len(self._positions)}>"


class _LazyModel:
    """The indexes and shared strings of one loaded model, which refer to one another."""

    def __init__(self, strings: _Packed, string_count: int) -> None:
        self._indexes: dict[str, _LazyIndex] = {}
        self._strings = strings
        self._string_count = string_count
        self._decoded: dict[int, str] = {}

    def add(self, tag: str, cls: type, keys: tuple[str, ...], pickles: _Packed) -> _LazyIndex:
        index = self._indexes[tag] = _LazyIndex(self, cls, keys, pickles)
        return index

    def string(self, position: int) -> str:
        text = self._decoded.get(position)
        if text is None:
            if position >= self._string_count:
                raise pickle.UnpicklingError("unknown string in a WADL model")
            text = self._strings.item(position).decode("utf-8")
            text = self._decoded.setdefault(position, text)
        return text

    def index(self, tag: str) -> _LazyIndex:
        try:
            return self._indexes[tag]
        except KeyError:
            raise pickle.UnpicklingError(f"unknown index {tag!r} in a WADL model") from None


#: The object pickles of the last models dumped, by the identity of their indexes.
_DUMPED_PARTS: OrderedDict[tuple[int, int, int], tuple[tuple[object, ...], tuple[Any, ...]]] = (
    OrderedDict()
)
_DUMPED_PARTS_KEPT = 4
_DUMPED_PARTS_LOCK = threading.Lock()


def dump_model(app: Application) -> bytes:
    """Serialise a model for ``load_model``: versioned, digest-checked, compact.

    Models rebased from one another (`wadlclient.wadl.rebase`: the same WADL
    at another address) share their indexes, and only their address differs
    in the dump: the object pickles are made once for all of them, so a
    process storing the model in many caches (a test suite's fresh homes, a
    fake on a new port each time) pickles the objects once.
    """
    indexes = (app.resource_types, app.representations, app.methods)
    key = (id(indexes[0]), id(indexes[1]), id(indexes[2]))
    with _DUMPED_PARTS_LOCK:
        kept = _DUMPED_PARTS.get(key)
        if kept is not None and all(a is b for a, b in zip(kept[0], indexes, strict=True)):
            _DUMPED_PARTS.move_to_end(key)
            parts = kept[1]
        else:
            parts = None
    if parts is None:
        parts = _dump_parts(app)
        _keep_parts(indexes, parts)
    document = (app.url, app.base, app.root_resource_type, tuple(app.docs), *parts)
    payload = pickle.dumps(document, protocol=5)
    return _HEADER + hashlib.sha256(payload).digest() + payload


def _keep_parts(indexes: tuple[object, ...], parts: tuple[Any, ...]) -> None:
    """Remember the dumped ``parts`` of the model with these three indexes."""
    with _DUMPED_PARTS_LOCK:
        _DUMPED_PARTS[(id(indexes[0]), id(indexes[1]), id(indexes[2]))] = (indexes, parts)
        while len(_DUMPED_PARTS) > _DUMPED_PARTS_KEPT:
            _DUMPED_PARTS.popitem(last=False)


def _dump_parts(app: Application) -> tuple[Any, ...]:
    """The three indexes' object pickles and the shared string table: no address in them."""
    shared: dict[int, tuple[str, str]] = {}
    for key, rep in app.representations.items():
        shared[id(rep)] = (_REPRESENTATIONS, key)
    for key, method in app.methods.items():
        shared[id(method)] = (_METHODS, key)

    strings = _StringTable()
    buffer = io.BytesIO()
    pickler = _ModelPickler(buffer, shared, strings)

    def each(index: Mapping[str, Any]) -> tuple[tuple[str, ...], bytes, bytes]:
        pickles = []
        for value in index.values():
            buffer.seek(0)
            buffer.truncate()
            pickler.clear_memo()
            pickler.dump_one(value)
            pickles.append(buffer.getvalue())
        return (tuple(index), *_Packed.pack(pickles))

    types = each(app.resource_types)
    representations = each(app.representations)
    methods = each(app.methods)
    text = [string.encode("utf-8", "surrogatepass") for string in strings.strings]
    return (types, representations, methods, (len(text), *_Packed.pack(text)))


def _is_text(value: object) -> bool:
    return type(value) is tuple and all(type(item) is str for item in value)


def load_model(data: bytes) -> Application | None:
    """The model ``dump_model`` wrote, or None for anything else.

    A truncated, corrupt, foreign or older-format blob gives None, never an
    exception: the caller then parses the WADL again. Objects are unpickled
    when first looked up; the digest checked here covers them too.
    """
    try:
        view = memoryview(data)
        start = len(_HEADER) + _DIGEST_SIZE
        if len(view) <= start or view[: len(_HEADER)] != _HEADER:
            return None
        payload = view[start:]
        if hashlib.sha256(payload).digest() != view[len(_HEADER) : start]:
            return None
        document = _ModelUnpickler(bytes(payload)).load()
    except Exception:
        return None
    if type(document) is not tuple or len(document) != 8:
        return None
    url, base, root_type, docs, *indexes, strings = document
    if not all(v is None or type(v) is str for v in (url, base, root_type)) or not _is_text(docs):
        return None
    if not all(type(part) is tuple and len(part) == 3 for part in (*indexes, strings)):
        return None
    string_count = strings[0]
    if type(string_count) is not int:
        return None
    packed_strings = _Packed.unpack(strings[1], strings[2], string_count)
    if packed_strings is None:
        return None
    model = _LazyModel(packed_strings, string_count)
    built = []
    kinds = ((_TYPES, ResourceType), (_REPRESENTATIONS, Representation), (_METHODS, Method))
    for (tag, cls), (keys, pickles, bounds) in zip(kinds, indexes, strict=True):
        packed = _Packed.unpack(pickles, bounds, len(keys)) if _is_text(keys) else None
        if packed is None:
            return None
        built.append(model.add(tag, cls, keys, packed))
    # Dumped again (into another cache, or rebased to another address), the model is
    # written from these very bytes, checked above: never unpickled whole to be pickled.
    _keep_parts((built[0], built[1], built[2]), (*indexes, strings))
    return Application(
        url=url,
        base=base,
        root_resource_type=root_type,
        resource_types=built[0],
        representations=built[1],
        methods=built[2],
        docs=docs,
    )

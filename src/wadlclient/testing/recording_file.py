"""A recording's file: written scrubbed and atomically, read back checked, the WADL kept once.

The file is indented JSON::

    {"format": "wadlclient-recording/2",
     "exchanges": [{"method": "GET", "url": "...", "request_headers": {...},
                    "request_body": null, "status": 200, "reason": "OK",
                    "headers": {...}, "body": {"text": "..."}}, ...]}

A body is null, ``{"text": ...}`` (UTF-8, scrubbed), ``{"base64": ...}``
(binary, kept as it is) or ``{"file": ..., "sha256": ...}``: a WADL
description, stored beside the recording in a file named by its digest
(``wadl-<digest>.xml``), so that every recording of one service in a
directory shares one copy (Launchpad's is 2 MB). Reading checks the
digest. Format 1 (every body inline) is still read.

Whatever is wrong with a file (not JSON, cut short, a key missing, a value
of the wrong type, bad base64, a WADL file missing or changed) is one
`RecordingError` naming the file and what is wrong. So is a path that is
not a regular file (a FIFO, ``/dev/zero``) or a file bigger than any
recording (`MAX_RECORDING_BYTES`) or WADL (`MAX_WADL_BYTES`): each is
refused before a byte of it is read (`wadlclient.bounded_read`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

from wadlclient.bounded_read import FileRefused, read_regular
from wadlclient.errors import RestfulError

__all__ = [
    "FORMAT",
    "FORMATS",
    "MAX_RECORDING_BYTES",
    "MAX_WADL_BYTES",
    "RecordedExchange",
    "RecordingError",
    "is_wadl",
    "read_recording",
    "sidecar_body",
    "write_recording",
]

FORMAT = "wadlclient-recording/2"
#: Every format this version reads.
FORMATS = ("wadlclient-recording/1", FORMAT)
_SIDECAR = re.compile(r"wadl-[0-9a-f]{16}\.xml")
#: The most a recording may hold (its WADL files aside): thousands of exchanges.
MAX_RECORDING_BYTES = 64 * 1024 * 1024
#: The most a WADL file beside a recording may hold (Launchpad's is 2 MB).
MAX_WADL_BYTES = 32 * 1024 * 1024


class RecordingError(RestfulError, ValueError):
    """A recording that cannot be read or replayed: the message names the file and the fault."""


class RecordedExchange(NamedTuple):
    """One exchange read from a recording, checked; ``content`` is the answer's body."""

    method: str
    url: str
    request_headers: dict[str, str]
    request_body: dict[str, str] | None
    status: int
    reason: str
    headers: dict[str, str]
    content: bytes


def is_wadl(media_type: str) -> bool:
    """Whether an answer of this media type is a WADL description (stored beside the file)."""
    return "wadl" in media_type.lower()


def sidecar_body(content: bytes) -> tuple[dict[str, str], str]:
    """The body that names a WADL stored beside the recording, and the file's name."""
    digest = hashlib.sha256(content).hexdigest()
    name = f"wadl-{digest[:16]}.xml"
    return {"file": name, "sha256": digest}, name


def write_recording(path: Path, exchanges: list[dict[str, Any]], files: dict[str, bytes]) -> None:
    """Write the WADL files not already there, then the recording, each whole and atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        beside = path.parent / name
        if not _holds(beside, content):
            _write_atomically(beside, content)
    document = {"format": FORMAT, "exchanges": exchanges}
    _write_atomically(path, json.dumps(document, indent=1).encode("utf-8"))


def read_recording(path: Path) -> list[RecordedExchange]:
    """The exchanges of the recording at ``path``; `RecordingError` for anything wrong with it."""
    try:
        text = read_regular(path, MAX_RECORDING_BYTES, "recording").data.decode("utf-8")
    except FileRefused as error:
        raise RecordingError(f"{path}: cannot be read ({error.reason})") from None
    except OSError as error:
        raise RecordingError(f"{path}: cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise RecordingError(f"{path}: not a recording (not UTF-8 text)") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordingError(f"{path}: not a recording (not JSON: {error})") from None
    except RecursionError:
        raise RecordingError(f"{path}: not a recording (JSON nested too deeply)") from None
    reader = _Reader(path)
    return reader.document(document)


class _Reader:
    """Checks a recording's document piece by piece; each fault names the file and where."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._files: dict[str, bytes] = {}

    def fail(self, where: str, reason: str) -> RecordingError:
        return RecordingError(f"{self.path}: {where}{reason}")

    def document(self, document: Any) -> list[RecordedExchange]:
        if not isinstance(document, dict) or document.get("format") not in FORMATS:
            raise self.fail("", f"not a recording of format {FORMAT!r} (nor {FORMATS[0]!r})")
        exchanges = document.get("exchanges")
        if not isinstance(exchanges, list):
            raise self.fail("", "'exchanges' is missing or not a list")
        return [self.exchange(number, item) for number, item in enumerate(exchanges, 1)]

    def exchange(self, number: int, item: Any) -> RecordedExchange:
        where = f"exchange {number}: "
        if not isinstance(item, dict):
            raise self.fail(where, "not an object")
        method, url, reason = (self.string(where, item, key) for key in ("method", "url", "reason"))
        status = item.get("status")
        if type(status) is not int or not 100 <= status <= 599:
            raise self.fail(where, "'status' is missing or not a status code (100 to 599)")
        return RecordedExchange(
            method,
            url,
            self.headers(where, item, "request_headers", required=False),
            self.body_of(where, item, "request_body", read=False),
            status,
            reason,
            self.headers(where, item, "headers", required=True),
            self.content(where, self.body_of(where, item, "body", read=True)),
        )

    def string(self, where: str, item: dict[str, Any], key: str) -> str:
        value = item.get(key)
        if not isinstance(value, str) or (key != "reason" and not value):
            raise self.fail(where, f"{key!r} is missing or not a string")
        return value

    def headers(
        self, where: str, item: dict[str, Any], key: str, *, required: bool
    ) -> dict[str, str]:
        value = item.get(key, None if required else {})
        if not isinstance(value, dict) or not all(
            isinstance(name, str) and isinstance(text, str) for name, text in value.items()
        ):
            raise self.fail(where, f"{key!r} is missing or not an object of strings")
        return value

    def body_of(
        self, where: str, item: dict[str, Any], key: str, *, read: bool
    ) -> dict[str, str] | None:
        if key not in item:
            raise self.fail(where, f"{key!r} is missing")
        body = item[key]
        if body is None:
            return None
        kinds = ({"text"}, {"base64"}, {"file", "sha256"} if read else {"text"})
        if (
            not isinstance(body, dict)
            or set(body) not in kinds
            or not all(isinstance(value, str) for value in body.values())
        ):
            raise self.fail(
                where, f"{key!r} is not null or an object with 'text', 'base64' or 'file'"
            )
        if "base64" in body:
            try:
                base64.b64decode(body["base64"], validate=True)
            except (binascii.Error, ValueError):
                raise self.fail(where, f"{key!r} holds bad base64") from None
        return body

    def content(self, where: str, body: dict[str, str] | None) -> bytes:
        if body is None:
            return b""
        if "text" in body:
            return body["text"].encode("utf-8")
        if "base64" in body:
            return base64.b64decode(body["base64"])
        return self.beside(where, body["file"], body["sha256"])

    def beside(self, where: str, name: str, digest: str) -> bytes:
        """A WADL stored beside the recording, checked against the digest recorded."""
        if not _SIDECAR.fullmatch(name):
            raise self.fail(where, f"'body' names {name!r}, not a WADL file of a recording")
        if name not in self._files:
            try:
                content = read_regular(self.path.parent / name, MAX_WADL_BYTES, "WADL").data
            except OSError as error:
                reason = error.reason if isinstance(error, FileRefused) else error.strerror
                raise self.fail(
                    where, f"the WADL file {name} beside it cannot be read ({reason or error})"
                ) from None
            if hashlib.sha256(content).hexdigest() != digest:
                raise self.fail(where, f"the WADL file {name} beside it was changed since")
            self._files[name] = content
        return self._files[name]


def _holds(path: Path, content: bytes) -> bool:
    """Whether ``path`` is a regular file holding ``content`` (not read past its length)."""
    try:
        return read_regular(path, len(content), "copy of it").data == content
    except OSError:
        return False


def _write_atomically(path: Path, content: bytes) -> None:
    """A reader sees the old file or the new one, never half of either."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".recording-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise

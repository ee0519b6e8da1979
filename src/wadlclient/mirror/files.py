"""Files a mirror writes: each one whole or not at all, and the two output formats.

Every file goes to a temporary name beside its place, is flushed and
fsynced, then `os.replace`\\ d over the old one, and the directory is fsynced:
a reader (or a crash) sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

__all__ = [
    "TEMP_SUFFIX",
    "Row",
    "csv_columns",
    "read_jsonl",
    "write_atomic",
    "write_csv",
    "write_jsonl",
]

#: A row: an entry's JSON representation (links are URLs, dates ISO 8601 text).
Row = dict[str, Any]

#: The suffix of a file being written; one left by a crash is removed by the next run.
TEMP_SUFFIX = ".partial"

#: The columns a CSV starts with, before the entry type's fields.
_LEADING = ("self_link", "web_link", "resource_type_link", "http_etag")


def _fsync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError):  # a platform without directory fsync (Windows)
        descriptor = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def write_atomic(path: Path, chunks: Iterable[str]) -> None:
    """Write ``chunks`` to ``path`` whole: temp file, fsync, replace, fsync of the directory."""
    temp = path.with_name(path.name + TEMP_SUFFIX)
    try:
        with open(temp, "w", encoding="utf-8", newline="") as out:
            for chunk in chunks:
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    _fsync_directory(path.parent)


def jsonl_lines(rows: Iterable[Row]) -> Iterator[str]:
    """One JSON object a line, keys as the service sent them."""
    for row in rows:
        yield json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"


def write_jsonl(path: Path, rows: Iterable[Row]) -> None:
    write_atomic(path, jsonl_lines(rows))


def read_jsonl(path: Path) -> Iterator[Row]:
    """The rows of a JSON Lines file this package wrote (none if it does not exist)."""
    try:
        handle: IO[str] = open(path, encoding="utf-8")  # noqa: SIM115 (closed below)
    except FileNotFoundError:
        return
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as error:
                raise ValueError(f"{path}, line {number}: not JSON ({error})") from None
            if not isinstance(row, dict):
                raise ValueError(f"{path}, line {number}: not a JSON object")
            yield row


def csv_columns(fields: Sequence[str], rows: Iterable[Row]) -> list[str]:
    """The links and etag (those there are), ``fields`` (the WADL's order), other keys sorted."""
    keys: set[str] = set()
    for row in rows:
        keys.update(row)
    columns = [name for name in _LEADING if name in keys or name in fields]
    columns += [name for name in fields if name not in columns]
    return columns + sorted(keys.difference(columns))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def _csv_lines(columns: Sequence[str], rows: Iterable[Row]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(column)) for column in columns])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue()


def write_csv(path: Path, fields: Sequence[str], rows: Sequence[Row]) -> None:
    """A column per field (`csv_columns`), a row per entry; nested values as JSON text."""
    write_atomic(path, _csv_lines(csv_columns(fields, rows), rows))

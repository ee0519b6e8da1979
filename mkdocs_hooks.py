"""Build-time hooks of the docs site (mkdocs.yml ``hooks:``): the README becomes the tour page,
and the search index is written as a script too, for the site read from disk.

The README is the guided tour, tested as written; the site shows it as
``tour.md`` rather than keeping a second copy. Its links to ``docs/...``
pages become links between site pages; links to other files of the
repository (which the site does not publish) become their plain text.
A docs page links to the README as ``../README.md``, which works in the
repository too, and the site makes it ``tour.md``.

A browser refuses mkdocs's search on a ``file://`` page (a web worker, an
XHR); ``search/search_index.js`` holds the same index as a script, which
``docs/js/search-from-disk.js`` loads there instead.

Two economies of the build (the site is the same): the cyclic garbage
collector is off while a build runs (the API reference makes hundreds of
thousands of objects, griffe's model of every module and the templates'
output, that live until the build ends; the collector's passes over them
cost half a second of the build's eight, for 10 MB of memory; it is on
again after each build, so that ``mkdocs serve`` collects between
rebuilds). And the API reference's long signatures, which mkdocstrings
formats with one ``ruff format`` process each (some 130 of them, a second
of CPU), go to one ``ruff server`` for the build, which formats them alike
(`RuffFormatter`).
"""

from __future__ import annotations

import gc
import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from mkdocs.structure.files import File, Files

README = Path(__file__).with_name("README.md")
_DOCS_LINK = re.compile(r"\]\(docs/([^)]+)\)")
_README_LINK = re.compile(r"\]\(\.\./README\.md")
_REPOSITORY_LINK = re.compile(r"\[([^\]]+)\]\((?!https?:|#|docs/)([^)]+)\)")


def tour_markdown(readme: str) -> str:
    """The README as a page of the site: retitled, its links made to work there."""
    lines = readme.splitlines()
    if lines and lines[0].startswith("# "):
        lines[0] = "# The tour"
    text = "\n".join(lines) + "\n"
    text = _DOCS_LINK.sub(r"](\1)", text)
    return _REPOSITORY_LINK.sub(r"\1 (`\2` in the repository)", text)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """A docs page's links to the README (``../README.md``, which works in the repository)
    go to the tour page, the README's place on the site."""
    return _README_LINK.sub(r"](tour.md", markdown)


def on_pre_build(config: Any) -> None:
    """The collector off for the build, signatures formatted by one ruff server (see the
    module's docstring)."""
    gc.disable()
    _FORMATTER.install()


def on_build_error(error: Exception) -> None:
    _FORMATTER.close()
    gc.enable()


def on_post_build(config: Any) -> None:
    """``search/search_index.js``: the search index, as a script a ``file://`` page loads;
    the ruff server stopped, the collector on again."""
    _FORMATTER.close()
    gc.enable()
    site = Path(config["site_dir"])
    index = site / "search" / "search_index.json"
    if index.is_file():
        script = "var wadlclientSearchIndex = " + index.read_text(encoding="utf-8") + ";\n"
        (site / "search" / "search_index.js").write_text(script, encoding="utf-8")


def on_files(files: Files, config: Any) -> Files:
    """Add ``tour.md``, made from the README."""
    content = tour_markdown(README.read_text(encoding="utf-8"))
    files.append(File.generated(config, "tour.md", content=content))
    return files


class RuffFormatter:
    """mkdocstrings-python's signature formatter, ``(code, line_length) -> code``, on one
    ``ruff server`` per build instead of one ``ruff format`` process per signature.

    It speaks the language server protocol to ruff over stdio: each signature is opened
    as ``file.py`` of the current directory (the file ``ruff format --stdin-filename``
    names, so the same configuration applies) with the line length as the editor's
    setting, and formatted. Anything the server cannot do (no server, a code it
    refuses, another line length) goes to mkdocstrings' own formatter, which gives the
    same text; so does everything if mkdocstrings-python no longer has the function
    this replaces.
    """

    def __init__(self) -> None:
        self.stock: Callable[[str, int], str] | None = None
        self.server: subprocess.Popen[bytes] | None = None
        self.line_length = 0
        self.last_id = 0
        self.failed = False  # the server stopped or would not start: the stock formatter

    def install(self) -> None:
        try:
            from mkdocstrings_handlers.python._internal import rendering
        except ImportError:
            return
        if self.stock is None and hasattr(rendering, "_get_formatter"):
            self.stock = rendering._get_formatter()
            rendering._get_formatter = lambda: self  # type: ignore[assignment]

    def __call__(self, code: str, line_length: int) -> str:
        assert self.stock is not None
        try:
            if self.server is None and not self.failed:
                self._start(line_length)
            if self.server is not None and line_length == self.line_length:
                return self._format(code)
        except _Refused:
            pass
        except (OSError, ValueError, RuntimeError):
            self.close()
            self.failed = True
        return self.stock(code, line_length)

    def close(self) -> None:
        """Stop the server (the next build starts another)."""
        server, self.server = self.server, None
        if server is not None:
            server.kill()
            server.wait()
            for pipe in (server.stdin, server.stdout):
                if pipe is not None:
                    pipe.close()

    def _start(self, line_length: int) -> None:
        from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]

        self.server = subprocess.Popen(
            [find_ruff_bin(), "server"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.line_length = line_length
        settings = {"settings": {"lineLength": line_length}}
        self._request("initialize", {
            "processId": os.getpid(), "rootUri": Path.cwd().as_uri(), "capabilities": {},
            "initializationOptions": settings,
        })  # fmt: skip
        self._send({"method": "initialized", "params": {}})

    def _format(self, code: str) -> str:
        document = {"uri": (Path.cwd() / "file.py").as_uri()}
        opened = {**document, "languageId": "python", "version": 1, "text": code}
        self._send({"method": "textDocument/didOpen", "params": {"textDocument": opened}})
        try:
            options = {"tabSize": 4, "insertSpaces": True}
            edits = self._request(
                "textDocument/formatting", {"textDocument": document, "options": options}
            )
        finally:
            self._send({"method": "textDocument/didClose", "params": {"textDocument": document}})
        if not isinstance(edits, list) or not edits:
            raise _Refused("ruff server left the code as it was: a code it cannot format")
        return _edited(code, edits)

    def _send(self, message: dict[str, Any]) -> None:
        assert self.server is not None and self.server.stdin is not None
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.server.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.server.stdin.flush()

    def _request(self, method: str, params: dict[str, Any]) -> Any:
        """The result of ``method``; the server's notifications are passed over and its
        own requests answered with nothing."""
        assert self.server is not None and self.server.stdout is not None
        self.last_id += 1
        self._send({"id": self.last_id, "method": method, "params": params})
        while True:
            message = _read_message(self.server.stdout)
            if "method" in message:
                if "id" in message:
                    self._send({"id": message["id"], "result": None})
            elif message.get("id") == self.last_id:
                if "error" in message:
                    raise _Refused(f"ruff server: {message['error']}")
                return message.get("result")


class _Refused(Exception):
    """The server answered, but not with the formatted code (a code it cannot parse)."""


def _read_message(stream: IO[bytes]) -> dict[str, Any]:
    length = None
    while line := stream.readline().strip():
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length is None:
        raise RuntimeError("ruff server: no message (it stopped)")
    message: dict[str, Any] = json.loads(stream.read(length))
    return message


def _edited(text: str, edits: list[dict[str, Any]]) -> str:
    """``text`` with the server's edits made (positions in UTF-16 code units, as LSP counts)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position: dict[str, int]) -> int:
        if position["line"] >= len(lines):
            return len(text)
        units = lines[position["line"]].encode("utf-16-le")[: 2 * position["character"]]
        return starts[position["line"]] + len(units.decode("utf-16-le"))

    def start(edit: dict[str, Any]) -> int:
        return offset(edit["range"]["start"])

    for edit in sorted(edits, key=start, reverse=True):
        text = text[: start(edit)] + edit["newText"] + text[offset(edit["range"]["end"]) :]
    return text


_FORMATTER = RuffFormatter()

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

The cyclic garbage collector is off while a build runs: the API reference
makes hundreds of thousands of objects (griffe's model of every module,
the templates' output) that live until the build ends, and the collector's
passes over them were a fifth of the build's CPU for a few MB of memory.
It is on again after each build, so that ``mkdocs serve`` collects between
rebuilds.
"""

from __future__ import annotations

import gc
import re
from pathlib import Path
from typing import Any

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
    """The collector off for the build (see the module's docstring)."""
    gc.disable()


def on_build_error(error: Exception) -> None:
    gc.enable()


def on_post_build(config: Any) -> None:
    """``search/search_index.js``: the search index, as a script a ``file://`` page loads;
    the collector on again."""
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

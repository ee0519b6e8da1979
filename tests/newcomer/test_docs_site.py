"""The docs site as a reader sees it: built with mkdocs, every page rendered, nothing left raw.

One build (``mkdocs build --strict``, as ``make docs`` runs it) into a
temporary directory; the tests read its HTML.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .docblocks import ROOT

#: The pages in the order of the site's navigation, by their directory in the site.
NAV = ["", "tour", "cli", "typed-access", "lazr-compat", "api", "architecture"]

#: Markup that shows that a page was not rendered as meant.
RAW = {
    "an escaped table pipe": re.compile(r"\\\|"),
    "a Sphinx role": re.compile(r":(meth|class|func|attr):`"),
    "a code fence": re.compile(r"```"),
    "a Markdown link": re.compile(r"\]\([^)\s]+\)"),
    "a definition-list marker": re.compile(r"(^|\n): \S"),
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(where)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return where


def _page(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


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


def test_the_readme_is_the_tour_and_its_links_stay_on_the_site(site: Path) -> None:
    tour = _page(site, "tour")
    assert "The tour" in tour
    assert "Far from the server" in tour
    assert 'href="docs/' not in tour and 'href="../docs/' not in tour
    assert re.search(r'href="\.\./lazr-compat/(#[\w-]+)?"', tour)


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

"""SPEC "Cache file names", rules 1-6, and agreement with lazr.restfulclient's names."""

from __future__ import annotations

import hashlib
import string
import urllib.parse
from pathlib import Path

import httpx
import pytest
from httplib2 import iri2uri, urlnorm
from hypothesis import given, settings
from hypothesis import strategies as st
from lazr.restfulclient._browser import MultipleRepresentationCache

from wadlclient.cache import HTTPCache

JSON = "application/json"
WADL = "application/vnd.sun.wadl+xml"
EXAMPLE_WADL = "application/vnd.example.wadl+xml"
ROOT = "http://127.0.0.1:8080/1.0/"


def long_cookbook_url(name_length: int = 1000, tail: str = "") -> str:
    name = urllib.parse.quote("Mastering the Art of French Cooking " * 40, safe="")
    return f"http://127.0.0.1:8080/1.0/cookbooks/{name[:name_length]}{tail}"


def store(cache: HTTPCache, url: str, media_type: str) -> None:
    response = httpx.Response(200, headers={"Content-Type": media_type}, content=b"{}")
    cache.put(url, media_type, response, b"{}")


def lazr_file_name(directory: Path, url: str, media_type: str) -> str:
    """The name lazr.restfulclient (httplib2 beneath it) gives ``url`` as ``media_type``."""
    uri = iri2uri(url).replace(" ", "%20").replace("\r", "%0D").replace("\n", "%0A")
    key = urlnorm(uri)[3]
    cache = MultipleRepresentationCache(str(directory))
    cache.request_media_type = media_type
    return str(cache.append_media_type(key))


def test_each_cached_response_is_one_file_named_after_its_url(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)

    store(cache, ROOT + "recipes/1", JSON)

    assert [p.name for p in tmp_path.iterdir()] == [cache.filename(ROOT + "recipes/1", JSON)]
    assert cache.filename(ROOT + "recipes/1", JSON).startswith("127.0.0.1,8080,1.0,recipes,1-")


def test_media_type_is_part_of_the_name_with_slash_as_comma(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)

    name = cache.filename(ROOT, EXAMPLE_WADL)

    assert name.startswith("127.0.0.1,8080,1.0,-application,vnd.example.wadl+xml,")


def test_json_and_wadl_of_same_url_are_separate_files(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)

    store(cache, ROOT, JSON)
    store(cache, ROOT, WADL)

    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([cache.filename(ROOT, JSON), cache.filename(ROOT, WADL)])
    assert len(set(names)) == 2


def test_name_starts_with_host_name(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)

    assert cache.filename("https://api.launchpad.net/devel/", JSON).startswith(
        "api.launchpad.net,devel,"
    )


def test_non_ascii_host_name_is_written_in_idna(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)

    assert cache.filename("http://bücher.example/1.0/", JSON).startswith(
        "xn--bcher-kva.example,1.0,"
    )


def test_name_is_at_most_143_characters(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)

    assert len(cache.filename(long_cookbook_url(1000), JSON)) <= 143
    assert len(cache.filename(ROOT, JSON)) < 143


def test_name_truncated_to_exactly_143_characters(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)

    assert len(cache.filename(long_cookbook_url(1000), JSON)) == 143
    assert len(cache.filename(long_cookbook_url(200), WADL)) == 143


def test_truncated_name_keeps_readable_percent_encoded_beginning(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)
    url = long_cookbook_url(1000)

    name = cache.filename(url, JSON)

    readable = url.removeprefix("http://").replace("/", ",").replace(":", ",")
    assert name[:110] == readable[:110]
    assert "Mastering%20the%20Art" in name


def test_name_ends_with_md5_of_untruncated_key(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)
    url = long_cookbook_url(1000)

    name = cache.filename(url, JSON)

    assert name[-33:] == "," + hashlib.md5(f"{url}-{JSON}".encode()).hexdigest()


def test_long_urls_differing_after_cut_differ_only_in_digest(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)

    first = cache.filename(long_cookbook_url(1000, "-first-edition"), JSON)
    second = cache.filename(long_cookbook_url(1000, "-second-edition"), JSON)

    assert first != second
    assert first[:-32] == second[:-32]


def test_name_never_starts_with_the_temporary_file_prefix(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path)

    assert not cache.filename("http://.hidden/", JSON).startswith(".")


# Host names: ASCII ones, and non-ASCII ones that IDNA accepts.
# (the language of r"[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?", drawn without a regex strategy's cost)
ascii_labels = st.text(
    alphabet=string.ascii_lowercase + string.digits + "-", min_size=1, max_size=22
).filter(lambda label: not label.startswith("-") and not label.endswith("-"))
unicode_labels = st.sampled_from(
    ["bücher", "例え", "пример", "ñandú", "Bücher", "ΕΛΛΗΝΙΚΆ", "mañana", "café"]
)
hosts = st.lists(st.one_of(ascii_labels, unicode_labels), min_size=1, max_size=3).map(".".join)
ports = st.one_of(st.just(""), st.integers(1, 65535).map(lambda p: f":{p}"))
# Path segments as a client writes them: percent-encoded, sometimes raw
# non-ASCII (an IRI), sometimes very long like a 1,000-character cookbook name.
segment_text = st.text(
    alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x2FF, exclude_characters="/?#%"),
    max_size=40,
)
segments = st.one_of(
    segment_text.map(lambda s: urllib.parse.quote(s, safe="")),
    segment_text.filter(lambda s: s.isprintable() and not s.isspace()),
    st.integers(0, 1000).map(lambda n: "a" * n),
    st.text(
        alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x17F),
        min_size=300,
        max_size=1000,
    ).map(lambda name: urllib.parse.quote(name, safe="")),
)
paths = st.lists(segments, max_size=5).map(lambda parts: "/" + "/".join(parts))
queries = st.one_of(
    st.just(""),
    st.sampled_from(["?ws.op=find_recipes&search=pie", "?ws.start=5&ws.size=5", "?a=|b:c"]),
)
media_types = st.sampled_from([JSON, WADL, EXAMPLE_WADL, "application/xhtml+xml"])


@pytest.fixture(scope="module")
def names_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("names")


@settings(max_examples=200, deadline=None)
@given(
    scheme=st.sampled_from(["http", "https", "HTTP"]),
    host=hosts,
    port=ports,
    path=paths,
    query=queries,
    media_type=media_types,
)
def test_names_match_lazr_restfulclient(
    names_dir: Path,
    scheme: str,
    host: str,
    port: str,
    path: str,
    query: str,
    media_type: str,
) -> None:
    cache = HTTPCache(names_dir)
    url = f"{scheme}://{host}{port}{path}{query}"

    assert cache.filename(url, media_type) == lazr_file_name(names_dir, url, media_type)

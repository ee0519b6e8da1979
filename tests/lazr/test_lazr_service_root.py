"""The compat ServiceRoot and its resources against the Launchpad-like loopback service."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.lazr.lpservice import LoopbackServer

import wadlclient
from wadlclient.lazr.restfulclient import errors
from wadlclient.lazr.restfulclient._browser import MultipleRepresentationCache, restful_http_class
from wadlclient.lazr.restfulclient.resource import (
    CollectionWithKeyBasedLookup,
    HostedFile,
    ScalarValue,
    ServiceRoot,
)

SUN = "application/vnd.sun.wadl+xml"
EXAMPLE = "application/vnd.example.wadl+xml"


class BugSet(CollectionWithKeyBasedLookup):
    def _get_url_from_id(self, key: Any) -> str:
        return f"{self._root._root_uri.ensureSlash()}bugs/{key}"

    collection_of = "bug"


class NoLookup(CollectionWithKeyBasedLookup):
    pass


class BugRoot(ServiceRoot):
    RESOURCE_TYPE_CLASSES = {
        **ServiceRoot.RESOURCE_TYPE_CLASSES,
        "bugs": BugSet,
        "people": NoLookup,
    }


def test_positional_arguments_are_lazrs(launchpad_like: LoopbackServer, tmp_path: Path) -> None:
    root = ServiceRoot(None, launchpad_like.service_root, str(tmp_path), 30, None, "1.0")
    assert str(root._root_uri) == launchpad_like.state.base_url
    assert [p.name for p in root.people] == ["ada", "alan", "grace"]


def test_version_none_uses_the_service_root_as_given(launchpad_like: LoopbackServer) -> None:
    root = ServiceRoot(None, launchpad_like.state.base_url)
    assert root.service_root == launchpad_like.state.base_url
    assert [e.status for e in launchpad_like.state.journal] == [200, 200]


def test_compat_root_asks_for_the_sun_wadl_type_only(launchpad_like: LoopbackServer) -> None:
    launchpad_like.state.wadl_refusals[SUN] = 404
    with pytest.raises(errors.NotFound):
        ServiceRoot(None, launchpad_like.state.base_url)
    assert [e.accept for e in launchpad_like.state.journal if "wadl" in e.accept] == [SUN]


@pytest.mark.parametrize("status", [404, 500])
def test_wadlclient_root_retries_the_other_wadl_type_after_an_error_status(
    launchpad_like: LoopbackServer, status: int
) -> None:
    launchpad_like.state.wadl_refusals[EXAMPLE] = status
    root = wadlclient.ServiceRoot(None, launchpad_like.service_root)
    assert [p.name for p in root.people][:1] == ["ada"]
    journal = launchpad_like.state.journal
    wadl_accepts = [(e.accept, e.status) for e in journal if "wadl" in e.accept]
    assert wadl_accepts == [(EXAMPLE, status), (SUN, 200)]


def test_a_404_is_caught_as_response_error_with_status_and_content(
    launchpad_like: LoopbackServer,
) -> None:
    root = ServiceRoot(None, launchpad_like.state.base_url)
    with pytest.raises(errors.ResponseError) as caught:
        root.load(launchpad_like.state.base_url + "bugs/999")
    error = caught.value
    assert isinstance(error, errors.NotFound)
    assert isinstance(error, wadlclient.errors.NotFound)
    assert error.response.status == 404
    assert error.content == b"Object: None, name: bugs/999\n"
    assert str(error).startswith("HTTP Error 404: Not Found\nResponse headers:\n---\n")


def test_key_based_lookup_takes_integer_keys(launchpad_like: LoopbackServer) -> None:
    root = BugRoot(None, launchpad_like.state.base_url)
    bugs = root.bugs
    assert isinstance(bugs, BugSet)
    assert (bugs[1].id, bugs[1].title) == (1, "First bug")
    assert [bug.id for bug in bugs[1:2]] == [2]
    with pytest.raises(KeyError):
        bugs[999]


def test_key_lookup_without_get_url_from_id_is_a_type_error(
    launchpad_like: LoopbackServer,
) -> None:
    root = BugRoot(None, launchpad_like.state.base_url)
    with pytest.raises(TypeError, match="unsubscriptable"):
        root.people["ada"]


def test_resource_type_classes_hold_hosted_file_and_scalar_value() -> None:
    expected = {"HostedFile": HostedFile, "ScalarValue": ScalarValue}
    assert expected == ServiceRoot.RESOURCE_TYPE_CLASSES


class CountingRoot(ServiceRoot):
    """A root whose httpFactory object counts the exchanges it sends."""

    def httpFactory(self, authorizer: Any, cache: Any, timeout: Any, proxy_info: Any) -> Any:
        base = restful_http_class()

        class Counting(base):  # type: ignore[misc,valid-type]
            sent: list[str] = []

            def _request(self, conn: Any, host: str, absolute_uri: str, *rest: Any) -> Any:
                Counting.sent.append(absolute_uri)
                return super()._request(conn, host, absolute_uri, *rest)

        self.factory_arguments = (authorizer, cache, timeout, proxy_info)
        return Counting(authorizer, cache, timeout, proxy_info)


def test_http_factory_object_takes_part_in_every_request(launchpad_like: LoopbackServer) -> None:
    root = CountingRoot(None, launchpad_like.state.base_url)
    names = [p.name for p in root.people]
    sent = type(root._browser._connection).sent
    assert names == ["ada", "alan", "grace"]
    assert len(sent) == len(launchpad_like.state.journal) == 3
    # wadlclient's pool sent them: httplib2 opened no connection of its own.
    assert root._browser._connection.connections == {}


def test_with_a_proxy_setting_httplib2_sends_for_the_factory_object(
    launchpad_like: LoopbackServer,
) -> None:
    def no_proxy(scheme: str) -> None:
        return None

    root = CountingRoot(None, launchpad_like.state.base_url, None, None, no_proxy)
    assert [p.name for p in root.people] == ["ada", "alan", "grace"]
    assert len(type(root._browser._connection).sent) == len(launchpad_like.state.journal)
    assert root._browser._connection.connections != {}


def test_http_factory_gets_the_proxy_info_and_no_second_cache(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    def no_proxy(scheme: str) -> None:
        return None

    root = CountingRoot(None, launchpad_like.state.base_url, str(tmp_path), 7, no_proxy)
    root._browser._connection  # noqa: B018 (made on first use)
    assert root.factory_arguments == (None, None, 7, no_proxy)


def test_browser_connection_answers_raw_requests_like_httplib2(
    launchpad_like: LoopbackServer,
) -> None:
    root = CountingRoot(None, launchpad_like.state.base_url)
    response, content = root._browser._connection.request(
        launchpad_like.state.base_url + "~ada",
        method="POST",
        body=b"ws.op=noop",
        headers={"Accept": "application/json"},
        redirections=0,
    )
    assert (response.status, content) == (405, b"read-only\n")
    assert response["content-type"] == "text/plain"


def test_cache_files_are_shared_with_lazrs_file_cache(
    launchpad_like: LoopbackServer, tmp_path: Path
) -> None:
    ServiceRoot(None, launchpad_like.state.base_url, str(tmp_path))
    lazr_cache = MultipleRepresentationCache(str(tmp_path))
    lazr_cache.request_media_type = SUN
    stored = lazr_cache.get(launchpad_like.state.base_url)
    assert stored is not None
    assert stored.endswith(launchpad_like.state.wadl)

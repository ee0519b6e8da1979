"""NO_PROXY entries as curl, requests and urllib read them: names, suffixes, ports, networks.

These check the rule itself on origins, with no server: which origins go
direct is all the rule decides (test_proxies.py checks it on the wire).
"""

from __future__ import annotations

import pytest

from wadlclient.http.proxies import environment_proxies, proxy_for

PROXIES = {"http": "http://proxy.example:3128"}


@pytest.mark.parametrize(
    ("no_proxy", "host", "port", "direct"),
    [
        ("*", "anything.example", 80, True),
        ("example.com", "example.com", 80, True),
        ("example.com", "api.example.com", 80, True),
        (".example.com", "api.example.com", 80, True),
        ("example.com", "badexample.com", 80, False),
        ("example.com:8080", "example.com", 8080, True),
        ("example.com:8080", "example.com", 80, False),
        ("10.0.0.0/8", "10.1.2.3", 80, True),
        ("10.0.0.0/8", "11.1.2.3", 80, False),
        ("127.0.0.1", "127.0.0.1", 8000, True),
        ("::1", "::1", 80, True),
        ("[::1]:8000", "::1", 8000, True),
        ("other.example, example.com", "example.com", 80, True),
        ("", "example.com", 80, False),
    ],
)
def test_no_proxy_names_the_origins_reached_directly(
    monkeypatch: pytest.MonkeyPatch, no_proxy: str, host: str, port: int, direct: bool
) -> None:
    monkeypatch.setenv("no_proxy", no_proxy)

    proxy = proxy_for(PROXIES, ("http", host, port))

    assert (proxy is None) is direct


def test_lower_case_variables_win_and_a_bare_host_becomes_a_url(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.setenv("HTTP_PROXY", "http://upper:1")
    monkeypatch.setenv("http_proxy", "lower:2")
    monkeypatch.setenv("ALL_PROXY", "http://all:3")

    assert environment_proxies() == {"http": "http://lower:2", "all": "http://all:3"}


def test_upper_case_http_proxy_is_ignored_under_cgi(monkeypatch: pytest.MonkeyPatch) -> None:
    """A CGI request's ``Proxy:`` header arrives as HTTP_PROXY (httpoxy); it must not be used."""
    monkeypatch.delenv("http_proxy", raising=False)
    monkeypatch.setenv("HTTP_PROXY", "http://attacker:1")
    monkeypatch.setenv("REQUEST_METHOD", "GET")

    assert "http" not in environment_proxies()

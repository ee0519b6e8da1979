"""No HTTP answer at all becomes wadlclient.errors.TransportError naming method and URL.

These faults happen below HTTP, so they come from a raw socket server (or from
no server at all), still real connections on loopback.
"""

from __future__ import annotations

import socket

import pytest

from wadlclient.errors import ConnectError, TransportError, TransportTimeout

# Run against both connection pools: the http.client one (default) and httpx's.
pytestmark = pytest.mark.parametrize("pool_kind", ["stdlib", "httpx"])


def _closed_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port: int = sock.getsockname()[1]
    sock.close()
    return port


def test_connection_refused_names_method_and_url(make_transport):
    url = f"http://127.0.0.1:{_closed_port()}/1.0/recipes"
    transport = make_transport(max_retries=0)

    with pytest.raises(TransportError) as caught:
        transport.request("GET", url)

    assert str(caught.value).startswith(f"GET {url}: could not connect")
    assert (caught.value.method, caught.value.url) == ("GET", url)
    assert isinstance(caught.value.__cause__, ConnectError)


@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"])
def test_a_dropped_idempotent_request_is_retried_with_backoff_then_reported(
    raw_server, make_transport, sleeps, method
):
    server = raw_server("drop")
    transport = make_transport(max_retries=3)

    with pytest.raises(TransportError, match="connection dropped") as caught:
        transport.request(method, server.url)

    assert server.url in str(caught.value)
    assert "4 attempts over" in str(caught.value)
    assert caught.value.attempts == 4
    assert server.connections == 4
    assert sleeps.delays == [0, 1, 2]


@pytest.mark.parametrize("method", ["POST", "PATCH"])
def test_a_dropped_unsafe_request_is_never_retried(raw_server, make_transport, method):
    server = raw_server("drop")
    transport = make_transport()

    with pytest.raises(TransportError, match=f"^{method} ") as caught:
        transport.request(method, server.url, body=b"x=1")

    assert f"{method} is not retried: it may have acted on the server" in str(caught.value)
    assert server.connections == 1


def test_a_dropped_post_is_retried_when_the_caller_opts_in(raw_server, make_transport):
    server = raw_server("drop")
    transport = make_transport(max_retries=2, retry_methods=["GET", "POST"])

    with pytest.raises(TransportError, match="3 attempts"):
        transport.request("POST", server.url, body=b"x=1")

    assert server.connections == 3


def test_a_server_that_never_answers_times_out_each_attempt_and_is_retried(
    raw_server, make_transport, sleeps
):
    server = raw_server("hang")
    transport = make_transport(timeout=0.15, max_retries=2)

    with pytest.raises(TransportError, match="timed out") as caught:
        transport.request("GET", server.url)

    assert isinstance(caught.value.__cause__, TransportTimeout)
    assert server.connections == 3
    assert caught.value.attempts == 3
    assert caught.value.elapsed >= 3 * 0.15


def test_a_refused_connection_is_retried_then_reported(make_transport, sleeps):
    url = f"http://127.0.0.1:{_closed_port()}/1.0/recipes"
    transport = make_transport(max_retries=2)

    with pytest.raises(TransportError, match=r"could not connect.*3 attempts over") as caught:
        transport.request("GET", url)

    assert isinstance(caught.value.__cause__, ConnectError)
    assert sleeps.delays == [0, 1]


def test_no_retry_waits_past_the_deadline(raw_server, make_transport, sleeps):
    server = raw_server("drop")
    transport = make_transport(max_retries=10, max_backoff=1000.0, deadline=5.0)

    with pytest.raises(TransportError, match="would pass the 5 s deadline") as caught:
        transport.request("GET", server.url)

    # The waits are recorded, not slept: the fifth (8 s) would end past the deadline.
    assert sleeps.delays == [0, 1, 2, 4]
    assert caught.value.attempts == 5


def test_a_slow_answer_within_the_timeout_arrives(scripted, make_transport):
    transport = make_transport(timeout=5)

    response = transport.request("GET", scripted.url + "/slow?seconds=0.2")

    assert response.json() == {"slow": True}


@pytest.mark.parametrize(
    ("answer", "attempts"),
    [
        pytest.param(socket.EAI_NONAME, 1, id="no-such-name"),
        pytest.param(socket.EAI_AGAIN, 3, id="resolver-not-answering-now"),
    ],
)
def test_an_unknown_host_is_not_retried_but_a_resolver_that_cannot_answer_now_is(
    make_transport, sleeps, monkeypatch, answer, attempts
):
    """The resolver's answer comes from a patched ``socket.getaddrinfo``: no loopback server
    can give it, and a machine's real DNS may not answer at all (CI without a network)."""
    resolve = socket.getaddrinfo

    def resolver(host, *args, **kwargs):
        if host in ("wadlclient-test.invalid", b"wadlclient-test.invalid"):  # the pool: bytes
            raise socket.gaierror(answer, "the resolver's answer")
        return resolve(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    transport = make_transport(max_retries=2)

    with pytest.raises(TransportError, match="could not connect") as caught:
        transport.request("GET", "http://wadlclient-test.invalid/1.0/")

    assert caught.value.attempts == attempts
    assert len(sleeps.delays) == attempts - 1

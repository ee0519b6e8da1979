"""The http.client pool: keep-alive reuse, the stale-connection race, raw answers.

The faults come from a socket server on loopback that answers each request
on each connection as a test scripts it (``None``: close without answering),
so that a keep-alive connection can be closed at exactly the wrong moment.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest

from wadlclient.errors import ConnectionDropped, TransportError
from wadlclient.headers import Headers
from wadlclient.http import DEFAULT_TIMEOUT, Request
from wadlclient.http.pool import ConnectionPool
from wadlclient.objects.links import LOOK_AHEAD_WORKERS

OK = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"

#: (connection number, request number on that connection, request number overall) -> answer
Script = Callable[[int, int, int], bytes | None]


#: Prefix an answer with this to have the server close the connection right after it.
THEN_CLOSE = b"<then close>"


@dataclass
class KeepAliveServer:
    url: str
    connections: int = 0
    requests: list[bytes] = field(default_factory=list)
    closed: threading.Event = field(default_factory=threading.Event)  # set at each THEN_CLOSE


@pytest.fixture
def keep_alive_server() -> Iterator[Callable[[Script], KeepAliveServer]]:
    listeners: list[socket.socket] = []
    stop = threading.Event()

    def start(script: Script) -> KeepAliveServer:
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(0.1)
        listeners.append(listener)
        handle = KeepAliveServer(url=f"http://127.0.0.1:{listener.getsockname()[1]}/")
        lock = threading.Lock()

        def serve_connection(conn: socket.socket, number: int) -> None:
            with conn:
                conn.settimeout(5)
                buffered = b""
                for on_connection in range(1000):
                    while b"\r\n\r\n" not in buffered:
                        try:
                            chunk = conn.recv(4096)
                        except OSError:
                            return
                        if not chunk:
                            return
                        buffered += chunk
                    head, _, buffered = buffered.partition(b"\r\n\r\n")
                    length = _content_length(head)
                    while len(buffered) < length:
                        buffered += conn.recv(4096)
                    buffered = buffered[length:]
                    with lock:
                        handle.requests.append(head)
                        overall = len(handle.requests) - 1
                    answer = script(number, on_connection, overall)
                    if answer is None:
                        return
                    conn.sendall(answer.removeprefix(THEN_CLOSE))
                    if answer.startswith(THEN_CLOSE):
                        conn.close()
                        handle.closed.set()
                        return

        def accept() -> None:
            while not stop.is_set():
                try:
                    conn, _ = listener.accept()
                except (TimeoutError, OSError):
                    continue
                handle.connections += 1
                threading.Thread(
                    target=serve_connection, args=(conn, handle.connections - 1), daemon=True
                ).start()

        threading.Thread(target=accept, daemon=True).start()
        return handle

    yield start
    stop.set()
    for listener in listeners:
        listener.close()


def _content_length(head: bytes) -> int:
    for line in head.lower().split(b"\r\n"):
        if line.startswith(b"content-length:"):
            return int(line.split(b":", 1)[1])
    return 0


def _answer_first_then_drop(connection: int, on_connection: int, overall: int) -> bytes | None:
    """Answer the first request of each connection; drop the second unanswered."""
    return OK if on_connection == 0 else None


def _answer_only_the_first_request(
    connection: int, on_connection: int, overall: int
) -> bytes | None:
    return OK if overall == 0 else None


def _always(answer: bytes) -> Script:
    return lambda connection, on_connection, overall: answer


def test_a_get_on_a_keep_alive_connection_closed_meanwhile_is_resent_on_a_new_one(
    keep_alive_server, make_transport
):
    server = keep_alive_server(_answer_first_then_drop)
    transport = make_transport(max_retries=0)
    transport.request("GET", server.url)

    response = transport.request("GET", server.url)

    assert response.status == 200
    assert server.connections == 2
    assert len(server.requests) == 3


def test_a_post_on_a_keep_alive_connection_closed_meanwhile_is_not_resent(
    keep_alive_server, make_transport
):
    server = keep_alive_server(_answer_first_then_drop)
    transport = make_transport(max_retries=0)
    transport.request("GET", server.url)

    with pytest.raises(TransportError, match="connection dropped"):
        transport.request("POST", server.url, body=b"x=1")

    assert server.connections == 1


def test_the_pool_retry_and_the_transport_retry_do_not_multiply(keep_alive_server, make_transport):
    server = keep_alive_server(_answer_only_the_first_request)
    transport = make_transport(max_retries=0)
    transport.request("GET", server.url)

    with pytest.raises(TransportError, match="connection dropped"):
        transport.request("GET", server.url)

    # The stale connection, then one new one: the transport did not retry a third time.
    assert server.connections == 2
    assert len(server.requests) == 3


def test_an_idle_connection_the_server_has_closed_is_discarded_before_use(
    keep_alive_server, make_transport
):
    server = keep_alive_server(_always(THEN_CLOSE + OK))
    transport = make_transport(max_retries=0)
    transport.request("GET", server.url)
    assert server.closed.wait(5)

    # A POST is never resent, so it succeeds only if the dead connection was not tried.
    response = transport.request("POST", server.url, body=b"x=1")

    assert response.status == 200
    assert server.connections == 2


@pytest.mark.parametrize(
    "answer",
    [
        OK.replace(b"OK\r\n", b"OK\r\nConnection: close\r\n"),
        OK.replace(b"HTTP/1.1", b"HTTP/1.0"),
    ],
    ids=["connection-close", "http-1.0"],
)
def test_a_connection_the_server_will_close_is_not_kept(keep_alive_server, make_transport, answer):
    server = keep_alive_server(_always(answer))
    transport = make_transport(max_retries=0)

    statuses = [transport.request("GET", server.url).status for _ in range(3)]

    assert statuses == [200, 200, 200]
    assert server.connections == 3


def test_an_http_1_0_answer_with_keep_alive_keeps_the_connection(keep_alive_server, make_transport):
    answer = OK.replace(b"HTTP/1.1 200 OK\r\n", b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n")
    server = keep_alive_server(_always(answer))
    transport = make_transport(max_retries=0)

    for _ in range(3):
        transport.request("GET", server.url)

    assert server.connections == 1


def test_repeated_answer_headers_and_the_reason_phrase_are_kept(keep_alive_server, make_transport):
    answer = OK.replace(b"200 OK\r\n", b"200 Fine Thanks\r\nX-Twice: a\r\nX-Twice: b\r\n")
    server = keep_alive_server(_always(answer))
    transport = make_transport(max_retries=0)

    response = transport.request("GET", server.url)

    assert response.headers.get_list("x-twice") == ["a", "b"]
    assert response.reason == "Fine Thanks"


def test_an_answer_cut_short_is_a_dropped_connection(keep_alive_server, make_transport):
    cut = THEN_CLOSE + OK.replace(b"Content-Length: 2", b"Content-Length: 50")
    server = keep_alive_server(_always(cut))
    transport = make_transport(max_retries=0)

    with pytest.raises(TransportError, match="connection dropped") as caught:
        transport.request("POST", server.url, body=b"x=1")

    assert isinstance(caught.value.__cause__, ConnectionDropped)


def test_a_garbled_status_line_is_a_protocol_error(keep_alive_server, make_transport):
    server = keep_alive_server(_always(THEN_CLOSE + b"HTPT/9 what\r\n\r\n"))
    transport = make_transport(max_retries=0)

    with pytest.raises(TransportError) as caught:
        transport.request("POST", server.url, body=b"x=1")

    assert isinstance(caught.value.__cause__, ConnectionDropped)


def test_idle_connections_are_bounded_per_origin(scripted):
    pool = ConnectionPool(max_idle=2)
    barrier = threading.Barrier(4)

    def slow_get(_: int) -> None:
        barrier.wait(5)
        request = Request("GET", scripted.url + "/slow?seconds=0.1", Headers())
        pool.send(request, timeout=DEFAULT_TIMEOUT)

    try:
        with ThreadPoolExecutor(max_workers=4) as workers:
            list(workers.map(slow_get, range(4)))
            first = {seen.client_port for seen in scripted.requests()}
            scripted.clear()
            list(workers.map(slow_get, range(4)))
        second = {seen.client_port for seen in scripted.requests()}
    finally:
        pool.close()

    assert len(first) == 4
    assert len(first & second) == 2


def test_a_batch_of_look_ahead_requests_finds_its_connections_kept_for_the_next(scripted):
    """Far from the server every new connection costs round trips (TCP, TLS) before the request.

    With the in-flight limit raised to the explicit look-ahead's workers.
    """
    pool = ConnectionPool(max_in_flight=LOOK_AHEAD_WORKERS)
    barrier = threading.Barrier(LOOK_AHEAD_WORKERS)

    def slow_get(_: int) -> None:
        barrier.wait(5)
        request = Request("GET", scripted.url + "/slow?seconds=0.2", Headers())
        pool.send(request, timeout=DEFAULT_TIMEOUT)

    try:
        with ThreadPoolExecutor(max_workers=LOOK_AHEAD_WORKERS) as workers:
            list(workers.map(slow_get, range(LOOK_AHEAD_WORKERS)))
            first = {seen.client_port for seen in scripted.requests()}
            scripted.clear()
            list(workers.map(slow_get, range(LOOK_AHEAD_WORKERS)))
        second = {seen.client_port for seen in scripted.requests()}
    finally:
        pool.close()

    assert len(first) == LOOK_AHEAD_WORKERS
    assert second == first


def test_a_closed_pool_refuses_requests(scripted):
    pool = ConnectionPool()
    pool.send(Request("GET", scripted.url + "/echo", Headers()), timeout=DEFAULT_TIMEOUT)

    pool.close()

    with pytest.raises(RuntimeError, match="closed"):
        pool.send(Request("GET", scripted.url + "/echo", Headers()), timeout=DEFAULT_TIMEOUT)


def test_an_unknown_pool_name_is_refused(make_transport):
    with pytest.raises(ValueError, match="pool must be"):
        make_transport(pool="urllib3")


@pytest.mark.parametrize("pool_kind", ["stdlib", "httpx"])
@pytest.mark.parametrize(
    "headers",
    [{"X-Note": "a\r\nX-Injected: 1"}, {"X-Note": "a\nb"}, {"X-Bad Name": "a"}],
    ids=["crlf-in-value", "lf-in-value", "space-in-name"],
)
def test_a_header_that_could_split_the_request_is_refused_unsent(scripted, make_transport, headers):
    transport = make_transport()

    with pytest.raises(TransportError):
        transport.request("GET", scripted.url + "/echo", headers=headers)

    assert scripted.requests() == []

"""``python -m cookbook_service``: it announces only an address it serves, and can log requests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from cookbook_service.__main__ import main


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "cookbook_service", "--host", "127.0.0.1", *args]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def _as_from_a_terminal() -> None:
    """In the child before it runs the service: SIGINT at its default, as a terminal starts it.

    A process inherits an ignored SIGINT: pytest started in the background of a script
    (``make test &``) would start the service deaf to Ctrl-C's default, and uvicorn, which
    re-raises the SIGINT it stopped on, would exit 0 in silence.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_taken_port_is_one_clear_line_and_no_banner() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]

        done = subprocess.run(
            _command("--port", str(port)), capture_output=True, text=True, timeout=60,
            check=False, env=_env(),
        )  # fmt: skip

    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "cookbook service on" not in done.stderr
    assert "Traceback" not in done.stderr


@contextmanager
def _serving(*args: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``python -m cookbook_service ARGS`` and its banner; killed, its pipes closed, after."""
    process = subprocess.Popen(
        _command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
        preexec_fn=_as_from_a_terminal,
    )  # fmt: skip
    # A line that never comes must not hang the suite: the server is killed, the read ends.
    watchdog = threading.Timer(30, process.kill)
    watchdog.start()
    try:
        assert process.stderr is not None
        yield process, process.stderr.readline()
    finally:
        watchdog.cancel()
        process.kill()
        process.wait(timeout=10)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def test_the_banner_comes_once_listening_and_the_access_log_shows_requests() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with _serving("--port", str(port), "--access-log") as (process, banner):
        assert banner.startswith(f"cookbook service on http://127.0.0.1:{port}/1.0/")
        # Served as soon as announced.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/1.0/", timeout=10) as answer:
            assert answer.status == 200
        # uvicorn's access log goes to standard output, a line per request.
        assert process.stdout is not None
        access = process.stdout.readline()
        assert '"GET /1.0/ HTTP/1.1" 200' in access, access


def test_connections_to_the_served_socket_send_without_nagles_delay() -> None:
    """With Nagle's algorithm on, a keep-alive client waits out a delayed ACK per answer."""
    import asyncio

    from cookbook_service.__main__ import _listen

    async def nodelay_of_an_accepted_connection() -> int:
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            sock = writer.get_extra_info("socket")
            accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        listening = _listen("127.0.0.1", 0)
        server = await asyncio.start_server(on_connect, sock=listening)
        async with server:
            port = listening.getsockname()[1]
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            nodelay = await asyncio.wait_for(accepted, 10)
            writer.close()
        return nodelay

    assert asyncio.run(nodelay_of_an_accepted_connection()) != 0


def test_ctrl_c_stops_the_service_with_one_line() -> None:
    """A real SIGINT, as Ctrl-C in a terminal sends: no traceback, status 130 (interrupted)."""
    with _serving("--port", "0") as (process, banner):
        assert banner.startswith("cookbook service on http://127.0.0.1:")
        port = int(banner.split(":")[2].split("/")[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/1.0/", timeout=10) as answer:
            assert answer.status == 200  # serving, not still starting
        process.send_signal(signal.SIGINT)
        assert process.stderr is not None
        rest = process.stderr.read()
        process.wait(timeout=10)

    assert rest == "cookbook service stopped\n"
    assert process.returncode == 130


def test_help_shows_the_defaults_of_the_address(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In-process (the tests above start ``python -m cookbook_service``), 80 columns wide."""
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as exited:
        main(["--help"])

    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert "address to listen on (default 127.0.0.1)" in out
    assert "port to listen on (default 8080)" in out

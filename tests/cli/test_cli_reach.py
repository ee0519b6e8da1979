"""A one-shot command gives up soon and in one line: ``--timeout``, ``--retries``.

The slow cases run ``wadlclient`` as a user does, in a process of its own
(forked from one that imported the command line: tests/cli/forked_commands.py),
so that what reaches stderr is what a terminal shows (in-process, pytest's
log capture would swallow the library's retry warnings).
"""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tests.cli.forked_commands import ForkedCommands

from wadlclient.cli import main

Capsys = pytest.CaptureFixture[str]
Wadlclient = Callable[..., tuple[subprocess.CompletedProcess[str], float]]


@pytest.fixture
def wadlclient(forked_commands: ForkedCommands) -> Wadlclient:
    """``wadlclient(*argv)``: the command in a process of its own; what it did, how long it took."""
    return forked_commands.run


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def closed_port() -> int:
    """A port nothing listens on: connecting to it is refused."""
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port: int = unused.getsockname()[1]
    return port


@pytest.fixture
def silent_server() -> Iterator[tuple[socket.socket, int]]:
    """A listening socket that never accepts: a connection is made, no answer ever comes."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield server, server.getsockname()[1]


def test_a_refused_connection_fails_in_one_line_within_seconds(
    wadlclient: Wadlclient, closed_port: int
) -> None:
    done, _took = wadlclient("describe", f"http://127.0.0.1:{closed_port}/")

    assert done.returncode == 3
    line = one_line(done.stderr)
    assert line.startswith(f"wadlclient: GET http://127.0.0.1:{closed_port}/1.0/: could not")
    assert "3 attempts" in line  # the default: two retries (the library's own makes 7)


def test_an_unknown_host_fails_in_one_line_within_seconds(wadlclient: Wadlclient) -> None:
    # .invalid never resolves (RFC 6761); wadlclient does not retry a name that does not exist.
    done, _took = wadlclient("describe", "http://wadlclient-test.invalid/")

    assert done.returncode == 3
    line = one_line(done.stderr)
    assert line.startswith("wadlclient: GET http://wadlclient-test.invalid/1.0/: could not connect")
    assert "attempts" not in line  # sent once: a name that does not exist is not retried


def test_retries_sets_how_often_a_failed_request_is_sent_again(
    wadlclient: Wadlclient, closed_port: int
) -> None:
    none, _ = wadlclient("describe", f"http://127.0.0.1:{closed_port}/", "--retries", "0")
    four, _ = wadlclient("describe", f"http://127.0.0.1:{closed_port}/", "--retries", "4")

    assert "attempts" not in one_line(none.stderr)
    assert "5 attempts" in one_line(four.stderr)
    assert (none.returncode, four.returncode) == (3, 3)


def test_timeout_bounds_a_request_to_a_server_that_never_answers(
    wadlclient: Wadlclient,
    silent_server: tuple[socket.socket, int],
) -> None:
    _, port = silent_server

    done, took = wadlclient(
        "get", f"http://127.0.0.1:{port}/", "recipes", "--timeout", "0.5", "--retries", "0"
    )

    assert done.returncode == 3
    assert "timed out" in one_line(done.stderr)
    # A timeout can only be shown in time: a bound twenty times the one asked, a third of
    # the default read timeout (30 s) that it replaces.
    assert took < 10.0


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf", "nan"])
def test_a_timeout_that_is_not_a_positive_number_is_a_usage_error(
    capsys: Capsys, value: str
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["describe", "http://127.0.0.1:1/", "--timeout", value])

    assert exit.value.code == 2
    assert "argument --timeout" in capsys.readouterr().err


def test_describe_advises_the_command_line_spelling_of_no_version(
    cookbook_service: Any, capsys: Capsys
) -> None:
    status = main(["describe", cookbook_service.base_url + "1.0/"])

    err = one_line(capsys.readouterr().err)
    assert status == 1
    assert "pass --api-version none" in err
    assert "version=None" not in err


def test_get_refuses_a_url_of_another_origin_and_sends_it_nothing(
    cookbook_service: Any, capsys: Capsys, silent_server: tuple[socket.socket, int]
) -> None:
    server, port = silent_server
    elsewhere = f"http://127.0.0.1:{port}/1.0/recipes"

    status = main(["get", cookbook_service.base_url, elsewhere])

    assert status == 2
    assert one_line(capsys.readouterr().err) == (
        f"wadlclient: PATH {elsewhere!r} is not a URL of the service "
        f"({cookbook_service.base_url}); give a path, or one of its URLs"
    )
    server.setblocking(False)
    with pytest.raises(BlockingIOError):  # no connection is waiting to be accepted
        server.accept()


def test_get_follows_a_url_of_the_service_itself(cookbook_service: Any, capsys: Capsys) -> None:
    status = main(["get", cookbook_service.base_url, cookbook_service.base_url + "1.0/recipes/1"])

    assert status == 0
    assert '"self_link"' in capsys.readouterr().out

"""A private redis-server on a free loopback port, for the tests and the fleet benchmark.

The binary comes from ``$WADLCLIENT_REDIS_SERVER`` or ``PATH`` (``make
test`` installs Debian's when it is missing). It keeps nothing on disk, is
bounded (``maxmemory`` with ``volatile-lru``, as docs/cache-backends.md
advises) and is stopped when the context ends.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["RedisServer", "RedisUnavailable", "redis_server", "redis_server_binary"]


class RedisUnavailable(RuntimeError):
    """No redis-server binary here, or it would not start: the reason is the message."""


@dataclass(frozen=True)
class RedisServer:
    """A running server: its ``redis://`` URL (database 0) and process."""

    url: str
    port: int
    process: subprocess.Popen[bytes]


def redis_server_binary() -> str:
    """The redis-server to run, or RedisUnavailable saying why there is none."""
    named = os.environ.get("WADLCLIENT_REDIS_SERVER")
    if named and not (os.path.isfile(named) and os.access(named, os.X_OK)):
        raise RedisUnavailable(f"$WADLCLIENT_REDIS_SERVER ({named}) is not an executable file")
    found = named or shutil.which("redis-server")
    if not found:
        raise RedisUnavailable(
            "no redis-server on PATH (make test installs Debian's redis-server as root; "
            "or set WADLCLIENT_REDIS_SERVER)"
        )
    return found


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def redis_server(maxmemory: str = "256mb") -> Iterator[RedisServer]:
    """Run redis-server on 127.0.0.1 at a free port until the context ends."""
    binary = redis_server_binary()
    with tempfile.TemporaryDirectory(prefix="wadlclient-redis-") as directory:
        for _attempt in range(3):
            port = _free_port()
            command = [
                binary, "--port", str(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", directory,
                "--maxmemory", maxmemory, "--maxmemory-policy", "volatile-lru",
                "--loglevel", "warning",
            ]  # fmt: skip
            log = os.path.join(directory, "redis.log")
            with open(log, "wb") as output:
                process = subprocess.Popen(
                    command, stdout=output, stderr=subprocess.STDOUT, cwd=directory
                )
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and process.poll() is None:
                if _answers(port):
                    break
                time.sleep(0.02)
            if process.poll() is None and _answers(port):
                break
            process.kill()
            process.wait()
        else:
            with open(log, "rb") as output:
                lines = output.read().decode(errors="replace").strip().splitlines()
            reason = lines[-1:] or ["no output"]
            raise RedisUnavailable(f"redis-server would not start: {reason[0]}")
        try:
            yield RedisServer(f"redis://127.0.0.1:{port}/0", port, process)
        finally:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

"""Start and stop the servers the benchmarks talk to, each in its own process.

Servers run as separate processes so that their CPU time never shares the
client's GIL (the machine has two cores: one for the server, one for the
client being measured).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from benchmarks.config import REPO_ROOT, ServiceSpec, launchpad_wadl_path


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True)
class Server:
    """A running server process and the address clients pass to ``ServiceRoot``."""

    base_url: str
    process: subprocess.Popen[bytes]
    log: Path


def _wait_ready(server: Server, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    url = server.base_url + "1.0/"
    # One client for every poll, and no CA bundle (about 70 ms of CPU to load): the
    # services are plain HTTP on loopback.
    with httpx.Client(headers={"Accept": "application/json"}, timeout=2, verify=False) as client:
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                raise RuntimeError(
                    f"server exited with {server.process.returncode}; log:\n"
                    + server.log.read_text(errors="replace")[-3000:]
                )
            try:
                if client.get(url).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
    raise TimeoutError(f"server at {url} not ready after {timeout:.0f} s")


def _stop(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


@contextmanager
def _serve(command: list[str], port: int, log: Path, ready_timeout: float) -> Iterator[Server]:
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as log_file:
        process = subprocess.Popen(
            command, cwd=REPO_ROOT, stdout=log_file, stderr=subprocess.STDOUT
        )
    server = Server(f"http://127.0.0.1:{port}/", process, log)
    try:
        _wait_ready(server, ready_timeout)
        yield server
    finally:
        _stop(server)


@contextmanager
def cookbook_service(spec: ServiceSpec, log_dir: Path) -> Iterator[Server]:
    """``python -m cookbook_service`` with the spec's size, page size and latency.

    It answers ``/_journal`` with the requests and bytes it has answered, which
    ``benchmarks.worker --count`` reads to report each client's network work.
    """
    port = free_port()
    command = [
        sys.executable, "-m", "cookbook_service",
        "--host", "127.0.0.1", "--port", str(port),
        "--page-size", str(spec.page_size),
        "--seed-recipes", str(spec.seed_recipes),
        "--latency-ms", str(spec.latency_ms),
        "--journal-endpoint",
    ]  # fmt: skip
    with _serve(command, port, log_dir / f"service-{spec.key}.log", 180) as server:
        yield server


@contextmanager
def launchpad_server(log_dir: Path, port: int | None = None) -> Iterator[Server]:
    """The Launchpad WADL server (``benchmarks.lpserver``)."""
    port = port or free_port()
    command = [
        sys.executable, "-m", "benchmarks.lpserver",
        "--port", str(port), "--wadl", str(launchpad_wadl_path()),
    ]  # fmt: skip
    with _serve(command, port, log_dir / "lpserver.log", 30) as server:
        yield server

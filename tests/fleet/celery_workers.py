"""Real Celery workers for the tests: worker processes of ``wadlclient.celery`` on a Redis.

Each worker is one process (a pool of threads: the work is waiting, and
one process per worker keeps the suite's CPU small), told everything by
its environment as a deployed worker is. The process builds the worker as
``celery -A APP worker`` does (``app.Worker(...).start()``, the same
options) without Celery's command line: importing that (click's plugins,
a REPL, pygments' lexers) cost two thirds of a worker's start.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


class Worker:
    """One running worker process of ``app`` (an import path), its log in a file."""

    def __init__(
        self, name: str, env: Mapping[str, str], log: Path, threads: int,
        app: str = "wadlclient.celery",
    ) -> None:  # fmt: skip
        self.name = name
        self.log = log
        command = [sys.executable, __file__, app, name, str(threads)]
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                command, env=dict(env), cwd=REPO, stdout=out, stderr=subprocess.STDOUT
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until the worker says it consumes (its log), or AssertionError with the log."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if b" ready." in self.log.read_bytes():
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"worker {self.name} did not start:\n{self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no clean-up, no acknowledgement, no checkpoint after this."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


def worker_env(redis_url: str, **settings: str) -> dict[str, str]:
    """The environment of a worker of the fleet on ``redis_url`` (``WADLCLIENT_FLEET_<NAME>``)."""
    ours = ("CELERY_", "WADLCLIENT_FLEET_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(ours)}
    env["WADLCLIENT_FLEET_REDIS"] = redis_url
    for name, value in settings.items():
        env[f"WADLCLIENT_FLEET_{name.upper()}"] = value
    if os.geteuid() == 0:
        # Celery refuses to unpickle as root unless told; a test machine may run all as root.
        env["C_FORCE_ROOT"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
    return env


def main(app_name: str, name: str, threads: str) -> int:
    """``celery -A APP worker --pool=threads --concurrency=THREADS --hostname=NAME@%h
    --without-gossip --without-mingle --without-heartbeat --loglevel=INFO``, as Celery's
    command line builds it."""
    from celery.app.utils import find_app
    from celery.utils.nodenames import default_nodename, host_format

    app = find_app(app_name)
    worker = app.Worker(
        hostname=host_format(default_nodename(f"{name}@%h")),
        pool_cls="threads", concurrency=int(threads), loglevel="INFO",
        without_gossip=True, without_mingle=True, without_heartbeat=True,
    )  # fmt: skip
    worker.start()
    return int(worker.exitcode or 0)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))

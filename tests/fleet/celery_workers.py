"""Real Celery workers for the tests: worker processes of ``wadlclient.celery`` on a Redis.

Each worker is one process (a pool of threads: the work is waiting, and
one process per worker keeps the suite's CPU small), told everything by
its environment as a deployed worker is. Each builds its worker as
``celery -A APP worker`` does (``app.Worker(...).start()``, the same
options) without Celery's command line: importing that (click's plugins,
a REPL, pygments' lexers) cost a third of a worker's start. The workers
of one set are forked from one process that imported Celery and the app
once (`start_workers`), where each imported them again.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


class Worker:
    """One running worker process, its log in a file."""

    def __init__(self, name: str, pid: int, log: Path) -> None:
        self.name, self.pid, self.log = name, pid, log

    def alive(self) -> bool:
        """Whether the process runs (its parent reaps it as soon as it ends)."""
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                return stat.read().rpartition(")")[2].split()[0] not in ("Z", "X")
        except FileNotFoundError:
            return False

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until the worker says it consumes (its log), or AssertionError with the log."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if b" ready." in self.log.read_bytes():
                return
            if not self.alive():
                break
            time.sleep(0.1)
        raise AssertionError(f"worker {self.name} did not start:\n{self.log.read_text()}")

    def _gone_within(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.alive():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def kill(self) -> None:
        """SIGKILL: no clean-up, no acknowledgement, no checkpoint after this."""
        if self.alive():
            os.kill(self.pid, signal.SIGKILL)
        self._gone_within(10)

    def stop(self) -> None:
        """SIGTERM (Celery's warm shutdown), SIGKILL if it takes over 20 s."""
        if self.alive():
            os.kill(self.pid, signal.SIGTERM)
            if not self._gone_within(20):
                self.kill()


class Workers:
    """Workers forked from one process: ``with start_workers(...) as workers:``."""

    def __init__(self, process: subprocess.Popen[str], workers: list[Worker]) -> None:
        self._process = process
        self.workers = workers

    def __enter__(self) -> list[Worker]:
        return self.workers

    def __exit__(self, *exc: object) -> None:
        for worker in self.workers:
            worker.stop()
        self._process.wait(30)  # it ends once its workers have


def start_workers(
    names: Sequence[str], env: Mapping[str, str], logs: Path, threads: int,
    app: str = "wadlclient.celery",
) -> Workers:  # fmt: skip
    """Workers of ``app`` (an import path) called ``names``, their logs ``logs/NAME.log``."""
    command = [sys.executable, __file__, app, str(threads)]
    command += [f"{name}={logs / name}.log" for name in names]
    process = subprocess.Popen(command, env=dict(env), cwd=REPO, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    process.stdout.close()
    if not line:
        process.wait(30)
        raise AssertionError(f"the workers did not start: exit status {process.returncode}")
    pids: dict[str, int] = json.loads(line)
    return Workers(process, [Worker(name, pids[name], logs / f"{name}.log") for name in names])


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


def _run_worker(app: Any, name: str, threads: int) -> int:
    """``celery -A APP worker --pool=threads --concurrency=THREADS --hostname=NAME@%h
    --without-gossip --without-mingle --without-heartbeat --loglevel=INFO``, as Celery's
    command line builds it."""
    from celery.utils.nodenames import default_nodename, host_format

    worker = app.Worker(
        hostname=host_format(default_nodename(f"{name}@%h")),
        pool_cls="threads", concurrency=threads, loglevel="INFO",
        without_gossip=True, without_mingle=True, without_heartbeat=True,
    )  # fmt: skip
    worker.start()
    return int(worker.exitcode or 0)


def main(app_name: str, threads: str, *workers: str) -> int:
    """Fork a worker for each ``NAME=LOG``; print their process ids; reap them; end after them."""
    import celery.apps.worker  # noqa: F401  (what each worker imports: once, before the forks)
    from celery.app.utils import find_app

    app = find_app(app_name)
    pids = {}
    for spec in workers:
        name, _eq, log = spec.partition("=")
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)  # there once pids print
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                os.dup2(out, 1)
                os.dup2(out, 2)
                status = _run_worker(app, name, int(threads))
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status)
        os.close(out)
        pids[name] = pid
    print(json.dumps(pids), flush=True)
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))

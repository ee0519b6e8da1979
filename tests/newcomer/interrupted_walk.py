"""Run by test_interrupt.py in a child process: a walk over slow pages, to be stopped by SIGINT.

The service answers every page after the second only after five seconds,
so the pages fetched ahead are on the wire when the signal arrives. The
script prints ``walking`` once it holds the second page, then, after the
interrupt, how long the walk took to stop.
"""

from __future__ import annotations

import asyncio
import signal
import sys
import threading
import time
from typing import Any
from urllib.parse import parse_qs

import uvicorn

from cookbook_service.app import ServiceConfig, create_app
from cookbook_service.journal import Journal
from cookbook_service.store import Store
from wadlclient import Collection, ServiceRoot

SLOW_SECONDS = 5.0
PAGE = 5


def slow_pages(app: Any) -> Any:
    """The app, with every page after the second answered late."""

    async def delayed(scope: Any, receive: Any, send: Any) -> None:
        query = parse_qs(scope.get("query_string", b"").decode("ascii"))
        if int(query.get("ws.start", ["0"])[0]) > PAGE:
            await asyncio.sleep(SLOW_SECONDS)
        await app(scope, receive, send)

    return delayed


#: When SIGINT arrived (the handler's own clock).
_interrupted_at: list[float] = []


def on_sigint(signum: int, frame: Any) -> None:
    _interrupted_at.append(time.monotonic())
    raise KeyboardInterrupt


def main(port: int) -> None:
    app = create_app(Store(None, seed_recipes=40), ServiceConfig(page_size=PAGE), Journal())
    config = uvicorn.Config(
        slow_pages(app), host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.01)
    Collection.ITERATION_PAGE_SIZE = PAGE
    root = ServiceRoot(None, f"http://127.0.0.1:{port}/")
    signal.signal(signal.SIGINT, on_sigint)
    try:
        for number, _recipe in enumerate(root.recipes):
            if number == PAGE:  # the second page is in hand, the next ones on the wire
                print("walking", flush=True)
    except KeyboardInterrupt:
        print(f"stopped {time.monotonic() - _interrupted_at[0]:.3f}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]))

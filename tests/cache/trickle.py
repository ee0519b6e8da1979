"""A real TCP proxy in front of a real server, whose replies trickle in (issue 30).

What a client sends goes through at once; what the server answers comes
back ``chunk`` bytes at a time, one piece every ``interval`` seconds (a
congested link, a server swapping), or at once when ``interval`` is 0.
``returned`` counts the bytes handed back to clients: what a client read.
``interval`` may be changed while the proxy runs (a link that turns slow).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from types import TracebackType


class TrickleProxy:
    """Listens on 127.0.0.1 (a free port) and forwards to ``upstream_port``."""

    def __init__(self, upstream_port: int, *, chunk: int = 64, interval: float = 0.3) -> None:
        self.upstream_port = upstream_port
        self.chunk = chunk
        self.interval = interval
        self.returned = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._sockets: list[socket.socket] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._threads = [threading.Thread(target=self._accept, daemon=True)]

    def url(self, database: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def __enter__(self) -> TrickleProxy:
        self._threads[0].start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
        self._listener.close()
        with self._lock:
            for sock in self._sockets:
                _shut(sock)  # wakes a blocked recv, which a close alone does not
                sock.close()
        for thread in self._threads:
            thread.join(5)

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            with self._lock:
                self._sockets += [client, upstream]
            for source, sink, slow in ((client, upstream, False), (upstream, client, True)):
                thread = threading.Thread(target=self._pump, args=(source, sink, slow), daemon=True)
                self._threads.append(thread)
                thread.start()

    def _pump(self, source: socket.socket, sink: socket.socket, slow: bool) -> None:
        try:
            while not self._stop.is_set():
                interval = self.interval if slow else 0.0
                data = source.recv(self.chunk if interval else 65536)
                if not data:
                    break
                if interval:
                    time.sleep(interval)
                sink.sendall(data)
                if slow:
                    with self._lock:
                        self.returned += len(data)
        except OSError:
            pass
        finally:
            _shut(source)
            _shut(sink)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)

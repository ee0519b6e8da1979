"""``httplib2.debuglevel``: the wire trace lazr.restfulclient's users turn on to see requests.

With httplib2 under lazr, ``httplib2.debuglevel = 1`` makes
``http.client`` print each request as sent (``send: b'GET /1.0/ ...'``),
the answer's status line (``reply: 'HTTP/1.1 200 Ok\\r\\n'``) and its
headers (``header: Content-Type: application/json``). Launchpad's own
advice for profiling scripts relies on it. wadlclient's pool does not use
``http.client``, so `HTTPLIB2_TRACE` prints the same lines at the same
points for the exchanges the compatibility layer's pool sends, whenever
``httplib2.debuglevel`` is above 0 at that moment.

Like httplib2's, the trace shows headers as they are, the Authorization
header included: it is for a developer's terminal, never for a log.
"""

from __future__ import annotations

import sys

__all__ = ["HTTPLIB2_TRACE", "Httplib2Trace"]


def debuglevel() -> int:
    """``httplib2.debuglevel``, or 0 when the program never imported httplib2."""
    module = sys.modules.get("httplib2")
    level = getattr(module, "debuglevel", 0) if module is not None else 0
    return level if isinstance(level, int) else 0


class Httplib2Trace:
    """A `wadlclient.http.trace.WireTrace` printing http.client's debug lines."""

    def sent(self, data: bytes) -> None:
        if debuglevel() > 0:
            print("send:", repr(data))

    def status_line(self, line: bytes) -> None:
        if debuglevel() > 0:
            print("reply:", repr(line.decode("iso-8859-1")))

    def header(self, name: str, value: str) -> None:
        if debuglevel() > 0:
            print("header:", name + ":", value)


#: The one trace every compatibility root's pool reports to.
HTTPLIB2_TRACE = Httplib2Trace()

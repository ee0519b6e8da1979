"""A tiny loopback server publishing the Launchpad WADL and a matching root JSON.

``python -m benchmarks.lpserver --port N --wadl PATH`` serves ``/1.0/``:
the WADL for an ``Accept`` naming a WADL type, JSON otherwise, both with a
one-year ``max-age`` so a cache filled by one cold start stays fresh; and
``/1.0/people``, one uncached page of five people (the launchpadlib row). The
WADL's ``resources base`` (``https://api.launchpad.test/1.0/``) is rewritten
to this server so both clients resolve the root resource here. The harness
uses it only to prefill the caches; warm starts then run with it stopped, so
any request they made would fail.
"""

from __future__ import annotations

import argparse
import email.utils
import hashlib
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ORIGINAL_BASE = "https://api.launchpad.test/1.0/"
MAX_AGE = 365 * 24 * 3600


def rewrite_wadl(wadl: bytes, base_url: str) -> bytes:
    """The WADL with every reference to the original service moved to ``base_url``."""
    return wadl.replace(ORIGINAL_BASE.encode(), base_url.encode())


def root_json(wadl: bytes, base_url: str) -> bytes:
    """A service-root JSON with one link per param of ``#service-root-json``."""
    text = wadl.decode("utf-8")
    start = text.index('id="service-root-json"')
    end = text.index("</wadl:representation>", start)
    names = re.findall(r'<wadl:param[^>]*\bname="([^"]+)"', text[start:end])
    document: dict[str, str] = {"resource_type_link": f"{base_url}#service-root"}
    for name in names:
        for suffix in ("_collection_link", "_link"):
            if name.endswith(suffix) and name != "resource_type_link":
                document[name] = base_url + name[: -len(suffix)]
                break
    return json.dumps(document).encode()


def people_page(base_url: str) -> bytes:
    """A collection page of five person entries."""
    names = ("ada", "alan", "grace", "edsger", "barbara")
    entries = [
        {
            "self_link": f"{base_url}~{name}",
            "resource_type_link": f"{base_url}#person",
            "name": name,
            "display_name": name.title(),
        }
        for name in names
    ]
    page = {
        "total_size": len(entries),
        "start": 0,
        "entries": entries,
        "resource_type_link": f"{base_url}#people",
    }
    return json.dumps(page).encode()


class LoopbackServer(ThreadingHTTPServer):
    """The standard library's threading server with a listen queue that takes a burst.

    As `wadlclient.testing.server.LoopbackHTTPServer`, whose package (the whole
    testing kit, about 0.2 s of CPU) this process has no other use for.
    """

    request_queue_size = 128
    daemon_threads = True


def make_handler(wadl: bytes, root: bytes, people: bytes = b"") -> type[BaseHTTPRequestHandler]:
    """A request handler class serving ``/1.0/`` from the two bodies."""
    modified = email.utils.formatdate(time.time() - 3600, usegmt=True)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True
        requests_served = 0
        #: Whole WADL documents sent (a 304 is not one); each is logged too.
        wadl_sent = 0
        counting = threading.Lock()

        def do_GET(self) -> None:
            Handler.requests_served += 1
            if self.path.split("?")[0] == "/1.0/people" and people:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(people)))
                self.end_headers()
                self.wfile.write(people)
                return
            if self.path.split("?")[0] != "/1.0/":
                self._send(404, "text/plain", b"not found\n")
                return
            accept = self.headers.get("Accept", "")
            if "wadl" in accept:
                media_type = next(t.strip() for t in accept.split(",") if "wadl" in t)
                self._send(200, media_type.split(";")[0], wadl)
            else:
                self._send(200, "application/json", root)

        def _send(self, status: int, media_type: str, body: bytes) -> None:
            etag = '"' + hashlib.sha1(body).hexdigest() + '"'
            if status == 200 and self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(status)
            self.send_header("Content-Type", media_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", f"max-age={MAX_AGE}")
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", modified)
            self.send_header("Vary", "Accept")
            self.end_headers()
            self.wfile.write(body)
            if "wadl" in media_type:
                with Handler.counting:
                    Handler.wadl_sent += 1
                sys.stderr.write("lpserver: sent the WADL\n")

        def log_message(self, format: str, *args: object) -> None:
            sys.stderr.write(f"lpserver: {format % args}\n")

    return Handler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--wadl", type=Path, required=True)
    args = parser.parse_args(argv)
    base_url = f"http://127.0.0.1:{args.port}/1.0/"
    wadl = rewrite_wadl(args.wadl.read_bytes(), base_url)
    handler = make_handler(wadl, root_json(wadl, base_url), people_page(base_url))
    server = LoopbackServer(("127.0.0.1", args.port), handler)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

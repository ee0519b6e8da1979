"""Raw HTTP to a fake, for the behaviours a client library checks before sending."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

from wadlclient.testing import FakeService


def send(
    fake: FakeService,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request to ``fake.base + path`` (``/path``: from the host's root): (status, headers,
    body). A dict body goes as JSON."""
    split = urlsplit(
        fake.service_root.rstrip("/") + path if path.startswith("/") else fake.base + path
    )
    connection = http.client.HTTPConnection(split.netloc, timeout=10)
    headers = dict(headers or {})
    data: bytes | None = None
    if isinstance(body, dict):
        data = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    elif isinstance(body, str):
        data = body.encode()
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
    try:
        target = split.path + (f"?{split.query}" if split.query else "")
        connection.request(method, target, body=data, headers=headers)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


def get_json(fake: FakeService, path: str) -> Any:
    status, _headers, body = send(fake, "GET", path)
    assert status == 200, body
    return json.loads(body)

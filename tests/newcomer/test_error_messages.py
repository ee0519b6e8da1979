"""An HTTP error's message names the status, the request and what the server said."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

import pytest

from cookbook_service.testing import FEATURED_COOKBOOK
from wadlclient import Conflict, NotFound, ServiceRoot
from wadlclient.errors import HTTPError
from wadlclient.headers import Headers
from wadlclient.http.models import Response


def test_a_conflict_names_method_url_and_the_servers_message(cookbook_service: Any) -> None:
    with ServiceRoot(None, cookbook_service.base_url) as root, pytest.raises(Conflict) as caught:
        root.cookbooks.create(
            name=FEATURED_COOKBOOK,
            cuisine="General",
            copyright_date=datetime(2024, 5, 1, tzinfo=timezone.utc),
            price=Decimal("1.00"),
        )

    url = cookbook_service.url("cookbooks")
    assert str(caught.value) == (
        f"HTTP Error 409: Conflict (POST {url}): "
        f"A cookbook named {FEATURED_COOKBOOK!r} already exists."
    )
    assert caught.value.method == "POST"
    assert caught.value.url == url


def test_a_not_found_keeps_the_whole_body_and_response(cookbook_service: Any) -> None:
    with ServiceRoot(None, cookbook_service.base_url) as root, pytest.raises(NotFound) as caught:
        root.load("cookbooks/No%20such")

    assert str(caught.value).startswith(
        f"HTTP Error 404: Not Found (GET {cookbook_service.url('cookbooks/No%20such')})"
    )
    assert caught.value.content
    assert caught.value.response.status == 404  # type: ignore[attr-defined]


def answer(body: bytes, content_type: str = "text/plain") -> Response:
    """A response value as the transport builds it (no server needed to build a value)."""
    headers = Headers([("Content-Type", content_type)])
    return Response(400, "Bad Request", headers, body, "http://example.test/1.0/x")


def test_the_servers_message_is_its_first_line_cut_to_200_characters() -> None:
    body = b"\n  " + b"x" * 500 + b"\nsecond line\n"
    error = HTTPError(answer(body), body, method="GET")

    message = str(error).split("): ", 1)[1]

    assert message == "x" * 197 + "..."
    assert error.content.endswith(b"second line\n")


def test_an_html_body_is_left_out_of_the_message() -> None:
    body = b"<html><body>Oops</body></html>"
    error = HTTPError(answer(body, "text/html; charset=utf-8"), body, method="GET")

    assert str(error) == "HTTP Error 400: Bad Request (GET http://example.test/1.0/x)"

"""Error statuses become the exceptions of wadlclient.errors, with the exact text."""

from __future__ import annotations

import pytest

from wadlclient import errors


@pytest.mark.parametrize(
    ("status", "error_class", "text"),
    [
        (400, errors.BadRequest, "HTTP Error 400: Bad Request"),
        (401, errors.Unauthorized, "HTTP Error 401: Unauthorized"),
        (404, errors.NotFound, "HTTP Error 404: Not Found"),
        (405, errors.MethodNotAllowed, "HTTP Error 405: Method Not Allowed"),
        (409, errors.Conflict, "HTTP Error 409: Conflict"),
        (410, errors.Gone, "HTTP Error 410: Gone"),
        (412, errors.PreconditionFailed, "HTTP Error 412: Precondition Failed"),
        (403, errors.ClientError, "HTTP Error 403: Forbidden"),
        (500, errors.ServerError, "HTTP Error 500: Internal Server Error"),
    ],
)
def test_error_status_raises_its_class_with_the_status_line(
    scripted, make_transport, status, error_class, text
):
    transport = make_transport()

    with pytest.raises(error_class) as caught:
        transport.request("GET", scripted.url + f"/status/{status}")

    assert type(caught.value) is error_class
    url = scripted.url + f"/status/{status}"
    assert str(caught.value) == f'{text} (GET {url}): {{"problem": "scripted"}}'


def test_an_error_carries_the_response_and_its_body(scripted, make_transport):
    transport = make_transport()

    with pytest.raises(errors.NotFound) as caught:
        transport.request("GET", scripted.url + "/status/404")

    assert caught.value.content == b'{"problem": "scripted"}'
    assert caught.value.headers["content-type"] == "application/json"


def test_an_error_message_never_holds_the_authorization_value(
    scripted, make_transport, recording_authorizer
):
    transport = make_transport(authorizer=recording_authorizer)

    with pytest.raises(errors.Unauthorized) as caught:
        transport.request("GET", scripted.url + "/status/401")

    assert recording_authorizer.SECRET not in str(caught.value) + repr(caught.value)


@pytest.mark.parametrize("status", [400, 401, 404, 500])
def test_client_and_other_server_errors_are_not_retried(scripted, make_transport, status):
    transport = make_transport()

    with pytest.raises(errors.HTTPError):
        transport.request("GET", scripted.url + f"/status/{status}")

    assert len(scripted.requests()) == 1


def test_a_304_nobody_asked_for_raises_unexpected_response(scripted, make_transport):
    transport = make_transport()

    with pytest.raises(errors.UnexpectedResponseError) as caught:
        transport.request("GET", scripted.url + "/always-304")

    assert str(caught.value).startswith("HTTP Error 304: Not Modified")


def test_a_304_for_the_callers_own_condition_is_returned_as_not_modified(
    scripted, make_transport
):
    transport = make_transport()

    response = transport.request(
        "GET", scripted.url + "/etag/a", headers={"If-None-Match": '"v1"'}
    )

    assert (response.status, response.not_modified, response.from_cache) == (304, True, False)


def test_a_redirect_without_location_raises_unexpected_response(scripted, make_transport):
    transport = make_transport()

    with pytest.raises(errors.UnexpectedResponseError, match="HTTP Error 300"):
        transport.request("GET", scripted.url + "/status/300")


def test_2xx_statuses_are_returned(scripted, make_transport):
    transport = make_transport()

    response = transport.request("GET", scripted.url + "/status/202")

    assert (response.status, response.reason) == (202, "Accepted")


@pytest.mark.parametrize("url", ["/1.0/recipes", "ftp://127.0.0.1/x", "recipes"])
def test_a_url_that_is_not_absolute_http_is_refused_before_sending(make_transport, url):
    transport = make_transport()

    with pytest.raises(ValueError, match="the URL must be absolute"):
        transport.request("GET", url)

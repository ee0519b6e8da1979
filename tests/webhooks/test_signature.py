"""Launchpad's signature, checked on the raw bytes only, each refusal naming its cause."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from wadlclient import RestfulError
from wadlclient.webhooks import (
    BodyNotBytes,
    SignatureMismatch,
    SignatureMissing,
    WebhookSetupError,
    sign,
    verify,
)

BODY = b'{"ping": true}'
SECRET = "s3cret"


def test_sign_is_the_hmac_sha1_of_the_body_keyed_with_the_utf8_secret() -> None:
    expected = hmac.new(b"s\xc3\xa9cret", BODY, hashlib.sha1).hexdigest()

    assert sign(BODY, "sécret") == f"sha1={expected}"


def test_a_signed_body_verifies_whatever_the_header_names_case() -> None:
    for name in ("X-Hub-Signature", "x-hub-signature", "X-HUB-SIGNATURE"):
        verify(BODY, {name: sign(BODY, SECRET)}, SECRET)


def test_headers_verify_as_asgi_pairs_and_as_a_wsgi_environ() -> None:
    signature = sign(BODY, SECRET)

    verify(BODY, [(b"x-hub-signature", signature.encode())], SECRET)
    verify(BODY, {"REQUEST_METHOD": "POST", "HTTP_X_HUB_SIGNATURE": signature}, SECRET)


def test_a_bytearray_or_memoryview_body_is_raw_bytes_too() -> None:
    headers = {"X-Hub-Signature": sign(BODY, SECRET)}

    verify(bytearray(BODY), headers, SECRET)
    verify(memoryview(BODY), headers, SECRET)


def test_a_tampered_body_is_a_mismatch_naming_the_likely_causes() -> None:
    headers = {"X-Hub-Signature": sign(BODY, SECRET)}

    with pytest.raises(SignatureMismatch) as caught:
        verify(BODY.replace(b"true", b"false"), headers, SECRET)

    message = str(caught.value)
    assert "secret differs" in message and "re-serialised" in message and "forged" in message
    assert SECRET not in message


def test_a_wrong_secret_is_a_mismatch() -> None:
    with pytest.raises(SignatureMismatch):
        verify(BODY, {"X-Hub-Signature": sign(BODY, "another")}, SECRET)


def test_a_signature_not_in_launchpads_form_is_a_mismatch() -> None:
    digest = hmac.new(SECRET.encode(), BODY, hashlib.sha256).hexdigest()

    with pytest.raises(SignatureMismatch, match="40 hex digits"):
        verify(BODY, {"X-Hub-Signature": f"sha256={digest}"}, SECRET)


def test_no_signature_says_the_webhook_may_have_no_secret() -> None:
    with pytest.raises(SignatureMissing, match="setSecret"):
        verify(BODY, {"Content-Type": "application/json"}, SECRET)


@pytest.mark.parametrize(
    ("body", "cause"),
    [
        (json.loads(BODY), "a dict: the body was parsed as JSON"),
        ([1], "a list: the body was parsed as JSON"),
        (BODY.decode(), "a str: the body was decoded"),
        (None, "a NoneType"),
    ],
)
def test_anything_but_bytes_is_refused_naming_the_re_serialised_body(
    body: object, cause: str
) -> None:
    headers = {"X-Hub-Signature": sign(BODY, SECRET)}

    with pytest.raises(BodyNotBytes) as caught:
        verify(body, headers, SECRET)  # type: ignore[arg-type]

    assert cause in str(caught.value)
    assert "raw bytes" in str(caught.value)
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, RestfulError)


def test_sign_refuses_a_dict_too() -> None:
    with pytest.raises(BodyNotBytes):
        sign({"ping": True}, SECRET)  # type: ignore[arg-type]


@pytest.mark.parametrize("secret", ["", b"", "x" * 200])
def test_an_empty_or_too_long_secret_is_a_setup_error(secret: str | bytes) -> None:
    with pytest.raises(WebhookSetupError):
        sign(BODY, secret)

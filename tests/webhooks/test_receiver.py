"""`Receiver`: verify, then parse, then claim the delivery; each refusal one clear error."""

from __future__ import annotations

import pytest

from wadlclient.webhooks import (
    MalformedDelivery,
    PingEvent,
    Receiver,
    ReplayedDelivery,
    SignatureMismatch,
    WebhookSetupError,
    sign,
)

SECRET = "s3cret"
BODY = b'{"ping": true}'


def headers(delivery: str = "1", body: bytes = BODY, secret: str = SECRET) -> dict[str, str]:
    return {
        "X-Launchpad-Event-Type": "ping",
        "X-Launchpad-Delivery": delivery,
        "X-Hub-Signature": sign(body, secret),
    }


def test_a_forged_delivery_does_not_use_up_the_genuine_ones_id() -> None:
    receiver = Receiver(SECRET)

    with pytest.raises(SignatureMismatch):
        receiver.receive(BODY, headers("7", secret="guessed"))
    event = receiver.receive(BODY, headers("7"))

    assert isinstance(event, PingEvent) and event.delivery_id == "7"


def test_a_second_delivery_of_an_id_is_a_replay_naming_it() -> None:
    receiver = Receiver(SECRET)
    receiver.receive(BODY, headers("7"))

    replay = r"delivery 7 \(ping\) was received before"
    with pytest.raises(ReplayedDelivery, match=replay) as caught:
        receiver.receive(BODY, headers("7"))

    assert caught.value.delivery_id == "7" and caught.value.status == 409


def test_forget_lets_a_delivery_in_again() -> None:
    receiver = Receiver(SECRET)
    event = receiver.receive(BODY, headers("7"))

    receiver.forget(event)

    assert receiver.receive(BODY, headers("7")).delivery_id == "7"


@pytest.mark.parametrize("missing", ["X-Launchpad-Event-Type", "X-Launchpad-Delivery"])
def test_a_delivery_without_a_launchpad_header_is_malformed_naming_it(missing: str) -> None:
    given = headers()
    del given[missing]

    with pytest.raises(MalformedDelivery, match=f"no {missing} header"):
        Receiver(SECRET).receive(BODY, given)


def test_a_body_over_max_body_is_refused_before_anything_reads_it() -> None:
    body = b'{"ping": true, "padding": "' + b"x" * 100 + b'"}'

    with pytest.raises(MalformedDelivery, match="over this receiver's max_body"):
        Receiver(SECRET, max_body=100).receive(body, headers(body=body))


def test_a_receiver_needs_a_secret_and_never_shows_it() -> None:
    with pytest.raises(WebhookSetupError, match="secret is empty"):
        Receiver("")

    assert SECRET not in repr(Receiver(SECRET))

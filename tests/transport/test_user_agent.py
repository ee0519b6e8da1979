"""The User-Agent: the client's product token first, then the application, then params."""

from __future__ import annotations

import pytest

from wadlclient import __version__


def test_user_agent_is_the_product_token_when_nothing_else_is_given(scripted, make_transport):
    transport = make_transport()

    transport.request("GET", scripted.url + "/echo")

    assert scripted.requests()[0].headers["user-agent"] == f"wadlclient/{__version__}"


def test_base_client_name_follows_the_product_token(scripted, make_transport):
    transport = make_transport(base_client_name="recipe-sync/2.1")

    transport.request("GET", scripted.url + "/echo")

    agent = scripted.requests()[0].headers["user-agent"]
    assert agent == f"wadlclient/{__version__} recipe-sync/2.1"


def test_authorizer_params_are_appended_in_sorted_key_order(
    scripted, make_transport, authorizer_with_params
):
    authorizer = authorizer_with_params({"oauth_consumer": "key1", "application": "Cook"})
    transport = make_transport(authorizer=authorizer)

    transport.request("GET", scripted.url + "/echo")

    agent = scripted.requests()[0].headers["user-agent"]
    assert agent == f'wadlclient/{__version__}; application="Cook"; oauth_consumer="key1"'


def test_user_agent_property_is_the_header_sent(scripted, make_transport, authorizer_with_params):
    transport = make_transport(
        authorizer=authorizer_with_params({"oauth_consumer": "k"}), base_client_name="app"
    )

    transport.request("GET", scripted.url + "/echo")

    assert scripted.requests()[0].headers["user-agent"] == transport.user_agent


def test_quotes_in_a_param_value_are_escaped(make_transport, authorizer_with_params):
    transport = make_transport(authorizer=authorizer_with_params({"application": 'say "hi"'}))

    assert transport.user_agent.endswith('; application="say \\"hi\\""')


def test_a_non_ascii_param_value_is_rfc2231_encoded(
    scripted, make_transport, authorizer_with_params
):
    transport = make_transport(authorizer=authorizer_with_params({"application": "Café"}))

    transport.request("GET", scripted.url + "/echo")

    agent = scripted.requests()[0].headers["user-agent"]
    assert agent.endswith("; application*=utf-8''Caf%C3%A9")


@pytest.mark.parametrize(
    ("name", "params"),
    [("app\r\nX-Injected: 1", {}), ("app", {"application": "a\nb"})],
    ids=["base_client_name", "param_value"],
)
def test_header_injection_is_refused_with_a_clear_error(
    make_transport, authorizer_with_params, name, params
):
    with pytest.raises(ValueError, match="control characters"):
        make_transport(base_client_name=name, authorizer=authorizer_with_params(params))


def test_the_authorizer_is_exposed_read_only(make_transport, recording_authorizer):
    transport = make_transport(authorizer=recording_authorizer)

    assert transport.authorizer is recording_authorizer
    with pytest.raises(AttributeError):
        transport.authorizer = None

"""The User-Agent header: the client's product token first, then the application's."""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping

from wadlclient._version import __version__

__all__ = ["build_user_agent"]


def _check_header_text(what: str, text: str) -> None:
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text):
        raise ValueError(f"{what} must not contain control characters (such as a newline)")


def _user_agent_param(key: str, value: str) -> str:
    """One ``; key="value"`` item, RFC 2231-encoded when the value is not ASCII."""
    _check_header_text("a User-Agent parameter name", key)
    _check_header_text("a User-Agent parameter value", value)
    if not key or not key.isascii() or any(ch in key for ch in ' ;="\\'):
        raise ValueError(f"invalid User-Agent parameter name {key!r}")
    if value.isascii():
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'; {key}="{escaped}"'
    return f"; {key}*=utf-8''{urllib.parse.quote(value, safe='')}"


def build_user_agent(base_client_name: str, params: Mapping[str, str]) -> str:
    """``wadlclient/<version>``, then the application's name, then sorted params.

    lazr.restfulclient puts the application's name first and itself in a
    comment; the specification wants the client's product token first, so
    the application's token follows it.
    """
    _check_header_text("base_client_name", base_client_name)
    if not base_client_name.isascii():
        raise ValueError("base_client_name must be ASCII (it goes into the User-Agent header)")
    agent = f"wadlclient/{__version__}"
    if base_client_name.strip():
        agent += " " + base_client_name.strip()
    for key in sorted(params):
        agent += _user_agent_param(key, params[key])
    return agent

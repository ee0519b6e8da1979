"""Named-operation arguments from a POST body: url-encoded or multipart/form-data.

Multipart parts that carry a ``filename`` are binary and stay bytes; other
parts are UTF-8 text. Field names arrive percent-quoted (as lazr's wadllib
and wadlclient send them) and are unquoted.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"

FormValue = str | bytes


class FormError(ValueError):
    """The body does not parse as the form its Content-Type announces."""


def _parameters(header: str) -> tuple[str, dict[str, str]]:
    """A header's main value (lower-cased) and its ``;``-separated parameters."""
    main, *rest = header.split(";")
    params: dict[str, str] = {}
    for item in rest:
        key, _, value = item.strip().partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        params[key.strip().lower()] = value
    return main.strip().lower(), params


def parse_form(content_type: str | None, body: bytes) -> dict[str, FormValue] | None:
    """The form fields, or None when the body is not a form at all."""
    media_type, params = _parameters(content_type or "")
    if media_type == FORM:
        try:
            return dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
        except UnicodeDecodeError:
            raise FormError("The form body is not UTF-8.") from None
    if media_type == MULTIPART:
        boundary = params.get("boundary")
        if not boundary:
            raise FormError("A multipart/form-data body needs a boundary.")
        return _multipart(body, boundary.encode("latin-1"))
    return None


def _multipart(body: bytes, boundary: bytes) -> dict[str, FormValue]:
    sections = body.split(b"--" + boundary)
    if len(sections) < 3:
        raise FormError("The multipart body has no parts.")
    fields: dict[str, FormValue] = {}
    for section in sections[1:]:
        if section.startswith(b"--"):
            return fields
        head, separator, value = section.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        if not separator:
            raise FormError("A multipart part has no header/body separator.")
        value = value.removesuffix(b"\r\n")
        disposition = ""
        for line in head.split(b"\r\n"):
            name, _, header_value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-disposition":
                disposition = header_value
        kind, params = _parameters(disposition)
        if kind != "form-data" or "name" not in params:
            raise FormError("A multipart part lacks Content-Disposition: form-data; name=...")
        if "filename" in params:
            fields[unquote(params["name"])] = value
        else:
            try:
                fields[unquote(params["name"])] = value.decode("utf-8")
            except UnicodeDecodeError:
                raise FormError(f"The part {params['name']!r} is not UTF-8 text.") from None
    raise FormError("The multipart body has no closing boundary.")

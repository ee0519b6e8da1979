"""Bad input: a WADLError naming the document and what is wrong, nothing else."""

from __future__ import annotations

import pytest

from wadlclient.errors import WADLError
from wadlclient.wadl import parse_wadl

WADL_OPEN = b'<application xmlns="http://research.sun.com/wadl/2006/10">'

URL = "http://example.test/1.0/"


@pytest.mark.parametrize("data", [b"", b"   \n\t", ""])
def test_empty_document_is_refused(data: bytes | str) -> None:
    with pytest.raises(WADLError, match=f"^{URL}: empty document$"):
        parse_wadl(data, url=URL)


def test_truncated_document_names_url_line_and_column(launchpad_wadl_bytes: bytes) -> None:
    truncated = launchpad_wadl_bytes[: len(launchpad_wadl_bytes) // 2]

    with pytest.raises(WADLError) as caught:
        parse_wadl(truncated, url=URL)

    message = str(caught.value)
    assert message.startswith(f"{URL}: malformed XML at line ")
    assert ", column " in message


def test_not_xml_at_all_is_malformed() -> None:
    with pytest.raises(WADLError, match=r"malformed XML at line 1, column 0: syntax error"):
        parse_wadl(b"hello, world", url=URL)


def test_undefined_entity_is_malformed() -> None:
    data = WADL_OPEN + b"<doc>&nope;</doc></application>"

    with pytest.raises(WADLError, match="undefined entity"):
        parse_wadl(data)


def test_html_is_not_wadl() -> None:
    with pytest.raises(WADLError, match=r"not a WADL document: the root element is <html>"):
        parse_wadl(b"<html><body>Service unavailable</body></html>", url=URL)


def test_application_outside_the_wadl_namespace_is_not_wadl() -> None:
    with pytest.raises(WADLError, match=r"<application> in no namespace"):
        parse_wadl(b"<application/>")


def test_without_a_url_the_message_says_wadl_document() -> None:
    with pytest.raises(WADLError, match=r"^WADL document: "):
        parse_wadl(b"<html/>")


def test_param_without_a_name_is_refused() -> None:
    data = (
        WADL_OPEN + b'<representation id="r"><param style="plain"/></representation></application>'
    )

    with pytest.raises(WADLError, match="<param> has no name"):
        parse_wadl(data)


def test_bad_response_status_is_refused() -> None:
    data = WADL_OPEN + b'<method name="GET"><response status="ok"/></method></application>'

    with pytest.raises(WADLError, match="bad response status 'ok'"):
        parse_wadl(data)


def test_reference_to_a_missing_method_is_refused() -> None:
    data = WADL_OPEN + b'<resource_type id="t"><method href="#gone"/></resource_type></application>'

    with pytest.raises(WADLError, match="no method '#gone'"):
        parse_wadl(data)


def test_invalid_utf16_is_refused() -> None:
    with pytest.raises(WADLError, match="undecodable"):
        parse_wadl(b"\xff\xfe<\x00\x00\xd8")


def test_an_object_that_is_not_text_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="bytes or str, not int"):
        parse_wadl(42)  # type: ignore[arg-type]

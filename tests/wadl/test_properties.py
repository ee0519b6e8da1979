"""Property tests: whatever the input, parse_wadl and load_model fail only as documented."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wadlclient.errors import WADLError
from wadlclient.wadl import Application, parse_wadl
from wadlclient.wadl.store import dump_model, load_model

SMALL = b"""<?xml version="1.0"?>
<!DOCTYPE application [<!ENTITY nbsp "&#160;">]>
<application xmlns="http://research.sun.com/wadl/2006/10">
  <doc>Small&nbsp;service</doc>
  <resources base="http://example.test/"><resource path="" type="#root"/></resources>
  <resource_type id="root">
    <method name="GET" id="root-get">
      <request><param name="ws.op" fixed="op"/><param name="x" type="xsd:int"/></request>
      <response status="200"><representation href="#root-json"/></response>
    </method>
  </resource_type>
  <representation id="root-json" mediaType="application/json">
    <param style="plain" name="a_link" path="$['a_link']"><link resource_type="#root"/></param>
  </representation>
</application>
"""


def parse_or_error(data: bytes) -> Application | WADLError:
    try:
        return parse_wadl(data)
    except WADLError as exc:
        return exc


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_parse_or_raise_wadl_error(data: bytes) -> None:
    assert isinstance(parse_or_error(data), (Application, WADLError))


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=len(SMALL) - 1), st.binary(min_size=1, max_size=8))
def test_damaged_wadl_parses_or_raises_wadl_error(position: int, junk: bytes) -> None:
    data = SMALL[:position] + junk + SMALL[position + len(junk) :]

    assert isinstance(parse_or_error(data), (Application, WADLError))


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_random_text_parses_or_raises_wadl_error(text: str) -> None:
    assert isinstance(
        parse_or_error(text.encode("utf-8", "surrogatepass")), (Application, WADLError)
    )


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0), st.integers(min_value=1, max_value=255))
def test_any_single_byte_damage_to_a_model_blob_gives_none(position: int, flip: int) -> None:
    blob = bytearray(dump_model(parse_wadl(SMALL)))
    blob[position % len(blob)] ^= flip

    assert load_model(bytes(blob)) is None


def test_small_document_round_trips_through_the_model_blob() -> None:
    app = parse_wadl(SMALL)

    assert load_model(dump_model(app)) == app
    assert app.docs == ("Small service",)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_random_str_parses_or_raises_wadl_error(text: str) -> None:
    try:
        result: Application | WADLError = parse_wadl(text)
    except WADLError as exc:
        result = exc

    assert isinstance(result, (Application, WADLError))

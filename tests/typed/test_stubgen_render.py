"""How stubgen writes names and docstrings: valid Python whatever the WADL's text says."""

from __future__ import annotations

import ast

import pytest

from wadlclient.stubgen.plan import camel, is_name
from wadlclient.stubgen.render import LIMIT, docstring


@pytest.mark.parametrize(
    "doc",
    [
        'Ends with a quote: "x"',
        'Holds """triple quotes""" and a backslash \\ in the middle',
        "Non-ASCII punctuation \u2013 \u201cquoted\u201d \u2019 and a caf\u00e9",
        "A long one " + "word " * 60 + "https://example.com/" + "x" * 120,
    ],
)
def test_a_docstring_reads_back_as_the_wadl_text_with_spaces_collapsed(doc: str) -> None:
    lines = docstring(doc, "    ")
    source = "def f() -> None:\n" + "\n".join(lines) + "\n"

    read = ast.get_docstring(ast.parse(source).body[0], clean=False)

    assert read is not None
    assert " ".join(read.split()) == " ".join(doc.split())
    assert all(len(line) <= LIMIT or " " not in line.strip() for line in lines)
    assert all(ord(char) < 128 for line in lines for char in line if not char.isalpha())


def test_type_ids_become_class_names() -> None:
    assert camel("distro_series") == "DistroSeries"
    assert camel("service-root") == "ServiceRoot"
    assert camel("bug_task-page-resource") == "BugTaskPageResource"
    assert camel("3d_model") == "T3dModel"


def test_keywords_and_dotted_names_are_not_written_as_attributes() -> None:
    assert is_name("getByName")
    assert not is_name("from")
    assert not is_name("ws.op")

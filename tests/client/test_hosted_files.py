"""Hosted files: read (following the 303), write (PUT on close), delete."""

from __future__ import annotations

import pytest

from cookbook_service.testing import COOKBOOK_WITHOUT_COVER, RunningService
from wadlclient import NotFound, ServiceRoot

from .conftest import clear_journal, journal_entries

IMAGE = b"Pretend this is an image."


def test_a_missing_file_is_not_found(root: ServiceRoot) -> None:
    cover = root.cookbooks[COOKBOOK_WITHOUT_COVER].cover

    with pytest.raises(NotFound):
        cover.open()


def test_writing_puts_the_bytes_with_their_media_type_on_close(
    root: ServiceRoot, service: RunningService, version: str
) -> None:
    cover = root.cookbooks[COOKBOOK_WITHOUT_COVER].cover
    clear_journal(service)

    handle = cover.open("w", "image/png", "a-cover.png")
    handle.write(IMAGE)
    assert journal_entries(service) == []
    handle.close()

    assert [(e.method, e.path, e.status) for e in journal_entries(service)] == [
        ("PUT", f"/{version}/cookbooks/Everyday%20Greens/cover", 200)
    ]


def test_reading_follows_the_redirect_to_the_bytes(root: ServiceRoot) -> None:
    cover = root.cookbooks[COOKBOOK_WITHOUT_COVER].cover
    with cover.open("w", "image/png", "a-cover.png") as handle:
        handle.write(IMAGE)

    handle = cover.open()

    assert handle.read() == IMAGE
    assert handle.content_type == "image/png"
    assert handle.filename


def test_delete_removes_the_file(root: ServiceRoot) -> None:
    cover = root.cookbooks[COOKBOOK_WITHOUT_COVER].cover
    with cover.open("w", "image/png", "a-cover.png") as handle:
        handle.write(IMAGE)

    cover.delete()

    with pytest.raises(NotFound):
        cover.open()


def test_hosted_files_are_equal_when_they_have_the_same_url(root: ServiceRoot) -> None:
    cover = root.cookbooks[COOKBOOK_WITHOUT_COVER].cover

    assert cover == root.cookbooks[COOKBOOK_WITHOUT_COVER].cover
    assert cover != root.cookbooks["The Joy of Cooking"].cover
    assert cover != None  # noqa: E711


@pytest.mark.parametrize(
    ("mode", "content_type", "filename", "message"),
    [
        ("r+", None, None, "Invalid mode"),
        ("w", None, None, "must specify content_type"),
        ("w", "image/png", None, "must specify filename"),
        ("r", "image/png", None, "can't specify content_type"),
        ("r", None, "foo.png", "can't specify filename"),
        ("w", "image/png", "bad\r\nname", "control characters"),
    ],
)
def test_bad_open_arguments_are_value_errors_before_any_request(
    root: ServiceRoot,
    service: RunningService,
    mode: str,
    content_type: str | None,
    filename: str | None,
    message: str,
) -> None:
    cover = root.cookbooks(COOKBOOK_WITHOUT_COVER).cover
    clear_journal(service)

    with pytest.raises(ValueError, match=message):
        cover.open(mode, content_type, filename)

    assert journal_entries(service) == []


def test_a_hosted_file_reads_back_the_file_name_it_was_written_with(
    root: ServiceRoot,
) -> None:
    cover = root.cookbooks[COOKBOOK_WITHOUT_COVER].cover
    with cover.open("w", content_type="image/png", filename="Couverture française.png") as out:
        out.write(b"png bytes")

    with cover.open() as back:
        assert back.filename == "Couverture française.png"
        assert back.read() == b"png bytes"


@pytest.mark.parametrize(("content_type", "filename"), [(None, None), ("image/png", None)])
def test_a_buffer_whose_arguments_were_refused_uploads_nothing_when_collected(
    root: ServiceRoot,
    service: RunningService,
    monkeypatch: pytest.MonkeyPatch,
    content_type: str | None,
    filename: str | None,
) -> None:
    """io's finalizer closes even a buffer whose __init__ raised; closing it must not PUT
    (nor fail on the attributes __init__ never set: Python 3.13 reports that as unraisable)."""
    import gc
    import sys

    unraisable: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    cover = root.cookbooks(COOKBOOK_WITHOUT_COVER).cover
    clear_journal(service)

    with pytest.raises(ValueError) as refused:
        cover.open("w", content_type, filename)
    del refused
    gc.collect()

    assert unraisable == []
    assert journal_entries(service) == []

"""A cookbook's cover: 404 when unset, PUT stores, GET is 303 to the bytes, DELETE."""

from __future__ import annotations

import httpx

from cookbook_service.testing import COOKBOOK_WITHOUT_COVER, RunningService


def _cover_url(service: RunningService) -> str:
    return service.url(f"cookbooks/{COOKBOOK_WITHOUT_COVER.replace(' ', '%20')}/cover")


def test_unset_cover_is_404(cookbook_service: RunningService, web: httpx.Client) -> None:
    assert web.get(_cover_url(cookbook_service)).status_code == 404


def test_put_cover_then_get_redirects_303_to_the_bytes_with_their_media_type(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = _cover_url(cookbook_service)
    image = b"\x89PNG\r\n\x00\xe2\xe3"

    stored = web.put(url, content=image, headers={"Content-Type": "image/png"})
    redirect = web.get(url)
    data = web.get(redirect.headers["Location"])

    assert stored.status_code == 200
    assert redirect.status_code == 303
    assert data.content == image
    assert data.headers["Content-Type"] == "image/png"
    assert "Last-Modified" in data.headers


def test_cover_bytes_answer_304_to_a_conditional_get(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = _cover_url(cookbook_service)
    web.put(url, content=b"img", headers={"Content-Type": "image/gif"})
    file_url = web.get(url).headers["Location"]
    etag = web.get(file_url).headers["ETag"]

    response = web.get(file_url, headers={"If-None-Match": etag})

    assert response.status_code == 304


def test_a_new_cover_gets_a_new_file_url(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = _cover_url(cookbook_service)
    web.put(url, content=b"one", headers={"Content-Type": "image/png"})
    first = web.get(url).headers["Location"]

    web.put(url, content=b"two", headers={"Content-Type": "image/png"})

    second = web.get(url).headers["Location"]
    assert first != second
    assert web.get(second).content == b"two"


def test_delete_cover_makes_it_404_again(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = _cover_url(cookbook_service)
    web.put(url, content=b"img", headers={"Content-Type": "image/png"})

    response = web.delete(url)

    assert response.status_code == 200
    assert web.get(url).status_code == 404


def test_put_cover_without_content_type_is_400_and_stores_nothing(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = _cover_url(cookbook_service)

    response = web.put(url, content=b"img", headers={"Content-Type": ""})

    assert response.status_code == 400
    assert web.get(url).status_code == 404


def test_the_file_name_given_at_put_names_the_bytes_url_and_their_disposition(
    cookbook_service: RunningService, web: httpx.Client
) -> None:
    url = _cover_url(cookbook_service)
    disposition = (
        'attachment; filename="Couverture fran?aise.png"; '
        "filename*=UTF-8''Couverture%20fran%C3%A7aise.png"
    )

    web.put(
        url,
        content=b"img",
        headers={"Content-Type": "image/png", "Content-Disposition": disposition},
    )
    location = web.get(url).headers["Location"]
    data = web.get(location)

    assert location.endswith("/Couverture%20fran%C3%A7aise.png")
    assert "filename*=UTF-8''Couverture%20fran%C3%A7aise.png" in data.headers["Content-Disposition"]

"""Finding 6: a password in the service URL logs in with Basic and appears nowhere else."""

from __future__ import annotations

import base64
import logging
from pathlib import Path

import pytest
from tests.hostile.server import HostileServer

from wadlclient import BasicHttpAuthorizer, ServiceRoot

PASSWORD = "PW-s3cret"


def test_user_info_in_the_service_url_logs_in_and_is_kept_out_of_reprs_logs_and_files(
    hostile: HostileServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    hostile.serve_root()
    caplog.set_level(logging.DEBUG)
    with_user = hostile.url.replace("http://", f"http://ada:{PASSWORD}@")

    with ServiceRoot(None, with_user, cache=tmp_path, version="1.0") as root:
        shown = repr(root) + repr(root.recipes) + root.service_root

    token = base64.b64encode(f"ada:{PASSWORD}".encode()).decode()
    assert [hit.headers.get("authorization") for hit in hostile.journal()] == [
        f"Basic {token}",
        f"Basic {token}",
    ]
    assert PASSWORD not in shown
    assert not any(PASSWORD in record.getMessage() for record in caplog.records)
    assert not any(PASSWORD in path.name for path in tmp_path.iterdir())


def test_user_info_and_an_authorizer_together_are_refused(hostile: HostileServer) -> None:
    with_user = hostile.url.replace("http://", f"http://ada:{PASSWORD}@")

    with pytest.raises(ValueError, match="pass only one") as caught:
        ServiceRoot(BasicHttpAuthorizer("bob", "x"), with_user, version="1.0")

    assert PASSWORD not in str(caught.value)

"""``python -m cookbook_service``: serving, options, and the credential commands."""

from __future__ import annotations

import base64
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from cookbook_service.__main__ import main
from cookbook_service.testing import PUBLIC_RECIPE_COUNT, run_service


def _basic(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_help_documents_the_options_and_the_credential_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])

    text = capsys.readouterr().out
    for word in (
        "--auth",
        "--page-size",
        "--seed-recipes",
        "--latency-ms",
        "--db",
        "add-user",
        "add-consumer",
        "add-token",
    ):
        assert word in text


def test_add_user_stores_a_user_the_served_database_accepts(
    tmp_path: Path, web: httpx.Client
) -> None:
    db = str(tmp_path / "cookbook.sqlite")

    assert main(["add-user", "carol", "pa55", "--db", db]) == 0

    with run_service(auth="basic", db=db) as service:
        assert web.get(service.url("recipes"), headers=_basic("carol", "pa55")).status_code == 200
        assert web.get(service.url("recipes"), headers=_basic("carol", "no")).status_code == 401


def test_add_consumer_and_token_store_oauth_credentials(tmp_path: Path, web: httpx.Client) -> None:
    db = str(tmp_path / "cookbook.sqlite")
    main(["add-consumer", "app", "--db", db])

    main(["add-token", "app", "tk", "ts", "--db", db])

    header = (
        'OAuth realm="cookbook", oauth_consumer_key="app", oauth_token="tk", '
        'oauth_signature_method="PLAINTEXT", oauth_signature="%26ts"'
    )
    with run_service(auth="oauth", db=db) as service:
        response = web.get(service.url("recipes"), headers={"Authorization": header})
        assert response.status_code == 200


def test_the_database_file_keeps_its_passwords_hashed(tmp_path: Path) -> None:
    db = tmp_path / "cookbook.sqlite"

    main(["add-user", "dave", "plain-text-password", "--db", str(db)])

    stored = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    assert b"plain-text-password" not in stored


def test_serve_answers_on_the_given_port_with_latency(web: httpx.Client) -> None:
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cookbook_service",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--latency-ms",
            "150",
            "--page-size",
            "2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/1.0/recipes"
        deadline = time.monotonic() + 15
        while True:
            try:
                web.get(url)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the service did not start"
                time.sleep(0.05)
        started = time.monotonic()
        page = web.get(url).json()
        elapsed = time.monotonic() - started
    finally:
        process.terminate()
        process.wait(10)

    assert len(page["entries"]) == 2
    assert page["total_size"] == PUBLIC_RECIPE_COUNT
    assert elapsed >= 0.15


def test_latency_option_delays_every_answer(
    cookbook_service_factory: Any, web: httpx.Client
) -> None:
    service = cookbook_service_factory(latency_ms=100)

    started = time.monotonic()
    web.get(service.url("nowhere"))
    elapsed = time.monotonic() - started

    assert elapsed >= 0.1


def test_seeding_ten_thousand_recipes_takes_seconds_not_minutes(tmp_path: Path) -> None:
    from cookbook_service.store import Store

    started = time.monotonic()
    store = Store(str(tmp_path / "big.sqlite"), seed_recipes=10_000)
    elapsed = time.monotonic() - started

    _rows, total = store.recipes(0, 1, sees_private=True)
    store.close()
    assert total == 10_000 + PUBLIC_RECIPE_COUNT + 1
    assert elapsed < 5


def test_the_pytest_plugin_loads_without_the_server_extra() -> None:
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('starlette', 'uvicorn'):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import cookbook_service.testing\n"
    )

    result = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)

    assert result.returncode == 0, result.stderr.decode()


@pytest.mark.parametrize(
    "argv",
    [
        ["--port", "9123", "--page-size", "7", "serve"],
        ["serve", "--port", "9123", "--page-size", "7"],
        ["--port", "9123", "--page-size", "7"],
    ],
)
def test_serve_options_count_before_or_after_the_serve_command(argv: list[str]) -> None:
    from cookbook_service.__main__ import _parser

    options = _parser().parse_args(argv)

    assert (options.port, options.page_size, options.host) == (9123, 7, "127.0.0.1")

"""HTTPCache storage that keeps working: bad files, permissions, full disks, directories,
secrets, threads and logs.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import httpx
import pytest
from tests.cache.entries import JSON, URL, Clock, response, stored_file

from wadlclient.cache import CachedResponse, HTTPCache
from wadlclient.errors import CacheError


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00\xff garbage \x89PNG",
        b"status: 200\r\ncontent-type: application/json\r\n",  # cut inside the headers
        b'status: 200\r\ncontent-length: 100\r\n\r\n{"id": 1',  # cut inside the body
        b"HTTP/1.1 200 OK\r\n\r\n{}",  # not the cache layout
        b"status: abc\r\n\r\n{}",
        b"no colon here\r\n\r\n{}",
    ],
    ids=[
        "empty",
        "garbage",
        "truncated-headers",
        "truncated-body",
        "wrong-format",
        "bad-status",
        "bad-header",
    ],
)
def test_bad_file_is_a_miss_then_replaced(content: bytes) -> None:
    cache = HTTPCache(clock=Clock())
    stored_file(cache).write_bytes(content)

    assert cache.get(URL, JSON) is None
    cache.put(URL, JSON, response(), b'{"id": 1}')
    cached = cache.get(URL, JSON)
    assert cached is not None and cached.body == b'{"id": 1}'


def run_without_privileges(script: str, *args: str) -> str:
    """Run ``script`` in a process that file permissions apply to.

    Root ignores permission bits; when the tests run as root, the process
    is started without the capabilities that let it (via util-linux
    ``setpriv``), so the directory and file modes are enforced for real.
    """
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root and setpriv is missing: permissions cannot apply")
        prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner"]
    result = subprocess.run(
        [*prefix, sys.executable, "-c", textwrap.dedent(script), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_unreadable_file_is_a_miss(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path, clock=Clock())
    cache.put(URL, JSON, response(), b"{}")
    stored_file(cache).chmod(0)

    output = run_without_privileges(
        """
        import sys
        from wadlclient.cache import HTTPCache
        print(HTTPCache(sys.argv[1]).get(sys.argv[2], "application/json"))
        """,
        str(tmp_path),
        URL,
    )

    assert output.strip() == "None"


def test_read_only_directory_degrades_with_one_warning(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path / "cache", clock=Clock())
    cache.put(URL, JSON, response(), b"{}")
    cache.directory.chmod(0o555)

    try:
        output = run_without_privileges(
            """
            import logging, sys
            from wadlclient.cache import HTTPCache
            from wadlclient.headers import Headers
            from wadlclient.http.models import Response
            logging.basicConfig(level=logging.WARNING, stream=sys.stdout, format="%(message)s")
            cache = HTTPCache(sys.argv[1])
            for number in range(5):
                url = sys.argv[2] + str(number)
                cache.put(url, "application/json",
                          Response(200, "OK", Headers(), b"{}", url), b"{}")
            entry = cache.get(sys.argv[2], "application/json")
            print("existing entry still read:", entry is not None)
            """,
            str(cache.directory),
            URL,
        )
    finally:
        cache.directory.chmod(0o700)

    lines = output.splitlines()
    assert len([line for line in lines if "without caching" in line]) == 1
    assert lines[-1] == "existing entry still read: True"


def test_full_disk_degrades_with_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A full disk cannot be produced on demand here: os.write is patched to
    # fail as the kernel does when the device has no space left.
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response(), b"old")

    def no_space(descriptor: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", no_space)
    caplog.set_level(logging.WARNING, logger="wadlclient.cache")
    for _ in range(3):
        cache.put(URL, JSON, response({"ETag": '"v2"'}), b"new")
    monkeypatch.undo()

    assert [r.levelname for r in caplog.records if r.name == "wadlclient.cache"] == ["WARNING"]
    assert "no space left" in caplog.records[0].getMessage()
    assert cache.get(URL, JSON) is None  # the out-of-date entry went too
    assert [p.name for p in cache.directory.iterdir()] == []  # no temporary file left


def test_name_the_filesystem_rejects_degrades_without_raising(
    caplog: pytest.LogCaptureFixture,
) -> None:
    cache = HTTPCache(clock=Clock())
    caplog.set_level(logging.WARNING, logger="wadlclient.cache")

    cache.put("http://127.0.0.1/a\x00b", JSON, response(), b"{}")

    assert cache.get("http://127.0.0.1/a\x00b", JSON) is None
    assert len(caplog.records) == 1


def test_url_that_is_not_valid_unicode_is_stored_not_raised() -> None:
    cache = HTTPCache(clock=Clock())
    url = "http://127.0.0.1/1.0/cookbooks/\udc80"

    cache.put(url, JSON, response(), b"{}")

    cached = cache.get(url, JSON)
    assert cached is not None and cached.body == b"{}"


def test_path_that_is_a_file_is_a_cache_error(tmp_path: Path) -> None:
    existing = tmp_path / "not-a-dir"
    existing.write_text("x")

    with pytest.raises(CacheError, match="not a directory"):
        HTTPCache(existing)


# Directories and permissions


def test_directory_created_mode_0700(tmp_path: Path) -> None:
    old_umask = os.umask(0)
    try:
        cache = HTTPCache(tmp_path / "new" / "cache")
    finally:
        os.umask(old_umask)

    assert stat.S_IMODE(cache.directory.stat().st_mode) == 0o700


def test_files_created_mode_0600(tmp_path: Path) -> None:
    old_umask = os.umask(0)
    try:
        cache = HTTPCache(tmp_path, clock=Clock())
        cache.put(URL, JSON, response(), b"{}")
    finally:
        os.umask(old_umask)

    assert stat.S_IMODE(stored_file(cache).stat().st_mode) == 0o600


@pytest.mark.parametrize("kind", [str, os.fsencode, Path], ids=["str", "bytes", "PathLike"])
def test_directory_given_as_str_bytes_or_pathlike_persists(tmp_path: Path, kind: object) -> None:
    directory = tmp_path / "persist"
    first = HTTPCache(kind(str(directory)), clock=Clock())  # type: ignore[operator]
    first.put(URL, JSON, response(), b'{"id": 1}')
    first.close()

    second = HTTPCache(kind(str(directory)), clock=Clock())  # type: ignore[operator]

    assert second.directory == directory
    cached = second.get(URL, JSON)
    assert cached is not None and cached.body == b'{"id": 1}'


def test_private_temporary_directory_removed_by_close() -> None:
    cache = HTTPCache(clock=Clock())
    cache.put(URL, JSON, response(), b"{}")

    cache.close()

    assert not cache.directory.exists()
    assert cache.get(URL, JSON) is None


def test_private_temporary_directory_removed_at_interpreter_exit() -> None:
    script = textwrap.dedent(
        """
        from wadlclient.cache import HTTPCache
        from wadlclient.headers import Headers
        from wadlclient.http.models import Response
        url = "http://127.0.0.1/1.0/"
        cache = HTTPCache()
        cache.put(url, "application/json", Response(200, "OK", Headers(), b"{}", url), b"{}")
        assert any(cache.directory.iterdir())
        print(cache.directory)
        """
    )

    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )

    assert not Path(result.stdout.strip()).exists()


# Secrets


def test_credentials_never_reach_a_file() -> None:
    cache = HTTPCache(clock=Clock())
    secret = response(
        {
            "Authorization": 'OAuth oauth_signature="sekrit%26tokensekrit"',
            "Proxy-Authorization": "Basic c2Vrcml0",
            "Set-Cookie": "session=sekrit",
            "WWW-Authenticate": 'OAuth realm="sekrit"',
        }
    )

    cache.put(URL, JSON, secret, b"{}")
    cache.refresh(URL, JSON, httpx.Response(304, headers={"Set-Cookie": "session=sekrit2"}))

    content = stored_file(cache).read_bytes()
    assert b"sekrit" not in content
    assert b"authorization" not in content.lower()


def test_credentials_in_a_foreign_file_are_not_returned() -> None:
    cache = HTTPCache(clock=Clock())
    stored_file(cache).write_bytes(
        b'status: 200\r\nset-cookie: session=sekrit\r\netag: "v1"\r\n\r\n{}'
    )

    cached = cache.get(URL, JSON)

    assert cached is not None
    assert "set-cookie" not in cached.headers
    assert cached.headers["etag"] == '"v1"'


def test_repr_shows_no_body_or_headers() -> None:
    cached = CachedResponse(200, httpx.Headers({"ETag": '"v1"'}), b"private body")

    assert "private body" not in repr(cached)


# Threads and logging


def test_threads_sharing_one_cache_never_read_a_mixed_entry() -> None:
    cache = HTTPCache()
    failures: list[str] = []

    def worker(number: int) -> None:
        body = str(number).encode() * 5000
        for _ in range(100):
            cache.put(URL, JSON, response({"ETag": f'"{number}"'}), body)
            cached = cache.get(URL, JSON)
            if cached is None:
                failures.append("miss after write")
                continue
            writer = cached.headers["etag"].strip('"')
            if cached.body != writer.encode() * 5000:
                failures.append(f"body of another writer than {writer}")

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []


def test_debug_log_names_hits_misses_and_writes_without_header_values(
    caplog: pytest.LogCaptureFixture,
) -> None:
    cache = HTTPCache(clock=Clock())
    caplog.set_level(logging.DEBUG, logger="wadlclient.cache")

    cache.get(URL, JSON)
    cache.put(URL, JSON, response({"ETag": '"etag-value-42"'}), b"{}")
    cache.get(URL, JSON)

    messages = [r.getMessage() for r in caplog.records if r.name == "wadlclient.cache"]
    assert [m.split(":")[0] for m in messages] == ["cache miss", "cache write", "cache hit"]
    assert not any("etag-value-42" in m for m in messages)

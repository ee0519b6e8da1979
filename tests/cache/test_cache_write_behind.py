"""A cache writing behind: its own writes read back at once, everything on disk at exit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from wadlclient.cache import HTTPCache
from wadlclient.headers import Headers
from wadlclient.http.models import Response

JSON = "application/json"
URL = "http://127.0.0.1:8080/1.0/recipes/"


def _response(etag: str) -> Response:
    headers = Headers([("ETag", etag), ("Content-Type", JSON)])
    return Response(200, "OK", headers, b"", URL)


def test_a_cache_writing_behind_reads_its_own_writes_and_removals_at_once(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path, write_behind=True)

    for n in range(50):
        cache.put(f"{URL}{n}", JSON, _response(f'"{n}"'), b'{"id": %d}' % n)
    later = HTTPCache(tmp_path)
    cache.delete(f"{URL}7", JSON)

    assert [cache.get(f"{URL}{n}", JSON).body for n in (0, 49)] == [b'{"id": 0}', b'{"id": 49}']
    assert later.get(f"{URL}3", JSON).headers["etag"] == '"3"'
    assert cache.get(f"{URL}7", JSON) is None and later.get(f"{URL}7", JSON) is None
    cache.flush()
    assert (tmp_path / cache.filename(f"{URL}49", JSON)).read_bytes().endswith(b'{"id": 49}')
    assert not (tmp_path / cache.filename(f"{URL}7", JSON)).exists()


def test_flush_and_close_leave_every_entry_whole_on_disk(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path, write_behind=True)
    for n in range(200):
        cache.put(f"{URL}{n % 20}", JSON, _response(f'"{n}"'), b"x" * n)

    cache.close()

    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 20 and not any(name.startswith(".") for name in names)
    for n in range(180, 200):
        assert (tmp_path / cache.filename(f"{URL}{n % 20}", JSON)).read_bytes().endswith(b"x" * n)


def test_a_process_that_exits_normally_has_written_every_entry(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import sys
        from wadlclient.cache import HTTPCache
        from wadlclient.headers import Headers
        from wadlclient.http.models import Response

        cache = HTTPCache(sys.argv[1], write_behind=True)
        for n in range(300):
            headers = Headers([("ETag", '"%d"' % n), ("Content-Type", "application/json")])
            url = "{URL}%d" % n
            cache.put(url, "application/json", Response(200, "OK", headers, b"", url), b"%d" % n)
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}

    subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True, env=env, timeout=60)

    reader = HTTPCache(tmp_path)
    assert len(list(tmp_path.iterdir())) == 300
    assert all(reader.get(f"{URL}{n}", JSON).body == b"%d" % n for n in range(300))


def test_refresh_behind_writes_a_new_representation_through_and_never_under_an_older_refresh(
    tmp_path: Path,
) -> None:
    cache = HTTPCache(tmp_path, refresh_behind=True)
    url = f"{URL}1"
    path = tmp_path / cache.filename(url, JSON)
    cache.put(url, JSON, _response('"a"'), b"first")
    assert path.read_bytes().endswith(b"first")  # a new representation is written through

    cache.refresh(url, JSON, _response('"b"'))
    assert cache.get(url, JSON).headers["etag"] == '"b"'  # the revalidation, read back at once
    cache.put(url, JSON, _response('"c"'), b"second")
    cache.flush()

    assert path.read_bytes().endswith(b"second")
    assert HTTPCache(tmp_path).get(url, JSON).headers["etag"] == '"c"'


def test_the_background_writer_starts_again_after_it_went_idle(tmp_path: Path) -> None:
    cache = HTTPCache(tmp_path, write_behind=True)
    cache.put(f"{URL}1", JSON, _response('"1"'), b"one")
    deadline = time.monotonic() + 10
    while not (tmp_path / cache.filename(f"{URL}1", JSON)).exists():
        assert time.monotonic() < deadline, "the first entry was never written"
        time.sleep(0.01)
    time.sleep(1.5)  # longer than the writer waits for more work before it ends

    cache.put(f"{URL}2", JSON, _response('"2"'), b"two")

    second = tmp_path / cache.filename(f"{URL}2", JSON)
    while not second.exists():
        assert time.monotonic() < deadline + 5, "the writer did not start again"
        time.sleep(0.01)
    assert second.read_bytes().endswith(b"two")

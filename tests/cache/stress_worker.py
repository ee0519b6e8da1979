"""One process of the cache stress test (run by test_cache_stress.py, not collected).

Usage: stress_worker.py DIRECTORY SEED OPERATIONS [behind]; or `stress` in the test's own process.

With ``behind`` the cache writes behind (``HTTPCache(write_behind=True)``).

Puts and gets the same few keys in a shared directory. Every body is
self-checking: a random token repeated, then the SHA-256 of what precedes
it, and the ETag repeats that digest. Prints one line,
``ok <reads> <writes>`` or ``bad <reason>``, and exits 0 either way.
"""

from __future__ import annotations

import hashlib
import random
import sys

from wadlclient.cache import HTTPCache
from wadlclient.headers import Headers
from wadlclient.http.models import Response

KEYS = [f"http://127.0.0.1:8080/1.0/recipes/{n}" for n in range(3)]
JSON = "application/json"


def make_body(rng: random.Random) -> tuple[bytes, str]:
    token = rng.randbytes(8).hex().encode()
    payload = token * rng.randint(1, 1000)
    digest = hashlib.sha256(payload).hexdigest()
    return payload + digest.encode(), digest


def check(body: bytes, etag: str | None) -> str | None:
    payload, digest = body[:-64], body[-64:].decode("ascii", "replace")
    if hashlib.sha256(payload).hexdigest() != digest:
        return f"body digest mismatch ({len(body)} bytes)"
    if etag != f'"{digest}"':
        return "ETag does not belong to the body"
    return None


def stress(directory: str, seed: int, operations: int, behind: bool) -> str:
    """The process's line: ``ok <reads> <writes>`` or ``bad <reason>`` (the cache closed)."""
    cache = HTTPCache(directory, write_behind=behind)
    try:
        return _stress(cache, random.Random(seed), operations)
    finally:
        cache.close()


def _stress(cache: HTTPCache, rng: random.Random, operations: int) -> str:
    seen: set[str] = set()
    reads = writes = 0
    for _ in range(operations):
        url = rng.choice(KEYS)
        if rng.random() < 0.5:
            body, digest = make_body(rng)
            headers = Headers({"ETag": f'"{digest}"', "Content-Type": JSON})
            response = Response(200, "OK", headers, body, url)  # as the transport hands it over
            cache.put(url, JSON, response, body)
            seen.add(url)
            writes += 1
            continue
        cached = cache.get(url, JSON)
        reads += 1
        if cached is None:
            # Entries are only ever replaced, never removed: once this
            # process has written a key, a miss means a torn or bad file.
            if url in seen:
                return f"bad miss after write for {url}"
            continue
        seen.add(url)
        problem = check(cached.body, cached.headers.get("etag"))
        if problem is not None:
            return f"bad {problem}"
    return f"ok {reads} {writes}"


def main() -> None:
    directory, seed, operations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(stress(directory, seed, operations, sys.argv[4:] == ["behind"]))


if __name__ == "__main__":
    main()

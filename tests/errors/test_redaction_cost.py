"""Redaction compiles the held secrets' pattern only for a text that quotes one of them.

The secrets held change with every OAuth request (its nonce and signature
are held among the last few requests'), and every error redacts its reason
and body: compiling the pattern of twenty-odd forms costs about 5 ms, while
most error texts quote no secret at all.
"""

from __future__ import annotations

import re

import pytest

from wadlclient.redact import HIDDEN, hold, redacted, redacted_bytes


def test_a_text_that_quotes_no_held_secret_is_returned_without_compiling_a_pattern(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hold(["a-held-password", "a-held-token-secret"])
    compiled: list[object] = []
    compile_pattern = re.compile

    def counted(pattern: object, flags: int = 0) -> object:
        compiled.append(pattern)
        return compile_pattern(pattern, flags)  # type: ignore[call-overload]

    monkeypatch.setattr(re, "compile", counted)

    assert redacted("404 Not Found: no such recipe") == "404 Not Found: no such recipe"
    assert redacted_bytes(b"<html>not found</html>") == b"<html>not found</html>"
    assert compiled == []

    assert redacted("sent a-held-password") == f"sent {HIDDEN}"
    assert redacted("and a-held-token-secret") == f"and {HIDDEN}"
    assert len(compiled) == 1  # once for text, kept while the secrets held stay the same
    assert redacted_bytes(b"a-held-password") == HIDDEN.encode()

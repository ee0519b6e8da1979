"""Cache keys and file names, as lazr.restfulclient (httplib2) makes them.

The same resource gets the same file under both libraries, so a
launchpadlib user keeps a warm cache when moving over, and can move back.
"""

from __future__ import annotations

import functools
import re
import urllib.parse

from wadlclient.redact import HIDDEN, shown_url

__all__ = ["MAX_FILE_NAME_LENGTH", "cache_file_name", "cache_key", "idna_authority"]

#: The longest file name written: eCryptfs-safe, as lazr.restfulclient chose.
MAX_FILE_NAME_LENGTH = 143
_DIGEST_LENGTH = 32
_READABLE_LENGTH = MAX_FILE_NAME_LENGTH - _DIGEST_LENGTH - 1

_SCHEME = re.compile(rb"^\w+://", re.ASCII)
_SEPARATORS = re.compile(rb"[?/:|]+")
# RFC 3986, appendix B.
_URI = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?")


def cache_key(url: str, media_type: str) -> str:
    """The cache key of ``url`` fetched as ``media_type``: ``<url>-<media type>``.

    The URL is first normalised the way httplib2 does before it computes
    its keys (IDNA host, non-ASCII and spaces percent-encoded, scheme and
    authority lower-cased, an empty path read as ``/``, no fragment), so
    the same resource gets the same file under both libraries.
    """
    return f"{_normalise_url(url)}-{_percent_encode_non_ascii(media_type)}"


def cache_file_name(key: str) -> str:
    """The file name for a cache key, at most 143 characters.

    The scheme is dropped, every run of ``/ ? : |`` becomes ``,``, the
    readable part is cut so that the whole name fits, and ``,`` plus the
    MD5 of the complete key is appended: two keys cut to the same
    beginning still get different files.

    Names of keys without a query (the service root, entries being
    refreshed) are remembered; keys with one (collection pages, named
    operations) rarely repeat, and a walk over a big collection must not
    grow the process by one remembered name per page.
    """
    if "?" in key:
        return _file_name(key)
    return _remembered_file_name(key)


def _file_name(key: str) -> str:
    import hashlib  # loads OpenSSL: only once a cache is used

    raw = key.encode("utf-8")
    digest = hashlib.md5(raw, usedforsecurity=False).hexdigest()
    shown = shown_url(key).replace(HIDDEN, "_").encode("utf-8")
    readable = _SEPARATORS.sub(b",", _SCHEME.sub(b"", shown))[:_READABLE_LENGTH]
    name = f"{readable.decode('utf-8', 'ignore')},{digest}"
    if name.startswith("."):
        # Only a malformed URL gets here; the leading dot is reserved for
        # temporary files.
        name = "," + name[1:]
    return name


_remembered_file_name = functools.lru_cache(maxsize=256)(_file_name)


def _percent_encode_non_ascii(text: str) -> str:
    if text.isascii():
        return text
    return "".join(
        char
        if char.isascii()
        else "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
        for char in text
    )


def idna_authority(authority: str) -> str:
    """A host (with its port, if any) in ASCII: IDNA-encoded, or as it is when it cannot be."""
    if authority.isascii():
        return authority
    try:
        return authority.encode("idna").decode("ascii")
    except UnicodeError:
        return authority


def _normalise_url(url: str) -> str:
    if not url.isascii():
        parts = urllib.parse.urlsplit(url)
        url = urllib.parse.urlunsplit(parts._replace(netloc=idna_authority(parts.netloc)))
        url = _percent_encode_non_ascii(url)
    url = url.replace(" ", "%20").replace("\r", "%0D").replace("\n", "%0A")
    match = _URI.match(url)
    if match is None:  # pragma: no cover - the pattern matches every string
        return url
    scheme, authority, path, query = match.group(2), match.group(4), match.group(5), match.group(7)
    if not scheme or not authority:
        return url
    request_uri = f"{path or '/'}?{query}" if query else path or "/"
    return f"{scheme.lower()}://{authority.lower()}{request_uri}"

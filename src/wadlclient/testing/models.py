"""The model of each shipped WADL, kept beside the kit's bytecode: a fake starts without parsing.

Parsing Launchpad's devel WADL costs some 0.2 s of CPU in every process
that makes a fake of it (each worker of a test suite, each child a test
starts, each ``python -m wadlclient.testing serve``). The model that parse
builds is written once, in `wadlclient.wadl.store`'s format (loaded in a
few milliseconds, each object unpickled when first looked up), where
Python keeps the kit's bytecode: ``wadlclient/testing/__pycache__/``, or
below ``sys.pycache_prefix``. As with bytecode, nothing is written when
Python writes none (``PYTHONDONTWRITEBYTECODE``) or the directory is
read-only: each process then parses, as before. A file's name carries
the WADL's digest, the address it is read for, wadlclient's version, the
model's format and the size and modification time of the parser's
sources (as a ``.pyc`` records its source's), so a changed WADL or parser
never loads an old model; an older file of the same version is removed
when a new one is written, and a damaged one is parsed over.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import tempfile
from pathlib import Path

from wadlclient import schema
from wadlclient._version import __version__
from wadlclient.schema import Schema
from wadlclient.testing.wadls import LAUNCHPAD_VERSIONS, launchpad_wadl, shipped_version
from wadlclient.wadl import Application, parse_wadl
from wadlclient.wadl.digest import wadl_digest
from wadlclient.wadl.rebase import shape_of

__all__ = ["fake_schema", "model_directory", "warm_for"]

SUFFIX = ".wadl-model"


def model_directory() -> Path | None:
    """Where the models are kept: where Python writes the kit's bytecode."""
    here = Path(os.path.abspath(__file__)).parent
    if sys.pycache_prefix:
        return Path(sys.pycache_prefix).joinpath(*here.parts[1:])
    return here / "__pycache__"


def fake_schema(content: bytes, url: str) -> Schema:
    """The schema a fake of ``content`` serves, as `schema_for` gives it, read for ``url``.

    For a WADL the kit ships, the model comes from its file when one is kept,
    and is kept once parsed; any other WADL is parsed (once per process).
    """
    version = shipped_version(content)
    directory = model_directory() if version is not None else None
    if version is None or directory is None:
        return schema.schema_for(content, url, None)
    digest = wadl_digest(content)
    key = (url, digest)
    memo = schema.SCHEMAS
    known = memo.get(key)
    if known is not None:
        return known
    path = directory / f"launchpad-{version}.{_key(digest, url)}{SUFFIX}"
    app = _load(path, url)
    if app is None:
        made = schema.schema_for(content, url, None)
        _keep(path, made.app)
        return made
    shape = shape_of(content) if memo else None
    loaded = Schema(app, functools.partial(_reparse, content, url, path))
    memo.twins.remember(shape, app, content)
    memo.put(key, loaded)
    return loaded


def warm_for(content: bytes, url: str) -> None:
    """Have the model of ``content`` read from ``url`` ready in this process, if one is kept.

    For a WADL of the same shape as a shipped one (`wadlclient.wadl.rebase`:
    the same document published at another address, as a fake serves it):
    its kept model, rebased, is what parsing ``content`` would build. A
    replay (`wadlclient.testing.record`) calls this before it answers a
    recorded WADL, so the client reading it parses nothing. Without a kept
    model, nothing is done: the client parses, as it would have.
    """
    memo = schema.SCHEMAS
    key = (url, wadl_digest(content))
    directory = model_directory()
    shape = shape_of(content)
    if directory is None or shape is None or memo.get(key) is not None:
        return
    version = shape.base.rstrip("/").rsplit("/", 1)[-1]
    if version not in LAUNCHPAD_VERSIONS:
        return
    shipped = launchpad_wadl(version)
    published = shape_of(shipped)
    if published is None or published.digest != shape.digest:
        return
    path = directory / f"launchpad-{version}.{_key(wadl_digest(shipped), published.base)}{SUFFIX}"
    kept = _load(path, published.base)
    if kept is None:
        return
    app = kept._replace(url=url, base=shape.base)
    memo.twins.remember(shape, app)
    memo.put(key, Schema(app, functools.partial(parse_wadl, content, url)))


def _key(digest: str, url: str) -> str:
    """What a kept model depends on, in a few hex digits of a digest."""
    from wadlclient.wadl.store import MODEL_FORMAT_VERSION

    parts = [digest, url, __version__, str(MODEL_FORMAT_VERSION)]
    sources = Path(os.path.abspath(sys.modules["wadlclient.wadl"].__file__ or "")).parent
    with contextlib.suppress(OSError), os.scandir(sources) as found:
        for item in sorted(found, key=lambda item: item.name):
            if item.name.endswith(".py"):
                stat = item.stat()
                parts.append(f"{item.name}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:24]


def _load(path: Path, url: str) -> Application | None:
    """The model kept in ``path``, or None (no file, unreadable, damaged, or another URL's)."""
    from wadlclient.wadl.store import load_model

    try:
        data = path.read_bytes()
    except OSError:
        return None
    app = load_model(data)
    return app if app is not None and app.url == url else None


def _keep(path: Path, app: Application) -> None:
    """Write the model whole (a reader never sees half of it), unless Python writes no bytecode.

    The models an older WADL or parser left for the same version are removed.
    """
    if sys.dont_write_bytecode:
        return
    from wadlclient.wadl.store import dump_model

    version = path.name.split(".", 1)[0]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(dump_model(app))
            os.chmod(temporary, 0o644)  # as bytecode is: readable by all, not a private file
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        for old in path.parent.glob(f"{version}.*{SUFFIX}"):
            if old != path:
                with contextlib.suppress(OSError):
                    old.unlink()
    except OSError:
        return


def _reparse(content: bytes, url: str, path: Path) -> Application:
    """The model parsed again, replacing a kept one found damaged at a look-up."""
    app = parse_wadl(content, url)
    _keep(path, app)
    return app

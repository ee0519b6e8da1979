"""``wadlclient stubgen``: write a typed-access package for a service, from its WADL.

`wadlclient.cli` registers the command (its arguments, `run`) and turns
what `run` raises into the exit statuses of every command: a bad argument
(`argparse.ArgumentTypeError`: a name that is no module name, a missing
WADL file, an output directory whose parent is missing) exits 2.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from wadlclient.errors import WADLError
from wadlclient.stubgen.fixups import FIXUPS

if TYPE_CHECKING:
    from pathlib import Path

    from wadlclient.schema import Schema

# The planner, the renderer, the WADL parser, the service root (and pathlib, gzip) are
# imported where used: every ``wadlclient`` command line registers this command's
# arguments, and only ``wadlclient stubgen`` needs more.

__all__ = ["Package", "add_arguments", "generate", "load", "run", "write_package"]

#: The most a WADL file may hold, or a compressed one expand to (Launchpad's devel: 2.2 MB).
MAX_WADL_BYTES = 64 << 20

_DEFAULT_ROOT_TYPE = "service-root"
#: A package's files: name -> text.
Package = dict[str, str]


def load(source: str, version: str | None = "1.0", **options: Any) -> tuple[Schema, str]:
    """The schema of ``source`` and the id of its root resource type.

    A service address is read as a service root reads it (WADL, then the
    root's JSON; ``options`` are the `ServiceRoot`'s, e.g. ``timeout``);
    anything else is a WADL file.
    """
    from pathlib import Path

    from wadlclient.objects import ServiceRoot, session_of
    from wadlclient.schema import Schema
    from wadlclient.wadl import parse_wadl

    if _is_address(source):
        with ServiceRoot(None, source, version=version, **options) as root:
            session = session_of(root)
            return session.schema, session.root_type or _DEFAULT_ROOT_TYPE
    path = Path(source)
    app = parse_wadl(read_wadl_file(path), path.resolve().as_uri())
    return Schema(app), app.root_resource_type or _DEFAULT_ROOT_TYPE


def read_wadl_file(path: Path) -> bytes:
    """A saved WADL's bytes; a ``.gz`` file decompressed, to at most `MAX_WADL_BYTES`.

    Only a regular file is read (not a FIFO, which would block, nor a
    device), and none bigger than `MAX_WADL_BYTES` (`bounded_read`).
    """
    import os

    from wadlclient.bounded_read import FileRefused, open_regular, read_regular

    try:
        if path.suffix != ".gz":
            return read_regular(path, MAX_WADL_BYTES, "WADL").data
        descriptor, _ = open_regular(path, MAX_WADL_BYTES, "WADL")
    except FileRefused as error:
        raise WADLError(f"{path}: cannot be read ({error.reason})") from None
    import gzip
    import zlib

    with os.fdopen(descriptor, "rb") as raw, gzip.GzipFile(fileobj=raw) as unzipped:
        try:
            content = unzipped.read(MAX_WADL_BYTES + 1)
        except (OSError, EOFError, zlib.error) as error:
            raise WADLError(f"{path}: not a readable gzip file ({error})") from None
    if len(content) > MAX_WADL_BYTES:
        raise WADLError(f"{path}: expands to more than {MAX_WADL_BYTES} bytes; refused")
    return content


def generate(
    schema: Schema,
    root_type: str,
    name: str,
    *,
    untyped: str = "str",
    nullable: bool = False,
    fixups: str | None = None,
) -> Package:
    """The files of the typed-access package ``name`` (same WADL, same bytes).

    ``fixups`` names a table of `wadlclient.stubgen.fixups.FIXUPS`
    (``launchpad``); a field it names that the WADL lacks is a `WADLError`.
    """
    from wadlclient.stubgen.plan import ANY, plan_module
    from wadlclient.stubgen.render import render_runtime, render_stub

    kind = ANY if untyped == "any" else "str"
    table = FIXUPS[fixups] if fixups is not None else None
    if table is not None:
        missing = table.check(schema.app)
        if missing:
            raise WADLError(f"the {fixups} fixups name fields this WADL lacks: {missing}")
    plan = plan_module(schema, root_type, untyped=kind, nullable=nullable, fixups=table)
    command = f"wadlclient stubgen SOURCE --output DIR --name {name}"
    if untyped != "str":
        command += f" --untyped {untyped}"
    if nullable:
        command += " --nullable"
    if fixups is not None:
        command += f" --fixups {fixups}"
    docs = schema.app.docs
    title = docs[0] if docs else None
    return {
        "__init__.py": render_runtime(plan, title, command),
        "__init__.pyi": render_stub(plan, title, command),
        "py.typed": "",
    }


def write_package(directory: Path, name: str, files: Package) -> Path:
    """Write the package's files in ``directory/name``; return the package's directory."""
    package = directory / name
    package.mkdir(parents=True, exist_ok=True)
    for file_name, text in files.items():
        (package / file_name).write_text(text, encoding="utf-8")
    return package


#: One line of help, for ``wadlclient --help``.
HELP = "write a package of typed access to a service, from its WADL"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments (``wadlclient.cli`` registers the command with them)."""
    parser.add_argument(
        "source", metavar="SERVICE", help="a service address (http://...), or a saved WADL file"
    )
    parser.add_argument("--output", required=True, help="the directory to write the package in")
    parser.add_argument("--name", required=True, help="the package's name, e.g. cookbook_typed")
    parser.add_argument(
        "--api-version",
        default="1.0",
        help="for an address: the version path segment (default 1.0; 'none' if it has it)",
    )
    parser.add_argument(
        "--untyped",
        choices=("str", "any"),
        default="str",
        help="the type of fields the WADL gives no type (default str)",
    )
    parser.add_argument(
        "--nullable",
        action="store_true",
        help="type every field and link 'X | None', not only those the WADL says may be absent",
    )
    parser.add_argument(
        "--fixups",
        choices=sorted(FIXUPS),
        help="correct what this service's WADL is known to get wrong (fields it sends as null)",
    )


def run(args: argparse.Namespace, **options: Any) -> int:
    """Write the package ``args`` describe; return the exit status (0: written).

    ``options`` go to the `ServiceRoot` that reads a service address. A bad
    argument raises `argparse.ArgumentTypeError`; the service's and the
    WADL's errors are raised as they are.
    """
    from pathlib import Path

    from wadlclient.stubgen.plan import is_name

    if not is_name(args.name):
        raise argparse.ArgumentTypeError(f"--name {args.name!r} is not a module name")
    output = _output_directory(Path(args.output))
    source = args.source
    if not _is_address(source) and not Path(source).is_file():
        raise argparse.ArgumentTypeError(f"SERVICE {source!r}: no such address or WADL file")
    version = None if args.api_version == "none" else args.api_version
    try:
        schema, root_type = load(source, version, **options)
    except OSError as error:  # a WADL file that cannot be read
        raise argparse.ArgumentTypeError(f"SERVICE {source!r}: {error.strerror or error}") from None
    files = generate(
        schema, root_type, args.name,
        untyped=args.untyped, nullable=args.nullable, fixups=args.fixups,
    )  # fmt: skip
    try:
        package = write_package(output, args.name, files)
    except OSError as error:
        raise argparse.ArgumentTypeError(f"--output {args.output}: {error}") from None
    print(f"wrote {package}")
    return 0


def _is_address(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def _output_directory(output: Path) -> Path:
    """``output``, when it is a directory or can be made in one (`write_package` makes it):
    a mistyped parent is an error, not a new tree."""
    if output.is_dir():
        return output
    if output.exists():
        raise argparse.ArgumentTypeError(f"--output {output}: not a directory")
    if not output.parent.is_dir():
        raise argparse.ArgumentTypeError(
            f"--output {output}: no directory {output.parent} to make it in"
        )
    return output

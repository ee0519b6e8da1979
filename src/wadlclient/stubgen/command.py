"""``wadlclient stubgen``: write a typed-access package for a service, from its WADL."""

from __future__ import annotations

import argparse
import gzip
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

from wadlclient.errors import RestfulError, WADLError
from wadlclient.objects import ServiceRoot, session_of
from wadlclient.schema import Schema
from wadlclient.stubgen.fixups import FIXUPS
from wadlclient.stubgen.plan import ANY, is_name, plan_module
from wadlclient.stubgen.render import render_runtime, render_stub
from wadlclient.wadl import parse_wadl

__all__ = ["Package", "add_arguments", "generate", "load", "main", "run", "write_package"]

_DEFAULT_ROOT_TYPE = "service-root"
#: The most a compressed WADL file may expand to (Launchpad's devel WADL: 2.2 MB).
MAX_WADL_BYTES = 64 << 20
#: A package's files: name -> text.
Package = dict[str, str]


def load(source: str, version: str | None = "1.0") -> tuple[Schema, str]:
    """The schema of ``source`` and the id of its root resource type.

    A service address is read as a service root reads it (WADL, then the
    root's JSON); anything else is a WADL file.
    """
    if source.startswith(("http://", "https://")):
        with ServiceRoot(None, source, version=version) as root:
            session = session_of(root)
            return session.schema, session.root_type or _DEFAULT_ROOT_TYPE
    path = Path(source)
    app = parse_wadl(read_wadl_file(path), path.resolve().as_uri())
    return Schema(app), app.root_resource_type or _DEFAULT_ROOT_TYPE


def read_wadl_file(path: Path) -> bytes:
    """A saved WADL's bytes; a ``.gz`` file decompressed, to at most `MAX_WADL_BYTES`."""
    if path.suffix != ".gz":
        return path.read_bytes()
    with path.open("rb") as raw, gzip.GzipFile(fileobj=raw) as unzipped:
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``wadlclient stubgen`` on its own arguments; return the process exit status."""
    parser = argparse.ArgumentParser(prog="wadlclient stubgen", description=HELP)
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """Write the package ``args`` describe; return the process exit status."""
    if not is_name(args.name):
        print(f"wadlclient stubgen: {args.name!r} is not a module name", file=sys.stderr)
        return 2
    version = None if args.api_version == "none" else args.api_version
    try:
        schema, root_type = load(args.source, version)
        files = generate(
            schema,
            root_type,
            args.name,
            untyped=args.untyped,
            nullable=args.nullable,
            fixups=args.fixups,
        )
        package = write_package(Path(args.output), args.name, files)
    except (RestfulError, OSError) as error:
        print(f"wadlclient stubgen: {error}", file=sys.stderr)
        return 1
    print(f"wrote {package}")
    return 0

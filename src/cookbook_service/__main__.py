"""``python -m cookbook_service``: serve the example service, or manage credentials.

Serve (the default)::

    python -m cookbook_service --host 127.0.0.1 --port 8080 [--db PATH]
        [--auth none|basic|oauth] [--page-size N] [--seed-recipes N] [--latency-ms N]
        [--journal-endpoint]

Credentials, stored in the database file given with ``--db``::

    python -m cookbook_service add-user NAME PASSWORD --db PATH
    python -m cookbook_service add-consumer KEY [SECRET] --db PATH
    python -m cookbook_service add-token CONSUMER KEY SECRET [--access write|anonymous] --db PATH
"""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Sequence

from cookbook_service.auth import AUTH_MODES
from cookbook_service.handlers import MAX_PAGE_SIZE
from cookbook_service.running import SERVER_EXTRA_HINT
from cookbook_service.store import Store

_COMMANDS = ("serve", "add-user", "add-consumer", "add-token")


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {text}")
    return value


def _page_size(text: str) -> int:
    value = int(text)
    if not 1 <= value <= MAX_PAGE_SIZE:
        raise argparse.ArgumentTypeError(f"must be between 1 and {MAX_PAGE_SIZE}: {text}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m cookbook_service",
        description="The cookbook example web service (lazr.restful dialect).",
        epilog="Credential commands: add-user NAME PASSWORD --db PATH; "
        "add-consumer KEY [SECRET] --db PATH; "
        "add-token CONSUMER KEY SECRET [--access write|anonymous] --db PATH. "
        "Run 'python -m cookbook_service COMMAND --help' for details.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def serve_options(target: argparse.ArgumentParser, *, defaults: bool) -> None:
        # The options may come before or after ``serve``; only the top-level
        # parser has defaults, so the subcommand cannot overwrite what was
        # given before it.
        def default(value: object) -> object:
            return value if defaults else argparse.SUPPRESS

        target.add_argument(
            "--host", default=default("127.0.0.1"), help="address to listen on (default 127.0.0.1)"
        )
        target.add_argument(
            "--port", type=int, default=default(8080), help="port to listen on (default 8080)"
        )
        target.add_argument(
            "--db", default=default(None), help="SQLite file (default: a private temporary file)"
        )
        target.add_argument(
            "--auth",
            choices=AUTH_MODES,
            default=default("none"),
            help="authorization (default none)",
        )
        target.add_argument(
            "--page-size",
            type=_page_size,
            default=default(5),
            help=f"default collection page size (1-{MAX_PAGE_SIZE}, default 5)",
        )
        target.add_argument(
            "--seed-recipes",
            type=_non_negative,
            default=default(0),
            help="make sure the database holds this many generated recipes (default 0)",
        )
        target.add_argument(
            "--latency-ms",
            type=_non_negative,
            default=default(0),
            help="delay every answer by this many milliseconds (default 0)",
        )
        target.add_argument(
            "--journal-endpoint",
            action="store_true",
            default=default(False),
            help="answer GET /_journal with the requests and bytes answered "
            "(DELETE /_journal starts counting again)",
        )
        target.add_argument(
            "--access-log",
            action="store_true",
            default=default(False),
            help="print a line per request on standard output (client, method, path, status)",
        )

    serve_options(parser, defaults=True)
    serve_options(
        commands.add_parser("serve", help="serve the web service (the default)"), defaults=False
    )

    user = commands.add_parser("add-user", help="add or replace a Basic user")
    user.add_argument("name")
    user.add_argument("password")
    consumer = commands.add_parser("add-consumer", help="add or replace an OAuth consumer")
    consumer.add_argument("key")
    consumer.add_argument("secret", nargs="?", default="")
    token = commands.add_parser("add-token", help="add or replace an OAuth access token")
    token.add_argument("consumer")
    token.add_argument("key")
    token.add_argument("secret")
    token.add_argument("--access", choices=("write", "anonymous"), default="write")
    for sub in (user, consumer, token):
        sub.add_argument("--db", required=True, help="SQLite file of the service")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = args.command or "serve"
    if command == "serve":
        return _serve(args)
    store = Store(args.db)
    try:
        if command == "add-user":
            store.add_user(args.name, args.password)
            print(f"user {args.name!r} added")
        elif command == "add-consumer":
            store.add_consumer(args.key, args.secret)
            print(f"consumer {args.key!r} added")
        else:
            store.add_token(args.consumer, args.key, args.secret, args.access)
            print(f"token {args.key!r} for consumer {args.consumer!r} added ({args.access})")
    finally:
        store.close()
    return 0


def _serve(args: argparse.Namespace) -> int:
    # Imported here: the credential commands need neither, and without the [server]
    # extra serving is one line saying what to install, not an import's traceback.
    try:
        import uvicorn

        from cookbook_service.app import ServiceConfig, create_app
    except ModuleNotFoundError as error:
        print(f"python -m cookbook_service: {SERVER_EXTRA_HINT} ({error})", file=sys.stderr)
        return 2
    store = Store(args.db, seed_recipes=args.seed_recipes)
    config = ServiceConfig(
        auth=args.auth,
        page_size=args.page_size,
        latency_ms=args.latency_ms,
        journal_endpoint=args.journal_endpoint,
    )
    try:
        listening = _listen(args.host, args.port)
    except OSError as error:
        store.close()
        print(
            f"cookbook service: cannot listen on {args.host}:{args.port}: {error.strerror or error}"
            " (another program has the port? pick another with --port)",
            file=sys.stderr,
        )
        return 1
    # Announced once the socket listens, so the address printed is one being served.
    port = listening.getsockname()[1]
    print(f"cookbook service on http://{args.host}:{port}/1.0/ (auth {args.auth})", file=sys.stderr)
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(store, config),
            log_level="info" if args.access_log else "warning",
            access_log=args.access_log,
        )
    )
    try:
        server.run(sockets=[listening])
    except KeyboardInterrupt:
        # Ctrl-C is how a newcomer stops the quick-start service: one line, not
        # uvicorn's re-raised interrupt with asyncio's CancelledError under it.
        print("cookbook service stopped", file=sys.stderr)
        return 130
    finally:
        listening.close()
        store.close()
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``.

    Its protocol is named (IPPROTO_TCP, not 0): asyncio turns Nagle's
    algorithm off only on connections whose socket says TCP, and with it
    on, a keep-alive client waits out a delayed ACK (about 40 ms) per answer.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(128)
    except OSError:
        listening.close()
        raise
    return listening


if __name__ == "__main__":
    sys.exit(main())

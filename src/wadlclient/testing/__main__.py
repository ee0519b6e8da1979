"""``python -m wadlclient.testing serve``: a fake Launchpad on a port, until interrupted.

    python -m wadlclient.testing serve --launchpad devel --seed seed.py --port 8085

Unchanged code then reaches it by its address (``http://127.0.0.1:8085/``,
as a service root). A mistake (an unknown option, a seed file that fails,
a port in use) is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading

from wadlclient.testing.seeding import SeedError, launchpad_fake
from wadlclient.testing.wadls import LAUNCHPAD_VERSIONS

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line and a hint rather than the whole usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m wadlclient.testing", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    serve = commands.add_parser("serve", help="serve a fake Launchpad until interrupted")
    serve.add_argument(
        "--launchpad", metavar="VERSION", default="devel", choices=LAUNCHPAD_VERSIONS,
        help="the API version to fake, from the WADL the kit ships (default: devel)",
    )  # fmt: skip
    serve.add_argument("--seed", metavar="FILE", help="a Python file defining seed(fake)")
    serve.add_argument("--port", type=int, default=0, help="the port (default: a free one)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Serve until interrupted (SIGINT or SIGTERM); 2 for a mistake, said in one line."""
    options = _parser().parse_args(argv)
    try:
        fake = launchpad_fake(options.launchpad, options.seed, port=options.port)
    except SeedError as error:
        print(f"python -m wadlclient.testing: {error}", file=sys.stderr)
        return 2
    with fake:
        print(
            f"a fake Launchpad ({options.launchpad}) at {fake.service_root} "
            "(the service root to give launchpadlib; Ctrl-C stops it)",
            flush=True,
        )
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m wadlclient``: the command line, as the ``wadlclient`` script runs it."""

import sys

from wadlclient.cli import main

sys.exit(main())

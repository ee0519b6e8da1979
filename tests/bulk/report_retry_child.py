"""A later process: load a saved bulk report and try its failed entries again (run by a test).

``python report_retry_child.py REPORT SERVICE_URL`` prints the retry's report as JSON.
"""

from __future__ import annotations

import sys
from typing import Any

from wadlclient import ServiceRoot, bulk


def done(recipe: Any) -> None:
    recipe.instructions = "Done in bulk."


if __name__ == "__main__":
    path, service = sys.argv[1], sys.argv[2]
    with ServiceRoot(None, service) as root:
        saved = bulk.load_report(path, root=root, change=done)
        print(saved.retry().to_json())

"""Run `craft_models` on launchpadlib against a service: one JSON line of what it read.

    python -m wadlclient.lazr_compat tests/typed/launchpad/run_models.py SERVICE_ROOT DIR

The test starts it this way, so that launchpadlib runs on wadlclient and
the real lazr.restfulclient is never imported.
"""

from __future__ import annotations

import json
import sys

from craft_models import BuildRequest, Recipe, SnapRecipe, login, triage


def main(service_root: str, directory: str) -> dict[str, object]:
    lp = login(service_root, directory)
    recipe = Recipe.get(lp, "ada", "daily")
    build = recipe.build("noble", pocket="Updates")
    snap = SnapRecipe.find(lp, "ada", "hello")
    requests: list[BuildRequest] = list(snap.build_requests())
    task = lp.bugs[1].bug_tasks[0]
    return {
        "launchpad_class": f"{type(lp).__module__}.{type(lp).__name__}",
        "recipe": recipe.name,
        "build": [build.self_link, build.pocket, build.state],
        "store_channels": snap.store_channels,
        "information_type": snap.information_type,
        "requests": [[r.status, r.is_done()] for r in requests],
        "triaged": triage(task, "Fix Released"),
    }


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:3])))

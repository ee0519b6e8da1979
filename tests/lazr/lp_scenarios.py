"""launchpadlib scripts the tests run in a child process under ``wadlclient.lazr_compat``.

    python -m wadlclient.lazr_compat tests/lazr/lp_scenarios.py SCENARIO SERVICE_ROOT DIR
    python -m wadlclient.lazr_compat tests/lazr/lp_scenarios.py SCENARIO ROOT DIR SCENARIO ...
    python -m wadlclient.lazr_compat tests/lazr/lp_scenarios.py containers '[[ROOT, CREDS], ...]'

Each scenario prints one JSON object for the test to check; several, run
one after another in one process (each on its own service and directory,
with settings of its own, `each`),
print a JSON list of them, a scenario that raised giving its traceback as
``{"error": ...}``. ``containers`` runs `login_from_environment` once per
service root, each time with its own ``$WADLCLIENT_CREDENTIALS`` (none for
null), as many CI jobs in turn would (`in_containers`). The script itself
is plain launchpadlib code: no wadlclient import.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

from launchpadlib.credentials import AccessToken, Credentials, MemoryCredentialStore
from launchpadlib.launchpad import Launchpad


def counting_engine(service_root: str, consumer: str) -> Any:
    """An engine issuing ``fresh-1``, ``fresh-2``, ... without a browser, counting the runs.

    launchpadlib's testing helpers bring unittest.mock and asyncio (about 30 ms):
    only the scenarios with an engine import them.
    """
    from launchpadlib.testing.helpers import NoNetworkAuthorizationEngine

    class CountingEngine(NoNetworkAuthorizationEngine):
        def make_end_user_authorize_token(self, credentials: Any, request_token: str) -> None:
            self.access_tokens_obtained += 1
            token = AccessToken(f"fresh-{self.access_tokens_obtained}", "secret")
            credentials.access_token = token

    return CountingEngine(service_root, consumer)


def _home_of(cls: type[Any]) -> str:
    """The module a class lives in: compatibility classes keep lazr's module name."""
    spec = sys.modules[cls.__module__].__spec__
    return spec.name if spec is not None else cls.__module__


def anonymous(service_root: str, directory: str, timeout: float | None = None) -> dict[str, Any]:
    """login_anonymously, the people collection, bugs by key, a named operation."""
    lp = Launchpad.login_anonymously(
        "compat-test",
        service_root=service_root,
        launchpadlib_dir=directory,
        version="1.0",
        timeout=timeout,
    )
    missing = "no KeyError"
    try:
        lp.bugs[999]
    except KeyError as error:
        missing = f"KeyError {error}"
    found = lp.people.getByEmail(email="grace@example.com")
    return {
        "root_class_module": _home_of(type(lp).__mro__[1]),
        "service_root_module": _home_of(sys.modules["lazr.restfulclient.resource"].ServiceRoot),
        "people": [person.name for person in lp.people],
        "person_by_key": lp.people["ada"].display_name,
        "bug_1_title": lp.bugs[1].title,
        "bug_1_id": lp.bugs[1].id,
        "bug_at_position_1": lp.bugs[1:2][0].id,
        "missing_bug": missing,
        "operation_result": found.name,
    }


def expired_token(service_root: str, directory: str) -> dict[str, Any]:
    """A stored token the server calls expired: the engine runs once, the request is retried."""
    credentials = Credentials("compat-test", access_token=AccessToken("stale", "secret"))
    engine = counting_engine(service_root, "compat-test")
    lp = Launchpad(
        credentials,
        engine,
        MemoryCredentialStore(),
        service_root=service_root,
        cache=directory,
        timeout=None,
        proxy_info=None,
        version="1.0",
    )
    return {
        "engine_runs": engine.access_tokens_obtained,
        "token_now": lp.credentials.access_token.key,
        "bug_1_title": lp.bugs[1].title,
    }


def renewed_while_prefetching(service_root: str, directory: str) -> dict[str, Any]:
    """A token that expires just before the bugs' owners are fetched together."""
    credentials = Credentials("compat-test", access_token=AccessToken("good", "secret"))
    engine = counting_engine(service_root, "compat-test")
    lp = Launchpad(
        credentials, engine, MemoryCredentialStore(), service_root=service_root,
        cache=directory, timeout=None, proxy_info=None, version="1.0",
    )  # fmt: skip
    bugs = lp.bugs[:3].prefetch("owner")
    return {
        "owners": [bug.owner.name for bug in bugs],
        "engine_runs": engine.access_tokens_obtained,
        "token_now": lp.credentials.access_token.key,
    }


def people(service_root: str, directory: str) -> dict[str, Any]:
    """login_anonymously, then one collection read."""
    lp = Launchpad.login_anonymously(
        "compat-test", service_root=service_root, launchpadlib_dir=directory, version="1.0"
    )
    return {"people": [person.name for person in lp.people]}


def anonymous_signing(service_root: str, directory: str) -> dict[str, Any]:
    """login_anonymously and one collection read; which signing library the process loaded."""
    result = people(service_root, directory)
    return {**result, "oauthlib_imported": "oauthlib" in sys.modules}


def prefetched_owners(service_root: str, directory: str) -> dict[str, Any]:
    """A launchpadlib script that asks for the bugs' owners together, then reads them."""
    lp = Launchpad.login_anonymously(
        "compat-test", service_root=service_root, launchpadlib_dir=directory, version="1.0"
    )
    bugs = lp.bugs[:3].prefetch("owner")
    return {"owners": [bug.owner.name for bug in bugs]}


def looked_ahead_owners(service_root: str, directory: str) -> dict[str, Any]:
    """An unchanged loop reading each bug's owner (the look-ahead comes from the environment)."""
    lp = Launchpad.login_anonymously(
        "compat-test", service_root=service_root, launchpadlib_dir=directory, version="1.0"
    )
    return {"owners": [bug.owner.name for bug in lp.bugs[:3]]}


def task_owners(service_root: str, directory: str) -> dict[str, Any]:
    """The Launchpad-shaped N+1 loop, as scripts write it: each task's bug's owner."""
    lp = Launchpad.login_anonymously(
        "compat-test", service_root=service_root, launchpadlib_dir=directory, version="1.0"
    )
    return {"owners": [task.bug.owner.name for task in lp.bugs.searchTasks()]}


def every_tenth_bug(service_root: str, directory: str) -> dict[str, Any]:
    """A sparse loop: the bug of every tenth task only."""
    lp = Launchpad.login_anonymously(
        "compat-test", service_root=service_root, launchpadlib_dir=directory, version="1.0"
    )
    tasks = lp.bugs.searchTasks()
    return {"titles": [task.bug.title for n, task in enumerate(tasks) if n % 10 == 0]}


def anonymous_short_timeout(service_root: str, directory: str) -> dict[str, Any]:
    """``anonymous`` with short waits, as a script facing a flaky, stalling network sets them.

    A half-second timeout, and the retry back-offs (0, 1, 2, ... s) a tenth
    as long, through the ``sleep`` lazr.restfulclient's browser keeps for
    scripts to replace.
    """
    from lazr.restfulclient import _browser

    _browser.sleep = lambda seconds: time.sleep(seconds / 10)
    return anonymous(service_root, directory, timeout=0.5)


def login_from_environment(service_root: str, directory: str) -> dict[str, Any]:
    """login_with as a CI job writes it: no directory, no credentials file, no store."""
    lp = Launchpad.login_with("ci-bot", service_root=service_root, version="1.0")
    return {
        "store": type(lp.credential_store).__name__,
        "people": [person.name for person in lp.people],
        "cache_directory": lp._browser.directory if hasattr(lp._browser, "directory") else None,
    }


SCENARIOS: dict[str, Callable[[str, str], dict[str, Any]]] = {
    "people": people,
    "anonymous_signing": anonymous_signing,
    "anonymous": anonymous,
    "anonymous_short_timeout": anonymous_short_timeout,
    "prefetched_owners": prefetched_owners,
    "renewed_while_prefetching": renewed_while_prefetching,
    "looked_ahead_owners": looked_ahead_owners,
    "task_owners": task_owners,
    "every_tenth_bug": every_tenth_bug,
    "expired_token": expired_token,
    "login_from_environment": login_from_environment,
}


def each(runs: list[str]) -> list[dict[str, Any]]:
    """The scenarios of ``SCENARIO ROOT DIR`` triples in turn; one that raises stops no other.

    ``SCENARIO`` may be followed by ``NAME=VALUE`` settings (``every_tenth_bug
    WADLCLIENT_LOOK_AHEAD=0``): the environment of that run only, as a
    script started with them would have it from its first login on.
    """
    results = []
    for at in range(0, len(runs), 3):
        scenario, root, scratch = runs[at : at + 3]
        name, *settings = scenario.split()
        before = dict(os.environ)
        os.environ.update(setting.split("=", 1) for setting in settings)
        try:
            results.append(SCENARIOS[name](root, scratch))
        except Exception:
            results.append({"error": traceback.format_exc()})
        finally:
            os.environ.clear()
            os.environ.update(before)
    return results


def in_containers(cases: str) -> list[dict[str, Any]]:
    """`login_from_environment` for each ``[root, credentials]`` of a JSON list, in turn.

    Each run sets (or, for null, unsets) ``$WADLCLIENT_CREDENTIALS`` first.
    A login that raised gives ``{"raised": ...}``, the line a crash would end
    on, and ``{"traceback": ...}``, all a crash would print.
    """
    results: list[dict[str, Any]] = []
    for root, credentials in json.loads(cases):
        os.environ.pop("WADLCLIENT_CREDENTIALS", None)
        if credentials is not None:
            os.environ["WADLCLIENT_CREDENTIALS"] = credentials
        try:
            results.append(login_from_environment(root, "-"))
        except Exception as error:
            raised = traceback.format_exception_only(error)[-1].strip()
            results.append({"raised": raised, "traceback": traceback.format_exc()})
    return results


if __name__ == "__main__":
    if sys.argv[1] == "containers":
        print(json.dumps(in_containers(sys.argv[2])))
    elif len(sys.argv) == 4:
        scenario, root, scratch = sys.argv[1:4]
        print(json.dumps(SCENARIOS[scenario](root, scratch)))
    else:
        print(json.dumps(each(sys.argv[1:])))

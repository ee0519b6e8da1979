"""Run as a script (``python -m wadlclient.lazr_compat lp_load_web.py TEXT...``): a
launchpadlib bot loads what people paste; prints one JSON line.

The fake (Launchpad's devel WADL) is seeded as ``tests/web/conftest.py`` seeds
it; for each TEXT the line holds the loaded object's class, ``self_link`` path
and ``web_link``, or the error's class and message.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from launchpadlib.launchpad import Launchpad
from tests.web.conftest import seed

from wadlclient.testing import FakeService, launchpad_wadl
from wadlclient.testing.launchpad import patched_launchpad


def main(texts: list[str]) -> None:
    with FakeService(launchpad_wadl()) as fake, patched_launchpad(fake):
        seed(fake)
        lp = Launchpad.login_anonymously("web-bot", "production", version="devel")
        loaded: list[Any] = []
        for text in texts:
            try:
                entry = lp.load_web(text)
            except Exception as error:
                loaded.append([type(error).__name__, str(error)])
                continue
            path = str(entry.self_link).removeprefix(fake.base)
            loaded.append([type(entry).__module__, path, entry.web_link])
    lazr = sys.modules["lazr.restfulclient"].__file__
    print(json.dumps({"lazr": lazr, "loaded": loaded}))


if __name__ == "__main__":
    main(sys.argv[1:])

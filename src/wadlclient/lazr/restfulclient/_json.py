"""lazr.restfulclient's JSON encoder that also writes dates and times."""

from __future__ import annotations

import datetime
import json
from typing import Any

from wadlclient.lazr import named_as_lazr

__all__ = ["DatetimeJSONEncoder"]


@named_as_lazr
class DatetimeJSONEncoder(json.JSONEncoder):
    """A JSON encoder that understands datetime objects (ISO 8601 text)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return json.JSONEncoder.default(self, o)

"""Mirrors: a collection copied to files and kept fresh (issue 42; docs/mirror.md).

``mirror(root, "recipes", "out/")`` writes ``out/entries.jsonl`` (or
``.csv``) and a state file beside it; run again, it resumes a run cut short
or, after a finished one, copies what changed and reports it. The command
line's ``wadlclient mirror`` is this function.
"""

from __future__ import annotations

from wadlclient.mirror.core import FORMATS, Progress, Report, mirror, mirror_changes, output_path
from wadlclient.mirror.state import MirrorError, Source

__all__ = [
    "FORMATS",
    "MirrorError",
    "Progress",
    "Report",
    "Source",
    "mirror",
    "mirror_changes",
    "output_path",
]

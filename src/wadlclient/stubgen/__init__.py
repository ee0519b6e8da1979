"""Typed access generated from a service's WADL: ``wadlclient stubgen``.

`plan` decides what the generated module declares (a `typing.Protocol` per
entry type, per collection type with named operations, and for the root;
the Python type of every field, link and named-operation parameter and
result); `render` writes it as Python source; `command` reads the WADL
from a service or a file and writes the package. See docs/typed-access.md.
"""

from wadlclient.stubgen.command import generate, load, write_package

__all__ = ["generate", "load", "write_package"]

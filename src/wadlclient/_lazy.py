"""Names a package imports when first asked for: its module ``__getattr__`` and ``__dir__``.

Every import of a subpackage runs its parent's ``__init__`` first, and pytest
imports the testing kit's plugin in every session: `wadlclient` and
`wadlclient.testing` re-export their API through these, so that importing
them costs only what a program then uses. Imports nothing itself (not even
typing): it is imported with the package.
"""

from __future__ import annotations

import collections.abc


def lazy_names(
    package: str, homes: dict[str, tuple[str, ...]], namespace: dict[str, object]
) -> tuple[collections.abc.Callable[[str], object], collections.abc.Callable[[], list[str]]]:
    """A module ``__getattr__`` and ``__dir__`` for ``package`` (its ``globals()``: ``namespace``).

    ``homes`` maps a module to the names it defines; a name is imported from
    there when first asked for, then kept in ``namespace``. Name the module
    that defines a name, not a package above it: a package's attribute that
    shares its name with one of its submodules becomes that submodule once
    the submodule is imported.
    """
    home = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> object:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        from importlib import import_module

        value = getattr(import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *home})

    return __getattr__, __dir__

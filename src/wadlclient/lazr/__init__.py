"""lazr.restfulclient compatibility: launchpadlib and lazr scripts on wadlclient's engine.

`install` (re-exported as `wadlclient.install_as_lazr_restfulclient`)
makes ``lazr.restfulclient`` and its modules resolve, in this process, to
the modules of ``wadlclient.lazr.restfulclient``, whether or not the real
package is installed; other ``lazr.*`` packages are untouched. See
docs/lazr-compat.md.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from importlib.abc import Loader as _Loader
    from importlib.abc import MetaPathFinder as _Finder
else:
    # The import system needs no base class, and importlib.abc imports
    # importlib.resources, tempfile and shutil: a cost for every compat start.
    _Loader = _Finder = object

__all__ = ["MODULES", "install", "installed", "named_as_lazr"]

_PREFIX = "lazr.restfulclient"
_TARGET = "wadlclient.lazr.restfulclient"

#: The lazr.restfulclient modules served by wadlclient's compatibility modules.
MODULES = (
    _PREFIX,
    f"{_PREFIX}.resource",
    f"{_PREFIX}.errors",
    f"{_PREFIX}.authorize",
    f"{_PREFIX}.authorize.oauth",
    f"{_PREFIX}._browser",
    f"{_PREFIX}._json",
)

#: httplib2's parser of authentication challenges: httplib2 imports it, and with it
#: pyparsing (about a tenth of a second), when launchpadlib imports httplib2; on
#: wadlclient nothing reads a challenge through httplib2 unless launchpadlib asks it
#: for a request token and is refused, so it is loaded when first used.
_DEFERRED = "httplib2.auth"


class _AliasLoader(_Loader):
    """Loads a lazr name as the wadlclient module it stands for (no copy)."""

    def __init__(self, target: str) -> None:
        self._target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = importlib.import_module(self._target)
        self._own_spec = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run; the module keeps its own ``__spec__`` (the import system set lazr's)."""
        module.__spec__ = self._own_spec


class _EmptyPackageLoader(_Loader):
    """Makes an empty ``lazr`` package when no ``lazr.*`` distribution is installed."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the package only holds ``restfulclient``."""


class _AliasFinder(_Finder):
    """Answers for ``lazr.restfulclient`` and its modules, defers ``httplib2.auth``: no other."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == "lazr":
            return self._lazr_package(path)
        if fullname == _DEFERRED:
            return self._deferred(fullname, path)
        if fullname not in MODULES:
            return None
        alias = _TARGET + fullname[len(_PREFIX) :]
        is_package = fullname in (_PREFIX, f"{_PREFIX}.authorize")
        spec = importlib.machinery.ModuleSpec(fullname, _AliasLoader(alias), is_package=is_package)
        return spec

    @staticmethod
    def _lazr_package(path: Sequence[str] | None) -> importlib.machinery.ModuleSpec | None:
        """The installed ``lazr`` namespace package, or an empty one when there is none."""
        if importlib.machinery.PathFinder.find_spec("lazr", path) is not None:
            return None
        spec = importlib.machinery.ModuleSpec("lazr", _EmptyPackageLoader(), is_package=True)
        spec.submodule_search_locations = []
        return spec

    @staticmethod
    def _deferred(
        fullname: str, path: Sequence[str] | None
    ) -> importlib.machinery.ModuleSpec | None:
        """The module's own spec, its code run at the first use of one of its names."""
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = importlib.util.LazyLoader(spec.loader)
        return spec


_FINDER = _AliasFinder()

_T = TypeVar("_T")


def named_as_lazr(cls: type[_T]) -> type[_T]:
    """Give a compatibility class lazr's module name, as tracebacks and ``type()`` show it."""
    cls.__module__ = cls.__module__.replace(_TARGET, _PREFIX, 1)
    return cls


def installed() -> bool:
    """Whether `install` has run in this process."""
    return _FINDER in sys.meta_path


def install() -> None:
    """Serve ``lazr.restfulclient`` from wadlclient in this process (again: no effect).

    Raises ImportError when the real lazr.restfulclient is already
    imported: objects made from it would mix with wadlclient's.
    """
    if installed():
        return
    real = [name for name in MODULES if name in sys.modules]
    if real:
        raise ImportError(
            f"lazr.restfulclient was imported before wadlclient.install_as_lazr_restfulclient() "
            f"({', '.join(real)}); call it first, before importing launchpadlib or lazr"
        )
    sys.meta_path.insert(0, _FINDER)

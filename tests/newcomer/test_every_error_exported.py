"""Every error wadlclient raises on purpose can be imported from ``wadlclient`` itself."""

from __future__ import annotations

import inspect

import wadlclient
from wadlclient import errors
from wadlclient.http import wire


def test_every_error_class_is_exported_from_the_package() -> None:
    raised = [
        cls
        for module in (errors, wire)
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, errors.RestfulError) and cls.__module__ == module.__name__
    ]

    missing = [cls.__name__ for cls in raised if getattr(wadlclient, cls.__name__, None) is not cls]

    assert len(raised) >= 20
    assert missing == []
    assert all(cls.__name__ in wadlclient.__all__ for cls in raised)

"""Stubs of the lazr namespace: only `lazr.restfulclient` (partial, see its docstring)."""

"""The layer contract: data flows one way, so no module imports a layer above its own.

Every module under ``src/wadlclient`` and ``src/cookbook_service`` is read
with ``ast`` (nothing is imported), and every ``import``/``from ... import``
of a wadlclient module is checked, those inside functions included, against
``LAYERS``: the rule of the longest prefix that names a module says which
modules it may import. A package's ``__init__`` is named ``<package>.__init__``,
so the top-level ``wadlclient.__init__`` has a rule of its own and a new
module with no rule fails rather than being allowed everything.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

BOTTOM = ("wadlclient._version", "wadlclient.errors", "wadlclient.headers")
WADL = "wadlclient.wadl"
AUTH = "wadlclient.auth"
CACHE = "wadlclient.cache"
HTTP = "wadlclient.http"
SCHEMA = "wadlclient.schema"
OBJECTS = (
    SCHEMA,
    HTTP,
    CACHE,
    WADL,
    AUTH,
    "wadlclient.objects",
)


@dataclass(frozen=True)
class Rule:
    """The modules a layer may import (prefixes), and exceptions it may never import."""

    may: tuple[str, ...]
    never: tuple[str, ...] = ()


#: Module prefix -> what it may import. Names that do not exist yet are the
#: layers the architecture makes room for (docs/architecture.md).
LAYERS: dict[str, Rule] = {
    # bottom
    "wadlclient._version": Rule(BOTTOM),
    "wadlclient.errors": Rule(BOTTOM),
    "wadlclient.headers": Rule(BOTTOM),
    # the WADL model, its parser and its persisted form
    WADL: Rule((*BOTTOM, WADL), never=("wadlclient.wadl.store",)),
    "wadlclient.wadl.model": Rule(BOTTOM),
    "wadlclient.wadl.store": Rule((*BOTTOM, "wadlclient.wadl.model")),
    # authorizers, cache, transport
    AUTH: Rule((*BOTTOM, AUTH)),
    CACHE: Rule((*BOTTOM, CACHE)),
    HTTP: Rule((*BOTTOM, CACHE, HTTP)),
    # a service's schema, then the objects a caller works with
    SCHEMA: Rule((*BOTTOM, WADL, CACHE, SCHEMA)),
    "wadlclient.objects": Rule((*BOTTOM, *OBJECTS)),
    # typed access: reads a service's schema, writes a package (wadlclient.stubgen)
    "wadlclient.stubgen": Rule((*BOTTOM, WADL, SCHEMA, "wadlclient.objects", "wadlclient.stubgen")),
    # top: may import anything of wadlclient
    "wadlclient.lazr": Rule(("wadlclient",)),
    "wadlclient.lazr_compat": Rule(("wadlclient",)),
    "wadlclient.cli": Rule(("wadlclient",)),
    # the testing kit: a fake service from a WADL, launchpadlib patched, record and replay
    "wadlclient.testing": Rule(
        (*BOTTOM, WADL, SCHEMA, HTTP, "wadlclient.objects", "wadlclient.testing")
    ),
    "wadlclient.__main__": Rule(("wadlclient.cli",)),
    "wadlclient.__init__": Rule(("wadlclient",)),
}


@dataclass(frozen=True)
class Import:
    """One import statement's target, where it is, and whether it runs at import time."""

    target: str
    line: int
    module_level: bool


@dataclass(frozen=True)
class Module:
    name: str  # dotted; a package's __init__ is "<package>.__init__"
    path: Path

    @property
    def package(self) -> str:
        """The package relative imports start from."""
        return self.name.rpartition(".")[0]

    @property
    def importable(self) -> str:
        """The name ``import`` uses for this module."""
        return self.name.removesuffix(".__init__")


def modules(top: str) -> list[Module]:
    """Every module of the package ``top`` under src/."""
    found = []
    for path in sorted((SRC / top).rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        found.append(Module(".".join(parts), path))
    return found


WADLCLIENT = modules("wadlclient")
COOKBOOK_SERVICE = modules("cookbook_service")
KNOWN = {module.importable for module in WADLCLIENT + COOKBOOK_SERVICE}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(body: list[ast.stmt], module_level: bool) -> Iterator[tuple[ast.stmt, bool]]:
    """Every statement, nested ones included, and whether it runs when the module is imported."""
    for node in body:
        yield node, module_level
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from _statements(node.body, False)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _statements(node.body, False)
            yield from _statements(node.orelse, module_level)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    yield from _statements([child], module_level)
                elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                    yield from _statements(child.body, module_level)


def imports(module: Module) -> list[Import]:
    """What ``module`` imports: ``from a import b`` is ``a.b`` when that is a module."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
    found = []
    for node, module_level in _statements(tree.body, True):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(alias.name, node.lineno, module_level))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                target = candidate if candidate in KNOWN else base
                found.append(Import(target, node.lineno, module_level))
    return found


def _where(path: Path) -> str:
    return str(path.relative_to(SRC)) if path.is_relative_to(SRC) else str(path)


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def rule_for(name: str) -> tuple[str, Rule] | None:
    """The rule of the longest prefix of ``name`` in ``LAYERS``."""
    keys = [key for key in LAYERS if _under(name, key)]
    if not keys:
        return None
    key = max(keys, key=len)
    return key, LAYERS[key]


def violations(module: Module) -> list[str]:
    """Each import of a wadlclient module that ``module``'s layer does not allow."""
    found = rule_for(module.name)
    if found is None:
        return [f"{module.name} has no layer in LAYERS; add it to the table"]
    layer, rule = found
    messages = []
    for imported in imports(module):
        target = imported.target
        if not _under(target, "wadlclient") or target == module.importable:
            continue
        allowed = any(_under(target, prefix) for prefix in rule.may)
        forbidden = any(_under(target, prefix) for prefix in rule.never)
        if allowed and not forbidden:
            continue
        messages.append(
            f"{_where(module.path)}:{imported.line}: {module.importable} imports "
            f"{target}, which layer {layer!r} may not import "
            f"(may: {', '.join(rule.may) or 'nothing of wadlclient'}"
            + (f"; never: {', '.join(rule.never)})" if rule.never else ")")
        )
    return messages


@pytest.mark.parametrize("module", WADLCLIENT, ids=lambda module: module.name)
def test_a_module_imports_only_the_layers_its_own_may(module: Module) -> None:
    problems = violations(module)

    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("module", COOKBOOK_SERVICE, ids=lambda module: module.name)
def test_the_example_service_imports_nothing_of_wadlclient(module: Module) -> None:
    reaching = [
        f"{_where(module.path)}:{imported.line}: imports {imported.target}"
        for imported in imports(module)
        if _under(imported.target, "wadlclient")
    ]

    assert not reaching, "\n".join(reaching)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph``, as the list of its nodes, or None."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for following in sorted(graph.get(node, ())):
            if following in on_path:
                return [*path[path.index(following) :], following]
            if following not in done:
                cycle = visit(following)
                if cycle:
                    return cycle
        on_path.discard(node)
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_wadlclient_modules_import_one_another_without_a_cycle() -> None:
    graph = {
        module.importable: {
            imported.target
            for imported in imports(module)
            if imported.module_level
            and imported.target in KNOWN
            and imported.target != module.importable
        }
        for module in WADLCLIENT
    }

    cycle = _cycle(graph)

    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_the_contract_finds_an_import_that_reaches_back_up(tmp_path: Path) -> None:
    """The checks above would see a lower layer importing a higher one, even inside a function."""
    path = tmp_path / "model.py"
    path.write_text("def entry():\n    from wadlclient.objects import Entry\n    return Entry\n")

    problems = violations(Module("wadlclient.wadl.model", path.resolve()))

    assert len(problems) == 1
    assert "wadlclient.wadl.model imports wadlclient.objects" in problems[0]


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}

    assert _cycle(graph) == ["a", "b", "c", "a"]


def _graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (every import: lazy, typing-only)."""
    members = {m.importable: m for m in WADLCLIENT if package in (m.package, m.importable)}
    graph: dict[str, set[str]] = {name: set() for name in members}
    for name, module in members.items():
        for imported in imports(module):
            target = imported.target
            if target in members and target != name:
                graph[name].add(target)
    return graph


def rings(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import rings of a graph: its strongly connected parts of two modules or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                part.append(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


PACKAGES = sorted({m.package for m in WADLCLIENT if m.name.endswith(".__init__")} - {""})


@pytest.mark.parametrize("package", PACKAGES)
def test_no_package_imports_in_a_ring(package: str) -> None:
    """Inside a package too, data flows one way: no module imports back up (typing-only
    and lazy imports included, since a ring of them is a ring of dependencies all the same).
    The package's ``__init__`` may import its modules; none may import it back (but the
    top-level package's command line and compatibility runner, which use its public API)."""
    graph = _graph(package)
    init = package
    for name, targets in graph.items():
        if name != init and package != "wadlclient":
            assert init not in targets, f"{name} imports its own package {init}"
    graph.pop(init, None)
    for targets in graph.values():
        targets.discard(init)
    assert rings(graph) == []


def test_the_ring_finder_finds_a_ring() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert rings(graph) == [["a", "b", "c"]]

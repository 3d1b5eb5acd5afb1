"""No import circle in the engine.

The graph is read from the source (``ast``): an edge for every ``import`` of an engine module, at module level
and inside functions (a late import still runs). Two rules:

1. Imports that run — everything but ``if TYPE_CHECKING:`` blocks — form no circle anywhere in ``engine/``.
   A rule set's stage modules name the rule-set class only for types, so they may import it under
   ``TYPE_CHECKING``; plain data (the game state, the steps) never asks the rule-set registry.
2. Counting the ``TYPE_CHECKING`` imports too, a circle stays inside one package: a rule set's stage modules and
   its class; never across packages, and none in ``engine.flow`` (its turn orders take the rule set as the
   ``TurnRules`` shape they need, so they do not import the flow they serve) (the core's
   ``rules/base ↔ scenario ↔ state ↔ overlays ↔ gm ↔ scenario_map`` circle is gone).

:data:`KNOWN` lists the packages whose modules still import each other in a circle, each with the reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A package whose internals may still form circles of rule 1, and why (remove the entry when they are gone).
KNOWN: dict[str, str] = {}
PLAIN_DATA = ("engine.state", "engine.flow.steps", "engine.actions", "engine.events", "engine.scenario_types")


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / "engine").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, with_types: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _type_checking(node):
            if with_types:
                yield from _imports(node, with_types)
            for other in node.orelse:
                yield from _imports(other, with_types)
        else:
            yield from _imports(node, with_types)


def import_graph(with_types: bool) -> dict[str, set[str]]:
    """Engine module → the engine modules it imports (runtime only, or with the ``TYPE_CHECKING`` imports)."""
    modules = _modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")), with_types):
            if isinstance(node, ast.Import):
                targets = [known(a.name) for a in node.names]
            else:
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                name = ".".join([*base, *([node.module] if node.module else [])])
                # ``from package import module`` needs that module; ``from module import name`` the module
                targets = [known(f"{name}.{a.name}") if f"{name}.{a.name}" in modules else known(name)
                           for a in node.names]
            graph[module].update(t for t in targets if t is not None and t != module)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _package(module: str) -> str:
    return module.rpartition(".")[0]


def test_imports_that_run_form_no_circle() -> None:
    found = [c for c in circles(import_graph(with_types=False))
             if not all(_package(m) in KNOWN or m in KNOWN for m in c)]
    assert not found, f"import circles (imports that run): {found}; import for types under TYPE_CHECKING, or " \
                      "move what both need into a module of its own"


def test_type_imports_close_circles_only_inside_one_package() -> None:
    found = [c for c in circles(import_graph(with_types=True)) if len({_package(m) for m in c}) > 1]
    assert not found, f"import circles across packages (type imports counted): {found}"


def test_the_flow_forms_no_circle_even_counting_type_imports() -> None:
    found = [c for c in circles(import_graph(with_types=True)) if any(m.startswith("engine.flow") for m in c)]
    assert not found, f"import circles in engine.flow (type imports counted): {found}"


def test_plain_data_never_asks_the_rule_set_registry() -> None:
    graph = import_graph(with_types=False)
    reached = {m: _reach(graph, m) for m in PLAIN_DATA}
    for module, modules in reached.items():
        assert not any(m == "engine.rules" or m.startswith("engine.rules.") for m in modules), \
            f"{module} imports the rule sets: {sorted(m for m in modules if m.startswith('engine.rules'))}"


def test_the_check_sees_circles() -> None:
    graph = {"a.x": {"a.y"}, "a.y": {"b.z"}, "b.z": {"a.x"}, "c": set()}
    assert circles(graph) == [["a.x", "a.y", "b.z"]]
    assert "engine.rules.tenkey.rules" in import_graph(with_types=True)["engine.rules.tenkey.turn"]  # a type import
    assert "engine.rules.tenkey.rules" not in import_graph(with_types=False)["engine.rules.tenkey.turn"]


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen

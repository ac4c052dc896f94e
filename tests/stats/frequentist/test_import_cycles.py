"""No import cycle among the frequentist modules, not even through imports
inside functions (issue 25: adjust.py and bergmann.py imported each other)."""

from __future__ import annotations

import ast
from pathlib import Path

import nbstats.stats.frequentist as frequentist

PACKAGE = "nbstats.stats.frequentist"


def _imports() -> dict[str, set[str]]:
    """Each module's imports of its sibling modules, at any depth of its code."""
    folder = Path(frequentist.__file__).parent
    modules = {path.stem for path in folder.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for name in modules:
        tree = ast.parse((folder / f"{name}.py").read_text())
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith(PACKAGE + "."):
                    found.add(node.module.removeprefix(PACKAGE + "."))
                elif node.module == PACKAGE:
                    found.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.Import):
                found.update(
                    a.name.removeprefix(PACKAGE + ".")
                    for a in node.names
                    if a.name.startswith(PACKAGE + ".")
                )
        graph[name] = found & modules
    return graph


def test_adjust_and_bergmann_do_not_import_each_other():
    graph = _imports()
    assert "adjust" not in graph["bergmann"]


def test_no_cycle_among_the_frequentist_modules():
    graph = _imports()
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph[name]):
            if other == "__init__":
                continue
            assert state.get(other) != 1, "import cycle: " + " -> ".join(
                [*path, name, other]
            )
            if other not in state:
                visit(other, [*path, name])
        state[name] = 2

    for name in sorted(graph):
        if name not in state and name != "__init__":
            visit(name, [])

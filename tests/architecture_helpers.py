"""Reading a package's imports with :mod:`ast`, for ``test_architecture.py``.

Every ``import`` and ``from ... import`` statement counts, wherever it is
written (module level, inside a function or a method, under ``if
TYPE_CHECKING``), because an import written inside a function still ties the
two modules together. Strings (docstrings, generated notebook code) are not
imports and do not count.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

#: Subpackages whose own subpackages are rooms of their own.
NESTED_ROOMS = {"stats": frozenset({"frequentist", "bayes"})}


@dataclass(frozen=True)
class Import:
    """One imported name: ``source`` imports ``target`` (a module) at ``line``.

    ``name`` is the name taken from ``target`` (``""`` for ``import x.y``);
    ``root`` says that it was taken from the package root itself;
    ``in_function`` that the statement is inside a function or method.
    """

    source: str
    target: str
    name: str
    line: int
    root: bool = False
    in_function: bool = False


@dataclass
class Package:
    """The modules of one package and every import among them."""

    name: str
    files: dict[str, Path] = field(default_factory=dict)
    imports: list[Import] = field(default_factory=list)

    def edges(self) -> dict[str, set[str]]:
        """Module -> the package's modules it imports (the root excluded when
        only a submodule of it is named)."""
        graph: dict[str, set[str]] = {m: set() for m in self.files}
        for imp in self.imports:
            if imp.target in self.files:
                graph[imp.source].add(imp.target)
        return graph


def module_name(package_dir: Path, path: Path) -> str:
    """``nbstats/stats/bayes/sign.py`` -> ``nbstats.stats.bayes.sign``."""
    parts = path.relative_to(package_dir.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def read_package(package_dir: Path) -> Package:
    """Every module of the package at ``package_dir`` and all its imports."""
    package_dir = Path(package_dir)
    package = Package(package_dir.name)
    for path in sorted(package_dir.rglob("*.py")):
        package.files[module_name(package_dir, path)] = path
    top = package.name
    for module, path in package.files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        local = {
            id(inner)
            for outer in ast.walk(tree)
            if isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef)
            for inner in ast.walk(outer)
        }
        for node in ast.walk(tree):
            where = {"in_function": id(node) in local}
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == top or alias.name.startswith(top + "."):
                        package.imports.append(
                            Import(
                                module,
                                alias.name,
                                "",
                                node.lineno,
                                root=alias.name == top,
                                **where,
                            )
                        )
            elif isinstance(node, ast.ImportFrom):
                target = _resolve(module, is_package, node)
                if target != top and not target.startswith(top + "."):
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in package.files:  # a submodule, not a name
                        package.imports.append(
                            Import(module, sub, "", node.lineno, **where)
                        )
                    else:
                        package.imports.append(
                            Import(
                                module,
                                target,
                                alias.name,
                                node.lineno,
                                root=target == top,
                                **where,
                            )
                        )
    return package


def room(module: str) -> str:
    """The room of a module: its top-level subpackage (``util``, ``scores``,
    ``results``, ``stats.<sub>`` inside stats, ``plots``, …, ``app``, ``cli``)."""
    parts = module.split(".")
    if len(parts) == 1:
        return "root"
    first = parts[1]
    if len(parts) > 2 and parts[2] in NESTED_ROOMS.get(first, ()):
        # stats/frequentist/ and stats/bayes/ are rooms of their own
        return f"{first}.{parts[2]}"
    return first


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (or a module
    importing itself), each sorted; iterative Tarjan."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    found.append(sorted(component))
    return found


def root_imports(package: Package) -> list[Import]:
    """Imports of the package root (``import nbstats``, ``from nbstats import
    name`` where name is not a submodule) by any module but the root."""
    return [i for i in package.imports if i.root and i.source != package.name]


def private_across_rooms(package: Package) -> list[Import]:
    """``_name`` imported from a module of another room."""
    return [
        i
        for i in package.imports
        if i.name.startswith("_")
        and not i.name.startswith("__")
        and room(i.target) != room(i.source)
    ]


def imports_of(package: Package, source_prefix: str, target: str) -> list[Import]:
    """Imports by modules under ``source_prefix`` of ``target`` or anything
    under it (``numba``-like third-party names included)."""
    return [
        i
        for i in package.imports
        if (i.source == source_prefix or i.source.startswith(source_prefix + "."))
        and (i.target == target or i.target.startswith(target + "."))
    ]


def third_party_imports(
    package: Package, top: str, under: str = ""
) -> list[tuple[str, int]]:
    """``(module, line)`` of every import of the third-party package ``top`` by
    the modules whose name starts with ``under``."""
    found = []
    for module, path in package.files.items():
        if under and module != under and not module.startswith(under + "."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            if any(n == top or n.startswith(top + ".") for n in names):
                found.append((module, node.lineno))
    return found

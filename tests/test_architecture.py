"""The written architecture (docs/architecture.md), checked on the source.

The imports of every module of nbstats are read with :mod:`ast`, including
those written inside functions, and the rules of the architecture page are
checked: no import cycle, no import of the package root inside the package,
no private name across rooms, no compiled kernels (numba) in the widgets or
the report, and each layer imports only the layers below it. The last tests
build a small package with each fault and check that the checker reports it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.architecture_helpers import (
    cycles,
    imports_of,
    private_across_rooms,
    read_package,
    room,
    root_imports,
    third_party_imports,
)

PACKAGE = Path(__file__).resolve().parents[1] / "nbstats"


@pytest.fixture(scope="module")
def package():
    return read_package(PACKAGE)


def _shown(imports) -> str:
    return "\n".join(
        f"{i.source} line {i.line}: {i.target}{'.' + i.name if i.name else ''}"
        for i in imports
    )


def _in_report(cycle: list[str]) -> bool:
    return all(
        m == "nbstats.reporting" or m.startswith("nbstats.reporting.") for m in cycle
    )


def test_no_import_cycles(package):
    # the one upward call (a result's .plot() imports nbstats.plots) is an
    # edge like any other: it makes no cycle because the plots never import
    # a result module (see test_checker_finds_a_cycle_through_plots)
    found = [c for c in cycles(package.edges()) if not _in_report(c)]
    assert not found, f"import cycles: {found}"


def test_no_import_cycles_inside_report(package):
    found = [c for c in cycles(package.edges()) if _in_report(c)]
    assert not found, f"import cycles: {found}"


def test_no_import_of_the_package_root(package):
    found = root_imports(package)
    assert not found, "import the defining module, not the package root:\n" + _shown(
        found
    )


def test_no_private_name_across_rooms(package):
    found = private_across_rooms(package)
    assert not found, "make the helper public in its own module:\n" + _shown(found)


@pytest.mark.parametrize("where", ["widgets", "report"])
def test_no_compiled_kernels_outside_stats(package, where):
    found = third_party_imports(package, "numba", f"nbstats.{where}")
    assert not found, f"numba imported in nbstats/{where}: {found}"


#: Layer -> the rooms (and top-level modules) it must never import.
_ABOVE_STATS = ["plots", "io", "reporting", "widgets", "app", "accessor", "cli"]
FORBIDDEN = {
    "scores": ["results", "stats", "simulate", *_ABOVE_STATS],
    "results": ["stats", "simulate", *_ABOVE_STATS],
    "stats": ["simulate", *_ABOVE_STATS],
    "simulate": _ABOVE_STATS,
    "plots": ["io", "reporting", "widgets", "app", "accessor", "cli"],
    "reporting": ["app", "accessor", "cli"],
    "widgets": ["app", "accessor", "cli"],
    "app": ["accessor", "cli"],
}


def test_util_imports_nothing_from_nbstats(package):
    # the bottom room: argument checks, random state, progress, memory, lazy
    # imports; every other room may use it
    found = imports_of(package, "nbstats.util", "nbstats")
    found = [i for i in found if room(i.target) != "util"]
    assert not found, _shown(found)


def _upward_plot_call(imp) -> bool:
    """A result's ``.plot()``: ``from nbstats import plots`` (or a plots
    module) imported inside a function of ``results``."""
    return (
        room(imp.source) == "results"
        and room(imp.target) == "plots"
        and imp.in_function
    )


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_import_only_downwards(package, layer):
    banned = set(FORBIDDEN[layer])
    found = [
        i
        for i in imports_of(package, f"nbstats.{layer}", "nbstats")
        if room(i.target).split(".")[0] in banned and not _upward_plot_call(i)
    ]
    assert not found, f"nbstats.{layer} imports a layer above it:\n" + _shown(found)


def test_the_upward_plot_call_is_inside_functions(package):
    # at module level it would load matplotlib with every result module
    found = [
        i
        for i in imports_of(package, "nbstats.results", "nbstats.plots")
        if not i.in_function
    ]
    assert not found, _shown(found)


# -- the checker finds each fault -------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root / "nbstats"


@pytest.fixture
def faulty(tmp_path):
    """A package with a function-level cycle, a root import, a private name
    across rooms and numba in the widgets."""
    return read_package(
        _write(
            tmp_path,
            {
                "nbstats/__init__.py": "from nbstats.scores.table import score_table\n",
                "nbstats/scores/table.py": "def _as_vector(x):\n    return x\n",
                "nbstats/scores/__init__.py": "",
                "nbstats/stats/__init__.py": "",
                "nbstats/stats/a.py": "from nbstats.stats import b\n",
                "nbstats/stats/b.py": (
                    "def late():\n    from nbstats.stats.a import thing\n"
                ),
                "nbstats/stats/c.py": (
                    "import nbstats\nfrom nbstats.scores.table import _as_vector\n"
                ),
                "nbstats/stats/d.py": "from nbstats import scores, score_table\n",
                "nbstats/widgets/__init__.py": "",
                "nbstats/widgets/w.py": "def f():\n    import numba\n",
            },
        )
    )


def test_checker_finds_a_function_level_cycle(faulty):
    assert cycles(faulty.edges()) == [["nbstats.stats.a", "nbstats.stats.b"]]


def test_checker_finds_root_imports_but_not_submodule_imports(faulty):
    found = [(i.source, i.name) for i in root_imports(faulty)]
    # `from nbstats import scores` imports a submodule: not the root
    assert found == [("nbstats.stats.c", ""), ("nbstats.stats.d", "score_table")]


def test_checker_finds_private_names_across_rooms(faulty):
    found = [(i.source, i.target, i.name) for i in private_across_rooms(faulty)]
    assert found == [("nbstats.stats.c", "nbstats.scores.table", "_as_vector")]


def test_checker_finds_numba_in_widgets(faulty):
    found = third_party_imports(faulty, "numba", "nbstats.widgets")
    assert found == [("nbstats.widgets.w", 2)]


def test_checker_finds_a_cycle_through_plots(tmp_path):
    # the upward .plot() call is allowed only while plots never import results
    files = {
        "nbstats/__init__.py": "",
        "nbstats/results/__init__.py": "",
        "nbstats/results/base.py": (
            "class Result:\n    def plot(self):\n        from nbstats import plots\n"
        ),
        "nbstats/plots/__init__.py": "from nbstats.plots import cd\n",
        "nbstats/plots/cd.py": "",
    }
    clean = read_package(_write(tmp_path, files))
    assert cycles(clean.edges()) == []
    files["nbstats/plots/cd.py"] = "from nbstats.results.base import Result\n"
    faulty = read_package(_write(tmp_path, files))
    assert cycles(faulty.edges()) == [
        ["nbstats.plots", "nbstats.plots.cd", "nbstats.results.base"]
    ]


def test_rooms():
    assert room("nbstats.scores.table") == room("nbstats.scores") == "scores"
    assert room("nbstats.util.scipy_stats") == room("nbstats.util.random") == "util"
    assert room("nbstats.cli.options") == room("nbstats.cli") == "cli"
    assert room("nbstats.app.server") == "app"
    assert room("nbstats.reporting.cells") == "reporting"
    assert room("nbstats.stats.bayes.sign") == "stats.bayes"
    assert room("nbstats.stats.bayes.signrank.pairs") == "stats.bayes"
    assert room("nbstats.stats.frequentist.sign") == "stats.frequentist"
    assert room("nbstats.stats.bayes") == "stats.bayes"
    assert room("nbstats.stats.ranking") == room("nbstats.stats") == "stats"

"""The report notebook's code: template files read, filtered and copied.

The notebooks are built (not executed: the report tests run them) for every
layout, choice of analyses, missing scores, per-fold scores and the
answer-first part alone, and each is checked statically: every code cell
parses, and every name a cell reads was defined by an earlier cell -- so the
``when`` conditions of the template files never leave a cell reading a name
that no earlier cell set.
"""

from __future__ import annotations

import ast
import builtins
import itertools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.reporting import notebook, notebook_template
from nbstats.reporting.results import ReportResults

TEMPLATE = Path(notebook_template.__file__).parent / "template"


def _table(m: int, n: int = 12, holes: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    values = rng.normal(0.8, 0.04, (n, m)) + np.linspace(0, 0.04, m)
    if holes:
        values[1, 0] = values[3, 1] = np.nan
    return pd.DataFrame(
        values, index=[f"d{i}" for i in range(n)], columns=[f"a{j}" for j in range(m)]
    )


def _folds(m: int, n: int = 8, runs: int = 2, k: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    rows = [
        (f"d{i}", f"a{j}", f, rng.normal(0.8 + 0.01 * j, 0.03))
        for i, j, f in itertools.product(range(n), range(m), range(runs * k))
    ]
    return pd.DataFrame(rows, columns=["dataset", "clf", "fold", "acc"])


FOLDS = {"case": "dataset", "algorithm": "clf", "score": "acc", "fold": "fold"}

CASES = (
    [
        pytest.param(
            _table(m, holes=holes),
            {
                "analyses": analyses,
                "core_only": core_only,
                **({"nan_policy": "pairwise" if m > 2 else "omit"} if holes else {}),
            },
            id=f"m{m}-{'+'.join(analyses)}-holes{holes}-core{core_only}",
        )
        for m in (2, 4, 14)
        for analyses in (
            ("frequentist",),
            ("bayesian",),
            ("ranks",),
            ("frequentist", "bayesian", "ranks"),
        )
        for holes in (False, True)
        for core_only in (False, True)
        if not (m == 2 and analyses == ("ranks",))
    ]
    + [
        pytest.param(
            _folds(m),
            {**FOLDS, "runs": 2, "hierarchical": hierarchical},
            id=f"folds{m}",
        )
        for m, hierarchical in ((2, True), (3, True), (14, False))
    ]
    + [pytest.param(_folds(3), FOLDS, id="folds-no-runs")]
)


def _build(scores, options):
    options = {**nbstats.reporting._REPORT_DEFAULTS, **options}
    table, settings = nbstats.reporting._prepare(scores, **options)
    return notebook.build_notebook(table, settings), settings


def _reads_and_sets(source: str) -> tuple[set[str], set[str]]:
    """Names a cell reads before setting them, and the names it sets (a
    top-level cell: comprehension and lambda variables are local)."""
    tree = ast.parse(source)
    local: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.comprehension):
            local |= {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Lambda):
            local |= {a.arg for a in node.args.args}
    sets: set[str] = set()
    reads: set[str] = set()
    for statement in tree.body:
        for node in ast.walk(statement):
            if (
                isinstance(node, ast.Name)
                and isinstance(node.ctx, ast.Load)
                and node.id not in sets | local
            ):
                reads.add(node.id)
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                sets.add(node.id)
            elif isinstance(node, ast.alias):
                sets.add((node.asname or node.name).partition(".")[0])
    return reads, sets


@pytest.mark.parametrize(("scores", "options"), CASES)
def test_every_name_a_cell_reads_is_set_by_an_earlier_cell(scores, options):
    nb, _ = _build(scores, options)
    defined = set(dir(builtins))
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        reads, sets = _reads_and_sets(cell.source)
        assert reads <= defined, (reads - defined, cell.source)
        defined |= sets
    # no template header or "# when:" comment reaches the notebook
    code = "\n".join(c.source for c in nb.cells)
    assert "# %%" not in code and "# when:" not in code
    assert "TYPE_CHECKING" not in code and "notebook_names" not in code


@pytest.mark.parametrize(("scores", "options"), CASES[:24:3])
def test_the_settings_cell_holds_the_users_values(scores, options):
    nb, settings = _build(scores, options)
    first = nb.cells[1].source
    namespace: dict = {}
    exec(first, namespace)  # imports and literals only
    assert namespace["ALPHA"] == settings.alpha
    assert namespace["LAYOUT"] == settings.layout
    assert namespace["NAN_POLICY"] == settings.nan_policy
    assert namespace["CORE_ONLY"] == settings.core_only
    assert namespace["LOSS"] == tuple(settings.loss)
    read = notebook.read_scores(namespace["SCORES_CSV"])
    assert read.shape[1] == scores.shape[1]
    # the float labels it numbers are those the included cells display
    assert namespace["TABLES"][0] == "tab:core"
    # the only generated cell: the others are the template files' text
    texts = "\n".join(path.read_text() for path in TEMPLATE.glob("*.py"))
    for cell in nb.cells[2:]:
        if cell.cell_type == "code":
            for line in cell.source.splitlines():
                assert line in texts, line


def test_every_template_file_is_python_with_cells():
    files = sorted(TEMPLATE.glob("*.py"))
    names = {path.stem for path in files} - {"conftest"}
    assert names == {
        "start",
        "core",
        "data",
        "two_sample",
        "multiple",
        "folds",
        "appendix",
        "methods",
    }
    for name in names:
        ast.parse((TEMPLATE / f"{name}.py").read_text())
        assert notebook_template._read(name), name


def test_the_template_files_are_not_collected_by_pytest():
    """They are the notebook's code: importing them (as --doctest-modules
    would) runs cells without the notebook's names."""
    found = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p",
         "no:cacheprovider", str(TEMPLATE)],
        capture_output=True, text=True, check=False,
        cwd=Path(nbstats.__file__).parents[1],
    )  # fmt: skip
    assert "no tests collected" in found.stdout, found.stdout + found.stderr


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("freq and not compact", True),
        ("layout != 'two-sample'", True),
        ("['a'] * compact + ['b']", ["b"]),
        ("['a'] if freq else []", ["a"]),
        ("layout in ['standard', 'compact']", True),
        ("freq or bayes", True),
    ],
)
def test_header_expressions(expression, value):
    flags = {"freq": True, "bayes": False, "compact": False, "layout": "standard"}
    node = ast.parse(expression, mode="eval").body
    assert notebook_template.evaluate(node, flags) == value


def test_header_expressions_refuse_unknown_names_and_code():
    flags = {"freq": True}
    with pytest.raises(KeyError, match="unknown flag 'fre'"):
        notebook_template.evaluate(ast.parse("fre", mode="eval").body, flags)
    with pytest.raises(ValueError, match="unsupported template expression"):
        notebook_template.evaluate(ast.parse("open('x')", mode="eval").body, flags)


def test_the_results_reach_methods_as_one_object():
    from nbstats.reporting import cells, methods

    scores = nbstats.datasets.load("demsar2006")
    results = ReportResults(
        friedman=nbstats.friedman(scores),
        nemenyi=nbstats.posthoc(scores, method="nemenyi"),
    )
    with pytest.raises(TypeError):  # keyword-only, frozen
        ReportResults(nbstats.friedman(scores))  # type: ignore[misc]
    with pytest.raises(AttributeError):
        results.holm = None  # type: ignore[misc]
    cells.start(tables=[], figures=[], figure_formats=())
    shown = cells.methods(scores, results, seed=0, loss=(1, 19))
    direct = methods.methods_paragraph(
        results, n_cases=14, n_algorithms=4, higher_is_better=True, seed=0,
        loss=(1.0, 19.0),
    )  # fmt: skip
    assert shown.text() == direct.text()
    assert "Friedman test" in shown.text() and "Nemenyi test" in shown.text()
    assert "Holm" not in shown.text()  # not run, not stated

"""The report's section on per-fold scores: each data set on its own.

When the scores come as cross-validation folds, the rest of the report
compares the algorithms across data sets on the fold means. This section adds
what the folds tell about each data set: the corrected resampled t-test
(Nadeau & Bengio 2003) and the Bayesian correlated t-test (Corani & Benavoli
2015) of every pair shown, on every data set, summed up as how many data sets
each decision got.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from nbstats.reporting.display import _n, paragraph, ref
from nbstats.reporting.references import Paragraph, author_year
from nbstats.reporting.tables import frame_table

__all__ = [
    "FOLD_CASES_TYPESET",
    "fold_columns",
    "fold_design_text",
    "fold_pairs",
    "fold_scores_csv",
    "fold_section",
    "fold_tests_missing",
    "read_fold_scores",
]

#: A two-algorithm report lists every data set's tests up to this many cases.
FOLD_CASES_TYPESET = 60


def fold_columns(folds: Mapping[str, Any]) -> list[str]:
    """The fold columns a report's fold summary names."""
    return [str(c) for c in folds["columns"]]


def fold_pairs(order: Sequence[str], layout: str) -> list[tuple[str, str]]:
    """The pairs (a, b) the fold section tests, b the better-ranked one.

    ``order`` lists the algorithms best first. Every pair, or in the compact
    layout only the neighbours in the ranking.

    Examples
    --------
    >>> fold_pairs(["A", "B", "C"], "standard")
    [('B', 'A'), ('C', 'A'), ('C', 'B')]
    >>> fold_pairs(["A", "B", "C"], "compact")
    [('B', 'A'), ('C', 'B')]
    """
    order = [str(name) for name in order]
    if layout == "compact":
        return [(order[k + 1], order[k]) for k in range(len(order) - 1)]
    return [
        (order[j], order[i])
        for i in range(len(order))
        for j in range(i + 1, len(order))
    ]


def fold_scores_csv(wide: pd.DataFrame) -> str:
    """Per-fold scores (rows = (case, fold), columns = algorithms) as CSV text
    that :func:`read_fold_scores` reads back exactly; several fold columns
    become one fold key, the JSON array of their values (``["1", "3"]``), which
    no two different folds share."""
    frame = wide.copy()
    case = [str(key[0]) for key in frame.index]
    fold = [
        str(key[1]) if len(key) == 2 else json.dumps([str(p) for p in key[1:]])
        for key in frame.index
    ]
    frame.index = pd.MultiIndex.from_arrays([case, fold], names=["case", "fold"])
    frame.columns = [str(c) for c in frame.columns]
    return frame.to_csv(lineterminator="\n", na_rep="nan")


def read_fold_scores(
    text: str, aliases: Mapping[str, str], cases: Sequence[str]
) -> pd.DataFrame:
    """The long table (case, fold, algorithm, score) of the analysed cases,
    algorithms renamed to their aliases, from :func:`fold_scores_csv` text."""
    frame = pd.read_csv(
        io.StringIO(text), index_col=[0, 1], dtype=str, keep_default_na=False
    )
    frame = frame.astype(float).rename(columns=dict(aliases))
    keep = frame.index.get_level_values("case").isin([str(c) for c in cases])
    frame = frame[keep]
    frame.columns.name = "algorithm"
    return frame.stack().rename("score").reset_index()


def fold_design_text(folds: Mapping[str, Any], runs: int | None) -> str:
    """How the folds were made, in words ("10 runs of 10-fold cross-validation")."""
    k = folds["max_folds"]
    runs = runs or folds.get("runs")
    if not runs:
        return f"{k} folds"
    per_run = k // runs
    if runs == 1:
        return f"{per_run}-fold cross-validation"
    return f"{runs} runs of {per_run}-fold cross-validation"


def fold_tests_missing(folds: Mapping[str, Any]) -> None:
    """Say why there is no per-data-set section (no runs given, one fold column)."""
    columns = ", ".join(fold_columns(folds))
    paragraph(
        Paragraph().add(
            f"The scores came as {folds['max_folds']} folds per case (column "
            f"{columns}), but not how they were made: the correlated t-tests of "
            "each data set correct the fold variance by the share of cases in a "
            "test fold, 1/k, and k is unknown. Give the number of runs of the "
            "cross-validation (runs= in nbstats.report(), --runs on the command "
            "line) or two fold columns (run, fold) to add them."
        )
    )


def fold_section(
    result: Any,
    *,
    folds: Mapping[str, Any],
    runs: int | None,
    compact: bool,
    cases_table: bool,
) -> None:
    """Paragraph and table(s) of :func:`nbstats.correlated_pairs` in a report.

    ``cases_table``: also list every data set's tests (a two-algorithm
    report of at most :data:`FOLD_CASES_TYPESET` data sets).
    """
    by_pair = result.by_pair
    n_cases = int(result.table["case"].nunique())
    rope = result.rope
    design = fold_design_text(folds, runs)
    para = Paragraph().add(
        f"The scores are {design} on each of the {n_cases} data sets. Fold "
        "scores are correlated (their training sets overlap), so each data set "
        "is tested on its own with the corrected resampled t-test "
        f"{author_year('nadeau2003')} and the Bayesian correlated t-test "
        f"{author_year('corani2015')}, whose posterior probabilities decide a "
        "pair on a data set when one "
        f"exceeds {_n(result.threshold)}"
        + (
            " (one algorithm better, or the two equivalent within the rope "
            f"±{_n(rope)})"
            if rope > 0
            else " (one algorithm better; no rope was set, so no data set can "
            "be declared equivalent)"
        )
        + ". ",
    )
    if compact:
        para.add("Only the neighbours in the ranking are shown. ")
    para.add("See ", ref("tab:fold-pairs"), ".")
    if cases_table:
        para.add(" Every data set's tests are in ", ref("tab:fold-cases"), ".")
    paragraph(para)
    frame = pd.DataFrame(
        {
            "data sets": by_pair["cases"].to_numpy(),
            "first better": by_pair["b better"].to_numpy(),
            "equivalent": by_pair["equivalent"].to_numpy(),
            "second better": by_pair["a better"].to_numpy(),
            "undecided": by_pair["undecided"].to_numpy(),
        },
        index=pd.Index(
            [f"{b} vs {a}" for a, b in zip(by_pair["a"], by_pair["b"], strict=True)],
            name="comparison",
        ),
    )
    if rope == 0:
        frame = frame.drop(columns="equivalent")
    if result.min_folds is not None:
        frame["left out"] = by_pair["left out"].to_numpy()
    frame_table(
        "tab:fold-pairs",
        f"Bayesian correlated t-test on each data set's folds ({design}); in "
        "each comparison \u201cX vs Y\u201d, the number of data sets on which the "
        "first, X, is better than Y"
        + (f", the two are equivalent (rope ±{_n(rope)})" if rope > 0 else "")
        + f", the second, Y, is better than X, or no region reaches "
        f"{_n(result.threshold)} (undecided)." + _left_out_caption(result),
        frame,
    )
    if cases_table:
        frame_table(
            "tab:fold-cases",
            "Each data set's correlated t-tests: the mean fold difference, the "
            "corrected resampled t-test's two-sided p-value, and the Bayesian "
            "correlated t-test's posterior probabilities and decision (an "
            "algorithm better, equivalent, or undecided)." + _left_out_cases(result),
            _case_frame(result.table, folds=result.min_folds is not None),
        )


def _left_out_caption(result: Any) -> str:
    """With failed folds (``min_folds``): the folds a (pair, data set) is
    tested on, the minimum, and how many were left out below it.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> print(_left_out_caption(SimpleNamespace(min_folds=8, left_out=range(12))))
    ... # doctest: +NORMALIZE_WHITESPACE
     With failed folds, a pair is tested on a data set's folds that both
     algorithms scored, when there are at least 8; left out: the data sets
     with fewer, 12 (pair, data set) in all.
    """
    if result.min_folds is None:
        return ""
    return (
        " With failed folds, a pair is tested on a data set's folds that both "
        f"algorithms scored, when there are at least {result.min_folds}; left "
        f"out: the data sets with fewer, {len(result.left_out):,} (pair, data "
        "set) in all."
    )


def _left_out_cases(result: Any) -> str:
    """The two-algorithm case table's note on failed folds: the folds each
    data set used and the data sets left out, named with their paired folds."""
    if result.min_folds is None:
        return ""
    text = (
        " Folds: those both algorithms scored (at least "
        f"{result.min_folds} were required)"
    )
    out = result.left_out
    if len(out):
        named = ", ".join(
            f"{row.case} ({int(row.folds)} of {int(row.of)})"
            for row in out.itertuples(index=False)
        )
        text += f"; left out with fewer: {named}"
    return text + "."


def _case_frame(table: pd.DataFrame, *, folds: bool = False) -> pd.DataFrame:
    """Each data set's tests of one pair, every header and decision naming
    the algorithms (never a bare "a" or "b"); ``folds``: with the folds each
    data set used (failed folds)."""
    a, b = str(table["a"].iloc[0]), str(table["b"].iloc[0])
    words = {
        "a": f"{a} better",
        "b": f"{b} better",
        "equivalent": "equivalent",
        "undecided": "undecided",
        "indeterminate": "indeterminate",
    }
    frame = pd.DataFrame(
        {
            f"mean {b} − {a}": table["mean_difference"].to_numpy(),
            "p-value": table["pvalue"].to_numpy(),
            f"P({a} better)": [_probability(p) for p in table["prob_left"]],
            "P(rope)": [_probability(p) for p in table["prob_rope"]],
            f"P({b} better)": [_probability(p) for p in table["prob_right"]],
            "decision": [words.get(d, d) for d in table["decision"]],
        },
        index=pd.Index(table["case"].astype(str).to_numpy(), name="data set"),
    )
    if table["prob_rope"].isna().all():
        frame = frame.drop(columns="P(rope)")
    if folds:
        frame.insert(0, "folds", table["n"].astype(int).to_numpy())
    return frame


def _probability(p: float) -> str:
    """Three decimals; 0 and 1 only when exact (a point mass), else < 0.001.

    Examples
    --------
    >>> [_probability(p) for p in (0.0, 1e-7, 0.95432, 0.99991, 1.0)]
    ['0', '< 0.001', '0.954', '> 0.999', '1']
    """
    p = float(p)
    if p in (0.0, 1.0):
        return f"{p:g}"
    if p < 0.0005:
        return "< 0.001"
    if p >= 0.9995:
        return "> 0.999"
    return f"{p:.3f}"

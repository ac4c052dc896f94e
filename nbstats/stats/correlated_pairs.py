"""Correlated t-tests of many pairs on every data set of per-fold scores."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.folds import CorrelatedPairsResult
from nbstats.scores.names import name_array
from nbstats.stats.bayes.decision import decide_many, resolve_threshold
from nbstats.stats.correlated import (
    FoldDesign,
    fold_design,
    paired_moments,
    region_probabilities,
)
from nbstats.stats.fold_pairing import fold_blocks
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_flag, check_positive

__all__ = ["correlated_pairs"]


def correlated_pairs(
    data: pd.DataFrame,
    *,
    case: str,
    algorithm: str,
    score: str,
    fold: str | Sequence[str],
    folds: int | None = None,
    runs: int | None = None,
    test_fraction: float | None = None,
    rope: float = 0.0,
    pairs: Sequence[tuple[str, str]] | None = None,
    threshold: float | None = None,
    loss: tuple[float, float] = (1, 19),
    higher_is_better: bool = True,
    min_folds: int | None = None,
) -> CorrelatedPairsResult:
    """Both correlated t-tests for pairs of algorithms on each data set's folds.

    For every pair (a, b) and every case (data set), the corrected resampled
    t-test (:func:`nbstats.correlated_ttest`) and the Bayesian correlated
    t-test (:func:`nbstats.bayes_correlated_ttest`) of the fold differences
    ``b − a``; and per pair, how many data sets each decision got. This is
    the per-data-set view; across data sets, compare the averaged scores
    (:func:`nbstats.bayes_signrank`) or use a hierarchical model.

    Parameters
    ----------
    data : DataFrame
        Long per-fold scores: one row per (case, algorithm, fold).
    case, algorithm, score : str
        Columns of ``data``.
    fold : str or sequence of str
        The column(s) naming a fold, e.g. ``"fold"`` or ``["run", "fold"]``.
    folds, runs, test_fraction
        How the folds were made (see :func:`nbstats.stats.correlated.fold_design`);
        with two fold columns ``(run, fold)`` and none of these, the number of
        runs is read from the first column.
    rope : float
        Half-width of the region of practical equivalence, in score units.
    pairs : sequence of (a, b), optional
        The pairs to test; all pairs (in column order) by default.
    threshold, loss
        The probability a region needs to be decided (as in
        :func:`nbstats.bayes_correlated_ttest`).
    higher_is_better : bool
    min_folds : int, optional
        Failed folds (a fold's row absent or its score missing) are refused
        without it. With ``min_folds=K`` (2 ≤ K ≤ the folds of a case) each
        pair is tested, on each case, on the J folds where both algorithms
        have a score: the correction uses 1/J + ρ/(1 − ρ) with the design's
        ρ (a failed fold does not change the others' splits; for r runs of
        k-fold, J counts the scores used), and J − 1 degrees of freedom. A
        (pair, data set) with fewer than K such folds is left out of that pair
        and listed in ``left_out``.

    Returns
    -------
    CorrelatedPairsResult
        ``table``: one row per (a, b, case) tested, its ``n`` the folds used;
        ``by_pair``: one row per pair with the counts of decisions and of
        cases ``left out``; ``left_out``: the (a, b, case) left out, with
        their paired ``folds`` and the case's ``of``.

    Examples
    --------
    >>> import nbstats
    >>> folds = nbstats.datasets.load("uci_accuracy_folds")
    >>> res = nbstats.correlated_pairs(
    ...     folds, case="dataset", algorithm="classifier", score="accuracy",
    ...     fold="fold", runs=10, rope=0.01, pairs=[("nbc", "aode")])
    >>> res.by_pair[["a", "b", "b better", "equivalent", "a better", "undecided"]]
         a     b  b better  equivalent  a better  undecided
    0  nbc  aode        14           7         0         33

    Each row equals one call of :func:`nbstats.bayes_correlated_ttest`:

    >>> wide = folds.pivot_table(index=["dataset", "fold"], columns="classifier",
    ...                          values="accuracy")
    >>> one = nbstats.bayes_correlated_ttest(
    ...     wide.loc["anneal", "nbc"], wide.loc["anneal", "aode"],
    ...     rope=0.01, runs=10)
    >>> row = res.table.set_index("case").loc["anneal"]
    >>> bool(abs(row["prob_right"] - one.prob_right) < 1e-12)
    True

    Failed folds: B has no score on fold 4 of t1, A none on folds 0–2 of
    t2. With ``min_folds=3`` each case uses the folds both have, and t2
    (2 paired folds) is left out and listed:

    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> long = pd.DataFrame(
    ...     [(t, alg, f, 0.8 + 0.01 * (alg == "B") + rng.normal(0, 0.01))
    ...      for t in ("t1", "t2", "t3") for alg in "AB" for f in range(5)],
    ...     columns=["task", "alg", "fold", "acc"])
    >>> long.loc[(long.task == "t1") & (long.alg == "B") & (long.fold == 4),
    ...          "acc"] = np.nan
    >>> long = long[~((long.task == "t2") & (long.alg == "A") & (long.fold < 3))]
    >>> res = nbstats.correlated_pairs(long, case="task", algorithm="alg",
    ...                                score="acc", fold="fold", folds=5,
    ...                                min_folds=3)
    >>> res.table[["case", "n"]]
      case  n
    0   t1  4
    1   t3  5
    >>> res.left_out
       a  b case  folds  of
    0  A  B   t2      2   5
    """
    rope = check_positive("rope", rope, allow_zero=True)
    threshold = resolve_threshold(threshold, loss)
    check_flag("higher_is_better", higher_is_better)
    if pairs is not None and (
        isinstance(pairs, (str, bytes)) or not isinstance(pairs, Iterable)
    ):
        raise TypeError(
            "pairs must be a list of (a, b) tuples of algorithm names, or None "
            f"for every pair; got {pairs!r} ({type(pairs).__name__})."
        )
    blocks = fold_blocks(
        data, case=case, algorithm=algorithm, score=score, fold=fold,
        min_folds=min_folds, call="nbstats.correlated_pairs",
    )  # fmt: skip
    means, fold_columns = blocks.means, blocks.fold_columns
    names = list(means.columns)
    chosen = _pairs(pairs, list(means.columns))
    minimum = 2 if blocks.min_folds is None else blocks.min_folds
    rows: list[pd.DataFrame] = []
    for case_name, block in zip(means.index, blocks.blocks, strict=True):
        design = _design(
            block.shape[0], data, case, case_name, fold_columns, folds, runs,
            test_fraction,
        )  # fmt: skip
        rows.append(
            _case_rows(block, chosen, means, case_name, design, rope, threshold,
                       higher_is_better)
        )  # fmt: skip
    every = pd.concat(rows, ignore_index=True)
    used = every["n"] >= minimum
    table = every[used].drop(columns="of").reset_index(drop=True)
    left_out = every.loc[~used, ["a", "b", "case", "n", "of"]]
    left_out = left_out.rename(columns={"n": "folds"}).reset_index(drop=True)
    return CorrelatedPairsResult(
        table=table,
        by_pair=_by_pair(
            table, None if blocks.min_folds is None else left_out, chosen, means
        ),
        rope=rope,
        threshold=threshold,
        names=names,
        min_folds=blocks.min_folds,
        left_out=left_out,
    )


def _pairs(
    pairs: Sequence[tuple[str, str]] | None, columns: list[Any]
) -> list[tuple[int, int]]:
    if pairs is None:
        return list(itertools.combinations(range(len(columns)), 2))
    position = {str(c): k for k, c in enumerate(columns)}
    chosen = []
    for pair in pairs:
        try:
            a, b = pair
        except (TypeError, ValueError):
            raise ValueError(
                f"pairs must be (a, b) tuples of algorithm names, got {pair!r}."
            ) from None
        unknown = [x for x in (a, b) if str(x) not in position]
        if unknown:
            raise ValueError(
                f"unknown algorithm(s) {unknown} in pairs; the algorithms are "
                f"{list(position)}."
            )
        if str(a) == str(b):
            raise ValueError(f"a pair needs two different algorithms, got {pair!r}.")
        chosen.append((position[str(a)], position[str(b)]))
    if not chosen:
        raise ValueError(
            "pairs is empty; give at least one (a, b) pair of algorithm names, "
            "or pairs=None for every pair."
        )
    return chosen


def _design(
    n: int,
    data: pd.DataFrame,
    case: str,
    case_name: object,
    fold_columns: list[str],
    folds: int | None,
    runs: int | None,
    test_fraction: float | None,
) -> FoldDesign:
    if folds is None and runs is None and test_fraction is None:
        if len(fold_columns) < 2:
            raise ValueError(
                f"say how the fold scores were made: folds=k (folds per run), "
                f"runs=r, or test_fraction=n_test/n_total; one fold column "
                f"({fold_columns[0]!r}) does not tell runs from folds (or name two "
                f"columns, fold=['run', 'fold'])."
            )
        rows = data[case].isin([case_name])  # a tuple name is one value
        runs = int(data.loc[rows, fold_columns[0]].nunique())
    return fold_design(n, folds=folds, runs=runs, test_fraction=test_fraction)


def _case_rows(
    block: np.ndarray,
    pairs: list[tuple[int, int]],
    means: pd.DataFrame,
    case_name: object,
    design: FoldDesign,
    rope: float,
    threshold: float,
    higher_is_better: bool,
) -> pd.DataFrame:
    """Every pair's tests on one case: ``n`` its paired folds (NaN statistics
    where n < 2; the caller leaves out n < min_folds), ``of`` the case's."""
    first = np.array([a for a, _ in pairs])
    second = np.array([b for _, b in pairs])
    with np.errstate(over="ignore", invalid="ignore"):
        d = block[:, second] - block[:, first]
    if not higher_is_better:
        d = -d
    if np.isinf(d).any():
        raise ValueError(
            f"the fold differences on case {case_name!r} overflow (scores near "
            f"±1.8e308); rescale the scores."
        )
    if block.shape[0] < 2:
        raise ValueError(
            f"case {case_name!r} has {block.shape[0]} fold; the correlated "
            f"t-tests need at least 2 folds per case."
        )
    n, unit, mean, se = paired_moments(d, design.ratio)
    df = np.maximum(n - 1, 1)  # n < 2: NaN statistics, left out by the caller
    with np.errstate(divide="ignore", invalid="ignore"):  # NaN where n < 2
        t = np.where(se > 0, mean / np.where(se > 0, se, 1.0), np.sign(mean) * np.inf)
    t = np.where((se == 0) & (mean == 0), 0.0, t)
    pvalue = np.minimum(1.0, 2 * sps.t.sf(np.abs(t), df))
    left, right = region_probabilities(unit, mean, se, df, rope)
    middle = np.clip(1.0 - left - right, 0.0, 1.0) if rope > 0 else np.nan
    decided = decide_many(left, middle, right, threshold)
    columns = means.columns
    return pd.DataFrame(
        {
            "a": name_array(columns)[first],
            "b": name_array(columns)[second],
            "case": name_array([case_name] * first.size),
            "n": n,
            "of": block.shape[0],
            "mean_difference": mean * unit,
            "t": t,
            "pvalue": pvalue,
            "prob_left": left,
            "prob_rope": middle,
            "prob_right": right,
            "decision": decided,
        }
    )


def _by_pair(
    table: pd.DataFrame,
    left_out: pd.DataFrame | None,
    pairs: list[tuple[int, int]],
    means: pd.DataFrame,
) -> pd.DataFrame:
    counts = (
        table.groupby(["a", "b"], sort=False)["decision"]
        .value_counts()
        .unstack(fill_value=0)
    )
    for decision in ("b", "equivalent", "a", "undecided"):
        if decision not in counts.columns:
            counts[decision] = 0
    columns = means.columns
    order = [(columns[a], columns[b]) for a, b in pairs]
    counts = counts.reindex(order, fill_value=0)  # a pair left out everywhere: 0

    def per_pair(frame: pd.DataFrame) -> np.ndarray:
        sizes = frame.groupby(["a", "b"], sort=False).size()
        return sizes.reindex(order, fill_value=0).to_numpy()

    frame = pd.DataFrame(
        {
            "a": [a for a, _ in order],
            "b": [b for _, b in order],
            "cases": per_pair(table),
            "b better": counts["b"].to_numpy(),
            "equivalent": counts["equivalent"].to_numpy(),
            "a better": counts["a"].to_numpy(),
            "undecided": counts["undecided"].to_numpy(),
        }
    )
    if left_out is not None:  # min_folds given: the cases each pair lost
        frame["left out"] = per_pair(left_out)
    return frame

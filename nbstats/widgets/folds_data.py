"""The fold dashboard's data: per-fold scores validated once, the per-data-set
Bayesian correlated t-tests of a pair vectorised and cached.

:class:`FoldTests` keeps every data set's folds × algorithms block (oriented
so that higher is better) and, per (pair, design), the moments of the
differences (:func:`nbstats.stats.correlated.student_moments`), per (pair,
design, rope) the three probabilities
(:func:`nbstats.stats.correlated.region_probabilities`) — the same functions
:func:`nbstats.correlated_pairs` uses, so the summary equals one
:func:`nbstats.bayes_correlated_ttest` per data set. The shown data set's
test *is* a call of :func:`nbstats.bayes_correlated_ttest`.

With ``min_folds`` (failed folds), a block keeps NaN for a fold without a
score; a pair uses, on each data set, the J folds where both algorithms have
one (:func:`nbstats.stats.correlated.paired_moments`: the design's ρ, 1/J in
the correction, J − 1 degrees of freedom), and a data set with fewer than
``min_folds`` is left out of that pair.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from nbstats.stats.bayes.decision import decide_many
from nbstats.stats.correlated import (
    bayes_correlated_ttest,
    fold_design,
    paired_moments,
    region_probabilities,
)
from nbstats.stats.fold_pairing import fold_blocks
from nbstats.util.recent import Recent

#: How the refusal of failed folds names the dashboard's ``min_folds``.
CALL = "the fold dashboard (nbstats.dashboard(..., kind='folds'))"

__all__ = ["FoldTests", "decisions", "runs_options"]

#: (pair, design) moments and (pair, design, rope) probabilities kept.
CACHE = 32


def runs_options(ns: Sequence[int]) -> list[tuple[str, int]]:
    """(label, runs) for every number of runs that leaves k >= 2 folds per run
    in every data set (``ns``: the data sets' numbers of folds).

    Examples
    --------
    >>> [runs for _, runs in runs_options([20])]
    [1, 2, 4, 5, 10]
    >>> runs_options([20])[3][0]
    '5 runs × 4-fold CV (ρ = 1/4)'
    """
    common = 0
    for n in ns:
        common = math.gcd(common, int(n))
    options = []
    for runs in range(1, common + 1):
        if common % runs or min(ns) // runs < 2:
            continue
        plural = "s" if runs > 1 else ""
        if len(ns) == 1:
            k = ns[0] // runs
            label = f"{runs} run{plural} × {k}-fold CV (ρ = 1/{k})"
        else:
            label = f"{runs} run{plural} of k-fold CV (ρ = 1/k)"
        options.append((label, runs))
    return options


def decisions(
    left: np.ndarray, middle: np.ndarray, right: np.ndarray, threshold: float
) -> np.ndarray:
    """Each data set's decision, the rule of :func:`nbstats.bayes_correlated_ttest`:
    "b" if P(b better) > threshold, else "a" if P(a better) > threshold, else
    "equivalent" if P(rope) > threshold (NaN without a rope), else "undecided".

    Examples
    --------
    >>> decisions(np.array([0.01, 0.97]), np.array([0.02, 0.02]),
    ...           np.array([0.97, 0.01]), 0.95).tolist()
    ['b', 'a']
    """
    return decide_many(left, middle, right, threshold)


class FoldTests:
    """Validated per-fold scores and the cached per-data-set tests of a pair.

    Raises ValueError/TypeError for what :func:`nbstats.score_table` and
    :func:`nbstats.scores.folds.check_folds` refuse (fewer than 2 algorithms,
    unequal folds, missing scores… — failed folds unless ``min_folds``), or
    names that are not distinct as text.
    """

    def __init__(
        self,
        data: pd.DataFrame,
        *,
        case: str,
        algorithm: str,
        score: str,
        fold: str | Sequence[str],
        higher_is_better: bool,
        min_folds: int | None = None,
    ) -> None:
        blocks = fold_blocks(
            data, case=case, algorithm=algorithm, score=score, fold=fold,
            min_folds=min_folds, call=CALL, unit="data set",
        )  # fmt: skip
        self.fold_columns = blocks.fold_columns
        self.min_folds = blocks.min_folds
        means = blocks.means
        names = [str(c) for c in means.columns]
        if len(set(names)) != len(names):
            raise ValueError(
                f"algorithm names must stay distinct as text, got {names!r}."
            )
        cases = [str(c) for c in means.index]
        if len(set(cases)) != len(cases):
            raise ValueError(f"case names must stay distinct as text, got {cases!r}.")
        self.data = data
        self.columns = {"case": case, "algorithm": algorithm, "score": score,
                        "fold": fold}  # fmt: skip
        self.names, self.cases = names, cases
        self.higher_is_better = higher_is_better
        self.means = means
        sign = 1.0 if higher_is_better else -1.0
        # per data set: folds × algorithms, oriented (higher = better)
        self.blocks = [sign * block for block in blocks.blocks]
        self.n = np.array([len(block) for block in self.blocks])
        self.groups = {
            n: np.flatnonzero(self.n == n) for n in sorted(set(self.n.tolist()))
        }
        self.runs_options = runs_options(list(self.groups))
        self._moments: Recent[tuple] = Recent(CACHE)
        self._regions: Recent[tuple] = Recent(CACHE)

    def initial_runs(
        self, folds: int | None, runs: int | None, test_fraction: float | None
    ) -> int | None:
        """The runs a design control starts at (None: hold-out); the errors of
        :func:`~nbstats.stats.correlated.fold_design` for a design that does
        not fit."""
        if folds is None and runs is None and test_fraction is None:
            if len(self.fold_columns) < 2:
                fold_design(int(self.n[0]))  # its message: say how folds were made
            case = self.columns["case"]
            first = self.data[self.fold_columns[0]]
            counts = first.groupby(self.data[case], sort=False).nunique()
            if counts.nunique() > 1:
                raise ValueError(
                    f"the data sets have different numbers of runs in column "
                    f"{self.fold_columns[0]!r}; pass runs= or test_fraction=."
                )
            runs = int(counts.iloc[0])
        for n in self.groups:  # the functions' own errors for a bad design
            design = fold_design(n, folds=folds, runs=runs, test_fraction=test_fraction)
        if test_fraction is not None:
            return None
        if runs is None:  # folds=k divides every data set's n (fold_design)
            runs = int(self.n[0]) // int(design.folds)  # type: ignore[arg-type]
        return int(runs)

    def paired(self, i: int, j: int) -> np.ndarray:
        """Per data set, the folds on which both algorithms i and j have a score."""
        return np.array(
            [
                int(np.sum(~np.isnan(block[:, i]) & ~np.isnan(block[:, j])))
                for block in self.blocks
            ]
        )

    def kept(self, i: int, j: int) -> np.ndarray:
        """Which data sets the pair (i, j) is tested on: all, or with
        ``min_folds`` those with at least that many paired folds."""
        return self.paired(i, j) >= (self.min_folds or 0)

    def moments(self, i: int, j: int, runs: int | None, fraction: float) -> tuple:
        """(unit, mean, se, J) per data set of the pair (i, j) under the
        design; J the paired folds (NaN moments where J < 2)."""
        key = (i, j, runs, fraction)
        if key not in self._moments:
            q = len(self.cases)
            unit, mean, se = np.empty(q), np.empty(q), np.empty(q)
            used = np.empty(q, dtype=int)
            for n, members in self.groups.items():
                design = (
                    fold_design(n, test_fraction=fraction)
                    if runs is None
                    else fold_design(n, runs=runs)
                )
                # folds × data sets, as correlated_pairs gives student_moments
                with np.errstate(over="ignore", invalid="ignore"):
                    d = np.column_stack(
                        [self.blocks[k][:, j] - self.blocks[k][:, i] for k in members]
                    )
                if np.isinf(d).any():
                    raise ValueError(
                        "the fold differences overflow (scores near ±1.8e308); "
                        "rescale the scores, e.g. divide them by their largest "
                        "absolute value."
                    )
                J, u, m, s = paired_moments(d, design.ratio)
                unit[members], mean[members], se[members] = u, m, s
                used[members] = J
            self._moments.put(key, (unit, mean, se, used))
        return self._moments.get(key)

    def regions(
        self, i: int, j: int, runs: int | None, fraction: float, rope: float
    ) -> tuple:
        """(P(a better), P(rope) (NaN without a rope), P(b better), mean
        difference) per data set."""
        key = (i, j, runs, fraction, rope)
        if key not in self._regions:
            unit, mean, se, used = self.moments(i, j, runs, fraction)
            left, right = np.empty(len(mean)), np.empty(len(mean))
            for _, members in self.groups.items():
                # J − 1 degrees of freedom: each data set's paired folds
                with np.errstate(invalid="ignore"):
                    lo, hi = region_probabilities(
                        unit[members], mean[members], se[members],
                        np.maximum(used[members] - 1, 1), rope,
                    )  # fmt: skip
                left[members], right[members] = lo, hi
            middle = (
                np.maximum(0.0, 1.0 - left - right)
                if rope > 0
                else np.full_like(left, np.nan)
            )
            self._regions.put(key, (left, middle, right, mean * unit))
        return self._regions.get(key)

    def direct(
        self, case: str, a: str, b: str, runs: int | None, fraction: float,
        rope: float, ratio: float,
    ) -> Any:  # fmt: skip
        """One data set's test: :func:`nbstats.bayes_correlated_ttest` itself
        (on the folds both have, with ``min_folds``; a data set below it is
        refused: it is left out of the pair)."""
        k = self.cases.index(case)
        block = self.blocks[k]
        i, j = self.names.index(a), self.names.index(b)
        if self.min_folds is not None and not self.kept(i, j)[k]:
            raise ValueError(
                f"{a} and {b} both have a score on {self.paired(i, j)[k]} of the "
                f"{len(block)} folds of {case}, fewer than min_folds="
                f"{self.min_folds}: that data set is left out of this pair."
            )
        sign = 1.0 if self.higher_is_better else -1.0
        xa = pd.Series(sign * block[:, i], name=a)
        xb = pd.Series(sign * block[:, j], name=b)
        design = {"test_fraction": fraction} if runs is None else {"runs": runs}
        with warnings.catch_warnings():  # the result's n counts the folds used
            warnings.filterwarnings("ignore", "nan_policy='omit'", UserWarning)
            return bayes_correlated_ttest(
                xa, xb, rope=rope, loss=(1.0, ratio),
                higher_is_better=self.higher_is_better, **design,
                nan_policy="omit" if self.min_folds is not None else "raise",
            )  # fmt: skip

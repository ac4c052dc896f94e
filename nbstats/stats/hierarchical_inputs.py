"""The hierarchical test's inputs: the folds of two algorithms, paired and scaled.

:func:`read_inputs` reads the two algorithms' fold scores (wide or long), the
design of the folds and the names; :func:`enough_folds` keeps the data sets
with ``min_folds`` paired folds (fewer than 2 raise
:class:`TooFewDataSetsError`); :func:`prepare` centres and scales what the
sampler of :mod:`nbstats.stats.hierarchical_model` takes. Used by
:func:`nbstats.stats.hierarchical.bayes_hierarchical`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from nbstats.scores.frames import check_columns, pair_of_algorithms
from nbstats.scores.names import plain_name
from nbstats.stats.correlated import FoldDesign, fold_design
from nbstats.stats.fold_pairing import fold_blocks
from nbstats.stats.hierarchical_model import (
    HierarchicalData,
    centering,
)

__all__ = ["Prepared", "TooFewDataSetsError", "enough_folds", "prepare", "read_inputs"]


class TooFewDataSetsError(ValueError):
    """:func:`bayes_hierarchical` with ``min_folds``: fewer than 2 data sets
    have ``min_folds`` folds on which both algorithms have a score.

    A :class:`ValueError` whose message says what to do; it also carries
    what a caller that tests many pairs (the report) states when it leaves
    the pair out: ``name_a``, ``name_b``, ``kept`` (the data sets with enough
    paired folds), ``left_out`` (``case``, ``folds``, ``of``: the others) and
    ``min_folds``.
    """

    def __init__(
        self,
        message: str,
        *,
        name_a: str,
        name_b: str,
        kept: int,
        left_out: pd.DataFrame,
        min_folds: int | None,
    ) -> None:
        super().__init__(message)
        self.name_a, self.name_b = name_a, name_b
        self.kept, self.left_out, self.min_folds = kept, left_out, min_folds


def enough_folds(
    d: np.ndarray,
    cases: list[str],
    min_folds: int | None,
    name_a: str,
    name_b: str,
) -> tuple[np.ndarray, list[str], np.ndarray, pd.DataFrame]:
    """The data sets with at least ``min_folds`` paired folds: (their
    differences, names, paired folds J_i) and the ones left out (``case``,
    ``folds``, ``of``)."""
    used = np.sum(~np.isnan(d), axis=1)
    keep = used >= (min_folds or d.shape[1])
    left_out = pd.DataFrame(
        {
            "case": [c for c, k in zip(cases, keep, strict=True) if not k],
            "folds": used[~keep],
            "of": d.shape[1],
        }
    )
    if keep.sum() < 2:
        raise TooFewDataSetsError(
            f"only {int(keep.sum())} data set(s) have at least min_folds="
            f"{min_folds} folds on which both {name_a!r} and {name_b!r} have a "
            f"score ({len(left_out)} left out: "
            f"{', '.join(map(repr, left_out['case'][:5]))}); the hierarchical "
            "model needs at least 2 data sets. Lower min_folds, or rerun the "
            "failed folds.",
            name_a=name_a,
            name_b=name_b,
            kept=int(keep.sum()),
            left_out=left_out,
            min_folds=min_folds,
        )
    kept = [c for c, k in zip(cases, keep, strict=True) if k]
    return np.ascontiguousarray(d[keep]), kept, used[keep], left_out


class Prepared:
    """The model's data and the unit (score units per scaled unit)."""

    def __init__(self, model: HierarchicalData, unit: float) -> None:
        self.model = model
        self.unit = unit


def prepare(
    d: np.ndarray, rope: float, design: FoldDesign, used: np.ndarray
) -> Prepared:
    """Scale as baycomp does: divide by the mean per-data-set std (ddof 0).

    ``d`` is data sets × folds, NaN where a fold is not paired (failed
    folds); ``used`` counts each data set's paired folds."""
    q = d.shape[0]
    complete = not np.isnan(d).any()
    mean_of, std_of, sum_of, max_of = (
        (np.mean, np.std, np.sum, np.max)
        if complete
        else (np.nanmean, np.nanstd, np.nansum, np.nanmax)
    )
    n = used.astype(float)
    # one count when all are equal: the sampler's program (so its draws) of
    # complete folds stays what it was
    count: np.ndarray | int = int(used[0]) if (used == used[0]).all() else n
    big = float(max_of(np.abs(d)))
    if big == 0:
        raise ValueError(
            "a and b have the same score on every fold of every data set: there is "
            "no difference to model (every probability would sit in the rope)."
        )
    u = d / big  # first to a safe range: squares of 1e300 or 1e-300 would overflow
    std = std_of(u, axis=1)
    mean_std = float(std.mean())
    if mean_std == 0:
        raise ValueError(
            "on every data set the differences b − a are the same on all folds "
            "(zero variance everywhere): the model has no within-data-set "
            "variance to scale by. Check that the folds are the cross-validation "
            "folds, not copies of one mean."
        )
    x = u / mean_std
    unit = big * mean_std
    scaled_rope = rope / unit if math.isfinite(rope / unit) else np.inf
    mean = mean_of(x, axis=1)
    ss = sum_of((x - mean[:, None]) ** 2, axis=1)
    flat = ss == 0
    half = scaled_rope if 0 < scaled_rope < np.inf else 1e-3
    ss[flat] = n[flat] * half**2 / 3
    std_within = float(np.mean(np.sqrt(ss / n)))
    std_among = float(np.std(mean)) if q > 1 else std_within
    if std_among == 0:
        std_among = std_within
    model = HierarchicalData(
        mean=mean,
        ss=ss,
        n=count,
        rho=design.rho,
        delta_high=float(max_of(np.abs(x))),
        std0_high=1000.0 * std_among,
        std_high=1000.0 * std_within,
        centered=centering(mean, ss, count, design.rho),
    )
    return Prepared(model, unit)


def read_inputs(
    a: object,
    b: object,
    data: pd.DataFrame | None,
    case: str | None,
    algorithm: str | None,
    score: str | None,
    fold: str | Sequence[str] | None,
    folds: int | None,
    runs: int | None,
    test_fraction: float | None,
    min_folds: int | None,
) -> tuple[np.ndarray, list[str], str, str, FoldDesign]:
    """(differences b − a as data sets × folds, NaN for a failed fold with
    ``min_folds``; case names, names, design)."""
    if data is None:
        named = {"case": case, "algorithm": algorithm, "score": score, "fold": fold}
        given = [k for k, v in named.items() if v is not None]
        if given:
            raise ValueError(
                f"{', '.join(g + '=' for g in given)} name columns of a long table: "
                f"pass it as data=, with a and b the two algorithms' names."
            )
        xa, cases = _matrix(a, "a", min_folds)
        xb, _ = _matrix(b, "b", min_folds)
        if xa.shape != xb.shape:
            raise ValueError(
                f"a and b must have the same shape (data sets × folds), got "
                f"{xa.shape} and {xb.shape}."
            )
        name_a, name_b = "a", "b"
        fold_columns: list[str] = []
    else:
        if any(v is None for v in (case, algorithm, score, fold)):
            raise ValueError(
                "with data= give case=, algorithm=, score= and fold= (the columns "
                "of the long per-fold table)."
            )
        xa, xb, cases, fold_columns = _from_long(
            data,
            a,
            b,
            str(case),
            str(algorithm),
            str(score),
            fold,  # type: ignore[arg-type]
            min_folds,
        )
        name_a, name_b = plain_name(a), plain_name(b)  # as given: a tuple stays
    q, n = xa.shape
    if q < 2:
        raise ValueError(
            f"the hierarchical model needs at least 2 data sets, got {q}; for one "
            f"data set use nbstats.bayes_correlated_ttest."
        )
    if n < 2:
        raise ValueError(f"each data set needs at least 2 folds, got {n}.")
    if min_folds is not None and min_folds > n:
        raise ValueError(
            f"min_folds={min_folds} exceeds the {n} folds per data set: every "
            f"data set would be left out. Give at most min_folds={n}."
        )
    if folds is None and runs is None and test_fraction is None and fold_columns[1:]:
        # (run, fold) columns: the runs are the first column's distinct values
        first = data[data[case].isin([data[case].iloc[0]])]  # type: ignore[index]
        runs = int(first[fold_columns[0]].nunique())
    design = fold_design(n, folds=folds, runs=runs, test_fraction=test_fraction)
    with np.errstate(over="ignore", invalid="ignore"):
        # C order: numpy's sums (so the draws) depend on the memory layout
        d = np.ascontiguousarray(xb - xa)
    if np.isinf(d).any():
        raise ValueError(
            "the differences b − a overflow (scores near ±1.8e308); rescale the "
            "scores, e.g. divide both by their largest absolute value."
        )
    return d, cases, name_a, name_b, design


def _matrix(
    x: object, label: str, min_folds: int | None
) -> tuple[np.ndarray, list[str]]:
    if isinstance(x, str):
        raise TypeError(
            f"{label}={x!r} is a name: pass the long per-fold table as data= (with "
            f"case=, algorithm=, score=, fold=), or give a and b as data sets × "
            f"folds arrays."
        )
    cases = None
    if isinstance(x, pd.DataFrame):
        cases = [str(c) for c in x.index]
        x = x.to_numpy()
    array = np.asarray(x)
    if array.dtype.kind not in "iuf" or array.dtype == np.bool_:
        raise TypeError(
            f"{label} must hold real numbers (data sets × folds), got dtype "
            f"{array.dtype}."
        )
    if array.ndim != 2:
        raise ValueError(
            f"{label} must be 2-D: one row per data set, one column per fold; got "
            f"shape {array.shape}."
        )
    array = array.astype(float)
    bad = np.isinf(array) if min_folds is not None else ~np.isfinite(array)
    if bad.any():
        rows = sorted({int(i) for i in np.argwhere(bad)[:, 0]})
        if min_folds is not None:
            raise ValueError(
                f"{label} has infinite scores in data set row(s) {rows[:10]}: "
                "scores must be finite (NaN marks a failed fold); replace them "
                "or drop those data sets."
            )
        raise ValueError(
            f"{label} has missing or infinite scores in data set row(s) "
            f"{rows[:10]}: every data set needs every fold; drop those data "
            "sets or rerun them, or pass min_folds=K to "
            "nbstats.bayes_hierarchical (each data set then uses the folds "
            "where a and b both have a score; NaN marks a failed fold)."
        )
    if cases is None:
        cases = [str(i) for i in range(array.shape[0])]
    return array, cases


def _from_long(
    data: pd.DataFrame,
    a: object,
    b: object,
    case: str,
    algorithm: str,
    score: str,
    fold: str | Sequence[str],
    min_folds: int | None,
) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a long DataFrame, got {type(data).__name__}.")
    check_columns(data, algorithm=algorithm)
    found_a, found_b = pair_of_algorithms(data, algorithm, a, b)
    if str(a) == str(b):
        raise ValueError(f"a and b must be two different algorithms, got {a!r} twice.")
    pair = data[data[algorithm].isin([found_a, found_b])]
    blocks = fold_blocks(
        pair, case=case, algorithm=algorithm, score=score, fold=fold,
        min_folds=min_folds, call="nbstats.bayes_hierarchical", unit="data set",
    )  # fmt: skip
    counts = pd.Series(
        [len(block) for block in blocks.blocks], index=blocks.means.index
    )
    if counts.nunique() > 1:
        raise ValueError(
            f"the data sets have different numbers of folds "
            f"({counts.min()}–{counts.max()}; e.g. {counts.idxmin()!r}: "
            f"{counts.min()}, {counts.idxmax()!r}: {counts.max()}); the model "
            f"needs the same cross-validation on every data set."
        )
    # by position: a tuple name would be read as (row, column) keys
    names = [str(c) for c in blocks.means.columns]
    ia, ib = names.index(str(a)), names.index(str(b))
    xa = np.vstack([block[:, ia] for block in blocks.blocks])
    xb = np.vstack([block[:, ib] for block in blocks.blocks])
    return xa, xb, [str(c) for c in blocks.means.index], blocks.fold_columns

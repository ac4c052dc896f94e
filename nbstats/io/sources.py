"""What every reader of a score source shares: the long table it returns,
the runs it leaves out (and why), duplicated runs, cells short of folds,
and the direction of a metric.

The readers (:func:`nbstats.io.read_sklearn`, :func:`nbstats.io.read_mlflow`,
:func:`nbstats.io.read_automl_benchmark`) return a long DataFrame with the
columns ``case``, ``algorithm``, ``fold`` (and ``repeat`` when the source
repeats its cross-validation), ``score``, then whatever else the source holds.
Its ``attrs`` say what :func:`nbstats.score_table` needs and what was left
out:

- ``attrs["score_table"]``: the keywords of :func:`nbstats.score_table`
  (``case``, ``algorithm``, ``score`` and ``fold`` when there are folds);
- ``attrs["metric"]``: the metric read, ``attrs["higher_is_better"]``: its
  direction (``None`` when the source does not tell);
- ``attrs["dropped"]``: one record (a dict) per run left out or combined,
  with its ``reason`` (a failed run, a missing metric, a duplicate);
- ``attrs["incomplete"]``: one record per (case, algorithm) short of a fold
  that the case's other algorithms have, naming the folds missing.

A reader that leaves anything out also says so in a :class:`UserWarning`.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

import pandas as pd

__all__ = [
    "DUPLICATES",
    "LONG_COLUMNS",
    "combine_duplicates",
    "finish",
    "metric_direction",
    "shown_list",
]

#: The first columns of every reader's long table, in this order.
LONG_COLUMNS = ("case", "algorithm", "repeat", "fold", "score")

#: How duplicated runs may be combined (``None`` refuses them).
DUPLICATES = ("mean", "median", "first", "last")

Duplicates = Literal["mean", "median", "first", "last"] | None

_HIGHER = {
    "acc", "accuracy", "auc", "roc_auc", "balacc", "balanced_accuracy", "f1",
    "f1_macro", "f1_micro", "f1_weighted", "precision", "recall", "r2", "score",
    "average_precision", "pr_auc", "kappa", "mcc", "matthews_corrcoef",
}  # fmt: skip
_LOWER = {
    "logloss", "log_loss", "rmse", "mse", "mae", "rmsle", "mape", "error",
    "error_rate", "brier", "brier_score", "loss", "runtime", "time",
}  # fmt: skip


def metric_direction(name: object) -> bool | None:
    """Whether a higher value of the metric ``name`` is better, or ``None``.

    scikit-learn's and the AutoML benchmark's ``neg_`` metrics (the negated
    losses) are higher-is-better.

    Examples
    --------
    >>> metric_direction("auc"), metric_direction("logloss")
    (True, False)
    >>> metric_direction("neg_logloss"), metric_direction("my_metric") is None
    (True, True)
    """
    text = str(name).strip().lower()
    for prefix in ("test_", "train_", "mean_test_"):
        text = text.removeprefix(prefix)
    if text.startswith("neg_"):
        return True
    if text in _HIGHER:
        return True
    if text in _LOWER:
        return False
    return None


def shown_list(items: Sequence[Any], limit: int = 5) -> str:
    """``"a, b, c and 4 more"``: the first ``limit`` items of a list."""
    shown = ", ".join(str(i) for i in items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds (``0``, not ``np.int64(0)``)."""
    return value.item() if hasattr(value, "item") else value


def _key_text(row: pd.Series, keys: Sequence[str]) -> str:
    return "(" + ", ".join(f"{k}={_plain(row[k])!r}" for k in keys) + ")"


def combine_duplicates(
    long: pd.DataFrame,
    keys: Sequence[str],
    duplicates: Duplicates,
    *,
    dropped: list[dict[str, Any]],
    what: str = "runs",
) -> pd.DataFrame:
    """Refuse the rows that repeat a ``keys`` combination, or combine them.

    ``duplicates=None`` raises a ``ValueError`` naming how many rows repeat,
    the first repeated key and the columns in which the repeated rows differ
    (a hint at what tells them apart); ``"first"``/``"last"`` keep one row of
    each group, ``"mean"``/``"median"`` combine their scores (the other
    columns from the first row). Every row left out or combined is added to
    ``dropped`` with its reason.
    """
    keys = list(keys)
    repeated = long.duplicated(keys, keep=False)
    if not repeated.any():
        return long
    if duplicates not in (None, *DUPLICATES):
        raise ValueError(
            f"duplicates={duplicates!r}: choose one of {', '.join(DUPLICATES)} "
            "(or None to refuse duplicated runs)."
        )
    groups = long[repeated].groupby(keys, sort=False, dropna=False)
    if duplicates is None:
        _, first = next(iter(groups))
        varying = [
            c
            for c in long.columns
            if c not in (*keys, "score") and groups[c].nunique(dropna=False).max() > 1
        ]
        hint = (
            f" The repeated runs differ in {shown_list(varying)}: keep the rows "
            "you mean (e.g. filter on one of those columns) or"
            if varying
            else " Remove the extra runs, or"
        )
        hint += " "
        raise ValueError(
            f"{int(long.duplicated(keys).sum())} {what} repeat a "
            f"({', '.join(keys)}) combination already read ({groups.ngroups} "
            f"combination(s) in all), e.g. {_key_text(first.iloc[0], keys)} "
            f"{len(first)} times with scores {first['score'].tolist()}.{hint}"
            "say how to combine them: duplicates='mean', 'median', 'first' or "
            "'last'."
        )
    if duplicates in ("first", "last"):
        keep = ~long.duplicated(keys, keep=duplicates)
        for _, row in long[~keep].iterrows():
            dropped.append(
                {**row.to_dict(), "reason": f"duplicate (duplicates={duplicates!r})"}
            )
        return long[keep].reset_index(drop=True)
    for _, group in groups:
        for _, row in group.iterrows():
            dropped.append(
                {
                    **row.to_dict(),
                    "reason": f"duplicate, combined by the {duplicates} of its "
                    f"{len(group)} runs (duplicates={duplicates!r})",
                }
            )
    first_rows = long.groupby(keys, sort=False, dropna=False).head(1)
    combined = long.groupby(keys, sort=False, dropna=False)["score"].agg(duplicates)
    out = first_rows.drop(columns="score").merge(
        combined.reset_index(), on=keys, how="left"
    )
    return out[list(long.columns)].reset_index(drop=True)


def _incomplete(long: pd.DataFrame, folds: list[str]) -> list[dict[str, Any]]:
    """The (case, algorithm) cells short of a fold (or of every run) that the
    case's other algorithms have."""
    found: list[dict[str, Any]] = []
    algorithms = list(pd.unique(long["algorithm"]))
    for case, rows in long.groupby("case", sort=False):
        if folds:
            keys = (
                rows[folds].apply(tuple, axis=1) if len(folds) > 1 else rows[folds[0]]
            )
            every = set(keys)
            have = keys.groupby(rows["algorithm"], sort=False).agg(set)
        else:
            every, have = {None}, pd.Series({a: {None} for a in rows["algorithm"]})
        for algorithm in algorithms:
            own = have.get(algorithm, set())
            missing = sorted(every - own, key=str)
            if missing:
                found.append(
                    {
                        "case": case,
                        "algorithm": algorithm,
                        "missing": "all" if not own else missing,
                    }
                )
    return found


def _reasons(dropped: list[dict[str, Any]]) -> str:
    counts = Counter(str(d["reason"]) for d in dropped)
    return "; ".join(
        f"{n} {reason}" for reason, n in sorted(counts.items(), key=lambda x: -x[1])
    )


def _cells(incomplete: list[dict[str, Any]], folds: list[str]) -> str:
    named = []
    for cell in incomplete[:5]:
        where = f"({cell['case']!r}, {cell['algorithm']!r})"
        if cell["missing"] == "all":
            named.append(f"{where} has no scored run")
        else:
            word = "/".join(folds) or "run"
            folds_missing = [_plain(f) for f in cell["missing"]]
            named.append(f"{where} lacks {word} {shown_list(folds_missing, 4)}")
    more = f"; and {len(incomplete) - 5} more cell(s)" if len(incomplete) > 5 else ""
    return "; ".join(named) + more


def finish(
    long: pd.DataFrame,
    *,
    reader: str,
    dropped: list[dict[str, Any]],
    n_runs: int,
    metric: str | None,
    higher_is_better: bool | None,
    warn: bool = True,
) -> pd.DataFrame:
    """Order the columns, record what the reader knows in ``attrs``, and warn
    about what was left out and about cells short of folds."""
    first = [c for c in LONG_COLUMNS if c in long.columns]
    long = long[first + [c for c in long.columns if c not in first]]
    long = long.reset_index(drop=True)
    folds = [c for c in ("repeat", "fold") if c in long.columns]
    incomplete = _incomplete(long, folds) if len(long) else []
    keywords: dict[str, Any] = {"case": "case", "algorithm": "algorithm"}
    keywords["score"] = "score"
    if folds:
        keywords["fold"] = folds if len(folds) > 1 else folds[0]
    long.attrs.update(
        {
            "score_table": keywords,
            "metric": metric,
            "higher_is_better": higher_is_better,
            "dropped": dropped,
            "incomplete": incomplete,
            "reader": reader,
        }
    )
    if warn and (dropped or incomplete):
        parts = []
        if dropped:
            parts.append(
                f"left out or combined {len(dropped)} of {n_runs} runs: "
                f"{_reasons(dropped)} (each in .attrs['dropped'] with its reason)"
            )
        if incomplete:
            parts.append(
                f"{len(incomplete)} (case, algorithm) cell(s) lack runs the case's "
                f"other algorithms have: {_cells(incomplete, folds)} (all in "
                ".attrs['incomplete']); score_table refuses unequal folds unless "
                "min_folds=K averages the cells with at least K scored folds: "
                "else drop those cases, or those algorithms, or rerun the "
                "missing folds"
            )
        warnings.warn(f"{reader}: " + ". ".join(parts) + ".", UserWarning, stacklevel=3)
    return long

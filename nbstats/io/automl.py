"""The AutoML benchmark's results CSV and OpenML-style run tables as the
long table :func:`nbstats.score_table` takes.

Two forms are read:

- the AutoML benchmark (``amlb``) ``results.csv``: one row per framework ×
  task × fold, the score in ``result`` -- whose metric depends on the task
  (AUC for binary tasks, log-loss or its negation for multiclass ones; a
  ``metric`` column names it in recent files) -- and in one column per
  metric (``acc``, ``auc``, ``logloss``, ...); a failed run has an empty
  score and an ``info`` message;
- an OpenML-style run table: one row per task × flow × (repeat ×) fold ×
  metric, the metric's name in ``metric`` and its value in ``value``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pandas as pd

from nbstats.io.sources import (
    Duplicates,
    combine_duplicates,
    finish,
    metric_direction,
    shown_list,
)

__all__ = ["read_automl_benchmark"]

_CASES = ("task", "task_id", "dataset", "data_name", "data_id")
_ALGORITHMS = ("framework", "flow", "flow_name", "setup", "algorithm", "model")
#: Columns of an amlb results file that hold a metric's value.
_METRIC_COLUMNS = (
    "acc", "auc", "balacc", "logloss", "neg_logloss", "f1", "r2", "rmse", "mae",
    "mse", "rmsle", "neg_rmse", "neg_mae",
)  # fmt: skip


def _column(
    frame: pd.DataFrame, given: str | None, choices: Sequence[str], what: str
) -> str:
    if given is not None:
        if given not in frame.columns:
            raise ValueError(
                f"{what}={given!r}: no such column; the columns are "
                f"{list(frame.columns)}."
            )
        return given
    for name in choices:
        if name in frame.columns:
            return name
    raise ValueError(
        f"no column of {what}s (looked for {', '.join(choices)}); name it with "
        f"{what}=; the columns are {list(frame.columns)}."
    )


def _failed(row: pd.Series, score: str) -> str:
    info = row.get("info")
    if isinstance(info, str) and info.strip():
        text = " ".join(info.split())
        return f"failed run (no {score}; info: {text[:120]})"
    return f"failed run (no {score}, no info)"


def _result_metrics(frame: pd.DataFrame, case: str) -> pd.Series:
    """The metric ``result`` holds on each task: the ``metric`` column's, else
    the metric column equal to ``result`` on every run of the task."""
    scored = frame[frame["result"].notna()]
    if "metric" in scored.columns:
        named = scored.groupby(case, sort=False)["metric"].agg(
            lambda m: "/".join(sorted(set(map(str, m.dropna())))) or "unknown"
        )
        return named
    columns = [c for c in _METRIC_COLUMNS if c in scored.columns]

    def which(rows: pd.DataFrame) -> str:
        same = [c for c in columns if (rows[c] - rows["result"]).abs().max() <= 1e-9]
        return same[0] if same else "unknown"

    return scored.groupby(case, sort=False)[[*columns, "result"]].apply(which)


def _check_result(frame: pd.DataFrame, case: str) -> tuple[str, bool | None]:
    """Refuse ``result`` when it mixes metrics of opposite directions."""
    metrics = _result_metrics(frame, case)
    directions = {m: metric_direction(m) for m in set(metrics)}
    if len(directions) == 1:
        name = next(iter(directions))
        return name, directions[name]
    scored = frame[frame["result"].notna()]
    everywhere = [
        c
        for c in _METRIC_COLUMNS
        if c in scored.columns and scored.groupby(case)[c].count().min() > 0
    ]
    tasks = {
        m: shown_list([t for t, v in metrics.items() if v == m], 4) for m in directions
    }
    said = {
        True: "higher is better",
        False: "lower is better",
        None: "direction unknown",
    }
    held = "; ".join(f"{m} ({said[d]}) on {tasks[m]}" for m, d in directions.items())
    if len({d for d in directions.values()}) == 1 and None not in directions.values():
        name = "/".join(sorted(directions))
        return name, next(iter(directions.values()))
    fix = (
        f"choose a metric column every task has: score={everywhere[0]!r}"
        + (f" (or {', '.join(map(repr, everywhere[1:]))})" if everywhere[1:] else "")
        if everywhere
        else "keep the tasks of one metric"
    )
    raise ValueError(
        f"'result' holds different metrics on different tasks -- {held} -- so "
        f"its ranks and differences would mix directions. {fix[0].upper()}{fix[1:]}, "
        "or keep the tasks of one metric before reading."
    )


def _read(source: str | os.PathLike[str] | pd.DataFrame) -> pd.DataFrame:
    if isinstance(source, pd.DataFrame):
        return source.copy()
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(
            "read_automl_benchmark takes a path or a DataFrame, got "
            f"{type(source).__name__}."
        )
    from nbstats.io.csv import read_csv

    # checked as a score CSV is: duplicated or unnamed columns, ragged rows
    frame, _ = read_csv(os.fspath(source), long={"score": None})
    return frame


def _openml(frame: pd.DataFrame, score: str | None) -> tuple[pd.DataFrame, str]:
    """The rows of one metric of an OpenML-style run table, its value as score."""
    metrics = list(pd.unique(frame["metric"].dropna().astype(str)))
    if score is None:
        if len(metrics) != 1:
            raise ValueError(
                f"the runs hold {len(metrics)} metrics ({shown_list(metrics, 12)}); "
                f"choose one with score=, e.g. score={metrics[0]!r}."
            )
        score = metrics[0]
    if score not in metrics:
        raise ValueError(
            f"score={score!r}: no such metric; the metrics present are "
            f"{shown_list(metrics, 12)}."
        )
    rows = frame[frame["metric"].astype(str) == score]
    return rows.rename(columns={"value": "score"}), score


def read_automl_benchmark(
    source: str | os.PathLike[str] | pd.DataFrame,
    *,
    score: str | None = None,
    case: str | None = None,
    algorithm: str | None = None,
    duplicates: Duplicates = None,
) -> pd.DataFrame:
    """An AutoML-benchmark results file (or an OpenML-style run table) as a
    long score table.

    Parameters
    ----------
    source : path or DataFrame
        The amlb ``results.csv`` (columns ``task``, ``framework``, ``fold``,
        ``result``, ``info``, ``acc``, ``auc``, ...), or an OpenML-style run
        table (``task``, ``flow``, ``repeat``, ``fold``, ``metric``,
        ``value``).
    score : str, optional
        amlb: the column to read, ``"result"`` by default -- refused when it
        holds metrics of opposite directions on different tasks (AUC on
        binary tasks, log-loss on multiclass ones), naming a column every
        task has (e.g. ``"acc"``). OpenML-style: the metric (a value of the
        ``metric`` column); needed when there are several.
    case, algorithm : str, optional
        The columns of tasks and of frameworks (flows); by default the first
        of ``task``, ``task_id``, ``dataset``, ... and of ``framework``,
        ``flow``, ``flow_name``, ``setup``, ....
    duplicates : {None, "mean", "median", "first", "last"}
        ``None`` refuses two rows of the same (task, framework[, repeat],
        fold), naming the columns they differ in; the others combine them.

    Returns
    -------
    DataFrame
        Columns ``case``, ``algorithm``, (``repeat``), ``fold``, ``score``,
        then the file's other columns. A failed run (an empty score) is left
        out, listed in ``attrs["dropped"]`` with its ``info`` message, and a
        warning names the cells it leaves short of folds. ``attrs["metric"]``
        and ``attrs["higher_is_better"]`` say what was read (see
        :mod:`nbstats.io.sources`).

    Examples
    --------
    >>> import nbstats
    >>> runs = pd.DataFrame({
    ...     "task": ["kc1"] * 4 + ["credit-g"] * 4,
    ...     "framework": ["TPOT", "TPOT", "H2OAutoML", "H2OAutoML"] * 2,
    ...     "fold": [0, 1] * 4,
    ...     "result": [0.83, 0.84, 0.82, 0.85, 0.78, 0.77, 0.79, 0.80],
    ...     "auc": [0.83, 0.84, 0.82, 0.85, 0.78, 0.77, 0.79, 0.80],
    ...     "info": [None] * 8})
    >>> long = read_automl_benchmark(runs)
    >>> long.attrs["metric"], long.attrs["higher_is_better"]
    ('auc', True)
    >>> nbstats.score_table(long, **long.attrs["score_table"])
    algorithm   TPOT  H2OAutoML
    case
    kc1        0.835      0.835
    credit-g   0.775      0.795
    """
    frame = _read(source)
    n_runs = len(frame)
    case = _column(frame, case, _CASES, "case")
    algorithm = _column(frame, algorithm, _ALGORITHMS, "algorithm")
    openml = "value" in frame.columns and "metric" in frame.columns
    if openml:
        frame, metric = _openml(frame, score)
        direction = metric_direction(metric)
        shown = metric
    else:
        shown = "result" if score is None else score
        if shown not in frame.columns:
            present = [c for c in _METRIC_COLUMNS if c in frame.columns]
            raise ValueError(
                f"score={shown!r}: no such column; the metric columns present are "
                f"{', '.join(['result', *present])}."
            )
        if shown == "result":
            metric, direction = _check_result(frame, case)
        else:
            metric, direction = shown, metric_direction(shown)
        frame = frame.rename(columns={shown: "score"})
    if "fold" not in frame.columns:
        raise ValueError(f"no column 'fold'; the columns are {list(frame.columns)}.")
    taken = {case: "case", algorithm: "algorithm"}
    clash = [c for c in ("case", "algorithm") if c in frame.columns and c not in taken]
    frame = frame.drop(columns=clash).rename(columns=taken)
    frame["score"] = pd.to_numeric(frame["score"], errors="raise")
    failed = frame["score"].isna()
    dropped: list[dict[str, Any]] = [
        {**row.to_dict(), "reason": _failed(row, shown)}
        for _, row in frame[failed].iterrows()
    ]
    long = frame[~failed]
    folds = [c for c in ("repeat", "fold") if c in long.columns]
    long = combine_duplicates(
        long, ["case", "algorithm", *folds], duplicates, dropped=dropped
    )
    return finish(
        long,
        reader="read_automl_benchmark",
        dropped=dropped,
        n_runs=n_runs,
        metric=metric,
        higher_is_better=direction,
    )

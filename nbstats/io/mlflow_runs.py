"""The runs of an MLflow experiment as the long table
:func:`nbstats.score_table` takes.

One run per (data set, algorithm[, fold]): the names in params or tags, the
score in a metric. Read with MLflow's own client, so any store it reads
works: a local ``sqlite:`` file (MLflow's default store), a tracking server
(``http://...``), Databricks. The client is the optional extra
``pip install "nbstats[mlflow]"``, imported only when a store is read.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from nbstats.io.sources import (
    Duplicates,
    combine_duplicates,
    finish,
    metric_direction,
    shown_list,
)

__all__ = ["read_mlflow"]

_PAGE = 1000
_FAILED = ("FAILED", "KILLED")
#: ``fold="step"``: each run logged its folds as the steps of the metric.
STEP = "step"
_NOLOAD = "The ``noload`` loader strategy is deprecated"


_SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


def _store(tracking_uri: str | None) -> str | None:
    """An sqlite file given as a path becomes its ``sqlite:`` URI; an
    ``sqlite:`` URI must name an existing file (MLflow would create an empty
    store, and reading must not write)."""
    if tracking_uri is None:
        return None
    text = os.fspath(tracking_uri)
    if "://" not in text and Path(text).suffix.lower() in _SQLITE_SUFFIXES:
        text = "sqlite:///" + str(Path(text).expanduser().absolute())
    if text.startswith("sqlite:///"):
        path = Path(text.removeprefix("sqlite:///"))
        if not path.is_file() and text != "sqlite:///:memory:":
            raise FileNotFoundError(
                f"tracking_uri {tracking_uri!r}: no such MLflow store (file "
                f"{str(path)!r}); give the sqlite file the runs were logged to, "
                "e.g. sqlite:///mlflow.db in the folder where they were logged."
            )
    return text


def _client(tracking_uri: str | None) -> Any:
    try:
        from mlflow.tracking import MlflowClient
    except ImportError as error:
        raise ImportError(
            "read_mlflow needs MLflow's client library: pip install "
            f'"nbstats[mlflow]" ({error}).'
        ) from None
    return MlflowClient(tracking_uri=_store(tracking_uri))


def _experiment(client: Any, experiment: str | int) -> Any:
    """The experiment named ``experiment``, else the one with that id."""
    found = None
    if isinstance(experiment, str):
        found = client.get_experiment_by_name(experiment)
    if found is None and str(experiment).isdigit():
        try:
            found = client.get_experiment(str(experiment))
        except Exception:  # MLflow raises MlflowException for an unknown id
            found = None
    if found is None:
        names = [
            f"{e.name!r} (id {e.experiment_id})" for e in client.search_experiments()
        ]
        raise ValueError(
            f"no MLflow experiment named {experiment!r} (nor with that id) in "
            f"{client.tracking_uri}; the experiments are {shown_list(names, 10)}."
        )
    return found


def _runs(client: Any, experiment_id: str) -> list[Any]:
    runs: list[Any] = []
    token = None
    while True:
        page = client.search_runs(
            [experiment_id],
            max_results=_PAGE,
            page_token=token,
            order_by=["start_time ASC"],
        )
        runs += list(page)
        token = page.token
        if not token:
            return runs


def _value(run: Any, name: str) -> str | None:
    """A param's value, else a tag's (``params.x`` / ``tags.x`` choose)."""
    params, tags = run.data.params, run.data.tags
    if name.startswith("params."):
        return params.get(name.removeprefix("params."))
    if name.startswith("tags."):
        return tags.get(name.removeprefix("tags."))
    if name == "run_name":
        return run.info.run_name
    return params.get(name, tags.get(name))


def _run_name(run: Any) -> str:
    return f"{run.info.run_name!r} ({run.info.run_id[:8]})"


def _check_names(runs: list[Any], names: dict[str, str], score: str) -> None:
    """Refuse a name that no run holds, listing what the runs hold."""
    params = sorted({p for r in runs for p in r.data.params})
    tags = sorted({t for r in runs for t in r.data.tags if not t.startswith("mlflow.")})
    for keyword, name in names.items():
        if keyword == "fold" and name == STEP:
            continue
        if all(_value(r, name) is None for r in runs):
            raise ValueError(
                f"{keyword}={name!r}: no run has a param or tag {name!r}; the "
                f"params are {shown_list(params, 12) or 'none'}, the tags "
                f"{shown_list(tags, 12) or 'none'}."
            )
    metrics = sorted({m for r in runs for m in r.data.metrics})
    if score not in metrics:
        raise ValueError(
            f"score={score!r}: no run logged a metric {score!r}; the metrics "
            f"present are {shown_list(metrics, 12) or 'none'}."
        )


def _numbers(values: pd.Series) -> pd.Series:
    """Fold numbers logged as params (text) back as integers when all are."""
    text = values.astype(str)
    if text.str.fullmatch(r"[+-]?\d+").all():
        return text.astype(int)
    return values


def read_mlflow(
    experiment: str | int,
    *,
    case: str,
    algorithm: str,
    score: str,
    fold: str | None = None,
    repeat: str | None = None,
    tracking_uri: str | None = None,
    missing: str = "raise",
    duplicates: Duplicates = None,
    higher_is_better: bool | None = None,
) -> pd.DataFrame:
    """The runs of an MLflow experiment as a long score table.

    Parameters
    ----------
    experiment : str or int
        The experiment's name, or its id.
    case, algorithm, fold, repeat : str
        The param (or tag) naming each run's data set, algorithm, fold and
        repeat; a param is looked up first, then a tag (``"params.x"`` or
        ``"tags.x"`` chooses; ``"run_name"`` is the run's name).
        ``fold="step"``: each run logged its folds as the steps of the metric
        (``log_metric(score, value, step=fold)``); its history is read.
    score : str
        The metric: each run's latest value of it (with ``fold="step"``,
        every step's).
    tracking_uri : str, optional
        The store, e.g. ``"sqlite:///mlflow.db"`` (or the file's path,
        ``"mlflow.db"``) or ``"http://host:5000"``; default MLflow's own
        (``MLFLOW_TRACKING_URI``, else its default). An sqlite file that does
        not exist is refused (MLflow would create an empty store).
    missing : {"raise", "drop"}
        A finished run without one of the names or without the metric (a
        parent run of a search, a run logged by hand) is refused by default,
        counted and named; ``"drop"`` leaves such runs out and lists them in
        ``attrs["dropped"]``.
    duplicates : {None, "mean", "median", "first", "last"}
        ``None`` refuses two runs of the same (case, algorithm[, repeat,
        fold]); the others say how to combine them.
    higher_is_better : bool, optional
        The metric's direction for ``attrs``; by default told from its name
        when it is a known one (accuracy, auc, logloss, rmse, ...).

    Returns
    -------
    DataFrame
        Columns ``case``, ``algorithm``, (``repeat``, ``fold``), ``score``,
        ``run_id``, ``run_name``, ``status``. Runs that FAILED or were KILLED,
        and runs not finished, are left out, listed in ``attrs["dropped"]``
        and named in a warning; deleted runs are not read. See
        :mod:`nbstats.io.sources` for ``attrs``.

    Raises
    ------
    ImportError
        MLflow's client is not installed (``pip install "nbstats[mlflow]"``).
    ValueError
        An unknown experiment (the experiments are listed), a name no run
        holds (the params and tags are listed), an unknown metric (the
        metrics are listed), runs without a name or the metric, duplicated
        runs.

    Examples
    --------
    >>> import tempfile, os, warnings
    >>> from mlflow.tracking import MlflowClient
    >>> uri = "sqlite:///" + os.path.join(tempfile.mkdtemp(), "mlflow.db")
    >>> client = MlflowClient(tracking_uri=uri)
    >>> exp = client.create_experiment("demo")
    >>> for data, model, acc in [("iris", "knn", 0.95), ("iris", "tree", 0.93),
    ...                          ("wine", "knn", 0.70), ("wine", "tree", 0.90)]:
    ...     run = client.create_run(exp, tags={"dataset": data})
    ...     _ = client.log_param(run.info.run_id, "model", model)
    ...     client.log_metric(run.info.run_id, "accuracy", acc)
    ...     client.set_terminated(run.info.run_id)
    >>> long = read_mlflow("demo", tracking_uri=uri, case="dataset",
    ...                    algorithm="model", score="accuracy")
    >>> long.sort_values(["case", "algorithm"])[["case", "algorithm", "score"]]
       case algorithm  score
    0  iris       knn   0.95
    1  iris      tree   0.93
    2  wine       knn   0.70
    3  wine      tree   0.90
    """
    if missing not in ("raise", "drop"):
        raise ValueError(f"missing must be 'raise' or 'drop', got {missing!r}.")
    client = _client(tracking_uri)
    with warnings.catch_warnings():
        # MLflow's sqlite store on SQLAlchemy 2.1 warns about its own
        # mappings; nothing the reader's user can act on
        warnings.filterwarnings("ignore", _NOLOAD, DeprecationWarning)
        found = _experiment(client, experiment)
        runs = _runs(client, found.experiment_id)
    if not runs:
        raise ValueError(f"MLflow experiment {found.name!r} has no runs.")
    names = {"case": case, "algorithm": algorithm}
    if repeat is not None:
        names["repeat"] = repeat
    if fold is not None:
        names["fold"] = fold
    _check_names(runs, names, score)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", _NOLOAD, DeprecationWarning)
        rows, dropped, lacking = _rows(client, runs, names, score)
    if lacking and missing == "raise":
        _refuse_lacking(lacking, len(runs), found.name)
    if not rows:
        raise ValueError(
            f"MLflow experiment {found.name!r}: none of its {len(runs)} runs is "
            f"a finished run with the metric {score!r}."
        )
    long = pd.DataFrame(rows)
    for column in ("repeat", "fold"):
        if column in long.columns:
            long[column] = _numbers(long[column])
            if long[column].dtype.kind == "i":  # the runs left out alike
                for record in dropped:
                    if str(record.get(column)).lstrip("+-").isdigit():
                        record[column] = int(record[column])
    keys = ["case", "algorithm", *[c for c in ("repeat", "fold") if c in names]]
    try:
        long = combine_duplicates(long, keys, duplicates, dropped=dropped)
    except ValueError as error:
        hint = _telling_params(long, keys, runs, set(names.values()))
        if not hint:
            raise
        raise ValueError(f"{error} {hint}") from None
    direction = (
        metric_direction(score) if higher_is_better is None else higher_is_better
    )
    return finish(
        long,
        reader=f"read_mlflow({found.name!r})",
        dropped=dropped,
        n_runs=len(runs),
        metric=score,
        higher_is_better=direction,
    )


def _rows(
    client: Any, runs: list[Any], names: dict[str, str], score: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[tuple[Any, list[str]]]]:
    """``(rows, dropped, lacking)``: one row per finished run (per step of
    the metric with ``fold="step"``), the runs left out, the runs without a
    name or the metric."""
    steps = names.get("fold") == STEP
    rows: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    lacking: list[tuple[Any, list[str]]] = []
    for run in runs:
        row: dict[str, Any] = {k: _value(run, n) for k, n in names.items()}
        row["score"] = run.data.metrics.get(score)
        row.update(run_id=run.info.run_id, run_name=run.info.run_name)
        row["status"] = run.info.status
        if run.info.status != "FINISHED":
            kind = "failed" if run.info.status in _FAILED else "unfinished"
            dropped.append({**row, "reason": f"{kind} run (status {run.info.status})"})
            continue
        absent = [
            n
            for k, n in names.items()
            if row[k] is None and not (k == "fold" and steps)
        ]
        absent += [score] if row["score"] is None else []
        if absent:
            lacking.append((run, absent))
            reason = "no " + " and no ".join(repr(a) for a in absent)
            dropped.append({**row, "reason": f"run with {reason} (missing='drop')"})
            continue
        if steps:
            history = client.get_metric_history(run.info.run_id, score)
            rows += [{**row, "fold": m.step, "score": m.value} for m in history]
        else:
            rows.append(row)
    return rows, dropped, lacking


def _telling_params(
    long: pd.DataFrame, keys: list[str], runs: list[Any], used: set[str]
) -> str:
    """The params that tell repeated runs apart (a fold not given?), as a hint."""
    params = {r.info.run_id: r.data.params for r in runs}
    repeated = long[long.duplicated(keys, keep=False)]
    telling: set[str] = set()
    for _, group in repeated.groupby(keys, sort=False):
        seen = [params.get(run_id, {}) for run_id in group["run_id"]]
        for name in set().union(*seen) - used:
            if len({p.get(name) for p in seen}) > 1:
                telling.add(name)
    if not telling:
        return ""
    names = sorted(telling)
    return (
        f"Their params differ in {shown_list([repr(n) for n in names])}: if one "
        f"names the fold, pass fold={names[0]!r} (and repeat= for the repeat)."
    )


def _refuse_lacking(
    lacking: Sequence[tuple[Any, list[str]]], n: int, name: str
) -> None:
    per_name: dict[str, list[str]] = {}
    for run, absent in lacking:
        for item in absent:
            per_name.setdefault(item, []).append(_run_name(run))
    parts = [
        f"{len(runs)} without {item!r}: {shown_list(runs)}"
        for item, runs in per_name.items()
    ]
    raise ValueError(
        f"MLflow experiment {name!r}: {len(lacking)} of {n} finished runs lack "
        f"a name or the metric ({'; '.join(parts)}). Log them on those runs, or "
        "pass missing='drop' to leave those runs out (they are then listed in "
        ".attrs['dropped'])."
    )

"""scikit-learn results as the long table :func:`nbstats.score_table` takes:
the dicts of :func:`sklearn.model_selection.cross_validate` and the
``cv_results_`` of a search (``GridSearchCV``, ``RandomizedSearchCV``, ...).

scikit-learn is not imported: the results are plain dicts of arrays.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from nbstats.io.sources import Duplicates, combine_duplicates, finish, shown_list

__all__ = ["read_sklearn"]

_SPLIT = re.compile(r"split(\d+)_test_(.+)")


def _is_search(value: object) -> bool:
    results = getattr(value, "cv_results_", value)
    return isinstance(results, Mapping) and "params" in results


def _metric_key(keys: Sequence[str], score: str | None, where: str) -> str:
    """The metric of a ``cross_validate`` dict (``"score"``, ``"accuracy"``)."""
    metrics = [k.removeprefix("test_") for k in keys if k.startswith("test_")]
    if not metrics:
        raise ValueError(
            f"{where}: no test scores (keys test_*) in a cross_validate result; "
            f"its keys are {list(keys)}."
        )
    if score is None:
        if len(metrics) > 1:
            raise ValueError(
                f"{where}: the results hold {len(metrics)} metrics "
                f"({', '.join(metrics)}); choose one with score=, e.g. "
                f"score={metrics[0]!r}."
            )
        return metrics[0]
    name = score.removeprefix("test_")
    if name not in metrics:
        raise ValueError(
            f"{where}: no metric {score!r}; the metrics present are "
            f"{', '.join(metrics)} (score= takes one of them)."
        )
    return name


def _cross_validate_rows(
    result: Mapping[str, Any], case: Any, algorithm: Any, score: str | None,
    n_repeats: int,
) -> tuple[list[dict[str, Any]], str]:  # fmt: skip
    where = f"({case!r}, {algorithm!r})"
    metric = _metric_key(list(result), score, where)
    values = np.asarray(result[f"test_{metric}"], dtype=float).ravel()
    n = len(values)
    if n % n_repeats:
        raise ValueError(
            f"{where}: {n} test scores cannot be {n_repeats} repeats of the same "
            "number of folds; give n_repeats= as the splitter's n_repeats."
        )
    k = n // n_repeats
    rows = []
    for i, value in enumerate(values):
        row: dict[str, Any] = {"case": case, "algorithm": algorithm}
        if n_repeats > 1:
            row["repeat"] = i // k
        row["fold"] = i % k
        row["score"] = value
        for key, column in result.items():
            if key == f"test_{metric}" or key in ("estimator", "indices"):
                continue
            column = np.asarray(column)
            if column.ndim == 1 and len(column) == n:
                row[key] = column[i].item() if column.dtype != object else column[i]
        rows.append(row)
    return rows, metric


def _setting_name(params: Mapping[str, Any], estimator: Any) -> str:
    inner = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"{estimator}({inner})" if estimator is not None else inner


def _search_rows(
    results: Mapping[str, Any], case: Any, estimator: Any, score: str | None,
    setting: Any, n_repeats: int,
) -> tuple[list[dict[str, Any]], str]:  # fmt: skip
    where = f"the search on {case!r}" + (f" ({estimator!r})" if estimator else "")
    splits: dict[str, list[int]] = {}
    for key in results:
        match = _SPLIT.fullmatch(key)
        if match:
            splits.setdefault(match.group(2), []).append(int(match.group(1)))
    keys = [f"test_{m}" for m in splits]
    metric = _metric_key(keys, score, where)
    params = list(results["params"])
    if setting is None:
        raise ValueError(
            f"{where}: its cv_results_ holds {len(params)} parameter settings; "
            "choose: setting='all' (each setting its own algorithm), "
            f"setting={params[0]!r} (one setting), or setting='best' (rank 1 "
            f"on rank_test_{metric}: chosen on the same folds, so optimistic)."
        )
    if isinstance(setting, str) and setting == "all":
        chosen = list(range(len(params)))
    elif isinstance(setting, str) and setting == "best":
        ranks = np.asarray(results[f"rank_test_{metric}"])
        chosen = [int(np.flatnonzero(ranks == ranks.min())[0])]
    elif isinstance(setting, Mapping):
        chosen = [
            i
            for i, p in enumerate(params)
            if all(k in p and p[k] == v for k, v in setting.items())
        ]
        if len(chosen) != 1:
            found = "no setting" if not chosen else f"{len(chosen)} settings"
            raise ValueError(
                f"{where}: {found} match(es) setting={dict(setting)!r}; the "
                f"settings are {shown_list(params)}. Give every parameter that "
                "tells one setting apart."
            )
    else:
        raise TypeError(
            f"setting= must be 'all', 'best' or a dict of parameters, got {setting!r}."
        )
    n = len(splits[metric])
    k = n // n_repeats
    if n % n_repeats:
        raise ValueError(
            f"{where}: {n} splits cannot be {n_repeats} repeats of the same "
            "number of folds; give n_repeats= as the splitter's n_repeats."
        )
    if estimator is None and not (isinstance(setting, str) and setting == "all"):
        raise ValueError(
            f"{where}: name the estimator, the algorithm of every data set's "
            f"chosen setting: a key (data set, estimator), e.g. {{({case!r}, "
            "'knn'): search}, or pass the fitted search rather than its cv_results_."
        )
    rows = []
    for index in chosen:
        name = (
            _setting_name(params[index], estimator)
            if isinstance(setting, str) and setting == "all"
            else estimator
        )
        for i in sorted(splits[metric]):
            row: dict[str, Any] = {"case": case, "algorithm": name}
            if n_repeats > 1:
                row["repeat"] = i // k
            row["fold"] = i % k
            row["score"] = float(results[f"split{i}_test_{metric}"][index])
            train = results.get(f"split{i}_train_{metric}")
            if train is not None:
                row["train_score"] = float(train[index])
            row["params"] = _setting_name(params[index], None)
            rows.append(row)
    return rows, metric


def _entries(results: object, case: str, algorithm: str) -> list[tuple[Any, Any, Any]]:
    """``(case, algorithm or None, result)`` per entry of a mapping or records."""
    if isinstance(results, Mapping):
        entries = []
        for key, value in results.items():
            if isinstance(key, tuple) and len(key) == 2:
                entries.append((key[0], key[1], value))
            elif _is_search(value):
                entries.append((key, None, value))
            else:
                raise TypeError(
                    f"key {key!r}: a cross_validate result needs a key "
                    "(data set, estimator), e.g. {('iris', 'knn'): "
                    "cross_validate(...)}; a search's key may be the data set alone."
                )
        return entries
    if isinstance(results, Sequence) and not isinstance(results, str):
        entries = []
        for number, record in enumerate(results):
            if not isinstance(record, Mapping):
                raise TypeError(
                    f"record {number} is a {type(record).__name__}, not a dict."
                )
            missing = [k for k in (case, algorithm) if k not in record]
            if missing:
                raise ValueError(
                    f"record {number} has no key {missing[0]!r} (case= and "
                    "algorithm= name the keys of the data set and the "
                    f"estimator); its keys are {list(record)}."
                )
            rest = {k: v for k, v in record.items() if k not in (case, algorithm)}
            entries.append((record[case], record[algorithm], rest))
        return entries
    raise TypeError(
        "read_sklearn takes a mapping {(data set, estimator): cross_validate "
        "result or search} or a list of records, got "
        f"{type(results).__name__}."
    )


def read_sklearn(
    results: Mapping[Any, Any] | Sequence[Mapping[str, Any]],
    *,
    score: str | None = None,
    setting: str | Mapping[str, Any] | None = None,
    n_repeats: int = 1,
    case: str = "case",
    algorithm: str = "algorithm",
    duplicates: Duplicates = None,
) -> pd.DataFrame:
    """scikit-learn's cross-validation results as a long score table.

    Parameters
    ----------
    results : mapping or list of dicts
        ``{(data set, estimator): cross_validate(...)}``; or ``{data set:
        search}`` / ``{(data set, estimator): search}`` where a search is a
        fitted ``GridSearchCV``-like object or its ``cv_results_``; or a list
        of records, each a ``cross_validate`` dict with two more keys naming
        the data set and the estimator (``case=`` and ``algorithm=``).
    score : str, optional
        The metric, as scikit-learn names it in the keys (``"score"`` for
        ``test_score``, ``"accuracy"`` for ``test_accuracy`` of a
        multi-metric ``scoring``); needed when there are several.
    setting : {"all", "best"} or dict, optional
        For a search: ``"all"`` makes each parameter setting its own
        algorithm, named ``estimator(C=1, kernel='rbf')``; a dict chooses one
        setting (named by the estimator); ``"best"`` takes the setting ranked
        1 by the search itself -- chosen on the same folds that score it, so
        its scores are optimistic (nested cross-validation avoids that).
    n_repeats : int
        The splitter's repeats (``RepeatedStratifiedKFold(n_repeats=...)``):
        split ``i`` of ``k`` folds is then repeat ``i // k``, fold ``i % k``.
    case, algorithm : str
        The keys of the data set and the estimator in records.
    duplicates : {None, "mean", "median", "first", "last"}
        ``None`` refuses a (case, algorithm, fold) read twice; the others say
        how to combine them.

    Returns
    -------
    DataFrame
        Columns ``case``, ``algorithm``, (``repeat``), ``fold``, ``score``,
        then the other per-split values (``fit_time``, ``score_time``, other
        metrics; ``train_score`` and ``params`` for a search). ``attrs``:
        see :mod:`nbstats.io.sources`. A fold whose score is NaN (a failed
        fit with ``error_score=np.nan``) is left out, listed in
        ``attrs["dropped"]`` and named in a warning.

    Examples
    --------
    >>> import nbstats
    >>> from sklearn.datasets import load_iris, load_wine
    >>> from sklearn.model_selection import cross_validate
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> data = {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True)}
    >>> models = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)}
    >>> results = {(d, m): cross_validate(models[m], *data[d], cv=5)
    ...            for d in data for m in models}
    >>> long = read_sklearn(results)
    >>> long[["case", "algorithm", "fold", "score"]].shape
    (20, 4)
    >>> nbstats.score_table(long, **long.attrs["score_table"]).shape
    (2, 2)
    """
    if not isinstance(n_repeats, int) or isinstance(n_repeats, bool) or n_repeats < 1:
        raise ValueError(f"n_repeats must be a positive integer, got {n_repeats!r}.")
    rows: list[dict[str, Any]] = []
    metrics: set[str] = set()
    for case_name, algorithm_name, value in _entries(results, case, algorithm):
        if _is_search(value):
            if algorithm_name is None and hasattr(value, "estimator"):
                algorithm_name = type(value.estimator).__name__
            found, metric = _search_rows(
                getattr(value, "cv_results_", value), case_name, algorithm_name,
                score, setting, n_repeats,
            )  # fmt: skip
        elif isinstance(value, Mapping):
            found, metric = _cross_validate_rows(
                value, case_name, algorithm_name, score, n_repeats
            )
        else:
            raise TypeError(
                f"({case_name!r}, {algorithm_name!r}): expected a cross_validate "
                f"dict or a search, got {type(value).__name__}."
            )
        rows += found
        metrics.add(metric)
    if not rows:
        raise ValueError("read_sklearn: no results to read.")
    if len(metrics) > 1:
        raise ValueError(
            f"the results use different metrics ({', '.join(sorted(metrics))}); "
            "choose one with score=."
        )
    long = pd.DataFrame(rows)
    failed = long["score"].isna()
    dropped = [
        {**row, "reason": "failed fit (NaN test score, error_score=np.nan)"}
        for row in long[failed].to_dict("records")
    ]
    long = long[~failed]
    folds = [c for c in ("repeat", "fold") if c in long.columns]
    long = combine_duplicates(
        long, ["case", "algorithm", *folds], duplicates, dropped=dropped
    )
    metric = metrics.pop()
    return finish(
        long,
        reader="read_sklearn",
        dropped=dropped,
        n_runs=len(rows),
        metric=metric,
        higher_is_better=True,  # scikit-learn's scorers: greater is better
    )

"""What a report is made of, before any test runs: the table, folds, gaps, names.

:func:`prepare` turns the user's scores -- wide or long, with per-fold rows or
missing cells -- into the wide table the report embeds, and records what the
report must state about it: how many folds were averaged, which cases the
``nan_policy`` drops, which short aliases replace long algorithm names, and
which layout the number of algorithms selects (:func:`choose_layout`).
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from nbstats.scores.aliases import AliasOption, make_aliases
from nbstats.scores.folds import check_min_folds, fold_summary, usable_folds
from nbstats.scores.frames import wide_frame
from nbstats.scores.missing import pairwise_table
from nbstats.scores.table import score_table
from nbstats.util.checks import check_choice

__all__ = [
    "COMPACT_ABOVE",
    "LAYOUTS",
    "ReportInput",
    "check_size",
    "choose_layout",
    "prepare",
]

#: Reports of more algorithms than this use the compact layout.
COMPACT_ABOVE = 12

#: The layouts a report can take.
LAYOUTS = ("two-sample", "standard", "compact")


@dataclasses.dataclass(frozen=True)
class ReportInput:
    """The scores a report embeds and the facts it states about them.

    Attributes
    ----------
    table : DataFrame
        Wide scores under the full algorithm names; incomplete cases are kept
        (with NaN) when ``nan_policy="omit"``, so the report can show them
        and drop them itself.
    complete : DataFrame
        The cases the analyses use.
    dropped : list of str
        Cases dropped by ``nan_policy="omit"``.
    folds : dict or None
        From :func:`nbstats.fold_summary` plus ``aggregate``, for per-fold data.
    aliases : dict
        ``{full name: alias}`` of the names shown differently (empty if none).
    layout : str
        One of :data:`LAYOUTS`.
    fold_scores : DataFrame or None
        Per-fold data: rows = (case, fold columns…), columns = algorithms (in
        the table's order), every case, for the per-data-set tests.
    """

    table: pd.DataFrame
    complete: pd.DataFrame
    dropped: list[str]
    folds: dict[str, Any] | None
    aliases: dict[str, str]
    layout: str
    fold_scores: pd.DataFrame | None = None


def choose_layout(n_algorithms: int, layout: str = "auto") -> str:
    """The report layout for ``n_algorithms`` algorithms.

    ``"auto"``: ``"two-sample"`` for 2 algorithms (Wilcoxon, sign test and
    their Bayesian counterparts, as Demšar (2006, §3.1) recommends: no
    Friedman test, no critical-difference diagram), ``"standard"`` for 3 to
    :data:`COMPACT_ABOVE`, ``"compact"`` above (ranked summary, diagrams and
    the pairs that matter in the text; full tables in an appendix).
    ``"standard"`` and ``"compact"`` can be forced for 3 or more algorithms.

    Examples
    --------
    >>> from nbstats.reporting.prepare import choose_layout
    >>> choose_layout(2), choose_layout(8), choose_layout(50)
    ('two-sample', 'standard', 'compact')
    """
    check_choice("layout", layout, ("auto", *LAYOUTS))
    if n_algorithms == 2:
        if layout not in ("auto", "two-sample"):
            raise ValueError(
                f"layout={layout!r} needs at least 3 algorithms; two algorithms "
                "are compared with the two-sample layout (layout='auto')."
            )
        return "two-sample"
    if layout == "two-sample":
        raise ValueError(
            f"layout='two-sample' compares exactly 2 algorithms, got {n_algorithms}; "
            "select two columns first, or use layout='auto'."
        )
    if layout != "auto":
        return layout
    return "compact" if n_algorithms > COMPACT_ABOVE else "standard"


def check_size(table: pd.DataFrame, settings: Any) -> None:
    """Refuse, before the notebook starts, a report whose analyses cannot
    finish within the memory ceiling (:mod:`nbstats.stats.footprint`): the
    message names each chosen analysis and its estimate, the ceiling, and
    the fixes (fewer algorithms, a subset of the analyses, a higher
    ``NBSTATS_MAX_MEMORY``).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> wide = pd.DataFrame(np.zeros((30, 1000)))
    >>> chosen = SimpleNamespace(analyses=("ranks",), n_samples=5000, rope=0.0)
    >>> check_size(wide, chosen)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the report of 1,000 algorithms x 30 cases needs about ...
    """
    from nbstats.stats.footprint import (
        analysis_bytes,
        check_analyses_fit,
        scores_bytes,
    )

    n, m = table.shape
    options = {"n_samples": settings.n_samples, "rope": settings.rope}
    prior = getattr(settings, "prior", None)
    sizes = {"scores": scores_bytes(m, n)}
    if m >= 3:  # two algorithms: no table of pairs
        sizes |= {
            a: analysis_bytes(a, m, n, **options, **({"prior": prior} if prior else {}))
            for a in settings.analyses
        }
    check_analyses_fit(
        sizes, m, n, what="the report", options=options,
        fixes="Compare fewer algorithms or a sample of the cases, choose fewer "
        "analyses (analyses=(...), "
        "or --analyses with a subset of frequentist,bayesian,ranks)",
    )  # fmt: skip


def prepare(
    scores: Any,
    *,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    fold: str | Sequence[str] | None = None,
    aggregate: str | None = None,
    nan_policy: str = "raise",
    aliases: AliasOption = "auto",
    layout: str = "auto",
    min_folds: int | None = None,
) -> ReportInput:
    """Validate a report's scores and work out what it states about them.

    Parameters are those of :func:`nbstats.reporting.report`; errors are those of
    :func:`nbstats.score_table` (missing cells under ``nan_policy="raise"``
    name the cells) and :func:`nbstats.scores.aliases.make_aliases`.
    """
    check_choice("nan_policy", nan_policy, ("raise", "omit", "pairwise"))
    # checked up front: a wide table never reads them, but a wrong value is
    # still a mistake to name rather than ignore
    check_choice("aggregate", aggregate, (None, "mean", "median"))
    check_min_folds(min_folds)
    long_args = (case, algorithm, score)
    folds = None
    failed = None
    if any(v is not None for v in long_args) or fold is not None:
        # score_table gives the clear errors (missing columns, bad folds, ...)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            score_table(
                scores,
                case=case,
                algorithm=algorithm,
                score=score,
                fold=fold,
                aggregate=aggregate,
                nan_policy="omit" if nan_policy != "raise" else "raise",
                min_folds=min_folds,
            )
        given = scores  # the user's rows, before failed folds are left out
        if fold is not None:
            scores, failed = usable_folds(
                scores, case=case, algorithm=algorithm, score=score, fold=fold,
                min_folds=min_folds, refuse=nan_policy == "raise",
            )  # fmt: skip
            folds = dict(
                fold_summary(
                    given, case=case, algorithm=algorithm, fold=fold, score=score,
                    min_folds=min_folds if len(failed) else None,
                ),
                aggregate=aggregate or "mean",
            )  # fmt: skip
            aggregate = aggregate or "mean"
        wide = wide_frame(scores, case, algorithm, score, aggregate)
        if scores is not given:  # every case and algorithm stays, holes and all
            wide = wide.reindex(
                index=pd.unique(given[case]), columns=pd.unique(given[algorithm])
            ).rename_axis(index=case, columns=algorithm)
    else:
        wide = wide_frame(scores)
    if nan_policy == "pairwise":
        pairwise_table(wide)  # every pair shares two cases, or a clear error
    with warnings.catch_warnings():
        # the report states the dropped cases itself
        warnings.simplefilter("ignore", UserWarning)
        # "pairwise": the methods that compare all algorithms at once use
        # the complete cases; the pair table uses each pair's own
        complete = score_table(
            wide, nan_policy="omit" if nan_policy == "pairwise" else nan_policy
        )
    table = wide.astype(float)  # a copy: the input is never changed
    table.index.name = complete.index.name
    table.columns.name = complete.columns.name
    dropped = [str(c) for c in table.index if c not in complete.index]
    mapping = make_aliases(complete.columns, aliases)
    shown = {name: alias for name, alias in mapping.items() if alias != name}
    fold_scores = None
    if folds is not None:
        data = scores
        if failed is not None and len(failed) and min_folds is not None:
            # every row: the per-fold tests take min_folds and pair, per
            # (pair, data set), the folds both algorithms scored; those below it
            # are left out and stated by the tests' results
            data = given
        elif failed is not None and len(failed):
            # no minimum: the per-fold tests pair every fold of two
            # algorithms, so only the cases whose every fold has every score
            # (Methods says how many)
            data = given[~given[case].isin(failed["case"])]
            clean = [c for c in complete.index if c in set(data[case])]
            folds["fold_cases"] = len(clean)
            folds["fold_tests"] = bool(clean)
        if folds.get("fold_tests", True):
            fold_scores = data.pivot(
                index=[case, *folds["columns"]], columns=algorithm, values=score
            )[list(table.columns)].astype(float)
            fold_scores = _one_fold_key(fold_scores)
    return ReportInput(
        table=table,
        complete=complete,
        dropped=dropped,
        folds=folds,
        aliases=shown,
        layout=choose_layout(complete.shape[1], layout),
        fold_scores=fold_scores,
    )


def _one_fold_key(fold_scores: pd.DataFrame) -> pd.DataFrame:
    """Per-fold scores indexed by (case, fold key): several fold columns are
    kept as a tuple, written as one JSON array (``["a|b", "c"]``), so that no
    two folds share a key as ``"a|b" + "c"`` and ``"a" + "b|c"`` would when
    joined with a separator."""
    if fold_scores.index.nlevels <= 2:
        return fold_scores

    def plain(part: Any) -> Any:
        return part.item() if isinstance(part, np.generic) else part

    tuples = [key[1:] for key in fold_scores.index]
    keys = [
        json.dumps([plain(p) for p in key], ensure_ascii=False, default=str)
        for key in tuples
    ]
    if len(set(keys)) != len(set(tuples)):  # parts whose text is alike
        codes = {key: str(i) for i, key in enumerate(dict.fromkeys(tuples), 1)}
        keys = [codes[key] for key in tuples]
    frame = fold_scores.copy()
    frame.index = pd.MultiIndex.from_arrays(
        [fold_scores.index.get_level_values(0), keys],
        names=[fold_scores.index.names[0], "fold"],
    )
    return frame

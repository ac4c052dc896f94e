"""One entry point for every dashboard: ``dashboard(scores, kind=...)``.

Importing this module imports neither ipywidgets nor matplotlib: the dashboard
classes are imported when one is built, so ``import nbstats`` stays fast.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from nbstats.scores.aliases import AliasOption
from nbstats.util.checks import check_choice

__all__ = ["KINDS", "dashboard"]

#: The kinds of dashboard, and what each one shows.
KINDS = {
    "bayes": "Bayesian tests: decisions under a loss, the prior strength s, rope",
    "frequentist": "Friedman / Iman–Davenport, post-hoc tests, CD diagram",
    "ranks": "confidence intervals for ranks (Foucart et al. 2025)",
    "folds": "per-fold scores: the Bayesian correlated t-test of a pair on each "
    "data set, the hierarchical test on request",
}


def dashboard(
    scores: pd.DataFrame | np.ndarray,
    kind: str = "bayes",
    *,
    nan_policy: str = "raise",
    aliases: AliasOption = "auto",
    **kwargs: Any,
) -> Any:
    """A live dashboard of a score table: move a control, watch the answer change.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms. It is validated by
        :func:`nbstats.score_table` first, so bad input fails here with a
        clear message (for long data, build the table with
        ``nbstats.score_table(...)`` and pass that).
    kind : {"bayes", "frequentist", "ranks", "folds"}
        - ``"bayes"``: :class:`nbstats.widgets.bayes.BayesDashboard`
          (keywords ``higher_is_better``, ``n_samples``, ``random_state``).
        - ``"frequentist"``:
          :class:`nbstats.widgets.frequentist.FrequentistDashboard`
          (keyword ``higher_is_better``).
        - ``"ranks"``: :class:`nbstats.widgets.ranks.RankDashboard`
          (keywords ``higher_is_better``, ``random_state``).
        - ``"folds"``: :class:`nbstats.widgets.folds.FoldDashboard` on *long*
          per-fold data (keywords ``case``, ``algorithm``, ``score``,
          ``fold`` and ``runs``/``folds``/``test_fraction``, ``rope``,
          ``loss``); every fold score is needed (``nan_policy="raise"``),
          unless ``min_folds=K``: each pair then uses, on each data set, the
          folds where both algorithms have a score, leaving out a data set
          with fewer than K.
    nan_policy : {"raise", "omit"}
        Missing scores: refuse them (naming the cells), or drop every case
        with one (:func:`nbstats.score_table`); the dashboard then says which
        cases it dropped.
    aliases : "auto", bool or dict
        Short display names for long algorithm names
        (:func:`nbstats.scores.aliases.make_aliases`): ``"auto"`` gives letters A, B, …
        to each name longer than 20 characters, ``True`` to every name,
        ``False`` to none, or a dict ``{name: alias}``. A legend maps aliases to full
        names; the results keep the full names.
    **kwargs
        Passed to the dashboard class.

    Returns
    -------
    Dashboard
        Shown by ``display(...)`` or as a cell's last value; ``.controls``
        (name → widget), ``.result`` (the current results), ``.widget`` (the
        ipywidgets tree) and ``.error`` (the last failed update, if any).

    Raises
    ------
    ValueError
        Unknown ``kind``, or scores :func:`nbstats.score_table` refuses.
    TypeError
        Non-numeric scores, or a keyword the dashboard does not take.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.widgets.dashboard import dashboard
    >>> table = nbstats.datasets.load("demsar2006")
    >>> board = dashboard(table, kind="frequentist")
    >>> sorted(board.controls)
    ['adjust', 'alpha', 'control', 'method', 'omnibus']
    >>> board.controls["alpha"].value = 0.10
    >>> len(board.result["posthoc"].groups)
    2
    """
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(
            f"unknown kind={kind!r}; choose one of "
            + ", ".join(f"{name!r} ({what})" for name, what in KINDS.items())
            + "."
        )
    check_choice("nan_policy", nan_policy, ("raise", "omit", "pairwise"))
    if kind == "folds":
        if nan_policy != "raise":
            raise ValueError(
                "kind='folds' needs every fold score (the correlated t-test pairs "
                "the folds): pass nan_policy='raise' and fill or drop the cells, "
                "or min_folds=K to test each pair on the folds both have."
            )
        from nbstats.widgets.folds import FoldDashboard

        return FoldDashboard(scores, aliases=aliases, **kwargs)
    if nan_policy == "pairwise":
        raise ValueError(
            "the dashboards compare every algorithm on the same cases, so "
            "nan_policy='pairwise' does not apply: pass nan_policy='omit' to drop "
            "the incomplete cases (the report's pair table takes 'pairwise')."
        )
    from nbstats.widgets.base import display_names, prepare_table

    # bad input fails here, before any widget
    table, _ = prepare_table(scores, nan_policy)
    display_names([str(c) for c in table.columns], aliases)
    kwargs.update(nan_policy=nan_policy, aliases=aliases)
    if kind == "bayes":
        from nbstats.widgets.bayes import BayesDashboard

        return BayesDashboard(scores, **kwargs)
    if kind == "frequentist":
        from nbstats.widgets.frequentist import FrequentistDashboard

        return FrequentistDashboard(scores, **kwargs)
    from nbstats.widgets.ranks import RankDashboard

    return RankDashboard(scores, **kwargs)

"""One entry point for every dashboard: ``dashboard(scores, kind=...)``.

Importing this module imports neither ipywidgets nor matplotlib: the dashboard
classes are imported when one is built, so ``import nbstats`` stays fast.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from nbstats.scores import score_table

__all__ = ["KINDS", "dashboard"]

#: The kinds of dashboard, and what each one shows.
KINDS = {
    "bayes": "Bayesian tests: decisions under a loss, the prior strength s, rope",
    "frequentist": "Friedman / Iman–Davenport, post-hoc tests, CD diagram",
    "ranks": "confidence intervals for ranks (Foucart et al. 2025)",
}


def dashboard(
    scores: pd.DataFrame | np.ndarray, kind: str = "bayes", **kwargs: Any
) -> Any:
    """A live dashboard of a score table: move a control, watch the answer change.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms. It is validated by
        :func:`nbstats.score_table` first, so bad input fails here with a
        clear message (for long data or missing scores, build the table with
        ``nbstats.score_table(...)`` and pass that).
    kind : {"bayes", "frequentist", "ranks"}
        - ``"bayes"``: :class:`nbstats.widgets.bayes.BayesDashboard`
          (keywords ``higher_is_better``, ``n_samples``, ``random_state``).
        - ``"frequentist"``:
          :class:`nbstats.widgets.frequentist.FrequentistDashboard`
          (keyword ``higher_is_better``).
        - ``"ranks"``: :class:`nbstats.widgets.ranks.RankDashboard`
          (keywords ``higher_is_better``, ``random_state``).
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
    table = score_table(scores)  # bad input fails here, before any widget
    if kind == "bayes":
        from nbstats.widgets.bayes import BayesDashboard

        return BayesDashboard(table, **kwargs)
    if kind == "frequentist":
        from nbstats.widgets.frequentist import FrequentistDashboard

        return FrequentistDashboard(table, **kwargs)
    from nbstats.widgets.ranks import RankDashboard

    return RankDashboard(table, **kwargs)

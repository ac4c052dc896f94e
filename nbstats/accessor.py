"""The ``DataFrame.compare`` accessor.

pandas already has ``DataFrame.compare(other, ...)``. The accessor replaces the
attribute with a *callable* namespace: calling it forwards to pandas' own method
(kept below before registration), while ``df.compare.friedman()`` and friends are
nbstats'. It keeps no state: pandas may build a new one on every access.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from typing import Any

import numpy as np
import pandas as pd

from nbstats import scores as _scores
from nbstats.results.bayes import (
    BayesPosthocResult,
    BayesSignedRankPairsResult,
    BayesSignedRankResult,
    BayesSignTestResult,
)
from nbstats.results.bayes_friedman import BayesFriedmanResult
from nbstats.results.frequentist import (
    AnovaResult,
    FriedmanResult,
    PosthocResult,
    SignTestResult,
    TTestResult,
    WilcoxonResult,
)
from nbstats.results.ranking import RankCIResult
from nbstats.stats import bayes as _bayes
from nbstats.stats import frequentist as _freq
from nbstats.stats import ranking as _ranking

_pandas_compare = pd.DataFrame.compare
if not inspect.isfunction(_pandas_compare):  # pragma: no cover - module reloaded
    raise ImportError(
        "DataFrame.compare is no longer pandas' method; nbstats.accessor must be "
        "imported once per process (restart the kernel instead of reloading)."
    )


class CompareAccessor:
    """Statistical comparison of the algorithms (columns) of a score table.

    ``df.compare(other, ...)`` is still pandas' ``DataFrame.compare``. Every
    other method is the module-level nbstats function with this frame filled
    in, e.g. ``df.compare.friedman(**kw) == nbstats.friedman(df, **kw)`` and
    ``df.compare.wilcoxon("A", "B") == nbstats.wilcoxon(df["A"], df["B"])``.

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> round(table.compare.friedman().statistic, 2)
    9.28
    >>> table.compare.wilcoxon("C4.5", "C4.5+m").r_plus
    93.0
    """

    def __init__(self, pandas_obj: pd.DataFrame) -> None:
        self._obj = pandas_obj

    @functools.wraps(_pandas_compare)
    def __call__(self, *args: Any, **kwargs: Any) -> pd.DataFrame:
        return _pandas_compare(self._obj, *args, **kwargs)

    # -- score tables -----------------------------------------------------

    def score_table(self, **kwargs: Any) -> pd.DataFrame:
        """:func:`nbstats.score_table` of this frame (e.g. long data)."""
        return _scores.score_table(self._obj, **kwargs)

    def ranks(self, **kwargs: Any) -> pd.DataFrame:
        """:func:`nbstats.ranks` of this frame."""
        return _scores.ranks(self._obj, **kwargs)

    def mean_ranks(self, **kwargs: Any) -> pd.Series:
        """:func:`nbstats.mean_ranks` of this frame."""
        return _scores.mean_ranks(self._obj, **kwargs)

    # -- two algorithms ---------------------------------------------------

    def sign_test(self, a: Any, b: Any, **kwargs: Any) -> SignTestResult:
        """:func:`nbstats.sign_test` of columns ``a`` and ``b``."""
        return _freq.sign_test(self._column(a), self._column(b), **kwargs)

    def wilcoxon(self, a: Any, b: Any, **kwargs: Any) -> WilcoxonResult:
        """:func:`nbstats.wilcoxon` of columns ``a`` and ``b``."""
        return _freq.wilcoxon(self._column(a), self._column(b), **kwargs)

    def ttest(self, a: Any, b: Any, **kwargs: Any) -> TTestResult:
        """:func:`nbstats.ttest` of columns ``a`` and ``b``."""
        return _freq.ttest(self._column(a), self._column(b), **kwargs)

    # -- several algorithms -----------------------------------------------

    def friedman(self, **kwargs: Any) -> FriedmanResult:
        """:func:`nbstats.friedman` of this frame."""
        return _freq.friedman(self._obj, **kwargs)

    def rm_anova(self, **kwargs: Any) -> AnovaResult:
        """:func:`nbstats.rm_anova` of this frame."""
        return _freq.rm_anova(self._obj, **kwargs)

    def posthoc(self, **kwargs: Any) -> PosthocResult:
        """:func:`nbstats.posthoc` of this frame."""
        return _freq.posthoc(self._obj, **kwargs)

    # -- Bayesian -----------------------------------------------------------

    def bayes_sign_test(self, a: Any, b: Any, **kwargs: Any) -> BayesSignTestResult:
        """:func:`nbstats.bayes_sign_test` of columns ``a`` and ``b``."""
        return _bayes.bayes_sign_test(self._column(a), self._column(b), **kwargs)

    def bayes_signrank(self, a: Any, b: Any, **kwargs: Any) -> BayesSignedRankResult:
        """:func:`nbstats.bayes_signrank` of columns ``a`` and ``b``."""
        return _bayes.bayes_signrank(self._column(a), self._column(b), **kwargs)

    def bayes_signrank_pairs(self, **kwargs: Any) -> BayesSignedRankPairsResult:
        """:func:`nbstats.bayes_signrank_pairs` of this frame."""
        return _bayes.bayes_signrank_pairs(self._obj, **kwargs)

    def bayes_friedman(self, **kwargs: Any) -> BayesFriedmanResult:
        """:func:`nbstats.bayes_friedman` of this frame."""
        return _bayes.bayes_friedman(self._obj, **kwargs)

    def bayes_posthoc(self, **kwargs: Any) -> BayesPosthocResult:
        """:func:`nbstats.bayes_posthoc` of this frame."""
        return _bayes.bayes_posthoc(self._obj, **kwargs)

    # -- ranks ----------------------------------------------------------------

    def rank_ci(self, **kwargs: Any) -> RankCIResult:
        """:func:`nbstats.rank_ci` of this frame."""
        return _ranking.rank_ci(self._obj, **kwargs)

    # -- pictures -------------------------------------------------------------

    def dashboard(self, kind: str = "bayes", **kwargs: Any) -> Any:
        """:func:`nbstats.dashboard` of this frame (imports ipywidgets)."""
        from nbstats.widgets.dashboard import dashboard  # lazy

        return dashboard(self._obj, kind=kind, **kwargs)

    def cd_diagram(
        self,
        method: str = "nemenyi",
        alpha: float = 0.05,
        control: str | None = None,
        *,
        higher_is_better: bool = True,
        adjust: str | None = None,
        **kwargs: Any,
    ) -> Any:
        """Critical-difference diagram of :func:`nbstats.posthoc` on this frame.

        ``kwargs`` go to :func:`nbstats.plots.cd_diagram` (``ax``,
        ``reverse``, ``width``, ...). Returns the matplotlib Axes.
        """
        from nbstats import plots  # lazy: matplotlib only when drawing

        result = _freq.posthoc(
            self._obj,
            method=method,
            alpha=alpha,
            control=control,
            adjust=adjust,
            higher_is_better=higher_is_better,
        )
        return plots.cd_diagram(result, **kwargs)

    def report(self, path: Any, **kwargs: Any) -> Any:
        """:func:`nbstats.report` of this frame: an HTML/PDF/TeX/ipynb report."""
        from nbstats.report import report  # lazy: nbconvert only when writing

        return report(self._obj, path, **kwargs)

    def critical_difference(
        self, alpha: float = 0.05, method: str = "nemenyi"
    ) -> float:
        """:func:`nbstats.critical_difference` for this frame's k and N."""
        n_cases, n_algorithms = self._obj.shape
        return _freq.critical_difference(n_algorithms, n_cases, alpha, method)

    def _column(self, name: Any) -> pd.Series:
        if isinstance(name, (list, tuple, np.ndarray, pd.Index)):
            raise TypeError(
                f"expected one column name, got {type(name).__name__} {name!r}."
            )
        if name not in self._obj.columns:
            raise ValueError(
                f"no algorithm (column) named {name!r}; the columns are "
                f"{list(self._obj.columns)}."
            )
        column = self._obj[name]
        if isinstance(column, pd.DataFrame):
            raise ValueError(
                f"column name {name!r} appears more than once; rename the columns."
            )
        return column


def register() -> None:
    """Register ``DataFrame.compare`` without pandas' override warning."""
    with warnings.catch_warnings():
        # pandas warns that the accessor overrides an existing attribute; that
        # is intended, and __call__ keeps the original behaviour.
        warnings.simplefilter("ignore", UserWarning)
        pd.api.extensions.register_dataframe_accessor("compare")(CompareAccessor)

"""The ``DataFrame.compare`` accessor.

pandas already has ``DataFrame.compare(other, ...)``. The accessor replaces the
attribute with a *callable* namespace: calling it forwards to pandas' own method
(kept below before registration), while ``df.compare.friedman()`` and friends are
nbstats'. It keeps no state: pandas may build a new one on every access.

``import nbstats`` imports this module and nothing of the statistics: each
method names the module of its function, which is imported the first time
the method is looked up (:class:`_Lazy`).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from nbstats.results.folds import (
        BayesCorrelatedTTestResult,
        CorrelatedTTestResult,
    )
    from nbstats.results.hierarchical import BayesHierarchicalResult

_pandas_compare = pd.DataFrame.compare
if not inspect.isfunction(_pandas_compare):  # pragma: no cover - module reloaded
    raise ImportError(
        "DataFrame.compare is no longer pandas' method; nbstats.accessor must be "
        "imported once per process (restart the kernel instead of reloading)."
    )


# Every method below is the module-level function with the frame filled in.
# The methods are made from the functions, not written out, so that their
# signatures (inspect.signature, tab completion) and help() are the
# functions' own and cannot drift from them.

_EXAMPLES = re.compile(r"^Examples\n-{8}$", re.MULTILINE)
_SELF = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _load(module: str, name: str) -> Callable[..., Any]:
    """The function ``name`` of ``module``, importing the module."""
    return getattr(importlib.import_module(module), name)


class _Lazy:
    """A method of :class:`CompareAccessor` made on its first lookup.

    ``make(self)`` builds the method (importing the function's module); the
    method then replaces this placeholder on the class, so that every later
    lookup is an ordinary method's. Looked up on the class or on an accessor,
    the placeholder answers as the method would: ``dir``, ``help``,
    ``inspect.signature`` and tab completion see no difference.
    """

    def __init__(
        self,
        make: Callable[[_Lazy], Callable[..., Any]],
        module: str | None = None,
        function: str | None = None,
        *,
        doc: str | None = None,
    ) -> None:
        self.make = make
        self.module = module  # the function's module; None for a written method
        self.function = function
        self.name = ""
        self.owner: type | None = None
        # a written method's doctests are collected from its placeholder
        self.__doc__ = doc
        self.__module__ = __name__

    def __set_name__(self, owner: type, name: str) -> None:
        self.owner, self.name = owner, name
        self.function = self.function or name

    def load(self) -> Callable[..., Any]:
        """The function the method calls, its module imported."""
        if self.module is None or self.function is None:
            raise TypeError(f"{self.name} is written out; it names no function.")
        return _load(self.module, self.function)

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        method = self.make(self)
        setattr(self.owner, self.name, method)
        return method if instance is None else method.__get__(instance, owner)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # read from the class's __dict__, the placeholder is called as the
        # unbound method would be: with the accessor first
        return self.__get__(None, self.owner)(*args, **kwargs)


def _table(module: str, function: str | None = None) -> _Lazy:
    """A method that calls ``module.function`` (by default the method's name)
    with this frame as its first argument."""
    return _Lazy(lambda lazy: _table_method(lazy.load(), lazy.name), module, function)


def _pair(module: str, function: str | None = None) -> _Lazy:
    """A method that calls ``module.function`` on the columns named ``a``, ``b``."""
    return _Lazy(lambda lazy: _pair_method(lazy.load(), lazy.name), module, function)


def _signed(
    signature: Callable[[], inspect.Signature],
) -> Callable[[Callable[..., Any]], _Lazy]:
    """A written method whose ``__signature__`` is made from its function's
    on first lookup (``signature()`` imports that function)."""

    def decorate(method: Callable[..., Any]) -> _Lazy:
        def make(lazy: _Lazy) -> Callable[..., Any]:
            method.__signature__ = signature()  # type: ignore[attr-defined]
            return method

        return _Lazy(make, doc=method.__doc__)

    return decorate


def _signature_without(
    function: Callable[..., Any],
    *,
    drop: Sequence[str] = (),
    first: int = 0,
    method: bool = True,
    returns: Any = inspect.Signature.empty,
) -> inspect.Signature:
    """``function``'s signature without its first ``first`` and the ``drop``
    parameters, with ``self`` in front for a method."""
    signature = inspect.signature(function)
    kept = [
        p for p in list(signature.parameters.values())[first:] if p.name not in drop
    ]
    if returns is inspect.Signature.empty:
        returns = signature.return_annotation
    return signature.replace(
        parameters=[_SELF, *kept] if method else kept, return_annotation=returns
    )


def _with_fold_columns(function: Callable[..., Any]) -> inspect.Signature:
    """``function``'s signature with the long table's column options after ``b``."""
    signature = _signature_without(function)
    keyword = inspect.Parameter.KEYWORD_ONLY
    columns = [
        inspect.Parameter(name, keyword, default=None, annotation=annotation)
        for name, annotation in (
            ("on", "Any"),
            ("case", "str | None"),
            ("algorithm", "str | None"),
            ("score", "str | None"),
            ("fold", "str | Sequence[str] | None"),
        )
    ]
    params = list(signature.parameters.values())
    return signature.replace(parameters=[*params[:3], *columns, *params[3:]])


def _describe(
    method: Callable[..., Any], function: Callable[..., Any], name: str, intro: str
) -> Callable[..., Any]:
    method.__name__ = method.__qualname__ = name
    method.__module__ = __name__
    # the function's examples stay with it (they would run twice as doctests)
    doc = _EXAMPLES.split(inspect.cleandoc(function.__doc__ or ""))[0].rstrip()
    method.__doc__ = f"{intro}\n\n{doc}\n\nExamples: see ``nbstats.{name}``."
    return method


def _table_method(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A method that calls ``function`` with this frame as its first argument."""
    first = next(iter(inspect.signature(function).parameters))

    def method(self: CompareAccessor, *args: Any, **kwargs: Any) -> Any:
        return function(self._obj, *args, **kwargs)

    method.__signature__ = _signature_without(function, first=1)  # type: ignore[attr-defined]
    return _describe(
        method,
        function,
        name,
        f"``df.compare.{name}(...)`` is ``nbstats.{name}(df, ...)``: this frame "
        f"is ``{first}``; the other parameters are below.",
    )


def _pair_method(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A method that calls ``function`` on the columns named ``a`` and ``b``."""

    def method(self: CompareAccessor, a: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
        from nbstats.scores.fold_pair import frame_column

        frame = self._obj
        return function(frame_column(frame, a), frame_column(frame, b), *args, **kwargs)

    method.__signature__ = _signature_without(function)  # type: ignore[attr-defined]
    return _describe(
        method,
        function,
        name,
        f"``df.compare.{name}(a, b, ...)`` is ``nbstats.{name}(df[a], df[b], ...)``: "
        "``a`` and ``b`` are column names of this frame.",
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

    score_table = _table("nbstats.scores.table")
    ranks = _table("nbstats.scores.ranks")
    mean_ranks = _table("nbstats.scores.ranks")

    # -- two algorithms ---------------------------------------------------

    sign_test = _pair("nbstats.stats.frequentist.sign")
    wilcoxon = _pair("nbstats.stats.frequentist.wilcoxon")
    ttest = _pair("nbstats.stats.frequentist.ttest")
    effect_size = _pair("nbstats.stats.effect_size")

    # -- several algorithms -----------------------------------------------

    friedman = _table("nbstats.stats.frequentist.friedman")
    rm_anova = _table("nbstats.stats.frequentist.anova")
    quade = _table("nbstats.stats.frequentist.quade")
    friedman_aligned = _table("nbstats.stats.frequentist.aligned")
    durbin = _table("nbstats.stats.frequentist.durbin")
    skillings_mack = _table("nbstats.stats.frequentist.skillings_mack")
    posthoc = _table("nbstats.stats.frequentist.posthoc")
    conover = _table("nbstats.stats.frequentist.conover")
    comparison_matrix = _table("nbstats.stats.comparison")
    analyze = _table("nbstats.stats.analyze")
    coverage = _table("nbstats.stats.coverage")

    @_signed(
        lambda: _signature_without(
            _load("nbstats.stats.frequentist.posthoc", "posthoc"),
            drop=("scores", "control"),
            returns=inspect.signature(
                _load("nbstats.stats.letters", "letters")
            ).return_annotation,
        )
    )
    def letters(self, **kwargs: Any) -> Any:
        """:func:`nbstats.letters` of :func:`nbstats.posthoc` of this frame.

        ``df.compare.letters(**kw) == nbstats.letters(nbstats.posthoc(df, **kw))``:
        the arguments are :func:`nbstats.posthoc`'s and choose the all-pairs
        procedure (``method``, ``ranks``, ``alpha``, ``higher_is_better``,
        ``nan_policy``). Letters of pairwise tests:
        ``nbstats.letters(df.compare.comparison_matrix(...))``.
        """
        if kwargs.get("control") is not None:
            raise ValueError(
                "letters need every pair compared; drop control= (a comparison "
                "with a control gives no groups to letter)."
            )
        from nbstats.stats.frequentist.posthoc import posthoc
        from nbstats.stats.letters import letters

        return letters(posthoc(self._obj, **kwargs))

    # -- Bayesian -----------------------------------------------------------

    bayes_sign_test = _pair("nbstats.stats.bayes.sign")
    bayes_signrank = _pair("nbstats.stats.bayes.signrank.one_pair")
    bayes_signrank_pairs = _table("nbstats.stats.bayes.signrank.pairs")
    bayes_friedman = _table("nbstats.stats.bayes.friedman")
    bayes_posthoc = _table("nbstats.stats.bayes.posthoc")
    bayes_plackett_luce = _table("nbstats.stats.bayes.plackett_luce")

    # -- per-fold scores (cross-validation) -----------------------------------

    fold_summary = _table("nbstats.scores.folds")

    @_signed(
        lambda: _with_fold_columns(
            _load("nbstats.stats.correlated", "correlated_ttest")
        )
    )
    def correlated_ttest(
        self,
        a: Any,
        b: Any,
        *,
        on: Any = None,
        case: str | None = None,
        algorithm: str | None = None,
        score: str | None = None,
        fold: str | Sequence[str] | None = None,
        min_folds: int | None = None,
        **kwargs: Any,
    ) -> CorrelatedTTestResult:
        """:func:`nbstats.correlated_ttest` of ``a`` and ``b`` on one data set's folds.

        Two shapes of frame:

        - *wide*, this frame's rows the folds of one data set and its
          columns the algorithms: ``df.compare.correlated_ttest("A", "B",
          runs=10) == nbstats.correlated_ttest(df["A"], df["B"], runs=10)``;
        - *long*, one row per (case, algorithm, fold) as for
          :func:`nbstats.correlated_pairs`: name the columns (``algorithm``,
          ``score``, ``fold``, and ``case`` unless the frame holds one data
          set) and choose the data set with ``on`` (its value in ``case``).
          The folds are paired by the fold column(s). With two fold columns
          ``(run, fold)`` and none of ``folds``/``runs``/``test_fraction``,
          the runs are read from the first, as ``correlated_pairs`` does.
          A failed fold of ``a`` or ``b`` (its row absent or its score
          missing) is refused unless ``min_folds=K``: the test then uses the
          J folds on which both have a score (``result.n_folds``; the design's ρ,
          1/J in the correction) and refuses J < K.

        ``kwargs`` go to :func:`nbstats.correlated_ttest` (``runs``,
        ``folds`` or ``test_fraction`` is required).

        Examples
        --------
        >>> import nbstats
        >>> folds = nbstats.datasets.load("uci_accuracy_folds")
        >>> res = folds.compare.correlated_ttest(
        ...     "nbc", "aode", on="anneal", case="dataset",
        ...     algorithm="classifier", score="accuracy", fold="fold", runs=10)
        >>> res.n_folds, res.rho
        (100, 0.1)

        Two folds of aode failed: the test pairs the other 98.

        >>> failed = folds[~((folds["dataset"] == "anneal")
        ...                  & (folds["classifier"] == "aode")
        ...                  & folds["fold"].isin([3, 7]))]
        >>> res = failed.compare.correlated_ttest(
        ...     "nbc", "aode", on="anneal", case="dataset",
        ...     algorithm="classifier", score="accuracy", fold="fold", runs=10,
        ...     min_folds=90)
        >>> res.n_folds, res.runs, res.rho
        (98, 10, 0.1)
        """
        x, y, kwargs = _fold_pair(self._obj,
            a, b, on, case, algorithm, score, fold, min_folds, kwargs,
            "correlated_ttest",
        )  # fmt: skip
        from nbstats.stats.correlated import correlated_ttest

        return correlated_ttest(x, y, min_folds=min_folds, **kwargs)

    @_signed(
        lambda: _with_fold_columns(
            _load("nbstats.stats.correlated", "bayes_correlated_ttest")
        )
    )
    def bayes_correlated_ttest(
        self,
        a: Any,
        b: Any,
        *,
        on: Any = None,
        case: str | None = None,
        algorithm: str | None = None,
        score: str | None = None,
        fold: str | Sequence[str] | None = None,
        min_folds: int | None = None,
        **kwargs: Any,
    ) -> BayesCorrelatedTTestResult:
        """:func:`nbstats.bayes_correlated_ttest` of ``a`` and ``b`` on one
        data set's folds; the frame and ``on``/``case``/``algorithm``/
        ``score``/``fold`` as in :meth:`correlated_ttest`.

        Examples
        --------
        >>> import nbstats
        >>> folds = nbstats.datasets.load("uci_accuracy_folds")
        >>> anneal = folds[folds["dataset"] == "anneal"].pivot(
        ...     index="fold", columns="classifier", values="accuracy")
        >>> res = anneal.compare.bayes_correlated_ttest("nbc", "aode", runs=10,
        ...                                             rope=0.01)
        >>> res == nbstats.bayes_correlated_ttest(anneal["nbc"], anneal["aode"],
        ...                                       runs=10, rope=0.01)
        True
        """
        x, y, kwargs = _fold_pair(self._obj,
            a, b, on, case, algorithm, score, fold, min_folds, kwargs,
            "bayes_correlated_ttest",
        )  # fmt: skip
        from nbstats.stats.correlated import bayes_correlated_ttest

        return bayes_correlated_ttest(x, y, min_folds=min_folds, **kwargs)

    correlated_pairs = _table("nbstats.stats.correlated_pairs")

    @_signed(
        lambda: _signature_without(
            _load("nbstats.stats.hierarchical", "bayes_hierarchical"), drop=("data",)
        )
    )
    def bayes_hierarchical(
        self, a: Any, b: Any, **kwargs: Any
    ) -> BayesHierarchicalResult:
        """:func:`nbstats.bayes_hierarchical` of algorithms ``a`` and ``b`` in
        this long per-fold table: ``df.compare.bayes_hierarchical("A", "B",
        **kw) == nbstats.bayes_hierarchical("A", "B", data=df, **kw)``
        (``case``, ``algorithm``, ``score`` and ``fold`` name its columns).
        Needs the extra ``nbstats[hierarchical]``."""
        if "data" in kwargs:
            raise TypeError(
                "df.compare.bayes_hierarchical analyses df itself: drop data= "
                "(or call nbstats.bayes_hierarchical(a, b, data=...))."
            )
        from nbstats.stats.hierarchical import bayes_hierarchical

        return bayes_hierarchical(a, b, data=self._obj, **kwargs)

    # -- ranks ----------------------------------------------------------------

    rank_ci = _table("nbstats.stats.ranking")

    # -- pictures -------------------------------------------------------------

    dashboard = _table("nbstats.widgets.dashboard")

    def cd_diagram(
        self,
        method: str = "nemenyi",
        alpha: float = 0.05,
        control: str | None = None,
        *,
        higher_is_better: bool = True,
        nan_policy: str = "raise",
        ranks: str = "friedman",
        **kwargs: Any,
    ) -> Any:
        """Critical-difference diagram of :func:`nbstats.posthoc` on this frame.

        ``nan_policy`` and ``ranks`` as :func:`nbstats.posthoc`. With missing
        cells, a diagram of pairwise tests on each pair's shared cases is
        ``nbstats.plots.cd_diagram(df.compare.comparison_matrix(
        nan_policy="pairwise"))``. ``kwargs`` go to
        :func:`nbstats.plots.cd_diagram` (``ax``, ``reverse``, ``width``,
        ...). Returns the matplotlib Axes.
        """
        import nbstats.plots as plots  # lazy: matplotlib only when drawing
        from nbstats.stats.frequentist.posthoc import posthoc

        result = posthoc(
            self._obj,
            method=method,
            alpha=alpha,
            control=control,
            higher_is_better=higher_is_better,
            nan_policy=nan_policy,
            ranks=ranks,
        )
        return plots.cd_diagram(result, **kwargs)

    report = _table("nbstats.reporting")
    report_text = _table("nbstats.reporting")

    def critical_difference(
        self, alpha: float = 0.05, method: str = "nemenyi"
    ) -> float:
        """:func:`nbstats.critical_difference` for this frame's k and N."""
        from nbstats.stats.frequentist.critical_difference import (
            critical_difference,
        )

        n_cases, n_algorithms = self._obj.shape
        return critical_difference(n_algorithms, n_cases, alpha, method)

    def nemenyi_min_cases(self, alpha: float = 0.05) -> int:
        """:func:`nbstats.nemenyi_min_cases` for this frame's number of algorithms."""
        from nbstats.stats.ranking import nemenyi_min_cases

        return nemenyi_min_cases(self._obj.shape[1], alpha)


def _fold_pair(frame: pd.DataFrame, *args: Any) -> Any:
    # the long-table reading loads with the first fold test, not with import
    from nbstats.scores.fold_pair import fold_pair

    return fold_pair(frame, *args)


def register() -> None:
    """Register ``DataFrame.compare`` without pandas' override warning."""
    with warnings.catch_warnings():
        # pandas warns that the accessor overrides an existing attribute; that
        # is intended, and __call__ keeps the original behaviour.
        warnings.simplefilter("ignore", UserWarning)
        pd.api.extensions.register_dataframe_accessor("compare")(CompareAccessor)

"""The report's Bayesian hierarchical test across data sets (opt-in).

The fold section (:mod:`nbstats.reporting.folds`) judges each data set on its
own folds. On request -- ``report(..., hierarchical=True)`` or ``nbstats
report --hierarchical``: it takes tens of seconds per pair and needs the
optional extra ``nbstats[hierarchical]`` -- the hierarchical model of
Corani et al. (2017) uses every data set's folds at once and says how b
compares with a on a further data set like these: :func:`hierarchical_tests`
runs it on the first pairs of the fold section, :func:`hierarchical_section`
shows it, :func:`hierarchical_methods` says how it was done.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Sequence
from typing import Any

import pandas as pd

from nbstats.reporting.display import FIGURE_WIDTH, _n, figure, paragraph, ref
from nbstats.reporting.folds import _probability
from nbstats.reporting.references import Paragraph, author_year, cite
from nbstats.reporting.tables import frame_table

__all__ = [
    "HIERARCHICAL_PAIRS",
    "HierarchicalTests",
    "LeftOutPair",
    "hierarchical_methods",
    "hierarchical_section",
    "hierarchical_tests",
    "sampler_installed",
]


def sampler_installed() -> bool:
    """Whether the extra ``nbstats[hierarchical]`` (jax, numpyro) is installed."""
    import importlib.util

    return all(importlib.util.find_spec(name) for name in ("jax", "numpyro"))


#: The hierarchical test runs on at most this many of the fold section's pairs
#: (each takes tens of seconds; the first also compiles the sampler).
HIERARCHICAL_PAIRS = 3

#: What installs the hierarchical test's sampler.
HIERARCHICAL_EXTRA = "nbstats[hierarchical]"

#: R̂ above this, or a divergent transition, and the section says to be careful.
RHAT_LIMIT = 1.01


@dataclasses.dataclass(frozen=True)
class LeftOutPair:
    """A pair the hierarchical test left out: with failed folds
    (``min_folds``), fewer than 2 of its data sets have ``min_folds`` folds
    both algorithms scored (``datasets`` of them; ``left_out``: the others),
    and the model needs at least 2."""

    name_a: str
    name_b: str
    datasets: int
    left_out: int
    min_folds: int

    def words(self) -> str:
        """Why, in the report's words.

        Examples
        --------
        >>> LeftOutPair("a", "b", 1, 11, 8).words()
        'b vs a (only 1 data set has at least 8 folds both scored; 11 have fewer)'
        """
        has = "data set has" if self.datasets == 1 else "data sets have"
        others = "has" if self.left_out == 1 else "have"
        return (
            f"{self.name_b} vs {self.name_a} (only {self.datasets} {has} at least "
            f"{self.min_folds} folds both scored; {self.left_out:,} {others} fewer)"
        )


@dataclasses.dataclass(frozen=True)
class HierarchicalTests:
    """The hierarchical tests a report ran, or why it could not run them.

    ``results``: one :class:`~nbstats.results.hierarchical.BayesHierarchicalResult`
    per pair tested (empty when ``missing`` is set); ``pairs``: the fold
    section's pairs, of which the first ``len(results) + len(skipped)`` were
    considered; ``skipped``: the :class:`LeftOutPair` among them, left out
    for too few data sets with ``min_folds`` paired folds; ``missing``: the
    ImportError's message when the extra is not installed.
    """

    results: tuple[Any, ...]
    pairs: tuple[tuple[str, str], ...]
    rope: float
    threshold: float
    missing: str | None = None
    skipped: tuple[LeftOutPair, ...] = ()

    def methods_sentence(self) -> Paragraph:
        """Its Methods sentences (:func:`hierarchical_methods`), which
        :func:`nbstats.reporting.methods.methods_paragraph` reads by this name."""
        return hierarchical_methods(self)


def hierarchical_tests(
    fold_scores: pd.DataFrame,
    pairs: Sequence[tuple[str, str]],
    *,
    runs: int,
    rope: float,
    loss: tuple[float, float],
    seed: int,
    higher_is_better: bool = True,
    max_pairs: int = HIERARCHICAL_PAIRS,
    min_folds: int | None = None,
    **sampler: Any,
) -> HierarchicalTests:
    """:func:`nbstats.bayes_hierarchical` of the first ``max_pairs`` pairs.

    ``fold_scores`` is the report's long table (columns ``case``,
    ``algorithm``, ``fold``, ``score``, from :func:`read_fold_scores`);
    ``pairs`` the fold section's (a, b) pairs. Every pair is sampled with the
    seed ``seed``; ``sampler`` (``n_samples``, ``chains``, ``warmup``) goes
    to :func:`nbstats.bayes_hierarchical`, and so does ``min_folds`` (failed
    folds: each data set's likelihood takes the folds both algorithms
    scored, and a data set with fewer is left out of the pair; a pair left
    with fewer than 2 data sets is not tested but listed in ``skipped``,
    as :class:`LeftOutPair`). The sampler's own warnings (R̂, divergences) are not shown:
    :func:`hierarchical_section` states the diagnostics. Without the extra
    ``nbstats[hierarchical]`` nothing is sampled and the result says what to
    install.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.reporting.hierarchical import hierarchical_tests
    >>> long = nbstats.datasets.load("uci_accuracy_folds").rename(columns={
    ...     "dataset": "case", "classifier": "algorithm", "accuracy": "score"})
    >>> tests = hierarchical_tests(long, [("nbc", "aode")], runs=10, rope=0.01,
    ...                            loss=(1, 19), seed=0)  # doctest: +SKIP
    >>> tests.results[0].decision  # doctest: +SKIP
    'undecided'
    """
    from nbstats.stats.bayes.decision import resolve_threshold
    from nbstats.stats.hierarchical import TooFewDataSetsError, bayes_hierarchical
    from nbstats.stats.hierarchical_model import require_sampler
    from nbstats.util.checks import check_positive

    rope = check_positive("rope", rope, allow_zero=True)
    threshold = resolve_threshold(None, loss)
    if isinstance(max_pairs, bool) or not isinstance(max_pairs, int) or max_pairs < 1:
        raise ValueError(f"max_pairs must be a whole number >= 1, got {max_pairs!r}.")
    pairs = tuple((str(a), str(b)) for a, b in pairs)
    try:
        require_sampler()
    except ImportError as error:
        return HierarchicalTests((), pairs, rope, threshold, missing=str(error))
    results, skipped = [], []
    for a, b in pairs[:max_pairs]:
        with warnings.catch_warnings():
            # R̂ and divergences are stated by hierarchical_section instead
            warnings.filterwarnings("ignore", "the hierarchical model's sampler")
            try:
                results.append(
                    bayes_hierarchical(
                        a, b, data=fold_scores, case="case", algorithm="algorithm",
                        score="score", fold="fold", runs=runs, rope=rope, loss=loss,
                        higher_is_better=higher_is_better, random_state=seed,
                        min_folds=min_folds, **sampler,
                    )
                )  # fmt: skip
            except TooFewDataSetsError as error:  # that pair only: say so
                skipped.append(
                    LeftOutPair(
                        error.name_a, error.name_b, error.kept,
                        len(error.left_out), int(error.min_folds or 0),
                    )
                )  # fmt: skip
    return HierarchicalTests(
        tuple(results), pairs, rope, threshold, skipped=tuple(skipped)
    )


def hierarchical_section(tests: HierarchicalTests) -> None:
    """Paragraph, table and simplex figure of the hierarchical tests in a report.

    Shows, per pair tested, the posterior probabilities that on a further
    data set a is better, the two are practically equivalent, or b is
    better, the decision, and the sampler's diagnostics (largest R̂,
    smallest effective sample size, divergent transitions). The figure
    places every posterior draw on a simplex (with a rope) or shows each
    data set's shrunk difference (without). When the extra is missing, a
    paragraph says what to install.
    """
    if tests.missing is not None:
        paragraph(
            Paragraph().add(
                "The Bayesian hierarchical test across data sets "
                f"{author_year('corani2017')} was requested, but its sampler "
                "(NumPyro on JAX) is not "
                "installed. Install the optional extra with "
                f"pip install {HIERARCHICAL_EXTRA} and rerun the report to add it.",
            )
        )
        return
    results = tests.results
    if not results:  # every pair considered was left out
        paragraph(
            Paragraph().add(
                "The Bayesian hierarchical test across data sets "
                f"{author_year('corani2017')} was requested, but no pair could "
                "be tested. " + _skipped_sentence(tests.skipped)
            )
        )
        return
    first = results[0]
    rope = tests.rope
    para = Paragraph().add(
        "The correlated t-tests judge each data set on its own. The Bayesian "
        f"hierarchical model {author_year('corani2017')} uses every data set's "
        "folds at once: each data set's mean difference "
        "gets the correlated model of those tests, and the data sets' means are "
        "drawn from one Student t distribution, whose posterior says how b "
        "compares with a on a further data set like these. ",
    )
    considered = len(results) + len(tests.skipped)
    if considered < len(tests.pairs):
        para.add(
            f"It is slow, so it was run on the first {considered} of the "
            f"{len(tests.pairs)} comparisons of ",
            ref("tab:fold-pairs"),
            ". ",
        )
    para.add(_skipped_sentence(tests.skipped))
    for res in results:
        para.add(_hierarchical_sentence(res, rope, tests.threshold))
    para.add(_diagnostics_sentence(results))
    para.add("See ", ref("tab:hierarchical"), " and ", ref("fig:hierarchical"), ".")
    paragraph(para)
    frame_table(
        "tab:hierarchical",
        _table_caption(first, rope, tests.threshold, tests.skipped),
        _hierarchical_frame(results, rope),
    )
    # one pair: its figure also set for the venue, as figure-hierarchical.pdf
    # (and -wide.pdf for a two-column venue) in <stem>_tables/
    kind = "simplex" if first.prob_rope is not None else "datasets"
    figure(
        "fig:hierarchical",
        _figure_caption(first, rope),
        _hierarchical_figure(results),
        paste=(first, kind, {}) if len(results) == 1 else None,
    )


def hierarchical_methods(
    tests: HierarchicalTests, para: Paragraph | None = None
) -> Paragraph:
    """The Methods sentences of the hierarchical tests (appended to ``para``).

    Examples
    --------
    >>> from nbstats.reporting.hierarchical import (
    ...     HierarchicalTests,
    ...     hierarchical_methods,
    ... )
    >>> missing = HierarchicalTests((), (("a", "b"),), 0.01, 0.95, missing="no jax")
    >>> hierarchical_methods(missing).text()
    ''
    """
    para = Paragraph() if para is None else para
    if tests.missing is not None:
        return para
    if not tests.results:
        if tests.skipped:  # requested, but no pair had 2 data sets
            para.add(
                "The Bayesian hierarchical model",
                cite("corani2017"),
                " was requested across data sets but not run. "
                + _skipped_sentence(tests.skipped),
            )
        return para
    res = tests.results[0]
    rope = f"a rope of ±{_n(tests.rope)}" if tests.rope > 0 else "no rope"
    para.add(
        "Across data sets, the folds were also analysed with the Bayesian "
        "hierarchical model",
        cite("corani2017"),
        ": each data set's fold differences are multivariate normal with their "
        "own mean and variance and the correlation ρ = 1/k between folds, the "
        "data sets' means follow a Student t distribution with unknown location, "
        "scale and degrees of freedom, and the priors are those of the authors' "
        "implementation (baycomp). The posterior was sampled with NUTS "
        f"(NumPyro; {res.chains} chains of {res.n_samples:,} draws after "
        f"{res.warmup:,} warm-up steps, seed as above); for a further data set, "
        "the reported probabilities are the shares of draws in which each region "
        f"(a better, the rope, b better; {rope}) is the most probable, and a "
        f"region is decided when its share exceeds {_n(tests.threshold)}. ",
        _failed_folds_methods(tests.results),
        _skipped_sentence(tests.skipped),
    )
    return para


def _skipped_sentence(skipped: Sequence[LeftOutPair]) -> str:
    """The pairs the hierarchical test left out, and why ("" for none).

    Examples
    --------
    >>> _skipped_sentence([LeftOutPair("a", "b", 1, 11, 8)])
    ... # doctest: +NORMALIZE_WHITESPACE
    'With failed folds, the model, which needs at least 2 data sets, left out
    1 pair: b vs a (only 1 data set has at least 8 folds both scored; 11 have
    fewer). '
    """
    if not skipped:
        return ""
    n = len(skipped)
    return (
        "With failed folds, the model, which needs at least 2 data sets, left "
        f"out {n} pair{'s' if n != 1 else ''}: "
        + "; ".join(pair.words() for pair in skipped)
        + ". "
    )


def _failed_folds_methods(results: Sequence[Any]) -> str:
    """With failed folds (``min_folds``), the hierarchical tests' sentence:
    paired folds per data set, the minimum, and the data sets left out.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import pandas as pd
    >>> res = SimpleNamespace(min_folds=8, name_a="a", name_b="b",
    ...     left_out=pd.DataFrame({"case": ["kc1"]}), datasets=range(12))
    >>> print(_failed_folds_methods([res]))  # doctest: +NORMALIZE_WHITESPACE
    In the hierarchical model, too, a data set's likelihood took only the
    folds both algorithms scored, and a data set with fewer than 8 of them
    was left out of the pair: 1 of the 13 (pair, data set) in all (b vs a: 1).
    """
    if not results or results[0].min_folds is None:
        return ""
    out = sum(len(r.left_out) for r in results)
    total = out + sum(len(r.datasets) for r in results)
    per_pair = "; ".join(
        f"{r.name_b} vs {r.name_a}: {len(r.left_out)}"
        for r in results
        if len(r.left_out)
    )
    return (
        "In the hierarchical model, too, a data set's likelihood took only the "
        "folds both algorithms scored, and a data set with fewer than "
        f"{results[0].min_folds} of them was left out of the pair: {out:,} of "
        f"the {total:,} (pair, data set) in all"
        + (f" ({per_pair})" if per_pair else "")
        + ". "
    )


def _decision_words(res: Any) -> str:
    return {
        "b": f"{res.name_b} better",
        "a": f"{res.name_a} better",
        "equivalent": "practically equivalent",
        "undecided": "undecided",
    }[res.decision]


def _hierarchical_sentence(res: Any, rope: float, threshold: float) -> str:
    probs = [f"P({res.name_b} better) = {_probability(res.prob_right)}"]
    if res.prob_rope is not None:
        probs.append(f"P(within ±{_n(rope)}) = {_probability(res.prob_rope)}")
    probs.append(f"P({res.name_a} better) = {_probability(res.prob_left)}")
    if res.decision == "undecided":
        verdict = f"no region reaches {_n(threshold)}: undecided"
    elif res.decision == "equivalent":
        verdict = f"{res.name_b} and {res.name_a} are practically equivalent"
    else:
        verdict = f"{_decision_words(res)} on a further data set"
    return f"{res.name_b} vs {res.name_a}: {', '.join(probs)}; {verdict}. "


def _diagnostics_sentence(results: Sequence[Any]) -> str:
    poor = [
        f"{r.name_b} vs {r.name_a}"
        for r in results
        if r.divergences or not r.rhat <= RHAT_LIMIT
    ]
    if poor:
        return (
            f"Caution: the sampler's diagnostics for {', '.join(poor)} are poor "
            f"(R̂ above {RHAT_LIMIT} or divergent transitions): its probabilities "
            "may be off; rerun with more warm-up steps and draws. "
        )
    rhat = max(r.rhat for r in results)
    ess = min(r.ess for r in results)
    return (
        f"The sampler's chains agree (largest R̂ {rhat:.3f}, at least "
        f"{ess:,.0f} effective draws, no divergent transitions). "
    )


def _hierarchical_frame(results: Sequence[Any], rope: float) -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "P(a better)": [_probability(r.prob_left) for r in results],
            "P(rope)": [
                "" if r.prob_rope is None else _probability(r.prob_rope)
                for r in results
            ],
            "P(b better)": [_probability(r.prob_right) for r in results],
            "decision": [_decision_words(r) for r in results],
            "δ0": [_n(r.delta0) for r in results],
            "R̂": [f"{r.rhat:.3f}" for r in results],
            "ESS": [f"{r.ess:,.0f}" for r in results],
            "div.": [str(int(r.divergences)) for r in results],
        },
        index=pd.Index(
            [f"{r.name_b} vs {r.name_a}" for r in results], name="comparison"
        ),
    )
    if rope == 0:
        frame = frame.drop(columns="P(rope)")
    if results[0].min_folds is not None:  # the data sets differ by pair
        frame.insert(0, "data sets", [len(r.datasets) for r in results])
        frame.insert(1, "left out", [len(r.left_out) for r in results])
    return frame


def _table_caption(
    res: Any, rope: float, threshold: float, skipped: Sequence[LeftOutPair] = ()
) -> str:
    regions = (
        f"a better by more than {_n(rope)}, within ±{_n(rope)}, or b better by "
        "more than it"
        if rope > 0
        else "a better or b better (no rope)"
    )
    on = (
        f"{len(res.datasets)} data sets' folds"
        if res.min_folds is None
        else "the folds both algorithms scored on each data set (failed folds; "
        f"data sets: those with at least {res.min_folds} such folds; left out: "
        "those with fewer)"
    )
    return (
        f"Bayesian hierarchical test on {on}: for a further data set, in each "
        "comparison \u201cb vs a\u201d, the share of "
        f"posterior draws in which each region ({regions}) is the most probable; "
        f"the decision needs a share above {_n(threshold)}. δ0: posterior mean of "
        "the data sets' mean difference b − a; R̂ (largest), ESS (smallest "
        "effective sample size) and div. (divergent transitions): the sampler's "
        "diagnostics." + (" " + _skipped_sentence(skipped).strip() if skipped else "")
    )


def _figure_caption(res: Any, rope: float) -> str:
    if rope > 0:
        return (
            "Posterior draws of the hierarchical model placed by the probabilities "
            "they give a further data set's difference: left of the rope (a "
            f"better), within ±{_n(rope)}, right of it (b better); each point is "
            "coloured by its most probable region, whose shares the legend gives."
        )
    return (
        "Each data set's difference b − a under the hierarchical model: posterior "
        f"mean and {_n(100 * res.level)}% interval (filled), the observed mean "
        "fold difference (open), and the posterior mean of δ0 (dashed). Without "
        "a rope there is no simplex to draw."
    )


def _datasets_key(res: Any) -> tuple[list[Any], list[str]]:
    """The data-set figure's key (:func:`~nbstats.plots.hierarchical.datasets_entries`)
    as matplotlib handles, for one key under all panels; δ0's value differs
    per panel (the table gives it), so the key says what the line is."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from nbstats.plots.hierarchical import datasets_entries

    handles, labels = [], []
    for text, key in datasets_entries(res):
        if key.kind == "patch":
            handle: Any = Patch(color=key.color, alpha=key.opacity, linewidth=0)
        elif key.kind == "line":
            style = (0, key.dash) if key.dash else "-"
            handle = Line2D(
                [], [], color=key.color, linewidth=key.width, linestyle=style
            )
        else:  # a dot, or an open ring
            handle = Line2D(
                [],
                [],
                linestyle="none",
                marker="o",
                color=key.color,
                markersize=3,
                markerfacecolor=key.color if key.kind == "dot" else "none",
            )
        handles.append(handle)
        labels.append("δ0: posterior mean" if text.startswith("δ0") else text)
    return handles, labels


def _hierarchical_figure(results: Sequence[Any]) -> Any:
    """The pairs' pictures side by side, each laid out at its panel's size
    (no layout engine rescales them: their text stays at its size), named
    above when there are several; the data-set pictures share one key."""
    import matplotlib.pyplot as plt

    from nbstats.plots.hierarchical import (
        datasets_layout,
        hierarchical_datasets,
        hierarchical_simplex,
        simplex_picture,
    )
    from nbstats.plots.style import literal, paper_style

    n = len(results)
    width = 72 * min(FIGURE_WIDTH, 3.0 * n)  # points
    panel = width / n
    simplex = results[0].prob_rope is not None
    with paper_style():
        if simplex:
            heights = [
                simplex_picture(r, panel, titles=False).picture.height for r in results
            ]
        else:
            heights = [
                datasets_layout(r, panel, titles=False, key=False).picture.height
                for r in results
            ]
        tall = max(heights)
        title = 14.0 if n > 1 else 0.0
        key = 0.0 if simplex else 34.0
        total = tall + title + key
        fig = plt.figure(figsize=(width / 72, total / 72))
        for k, res in enumerate(results):
            ax = fig.add_axes((k / n, key / total, 1 / n, tall / total))
            ax.set_anchor("N")  # a shorter picture hangs from the top
            if simplex:
                hierarchical_simplex(res, ax=ax)
            else:  # one key for the figure, below
                hierarchical_datasets(res, ax=ax, key=False)
            if n > 1:  # which pair, in the text's order (the caption says the rest)
                ax.set_title(f"{literal(res.name_b)} vs {literal(res.name_a)}")
        if not simplex:
            fig.legend(
                *_datasets_key(results[0]), loc="lower center", ncols=2, frameon=False
            )
    return fig

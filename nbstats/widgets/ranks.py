"""Rank dashboard: confidence intervals for ranks, live (Foucart et al. 2025).

Controls: the methods to compare, α, the bootstrap size and the prior of the
Bayesian Plackett–Luce ranking. Views: the forest plot of the selected
methods' intervals, a table of lower and upper ranks per method, and the
Plackett–Luce ranking (P(best), expected rank and its credible interval).
Results are cached per (method, α, bootstrap size), so adding a method computes
only that one, and changing the bootstrap size recomputes only the bootstrap.
The bootstrap always draws from the same seed: changing α or the bootstrap
size never re-rolls the resamples (the first ``n_resamples`` of a larger bootstrap
are the resamples of the smaller one). Importing this module does not import
ipywidgets (building a dashboard does).
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.monte_carlo import error_bound
from nbstats.results.ranking import RankCIResult
from nbstats.scores.aliases import AliasOption
from nbstats.stats.bayes.plackett_luce import bayes_plackett_luce
from nbstats.stats.ranking import RANK_CI_METHODS, rank_ci
from nbstats.util.checks import check_flag, check_random_state
from nbstats.util.random import seed_sequence
from nbstats.widgets.base import (
    SCROLL_CLASS,
    TABLE_STYLE,
    Dashboard,
    alpha_slider,
    cell_style,
    display_names,
    dropped_html,
    number_html,
    prepare_table,
)
from nbstats.widgets.frequentist import p_text
from nbstats.widgets.rank_svg import intervals_svg
from nbstats.widgets.svg import show_svg

__all__ = ["RankDashboard"]

_METHOD_LABELS = {
    "bootstrap": "bootstrap (percentile)",
    "id-nemenyi": "Iman–Davenport + Nemenyi",
    "id-wilcoxon-2s": "Iman–Davenport + Wilcoxon, two-sided (Holm)",
    "id-wilcoxon-1s": "Iman–Davenport + Wilcoxon, one-sided (Holm)",
    "anova-tukey": "rank ANOVA + Tukey HSD",
}
_OMNIBUS = {
    "id-nemenyi": "Iman–Davenport",
    "id-wilcoxon-2s": "Iman–Davenport",
    "id-wilcoxon-1s": "Iman–Davenport",
    "anova-tukey": "rank-transformed ANOVA",
}
#: Results kept per (method, alpha, n_resamples).
_CACHE_SIZE = 256
#: Posterior draws of the live Plackett–Luce ranking (the report uses more).
PLACKETT_LUCE_DRAWS = 2000
#: The level at which the test-based methods are computed once: their
#: p-values do not depend on α, and a decision at α ≤ this level is
#: ``p < α`` among the decisions made at this level (see :func:`at_alpha`).
REFERENCE_ALPHA = 0.5

_CELL = cell_style()
_HEAD = cell_style("center", head=True)
_NAME = cell_style("left")


class RankDashboard(Dashboard):
    """Confidence intervals for ranks by several methods, side by side.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms (validated by
        :func:`nbstats.score_table`; bad input raises here, not in a callback).
    higher_is_better : bool
        Whether higher scores are better (ranks are 1 = best either way).
    random_state : None, int or numpy Generator
        Seed of the bootstrap, fixed when the dashboard is built: every
        recompute uses the same resamples (a Generator is drawn from once).
    nan_policy : {"raise", "omit"}
        As :func:`nbstats.score_table`; the dashboard names the dropped cases.
    aliases : "auto", bool or dict
        Short display names (:func:`nbstats.scores.aliases.make_aliases`) in the
        picture and the table, with a legend; results keep the full names.

    Attributes
    ----------
    controls : dict of str to ipywidgets.Widget
        ``"methods"`` (SelectMultiple of the five :func:`nbstats.rank_ci`
        methods; default the two-sided Iman–Davenport + Wilcoxon), ``"alpha"``
        (FloatSlider, 0.001 to 0.2), ``"n_resamples"`` (IntSlider, 100 to 5000,
        updates on release; disabled unless the bootstrap is selected),
        ``"plackett_luce_s"`` (FloatLogSlider, 0.1 to 10: the strength s of
        the Dirichlet prior of the Plackett–Luce worths, updates on release).
    result : dict
        ``"rank_ci"``: dict of method → :class:`~nbstats.results.ranking.RankCIResult`,
        in the order of ``nbstats.stats.ranking.RANK_CI_METHODS``;
        ``"plackett_luce"``: the :func:`nbstats.bayes_plackett_luce` result at
        the s of the control (2000 draws, the dashboard's seed; cached per
        s).
    views : dict of str to ipywidgets.Widget
        ``"plot"`` (Output: the forest plot of the intervals, the SVG of
        :func:`nbstats.widgets.rank_svg.intervals_svg` at every number of
        algorithms),
        ``"table"`` (HTML: lower and upper rank per algorithm and method,
        and each method's omnibus test), ``"plackett_luce"`` (HTML: P(best),
        expected rank and its credible interval per algorithm).
    error : str or None
        The message of the last failed update (e.g. no method selected); the
        previous result stays.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.widgets.ranks import RankDashboard
    >>> board = RankDashboard(nbstats.datasets.load("demsar2006"))
    >>> board.result["rank_ci"]["id-wilcoxon-2s"].intervals()["C4.5"]
    (3, 4)
    >>> board.controls["methods"].value = ("bootstrap", "id-wilcoxon-2s")
    >>> list(board.result["rank_ci"])
    ['bootstrap', 'id-wilcoxon-2s']
    """

    def __init__(
        self,
        scores: pd.DataFrame | Any,
        *,
        higher_is_better: bool = True,
        random_state: object = 0,
        nan_policy: str = "raise",
        aliases: AliasOption | Mapping[str, str] = "auto",
    ) -> None:
        import ipywidgets as widgets

        check_flag("higher_is_better", higher_is_better)
        check_random_state(random_state)
        table, dropped = prepare_table(scores, nan_policy)
        table.columns = pd.Index([str(c) for c in table.columns], name="algorithm")
        super().__init__()
        self.scores = table
        self.names = list(table.columns)
        self.aliases = display_names(self.names, aliases)
        self.dropped_cases = dropped
        self._source, self.nan_policy, self._alias_option = scores, nan_policy, aliases
        self.higher_is_better = bool(higher_is_better)
        # one seed for the dashboard's life: recomputes never re-roll
        self._seed = seed_sequence(random_state)
        self._cache: dict[tuple[str, float, int | None], RankCIResult] = {}
        self._rankings: dict[float, Any] = {}
        self._drawn: tuple = ()

        wide = {"description_width": "initial"}
        self.controls = {
            "methods": widgets.SelectMultiple(
                options=[(_METHOD_LABELS[m], m) for m in RANK_CI_METHODS],
                value=("id-wilcoxon-2s",),
                rows=len(RANK_CI_METHODS),
                description="methods",
                style=wide,
                layout=widgets.Layout(width="34em"),
            ),
            "alpha": alpha_slider(),
            "n_resamples": widgets.IntSlider(
                value=1000,
                min=100,
                max=5000,
                step=100,
                continuous_update=False,
                description="bootstrap size",
                style=wide,
            ),
            # the strength of the Dirichlet prior of the Plackett–Luce worths
            "plackett_luce_s": widgets.FloatLogSlider(
                value=1.0,
                base=10,
                min=-1,
                max=1,
                step=0.1,
                continuous_update=False,
                description="Plackett–Luce prior s",
                style=wide,
            ),
        }
        # the picture keeps its size, the table sits next to it
        self.views = {
            "plot": widgets.Output(layout=widgets.Layout(flex="0 0 auto")),
            "table": widgets.HTML(value=""),
            "plackett_luce": widgets.HTML(value=""),
        }
        c, v = self.controls, self.views
        wrap = widgets.Layout(flex_flow="row wrap")
        self._dropped_view = (
            widgets.HTML(value=dropped_html(dropped, len(table))) if dropped else None
        )
        self.widget = widgets.VBox(
            [
                widgets.HBox(
                    [
                        c["methods"],
                        widgets.VBox(
                            [c["alpha"], c["n_resamples"], c["plackett_luce_s"]]
                        ),
                    ],
                    layout=wrap,
                ),
                self._error_view,
                widgets.HBox([v["plot"], v["table"]], layout=wrap),
                v["plackett_luce"],
            ]
        )
        self._add_notes()
        self._add_export_bar()
        self.update()
        self._connect()

    def report_settings(self) -> dict[str, Any]:
        """The report's α from the control."""
        return {"alpha": float(self.controls["alpha"].value)}

    # -- controls → result ----------------------------------------------------

    def compute(self, changed: str | None) -> dict[str, Any]:
        chosen = set(self.controls["methods"].value)
        unknown = chosen.difference(RANK_CI_METHODS)
        if unknown:  # only reachable by setting .value by hand
            raise ValueError(
                f"unknown methods {sorted(unknown)}; choose among "
                + ", ".join(repr(m) for m in RANK_CI_METHODS)
                + "."
            )
        methods = [m for m in RANK_CI_METHODS if m in chosen]
        self.controls["n_resamples"].disabled = "bootstrap" not in chosen
        if not methods:
            raise ValueError("select at least one method.")
        alpha = float(self.controls["alpha"].value)
        n_resamples = int(self.controls["n_resamples"].value)
        results = {}
        for method in methods:
            key = (method, alpha, n_resamples if method == "bootstrap" else None)
            res = self._cache.get(key)
            if res is None:
                if method != "bootstrap" and alpha <= REFERENCE_ALPHA:
                    res = at_alpha(self._reference(method), alpha)
                else:
                    res = self._rank_ci(method, alpha, n_resamples)
                if len(self._cache) >= _CACHE_SIZE:
                    self._cache.clear()
                self._cache[key] = res
            results[method] = res
        return {"rank_ci": results, "plackett_luce": self._ranking()}

    def _ranking(self) -> Any:
        """The Bayesian Plackett–Luce ranking at the s of the control."""
        s = float(self.controls["plackett_luce_s"].value)
        if s not in self._rankings:
            if len(self._rankings) >= _CACHE_SIZE:
                self._rankings.clear()
            self._rankings[s] = bayes_plackett_luce(
                self.scores,
                s=s,
                n_samples=PLACKETT_LUCE_DRAWS,
                higher_is_better=self.higher_is_better,
                random_state=self._seed,
                # a bar in the notebook would be a second widget beside the
                # dashboard (a slow machine takes past the bar's 1 s delay)
                progress=False,
            )
        return self._rankings[s]

    def _rank_ci(self, method: str, alpha: float, n_resamples: int) -> RankCIResult:
        return rank_ci(
            self.scores,
            method=method,
            alpha=alpha,
            n_resamples=n_resamples,
            higher_is_better=self.higher_is_better,
            random_state=self._seed,
        )

    def _reference(self, method: str) -> RankCIResult:
        """The test-based method at :data:`REFERENCE_ALPHA`, computed once."""
        key = (method, REFERENCE_ALPHA, "reference")
        if key not in self._cache:
            self._cache[key] = self._rank_ci(method, REFERENCE_ALPHA, 1)
        return self._cache[key]

    # -- result → views -------------------------------------------------------

    def render(self, result: dict[str, Any]) -> None:
        results = result["rank_ci"]
        drawn = tuple((m, id(r)) for m, r in results.items())
        if drawn != self._drawn:  # e.g. a bootstrap size without the bootstrap
            self._draw(results)
            self._drawn = drawn
        self.views["table"].value = _interval_table(results, self.aliases)
        self.views["plackett_luce"].value = _ranking_table(
            result["plackett_luce"], self.aliases
        )

    def _draw(self, results: dict[str, RankCIResult]) -> None:
        show_svg(
            self.views["plot"],
            intervals_svg(results, self.aliases),
            "confidence intervals for ranks",
        )


def at_alpha(reference: RankCIResult, alpha: float) -> RankCIResult:
    """A test-based :func:`nbstats.rank_ci` result at a smaller α, from one at
    a larger α (the p-values do not depend on α).

    The omnibus test is rejected when its p-value < α; a pair is decided
    when its adjusted p-value < α, and only pairs decided at the larger α can
    be (the directions are those of the reference's decisions). Tested equal
    to :func:`nbstats.rank_ci` at every α.

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> wide = nbstats.rank_ci(table, alpha=0.5)
    >>> at_alpha(wide, 0.05).intervals() == nbstats.rank_ci(table).intervals()
    True
    """
    if not 0 < alpha <= reference.alpha:
        raise ValueError(
            f"alpha must lie in (0, {reference.alpha}] (the reference's), got {alpha}."
        )
    names = list(reference.lower.index)
    m = len(names)
    rejected = bool(reference.omnibus_pvalue < alpha)
    nothing = np.zeros((m, m), dtype=bool)
    if rejected and reference.pvalues is not None:
        p_better = np.nan_to_num(reference.pvalues.to_numpy(dtype=float), nan=1.0)
        worse_p = reference.pvalues_worse
        p_worse = (
            p_better
            if worse_p is None
            else np.nan_to_num(worse_p.to_numpy(dtype=float), nan=1.0)
        )
        better = reference.better.to_numpy(dtype=bool) & (p_better < alpha)
        worse = reference.worse.to_numpy(dtype=bool) & (p_worse < alpha)
        pvalues, pvalues_worse = reference.pvalues, reference.pvalues_worse
    else:
        better = worse = nothing
        pvalues = pvalues_worse = None
    index = reference.better.index
    return dataclasses.replace(
        reference,
        alpha=float(alpha),
        omnibus_rejected=rejected,
        lower=pd.Series(
            1 + better.sum(axis=1), index=reference.lower.index, name="lower"
        ).astype(reference.lower.dtype),
        upper=pd.Series(
            m - worse.sum(axis=1), index=reference.upper.index, name="upper"
        ).astype(reference.upper.dtype),
        better=pd.DataFrame(better, index=index, columns=reference.better.columns),
        worse=pd.DataFrame(worse, index=index, columns=reference.worse.columns),
        pvalues=pvalues,
        pvalues_worse=pvalues_worse,
    )


def _interval_table(
    results: dict[str, RankCIResult], shown: Mapping[str, str] | None = None
) -> str:
    """Lower and upper rank per algorithm (best mean rank first) and method."""
    shown = shown or {}
    first = next(iter(results.values()))
    order = first.mean_ranks.sort_values(kind="stable").index
    level = f"{first.level:.1%}".replace(".0%", "%")
    head_methods = "".join(
        f'<th colspan="2" style="{_HEAD}">{html.escape(method)}</th>'
        for method in results
    )
    head_bounds = "".join(
        f'<th style="{_HEAD}">lower</th><th style="{_HEAD}">upper</th>' for _ in results
    )
    rows = []
    for name in order:
        cells = [
            f'<th style="{_NAME}">{html.escape(shown.get(name, str(name)))}</th>',
            f'<td style="{_CELL}">{number_html(first.mean_ranks[name], "rank")}</td>',
        ]
        for res in results.values():
            cells.append(f'<td style="{_CELL}">{int(res.lower[name])}</td>')
            cells.append(f'<td style="{_CELL}">{int(res.upper[name])}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    notes = []
    for method, res in results.items():
        if method == "bootstrap":
            notes.append(
                f"{html.escape(method)}: {res.n_resamples} resamples of the cases"
            )
        else:
            verdict = (
                "rejected"
                if res.omnibus_rejected
                else f"not rejected: every interval is [1, {res.n_algorithms}]"
            )
            notes.append(
                f"{html.escape(method)}: {_OMNIBUS[method]} "
                f"{p_text(res.omnibus_pvalue)} ({verdict})"
            )
    return (
        f'<div class="{SCROLL_CLASS}" style="max-height:32em;overflow:auto;'
        'max-width:100%">'
        f'<div style="font-size:12px;margin-bottom:4px"><b>{level} confidence '
        "intervals for ranks</b> (1 = best)</div>"
        f'<table style="{TABLE_STYLE}"><thead>'
        f'<tr><th style="{_HEAD}" rowspan="2">algorithm</th>'
        f'<th style="{_HEAD}" rowspan="2">mean rank</th>{head_methods}</tr>'
        f"<tr>{head_bounds}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        '<div style="font-size:11px;color:#555;margin-top:4px">'
        + "<br>".join(notes)
        + "</div></div>"
    )


def _ranking_table(ranking: Any, shown: Mapping[str, str] | None = None) -> str:
    """P(best), expected rank and its interval per algorithm, best first."""
    shown = shown or {}
    frame = ranking.to_frame()
    percent = f"{ranking.level:.0%}"
    rows = []
    for row in frame.itertuples(index=False):
        name = html.escape(shown.get(str(row.algorithm), str(row.algorithm)))
        best = number_html(row.prob_best, "probability")
        rows.append(
            f'<tr><th style="{_NAME}"><bdi>{name}</bdi></th>'
            f'<td style="{_CELL}">{best}</td>'
            f'<td style="{_CELL}">{number_html(row.expected_rank, "rank")}</td>'
            f'<td style="{_CELL}">[{row.rank_lower}, {row.rank_upper}]</td></tr>'
        )
    return (
        f'<div class="{SCROLL_CLASS}" style="max-height:32em;overflow:auto;'
        'max-width:100%;margin-top:8px">'
        '<div style="font-size:12px;margin-bottom:4px"><b>Bayesian '
        "Plackett–Luce ranking</b> (Dirichlet prior, s = "
        f"{ranking.s:.3g}; {ranking.n_samples} draws, Monte Carlo error of "
        f"P(best) {error_bound(ranking.mc_error, ranking.n_samples)})</div>"
        f'<table style="{TABLE_STYLE}"><thead><tr>'
        f'<th style="{_HEAD}">algorithm</th><th style="{_HEAD}">P(best)</th>'
        f'<th style="{_HEAD}">expected rank</th>'
        f'<th style="{_HEAD}">rank, {percent} credible</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )

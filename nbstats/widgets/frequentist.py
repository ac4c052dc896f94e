"""Frequentist dashboard: omnibus test, post-hoc method, CD diagram (Demšar 2006).

Controls: α, the omnibus test (Friedman's χ² or Iman–Davenport's F), the
post-hoc method, the control algorithm and the adjustment of pairwise tests.
Views: the omnibus verdict, the critical-difference diagram and the table of
adjusted p-values. The Friedman test does not depend on any control, so it is
computed once; post-hoc results are cached per setting, so going back to an
earlier setting is instant. Importing this module does not import ipywidgets
(building a dashboard does).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.frequentist import FriedmanResult, PosthocResult
from nbstats.results.number_policy import format_number
from nbstats.results.procedure_names import (
    ADJUSTMENT_NAMES,
    POSTHOC_NAMES,
    posthoc_name,
)
from nbstats.scores.aliases import AliasOption
from nbstats.stats.comparison import COMPARISON_TESTS
from nbstats.stats.frequentist.adjust import ADJUSTMENTS
from nbstats.stats.frequentist.friedman import friedman
from nbstats.stats.frequentist.posthoc import (
    POSTHOC_METHODS,
    against_control,
    posthoc,
)
from nbstats.util.checks import check_flag
from nbstats.widgets.base import (
    SCROLL_CLASS,
    TABLE_STYLE,
    Dashboard,
    alpha_slider,
    cell_style,
    display_names,
    dropped_html,
    name_dropdown,
    number_html,
    prepare_table,
)
from nbstats.widgets.frequentist_pairwise import PairwiseTests
from nbstats.widgets.rank_svg import cd_svg
from nbstats.widgets.svg import show_svg
from nbstats.widgets.vocabulary import SIGNIFICANT, frequentist_decision

__all__ = ["FrequentistDashboard", "p_text"]


# The menus qualify a few names: what Shaffer's and Bergmann–Hommel's
# corrections assume, and that the pairwise tests are not rank tests.
_METHOD_LABELS = {
    **POSTHOC_NAMES,
    "shaffer": "Shaffer (static)",
    "conover": "Conover (Friedman ranks)",
    "wilcoxon": "Wilcoxon signed-rank (pairwise)",
    "sign": "sign test (pairwise)",
    "ttest": "paired t-test (pairwise)",
}
_ADJUST_LABELS = {
    **ADJUSTMENT_NAMES,
    "shaffer": "Shaffer (all pairs)",
    "bergmann-hommel": "Bergmann–Hommel (all pairs)",
}
#: Post-hoc results kept per (method, control, adjust, alpha).
_CACHE_SIZE = 128
#: Comparisons listed in the p-value table at most (smallest adjusted p first).
TABLE_ROWS_MAX = 300

_SIGNIFICANT_ROW = "background:#e8f0f8;font-weight:bold"
_CELL_STYLE = cell_style()
_HEAD_STYLE = cell_style(head=True)


class FrequentistDashboard(Dashboard):
    """Friedman / Iman–Davenport, then a post-hoc test, live (Demšar 2006, §3.2).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms (validated by
        :func:`nbstats.score_table`; bad input raises here, not in a callback).
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit"}
        As :func:`nbstats.score_table`; the dashboard names the dropped cases.
    aliases : "auto", bool or dict
        Short display names (:func:`nbstats.scores.aliases.make_aliases`) in the
        picture and the table, with a legend; results keep the full names.

    Attributes
    ----------
    controls : dict of str to ipywidgets.Widget
        ``"alpha"`` (FloatSlider, 0.001 to 0.2), ``"omnibus"`` (Dropdown:
        ``"friedman"``, ``"iman-davenport"``), ``"method"`` (Dropdown of the
        :func:`nbstats.posthoc` methods), ``"control"`` (Dropdown: None or an
        algorithm; disabled and ignored for the all-pairs methods Nemenyi
        and Shaffer, as a note says), ``"adjust"`` (Dropdown; pairwise tests
        only, disabled for the rank methods, which fix their own adjustment).
    result : dict
        ``"omnibus"``: the :class:`~nbstats.results.frequentist.FriedmanResult`
        (both statistics; ``controls["omnibus"]`` picks the one reported);
        ``"posthoc"``: the current
        :class:`~nbstats.results.frequentist.PosthocResult`.
    views : dict of str to ipywidgets.Widget
        ``"note"`` (HTML: which controls are ignored), ``"verdict"`` (HTML:
        the omnibus statistic, p-value and decision at α), ``"cd"`` (Output:
        the critical-difference picture, the SVG of
        :func:`nbstats.widgets.rank_svg.cd_svg`, one row per algorithm at
        every number of algorithms), ``"table"`` (HTML: adjusted p-values,
        the 300 smallest).
    error : str or None
        The message of the last failed update (e.g. ``adjust="shaffer"`` with
        a control), shown above the views; the previous result stays.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.widgets.frequentist import FrequentistDashboard
    >>> board = FrequentistDashboard(nbstats.datasets.load("demsar2006"))
    >>> board.result["posthoc"].groups
    [('C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5')]
    >>> board.controls["alpha"].value = 0.10
    >>> board.result["posthoc"].groups
    [('C4.5+m+cf', 'C4.5+m', 'C4.5+cf'), ('C4.5+cf', 'C4.5')]
    """

    def __init__(
        self,
        scores: pd.DataFrame | Any,
        *,
        higher_is_better: bool = True,
        nan_policy: str = "raise",
        aliases: AliasOption | Mapping[str, str] = "auto",
    ) -> None:
        import ipywidgets as widgets

        check_flag("higher_is_better", higher_is_better)
        table, dropped = prepare_table(scores, nan_policy)
        table.columns = pd.Index([str(c) for c in table.columns], name="algorithm")
        super().__init__()
        self.scores = table
        self.higher_is_better = bool(higher_is_better)
        self.names = list(table.columns)
        self.aliases = display_names(self.names, aliases)
        self.dropped_cases = dropped
        self._source, self.nan_policy, self._alias_option = scores, nan_policy, aliases
        # the omnibus test does not depend on any control: once
        self._friedman: FriedmanResult = friedman(
            table, higher_is_better=self.higher_is_better
        )
        self._posthoc_cache: dict[tuple[Any, ...], PosthocResult] = {}
        # each paired test once; a new adjustment or α re-adjusts its p-values
        self._pairwise = PairwiseTests(table, higher_is_better=self.higher_is_better)
        self._drawn: PosthocResult | None = None

        wide = {"description_width": "initial"}
        self.controls = {
            "alpha": alpha_slider(),
            "omnibus": widgets.Dropdown(
                options=[
                    ("Friedman χ²", "friedman"),
                    ("Iman–Davenport F", "iman-davenport"),
                ],
                value="friedman",
                description="omnibus",
                style=wide,
            ),
            "method": widgets.Dropdown(
                options=[
                    (_METHOD_LABELS[m], m)
                    for m in (*POSTHOC_METHODS, *COMPARISON_TESTS)
                ],
                value="nemenyi",
                description="post-hoc",
                style=wide,
            ),
            "control": name_dropdown(
                self.names,
                self.aliases,
                description="control",
                none_label="None (all pairs)",
            ),
            "adjust": widgets.Dropdown(
                options=[(_ADJUST_LABELS[a], a) for a in ADJUSTMENTS],
                value="holm",
                description="adjustment",
                style=wide,
            ),
        }
        self.views = {
            "note": widgets.HTML(value=""),
            "verdict": widgets.HTML(value=""),
            # the picture keeps its size, the table sits next to it
            "cd": widgets.Output(layout=widgets.Layout(flex="0 0 auto")),
            "table": widgets.HTML(value=""),
        }
        c, v = self.controls, self.views
        wrap = widgets.Layout(flex_flow="row wrap")
        self._dropped_view = (
            widgets.HTML(value=dropped_html(dropped, len(table))) if dropped else None
        )
        self.widget = widgets.VBox(
            [
                widgets.HBox([c["alpha"], c["omnibus"], c["method"]], layout=wrap),
                widgets.HBox([c["control"], c["adjust"]], layout=wrap),
                v["note"],
                self._error_view,
                v["verdict"],
                widgets.HBox([v["cd"], v["table"]], layout=wrap),
            ]
        )
        self._add_notes()
        self._add_export_bar()
        self.update()
        self._connect()

    def report_settings(self) -> dict[str, Any]:
        """The report's α from the control (its post-hoc is Nemenyi + Holm)."""
        return {"alpha": float(self.controls["alpha"].value)}

    # -- controls → result ----------------------------------------------------

    def _settings(self) -> tuple[str, str | None, str | None, float]:
        """(method, control, adjust, alpha) as posthoc() gets them."""
        c = self.controls
        method = c["method"].value
        control = c["control"].value
        if control is None and c["control"].index is None:
            c["control"].index = 0  # show "None", not a blank, after value=None
        pairwise = method in COMPARISON_TESTS
        c["control"].disabled = pairwise
        c["adjust"].disabled = not pairwise
        notes = []
        if pairwise:
            ignored = (
                f" (ignored: {html.escape(control)})" if control is not None else ""
            )
            notes.append(
                f"{_METHOD_LABELS[method]} tests compare all pairs (the comparison "
                f"matrix): no control{ignored}. Against a control choose a rank "
                "method."
            )
            control = None
        why = against_control(method, control)[1]
        if why is not None:  # e.g. Nemenyi against a control: Bonferroni–Dunn
            notes.append(html.escape(why))
        if not pairwise:
            notes.append(
                f"{_METHOD_LABELS[method]} (on mean ranks) is itself the "
                "adjustment; the adjustment control applies to the pairwise tests "
                "(Wilcoxon, sign, t)."
            )
        self.views["note"].value = (
            '<div style="color:#555;font-size:12px">' + "<br>".join(notes) + "</div>"
            if notes
            else ""
        )
        adjust = c["adjust"].value if pairwise else None
        return method, control, adjust, float(c["alpha"].value)

    def compute(self, changed: str | None) -> dict[str, Any]:
        key = self._settings()
        method, control, adjust, alpha = key
        result = self._posthoc_cache.get(key)
        if result is None:
            # the p-values do not depend on α: computed once per setting
            first = (method, control, adjust, "p-values")
            if method in COMPARISON_TESTS:  # the tests once, then re-adjusted
                result = self._pairwise.result(method, adjust, alpha)
            elif first not in self._posthoc_cache:
                self._posthoc_cache[first] = posthoc(
                    self.scores,
                    method=method,
                    control=control,
                    alpha=alpha,
                    higher_is_better=self.higher_is_better,
                )
            if method not in COMPARISON_TESTS:
                result = posthoc_at_alpha(self._posthoc_cache[first], alpha)
            if len(self._posthoc_cache) >= _CACHE_SIZE:
                self._posthoc_cache.clear()
            self._posthoc_cache[key] = result
        return {"omnibus": self._friedman, "posthoc": result}

    # -- result → views -------------------------------------------------------

    def render(self, result: dict[str, Any]) -> None:
        posthoc = result["posthoc"]
        if posthoc is not self._drawn:  # the omnibus choice leaves it as it is
            self._draw(posthoc)
            self._drawn = posthoc
        self.views["verdict"].value = self._verdict(result["omnibus"])
        self.views["table"].value = _pvalue_table(posthoc, self.aliases)

    def _draw(self, posthoc: PosthocResult) -> None:
        show_svg(
            self.views["cd"],
            cd_svg(posthoc, self.aliases),
            f"critical-difference picture ({posthoc_name(posthoc.method)})",
        )

    def _verdict(self, res: FriedmanResult) -> str:
        alpha = float(self.controls["alpha"].value)
        if self.controls["omnibus"].value == "friedman":
            test = "Friedman test"
            figures = (
                f"χ²<sub>F</sub> = {number_html(res.statistic, 'statistic')} "
                f"(df = {res.df})"
            )
            pvalue = res.pvalue
        else:
            test = "Iman–Davenport test"
            df1, df2 = res.f_df
            figures = (
                f"F<sub>F</sub> = {number_html(res.f_statistic, 'statistic')} "
                f"(df = {df1}, {df2})"
            )
            pvalue = res.f_pvalue
        reject = pvalue <= alpha
        decision = (
            '<b style="color:#0072B2">reject</b>'
            if reject
            else '<b style="color:#D55E00">do not reject</b>'
        )
        text = (
            f"<b>{test}</b> ({res.n_algorithms} algorithms, {res.n_cases} cases): "
            f"{figures}, {p_text(pvalue)} → {decision} the null "
            f"hypothesis that all algorithms perform equally at α = {alpha:g}."
        )
        if not reject:
            text += (
                "<br><i>The omnibus test does not reject: the post-hoc tests "
                "below are not warranted (Demšar 2006, §3.2.2).</i>"
            )
        return f'<div style="font-size:13px">{text}</div>'


def posthoc_at_alpha(result: PosthocResult, alpha: float) -> PosthocResult:
    """:func:`nbstats.posthoc`'s result at another α, from its p-values.

    The adjusted p-values do not depend on α; the decisions (``adjusted <=
    alpha``), the critical difference and the groups do, and are derived as
    :func:`nbstats.posthoc` derives them (tested equal for every method).

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> at_10 = posthoc_at_alpha(nbstats.posthoc(table), 0.10)
    >>> at_10.groups == nbstats.posthoc(table, alpha=0.10).groups
    True
    """
    import dataclasses

    from nbstats.stats.frequentist.critical_difference import (
        critical_value,
        rank_standard_error,
    )
    from nbstats.stats.groups import nonsignificant_groups

    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}.")
    if alpha == result.alpha:
        return result
    names = list(result.mean_ranks.index)
    k, ranks = len(names), result.mean_ranks
    se = rank_standard_error(k, result.n_cases)
    critical_difference = None
    if result.method == "nemenyi":
        critical_difference = critical_value(k, alpha, "nemenyi") * se
    elif result.method == "bonferroni-dunn":
        comparisons = k - 1 if result.control is not None else k * (k - 1) // 2
        critical_difference = (
            critical_value(k, alpha, "bonferroni-dunn", n_comparisons=comparisons) * se
        )
    if result.control is not None:
        reject = (result.adjusted <= alpha).rename("reject")
        same = [result.control] + [b for b, r in reject.items() if not r]
        groups = [tuple(sorted(same, key=lambda a: (ranks[a], names.index(a))))]
    else:
        adjusted = result.adjusted.to_numpy()
        reject = pd.DataFrame(
            np.nan_to_num(adjusted, nan=np.inf) <= alpha,
            index=result.adjusted.index,
            columns=result.adjusted.columns,
        )
        groups = nonsignificant_groups(reject, ranks)
    return dataclasses.replace(
        result,
        alpha=alpha,
        reject=reject,
        critical_difference=critical_difference,
        groups=groups,
    )


def p_text(pvalue: float) -> str:
    """``p = 0.012`` or ``p &lt; 0.001`` (HTML; the number policy's p-values).

    Examples
    --------
    >>> p_text(0.01234), p_text(0.0001)
    ('p = 0.012', 'p &lt; 0.001')
    """
    text = format_number(pvalue, "pvalue")
    return html.escape(f"p {text}" if text.startswith("<") else f"p = {text}")


def _comparisons(res: PosthocResult) -> pd.DataFrame:
    """One row per comparison (as ``res.to_frame()``), from the matrices at once."""
    ranks = res.mean_ranks
    if isinstance(res.pvalues, pd.Series):
        others = list(res.pvalues.index)
        a = [res.control] * len(others)
        b = others
        pick = {
            key: np.asarray(getattr(res, key).loc[others], dtype=float)
            for key in ("statistics", "pvalues", "adjusted")
        }
        reject = np.asarray(res.reject.loc[others], dtype=bool)
    else:
        names = list(res.pvalues.columns)
        rows, cols = np.triu_indices(len(names), k=1)
        a = [names[i] for i in rows]
        b = [names[j] for j in cols]
        pick = {
            key: np.asarray(getattr(res, key).to_numpy(), dtype=float)[rows, cols]
            for key in ("statistics", "pvalues", "adjusted")
        }
        reject = np.asarray(res.reject.to_numpy(), dtype=bool)[rows, cols]
    return pd.DataFrame(
        {
            "a": a,
            "b": b,
            "mean_rank_a": ranks.loc[a].to_numpy(dtype=float),
            "mean_rank_b": ranks.loc[b].to_numpy(dtype=float),
            "statistic": pick["statistics"],
            "pvalue": pick["pvalues"],
            "adjusted": pick["adjusted"],
            "reject": reject,
        }
    )


def _pvalue_table(res: PosthocResult, shown: Mapping[str, str] | None = None) -> str:
    """Adjusted p-values, one row per comparison, smallest first; names escaped.

    At most :data:`TABLE_ROWS_MAX` rows (the rest are counted), in a box that
    scrolls.
    """
    shown = shown or {}
    frame = _comparisons(res).sort_values("adjusted", kind="stable")
    total, significant = len(frame), int(frame["reject"].sum())
    frame = frame.iloc[:TABLE_ROWS_MAX]
    how = _METHOD_LABELS.get(res.method, res.method)
    if res.adjust == "none":  # the post-hoc titles' word (adjustment_clause)
        how += ", unadjusted"
    elif res.adjust != res.method:
        how += f", {_ADJUST_LABELS.get(res.adjust, res.adjust)} adjustment"
    caption = "p-values" if res.adjust == "none" else "Adjusted p-values"
    against = (
        f" against {html.escape(shown.get(res.control, res.control))}"
        if res.control
        else ""
    )
    head = "".join(
        f'<th style="{_HEAD_STYLE}">{h}</th>'
        for h in ("comparison", "mean ranks", "statistic", "p", "adjusted p", "at α")
    )
    rows = []
    for row in frame.itertuples(index=False):
        style = f' style="{_SIGNIFICANT_ROW}"' if row.reject else ""
        cells = [
            f"{html.escape(shown.get(row.a, row.a))} vs "
            f"{html.escape(shown.get(row.b, row.b))}",
            f"{number_html(row.mean_rank_a, 'rank')} / "
            f"{number_html(row.mean_rank_b, 'rank')}",
            number_html(row.statistic, "statistic"),
            number_html(row.pvalue, "pvalue"),
            number_html(row.adjusted, "pvalue"),
            frequentist_decision(bool(row.reject)),
        ]
        rows.append(
            f"<tr{style}>"
            + "".join(f'<td style="{_CELL_STYLE}">{cell}</td>' for cell in cells)
            + "</tr>"
        )
    cd = (
        f"; CD = {number_html(res.critical_difference, 'statistic')}"
        if res.critical_difference is not None
        else ""
    )
    more = (
        f'<div style="font-size:11px;color:#555;margin-top:4px">The {len(frame)} '
        f"smallest of {total} comparisons ({significant} {SIGNIFICANT}); all are in "
        "<code>result['posthoc']</code>.</div>"
        if total > len(frame)
        else ""
    )
    return (
        '<div style="max-width:100%">'
        f'<div style="font-size:12px;margin-bottom:4px"><b>{caption}</b> '
        f"({html.escape(how)}){against}, α = {res.alpha:g}{cd}</div>"
        f'<div class="{SCROLL_CLASS}" style="max-height:28em;overflow:auto;'
        'max-width:100%">'
        f'<table style="{TABLE_STYLE}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>{more}</div>"
    )

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

import base64
import html
import io
from typing import Any

import pandas as pd

from nbstats.results.frequentist import FriedmanResult, PosthocResult
from nbstats.results.render import format_value
from nbstats.scores import check_flag, score_table
from nbstats.stats.frequentist.adjust import ADJUSTMENTS
from nbstats.stats.frequentist.friedman import friedman
from nbstats.stats.frequentist.posthoc import (
    PAIRWISE_METHODS,
    POSTHOC_METHODS,
    posthoc,
)
from nbstats.widgets.base import Dashboard, alpha_slider

__all__ = ["FrequentistDashboard", "show_figure"]

OMNIBUS_TESTS = ("friedman", "iman-davenport")

#: Post-hoc methods that compare all pairs and cannot take a control.
ALL_PAIRS_ONLY = ("nemenyi", "shaffer")

_METHOD_LABELS = {
    "nemenyi": "Nemenyi",
    "bonferroni-dunn": "Bonferroni–Dunn",
    "holm": "Holm",
    "hochberg": "Hochberg",
    "hommel": "Hommel",
    "shaffer": "Shaffer (static)",
    "wilcoxon": "Wilcoxon signed-rank (pairwise)",
    "sign": "sign test (pairwise)",
    "ttest": "paired t-test (pairwise)",
}
_ADJUST_LABELS = {
    "holm": "Holm",
    "hochberg": "Hochberg",
    "hommel": "Hommel",
    "bonferroni": "Bonferroni",
    "shaffer": "Shaffer (all pairs)",
    "none": "none",
}
#: Post-hoc results kept per (method, control, adjust, alpha).
_CACHE_SIZE = 128

_SIGNIFICANT_ROW = "background:#e8f0f8;font-weight:bold"
_TABLE_STYLE = (
    "border-collapse:collapse;font-size:12px;line-height:1.4;"
    "font-variant-numeric:tabular-nums;white-space:nowrap"
)
_CELL_STYLE = "padding:2px 8px;border-bottom:1px solid #ddd;text-align:right"
_HEAD_STYLE = "padding:2px 8px;border-bottom:1px solid #888;text-align:right"


def show_figure(output: Any, figure: Any, *, dpi: float = 160) -> None:
    """Show a matplotlib figure in an ``ipywidgets.Output`` as a PNG, and close it.

    The picture is set as the Output's only display output, so it works in a
    notebook, in Voilà and headless (no kernel needed), and the figure is
    closed right away (``plt.close``): a dashboard leaves no open figures.
    The Output's width is set to the picture's, so that a view placed next
    to it in an ``HBox`` gets the rest of the row.
    """
    import matplotlib.pyplot as plt

    from nbstats.plots import paper_style

    buffer = io.BytesIO()
    try:
        with paper_style():
            figure.savefig(buffer, format="png", dpi=dpi)
    finally:
        plt.close(figure)
    width, height = figure.get_size_inches()
    data = buffer.getvalue()
    pixels = int.from_bytes(data[16:20], "big")  # PNG header: IHDR width
    output.layout.width = f"{pixels + 16}px"
    output.outputs = (
        {
            "output_type": "display_data",
            "data": {
                "image/png": base64.b64encode(data).decode("ascii"),
                "text/plain": f"<Figure size {width:g}x{height:g} in>",
            },
            "metadata": {},
        },
    )


class FrequentistDashboard(Dashboard):
    """Friedman / Iman–Davenport, then a post-hoc test, live (Demšar 2006, §3.2).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms (validated by
        :func:`nbstats.score_table`; bad input raises here, not in a callback).
    higher_is_better : bool
        Whether higher scores are better.

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
        the CD diagram as a PNG), ``"table"`` (HTML: adjusted p-values).
    figure : matplotlib Figure
        The last CD diagram drawn (already closed; its artists can be read).
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
        self, scores: pd.DataFrame | Any, *, higher_is_better: bool = True
    ) -> None:
        import ipywidgets as widgets

        check_flag("higher_is_better", higher_is_better)
        table = score_table(scores)
        table.columns = pd.Index([str(c) for c in table.columns], name="algorithm")
        super().__init__()
        self.scores = table
        self.higher_is_better = bool(higher_is_better)
        self.names = list(table.columns)
        self.figure: Any = None
        # the omnibus test does not depend on any control: once
        self._friedman: FriedmanResult = friedman(
            table, higher_is_better=self.higher_is_better
        )
        self._posthoc_cache: dict[tuple[Any, ...], PosthocResult] = {}

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
                options=[(_METHOD_LABELS[m], m) for m in POSTHOC_METHODS],
                value="nemenyi",
                description="post-hoc",
                style=wide,
            ),
            "control": widgets.Dropdown(
                options=[("None (all pairs)", None)] + [(n, n) for n in self.names],
                index=0,
                description="control",
                style=wide,
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
        self.widget = widgets.VBox(
            [
                widgets.HBox([c["alpha"], c["omnibus"], c["method"]]),
                widgets.HBox([c["control"], c["adjust"]]),
                v["note"],
                self._error_view,
                v["verdict"],
                widgets.HBox([v["cd"], v["table"]]),
            ]
        )
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
        all_pairs = method in ALL_PAIRS_ONLY
        pairwise = method in PAIRWISE_METHODS
        c["control"].disabled = all_pairs
        c["adjust"].disabled = not pairwise
        notes = []
        if all_pairs:
            ignored = (
                f" (ignored: {html.escape(control)})" if control is not None else ""
            )
            notes.append(
                f"{_METHOD_LABELS[method]} compares all pairs: no control{ignored}. "
                "Against a control choose Bonferroni–Dunn, Holm, Hochberg, Hommel "
                "or a pairwise test."
            )
            control = None
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
            result = posthoc(
                self.scores,
                method=method,
                control=control,
                adjust=adjust,
                alpha=alpha,
                higher_is_better=self.higher_is_better,
            )
            if len(self._posthoc_cache) >= _CACHE_SIZE:
                self._posthoc_cache.clear()
            self._posthoc_cache[key] = result
        return {"omnibus": self._friedman, "posthoc": result}

    # -- result → views -------------------------------------------------------

    def render(self, result: dict[str, Any]) -> None:
        from nbstats import plots  # lazy: matplotlib only when drawing

        ax = plots.cd_diagram(result["posthoc"])
        self.figure = ax.figure
        show_figure(self.views["cd"], self.figure)
        self.views["verdict"].value = self._verdict(result["omnibus"])
        self.views["table"].value = _pvalue_table(result["posthoc"])

    def _verdict(self, res: FriedmanResult) -> str:
        alpha = float(self.controls["alpha"].value)
        if self.controls["omnibus"].value == "friedman":
            test = "Friedman test"
            figures = f"χ²_F = {format_value(res.statistic)} (df = {res.df})"
            pvalue = res.pvalue
        else:
            test = "Iman–Davenport test"
            df1, df2 = res.f_df
            figures = f"F_F = {format_value(res.f_statistic)} (df = {df1}, {df2})"
            pvalue = res.f_pvalue
        reject = pvalue <= alpha
        decision = (
            '<b style="color:#0072B2">reject</b>'
            if reject
            else '<b style="color:#D55E00">do not reject</b>'
        )
        text = (
            f"<b>{test}</b> ({res.n_algorithms} algorithms, {res.n_cases} cases): "
            f"{figures}, p = {format_value(pvalue)} → {decision} the null "
            f"hypothesis that all algorithms perform equally at α = {alpha:g}."
        )
        if not reject:
            text += (
                "<br><i>The omnibus test does not reject: the post-hoc tests "
                "below are not warranted (Demšar 2006, §3.2.2).</i>"
            )
        return f'<div style="font-size:13px">{text}</div>'


def _pvalue_table(res: PosthocResult) -> str:
    """Adjusted p-values, one row per comparison, smallest first; names escaped."""
    frame = res.to_frame().sort_values("adjusted", kind="stable")
    how = _METHOD_LABELS.get(res.method, res.method)
    if res.adjust != res.method:
        how += f", {_ADJUST_LABELS.get(res.adjust, res.adjust)} adjustment"
    against = f" against {html.escape(res.control)}" if res.control else ""
    head = "".join(
        f'<th style="{_HEAD_STYLE}">{h}</th>'
        for h in ("comparison", "mean ranks", "statistic", "p", "adjusted p", "")
    )
    rows = []
    for row in frame.itertuples(index=False):
        style = f' style="{_SIGNIFICANT_ROW}"' if row.reject else ""
        cells = [
            f"{html.escape(row.a)} vs {html.escape(row.b)}",
            f"{row.mean_rank_a:.3f} / {row.mean_rank_b:.3f}",
            format_value(row.statistic),
            format_value(row.pvalue),
            format_value(row.adjusted),
            "significant" if row.reject else "",
        ]
        rows.append(
            f"<tr{style}>"
            + "".join(f'<td style="{_CELL_STYLE}">{cell}</td>' for cell in cells)
            + "</tr>"
        )
    cd = (
        f"; CD = {res.critical_difference:.3f}"
        if res.critical_difference is not None
        else ""
    )
    return (
        '<div style="max-height:28em;overflow:auto">'
        f'<div style="font-size:12px;margin-bottom:4px"><b>Adjusted p-values</b> '
        f"({html.escape(how)}){against}, α = {res.alpha:g}{cd}</div>"
        f'<table style="{_TABLE_STYLE}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )

"""The Bayesian dashboard's views as HTML (and its posterior plot as SVG).

Every view fits its box at any number of algorithms: the decision matrix is
written in full (a label and the probabilities in each cell) up to
:data:`FULL_MATRIX_MAX` algorithms and as a compact heat map beyond (an SVG:
one coloured square per pair, details in its tooltip, in a scroll box); long
lists (joint statements) scroll too. Names are shown as given by the
dashboard (aliases where the real names are too long) and are always escaped.
"""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.bayes import BayesSignedRankResult, interval_text
from nbstats.results.number_policy import format_column, format_number
from nbstats.stats.bayes.priors import IDP_DEFAULT_S
from nbstats.widgets.base import SCROLL_CLASS, number_html
from nbstats.widgets.vocabulary import bayes_decision

__all__ = [
    "DECISIONS",
    "FULL_MATRIX_MAX",
    "PosteriorPlot",
    "friedman_html",
    "joint_html",
    "loss_label",
    "matrix_html",
    "round_up",
    "s_label",
]

#: decision → (label in the legend, background colour); the matrix's cells
#: name the better algorithm (:func:`nbstats.widgets.vocabulary.bayes_decision`)
DECISIONS = {
    "b": ("column better", "#b9e3bb"),
    "a": ("row better", "#c9dcf3"),
    "equivalent": ("equivalent", "#e5d0f2"),
    "undecided": ("undecided", "#eeeeee"),
    "indeterminate": ("indeterminate", "#ffe2a8"),
}
#: Up to this many algorithms each matrix cell shows its numbers.
FULL_MATRIX_MAX = 10
#: Joint statements listed at most (the rest are counted).
JOINT_ROWS_MAX = 200

_SCROLL = (
    f'class="{SCROLL_CLASS}" style="max-width:100%;overflow:auto;max-height:{{height}}"'
)


def round_up(x: float) -> float:
    """x rounded up to two significant digits.

    Examples
    --------
    >>> round_up(0.0432)
    0.044
    """
    unit = 10.0 ** (math.floor(math.log10(x)) - 1)
    return math.ceil(x / unit - 1e-9) * unit


def s_label(prior: str, s: float) -> str:
    """The text next to the s slider."""
    if prior == "bb":
        return "s → 0 (Bayesian bootstrap)"
    mark = " ◆ = IDP default (√17 − 3)/2" if math.isclose(s, IDP_DEFAULT_S) else ""
    return f"s = {s:.3g}{mark}"


def loss_label(ratio: float, threshold: float) -> str:
    """The text next to the loss-ratio slider; the threshold and α printed
    as the report prints them (the number policy,
    :func:`nbstats.results.number_policy.format_number`).

    Examples
    --------
    >>> loss_label(19, 0.95)  # doctest: +NORMALIZE_WHITESPACE
    'losses l0 : l1 = 1 : 19; an algorithm is decided better if P(better)
    &gt; l1/(l0+l1) = <b>0.95</b>; frequentist reading: one-sided α =
    l0/(l0+l1) = 0.05'
    """
    return (
        f"losses l0 : l1 = 1 : {ratio:.4g}; an algorithm is decided better if "
        f"P(better) &gt; l1/(l0+l1) = <b>{number_html(threshold, 'number')}</b>; "
        "frequentist reading: one-sided α = l0/(l0+l1) = "
        + number_html(1 - threshold, "number")
    )


def probability(value: float) -> str:
    """A probability as the report prints it (3 decimals, "&gt; 0.999",
    "&lt; 0.001"; :func:`nbstats.results.number_policy.format_number`).

    Examples
    --------
    >>> probability(0.99951), probability(0.5)
    ('&gt; 0.999', '0.500')
    """
    return number_html(float(value), "probability")


def probability_range(lower: float, upper: float) -> str:
    """One probability, or its bounds over the IDP's priors as "lower to
    upper" (as the report writes them).

    Examples
    --------
    >>> probability_range(0.904, 0.9996), probability_range(0.5, 0.5)
    ('0.904 to &gt; 0.999', '0.500')
    """
    if lower == upper:
        return probability(lower)
    return html.escape(interval_text(float(lower), float(upper)))


def _probabilities(row: Any, rope: bool, a: str, b: str) -> str:
    text = f"P({b} better) {probability_range(row.prob_lower, row.prob_upper)}"
    if rope:
        text += (
            f"<br>P(rope) {probability_range(row.prob_rope, row.prob_rope_upper)}"
            f"<br>P({a} better) "
            f"{probability_range(row.prob_left, row.prob_left_upper)}"
        )
    return text + f"<br>P(|θ−½|&lt;ε) {probability(row.prob_equivalent)}"


def _caption(settings: dict, threshold: float, n_samples: int) -> str:
    rope = settings["rope"] > 0
    prior = {"idp": "IDP", "bb": "Bayesian bootstrap", "point": "point prior"}[
        settings["prior"]
    ]
    level = number_html(threshold, "number")  # as the report prints it
    equivalent = f"; equivalent if P(rope) &gt; {level}" if rope else ""
    return (
        "Each row's algorithm against each column's: which is better? "
        f"(Bayesian signed-rank, {prior}"
        + (f", s = {settings['s']:.3g}" if settings["prior"] != "bb" else "")
        + (f", rope ±{settings['rope']:.3g}" if rope else "")
        + f"; decided better if P(better) &gt; {level}{equivalent}; "
        "indeterminate if the decision depends on the prior; "
        f"ε = {settings['epsilon']:.3g}; {n_samples:,} posterior draws)"
    )


def matrix_html(
    names: list[str],
    shown: list[str],
    pairs: pd.DataFrame,
    settings: dict,
    threshold: float,
    n_samples: int,
) -> str:
    """The decision matrix: row a vs column b, in full or as a heat map.

    ``names`` are the algorithms (in ``pairs``), ``shown`` their display
    names (aliases) in the same order.
    """
    esc = [html.escape(name) for name in shown]
    index = {name: k for k, name in enumerate(names)}
    full = len(names) <= FULL_MATRIX_MAX
    rope = settings["rope"] > 0
    cells = {} if full else _heat_cells(names, index, pairs)
    for row in pairs.itertuples(index=False) if full else ():
        i, j = index[row.a], index[row.b]
        colour = DECISIONS[row.decision][1]
        label = html.escape(bayes_decision(row.decision, shown[i], shown[j]))
        tip = html.escape(
            f"{row.a} vs {row.b}: {bayes_decision(row.decision, row.a, row.b)}",
            quote=True,
        )
        cells[i, j] = (
            f'<td title="{tip}" style="background:{colour};padding:3px 6px;'
            'border:1px solid #fff;font-size:11px;white-space:nowrap" '
            f'data-decision="{row.decision}"><b>{label}</b><br>'
            f"{_probabilities(row, rope, esc[i], esc[j])}</td>"
        )
    counts = pairs["decision"].value_counts() if len(pairs) else pd.Series()
    legend = " ".join(
        f'<span style="background:{colour};padding:1px 6px;white-space:nowrap">'
        f"{label} ({int(counts.get(key, 0))})</span>"
        for key, (label, colour) in DECISIONS.items()
    )
    caption = _caption(settings, threshold, n_samples)
    if full:
        empty = '<td style="background:#f4f4f4;border:1px solid #fff"></td>'
        header = "".join(
            f'<th style="padding:3px 6px;white-space:nowrap">{name}</th>'
            for name in esc[1:]
        )
        body = []
        for i in range(len(names) - 1):
            tds = "".join(cells.get((i, j), empty) for j in range(1, len(names)))
            body.append(
                '<tr><th style="text-align:right;padding:3px 6px;white-space:nowrap">'
                f"{esc[i]}</th>{tds}</tr>"
            )
        table = (
            '<table style="border-collapse:collapse">'
            f"<tr><th></th>{header}</tr>{''.join(body)}</table>"
        )
        height = "none"
    else:
        table = _heat_map(list(shown), cells)
        height = "32em"
    return (
        '<div class="nbstats-bayes-matrix" style="max-width:100%">'
        f'<div style="font-size:12px;margin:4px 0">{caption}</div>'
        f"<div {_SCROLL.format(height=height)}>{table}</div>"
        f'<div style="font-size:11px;margin-top:4px;line-height:1.8">{legend}</div>'
        "</div>"
    )


def _heat_cells(
    names: list[str], index: dict[str, int], pairs: pd.DataFrame
) -> dict[tuple[int, int], tuple[str, str, str]]:
    """The heat map's cells ``{(row, column): (colour, tooltip, gid)}``, from
    the columns at once: a 100-algorithm matrix has 4950 of them on every
    change."""
    lower = pairs["prob_lower"].to_numpy(dtype=float)
    upper = pairs["prob_upper"].to_numpy(dtype=float)
    # the tooltips are escaped by the SVG writer
    texts = [
        html.unescape(t) for t in probability_texts(np.concatenate([lower, upper]))
    ]
    cells = {}
    for k, (a, b, decision) in enumerate(
        zip(pairs["a"].tolist(), pairs["b"].tolist(), pairs["decision"].tolist(),
            strict=True)
    ):  # fmt: skip
        low, high = texts[k], texts[k + len(lower)]
        shown = low if lower[k] == upper[k] else f"{low} to {high}"
        said = bayes_decision(decision, a, b)
        cells[index[a], index[b]] = (
            DECISIONS[decision][1],
            f"{a} vs {b}: {said}; P({b} better) {shown}",
            f"decision-{decision}",
        )
    return cells


def probability_texts(values: np.ndarray) -> list[str]:
    """Many probabilities as :func:`probability` writes each, at once (each
    distinct value formatted once: a Monte Carlo probability takes few).

    Examples
    --------
    >>> probability_texts(np.array([0.5, 0.9999, 0.5]))
    ['0.500', '&gt; 0.999', '0.500']
    """
    distinct, inverse = np.unique(values, return_inverse=True)
    cells = format_column(distinct.tolist(), "probability").cells
    escaped = [html.escape(cell) for cell in cells]
    return [escaped[i] for i in inverse.tolist()]


def _heat_map(shown: list[str], cells: dict[tuple[int, int], tuple]) -> str:
    """One small coloured square per pair (row a, column b after it), the
    names beside and above: an SVG drawn by
    :func:`~nbstats.plots.picture_svg.picture_svg` from
    :func:`~nbstats.plots.matrix_layout.matrix_picture`'s geometry."""
    from nbstats.plots.matrix_layout import matrix_picture
    from nbstats.plots.picture_svg import picture_svg
    from nbstats.plots.style import paper_style

    grid = {(i, j - 1): cell for (i, j), cell in cells.items()}  # no first column
    with paper_style():
        picture = matrix_picture(
            shown[:-1],
            shown[1:],
            grid,
            alt="Decision matrix: each row's algorithm against each later one",
        )
    return picture_svg(picture)


def joint_html(joint: pd.DataFrame, settings: dict, shown: dict[str, str]) -> str:
    """The accepted joint statements (display names from ``shown``)."""
    level = settings["decision_threshold"]
    accepted = joint[joint["accepted"]]
    rope = settings.get("rope", 0.0)
    rope_text = f", rope ±{rope:g}; ≈: practically equivalent" if rope > 0 else ""
    head = (
        f"<b>Joint statements</b> (signed-rank test, s = {settings['s']:.3g}"
        f"{rope_text}): "
        f"{len(accepted)} of {len(joint)} hold together with probability "
        f"&gt; {level:.3g}"
    )
    if accepted.empty:
        return f'<div style="font-size:12px">{head}.</div>'
    pad = "padding:1px 8px"
    listed = accepted.iloc[:JOINT_ROWS_MAX]
    rows = "".join(
        f'<tr><td style="{pad};white-space:nowrap">'
        f"{html.escape(shown.get(r.better, r.better))} "
        f"{'≈' if getattr(r, 'relation', 'better') == 'equivalent' else '&gt;'} "
        f"{html.escape(shown.get(r.worse, r.worse))}</td>"
        f'<td style="{pad};text-align:right">{probability(r.prob)}</td>'
        f'<td style="{pad};text-align:right">{probability(r.joint)}</td></tr>'
        for r in listed.itertuples(index=False)
    )
    more = (
        f'<div style="color:#555">… and {len(accepted) - len(listed)} more '
        "(in <code>result['joint']</code>)</div>"
        if len(accepted) > len(listed)
        else ""
    )
    return (
        f'<div style="font-size:12px">{head}'
        f"<div {_SCROLL.format(height='18em')}>"
        '<table style="border-collapse:collapse;margin-top:4px;font-size:12px;'
        'line-height:1.4">'
        f'<tr><th style="{pad}">statement</th><th style="{pad}">P</th>'
        f'<th style="{pad}">joint P (it and all above)</th></tr>'
        f"{rows}</table>{more}</div></div>"
    )


def pending_html(title: str, previous: str, settings: dict) -> str:
    """A view while its new content is computed in the background: which
    view (``title``), for which settings, and the last content greyed out
    beneath (not presented as current)."""
    rope = settings.get("rope", 0.0)
    rope_text = f", rope ±{rope:g}" if rope > 0 else ""
    note = (
        '<div role="status" style="font-size:12px;font-style:italic">'
        f"<b>{html.escape(title)}</b>: updating for s = {settings['s']:.3g}"
        f"{rope_text}, threshold {settings['decision_threshold']:.3g}…</div>"
    )
    if not previous:
        return note
    return (
        f'{note}<div aria-hidden="true" title="the previous settings\' values" '
        f'style="opacity:0.4;pointer-events:none">{previous}</div>'
    )


def failed_html(title: str, error: Exception) -> str:
    """A view whose background computation failed: the error, said."""
    detail = html.escape(f"{type(error).__name__}: {error}")
    return (
        '<div style="font-size:12px;color:#b00020;white-space:pre-wrap">'
        f"<b>{html.escape(title)} could not be computed:</b> {detail}</div>"
    )


def friedman_html(res: Any, shown: dict[str, str]) -> str:
    """The Bayesian Friedman verdict and the posterior mean ranks, best first
    (``res`` None: too few cases for the test, said so)."""
    if res is None:
        return (
            '<div style="font-size:12px;line-height:1.5;overflow-wrap:anywhere">'
            "<b>Bayesian Friedman</b>: needs at least as many cases as algorithms "
            "(n ≥ m; n ≥ 2m with s = 0).</div>"
        )
    ranks = res.mean_ranks.sort_values(kind="stable")
    listed = ", ".join(
        f"{html.escape(shown.get(str(name), str(name)))}&nbsp;"
        f"{format_number(float(rank), 'rank')}"
        for name, rank in ranks.items()
    )
    method = "ellipsoid" if res.method == "ellipsoid" else "Monte Carlo"
    return (
        f'<div style="font-size:12px;line-height:1.5;overflow-wrap:anywhere">'
        "<b>Bayesian Friedman</b>"
        f" ({method}, s = {res.s:.3g}): {html.escape(res.decision)}. "
        f"Distance² of equal ranks {format_number(res.statistic, 'statistic')}, "
        f"region up to {format_number(res.rho, 'statistic')}. "
        f'Posterior mean ranks (1 = best): <div class="{SCROLL_CLASS}" '
        f'style="max-height:7.5em;overflow:auto;max-width:100%">{listed}.</div>'
        "</div>"
    )


class PosteriorPlot:
    """:func:`nbstats.plots.signrank_posterior`'s picture for one result after another.

    The picture (curves, limits, texts) is computed as for matplotlib, reusing
    the density of unchanged draws (a new threshold only changes the texts),
    laid out once (:func:`nbstats.plots.posterior.signrank_layout`, the
    paper figure's geometry) and written as SVG by
    :mod:`nbstats.widgets.posterior_svg`, without matplotlib's drawing. The
    SVG depends only on the result (``fresh=True`` ignores the cached
    density; tested to give the same SVG).
    """

    def __init__(self) -> None:
        self._picture: Any = None

    def svg(
        self,
        result: BayesSignedRankResult,
        *,
        fresh: bool = False,
        labels: tuple[str, str] | None = None,
    ) -> str:
        """The SVG of ``result``; ``labels`` (a, b) replace its names in texts."""
        from nbstats.plots.posterior import signrank_picture
        from nbstats.widgets.posterior_svg import signrank_svg

        old = None if fresh else self._picture
        self._picture = None  # a failed redraw starts afresh next time
        shown = result
        if labels is not None and labels != (result.name_a, result.name_b):
            import dataclasses

            shown = dataclasses.replace(result, name_a=labels[0], name_b=labels[1])
        picture = signrank_picture(shown, None, True, previous=old)
        svg = signrank_svg(
            picture, alt=f"posterior of θ: {result.name_a} vs {result.name_b}"
        )
        self._picture = picture
        return svg

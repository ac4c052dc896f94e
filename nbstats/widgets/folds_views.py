"""The fold dashboard's HTML views: the shown test, the per-data-set summary,
and the hierarchical test's button states and result.

Every name and data set is escaped; long lists sit in scroll boxes (class
:data:`nbstats.widgets.base.SCROLL_CLASS`), long words wrap.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import pandas as pd

from nbstats.results.number_policy import format_number
from nbstats.widgets.base import SCROLL_CLASS, number_html
from nbstats.widgets.folds_svg import format_probability
from nbstats.widgets.vocabulary import bayes_decision

__all__ = [
    "DECISION_ORDER",
    "decision_words",
    "design_label",
    "hierarchical_html",
    "selected_html",
    "spinner_html",
    "summary_html",
]

#: The decisions of the correlated t-test, in the order the summary lists them.
DECISION_ORDER = ("b", "equivalent", "a", "undecided")
_COLOURS = {"b": "#0072B2", "a": "#D55E00", "equivalent": "#555", "undecided": "#777"}
_WRAP = "overflow-wrap:anywhere"
_SPIN = (
    "<style>@keyframes nbstats-spin{to{transform:rotate(360deg)}}</style>"
    '<span style="display:inline-block;width:10px;height:10px;margin-right:6px;'
    "border:2px solid #0072B2;border-top-color:transparent;border-radius:50%;"
    'animation:nbstats-spin 0.9s linear infinite;vertical-align:-1px"></span>'
)


def decision_words(decision: str, a: str, b: str) -> str:
    """The decision in words, with the algorithms' (display) names
    (:func:`nbstats.widgets.vocabulary.bayes_decision`).

    Examples
    --------
    >>> decision_words("b", "nbc", "aode")
    'aode better'
    """
    return bayes_decision(decision, a, b)


def design_label(runs: int | None, test_fraction: float, ns: list[int]) -> str:
    """ρ and how the folds were made, for the text next to the design control."""
    if runs is None:
        return (
            f"repeated hold-out: ρ = n_test/n_total = <b>{test_fraction:g}</b>, "
            f"ρ/(1 − ρ) = {test_fraction / (1 - test_fraction):.3g}"
        )
    if len(ns) == 1:
        k = ns[0] // runs
        return (
            f"{runs} run{'s' if runs != 1 else ''} of {k}-fold cross-validation: "
            f"ρ = 1/{k} = <b>{1 / k:.3g}</b>"
        )
    ks = sorted({n // runs for n in ns})
    return f"{runs} runs; k = {', '.join(map(str, ks))} by data set: ρ = 1/k"


def _probability_row(label: str, value: float | None, strong: bool) -> str:
    text = format_probability(value)
    if strong:
        text = f"<b>{text}</b>"
    return (
        f'<tr><td style="padding:1px 8px 1px 0;{_WRAP}">{html.escape(label)}</td>'
        f'<td style="text-align:right">{text}</td></tr>'
    )


def selected_html(result: Any, shown: tuple[str, str], case: str) -> str:
    """The shown data set's three probabilities, the decision and the posterior."""
    a, b = shown
    decision = result.decision
    rows = [
        _probability_row(f"P({a} better)", result.prob_left, decision == "a"),
        _probability_row(
            f"P(rope ±{result.rope:g})" if result.rope > 0 else "P(rope)",
            result.prob_rope,
            decision == "equivalent",
        ),
        _probability_row(f"P({b} better)", result.prob_right, decision == "b"),
    ]
    colour = _COLOURS.get(decision, "#000")
    design = (
        f"{result.runs} × {result.folds}-fold CV"
        if result.folds is not None and result.runs
        else (f"{result.folds}-fold CV" if result.folds else "hold-out")
    )
    return (
        f'<div style="font-size:13px;{_WRAP}">'
        f"<div><b>{html.escape(case)}</b>: Bayesian correlated t-test</div>"
        f'<table style="border-collapse:collapse;margin:4px 0">{"".join(rows)}'
        "</table>"
        f"<div>decision (threshold {number_html(result.threshold, 'number')}): "
        f'<b style="color:{colour}">'
        f"{html.escape(decision_words(decision, a, b))}</b></div>"
        f'<div style="color:#555;font-size:12px">posterior of μ = {html.escape(b)} − '
        f"{html.escape(a)}: Student t({result.df}), mean {result.mean:.4g}, scale "
        f"{result.scale:.4g}; {result.n_folds} folds, {design}, ρ = {result.rho:.3g}"
        "</div></div>"
    )


def left_out_html(
    left_out: pd.DataFrame | None, min_folds: int | None, used: pd.Series
) -> str:
    """With ``min_folds``: the folds the pair used per data set and the data
    sets left out of it ("" without ``min_folds``).

    Examples
    --------
    >>> out = pd.DataFrame({"case": ["kc1"], "folds": [3], "of": [10]})
    >>> print(left_out_html(out, 8, pd.Series([10, 9])))
    ... # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
    <div ...>Failed folds: each data set on the 9–10 folds where both have a
    score (min_folds=8). Left out (fewer): kc1 (3 of 10).</div>
    """
    if min_folds is None:
        return ""
    low, high = (int(used.min()), int(used.max())) if len(used) else (0, 0)
    span = str(low) if low == high else f"{low}–{high}"
    text = (
        f"Failed folds: each data set on the {span} folds where both have a "
        f"score (min_folds={min_folds})."
    )
    if left_out is not None and len(left_out):
        cases = ", ".join(
            f"{row.case} ({row.folds} of {row.of})"
            for row in left_out.itertuples(index=False)
        )
        text += f" Left out (fewer): {cases}."
    return (
        '<div style="font-size:12px;margin-top:4px;overflow-wrap:anywhere">'
        f"{html.escape(text)}</div>"
    )


def summary_html(
    table: pd.DataFrame,
    shown: tuple[str, str],
    threshold: float,
    rope: float,
    selected: str | None,
) -> str:
    """How many data sets each decision got, with their names; the full
    per-data-set table under a disclosure triangle."""
    a, b = shown
    columns = {name: table[name].tolist() for name in table.columns}
    cases, decisions = columns["case"], columns["decision"]
    rows = []
    for decision in DECISION_ORDER:
        if decision == "equivalent" and rope <= 0:
            continue
        names = [str(c) for c, d in zip(cases, decisions, strict=True) if d == decision]
        listed = ", ".join(
            f"<b>{html.escape(n)}</b>" if n == selected else html.escape(n)
            for n in names
        )
        rows.append(
            f'<tr style="vertical-align:top"><td style="padding:2px 8px 2px 0;'
            f'{_WRAP};color:{_COLOURS[decision]}"><b>'
            f"{html.escape(decision_words(decision, a, b))}</b></td>"
            f'<td style="text-align:right;padding:2px 8px 2px 0">{len(names)}</td>'
            f'<td style="padding:2px 0"><div class="{SCROLL_CLASS}" '
            f'style="max-height:6em;overflow:auto;{_WRAP};font-size:12px">'
            f"{listed or '—'}</div></td></tr>"
        )
    head = (
        '<tr style="border-bottom:1px solid #ccc"><th style="text-align:left">'
        'decision</th><th style="padding-right:8px">count</th>'
        '<th style="text-align:left">data sets</th></tr>'
    )
    detail = _detail_table(columns, shown, rope, selected)
    rope_text = f", rope ±{rope:g}" if rope > 0 else ", no rope"
    return (
        f'<div style="font-size:13px;max-width:100%">'
        f"<div><b>Per data set</b> ({len(cases)} data sets, threshold "
        f"{number_html(threshold, 'number')}{rope_text}):</div>"
        f'<table style="border-collapse:collapse;width:100%;'
        f'table-layout:fixed"><colgroup><col style="width:11em">'
        f'<col style="width:4em"><col></colgroup>{head}'
        f"{''.join(rows)}</table>{detail}</div>"
    )


def _detail_table(
    columns: Mapping[str, list], shown: tuple[str, str], rope: float,
    selected: str | None,
) -> str:  # fmt: skip
    a, b = shown
    right = '<td style="text-align:right">'
    cells = []
    for k, case in enumerate(columns["case"]):
        style = ' style="background:#eef4fa"' if case == selected else ""
        middle = (
            f"{right}{format_probability(columns['prob_rope'][k])}</td>"
            if rope > 0
            else ""
        )
        mean = html.escape(format_number(columns["mean_difference"][k], "score"))
        cells.append(
            f'<tr{style}><td style="{_WRAP}">{html.escape(str(case))}</td>'
            f"{right}{mean}</td>"
            f"{right}{format_probability(columns['prob_left'][k])}</td>{middle}"
            f"{right}{format_probability(columns['prob_right'][k])}</td>"
            f"<td>{html.escape(decision_words(columns['decision'][k], a, b))}</td>"
            "</tr>"
        )
    rope_head = "<th>P(rope)</th>" if rope > 0 else ""
    return (
        '<details style="margin-top:4px"><summary>every data set</summary>'
        f'<div class="{SCROLL_CLASS}" style="max-width:100%;max-height:20em;'
        'overflow:auto"><table style="border-collapse:separate;'
        'border-spacing:10px 0;font-size:12px">'
        f"<tr><th>data set</th><th>mean {html.escape(b)} − {html.escape(a)}</th>"
        f"<th>P({html.escape(a)} better)</th>{rope_head}"
        f"<th>P({html.escape(b)} better)</th><th>decision</th></tr>"
        f"{''.join(cells)}</table></div></details>"
    )


def spinner_html(text: str) -> str:
    """A spinning circle and a line of text (the hierarchical test running)."""
    return f'<span style="font-size:13px">{_SPIN}{html.escape(text)}</span>'


def hierarchical_html(
    result: Any, shown: tuple[str, str], stale: Mapping[str, Any] | None
) -> str:
    """The hierarchical test's probabilities, decision and diagnostics; a note
    when the controls moved since it ran (``stale``: the settings it used)."""
    a, b = shown
    note = ""
    if stale:
        used = ", ".join(f"{k} = {html.escape(str(v))}" for k, v in stale.items())
        note = (
            '<div style="color:#8a5a00;font-size:12px">computed for '
            f"{used}; the controls have changed since — run it again.</div>"
        )
    rope = result.prob_rope is not None
    rows = [
        _probability_row(f"P({a} better)", result.prob_left, result.decision == "a"),
        _probability_row(
            "P(rope)",
            result.prob_rope if rope else None,
            result.decision == "equivalent",
        ),
        _probability_row(f"P({b} better)", result.prob_right, result.decision == "b"),
    ]
    colour = _COLOURS.get(result.decision, "#000")
    warn = ""
    if result.divergences or result.rhat > 1.01:
        warn = (
            '<div style="color:#b00020;font-size:12px">the sampler reports '
            f"{result.divergences} divergence(s), R̂ {result.rhat:.3f}: more warmup "
            "may be needed.</div>"
        )
    return (
        f'<div style="font-size:13px;{_WRAP}">{note}'
        "<div><b>Hierarchical test</b> (Corani et al. 2017), the next data set:"
        "</div>"
        f'<table style="border-collapse:collapse;margin:4px 0">{"".join(rows)}'
        "</table>"
        f"<div>decision (threshold {number_html(result.threshold, 'number')}): "
        f'<b style="color:{colour}">'
        f"{html.escape(decision_words(result.decision, a, b))}</b></div>"
        f'<div style="color:#555;font-size:12px">δ0 {result.delta0:.4g}, σ0 '
        f"{result.std0:.4g}, ν {result.nu:.3g}; {result.chains} chains × "
        f"{result.n_samples} draws, R̂ {result.rhat:.4f}, min ESS "
        f"{result.ess:.0f}, {result.divergences} divergences</div>{warn}</div>"
    )

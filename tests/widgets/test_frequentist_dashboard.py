"""Frequentist dashboard, headless: set each control's value, check result and views.

Oracles: Demšar (2006) Table 6 — χ²_F = 9.28, F_F = 3.69, Nemenyi CD 1.25 at
α = .05 (one group) and 1.12 at α = .10 (two groups), Bonferroni–Dunn CD 1.16
(truncated),
Holm against C4.5 rejects C4.5+m and C4.5+m+cf — and nbstats.posthoc itself.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import ipywidgets
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.widgets.frequentist import FrequentistDashboard


@pytest.fixture(autouse=True)
def _no_figures_left():
    plt.close("all")
    yield
    # the dashboard draws SVG at every size: no matplotlib figure is left open
    assert plt.get_fignums() == []


@pytest.fixture
def board(table6):
    return FrequentistDashboard(table6)


def svg(board):
    """The SVG shown in the CD view (exactly one picture, well-formed)."""
    outputs = board.views["cd"].outputs
    assert len(outputs) == 1
    text = outputs[0]["data"]["image/svg+xml"]
    ET.fromstring(text)
    return text


def roles(board, prefix):
    """The data-role of every drawn element whose role starts with prefix."""
    return sorted(
        role
        for element in ET.fromstring(svg(board)).iter()
        if (role := element.get("data-role") or "").startswith(prefix)
    )


def cd_text(board):
    return [
        element.text
        for element in ET.fromstring(svg(board)).iter()
        if element.get("data-role") == "cd"
    ]


def descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from descendants(child)


# -- start ---------------------------------------------------------------------


def test_starts_with_friedman_and_nemenyi(board, table6):
    assert board.error is None
    assert set(board.controls) == {"alpha", "omnibus", "method", "control", "adjust"}
    assert set(board.result) == {"omnibus", "posthoc"}
    assert board.result["omnibus"] == nbstats.friedman(table6)
    assert board.result["posthoc"] == nbstats.posthoc(table6, method="nemenyi")
    verdict = board.views["verdict"].value
    assert "Friedman test" in verdict
    assert "χ²<sub>F</sub> = 9.28" in verdict
    assert "p = 0.026" in verdict
    assert "reject</b>" in verdict
    assert "do not reject" not in verdict
    assert cd_text(board) == ["CD = 1.25"]
    svg(board)
    # every control and view is part of the displayed widget
    tree = list(descendants(board.widget))
    for widget in [*board.controls.values(), *board.views.values()]:
        assert any(widget is w for w in tree)


def test_widget_displays(board):
    assert isinstance(board.widget, ipywidgets.Widget)
    assert callable(board._ipython_display_)
    bundle = board.widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


# -- alpha -----------------------------------------------------------------------


def test_alpha_splits_the_nemenyi_group(board):
    assert len(board.result["posthoc"].groups) == 1
    assert roles(board, "group-") == ["group-0"]
    before_svg, before_table = svg(board), board.views["table"].value
    assert "α = 0.05" in before_table

    board.controls["alpha"].value = 0.10

    assert board.error is None
    assert board.result["posthoc"].alpha == 0.10
    assert board.result["posthoc"].groups == [
        ("C4.5+m+cf", "C4.5+m", "C4.5+cf"),
        ("C4.5+cf", "C4.5"),
    ]
    assert roles(board, "group-") == ["group-0", "group-1"]
    assert cd_text(board) == ["CD = 1.12"]
    assert svg(board) != before_svg
    assert "α = 0.1" in board.views["table"].value
    assert "at α = 0.1." in board.views["verdict"].value


def test_alpha_below_the_omnibus_pvalue_warns(board):
    board.controls["alpha"].value = 0.01
    verdict = board.views["verdict"].value
    assert "do not reject" in verdict
    assert "not warranted" in verdict


# -- omnibus -----------------------------------------------------------------------


def test_omnibus_choice_changes_the_verdict_not_the_posthoc(board):
    # Friedman's p = 0.0258 and Iman–Davenport's 0.0198 lie either side of 0.02
    board.controls["alpha"].value = 0.02
    posthoc = board.result["posthoc"]
    assert "do not reject" in board.views["verdict"].value

    board.controls["omnibus"].value = "iman-davenport"

    verdict = board.views["verdict"].value
    assert board.error is None
    assert "Iman–Davenport test" in verdict
    assert "F<sub>F</sub> = 3.69" in verdict
    assert "df = 3, 39" in verdict
    assert "do not reject" not in verdict
    assert board.result["posthoc"] is posthoc  # nothing recomputed
    assert round(board.result["omnibus"].f_statistic, 2) == 3.69


# -- method and control ------------------------------------------------------------


def test_bonferroni_dunn_against_a_control_draws_the_band(board, table6):
    assert roles(board, "control-band") == []
    board.controls["method"].value = "bonferroni-dunn"
    assert board.result["posthoc"].control is None
    assert roles(board, "control-band") == []

    board.controls["control"].value = "C4.5"

    res = board.result["posthoc"]
    assert board.error is None
    assert res.method == "bonferroni-dunn"
    assert res.control == "C4.5"
    # 2.394 * 0.48795 = 1.1682: Demšar prints it truncated, as 1.16
    assert np.floor(res.critical_difference * 100) / 100 == 1.16
    assert roles(board, "control-band") == ["control-band"]
    assert roles(board, "group-") == []  # no groups against a control
    assert res == nbstats.posthoc(table6, method="bonferroni-dunn", control="C4.5")
    table = board.views["table"].value
    assert "against C4.5," in table
    assert table.count("<tr") == 1 + 3  # header + k - 1 comparisons


def test_holm_against_a_control_marks_rejections(board):
    board.controls["method"].value = "holm"
    board.controls["control"].value = "C4.5"
    res = board.result["posthoc"]
    assert res.reject.tolist() == [True, False, True]
    names = list(res.mean_ranks.index)
    expected = sorted(f"significant-{names.index(n)}" for n in ("C4.5+m", "C4.5+m+cf"))
    assert roles(board, "significant-") == expected
    table = board.views["table"].value
    assert table.count(">significantly different<") == 2
    assert table.count(">not significantly different<") == 1


def test_all_pairs_procedures_against_a_control_say_what_was_applied(board):
    control = board.controls["control"]
    assert not control.disabled  # Nemenyi at the start: every method takes one
    control.value = "C4.5"
    res = board.result["posthoc"]
    assert res.control == "C4.5" and res.method == "bonferroni-dunn"
    assert "Bonferroni–Dunn" in board.views["note"].value

    board.controls["method"].value = "shaffer"
    assert board.result["posthoc"].method == "holm"
    assert "Shaffer" in board.views["note"].value
    assert "Holm" in board.views["table"].value

    board.controls["method"].value = "wilcoxon"  # the control stays chosen ...
    assert control.value == "C4.5"
    assert control.disabled
    assert board.error is None  # ... but is ignored, visibly
    assert board.result["posthoc"].control is None
    assert "ignored: C4.5" in board.views["note"].value

    board.controls["method"].value = "hochberg"  # used again
    assert not control.disabled
    assert board.result["posthoc"].control == "C4.5"
    assert "ignored" not in board.views["note"].value


def test_control_none_shows_the_none_option(board):
    board.controls["method"].value = "holm"
    board.controls["control"].value = "C4.5"
    board.controls["control"].value = None
    assert board.controls["control"].index == 0
    assert board.controls["control"].label == "None (all pairs)"
    assert board.result["posthoc"].control is None


# -- adjust ------------------------------------------------------------------------


def test_adjust_applies_to_pairwise_tests_only(board, table6):
    adjust = board.controls["adjust"]
    assert adjust.disabled
    adjust.value = "none"  # ignored by a rank method
    assert board.error is None
    assert board.result["posthoc"].adjust == "nemenyi"

    board.controls["method"].value = "wilcoxon"
    assert not adjust.disabled
    res = board.result["posthoc"]
    assert res.adjust == "none"
    assert np.allclose(res.adjusted.fillna(0), res.pvalues.fillna(0))
    assert "Wilcoxon signed-rank" in board.views["table"].value
    # the post-hoc titles' word, not "none adjustment" under "Adjusted p-values"
    assert "(pairwise), unadjusted)" in board.views["table"].value
    assert "Adjusted p-values" not in board.views["table"].value
    assert "none adjustment" not in board.views["table"].value

    adjust.value = "holm"
    res = board.result["posthoc"]
    assert res == nbstats.comparison_matrix(table6, adjust="holm")
    assert "Holm adjustment" in board.views["table"].value
    assert "<b>Adjusted p-values</b>" in board.views["table"].value
    assert (res.adjusted.fillna(0) >= res.pvalues.fillna(0)).all().all()


# -- errors --------------------------------------------------------------------------


def test_an_error_shows_and_keeps_the_result(board, monkeypatch):
    # a new adjustment of the pairwise tests re-adjusts their kept p-values
    from nbstats.stats import comparison as module

    computed = module.adjust_pvalues

    def refusing(pvalues, method="holm", **kwargs):
        if method == "shaffer":
            raise ValueError("Shaffer's procedure refused here")
        return computed(pvalues, method, **kwargs)

    monkeypatch.setattr(module, "adjust_pvalues", refusing)
    board.controls["method"].value = "wilcoxon"
    kept = board.result
    kept_views = {
        name: view.value for name, view in board.views.items() if name != "cd"
    }
    kept_svg = svg(board)

    board.controls["adjust"].value = "shaffer"

    assert board.error is not None
    assert board.error.startswith("ValueError: Shaffer")
    assert "Could not update" in board._error_view.value
    assert "Shaffer&#x27;s procedure" in board._error_view.value  # escaped
    assert board.result is kept
    assert board.result["posthoc"].adjust == "holm"
    assert svg(board) == kept_svg
    for name in ("verdict", "table"):
        assert board.views[name].value == kept_views[name]

    board.controls["adjust"].value = "hommel"  # a setting that works clears it

    assert board.error is None
    assert board._error_view.value == ""
    assert board.result["posthoc"].adjust == "hommel"


# -- input ---------------------------------------------------------------------------


def test_names_are_escaped():
    rng = np.random.default_rng(1)
    names = ["<b>A</b>", "B & C", "D"]
    table = pd.DataFrame(rng.normal(size=(12, 3)) + [0, 1, 2], columns=names)
    board = FrequentistDashboard(table)
    board.controls["method"].value = "holm"
    board.controls["control"].value = "<b>A</b>"
    assert board.error is None
    html = board.views["table"].value
    assert "&lt;b&gt;A&lt;/b&gt;" in html
    assert "B &amp; C" in html
    assert "<b>A</b>" not in html
    board.controls["method"].value = "sign"
    assert "ignored: &lt;b&gt;A&lt;/b&gt;" in board.views["note"].value


def test_lower_is_better(table6):
    board = FrequentistDashboard(-table6, higher_is_better=False)
    reference = FrequentistDashboard(table6)
    assert board.result["posthoc"] == reference.result["posthoc"]
    assert board.result["omnibus"] == reference.result["omnibus"]


def test_bad_input_fails_at_once(table6):
    broken = table6.copy()
    broken.iloc[2, 1] = np.nan
    with pytest.raises(ValueError, match="missing"):
        FrequentistDashboard(broken)
    with pytest.raises(TypeError, match="higher_is_better"):
        FrequentistDashboard(table6, higher_is_better="no")


def test_settings_seen_before_come_from_the_cache(board):
    first = board.result["posthoc"]
    board.controls["alpha"].value = 0.10
    board.controls["alpha"].value = 0.05
    assert board.result["posthoc"] is first


@pytest.mark.parametrize(
    ("method", "control"),
    [
        ("nemenyi", None),
        ("nemenyi", "alg4"),
        ("shaffer", None),
        ("shaffer", "alg3"),
        ("bonferroni-dunn", None),
        ("bonferroni-dunn", "alg0"),
        ("holm", "alg2"),
        ("hommel", "alg1"),
    ],
)
def test_a_new_alpha_from_the_p_values_equals_posthoc(method, control):
    """The dashboard computes the p-values once per setting and derives each
    α from them: it must equal nbstats.posthoc at that α."""
    from nbstats.widgets.frequentist import posthoc_at_alpha

    rng = np.random.default_rng(8)
    scores = pd.DataFrame(
        rng.normal(size=(20, 7)) + np.linspace(0, 1.5, 7),
        columns=[f"alg{j}" for j in range(7)],
    )
    kw = {"method": method, "control": control}
    first = nbstats.posthoc(scores, alpha=0.05, **kw)
    for alpha in (0.001, 0.01, 0.05, 0.1, 0.2):
        got = posthoc_at_alpha(first, alpha)
        want = nbstats.posthoc(scores, alpha=alpha, **kw)
        assert got.alpha == want.alpha
        assert got.groups == want.groups
        assert got.critical_difference == want.critical_difference
        if isinstance(want.reject, pd.Series):
            pd.testing.assert_series_equal(got.reject, want.reject)
        else:
            pd.testing.assert_frame_equal(got.reject, want.reject)
        pd.testing.assert_frame_equal(got.to_frame(), want.to_frame())
    with pytest.raises(ValueError, match="alpha"):
        posthoc_at_alpha(first, 1.5)


def test_many_algorithms_draw_the_cd_picture_as_svg():
    rng = np.random.default_rng(3)
    scores = pd.DataFrame(
        rng.normal(size=(30, 40)) + np.linspace(0, 4, 40),
        columns=[f"alg{j}" for j in range(40)],
    )
    board = FrequentistDashboard(scores)
    assert board.controls["alpha"].continuous_update  # the SVG keeps up
    (output,) = board.views["cd"].outputs
    svg = output["data"]["image/svg+xml"]
    ET.fromstring(svg)
    assert "CD = " in svg
    assert len(roles(board, "stem-")) == len(roles(board, "label-")) == 40
    table = board.views["table"].value
    assert "The 300 smallest of 780 comparisons" in table
    assert table.count("<tr") == 301
    board.set(method="holm", control="alg5")
    posthoc = board.result["posthoc"]
    svg = board.views["cd"].outputs[0]["data"]["image/svg+xml"]
    assert 'font-weight="bold"' in svg and "Holm test against alg5" in svg
    order = list(posthoc.mean_ranks.index)
    rejected = {f"significant-{order.index(n)}" for n, r in posthoc.reject.items() if r}
    assert set(roles(board, "significant-")) == rejected and rejected


@pytest.mark.parametrize("m", [2, 8, 100])
def test_one_renderer_at_every_size(m):
    """The paper's diagram (one geometry: cd_layout) from 2 to 100
    algorithms: long names as letters with a key, the full name and mean
    rank in each label's tooltip, no two labels on one row of a side."""
    names = [
        f"HistGradientBoostingClassifier(max_iter={300 + k}, lr=0.05)" for k in range(m)
    ]
    rng = np.random.default_rng(m)
    scores = pd.DataFrame(
        rng.normal(size=(12, m)) + np.linspace(0, 3, m), columns=names
    )
    board = FrequentistDashboard(scores, aliases=False)
    assert board.controls["alpha"].continuous_update
    root = ET.fromstring(svg(board))
    labels = [
        t
        for t in root.iter("{http://www.w3.org/2000/svg}text")
        if (t.get("data-role") or "").startswith("label-")
    ]
    assert len(labels) == m
    key = " ".join(
        "".join(t.itertext())
        for t in root.iter("{http://www.w3.org/2000/svg}text")
        if t.get("data-role") == "key"
    )
    rows = set()
    for label in labels:
        tip = label.find("{http://www.w3.org/2000/svg}title").text
        name = tip.split(": mean rank")[0]
        assert name in names
        shown = "".join(label.itertext()).removesuffix(tip)
        assert shown == name or f"{shown}: {name}" in key
        rows.add((label.get("text-anchor"), label.get("y")))
    assert len(rows) == m  # one row per name on each side


def test_tables_follow_the_number_policy(board):
    """Mean ranks with 2 decimals, statistics as the report prints them,
    p-values with 3 (Demšar 2006, Table 6: mean ranks 3.143 and 2.000)."""
    table = board.views["table"].value
    assert "3.14 / 2.00" in table  # C4.5 vs C4.5+m
    assert "3.143" not in table
    assert "CD = 1.25" in table

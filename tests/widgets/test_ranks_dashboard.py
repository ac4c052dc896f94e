"""Rank dashboard, headless: set each control's value, check result and views.

Oracle: nbstats.rank_ci itself (same method, α, n_resamples and seed), and its
documented values on Demšar's (2006) Table 6.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import ipywidgets
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.ranking import RANK_CI_METHODS
from nbstats.widgets.ranks import REFERENCE_ALPHA, RankDashboard, at_alpha

NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]


@pytest.fixture(autouse=True)
def _no_figures_left():
    plt.close("all")
    yield
    assert plt.get_fignums() == []


@pytest.fixture
def board(table6):
    return RankDashboard(table6)


def svg(board):
    """The SVG shown in the plot view (exactly one picture, well-formed)."""
    outputs = board.views["plot"].outputs
    assert len(outputs) == 1
    text = outputs[0]["data"]["image/svg+xml"]
    ET.fromstring(text)
    return text


def intervals(board):
    """data-role → [lower, upper] rank of every interval line in the forest plot."""
    return {
        role: [int(float(r)) for r in line.get("data-ranks").split()]
        for line in ET.fromstring(svg(board)).iter()
        if (role := line.get("data-role") or "").startswith("interval-")
    }


def cells(html):
    """Text of the table's body rows: algorithm → cells after the name."""
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body):
        texts = re.findall(r">([^<]*)</t[hd]>", row)
        rows[texts[0]] = texts[1:]
    return rows


def test_starts_with_the_two_sided_wilcoxon(board, table6):
    assert board.error is None
    assert set(board.controls) == {
        "methods",
        "alpha",
        "n_resamples",
        "plackett_luce_s",
    }
    assert list(board.result) == ["rank_ci", "plackett_luce"]
    res = board.result["rank_ci"]
    assert list(res) == ["id-wilcoxon-2s"]
    assert res["id-wilcoxon-2s"] == nbstats.rank_ci(table6, method="id-wilcoxon-2s")
    # the documented intervals, drawn and tabulated
    expected = {
        "C4.5": [3, 4],
        "C4.5+m": [1, 3],
        "C4.5+cf": [1, 4],
        "C4.5+m+cf": [1, 3],
    }
    assert intervals(board) == {
        f"interval-id-wilcoxon-2s-{name}": bounds for name, bounds in expected.items()
    }
    table = cells(board.views["table"].value)
    assert list(table) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]  # by mean rank
    for name, (lower, upper) in expected.items():
        assert table[name][1:] == [str(lower), str(upper)]
    assert "95% confidence intervals" in board.views["table"].value
    assert "Iman–Davenport p = 0.020 (rejected)" in board.views["table"].value
    svg(board)
    assert board.controls["n_resamples"].disabled  # no bootstrap selected


def test_widget_displays(board):
    assert isinstance(board.widget, ipywidgets.Widget)
    assert callable(board._ipython_display_)
    assert (
        "application/vnd.jupyter.widget-view+json" in board.widget._repr_mimebundle_()
    )
    assert board.controls["n_resamples"].continuous_update is False
    # the SVG keeps up with a drag of α
    assert board.controls["alpha"].continuous_update is True
    assert [m for _, m in board.controls["methods"].options] == list(RANK_CI_METHODS)


def test_two_methods_give_two_intervals_per_algorithm(board, table6):
    before = svg(board)
    board.controls["methods"].value = ("id-wilcoxon-2s", "bootstrap")

    assert board.error is None
    res = board.result["rank_ci"]
    assert list(res) == ["bootstrap", "id-wilcoxon-2s"]  # in RANK_CI_METHODS order
    assert res["bootstrap"] == nbstats.rank_ci(
        table6, method="bootstrap", random_state=0
    )
    drawn = intervals(board)
    assert len(drawn) == 2 * len(NAMES)
    for name in NAMES:
        assert sum(gid.endswith(f"-{name}") for gid in drawn) == 2
    # documented bootstrap intervals (random_state=0, 1000 resamples)
    assert drawn["interval-bootstrap-C4.5"] == [3, 4]
    assert drawn["interval-bootstrap-C4.5+m"] == [1, 2]
    assert svg(board) != before
    table = cells(board.views["table"].value)
    assert all(len(row) == 1 + 2 * 2 for row in table.values())
    assert "bootstrap: 1000 resamples" in board.views["table"].value
    assert not board.controls["n_resamples"].disabled


def test_every_method_at_once(board, table6):
    board.controls["methods"].value = RANK_CI_METHODS
    assert board.error is None
    assert list(board.result["rank_ci"]) == list(RANK_CI_METHODS)
    assert len(intervals(board)) == len(RANK_CI_METHODS) * len(NAMES)
    assert board.result["rank_ci"]["id-nemenyi"].upper.tolist() == [4, 4, 4, 4]


def test_alpha_recomputes_every_selected_method(board, table6):
    board.controls["methods"].value = ("id-wilcoxon-2s", "bootstrap")
    # Iman–Davenport's p = 0.0198: not rejected at α = 0.01, every interval [1, m]
    board.controls["alpha"].value = 0.01

    res = board.result["rank_ci"]
    assert board.error is None
    assert all(r.alpha == 0.01 for r in res.values())
    assert res["id-wilcoxon-2s"].omnibus_rejected is False
    assert res["bootstrap"] == nbstats.rank_ci(
        table6, method="bootstrap", alpha=0.01, random_state=0
    )
    drawn = intervals(board)
    assert all(drawn[f"interval-id-wilcoxon-2s-{name}"] == [1, 4] for name in NAMES)
    html = board.views["table"].value
    assert "99% confidence intervals" in html
    assert "not rejected: every interval is [1, 4]" in html


def test_n_resamples_recomputes_only_the_bootstrap(board, table6):
    board.controls["methods"].value = ("bootstrap", "id-wilcoxon-1s")
    tests_based = board.result["rank_ci"]["id-wilcoxon-1s"]

    board.controls["n_resamples"].value = 200

    res = board.result["rank_ci"]
    assert board.error is None
    assert res["bootstrap"].n_resamples == 200
    assert res["bootstrap"] == nbstats.rank_ci(
        table6, method="bootstrap", n_resamples=200, random_state=0
    )
    assert res["id-wilcoxon-1s"] is tests_based  # cached, not recomputed
    assert "bootstrap: 200 resamples" in board.views["table"].value

    # the seed is fixed: the same size gives the same resamples again
    board.controls["n_resamples"].value = 300
    board.controls["n_resamples"].value = 200
    assert board.result["rank_ci"]["bootstrap"] == res["bootstrap"]


def test_random_state_is_used_once(table6):
    board = RankDashboard(table6, random_state=7)
    board.controls["methods"].value = ("bootstrap",)
    board.controls["n_resamples"].value = 500
    assert board.result["rank_ci"]["bootstrap"] == nbstats.rank_ci(
        table6, method="bootstrap", n_resamples=500, random_state=7
    )
    # a Generator seeds the dashboard once; recomputes never draw from it again
    rng = np.random.default_rng(3)
    board = RankDashboard(table6, random_state=rng)
    state = rng.bit_generator.state
    board.controls["methods"].value = ("bootstrap",)
    board.controls["n_resamples"].value = 700
    assert rng.bit_generator.state == state


def test_no_method_selected_shows_an_error_and_keeps_the_result(board):
    kept, kept_table, kept_svg = board.result, board.views["table"].value, svg(board)

    board.controls["methods"].value = ()

    assert board.error == "ValueError: select at least one method."
    assert "select at least one method" in board._error_view.value
    assert board.result is kept
    assert board.views["table"].value == kept_table
    assert svg(board) == kept_svg

    board.controls["methods"].value = ("anova-tukey",)

    assert board.error is None
    assert board._error_view.value == ""
    assert list(board.result["rank_ci"]) == ["anova-tukey"]


def test_lower_is_better_and_escaped_names():
    rng = np.random.default_rng(0)
    names = ["<i>x</i>", "a & b", "c"]
    table = pd.DataFrame(rng.normal(size=(20, 3)) + [0.0, 1.0, 2.0], columns=names)
    board = RankDashboard(-table, higher_is_better=False)
    reference = RankDashboard(table)
    assert board.result["rank_ci"] == reference.result["rank_ci"]
    html = board.views["table"].value
    assert "&lt;i&gt;x&lt;/i&gt;" in html
    assert "a &amp; b" in html
    assert "<i>x</i>" not in html


def test_bad_input_fails_at_once(table6):
    with pytest.raises(ValueError, match="at least 2"):
        RankDashboard(table6.iloc[:, :1])
    with pytest.raises(TypeError, match="random_state"):
        RankDashboard(table6, random_state="seed")


@pytest.mark.parametrize(
    "method", ["id-nemenyi", "id-wilcoxon-2s", "id-wilcoxon-1s", "anova-tukey"]
)
def test_a_smaller_alpha_from_the_reference_equals_rank_ci(method):
    """The dashboard derives α ≤ 0.5 from one result at 0.5: it must equal
    nbstats.rank_ci at that α, field for field (rejected or not)."""
    rng = np.random.default_rng(5)
    scores = pd.DataFrame(
        rng.normal(size=(12, 6)) + np.linspace(0, 1.2, 6),
        columns=[f"alg{j}" for j in range(6)],
    )
    reference = nbstats.rank_ci(scores, method=method, alpha=REFERENCE_ALPHA)
    for alpha in (0.001, 0.01, 0.05, 0.1, 0.2, 0.5):
        got = at_alpha(reference, alpha)
        want = nbstats.rank_ci(scores, method=method, alpha=alpha)
        assert got.omnibus_rejected == want.omnibus_rejected
        pd.testing.assert_series_equal(got.lower, want.lower)
        pd.testing.assert_series_equal(got.upper, want.upper)
        pd.testing.assert_frame_equal(got.better, want.better)
        pd.testing.assert_frame_equal(got.worse, want.worse)
        for key in ("pvalues", "pvalues_worse"):
            if getattr(want, key) is None:
                assert getattr(got, key) is None
            else:
                pd.testing.assert_frame_equal(getattr(got, key), getattr(want, key))
    with pytest.raises(ValueError, match="alpha must lie in"):
        at_alpha(reference, 0.7)


def test_many_algorithms_draw_svg_with_aliases():
    rng = np.random.default_rng(2)
    names = [f"HistGradientBoostingClassifier(max_iter={k})" for k in range(20)]
    scores = pd.DataFrame(
        rng.normal(size=(15, 20)) + np.linspace(0, 3, 20), columns=names
    )
    board = RankDashboard(scores)
    (output,) = board.views["plot"].outputs
    svg = output["data"]["image/svg+xml"]
    ET.fromstring(svg)
    assert ">A<" in svg and "HistGradient" in svg  # alias shown, full name in title
    assert "A — " not in board.views["table"].value
    assert board.alias_view.value.count(" = ") == 20
    assert list(board.result["rank_ci"]["id-wilcoxon-2s"].lower.index) == names


def test_the_plackett_luce_prior_strength_is_live(board, table6):
    """The ranking follows the prior control and equals the function's result."""
    from nbstats.util.random import seed_sequence
    from nbstats.widgets.ranks import PLACKETT_LUCE_DRAWS

    first = board.result["plackett_luce"]
    assert first == nbstats.bayes_plackett_luce(
        table6, n_samples=PLACKETT_LUCE_DRAWS, random_state=seed_sequence(0)
    )
    rows = cells(re.sub("</?bdi>", "", board.views["plackett_luce"].value))
    assert list(rows) == first.to_frame()["algorithm"].tolist()  # best first
    board.controls["plackett_luce_s"].value = 10.0
    strong = board.result["plackett_luce"]
    assert strong.s == 10.0
    assert strong == nbstats.bayes_plackett_luce(
        table6, s=10.0, n_samples=PLACKETT_LUCE_DRAWS, random_state=seed_sequence(0)
    )
    # a stronger prior pulls the worths towards equal: the spread shrinks
    assert np.ptp(strong.ranking["worth"]) < np.ptp(first.ranking["worth"])
    assert "Dirichlet prior, s = 10" in board.views["plackett_luce"].value
    board.controls["plackett_luce_s"].value = 1.0  # cached: the same object again
    assert board.result["plackett_luce"] is first


def test_interval_table_prints_mean_ranks_as_the_report(board):
    """Mean ranks with 2 decimals (number policy; Demšar 2006, Table 6:
    C4.5 3.143, C4.5+m 2.000, C4.5+cf 2.893, C4.5+m+cf 1.964)."""
    table = cells(board.views["table"].value)
    assert [row[0] for row in table.values()] == ["1.96", "2.00", "2.89", "3.14"]


def test_an_interval_of_one_rank_is_drawn_as_a_tick():
    """2 algorithms, b better on every case (Iman–Davenport rejects): each
    interval is one rank, drawn as a visible tick."""
    rng = np.random.default_rng(4)
    a = rng.uniform(0.6, 0.8, 15)
    board = RankDashboard(pd.DataFrame({"a": a, "b": a + 0.05}))
    assert intervals(board) == {
        "interval-id-wilcoxon-2s-b": [1, 1],
        "interval-id-wilcoxon-2s-a": [2, 2],
    }
    assert svg(board).count('data-role="tick"') == 2

"""The Bayesian dashboard, headless: set a control's ``.value``, check ``.result``
and the rendered views.

Oracles: with an int ``random_state`` every pair must equal
:func:`nbstats.bayes_signrank`, the joint statements
:func:`nbstats.bayes_posthoc` (``test="sign"``) and the verdict
:func:`nbstats.bayes_friedman`, bit for bit — the dashboard only caches.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nbstats
import nbstats.widgets.bayes_friedman as friedman_module
import nbstats.widgets.bayes_setup as bayes_setup_module
from nbstats.plots._common import format_probability
from nbstats.stats.bayes import shared_prior as shared_prior_module
from nbstats.stats.bayes.priors import IDP_DEFAULT_S
from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.signrank.one_pair import SignedRankPosterior
from nbstats.stats.bayes.signrank.pair_sums import PairSums
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.widgets.bayes import BayesDashboard
from nbstats.widgets.bayes_views import PosteriorPlot

N_SAMPLES = 20_000

# 20 cases; B - A is slightly positive: under IDP (default s) with 20,000 draws
# P(B better) is 0.64 (lower) to 0.78 (upper), between 0.5 and 0.95
A = [0.889, 0.802, 0.895, 0.716, 0.821, 0.775, 0.86, 0.735, 0.874, 0.809,
     0.88, 0.795, 0.786, 0.858, 0.897, 0.774, 0.894, 0.886, 0.736, 0.822]  # fmt: skip
B = [0.885, 0.798, 0.904, 0.719, 0.843, 0.757, 0.864, 0.728, 0.887, 0.788,
     0.88, 0.802, 0.772, 0.874, 0.903, 0.79, 0.91, 0.878, 0.73, 0.824]  # fmt: skip


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    a = np.array(A)
    # C: clearly worse than both; D: A up to ±0.001, alternating (a near twin)
    twin = a + np.where(np.arange(a.size) % 2 == 0, 0.001, -0.001)
    return pd.DataFrame(
        {
            "A": a,
            "B": np.array(B),
            "C": a - 0.03 + 0.002 * np.sin(np.arange(20)),
            "D": twin,
        },
        index=[f"case{i}" for i in range(20)],
    )


def make(scores, **kw) -> BayesDashboard:
    kw.setdefault("n_samples", N_SAMPLES)
    dash = BayesDashboard(scores, **kw)
    assert dash.error is None, dash.error
    return dash


def row(dash: BayesDashboard, a: str, b: str) -> pd.Series:
    pairs = dash.result["pairs"].set_index(["a", "b"])
    return pairs.loc[(a, b)]


def cell(dash: BayesDashboard, a: str, b: str) -> str:
    """The matrix cell of pair (a, b) as rendered (title attribute to </td>)."""
    text = dash.matrix_view.value
    start = text.index(f'title="{a} vs {b}:')
    return text[start : text.index("</td>", start)]


# -- controls and oracles ---------------------------------------------------------


def test_controls_defaults_and_labels(table):
    dash = make(table)
    c = dash.controls
    assert sorted(c) == [
        "a",
        "b",
        "epsilon",
        "loss_ratio",
        "prior",
        "rope",
        "s",
        "threshold",
    ]
    assert c["s"].value == pytest.approx(IDP_DEFAULT_S)
    assert (c["s"].min, c["s"].max, c["s"].base) == (-2, 2, 10)  # 0.01 .. 100
    assert "IDP" in c["s"].description and "0.562" in c["s"].description
    assert "◆" in dash._s_label.value and "IDP default" in dash._s_label.value
    assert c["prior"].value == "idp"
    assert [v for _, v in c["prior"].options] == ["idp", "bb", "point"]
    assert c["loss_ratio"].value == 19
    assert 10 ** c["loss_ratio"].max == pytest.approx(999)
    assert c["threshold"].value == 0.95
    assert (c["threshold"].min, c["threshold"].max) == (0.5, 0.999)
    assert c["epsilon"].value == 0.05
    assert (c["epsilon"].min, c["epsilon"].max) == (0.005, 0.25)
    assert c["rope"].value == 0 and c["rope"].continuous_update is False
    # data-scaled: up to the largest |difference| (0.04 here), rounded up
    spread = max(abs(table[x] - table[y]).max() for x in table for y in table)
    assert spread <= c["rope"].max <= 1.1 * spread
    assert (c["a"].value, c["b"].value) == ("A", "B")
    assert [v for _, v in c["a"].options] == ["A", "B", "C", "D"]
    assert [v for _, v in c["b"].options] == ["A", "B", "C", "D"]
    # the loss label: threshold l1/(l0+l1) and alpha = l0/(l0+l1), printed
    # as the report prints them (0.95, not 0.950)
    assert "<b>0.95</b>" in dash._loss_label.value and "α" in dash._loss_label.value
    assert dash._loss_label.value.endswith("= 0.05")
    assert "0.950" not in dash._loss_label.value
    assert set(dash.result) == {
        "pairs",
        "selected",
        "joint",
        "friedman",
        "threshold",
        "settings",
    }
    assert dash.result["threshold"] == pytest.approx(0.95)
    assert list(dash.result["pairs"].columns[:10]) == [
        "a",
        "b",
        "prob_lower",
        "prob_upper",
        "prob_left",
        "prob_left_upper",
        "prob_rope",
        "prob_rope_upper",
        "prob_right",
        "prob_equivalent",
    ]


@pytest.mark.parametrize(
    ("prior", "s", "rope"),
    [
        ("idp", IDP_DEFAULT_S, 0.0),
        ("idp", 1.5, 0.004),
        ("bb", None, 0.01),
        ("point", 2.0, 0.005),
    ],
)
def test_every_pair_equals_the_module_functions(table, prior, s, rope):
    dash = make(table, random_state=7)
    dash.controls["prior"].value = prior
    if s is not None:
        dash.controls["s"].value = s
    # via another rope: the new rope reuses θ's sums, draws and set-up
    dash.controls["rope"].value = 0.012
    dash.controls["rope"].value = rope
    dash.controls["loss_ratio"].value = 9.0  # threshold 0.9
    assert dash.error is None, dash.error
    assert dash.result["threshold"] == pytest.approx(0.9)
    for r in dash.result["pairs"].itertuples():
        ref = nbstats.bayes_signrank(
            table[r.a],
            table[r.b],
            prior=prior,
            s=s if prior != "bb" else None,
            rope=rope,
            loss=(1, 9.0),
            n_samples=N_SAMPLES,
            random_state=7,
        )
        got = (r.prob_lower, r.prob_upper, r.prob_left, r.prob_right)
        assert got == (ref.prob_lower, ref.prob_upper, ref.prob_left, ref.prob_right)
        if ref.prob_rope is None:
            assert math.isnan(r.prob_rope)
        else:
            assert r.prob_rope == ref.prob_rope
        if r.decision != "equivalent":
            assert r.decision == ref.decision
    sel = dash.result["selected"]
    ref = nbstats.bayes_signrank(
        table["A"], table["B"], prior=prior, s=s if prior != "bb" else None,
        rope=rope, loss=(1, 9.0), n_samples=N_SAMPLES, random_state=7,
    )  # fmt: skip
    assert (sel.name_a, sel.name_b) == ("A", "B")
    assert sel.threshold == ref.threshold
    assert sel.credible_interval == ref.credible_interval
    np.testing.assert_array_equal(sel.samples_upper, ref.samples_upper)
    # joint statements: the same signed-rank test, rope, s and prior as the
    # pairs (s = 0 for bb); the Friedman verdict puts s on "all equal"
    s_joint = 0.0 if prior == "bb" else s
    post = nbstats.bayes_posthoc(
        table, s=s_joint, threshold=0.95, test="signrank", rope=rope,
        prior="idp" if prior == "idp" else "point",
        n_samples=N_SAMPLES, random_state=7,
    )  # fmt: skip
    pd.testing.assert_frame_equal(dash.result["joint"], post.statements)
    # the Friedman test: s once it is set, else its own default (1), as
    # bayes_friedman and the report (issue 30: 0.562 here, 1 in the report)
    s_friedman = 1.0 if prior == "bb" or (prior == "idp" and s == IDP_DEFAULT_S) else s
    fried = nbstats.bayes_friedman(table, s=s_friedman, threshold=0.95)
    assert dash.result["friedman"].statistic == fried.statistic
    assert dash.result["friedman"].reject == fried.reject


def test_shared_gamma_combine_equals_signed_rank_posterior():
    """The dashboard's copy of ``combine`` (shared Gamma(s) weights) is exact."""
    z = np.array(B) - np.array(A)
    draws = DirichletWeights(z.size, 5_000, 3)
    for prior in ("idp", "bb", "point"):
        for rope in (0.0, 0.004):
            reference = SignedRankPosterior(z, prior, 0.0, rope)
            parts = reference.components(draws)
            memo = SharedPrior()
            memo.uniforms = parts["uniforms"]
            shared = SignedRankPosterior(z, prior, 0.0, rope, prior_gammas=memo)
            for s in [0.0] if prior == "bb" else [0.03, 0.5, 1.0, IDP_DEFAULT_S, 40]:
                ours, theirs = shared.combine(parts, s), reference.combine(parts, s)
                assert ours.keys() == theirs.keys()
                for key in ours:
                    np.testing.assert_array_equal(ours[key], theirs[key])


# -- decisions move with the controls ----------------------------------------------


def test_loss_ratio_turns_b_into_indeterminate_or_a(table):
    dash = make(table)
    c = dash.controls
    c["loss_ratio"].value = 1.0  # l0 = l1: threshold ½
    before = row(dash, "A", "B")
    assert 0.5 < before.prob_lower <= before.prob_upper < 0.95  # the prepared pair
    assert dash.result["threshold"] == 0.5
    assert before.decision == "b"
    assert 'data-decision="b"' in cell(dash, "A", "B")
    assert "<b>0.5</b>" in dash._loss_label.value  # as the report prints ½

    c["loss_ratio"].value = 19.0  # a Type I error costs 19 Type II errors
    after = row(dash, "A", "B")
    assert dash.result["threshold"] == pytest.approx(0.95)
    assert after.decision in ("indeterminate", "undecided")
    assert f'data-decision="{after.decision}"' in cell(dash, "A", "B")
    assert after.decision in cell(dash, "A", "B")
    # the probabilities themselves do not depend on the losses
    assert (after.prob_lower, after.prob_upper) == (
        before.prob_lower,
        before.prob_upper,
    )
    assert dash.result["selected"].threshold == pytest.approx(0.95)
    assert "<b>0.95</b>" in dash._loss_label.value
    assert dash._loss_label.value.endswith("= 0.05")


def test_raising_s_widens_the_idp_interval(table):
    dash = make(table)
    gaps = []
    views = []
    for s in (0.05, IDP_DEFAULT_S, 5.0):
        dash.controls["s"].value = s
        r = row(dash, "A", "B")
        gaps.append(r.prob_upper - r.prob_lower)
        views.append(cell(dash, "A", "B"))
        assert f"P(B better) {r.prob_lower:.3f} to {r.prob_upper:.3f}" in views[-1]
    assert gaps[0] < gaps[1] < gaps[2]
    assert len(set(views)) == 3
    assert dash.result["selected"].s == 5.0
    assert "s = 5" in dash._s_label.value and "◆" not in dash._s_label.value
    dash._s_default.click()  # back to the marked IDP default
    assert dash.result["settings"]["s"] == IDP_DEFAULT_S
    assert "◆" in dash._s_label.value


def test_sweeping_s_is_smooth(table):
    """50 values of s, log-spaced over the slider (0.01 … 100), one random_state.

    Tolerance between neighbours: 0 for reversals. With common random numbers
    (fixed uniforms u, g0 = F⁻¹(u; s) increasing in s) every draw of the upper
    posterior θ = 1 − (T² − Q)/(g0 + T)² increases with s and every lower one
    Q/(g0 + T)² decreases, so prob_upper is non-decreasing and prob_lower
    non-increasing exactly: no Monte Carlo jitter. Fresh draws per s would
    jitter by about ±0.5/√20,000 ≈ ±0.004.
    """
    dash = make(table)
    upper, lower = [], []
    for s in np.geomspace(0.01, 100, 50):
        dash.controls["s"].value = float(s)
        r = row(dash, "A", "B")
        upper.append(r.prob_upper)
        lower.append(r.prob_lower)
    assert np.all(np.diff(upper) >= 0)
    assert np.all(np.diff(lower) <= 0)
    assert upper[-1] - upper[0] > 0.15  # it does move: s = 100 outweighs 20 cases
    assert np.max(np.diff(upper)) < 0.05  # in small steps


def test_equivalent_for_near_identical_columns(table):
    """The rope decides "equivalent" (as bayes_signrank); ε-indistinguishability
    is shown as prob_equivalent and never decides."""
    dash = make(table)
    c = dash.controls
    c["epsilon"].value = 0.25
    twin = row(dash, "A", "D")
    assert twin.prob_equivalent > 0.95
    assert twin.decision != "equivalent"  # ε alone: no rope, no equivalence
    # a rope wider than every difference of A and D: the rope region is certain
    gap = float((table["D"] - table["A"]).abs().max())
    c["rope"].value = round(4 * gap + 0.001, 3)
    twin = row(dash, "A", "D")
    direct = nbstats.bayes_signrank(
        table["A"], table["D"], rope=c["rope"].value, random_state=0
    )
    assert direct.decision == "equivalent" == twin.decision
    assert 'data-decision="equivalent"' in cell(dash, "A", "D")
    assert row(dash, "A", "C").decision != "equivalent"  # C is clearly worse
    # the joint statements say the same of A and D, and never "better"
    joint = dash.result["joint"]
    pair = joint[joint[["better", "worse"]].isin(["A", "D"]).all(axis=1)].iloc[0]
    assert pair["relation"] == "equivalent" and pair["accepted"]
    names = {pair["better"], pair["worse"]}
    assert names == {"A", "D"}
    shown = dash.joint_view.value
    assert f"{pair['better']} ≈ {pair['worse']}" in shown
    assert f"{pair['better']} &gt; {pair['worse']}" not in shown
    assert f"{pair['worse']} &gt; {pair['better']}" not in shown


def test_joint_statements_view(table):
    dash = make(table)
    joint = dash.result["joint"]
    accepted = joint[joint["accepted"]]
    assert len(accepted) > 0
    view = dash.joint_view.value
    assert f"{len(accepted)} of {len(joint)}" in view
    first = accepted.iloc[0]
    assert f"{first.better} &gt; {first.worse}" in view
    # as the report prints a probability: never 1.000, "> 0.999" above 0.999
    expected = "&gt; 0.999" if first.joint > 0.999 else f"{first.joint:.3f}"
    assert f">{expected}</td>" in view
    assert ">1.000<" not in view
    # equal losses, a threshold of 0.5: at least as many statements hold (the
    # joint probability only falls down the list)
    dash.controls["loss_ratio"].value = 1.0
    assert dash.result["joint"]["accepted"].sum() >= len(accepted)
    assert "probability &gt; 0.5" in dash.joint_view.value
    assert "Bayesian Friedman" in dash.friedman_view.value
    assert dash.result["friedman"].decision in dash.friedman_view.value


def test_prior_bb_disables_s(table):
    dash = make(table)
    dash.controls["prior"].value = "bb"
    assert dash.controls["s"].disabled
    assert dash.result["settings"]["s"] == 0.0
    assert dash.result["selected"].prior == "bb"
    r = row(dash, "A", "B")
    assert r.prob_lower == r.prob_upper
    assert "Bayesian bootstrap" in dash._s_label.value
    dash.controls["prior"].value = "point"
    assert not dash.controls["s"].disabled
    assert dash.result["selected"].prior == "point"


def test_rope_shows_three_regions(table):
    dash = make(table)
    dash.controls["rope"].value = 0.005
    r = row(dash, "A", "B")
    # IDP: each region an interval over the prior set, as bayes_signrank's
    selected = dash.result["selected"]  # the pair (A, B)
    for region in ("left", "rope", "right"):
        assert getattr(selected, f"prob_{region}_lower") <= getattr(
            selected, f"prob_{region}_upper"
        )
    assert (r.prob_left, r.prob_left_upper) == pytest.approx(
        (selected.prob_left_lower, selected.prob_left_upper)
    )
    assert (r.prob_rope, r.prob_rope_upper) == pytest.approx(
        (selected.prob_rope_lower, selected.prob_rope_upper)
    )
    assert (r.prob_right, r.prob_upper) == pytest.approx(
        (selected.prob_right_lower, selected.prob_right_upper)
    )
    assert r.prob_left + r.prob_rope + r.prob_right <= 1 + 1e-12
    assert r.prob_left_upper + r.prob_rope_upper + r.prob_upper >= 1 - 1e-12
    # one prior (Bayesian bootstrap): one number per region, summing to 1
    dash.controls["prior"].value = "bb"
    r = row(dash, "A", "B")
    assert r.prob_left + r.prob_rope + r.prob_right == pytest.approx(1.0)
    assert (r.prob_left, r.prob_rope) == (r.prob_left_upper, r.prob_rope_upper)
    dash.controls["prior"].value = "idp"
    shown = cell(dash, "A", "B")
    assert "P(rope) " in shown and "P(A better) " in shown and "P(B better) " in shown
    assert "rope ±0.005" in dash.matrix_view.value
    assert dash.result["selected"].rope == 0.005


# -- caching ------------------------------------------------------------------------


def test_components_computed_once_per_pair_prior_and_rope(table, monkeypatch):
    sums_calls: list[tuple[str, list, int]] = []
    result_calls: list[float] = []
    gamma_calls: list[float] = []
    weights_made: list[tuple] = []
    quads, crosses = PairSums.quads, PairSums.crosses
    result = SignedRankPosterior.result
    gamma_quantile = shared_prior_module.gamma_quantile

    def counting_quads(self, regions, out):
        sums_calls.append(("quad", list(regions), self.n_pairs))
        return quads(self, regions, out)

    def counting_crosses(self, regions, out, x=0.0):
        sums_calls.append(("cross", list(regions), self.n_pairs))
        return crosses(self, regions, out, x)

    def counting_result(self, draws, **kw):
        assert isinstance(draws, dict), "result() must get the cached components"
        result_calls.append(kw["s"])
        return result(self, draws, **kw)

    def counting_gamma(s, u):
        gamma_calls.append(s)
        return gamma_quantile(s, u)

    class CountingWeights(DirichletWeights):
        def __init__(self, *args, **kw):
            weights_made.append(args)
            super().__init__(*args, **kw)

    monkeypatch.setattr(PairSums, "quads", counting_quads)
    monkeypatch.setattr(PairSums, "crosses", counting_crosses)
    monkeypatch.setattr(SignedRankPosterior, "result", counting_result)
    monkeypatch.setattr(shared_prior_module, "gamma_quantile", counting_gamma)
    monkeypatch.setattr(bayes_setup_module, "DirichletWeights", CountingWeights)

    dash = make(table)
    pairs = 6
    assert len(weights_made) == 1  # one set of draws for every pair
    theta = [(+1, 0.0)]
    assert sums_calls == [("quad", theta, pairs)]  # θ of every pair, one call
    assert gamma_calls == [pytest.approx(IDP_DEFAULT_S)]  # once for all pairs
    assert result_calls == [pytest.approx(IDP_DEFAULT_S)]  # the shown pair only

    c = dash.controls
    changes = [
        ("s", 2.0),
        ("loss_ratio", 3.0),
        ("threshold", 0.8),
        ("epsilon", 0.1),
        ("b", "C"),
        ("s", 0.3),
        ("loss_ratio", 99.0),
        ("b", "D"),
    ]
    for name, value in changes:
        c[name].value = value
        assert dash.error is None, dash.error
        assert dash.result["settings"][name] == value
    assert len(sums_calls) == 1  # nothing recomputed per case
    assert gamma_calls[1:] == [2.0, 0.3]  # once per new s, for all pairs and joint
    # the matrix needs no result objects: only the shown pair gets one, for a
    # new s, loss ratio or pair (the joint threshold and ε do not change it)
    assert result_calls[1:] == [2.0, 2.0, 2.0, 0.3, 0.3, 0.3]

    c["rope"].value = 0.004  # the rope's two regions only: θ is kept
    assert sums_calls[1:] == [("quad", [(+1, 0.008), (-1, 0.008)], pairs)]
    c["rope"].value = 0.0  # cached
    c["prior"].value = "point"  # its cross terms only: the sums are IDP's
    assert sums_calls[2:] == [("cross", theta, pairs)]
    c["prior"].value = "idp"
    c["s"].value = 0.3  # seen before: no new Gamma quantiles either
    assert len(sums_calls) == 3
    assert gamma_calls[1:] == [2.0, 0.3]
    assert len(weights_made) == 1


def test_a_reversed_pair_is_its_own_posterior(table):
    """b vs a the other way round from the matrix: the posterior of a − b."""
    dash = make(table, random_state=3)
    dash.set(a="C", b="A")
    ref = nbstats.bayes_signrank(
        table["C"], table["A"], n_samples=N_SAMPLES, random_state=3
    )
    sel = dash.result["selected"]
    assert (sel.name_a, sel.name_b) == ("C", "A")
    assert (sel.prob_lower, sel.prob_upper) == (ref.prob_lower, ref.prob_upper)
    assert sel.credible_interval == ref.credible_interval
    dash.set(a="B", b="B")
    assert "choose two different algorithms" in dash.error
    assert dash.result["selected"] is sel  # the last good result stays


def test_set_recomputes_once(table):
    dash = make(table)
    calls = []
    compute = dash.compute
    dash.compute = lambda changed: calls.append(changed) or compute(changed)
    dash.set(a="D", b="C", threshold=0.9)
    assert len(calls) == 1
    assert dash.result["settings"]["pair"] == ("D", "C")
    with pytest.raises(TypeError, match="no control named 'pair'"):
        dash.set(pair=("A", "B"))


# -- views --------------------------------------------------------------------------


def test_hostile_names_are_escaped(table):
    hostile = table.rename(columns={"A": "<b>x</b>", "B": "y & z", "C": '"q"'})
    dash = make(hostile)
    matrix = dash.matrix_view.value
    assert "&lt;b&gt;x&lt;/b&gt;" in matrix
    assert "<b>x</b>" not in matrix
    assert "y &amp; z" in matrix and "y & z" not in matrix
    assert "&quot;q&quot;" in matrix or "&#x27;" in matrix
    for view in (dash.joint_view.value, dash.friedman_view.value):
        assert "<b>x</b>" not in view
    assert "&lt;b&gt;x&lt;/b&gt;" in dash.friedman_view.value
    # the pair dropdowns show the names as text (the front end does not parse it)
    assert dash.controls["a"].label == "<b>x</b>"
    assert dash.controls["b"].label == "y & z"
    assert dash.result["pairs"]["a"].iloc[0] == "<b>x</b>"


def test_selected_pair_has_its_credible_interval(table):
    dash = make(table)
    for name, value in [("s", 2.0), ("a", "C"), ("rope", 0.004)]:
        dash.controls[name].value = value
        selected = dash.result["selected"]
        low, high = selected.credible_interval
        # C vs B: θ's upper draws reach 1 (up to rounding, as bayes_signrank)
        assert 0 <= low < high <= 1 + 1e-12, (name, low, high)
        # the equal-tail interval of the lower and upper posterior draws
        tail = (1 - selected.threshold) / 2
        assert low == pytest.approx(np.quantile(selected.samples_lower, tail))
        assert high == pytest.approx(np.quantile(selected.samples_upper, 1 - tail))
        assert "nan" not in dash.plot_view.outputs[0]["data"]["image/svg+xml"]


def test_selected_pair_view_changes_with_pair(table):
    dash = make(table)
    assert plt.get_fignums() == []  # the figure is closed once rendered
    (first,) = dash.plot_view.outputs
    assert first["data"]["text/plain"] == "posterior of θ: A vs B"
    assert "<svg" in first["data"]["image/svg+xml"]
    selected = dash.result["selected"]
    assert (selected.name_a, selected.name_b) == ("A", "B")

    dash.set(a="B", b="C")
    (second,) = dash.plot_view.outputs
    assert dash.result["selected"].name_a == "B"
    assert dash.result["selected"].name_b == "C"
    assert second["data"]["text/plain"] == "posterior of θ: B vs C"
    assert second["data"]["image/svg+xml"] != first["data"]["image/svg+xml"]
    assert "B vs C" in second["data"]["image/svg+xml"]

    # the joint threshold and ε leave the selected posterior alone: no redraw
    dash.controls["threshold"].value = 0.9
    assert dash.plot_view.outputs[0] is second
    # back to the first pair: the same picture (deterministic SVG)
    dash.set(a="A", b="B")
    assert dash.plot_view.outputs[0]["data"] == first["data"]
    assert plt.get_fignums() == []


def test_plot_reusing_densities_equals_a_fresh_plot(table):
    """The plot keeps the last picture's densities for unchanged draws; after
    any sequence of changes its SVG is the one drawn afresh, byte for byte."""
    dash = make(table)
    c = dash.controls
    changes = [
        ("a", "C"),  # C vs B: the other way round from the matrix
        ("loss_ratio", 3.0),  # same curves, new interval and title
        ("s", 4.0),
        ("b", "D"),
        ("rope", c["rope"].max / 10),  # the rope shares join the title
        ("loss_ratio", 200.0),
        ("prior", "bb"),  # one curve
        ("a", "A"),
        ("prior", "point"),
        ("prior", "idp"),
        ("rope", 0.0),
    ]
    svgs = []
    for name, value in changes:
        c[name].value = value
        assert dash.error is None, (name, dash.error)
        (output,) = dash.plot_view.outputs
        assert set(output["data"]) == {"image/svg+xml", "text/plain"}
        shown = output["data"]["image/svg+xml"]
        fresh = PosteriorPlot().svg(dash.result["selected"])
        assert shown == fresh, (name, value)
        ET.fromstring(shown)  # well-formed
        svgs.append(shown)
    assert len(set(svgs)) == len(svgs)  # each change changed the picture
    assert plt.get_fignums() == []  # no matplotlib figure


def test_plot_shows_the_selected_result(table):
    dash = make(table)
    dash.set(a="B", b="C")
    selected = dash.result["selected"]
    svg = dash.plot_view.outputs[0]["data"]["image/svg+xml"]
    texts = " ".join(ET.fromstring(svg).itertext())
    assert (
        f"P(θ > ½): lower {format_probability(selected.prob_lower)} / "
        f"upper {format_probability(selected.prob_upper)}"
    ) in texts
    low, high = selected.credible_interval
    assert f"[{low:.2f}, {high:.2f}]" in texts
    assert "posterior of θ: B vs C" in texts  # the SVG's <title>


def test_plot_starts_afresh_after_a_failed_redraw(table, monkeypatch):
    import nbstats.widgets.posterior_svg as posterior_svg

    dash = make(table)

    def broken(*args, **kw):
        raise RuntimeError("half drawn")

    monkeypatch.setattr(posterior_svg, "signrank_svg", broken)
    dash.set(a="B", b="C")
    assert dash.error == "RuntimeError: half drawn"
    assert dash._plot._picture is None  # no half-used cache
    monkeypatch.undo()
    dash.set(a="A", b="C")
    assert dash.error is None
    (output,) = dash.plot_view.outputs
    fresh = PosteriorPlot().svg(dash.result["selected"])
    assert output["data"]["image/svg+xml"] == fresh


def test_errors_show_in_the_dashboard(table, monkeypatch):
    dash = make(table)
    previous = dash.result

    def broken(*args, **kw):
        raise RuntimeError("friedman <exploded>")

    monkeypatch.setattr(friedman_module, "bayes_friedman", broken)
    dash.controls["threshold"].value = 0.8  # a new Friedman verdict
    assert dash.error == "RuntimeError: friedman <exploded>"
    assert "Could not update" in dash._error_view.value
    assert "friedman &lt;exploded&gt;" in dash._error_view.value
    assert dash.result is previous  # the last good result stays
    assert dash._error_view in dash.widget.children

    monkeypatch.undo()
    dash.controls["threshold"].value = 0.7
    assert dash.error is None and dash._error_view.value == ""
    assert dash.result["settings"]["threshold"] == 0.7


def test_plot_errors_show_and_leak_no_figure(table, monkeypatch):
    import nbstats.plots.posterior as posterior

    dash = make(table)

    def broken(*args, **kw):
        raise ValueError("cannot draw")

    # what signrank_posterior draws, and the dashboard's plot moves to
    monkeypatch.setattr(posterior, "signrank_picture", broken)
    dash.set(a="A", b="C")
    assert dash.error == "ValueError: cannot draw"
    assert plt.get_fignums() == []


# -- input --------------------------------------------------------------------------


def test_lower_is_better_mirrors(table):
    up = make(table)
    down = make(-table, higher_is_better=False)
    pd.testing.assert_frame_equal(up.result["pairs"], down.result["pairs"])
    pd.testing.assert_frame_equal(up.result["joint"], down.result["joint"])


def test_fewer_cases_than_algorithms_has_no_bayesian_friedman(table):
    dash = make(table.iloc[:3], n_samples=2_000)
    assert dash.result["friedman"] is None  # refused below n = m: not calibrated
    assert "needs at least as many cases as algorithms" in dash.friedman_view.value


def test_bad_input():
    clash = pd.DataFrame([[1.0, 2.0], [2.0, 3.5], [0.5, 1.0]], columns=[1, "1"])
    with pytest.raises(ValueError, match="look the same|distinct"):
        BayesDashboard(clash, n_samples=2_000)
    with pytest.warns(UserWarning, match="n_samples=100"):
        BayesDashboard(np.array([[1.0, 2.0], [2.0, 3.5], [0.5, 1.0]]), n_samples=100)


def test_bayesian_bootstrap_reuses_the_idp_sums(table, monkeypatch):
    """IDP and the Bayesian bootstrap share their per-case sums: switching
    between them computes nothing per case, and the numbers stay exact."""
    calls = []
    quads, crosses = PairSums.quads, PairSums.crosses

    def counting_quads(self, regions, out):
        calls.append(("quad", self.n_pairs))
        return quads(self, regions, out)

    def counting_crosses(self, regions, out, x=0.0):
        calls.append(("cross", self.n_pairs))
        return crosses(self, regions, out, x)

    monkeypatch.setattr(PairSums, "quads", counting_quads)
    monkeypatch.setattr(PairSums, "crosses", counting_crosses)
    dash = make(table, random_state=5)
    dash.controls["rope"].value = 0.004
    assert calls == [("quad", 6), ("quad", 6)]
    dash.controls["prior"].value = "bb"
    assert calls == [("quad", 6), ("quad", 6)]  # no new sums
    ref = nbstats.bayes_signrank(
        table["A"], table["B"], prior="bb", rope=0.004, n_samples=N_SAMPLES,
        random_state=5,
    )  # fmt: skip
    got = row(dash, "A", "B")
    assert (got.prob_left, got.prob_rope, got.prob_right) == (
        ref.prob_left,
        ref.prob_rope,
        ref.prob_right,
    )
    assert dash.result["selected"].credible_interval == ref.credible_interval
    dash.controls["prior"].value = "point"  # its own cross terms only
    assert calls == [("quad", 6), ("quad", 6), ("cross", 6)]


def test_friedman_verdicts_of_earlier_settings_are_kept(table, monkeypatch):
    calls = []
    friedman = friedman_module.bayes_friedman

    def counting(*args, **kw):
        calls.append((kw["s"], kw["threshold"]))
        return friedman(*args, **kw)

    monkeypatch.setattr(friedman_module, "bayes_friedman", counting)
    dash = make(table)
    # the test's default s = 1 for idp at the slider's default and for bb
    # (as the report), the slider's s for the point prior
    for prior in ("bb", "point", "idp", "bb"):
        dash.controls["prior"].value = prior
        assert dash.error is None, dash.error
    assert calls == [(1.0, 0.95), (pytest.approx(IDP_DEFAULT_S), 0.95)]
    ref = nbstats.bayes_friedman(table, s=1.0, threshold=0.95)
    assert dash.result["friedman"].statistic == ref.statistic


@pytest.mark.parametrize(
    ("ratio", "threshold", "alpha"),
    [(19.0, "0.95", "0.05"), (20.0, "0.9524", "0.0476"), (1.0, "0.5", "0.5")],
)
def test_thresholds_print_as_the_report_prints_them(ratio, threshold, alpha):
    """One value, one printing: the dashboard's threshold and α by the number
    policy, as the report's Methods write them (l1/(l0+l1) by hand: 19/20 =
    0.95, 20/21 = 0.95238…, 1/2; α = 1/21 = 0.047619…), never "0.950"."""
    from nbstats.widgets.bayes_views import _caption, loss_label

    value = ratio / (1 + ratio)
    label = loss_label(ratio, value)
    assert f"<b>{threshold}</b>" in label and label.endswith(f"= {alpha}")
    settings = {"rope": 0.01, "prior": "idp", "s": 0.5, "epsilon": 0.05}
    caption = _caption(settings, value, 1000)
    assert f"P(better) &gt; {threshold};" in caption
    assert f"P(rope) &gt; {threshold};" in caption

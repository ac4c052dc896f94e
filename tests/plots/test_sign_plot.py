"""The Beta posterior of the Bayesian sign test."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
import scipy.stats
from matplotlib.collections import PolyCollection
from matplotlib.lines import Line2D
from plot_helpers import by_gid, gids

import nbstats
from nbstats.plots._common import (
    legend_texts,
    probability_relation,
)
from nbstats.plots.sign import sign_posterior


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# --------------------------------------------------------------- sign test


def test_sign_posterior_is_the_beta_of_theorem_2(sign):
    ax = sign_posterior(sign)
    curve = by_gid(ax, "posterior", Line2D)
    x, y = curve.get_xdata(), curve.get_ydata()
    assert np.allclose(y, scipy.stats.beta.pdf(x, sign.wins, sign.losses))
    assert curve.get_label() == f"Beta({sign.wins}, {sign.losses})"
    shade = by_gid(ax, "beyond-half", PolyCollection)
    vertices = shade.get_paths()[0].vertices
    assert vertices[:, 0].min() == 0.5
    right = x >= 0.5
    assert np.trapezoid(y[right], x[right]) == pytest.approx(sign.prob_right, abs=1e-4)
    assert shade.get_label().endswith(f" {probability_relation(sign.prob_right)}")
    assert list(by_gid(ax, "half", Line2D).get_xdata()) == [0.5, 0.5]
    title = ax.get_title()
    assert f"{sign.wins} wins, {sign.losses} losses, {sign.n_ties} ties" in title
    assert "threshold 0.95 → undecided: neither" in title


@pytest.mark.parametrize(("shift", "at"), [(0.01, 1.0), (-0.01, 0.0)])
def test_sign_posterior_degenerate_beta(uci, shift, at):
    a = uci["nbc"].to_numpy()[:8]
    res = nbstats.bayes_sign_test(a, a + shift, random_state=0)
    assert min(res.wins, res.losses) == 0
    ax = sign_posterior(res)
    stem = by_gid(ax, "posterior-point-mass", Line2D)
    assert list(stem.get_xdata()) == [at, at]
    assert f"point mass at {at:g}" in stem.get_label()
    assert "beyond-half" not in gids(ax)
    assert (
        f"P(θ′ > ½) = P(θ > ½) {probability_relation(res.prob_right)}"
        in legend_texts(ax)
    )
    # issue 36 item 4: as the summaries print it, never "= 1" or "= 0"
    expected = "> 0.999" if at == 1.0 else "< 0.001"
    assert f"P(θ′ > ½) = P(θ > ½) {expected}" in legend_texts(ax)
    assert not any(t.endswith(("= 1", "= 0")) for t in legend_texts(ax))


def test_sign_posterior_all_ties(uci):
    a = uci["nbc"].to_numpy()[:6]
    res = nbstats.bayes_sign_test(a, a.copy(), random_state=0)
    ax = sign_posterior(res)
    assert "all 6 cases tie" in by_gid(ax, "all-ties").get_text()
    assert "posterior" not in gids(ax)

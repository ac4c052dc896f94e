"""The credible ellipse of the Bayesian Friedman test (m = 3)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import PathCollection
from matplotlib.lines import Line2D
from plot_helpers import by_gid, gids

import nbstats
from nbstats.plots._common import MAX_POINTS
from nbstats.plots.friedman import friedman_posterior


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ---------------------------------------------------------------- Friedman


def _quadratic_form(points, centre, cov):
    diff = points - centre[:, None]
    return np.einsum("ip,ij,jp->p", diff, np.linalg.inv(cov), diff)


def test_friedman_ellipse_is_the_credible_region(friedman3):
    ax = friedman_posterior(friedman3, n_points=120)
    ellipse = by_gid(ax, "credible-region", Line2D)
    points = np.vstack([ellipse.get_xdata(), ellipse.get_ydata()])
    assert points.shape == (2, 120)
    mu = friedman3.mean_ranks.to_numpy()[:2]
    cov = friedman3.covariance.to_numpy()[:2, :2]
    assert _quadratic_form(points, mu, cov) == pytest.approx(friedman3.rho, rel=1e-9)
    # in these two coordinates μ0's distance is the test's statistic
    null = np.array([[2.0], [2.0]])
    assert _quadratic_form(null, mu, cov)[0] == pytest.approx(
        friedman3.statistic, rel=1e-9
    )
    marker = by_gid(ax, "null-point", Line2D)
    assert (marker.get_xdata()[0], marker.get_ydata()[0]) == (2.0, 2.0)
    mean = by_gid(ax, "posterior-mean", Line2D)
    assert (mean.get_xdata()[0], mean.get_ydata()[0]) == pytest.approx(tuple(mu))
    assert "j48: 6 − x − y = " in mean.get_label()
    assert "posterior-samples" not in gids(ax)  # the ellipsoid method keeps none
    assert friedman3.reject
    assert ax.get_title().startswith("reject")
    assert "outside the 95% credible region" in ax.get_title()
    assert ax.get_xlabel().startswith("mean rank of nbc")
    assert ax.get_ylabel() == "mean rank of aode"
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    assert x0 < 2 < x1 and y0 < 2 < y1  # μ0 in view


def test_friedman_no_evidence(uci):
    res = nbstats.bayes_friedman(uci[["aode", "hnb", "j48"]])
    assert not res.reject
    title = friedman_posterior(res).get_title()
    assert title.startswith("no evidence")
    assert "inside" in title


def test_friedman_montecarlo_draws_and_sample_ellipse(uci):
    res = nbstats.bayes_friedman(
        uci[["hnb", "j48", "j48gr"]],
        method="montecarlo",
        n_samples=6000,
        random_state=2,
    )
    ax = friedman_posterior(res)
    scatter = by_gid(ax, "posterior-samples", PathCollection)
    offsets = np.asarray(scatter.get_offsets())
    assert len(offsets) == MAX_POINTS
    assert np.isin(offsets[:, 0], res.samples[:, 0]).all()
    # the Monte Carlo region uses the draws' mean and covariance, as the test
    centre = res.samples[:, :2].mean(axis=0)
    cov = np.cov(res.samples[:, :2], rowvar=False)
    ellipse = by_gid(ax, "credible-region", Line2D)
    points = np.vstack([ellipse.get_xdata(), ellipse.get_ydata()])
    assert _quadratic_form(points, centre, cov) == pytest.approx(res.rho, rel=1e-9)
    assert _quadratic_form(np.array([[2.0], [2.0]]), centre, cov)[0] == pytest.approx(
        res.statistic, rel=1e-9
    )
    assert "Monte Carlo" in ellipse.get_label()


def test_friedman_needs_three_algorithms(uci):
    res = nbstats.bayes_friedman(uci)
    with pytest.raises(ValueError, match="m = 3.*got m = 5"):
        friedman_posterior(res)
    with pytest.raises(ValueError, match="n_points"):
        friedman_posterior(nbstats.bayes_friedman(uci.iloc[:, :3]), n_points=3)

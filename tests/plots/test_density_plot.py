"""The density estimate of θ against scipy."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
import scipy.stats

from nbstats.plots.density import reflected_kde


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_reflected_kde_matches_scipy_with_reflection():
    draws = np.random.default_rng(3).beta(12, 2, size=3000)  # piles against 1
    grid, density = reflected_kde(draws)
    kde = scipy.stats.gaussian_kde(draws)  # Scott's rule, as ours
    reference = kde(grid) + kde(-grid) + kde(2 - grid)
    assert np.max(np.abs(density - reference)) < 0.01 * reference.max()
    assert np.trapezoid(density, grid) == pytest.approx(1.0, abs=1e-3)
    assert 0.5 in grid
    with pytest.raises(ValueError, match="two distinct draws"):
        reflected_kde(np.full(10, 0.7))

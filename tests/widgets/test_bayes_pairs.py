"""The pair matrix's engine (nbstats.widgets.bayes_pairs.PairPosteriors): the
counts it keeps per setting.

Oracle: a fresh engine on the same draws, which keeps nothing. Going back to
a setting (another prior and back, an s or a rope tried before) must give
the same numbers bit for bit, and count nothing again.
"""

from __future__ import annotations

import numpy as np
import pytest

from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.signrank.blocks import PairBlocks
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.widgets import bayes_pairs as module
from nbstats.widgets.bayes import BayesDashboard
from nbstats.widgets.bayes_pairs import KEEP_COUNTS, PairPosteriors

N_SAMPLES = 2_000

# (prior, s, rope, ε): back and forth between priors, s and ropes
SETTINGS = [
    ("idp", 0.56, 0.0, 0.05),
    ("idp", 0.56, 0.01, 0.05),
    ("bb", 0.0, 0.01, 0.05),
    ("point", 2.0, 0.01, 0.05),
    ("idp", 0.56, 0.01, 0.05),  # back: counted before
    ("idp", 2.0, 0.01, 0.1),
    ("idp", 0.56, 0.02, 0.05),  # a new rope writes over the last one's sums
    ("idp", 0.56, 0.01, 0.05),  # its counts are kept, its sums are not
    ("point", 2.0, 0.0, 0.05),
    ("bb", 0.0, 0.02, 0.2),
]


def differences(m: int = 5, n: int = 16, seed: int = 2) -> tuple[np.ndarray, list]:
    rng = np.random.default_rng(seed)
    values = rng.normal(0.0, 0.02, (n, m)) + np.linspace(0.0, 0.02, m)
    values = np.round(values, 3)  # ties, zero differences
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    diffs = np.stack([values[:, j] - values[:, i] for i, j in pairs], axis=1)
    return diffs, [(f"a{i}", f"a{j}") for i, j in pairs]


def engine(diffs: np.ndarray, names: list) -> PairPosteriors:
    draws = DirichletWeights(diffs.shape[0], N_SAMPLES, 7)
    return PairPosteriors(diffs, draws, SharedPrior(), names=names)


def assert_same(got: dict, want: dict) -> None:
    assert got.keys() == want.keys()
    for key, value in want.items():
        if key == "bounds":
            for mine, theirs in zip(got[key], value, strict=True):
                np.testing.assert_array_equal(mine, theirs)
        else:
            np.testing.assert_array_equal(got[key], value, err_msg=key)


def test_kept_counts_equal_a_fresh_engines():
    diffs, names = differences()
    kept = engine(diffs, names)
    for setting in SETTINGS:
        got = kept.probabilities(*setting)
        assert_same(got, engine(diffs, names).probabilities(*setting))


@pytest.fixture
def kernel_calls(monkeypatch):
    """Every call of the compiled counts: θ, the rope, IDP's placements."""
    calls: list[str] = []
    theta, rope = module.pair_counts, module.pair_rope_counts
    placements = PairBlocks.placement_counts

    def counting_theta(*args):
        calls.append("theta")
        return theta(*args)

    def counting_rope(*args):
        calls.append("rope")
        return rope(*args)

    def counting_placements(self, *args, **kw):
        calls.append("placements")
        return placements(self, *args, **kw)

    monkeypatch.setattr(module, "pair_counts", counting_theta)
    monkeypatch.setattr(module, "pair_rope_counts", counting_rope)
    monkeypatch.setattr(PairBlocks, "placement_counts", counting_placements)
    return calls


def test_a_setting_seen_before_counts_nothing(kernel_calls):
    diffs, names = differences()
    kept = engine(diffs, names)
    first = [kept.probabilities(*setting) for setting in SETTINGS]
    assert kernel_calls  # the first visits count
    kernel_calls.clear()
    for setting, before in zip(SETTINGS, first, strict=True):
        assert_same(kept.probabilities(*setting), before)
    assert kernel_calls == []


def test_kept_counts_are_bounded_and_read_only():
    diffs, names = differences()
    kept = engine(diffs, names)
    for epsilon in np.linspace(0.01, 0.2, KEEP_COUNTS + 4):
        kept.probabilities("idp", 0.56, 0.01, float(epsilon))
    for s in np.linspace(0.1, 3.0, KEEP_COUNTS + 4):
        kept.probabilities("idp", float(s), 0.01, 0.05)
    assert len(kept._theta_counts) == KEEP_COUNTS
    assert len(kept._rope_counts_kept) == KEEP_COUNTS
    for counts in (*kept._theta_counts.values(), *kept._rope_counts_kept.values()):
        assert not counts.flags.writeable
    # what the caller gets is its own: writing to it changes no kept count
    got = kept.probabilities("idp", 3.0, 0.01, 0.05)
    got["prob_lower"][:] = -1.0
    again = kept.probabilities("idp", 3.0, 0.01, 0.05)
    assert (again["prob_lower"] >= 0).all()


def test_the_dashboard_going_back_to_a_prior_counts_nothing(kernel_calls):
    rng = np.random.default_rng(4)
    table = rng.normal(0.8, 0.03, (15, 5)) + np.linspace(0, 0.02, 5)
    dash = BayesDashboard(table, n_samples=N_SAMPLES, random_state=3)
    dash.controls["rope"].value = 0.004
    shown = dash.result["pairs"]
    dash.controls["prior"].value = "point"
    kernel_calls.clear()
    dash.controls["prior"].value = "idp"  # as before the change of prior
    assert dash.error is None, dash.error
    assert kernel_calls == []
    assert dash.result["pairs"].equals(shown)


def test_a_setting_whose_sums_do_not_fit_is_counted_in_blocks():
    """Room for θ's and a rope's sums (3 regions), not for the point prior's
    cross terms as well (6): that setting is counted block by block, with the
    numbers of an engine that keeps everything, and nothing over the cache
    is kept."""
    diffs, names = differences()
    per_region = 8 * diffs.shape[1] * N_SAMPLES
    draws = DirichletWeights(diffs.shape[0], N_SAMPLES, 7)
    tight = PairPosteriors(
        diffs, draws, SharedPrior(), names=names, cache_bytes=4 * per_region
    )
    roomy = engine(diffs, names)
    assert tight.fits("idp", 0.01) and tight.fits("point", 0.0)
    assert not tight.fits("point", 0.01)
    for setting in SETTINGS:
        assert_same(tight.probabilities(*setting), roomy.probabilities(*setting))
        kept = sum(a.nbytes for a in tight._cache.values())
        assert kept <= tight.cache_bytes
        assert ("cross", 0.01) not in tight._cache
        prior, s, rope, _ = setting
        shown = tight.result(1, prior, s, rope, 0.95, names[1])
        assert shown == roomy.result(1, prior, s, rope, 0.95, names[1])

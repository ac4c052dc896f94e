"""Bayesian signed-rank test: Benavoli et al. (2014) Theorems 2–4, kernel, decisions."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import nbstats
from nbstats.stats.bayes.priors import IDP_DEFAULT_S
from nbstats.stats.bayes.signrank.one_pair import (
    SignedRankPosterior,
    posterior_means,
    shared_components,
)
from nbstats.stats.bayes.signrank.walsh import WalshBatch, WalshPlan
from nbstats.stats.bayes.weights import DirichletWeights


def H(x):
    return np.heaviside(x, 0.5)


def brute_walsh(z):
    """Sum_i Sum_j H(z_i + z_j) + Sum_i H(2 z_i), the numerator of eqs. (4), (6)."""
    z = np.asarray(z, dtype=float)
    return H(z[:, None] + z[None, :]).sum() + H(2 * z).sum()


def data(seed, n=25, shift=0.3, decimals=None):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    b = a + shift + rng.normal(size=n)
    if decimals is not None:
        a, b = np.round(a, decimals), np.round(b, decimals)
    return a, b


@pytest.mark.parametrize("decimals", [None, 1])
def test_bb_posterior_mean_is_formula_4_and_wilcoxon_r_plus(decimals):
    a, b = data(0, decimals=decimals)
    z = b - a
    n = z.size
    mean = nbstats.bayes_signrank(
        a, b, prior="bb", n_samples=2000, random_state=0
    ).posterior_mean
    assert mean == pytest.approx(brute_walsh(z) / (n * (n + 1)), abs=1e-12)
    # = R+ / (n(n+1)/2) with midranks and zeros split (Theorem 2's remark)
    r_plus = nbstats.wilcoxon(a, b, zero_method="zsplit").r_plus
    assert mean == pytest.approx(r_plus / (n * (n + 1) / 2), abs=1e-12)


@pytest.mark.parametrize("s", [IDP_DEFAULT_S, 1.0, 3.0])
def test_idp_posterior_means_are_formulas_6_and_7(s):
    a, b = data(1, n=17, decimals=1)
    z = b - a
    n = z.size
    res = nbstats.bayes_signrank(a, b, prior="idp", s=s, n_samples=2000, random_state=0)
    denominator = (s + n) * (s + n + 1)
    assert res.posterior_mean_lower == pytest.approx(
        brute_walsh(z) / denominator, abs=1e-12
    )
    assert res.posterior_mean_upper == pytest.approx(
        (brute_walsh(z) + s * s + 2 * n * s + s) / denominator, abs=1e-12
    )


def test_idp_default_s_halves_the_imprecision_after_one_observation():
    s = IDP_DEFAULT_S
    assert s == pytest.approx((math.sqrt(17) - 3) / 2)
    assert (s * s + 3 * s) / ((s + 1) * (s + 2)) == pytest.approx(0.5)
    low, high = posterior_means(np.array([0.3]), "idp", s)
    assert high - low == pytest.approx(0.5)


@pytest.mark.parametrize("z0", [-0.5, 0.0, 0.2])
def test_point_prior_mean_by_brute_force(z0):
    a, b = data(2, n=12, decimals=1)
    z = np.concatenate([[z0], b - a])
    s, n = 0.5, 12
    weights = np.array([s] + [1.0] * n)
    alpha = weights.sum()
    # E[w_i w_j] = (a_i a_j + delta_ij a_i) / (alpha (alpha + 1))
    moments = (np.outer(weights, weights) + np.diag(weights)) / (alpha * (alpha + 1))
    expected = np.sum(moments * H(z[:, None] + z[None, :]))
    res = nbstats.bayes_signrank(
        a, b, prior="point", s=s, prior_at=z0, n_samples=2000, random_state=0
    )
    assert res.posterior_mean == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("prior", ["bb", "point", "idp"])
def test_monte_carlo_mean_agrees_with_exact_mean(prior):
    a, b = data(3, n=30)
    res = nbstats.bayes_signrank(a, b, prior=prior, random_state=5)
    for draws, exact in [
        (res.samples_lower, res.posterior_mean_lower),
        (res.samples_upper, res.posterior_mean_upper),
    ]:
        se = draws.std() / np.sqrt(draws.size)
        assert abs(draws.mean() - exact) < 4 * se


def test_fast_kernel_equals_the_n_squared_definition():
    rng = np.random.default_rng(0)
    for trial in range(50):
        n = int(rng.integers(1, 15))
        z = rng.integers(-3, 4, n) * 0.01 if trial % 2 else rng.normal(size=n)
        c = float(rng.choice([0.0, 0.02, 0.01]))
        x = float(rng.choice([0.0, 0.01, -0.02, 0.5]))
        e = rng.standard_exponential((7, n))
        plan = WalshPlan.build(z)
        regions = [plan.region(+1, c), plan.region(-1, c)]
        points = [[plan.point_index(x, region) for region in regions]]
        batch = WalshBatch.build([plan], [regions], points)
        total, quad, cross = batch.evaluate(e[:, plan.order])
        np.testing.assert_allclose(total, e.sum(axis=1), rtol=1e-12)
        for q, sign in enumerate((+1, -1)):
            slow = np.einsum(
                "si,sj,ij->s", e, e, H(sign * (z[:, None] + z[None, :]) - c)
            )
            np.testing.assert_allclose(quad[0, q], slow, rtol=1e-12, atol=1e-12)
            slow_cross = e @ H(sign * (x + z) - c)
            np.testing.assert_allclose(cross[0, q], slow_cross, rtol=1e-12, atol=1e-12)
            assert plan.count(regions[q]) == pytest.approx(
                H(sign * (z[:, None] + z[None, :]) - c).sum(), abs=1e-9
            )


def test_batch_of_plans_with_permutation_equals_each_plan_alone():
    rng = np.random.default_rng(1)
    n = 12
    zs = [np.round(rng.normal(size=n), 1) for _ in range(4)]
    e = rng.standard_exponential((9, n))
    plans = [WalshPlan.build(z) for z in zs]
    regions = [[plan.region(+1, 0.0)] for plan in plans]
    points = [
        [plan.point_index(0.0, r[0])] for plan, r in zip(plans, regions, strict=True)
    ]
    batch = WalshBatch.build(plans, regions, points, permute=True)
    total, quad, cross = batch.evaluate(e)
    np.testing.assert_allclose(total, e.sum(axis=1), rtol=1e-12)
    for k, z in enumerate(zs):
        slow = np.einsum("si,sj,ij->s", e, e, H(z[:, None] + z[None, :]))
        np.testing.assert_allclose(quad[k, 0], slow, rtol=1e-12)
        np.testing.assert_allclose(cross[k, 0], e @ H(z), rtol=1e-12)


def test_batch_rejects_plans_with_different_region_signs():
    plan = WalshPlan.build(np.array([0.1, -0.2]))
    with pytest.raises(ValueError, match="same region signs"):
        WalshBatch.build([plan, plan], [[plan.region(+1)], [plan.region(-1)]])


def test_lower_point_upper_ordering_holds_draw_by_draw():
    a, b = data(4, n=20, shift=0.2)
    lower = nbstats.bayes_signrank(a, b, prior="idp", s=1.0, random_state=3)
    for z0 in (-10.0, -0.1, 0.0, 0.4, 10.0):
        point = nbstats.bayes_signrank(
            a, b, prior="point", s=1.0, prior_at=z0, random_state=3
        )
        assert lower.prob_lower <= point.prob_right <= lower.prob_upper
        assert np.all(lower.samples_lower <= point.samples + 1e-12)
        assert np.all(point.samples <= lower.samples_upper + 1e-12)


def test_idp_indeterminate_between_lower_and_upper():
    a, b = data(6, n=20, shift=0.35)
    res = nbstats.bayes_signrank(a, b, prior="idp", random_state=0)
    assert res.prob_lower < res.prob_upper
    middle = (res.prob_lower + res.prob_upper) / 2
    assert nbstats.bayes_signrank(a, b, threshold=middle, random_state=0).decision == (
        "indeterminate"
    )
    below = nbstats.bayes_signrank(a, b, threshold=res.prob_lower / 2, random_state=0)
    assert below.decision == "b"
    above = nbstats.bayes_signrank(
        a, b, threshold=min(0.999, res.prob_upper + 0.001), random_state=0
    )
    assert above.decision == "undecided"


def test_raising_the_loss_ratio_turns_b_into_undecided():
    a, b = data(8, n=20, shift=0.4)
    p = nbstats.bayes_signrank(a, b, prior="bb", random_state=0).prob_right
    assert 0.5 < p < 0.999
    assert (
        nbstats.bayes_signrank(a, b, prior="bb", loss=(1, 1), random_state=0).decision
        == "b"
    )
    assert (
        nbstats.bayes_signrank(
            a, b, prior="bb", loss=(1, 1999), random_state=0
        ).decision
        == "undecided"  # no evidence that b is better: not "a is better"
    )


def test_s_sweep_is_smooth_with_common_random_numbers():
    a, b = data(9, n=25, shift=0.25)
    grid = np.geomspace(0.1, 10, 50)
    probs = np.array(
        [
            nbstats.bayes_signrank(a, b, prior="idp", s=s, random_state=1).prob_upper
            for s in grid
        ]
    )
    # the upper probability grows with s (a wider prior set) without MC jitter
    assert np.all(np.diff(probs) >= -1e-12)
    gaps = [
        nbstats.bayes_signrank(a, b, prior="idp", s=s, random_state=1)
        for s in grid[::10]
    ]
    widths = [g.prob_upper - g.prob_lower for g in gaps]
    assert np.all(np.diff(widths) >= -1e-12)


def test_same_seed_same_draws():
    a, b = data(10)
    first = nbstats.bayes_signrank(a, b, random_state=11)
    second = nbstats.bayes_signrank(a, b, random_state=11)
    assert np.array_equal(first.samples_upper, second.samples_upper)
    assert first.prob_right == second.prob_right


def test_credible_interval_and_two_sided_decision():
    a, b = data(12, n=40, shift=1.0)
    res = nbstats.bayes_signrank(a, b, prior="bb", random_state=0)
    low, high = res.credible_interval
    assert low == pytest.approx(np.quantile(res.samples, 0.025))
    assert high == pytest.approx(np.quantile(res.samples, 0.975))
    assert res.differs
    same = nbstats.bayes_signrank(
        a, a + np.random.default_rng(1).normal(0, 0.1, 40), prior="bb"
    )
    assert not same.differs


def test_all_zero_differences_give_no_evidence_either_way():
    a = np.linspace(0, 1, 10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for prior in ("bb", "point"):
            res = nbstats.bayes_signrank(a, a.copy(), prior=prior, random_state=0)
            assert res.prob_right == 0.0
            assert res.prob_left == 0.0
            assert res.posterior_mean == pytest.approx(0.5)


def test_memory_stays_bounded_for_many_cases():
    rng = np.random.default_rng(0)
    a = rng.normal(size=100_000)
    res = nbstats.bayes_signrank(
        a,
        a + 0.01 + rng.normal(size=a.size),
        prior="bb",
        n_samples=1000,
        random_state=0,
    )
    assert res.prob_right > 0.99


def test_rope_regions_sum_to_one_and_match_brute_force():
    a, b = data(13, n=12, decimals=2)
    res = nbstats.bayes_signrank(a, b, prior="point", rope=0.05, random_state=0)
    assert res.prob_left + res.prob_rope + res.prob_right == pytest.approx(1.0)
    # brute force on numpy Dirichlet draws, the n x n way (as baycomp does)
    z = np.concatenate([[0.0], b - a])
    weights = np.random.default_rng(2).dirichlet([0.5] + [1.0] * 12, 100_000)
    sums = z[:, None] + z[None, :]
    right = np.einsum("si,sj,ij->s", weights, weights, H(sums - 0.1))
    left = np.einsum("si,sj,ij->s", weights, weights, H(-sums - 0.1))
    winners = np.argmax(np.column_stack([left, 1 - left - right, right]), axis=1)
    expected = np.bincount(winners, minlength=3) / winners.size
    got = np.array([res.prob_left, res.prob_rope, res.prob_right])
    se = np.sqrt(expected * (1 - expected) * (1 / 50_000 + 1 / 100_000))
    assert np.all(np.abs(got - expected) < 4 * se + 1e-12)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"prior": "jeffreys"}, ValueError, "unknown prior='jeffreys'"),
        ({"prior": "bb", "s": 1.0}, ValueError, "s → 0 limit"),
        ({"prior": "idp", "s": 0}, ValueError, "s must be a number > 0"),
        ({"prior": "point", "s": -1}, ValueError, "s must be a number > 0"),
        ({"prior": "idp", "prior_at": 1.0}, ValueError, "prior_at places"),
        ({"rope": -0.01}, ValueError, "rope"),
        ({"threshold": 0}, ValueError, "threshold"),
        ({"loss": (0, 1)}, ValueError, "loss must be a pair"),
        ({"threshold": "0.1"}, TypeError, "threshold must be a number"),
        ({"loss": "high"}, TypeError, "loss must be a pair"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    a, b = data(0, n=8)
    with pytest.raises(error, match=match):
        nbstats.bayes_signrank(a, b, **kwargs)


def test_accessor_mirrors_function():
    table = nbstats.datasets.load("uci_accuracy")
    got = table.compare.bayes_signrank(
        "nbc", "aode", prior="point", rope=0.01, random_state=0
    )
    want = nbstats.bayes_signrank(
        table["nbc"], table["aode"], prior="point", rope=0.01, random_state=0
    )
    assert got == want


def test_results_render():
    table = nbstats.datasets.load("uci_accuracy")
    for prior in ("idp", "bb", "point"):
        res = nbstats.bayes_signrank(
            table["nbc"], table["j48"], prior=prior, rope=0.01, random_state=0
        )
        assert "nbc" in res.summary()
        assert "j48" in res._repr_html_()
        assert r"\toprule" in res.to_latex()
        assert res.to_frame().shape[0] == 1


@pytest.mark.parametrize("prior", ["idp", "point"])
def test_shared_components_equal_the_definition_for_every_posterior(prior):
    rng = np.random.default_rng(8)
    n = 15
    zs = [np.round(rng.normal(0.1 * k, 1.0, n), 1) for k in range(4)]
    ropes = [0.1, 0.05, 0.2, 0.1]
    posteriors = [
        SignedRankPosterior(z, prior, 0.0, rope)
        for z, rope in zip(zs, ropes, strict=True)
    ]
    draws = DirichletWeights(n, 3000, random_state=1)
    outs = shared_components(posteriors, draws)
    e = np.vstack([chunk.exponentials for chunk in draws])
    for z, rope, out in zip(zs, ropes, outs, strict=True):
        zs_sorted = np.sort(z)  # each posterior's weights go to its sorted z
        walsh = zs_sorted[:, None] + zs_sorted[None, :]
        for key, h in [
            ("theta", H(walsh)),
            ("right", H(walsh - 2 * rope)),
            ("left", H(-walsh - 2 * rope)),
        ]:
            expected = np.einsum("si,sj,ij->s", e, e, h)
            np.testing.assert_allclose(out[f"quad_{key}"], expected, rtol=1e-10)
            if prior == "point":
                sign = -1 if key == "left" else 1
                c = 0.0 if key == "theta" else 2 * rope
                np.testing.assert_allclose(
                    out[f"cross_{key}"], e @ H(sign * zs_sorted - c), rtol=1e-10
                )
        np.testing.assert_allclose(out["total"], e.sum(axis=1), rtol=1e-12)


def test_shared_components_refuse_mixed_priors_or_regions():
    z = np.array([0.1, -0.2, 0.3])
    draws = DirichletWeights(3, 1000, random_state=0)
    with pytest.raises(ValueError, match="same prior"):
        shared_components(
            [
                SignedRankPosterior(z, "idp", 0.0, 0.0),
                SignedRankPosterior(z, "bb", 0.0, 0.0),
            ],
            draws,
        )
    with pytest.raises(ValueError, match="same regions"):
        shared_components(
            [
                SignedRankPosterior(z, "bb", 0.0, 0.1),
                SignedRankPosterior(z, "bb", 0.0, 0.0),
            ],
            draws,
        )


@pytest.mark.parametrize("prior", ["idp", "point", "bb"])
@pytest.mark.parametrize("rope", [0.0, 0.1])
def test_combine_equals_the_definition_with_the_pseudo_observation(prior, rope):
    """θ and the rope regions from the full weight vector (prior's weight first).

    IDP's lower / upper posteriors put the pseudo-observation at -∞ / +∞;
    ±1e9 stands in for them here.
    """
    rng = np.random.default_rng(11)
    z = np.round(rng.normal(0.05, 0.2, 12), 1)
    s = 0.7 if prior != "bb" else 0.0
    z0 = 0.1 if prior == "point" else 0.0
    posterior = SignedRankPosterior(z, prior, z0, rope)
    draws = DirichletWeights(z.size, 2000, random_state=4)
    out = posterior.combine(posterior.components(draws), s)
    e = np.vstack([chunk.exponentials for chunk in draws])
    g0 = np.concatenate([chunk.prior_gamma(s) for chunk in draws])
    zs = np.sort(z)  # components give each draw's weights to z in sorted order
    places = {"point": {"": z0}, "bb": {"": 0.0}, "idp": {"": -1e9, "_upper": 1e9}}
    for suffix, x in places[prior].items():
        augmented = np.concatenate([[x], zs])
        weights = np.column_stack([g0, e])
        weights /= weights.sum(axis=1, keepdims=True)
        walsh = augmented[:, None] + augmented[None, :]
        regions = {"theta": H(walsh)}
        if rope:
            regions |= {"right": H(walsh - 2 * rope), "left": H(-walsh - 2 * rope)}
        for key, h in regions.items():
            expected = np.einsum("si,sj,ij->s", weights, weights, h)
            np.testing.assert_allclose(out[key + suffix], expected, atol=1e-12)


def test_probabilities_equal_numpy_counts():
    from nbstats.stats.bayes.decision import region_shares

    a, b = data(9, n=25, shift=0.1)
    res = nbstats.bayes_signrank(a, b, prior="idp", rope=0.05, random_state=2)
    # region_samples: the posterior with the pseudo-observation at -∞, whose
    # left share is the upper P(a better)
    left, middle, right = res.region_samples.T
    assert res.prob_left_upper == region_shares(left, middle, right)[0]
    assert res.prob_lower == res.prob_right == res.prob_right_lower
    point = nbstats.bayes_signrank(a, b, prior="point", rope=0.05, random_state=2)
    left, middle, right = point.region_samples.T
    shares = (point.prob_left, point.prob_rope, point.prob_right)
    np.testing.assert_allclose(shares, region_shares(left, middle, right), atol=1e-15)
    plain = nbstats.bayes_signrank(a, b, prior="idp", random_state=2)
    assert plain.prob_lower == np.mean(plain.samples_lower > 0.5 + 1e-12)
    assert plain.prob_upper == np.mean(plain.samples_upper > 0.5 + 1e-12)
    assert plain.prob_left == np.mean(plain.samples_upper < 0.5 - 1e-12)


@pytest.mark.parametrize("prior", ["idp", "point"])
def test_known_theta_reused_for_a_new_rope_equals_a_fresh_computation(prior):
    rng = np.random.default_rng(12)
    zs = [np.round(rng.normal(0.05 * k, 0.3, 14), 2) for k in range(3)]
    draws = DirichletWeights(14, 2000, random_state=7)
    before = shared_components(
        [SignedRankPosterior(z, prior, 0.0, 0.05) for z in zs], draws
    )
    after = [SignedRankPosterior(z, prior, 0.0, 0.12) for z in zs]
    reused = shared_components(after, draws, known_theta=before)
    fresh = shared_components(after, draws)
    for ours, expected in zip(reused, fresh, strict=True):
        assert ours.keys() == expected.keys()
        for key in ours:
            np.testing.assert_array_equal(ours[key], expected[key])
    with pytest.raises(ValueError, match="known_theta"):
        shared_components(
            [SignedRankPosterior(zs[0], prior, 0.0, 0.0)], draws, known_theta=before[:1]
        )


@pytest.mark.parametrize("prior", ["idp", "point", "bb"])
def test_with_rope_and_known_theta_equal_a_fresh_posterior(prior):
    rng = np.random.default_rng(21)
    z = np.round(rng.normal(0.1, 0.3, 16), 2)
    s = 0.0 if prior == "bb" else 0.8
    draws = DirichletWeights(16, 3000, random_state=2)
    plain = SignedRankPosterior(z, prior, 0.0, 0.0)
    fresh = SignedRankPosterior(z, prior, 0.0, 0.07)
    derived = plain.with_rope(0.07)
    before = plain.result(draws, s=s, threshold=0.9, names=("a", "b"), interval=False)
    parts = derived.components(draws)
    np.testing.assert_array_equal(
        parts["quad_left"], fresh.components(draws)["quad_left"]
    )
    for interval in (False, True):
        expected = fresh.result(
            draws, s=s, threshold=0.9, names=("a", "b"), interval=interval
        )
        reused = derived.result(
            parts,
            s=s,
            threshold=0.9,
            names=("a", "b"),
            interval=interval,
            theta_draws=(before.samples_lower, before.samples_upper),
            weights=draws,  # IDP's bounds with a rope search the placements
        )
        for name in (
            "prob_left",
            "prob_rope",
            "prob_right",
            "prob_lower",
            "prob_upper",
        ):
            assert getattr(reused, name) == getattr(expected, name), name
        np.testing.assert_array_equal(reused.samples_upper, expected.samples_upper)
        assert reused.credible_interval == pytest.approx(
            expected.credible_interval, nan_ok=True
        )


def test_first_index_equals_a_scan_of_the_floating_point_sums():
    from nbstats.stats.bayes.signrank.walsh import first_index

    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(1, 30))
        # decimals such as 0.1 + 0.2 != 0.3: rounding right at the boundary
        zs = np.sort(rng.integers(-5, 6, n) * 0.1)
        xs = rng.integers(-5, 6, 7) * 0.1
        c = float(rng.choice([0.0, 0.3, 0.2, -0.1, 0.1 + 0.2]))
        for strict in (True, False):
            sums = xs[:, None] + zs[None, :]
            holds = sums > c if strict else sums >= c
            expected = np.where(holds.any(axis=1), holds.argmax(axis=1), n)
            got = first_index(xs, zs, c, strict=strict)
            np.testing.assert_array_equal(got, expected)

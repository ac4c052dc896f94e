"""One stream of Dirichlet weights over every case, restricted to each pair's
cases (nbstats.stats.bayes.signrank.shared_draws): the law of a standalone test, the
renormalised sub-vector, and the pairs table against a brute force on it."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import nbstats
from nbstats.stats.bayes.canonical import flipped_many, layout
from nbstats.stats.bayes.precision import batch_seed
from nbstats.stats.bayes.signrank.shared_draws import SharedDraws
from nbstats.stats.bayes.weights import DirichletWeights, gamma_quantile
from nbstats.util.random import seed_sequence


def _table(seed: int = 3, m: int = 4, n: int = 15) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(n, m)) * 0.02 + np.linspace(0.7, 0.74, m)
    values[rng.random(size=values.shape) < 0.15] = np.nan
    return pd.DataFrame(values, columns=list("abcd")[:m])


def _restricted(n_all, n_samples, seed, cases, s):
    """(w0, w) of the stream over all cases restricted to ``cases`` and
    renormalised, computed here from the stream's raw Gamma variates."""
    (full,) = DirichletWeights(n_all, n_samples, seed).blocks()
    g0 = gamma_quantile(s, full.uniforms)
    e = full.exponentials[:, cases]
    total = g0 + e.sum(axis=1)
    return g0 / total, e / total[:, None]


def _theta(w0, w, d, z0):
    """θ per draw by brute force: Σ_ij w_i w_j H(d_i + d_j), with the
    pseudo-observation at z0 (±inf: the near-ignorance bounds)."""
    h = np.heaviside(d[:, None] + d[None, :], 0.5)
    quad = np.einsum("ri,ij,rj->r", w, h, w)
    if z0 == -np.inf:
        return quad
    if z0 == np.inf:
        return quad + w0 * (2 - w0)
    cross = w @ np.heaviside(z0 + d, 0.5)
    return quad + 2 * w0 * cross + w0**2 * np.heaviside(2 * z0, 0.5)


@settings(max_examples=40, deadline=None)
@given(
    n_all=st.integers(1, 25),
    n_samples=st.integers(1, 200),
    seed=st.integers(0, 2**32),
    s=st.sampled_from([0.0, 0.5, 1.0, 2.5]),
    data=st.data(),
)
def test_restricted_weights_are_the_renormalised_sub_vector(
    n_all, n_samples, seed, s, data
):
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=n_all, max_size=n_all)))
    if not mask.any():
        mask[0] = True
    shared = SharedDraws(n_all, n_samples, seed)
    (chunk,) = shared.restrict(mask).blocks()
    w0, w = chunk.weights(s)
    want0, want = _restricted(n_all, n_samples, seed, np.flatnonzero(mask), s)
    np.testing.assert_allclose(w0, want0, rtol=1e-14, atol=0)
    np.testing.assert_allclose(w, want, rtol=1e-14, atol=0)
    # the sub-vector and the prior's weight are a distribution
    np.testing.assert_allclose(w0 + w.sum(axis=1), 1.0, rtol=1e-13)


@pytest.mark.parametrize("s", [0.0, 1.0, 2.5])
def test_restricted_weights_have_the_moments_of_dirichlet_on_the_subset(s):
    # Dir(s, 1, ..., 1) on n_S + 1 components: E w_i = 1/(n_S + s),
    # Var w_i = (n_S + s - 1) / ((n_S + s)^2 (n_S + s + 1)); E w0 = s/(n_S + s)
    n_all, n_draws = 12, 100_000
    cases = np.array([0, 2, 3, 7, 8, 10, 11])
    w0, w = _restricted(n_all, n_draws, 5, cases, s)
    np.testing.assert_allclose(w0 + w.sum(axis=1), 1.0, rtol=1e-13)
    shared = SharedDraws(n_all, n_draws, 5)
    (chunk,) = shared.restrict(cases).blocks()
    got0, got = chunk.weights(s)
    a = cases.size + s
    mean, var = 1 / a, (a - 1) / (a**2 * (a + 1))
    tolerance = 5 * np.sqrt(var / n_draws)  # 5 Monte Carlo standard errors
    assert np.all(np.abs(got.mean(axis=0) - mean) < tolerance)
    assert np.all(np.abs(got.var(axis=0) / var - 1) < 0.05)
    if s > 0:
        var0 = s * (a - s) / (a**2 * (a + 1))
        assert abs(got0.mean() - s / a) < 5 * np.sqrt(var0 / n_draws)
    else:
        assert np.all(got0 == 0)
    np.testing.assert_allclose(got, w, rtol=1e-14)


@pytest.mark.parametrize("joint", [True, False])
@pytest.mark.parametrize("prior", ["bb", "point", "idp"])
def test_pairs_table_is_the_brute_force_on_the_restricted_stream(prior, joint):
    # joint=True: weight i stays with case i in every pair; False: each pair
    # takes its cases' weights (in the stream's order) in its own sorted order
    table = _table()
    n_samples, seed = 2000, 7
    res = nbstats.bayes_signrank_pairs(
        table, prior=prior, n_samples=n_samples, random_state=seed,
        nan_policy="pairwise", interval=False, joint=joint,
    )  # fmt: skip
    s = res.s
    values = table.to_numpy()
    # the stream's case k is the k-th row of the canonical layout
    position = np.argsort(layout(values, list(table.columns))[0])
    for row in res.pairs.itertuples():
        a, b = table.columns.get_loc(row.a), table.columns.get_loc(row.b)
        cases = np.flatnonzero(~np.isnan(values[:, a]) & ~np.isnan(values[:, b]))
        d = values[cases, b] - values[cases, a]
        if joint:
            w0, w = _restricted(
                len(table), n_samples, seed_sequence(seed), position[cases], s
            )
        else:
            w0, sub = _restricted(
                len(table), n_samples, seed_sequence(seed), np.sort(position[cases]), s
            )
            # the j-th weight to the j-th smallest difference, in the pair's
            # canonical orientation
            flip = flipped_many(d[:, None], [(row.a, row.b)])[0]
            order = np.argsort(-d if flip else d, kind="stable")
            w = np.empty_like(sub)
            w[:, order] = sub
        if prior == "idp":
            low, high = _theta(w0, w, d, -np.inf), _theta(w0, w, d, np.inf)
        else:
            low = high = _theta(w0, w, d, 0.0)
        # lower probabilities: b better for every prior, a better for every prior
        right, left = np.mean(low > 0.5), np.mean(high < 0.5)
        assert abs(row.prob_right - right) <= 1 / n_samples
        assert abs(row.prob_left - left) <= 1 / n_samples
        assert row.n == cases.size


@pytest.mark.parametrize("prior", ["bb", "idp"])
def test_a_pair_with_holes_has_the_law_of_the_standalone_test(prior):
    """Same law, other draws: the pairs table's pair and bayes_signrank on its
    cases agree within Monte Carlo error, and the θ draws of the restricted
    stream pass a two-sample KS test against the standalone test's."""
    table = _table(seed=11, n=20)
    a, b = "b", "c"
    cases = np.flatnonzero(table[[a, b]].notna().all(axis=1).to_numpy())
    assert 0 < cases.size < len(table)  # a pair with holes
    n_samples = 40_000
    res = nbstats.bayes_signrank_pairs(
        table, prior=prior, n_samples=n_samples, random_state=1,
        nan_policy="pairwise", interval=False,
    )  # fmt: skip
    row = res.pairs.set_index(["a", "b"]).loc[(a, b)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dropped cases
        alone = nbstats.bayes_signrank(
            table[a], table[b], prior=prior, n_samples=n_samples,
            random_state=2, nan_policy="omit",
        )  # fmt: skip
    for key in ("prob_left", "prob_right"):
        p = 0.5 * (row[key] + getattr(alone, key))
        # two independent estimates: 5 standard errors of their difference
        assert abs(row[key] - getattr(alone, key)) <= 5 * np.sqrt(
            2 * max(p * (1 - p), 1e-4) / n_samples
        )
    # the θ draws of the shared stream restricted to the pair's cases
    d = (table[b] - table[a]).to_numpy()[cases]
    w0, w = _restricted(len(table), 20_000, seed_sequence(3), cases, res.s)
    theta = _theta(w0, w, d, -np.inf if prior == "idp" else 0.0)
    standalone = alone.samples_lower if prior == "idp" else alone.samples
    assert stats.ks_2samp(theta, standalone).pvalue > 1e-3


def test_same_seed_same_table_and_batches_from_one_stream():
    table = _table()
    kw = dict(n_samples=1000, random_state=4, nan_policy="pairwise", mc_error=0.01)
    one = nbstats.bayes_signrank_pairs(table, **kw)
    two = nbstats.bayes_signrank_pairs(table, **kw)
    pd.testing.assert_frame_equal(one.pairs, two.pairs)
    # a later batch is the stream over every case of its own seed
    seed = seed_sequence(4)
    (full,) = DirichletWeights(len(table), 1000, batch_seed(seed, 1)).blocks()
    (chunk,) = (
        SharedDraws(len(table), 1000, batch_seed(seed, 1))
        .restrict(np.array([1, 4]))
        .blocks()
    )
    np.testing.assert_array_equal(chunk.exponentials, full.exponentials[:, [1, 4]])


@pytest.mark.parametrize("joint", [True, False])
def test_same_numbers_whatever_the_order_of_rows_and_columns(joint):
    table = _table(seed=5, n=18)
    kw = dict(n_samples=1500, random_state=9, nan_policy="pairwise", mc_error=0.01)
    kw["joint"] = joint
    one = nbstats.bayes_signrank_pairs(table, **kw)
    shuffled = table.iloc[np.random.default_rng(0).permutation(len(table))]
    two = nbstats.bayes_signrank_pairs(shuffled[["c", "a", "d", "b"]], **kw)
    cols = ["prob_left", "prob_right", "draws", "n"]
    first = one.pairs.set_index(["a", "b"])[cols]
    for (a, b), row in two.pairs.set_index(["a", "b"])[cols].iterrows():
        if (a, b) in first.index:
            want = first.loc[(a, b)]
        else:  # the mirrored pair: left and right swap
            want = first.loc[(b, a)].rename(
                {"prob_left": "prob_right", "prob_right": "prob_left"}
            )
        pd.testing.assert_series_equal(row, want[cols], check_names=False)


@pytest.mark.parametrize("joint", [True, False])
def test_draws_kept_or_generated_chunk_by_chunk_give_the_same_table(monkeypatch, joint):
    # within the budget the stream is laid out block by block once; beyond
    # it, generated chunk by chunk for every set of cases: the same numbers
    from nbstats.util import memory

    table = _table(seed=12, n=16)
    # 9,000 draws: more than one chunk of the generator (chunk_rows 7,710)
    kw = dict(n_samples=9000, random_state=5, nan_policy="pairwise", rope=0.01)
    kept = nbstats.bayes_signrank_pairs(table, joint=joint, **kw)
    # joint=True keeps its codes within the default share: only the stream's
    # layout (a quarter of the ceiling) is refused there
    small = (
        (lambda share=0.125: 10_000 if share >= 0.25 else 2**30)
        if joint
        else (lambda share=0.125: 10_000)
    )
    monkeypatch.setattr(memory, "budget", small)
    chunked = nbstats.bayes_signrank_pairs(table, joint=joint, **kw)
    pd.testing.assert_frame_equal(kept.pairs, chunked.pairs)

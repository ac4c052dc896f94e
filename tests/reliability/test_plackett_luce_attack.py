"""The Bayesian Plackett–Luce model under attack (issue 34, findings 1–3).

1. Small priors crashed the sampler (``ZeroDivisionError`` in the latent
   step: ``standard_gamma(m * prior)`` underflowed to 0), and worths exactly
   equal in a draw (prior 1e50) were ordered by column: P(best) [1, 0, 0].
   The sampler now works with log worths: over the documented priors
   [1e-300, 1e300] every draw is finite and sums to 1; exchangeable data
   give every algorithm the same P(best); two algorithms match the Beta
   posterior in closed form.
2. An algorithm never scored (``nan_policy="partial"``) got P(best) 0.314,
   and groups never compared got P(A above C) from the prior alone. Both are
   refused, with the names and the fix.
3. The draws were not bounded (1.16 GB at 10^6 draws × 10 algorithms, numpy's
   "Unable to allocate 21.8 TiB" at 10^12). A number of draws over the memory
   ceiling is refused up front with the largest that fits, and a call at
   that size stays under the ceiling.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

import nbstats
from nbstats.stats.bayes.exponentials import sfc64_state
from nbstats.stats.bayes.gamma_variates import draw_log_gamma
from nbstats.stats.bayes.plackett_luce import comparison_groups
from nbstats.stats.bayes.plackett_luce_kernel import latent_rates

FAST = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
priors = st.floats(-6, 6).map(lambda e: 10.0**e)


def _coherent(res, m: int) -> None:
    """Finite worths that sum to 1 in every draw; probabilities that add up."""
    worths = res.worths
    assert worths.shape[1] == m
    assert np.all(np.isfinite(worths)) and np.all(worths >= 0)
    np.testing.assert_allclose(worths.sum(axis=1), 1.0, rtol=1e-12)
    assert res.prob_best.sum() == pytest.approx(1.0)
    above = res.prob_above.to_numpy()
    off = ~np.eye(m, dtype=bool)
    np.testing.assert_allclose((above + above.T)[off], 1.0)
    np.testing.assert_allclose(res.expected_rank, 1 + above.sum(axis=0))


# -- finding 1: numerically safe over the documented priors ------------------


def test_issue_reproducers_small_priors_no_longer_crash():
    for seed in range(10):
        rng = np.random.default_rng(seed)
        table = pd.DataFrame(rng.normal(size=(15, 2)))
        _coherent(nbstats.bayes_plackett_luce(table, s=0.005, random_state=seed), 2)
    table = pd.DataFrame(np.random.default_rng(0).normal(size=(6, 3)))
    _coherent(nbstats.bayes_plackett_luce(table, s=0.001, random_state=0), 3)


@FAST
@given(
    prior=priors,
    m=st.integers(2, 6),
    n=st.integers(2, 25),
    seed=st.integers(0, 2**31 - 1),
    tied=st.booleans(),
)
def test_every_prior_gives_finite_normalised_worths(prior, m, n, seed, tied):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 3, (n, m)) if tied else rng.normal(size=(n, m))
    res = nbstats.bayes_plackett_luce(
        pd.DataFrame(values.astype(float)), s=prior, n_samples=400, random_state=0
    )
    _coherent(res, m)


@pytest.mark.parametrize("prior", [1e-300, 1e-100, 1e100, 1e300])
def test_the_ends_of_the_prior_range_run(prior):
    table = pd.DataFrame(np.random.default_rng(1).normal(size=(6, 3)))
    _coherent(nbstats.bayes_plackett_luce(table, s=prior, random_state=0), 3)


@pytest.mark.parametrize("prior", [1e-301, 1e301, 0.0, -1.0, float("inf")])
def test_priors_beyond_the_range_are_refused(prior):
    table = pd.DataFrame(np.random.default_rng(1).normal(size=(6, 3)))
    with pytest.raises(ValueError, match="s must"):
        nbstats.bayes_plackett_luce(table, s=prior)


@FAST
@given(prior=priors, m=st.integers(2, 5), n=st.integers(2, 12))
def test_exchangeable_data_give_every_algorithm_the_same_p_best(prior, m, n):
    """All scores tied: P(best) = 1/m each, within Monte Carlo error — unless
    R̂ says the chains did not mix (which happens at tiny priors, where each
    chain can stay with one dominant algorithm)."""
    res = nbstats.bayes_plackett_luce(
        pd.DataFrame(np.ones((n, m))), s=prior, n_samples=2000, random_state=3
    )
    _coherent(res, m)
    if res.max_rhat > 1.01:
        return  # flagged: the report says the chains do not agree
    error = res.ranking["prob_best_mc_error"].to_numpy()
    assert np.all(np.abs(res.prob_best.to_numpy() - 1 / m) <= 5 * error + 0.01)


@pytest.mark.parametrize("prior", [1e50, 1e300])
def test_exactly_equal_worths_are_ordered_at_random_not_by_column(prior):
    table = pd.DataFrame(
        np.random.default_rng(0).normal(size=(6, 3)), columns=["x", "y", "z"]
    )
    res = nbstats.bayes_plackett_luce(table, s=prior, random_state=0)
    assert np.all(res.worths == res.worths[0, 0])  # exact ties in every draw
    error = res.ranking["prob_best_mc_error"].to_numpy()
    assert np.all(error > 0)
    assert np.all(np.abs(res.prob_best.to_numpy() - 1 / 3) <= 5 * error)
    np.testing.assert_allclose(res.ranking["expected_rank"], 2.0, atol=0.05)
    above = res.prob_above.to_numpy()[~np.eye(3, dtype=bool)]
    np.testing.assert_allclose(above, 0.5, atol=0.03)
    # the tie-breaking does not depend on the order of the columns either
    flipped = nbstats.bayes_plackett_luce(table.iloc[:, ::-1], s=prior, random_state=0)
    pd.testing.assert_frame_equal(flipped.ranking.loc[table.columns], res.ranking)


@FAST
@given(
    prior=priors,
    wins=st.integers(0, 15),
    losses=st.integers(0, 15),
)
def test_two_algorithms_match_the_beta_posterior(prior, wins, losses):
    """m = 2: w_A / (w_A + w_B) given the wins is Beta(α + wins, α + losses)."""
    losses = max(losses, 2 - wins)  # two cases at least
    rows = [[1.0, 0.0]] * wins + [[0.0, 1.0]] * losses
    res = nbstats.bayes_plackett_luce(
        pd.DataFrame(rows, columns=["A", "B"]),
        s=prior,
        n_samples=4000,
        random_state=0,
    )
    posterior = stats.beta(prior + wins, prior + losses)
    exact = posterior.sf(0.5)
    above = res.prob_above.loc["A", "B"]
    ess = res.n_samples  # m = 2: every draw is independent of the last
    assert abs(above - exact) <= 5 * np.sqrt(exact * (1 - exact) / ess) + 2e-3
    mean = posterior.mean()
    assert res.ranking.loc["A", "worth"] == pytest.approx(
        mean, abs=5 * posterior.std() / np.sqrt(ess) + 1e-9
    )


def _reference_log_sums(order, log_worths, exponentials, n_ranked):
    """The latent step in plain numpy, with logs throughout."""
    chains, cases, _ = order.shape
    m = log_worths.shape[1]
    log_sums = np.full((chains, m), -np.inf)
    counts = np.zeros((chains, m))
    for c in range(chains):
        for i in range(cases):
            k = n_ranked[i]
            algorithms = order[c, i, :k]
            tails = np.logaddexp.accumulate(log_worths[c, algorithms][::-1])[::-1]
            steps = np.log(exponentials[c, i, : k - 1]) - tails[: k - 1]
            running = np.logaddexp.accumulate(steps)
            for r, j in enumerate(algorithms):
                log_sums[c, j] = np.logaddexp(log_sums[c, j], running[min(r, k - 2)])
                counts[c, j] += r < k - 1
    return log_sums, counts


@FAST
@given(
    seed=st.integers(0, 2**31 - 1),
    spread=st.sampled_from([1.0, 100.0, 1e4, 1e250]),
    m=st.integers(2, 6),
)
def test_latent_step_agrees_with_plain_numpy_at_every_spread(seed, spread, m):
    """The kernel's linear pass (worths within e^600 of each other) and its
    log pass (wider) both give the exposures of the plain log-domain sums."""
    rng = np.random.default_rng(seed)
    chains, cases = 2, 5
    n_ranked = rng.integers(2, m + 1, cases)
    order = np.full((chains, cases, m), m, dtype=np.int64)
    for c in range(chains):
        for i in range(cases):
            order[c, i, : n_ranked[i]] = rng.permutation(m)[: n_ranked[i]]
    log_worths = -spread * rng.random((chains, m))
    exponentials = rng.standard_exponential((chains, cases, m))
    log_sums = np.full((chains, m), -np.inf)
    counts = np.zeros((chains, m))
    for c in range(chains):  # the kernel takes one chain
        latent_rates(
            order[c], log_worths[c], exponentials[c], n_ranked, log_sums[c], counts[c]
        )
    want_sums, want_counts = _reference_log_sums(
        order, log_worths, exponentials, n_ranked
    )
    np.testing.assert_array_equal(counts, want_counts)
    finite = np.isfinite(want_sums)
    np.testing.assert_array_equal(np.isfinite(log_sums), finite)
    np.testing.assert_allclose(
        log_sums[finite], want_sums[finite], rtol=1e-12, atol=1e-9
    )


def test_log_gamma_matches_the_gamma_distribution_at_small_shapes():
    state = sfc64_state(np.random.SeedSequence(0))
    for shape in (1e-3, 0.3, 2.0):
        draws = np.array([draw_log_gamma(state, shape) for _ in range(20_000)])
        assert np.all(np.isfinite(draws))
        # log G(a) for small a: compare its CDF with scipy's loggamma
        result = stats.kstest(draws, stats.loggamma(shape).cdf)
        assert result.pvalue > 1e-3, shape
    assert all(np.isfinite(draw_log_gamma(state, 1e-300)) for _ in range(100))


# -- finding 2: nothing from the prior alone ---------------------------------


def test_a_column_never_scored_is_refused_by_name():
    rng = np.random.default_rng(0)
    table = pd.DataFrame(rng.normal(size=(10, 4)), columns=list("ABCD"))
    table["E"] = np.nan
    with pytest.raises(
        ValueError, match=r"\{'E'\} has no case.*drop\(columns=\['E'\]\)"
    ):
        nbstats.bayes_plackett_luce(table, nan_policy="partial")


def test_an_algorithm_alone_on_its_cases_is_refused():
    table = pd.DataFrame({"A": [1.0, 2.0, 3.0, np.nan], "B": [2.0, 1.0, 0.0, np.nan]})
    table["C"] = [np.nan, np.nan, np.nan, 5.0]
    with pytest.raises(ValueError, match=r"\{'C'\} has no case"):
        nbstats.bayes_plackett_luce(table, nan_policy="partial")


@st.composite
def split_tables(draw):
    """Two or three groups of algorithms, each scored on its own cases."""
    sizes = draw(st.lists(st.integers(2, 3), min_size=2, max_size=3))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    m = sum(sizes)
    blocks = []
    start = 0
    for size in sizes:
        block = np.full((draw(st.integers(2, 6)), m), np.nan)
        block[:, start : start + size] = rng.normal(size=(len(block), size))
        blocks.append(block)
        start += size
    values = np.vstack(blocks)
    values = values[rng.permutation(len(values))][:, rng.permutation(m)]
    names = [f"alg{j}" for j in range(m)]
    return pd.DataFrame(values, columns=names), len(sizes)


@FAST
@given(split_tables())
def test_groups_never_compared_are_refused_with_their_names(case):
    table, n_groups = case
    observed = table.notna().to_numpy()
    assert comparison_groups(observed).max() + 1 == n_groups
    with pytest.raises(ValueError, match=f"fall into {n_groups} groups") as error:
        nbstats.bayes_plackett_luce(table, nan_policy="partial")
    message = str(error.value)
    assert all(repr(name) in message for name in table.columns[:6])
    assert "Analyse each group on its own" in message


def _groups_by_search(observed: np.ndarray) -> np.ndarray:
    """Connected groups by a plain breadth-first search (the oracle)."""
    m = observed.shape[1]
    linked = (observed.T.astype(int) @ observed.astype(int)) > 0
    labels = np.full(m, -1)
    group = 0
    for start in range(m):
        if labels[start] >= 0:
            continue
        queue = [start]
        labels[start] = group
        while queue:
            j = queue.pop()
            for k in np.flatnonzero(linked[j] & (labels < 0)):
                labels[k] = group
                queue.append(k)
        group += 1
    return labels


@FAST
@given(
    seed=st.integers(0, 2**31 - 1),
    n=st.integers(1, 12),
    m=st.integers(2, 9),
    p=st.floats(0.1, 0.6),
)
def test_comparison_groups_agree_with_a_graph_search(seed, n, m, p):
    rng = np.random.default_rng(seed)
    observed = rng.random((n, m)) < p
    np.testing.assert_array_equal(
        comparison_groups(observed), _groups_by_search(observed)
    )


def test_linked_groups_and_an_algorithm_that_always_loses_are_fine():
    """One case ranking A with C links the groups; E only ever loses (its
    maximum-likelihood worth is 0, but the posterior is proper)."""
    table = pd.DataFrame(
        {
            "A": [3.0, 2.0, np.nan, np.nan, 1.0],
            "B": [1.0, 3.0, np.nan, np.nan, np.nan],
            "C": [np.nan, np.nan, 2.0, 1.0, 2.0],
            "D": [np.nan, np.nan, 1.0, 3.0, np.nan],
            "E": [0.0, 0.0, 0.0, 0.0, 0.0],
        }
    )
    res = nbstats.bayes_plackett_luce(table, nan_policy="partial", random_state=0)
    _coherent(res, 5)
    assert res.prob_best["E"] < 0.01


def test_analyze_never_reaches_plackett_luce_with_groups_never_compared():
    table = pd.DataFrame(np.random.default_rng(0).normal(size=(10, 4)))
    table.iloc[:5, 2:] = np.nan
    table.iloc[5:, :2] = np.nan
    with (
        pytest.warns(UserWarning, match="dropped"),
        pytest.raises(ValueError, match="0 after dropping"),
    ):
        nbstats.analyze(table, nan_policy="omit")


# -- finding 3: memory bounded by the ceiling --------------------------------


def test_draws_over_the_ceiling_are_refused_with_what_fits():
    table = pd.DataFrame(np.random.default_rng(0).normal(size=(30, 4)))
    with pytest.raises(ValueError, match=r"at most n_samples=[\d,]+ fit") as error:
        nbstats.bayes_plackett_luce(table, n_samples=10**12)
    assert "memory ceiling" in str(error.value)


CHILD = textwrap.dedent(
    """
    import json, re, sys, threading, time, tracemalloc
    import numpy as np, pandas as pd, psutil
    import nbstats
    from nbstats.util.memory import get_memory_ceiling

    rng = np.random.default_rng(0)
    table = pd.DataFrame(rng.normal(size=(30, 100)) + np.linspace(0, 1, 100))
    nbstats.bayes_plackett_luce(table.iloc[:, :3], n_samples=400)  # kernels
    try:
        nbstats.bayes_plackett_luce(table, n_samples=10**9)
    except ValueError as error:
        most = int(re.search(r"at most n_samples=([\\d,]+)", str(error))
                   .group(1).replace(",", ""))
    try:
        nbstats.bayes_plackett_luce(table, n_samples=most + 4)
        over = "ran"
    except ValueError as error:
        over = str(error)
    process = psutil.Process()
    baseline = process.memory_info().rss
    during = [baseline]
    running = threading.Event()
    running.set()

    def poll():
        while running.is_set():
            during.append(process.memory_info().rss)
            time.sleep(0.002)

    watcher = threading.Thread(target=poll)
    watcher.start()
    tracemalloc.start()
    res = nbstats.bayes_plackett_luce(table, n_samples=most, random_state=0)
    traced = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    running.clear()
    watcher.join()
    print(json.dumps({
        "most": most, "over": over, "n_samples": res.n_samples,
        "traced": traced, "growth": max(during) - baseline,
        "ceiling": get_memory_ceiling(),
    }))
    """
)


def test_the_largest_draws_that_fit_stay_under_the_ceiling():
    env = dict(os.environ, NBSTATS_MAX_MEMORY="24M")
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["ceiling"] == 24 * 2**20
    assert out["most"] >= 400 and out["n_samples"] == out["most"]
    assert re.search("over the memory ceiling of 24 MB", out["over"])
    assert out["traced"] <= out["ceiling"], out
    assert out["growth"] <= out["ceiling"], out


def test_cases_in_blocks_sample_the_same_posterior():
    """A ceiling too low for every case at once makes the sampler take the
    cases in blocks: other random numbers, the same posterior."""
    from nbstats.stats.bayes.plackett_luce_sampler import RankingData, sample_worths

    rng = np.random.default_rng(0)
    values = rng.normal(size=(40, 4)) + np.linspace(0, 1, 4)
    ranks = pd.DataFrame(values).rank(axis=1, ascending=False).to_numpy()
    data = RankingData(ranks)
    kw = {"prior": 1.0, "chains": 4, "draws": 2000, "warmup": 300}
    whole = np.exp(sample_worths(data, rng=np.random.default_rng(1), **kw))
    blocks = np.exp(
        sample_worths(data, rng=np.random.default_rng(2), max_bytes=1, **kw)
    )
    for draws in (whole, blocks):
        np.testing.assert_allclose(draws.sum(axis=-1), 1.0)
    a, b = whole.reshape(-1, 4), blocks.reshape(-1, 4)
    spread = np.hypot(a.std(axis=0), b.std(axis=0)) / np.sqrt(len(a) / 10)
    assert np.all(np.abs(a.mean(axis=0) - b.mean(axis=0)) <= 5 * spread)


@FAST
@given(
    seed=st.integers(0, 2**31 - 1),
    m=st.integers(2, 7),
    n=st.integers(1, 60),
    level=st.floats(0.5, 0.999),
)
def test_rank_quantiles_from_counts_are_numpys(seed, m, n, level):
    from nbstats.stats.bayes.plackett_luce_summary import _rank_quantiles

    ranks = np.random.default_rng(seed).integers(1, m + 1, n).astype(np.int16)
    levels = ((1 - level) / 2, 0.5, 1 - (1 - level) / 2)
    want = np.quantile(ranks, levels, method="inverted_cdf")
    assert _rank_quantiles(ranks, m, levels) == [int(x) for x in want]


def test_a_seed_sequence_passed_twice_gives_the_same_draws_and_ties():
    """The tie-breaking keys come from the same stream as the sampler's draws:
    nothing is spawned from (so nothing changes in) the caller's seed."""
    seed = np.random.SeedSequence(5)
    table = pd.DataFrame(np.random.default_rng(0).normal(size=(6, 3)))
    first = nbstats.bayes_plackett_luce(table, s=1e50, random_state=seed)
    again = nbstats.bayes_plackett_luce(table, s=1e50, random_state=seed)
    pd.testing.assert_frame_equal(first.ranking, again.ranking)
    assert seed.n_children_spawned == 0

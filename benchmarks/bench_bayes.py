"""Speed of nbstats' Bayesian signed-rank test against baycomp and autorank.

Run: ``python benchmarks/bench_bayes.py`` (peers: baycomp, and autorank's
Bayesian mode, which calls baycomp; ``pip install baycomp autorank``). A few
minutes.

The all-pairs task times :func:`nbstats.bayes_signrank_pairs` (every pair on
one set of draws, equal to a loop of ``bayes_signrank`` calls, which is timed
too) against autorank's Bayesian mode and a baycomp loop.

Prints, per task, the median time of each implementation, the ratio
peer / nbstats (> 1 means nbstats is faster) and, so that the comparison is like
for like, the largest difference between the two posterior probabilities with
its Monte Carlo standard error (the two libraries draw independent samples, so
a difference of a few standard errors is expected; the SE is that of a
difference of two independent proportions). For the all-pairs tasks it shows
the worst of all pairs' standardised differences, which is larger by selection.

Both sides use the same data, the same prior (a pseudo-observation at a zero
difference with weight 0.5: baycomp's default and nbstats' ``prior="point"``)
and the same number of posterior draws. baycomp's sampler is O(n²) per draw
(an (n+1) × (n+1) outer product), nbstats' O(n); where baycomp would take
an hour it is timed on fewer draws and its time extrapolated linearly in the
number of draws (its cost per draw does not depend on how many there are).

Figures once stated in the package's comments (moved here in issue 37; recorded,
not re-measured by this script, on a 2-vCPU machine):

- ``nbstats.stats.bayes.exponentials``: the compiled Exp(1) generator was about
  1.6× as fast as numpy's ``standard_exponential`` (40 against 65 ms for 15
  million numbers); ``exponentials_against_numpy`` below measures it again.
- ``nbstats.stats.bayes.signrank.walsh_kernel``: the compiled Walsh sums were
  5–10× faster than the numpy version; 64 lanes side by side 2–3× faster than
  one draw at a time (8, 32, 64, 128, 256 lanes tried; 64 fastest for 50 and
  300 cases); a permuted contiguous pass about 10% faster than a strided
  gather.
- ``nbstats.stats.bayes.weights.DirichletWeights.map``: a thread pool over the
  chunks gave no speed-up.
- ``nbstats.stats.bayes.shared_prior``: ``gammaincinv`` on 50,000 uniforms takes
  tens of milliseconds.
- ``nbstats.stats.bayes.signrank.pair_sums.THREAD_WORK``: starting threads costs
  about 0.1 ms.
"""

from __future__ import annotations

import contextlib
import io
import math
import statistics
import time
from collections.abc import Callable
from itertools import combinations

import numpy as np
import pandas as pd

import nbstats

N_SAMPLES = 50_000
ROPE = 0.01
#: baycomp's draws at n = 3000 (~50-85 ms each); its time is extrapolated
FEW_SAMPLES = 500
SD = 0.033  # with this spread of differences, left/rope/right are each ~1/3


def median_time(
    fn: Callable[[], object], repeat: int = 5, warmup: bool = True
) -> float:
    if warmup:
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def report(task: str, ours: float, peer_name: str, peer: float, note: str = "") -> None:
    print(
        f"{task:<44} nbstats {ours:7.3f} s   {peer_name:<21} {peer:8.2f} s   "
        f"ratio {peer / ours:7.1f}x   {note}"
    )


def report_alone(task: str, ours: float, note: str = "") -> None:
    print(f"{task:<44} nbstats {ours:7.3f} s   {note}")


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    """One run (for peers too slow to repeat): seconds and the result."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def mc_difference(
    ours: tuple[float, ...], theirs: tuple[float, ...], n_ours: int, n_theirs: int
) -> tuple[float, float, str]:
    """(|Δp|, SE, region) of the component with the largest |Δp| / SE.

    SE is that of a difference of two independent proportions,
    sqrt(p (1 - p) (1/N₁ + 1/N₂)) with the pooled p.
    """
    labels = ("left", "rope", "right") if len(ours) == 3 else ("left", "right")
    rows = []
    for label, p1, p2 in zip(labels, ours, theirs, strict=True):
        p = (n_ours * p1 + n_theirs * p2) / (n_ours + n_theirs)
        se = math.sqrt(p * (1 - p) * (1 / n_ours + 1 / n_theirs))
        rows.append((abs(p1 - p2), se, label))
    return max(rows, key=standardised)


def standardised(row: tuple[float, float, str]) -> float:
    delta, se, _ = row
    return delta / se if se > 0 else (math.inf if delta > 0 else 0.0)


def describe(row: tuple[float, float, str], suffix: str = "") -> str:
    delta, se, label = row
    return f"max |Δp| {delta:.4f} (SE {se:.4f}, p_{label}{suffix})"


def paired_accuracies(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Accuracies to 3 decimals (ties and zero differences), b slightly better.

    The mean difference shrinks like 1/√n so that the posterior does not
    collapse onto 0 or 1 at large n and the probabilities are worth comparing.
    """
    rng = np.random.default_rng(seed)
    a = np.round(rng.uniform(0.6, 0.95, n), 3)
    b = np.round(a + rng.normal(SD / math.sqrt(n), SD, n), 3)
    return a, b


def probs_row(row: pd.Series, rope: float) -> tuple[float, ...]:
    """(left, rope, right) or (left, right) of a bayes_signrank_pairs row."""
    if rope:
        return row.prob_left, row.prob_rope, row.prob_right
    return row.prob_left, row.prob_right


def probs(res) -> tuple[float, ...]:
    if res.prob_rope is None:
        return res.prob_left, res.prob_right
    return res.prob_left, res.prob_rope, res.prob_right


def signrank_vs_baycomp() -> None:
    import baycomp

    # n = 3000: baycomp needs ~50-85 ms per draw, over an hour for 50,000
    for n, baycomp_samples in ((30, N_SAMPLES), (300, N_SAMPLES), (3000, FEW_SAMPLES)):
        a, b = paired_accuracies(n, seed=n)
        for rope in (ROPE, 0.0):

            def ours_fn(a=a, b=b, rope=rope):
                return nbstats.bayes_signrank(
                    a, b, prior="point", rope=rope, n_samples=N_SAMPLES, random_state=0
                )

            def peer_fn(a=a, b=b, rope=rope, k=baycomp_samples):
                return baycomp.SignedRankTest.probs(
                    a, b, rope=rope, nsamples=k, random_state=0
                )

            ours = median_time(ours_fn, repeat=5 if n <= 300 else 3, warmup=n <= 300)
            if n <= 30:  # cheap enough for a median of several runs
                peer, theirs = median_time(peer_fn, repeat=3), peer_fn()
            else:
                peer, theirs = timed(peer_fn)
            peer_name = "baycomp"
            if baycomp_samples != N_SAMPLES:
                peer *= N_SAMPLES / baycomp_samples
                peer_name = f"baycomp ({baycomp_samples} dr.)*"
            row = mc_difference(
                probs(ours_fn()), tuple(map(float, theirs)), N_SAMPLES, baycomp_samples
            )
            label = f"rope {rope}" if rope else "no rope"
            report(
                f"signed-rank, n = {n}, {label}", ours, peer_name, peer, describe(row)
            )
    print(
        f"  * n = 3000: baycomp timed on {FEW_SAMPLES} draws, its time extrapolated "
        f"linearly to {N_SAMPLES:,} draws\n    (its cost per draw is constant); its "
        f"probabilities are from those {FEW_SAMPLES} draws, hence the larger SE."
    )


def accuracy_table(n: int, m: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.6, 0.95, (n, 1))
    values = base + np.linspace(0, 0.02, m) + rng.normal(0, 0.02, (n, m))
    return pd.DataFrame(np.round(values, 3), columns=[f"alg{j}" for j in range(m)])


def all_pairs() -> None:
    import autorank
    import baycomp

    m, n = 6, 30
    table = accuracy_table(n, m, seed=6)
    pairs = list(combinations(table.columns, 2))
    task = f"all {len(pairs)} pairs, m = {m}, n = {n}"

    def ours_loop(rope=ROPE):
        return {
            (i, j): probs(
                nbstats.bayes_signrank(
                    table[i],
                    table[j],
                    prior="point",
                    rope=rope,
                    n_samples=N_SAMPLES,
                    random_state=0,
                )
            )
            for i, j in pairs
        }

    def baycomp_loop(rope=ROPE):
        return {
            (i, j): tuple(
                float(p)
                for p in baycomp.SignedRankTest.probs(
                    table[i].to_numpy(),
                    table[j].to_numpy(),
                    rope=rope,
                    nsamples=N_SAMPLES,
                    random_state=0,
                )
            )
            for i, j in pairs
        }

    def autorank_fn():
        # autorank prints its rank table unconditionally: keep it off the report
        with contextlib.redirect_stdout(io.StringIO()):
            return autorank.autorank(
                table,
                alpha=0.05,
                approach="bayesian",
                rope=ROPE,
                rope_mode="absolute",
                nsamples=N_SAMPLES,
                random_state=0,
            )

    def pairs_fn(rope=ROPE):
        res = nbstats.bayes_signrank_pairs(
            table, prior="point", rope=rope, n_samples=N_SAMPLES, random_state=0
        )
        rows = res.pairs.set_index(["a", "b"])
        return {pair: probs_row(rows.loc[pair], rope) for pair in pairs}

    def posthoc_fn():
        return nbstats.bayes_posthoc(
            table,
            test="signrank",
            prior="point",
            s=0.5,
            n_samples=N_SAMPLES,
            random_state=0,
        )

    def worst(ours: dict, theirs: dict) -> str:
        rows = [mc_difference(ours[k], theirs[k], N_SAMPLES, N_SAMPLES) for k in ours]
        count = sum(len(v) for v in ours.values())
        return describe(max(rows, key=standardised), f", worst of {count}**")

    loop_time = median_time(ours_loop, repeat=3)
    ours_time = median_time(pairs_fn, repeat=5)
    ours = pairs_fn()
    # one call per pair and one call for all pairs give the same numbers
    assert ours == ours_loop(), "bayes_signrank_pairs differs from its loop"

    # autorank runs baycomp's SignedRankTest on every pair; its posterior_matrix
    # holds (left, rope, right) above the diagonal, with the columns reordered
    # by central tendency, so a pair (i, j) may sit at (j, i), reversed
    peer, result = timed(autorank_fn)
    matrix = result.posterior_matrix
    theirs = {}
    for i, j in pairs:
        cell = matrix.loc[i, j]
        if not isinstance(cell, tuple):
            cell = matrix.loc[j, i][::-1]
        theirs[i, j] = tuple(map(float, cell))
    task_rope = f"{task}, rope {ROPE}"
    report(task_rope, ours_time, "autorank bayesian", peer, worst(ours, theirs))

    peer, theirs = timed(baycomp_loop)
    report(task_rope, ours_time, "baycomp loop", peer, worst(ours, theirs))
    report(
        task_rope,
        ours_time,
        "nbstats loop",
        loop_time,
        "(bayes_signrank per pair; identical probabilities)",
    )

    # bayes_posthoc: no rope, and the joint probabilities of the sorted
    # statements on top of the marginals; peer: a baycomp loop without rope.
    # probabilities[i, j] = P(column j better than row i)
    ours_time = median_time(posthoc_fn, repeat=3)
    matrix = posthoc_fn().probabilities
    ours = {(i, j): (matrix.loc[j, i], matrix.loc[i, j]) for i, j in pairs}
    peer, theirs = timed(lambda: baycomp_loop(0.0))
    name = "baycomp loop, no rope"
    report(f"{task}, bayes_posthoc", ours_time, name, peer, worst(ours, theirs))
    print(
        "  ** the largest of all the pairs' |Δp| / SE: with this many comparisons "
        "(correlated,\n     and with p near 0 or 1 where the normal approximation "
        "is rough) ~3 SE is expected by chance."
    )


def large_posthoc() -> None:
    import baycomp

    m, n = 20, 100
    table = accuracy_table(n, m, seed=20)
    n_pairs = m * (m - 1) // 2
    ours = median_time(
        lambda: nbstats.bayes_posthoc(
            table,
            test="signrank",
            prior="point",
            s=0.5,
            n_samples=N_SAMPLES,
            random_state=0,
        ),
        repeat=3,
        warmup=False,
    )
    # not run: a baycomp loop over the pairs, estimated from one pair's 5,000 draws
    one_pair, _ = timed(
        lambda: baycomp.SignedRankTest.probs(
            table["alg0"].to_numpy(), table["alg1"].to_numpy(), nsamples=5_000
        )
    )
    estimate = one_pair * n_pairs * N_SAMPLES / 5_000
    report_alone(
        f"bayes_posthoc signrank, m = {m}, n = {n}",
        ours,
        f"({n_pairs} pairs; a baycomp loop would need ~{estimate:.0f} s: "
        "one pair's 5,000 draws, extrapolated)",
    )


def exponentials_against_numpy() -> None:
    """The compiled Exp(1) generator (``stats/bayes/exponentials.py``) against
    numpy's ``standard_exponential`` on the same bit generator, SFC64: one
    exponential per case and draw, 300 cases × 50,000 draws."""
    from nbstats.stats.bayes.exponentials import fill_weights_raw, sfc64_state

    cases, draws = 300, N_SAMPLES
    exponentials, uniforms = np.empty((cases, draws)), np.empty(draws)
    seed = np.random.SeedSequence(0)
    ours = median_time(
        lambda: fill_weights_raw(sfc64_state(seed), exponentials, uniforms)
    )
    rng = np.random.Generator(np.random.SFC64(seed))
    peer = median_time(lambda: rng.standard_exponential(size=(cases, draws)))
    report(f"Exp(1), {cases * draws:,} numbers", ours, "numpy", peer)


if __name__ == "__main__":
    print(f"posterior draws: {N_SAMPLES:,}; times are medians of repeated runs\n")
    signrank_vs_baycomp()
    print()
    all_pairs()
    print()
    large_posthoc()
    print()
    exponentials_against_numpy()

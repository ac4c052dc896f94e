"""Bayesian signed-rank and sign tests against baycomp, and the published UCI figures.

baycomp (Benavoli, Corani, Demšar & Zaffalon) is the reference implementation of
the authors' tutorial. Both libraries are Monte Carlo, with independent random
streams, so results are compared within Monte Carlo error: two estimates p₁, p₂
of one probability from N₁ and N₂ draws must differ by at most 4 standard errors
of a difference of two independent proportions,

    |p₁ - p₂| <= 4 · sqrt(p (1 - p) (1/N₁ + 1/N₂)),   p = (N₁ p₁ + N₂ p₂) / (N₁ + N₂).

Correspondence of the definitions:

- ``bayes_signrank(a, b, prior="point", s=0.5, prior_at=0, rope=r)`` is baycomp's
  ``SignedRankTest.probs(x=a, y=b, rope=r)`` with its default ``prior=0.5``: a
  pseudo-observation at a zero difference with weight s, θ over all pairs of
  differences with H(0) = ½, and with a rope the share of draws in which each
  region is the most probable (argmax, ties to the first).
- Without a rope baycomp returns ``(p_left, p_right)`` with p_left the share of
  draws with θ <= ½; ours excludes θ = ½, which has probability 0 unless every
  difference is 0 (not tested: there the two conventions differ by design).
- ``bayes_sign_test(a, b, rope=r, s=s)`` (r > 0) is ``SignTest.probs(x=a, y=b,
  rope=r, prior=s)``: ``Dir(n_left, n_rope + s, n_right)``. baycomp adds 0.0001
  to every Dirichlet parameter "for numerical stability"; that shifts the
  probabilities by far less than the Monte Carlo error at these sample sizes, so
  the comparison ignores it.

baycomp's signed-rank sampler is O(n²) per draw (an (n+1) × (n+1) outer product),
so its draws are kept at 20,000 (n <= 40) to keep this module fast.
"""

from __future__ import annotations

import math

import baycomp
import numpy as np
import pytest

import nbstats

#: baycomp draws (its signed-rank test costs O(n²) per draw)
N_BAYCOMP = 20_000
#: nbstats draws
N_OURS = 50_000
#: Monte Carlo standard errors allowed between two estimates
K_SE = 4.0


def mc_tolerance(p1: float, p2: float, n1: int, n2: int) -> float:
    """K_SE standard errors of the difference of two independent proportions."""
    p = (n1 * p1 + n2 * p2) / (n1 + n2)
    return K_SE * math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))


def assert_within_mc(
    ours: tuple[float, ...],
    theirs: tuple[float, ...],
    n_ours: int,
    n_theirs: int,
    slack: float = 0.0,
) -> None:
    labels = ("left", "rope", "right") if len(ours) == 3 else ("left", "right")
    for label, p1, p2 in zip(labels, ours, theirs, strict=True):
        tol = slack + mc_tolerance(p1, p2, n_ours, n_theirs)
        assert abs(p1 - p2) <= tol, (
            f"prob_{label}: nbstats {p1:.5f} vs {p2:.5f} differ by "
            f"{abs(p1 - p2):.5f} > tolerance {tol:.5f}\n"
            f"nbstats {np.round(ours, 5)}, reference {np.round(theirs, 5)}"
        )


def make_data(kind: str, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Paired scores (a, b) with ties among the |differences| and zero differences.

    - ``acc2``/``acc3``: accuracies rounded to 2 or 3 decimals, b slightly better;
    - ``counts``: integer scores (e.g. correct answers), integer differences, so
      with an integer rope some sums z_i + z_j equal 2·rope exactly and count ½;
    - ``quarters``: multiples of 0.25 (exact in binary), with the same purpose;
    - ``wins``: b never worse by more than 0.005: with rope 0.01 no case is in the
      sign test's left region (our Dirichlet component is then exactly 0,
      baycomp's a Gamma(0.0001) variate).
    """
    rng = np.random.default_rng(seed)
    if kind in ("acc2", "acc3"):
        decimals = 2 if kind == "acc2" else 3
        a = np.round(rng.uniform(0.6, 0.95, n), decimals)
        b = np.round(a + rng.normal(0.004, 0.02, n), decimals)
        b[: max(1, n // 8)] = a[: max(1, n // 8)]  # some exact zero differences
    elif kind == "counts":
        a = rng.integers(30, 50, n).astype(float)
        b = a + rng.integers(-3, 4, n)
    elif kind == "quarters":
        a = rng.integers(0, 8, n) * 0.25
        b = a + rng.integers(-2, 3, n) * 0.25
    elif kind == "wins":
        a = np.round(rng.uniform(0.6, 0.95, n), 2)
        b = a + rng.choice([-0.005, 0.0, 0.02, 0.03], n)
    else:  # pragma: no cover - a typo in the parametrisation
        raise ValueError(kind)
    d = b - a
    assert (d == 0).any(), "the data set should contain zero differences"
    assert np.unique(np.abs(d[d != 0])).size < (d != 0).sum(), "and tied |d|"
    return a, b


# (kind, n, seed, rope, s): s is baycomp's `prior`; 0.5 is its default
SIGNRANK_CASES = [
    ("acc2", 10, 1, 0.0, 0.5),
    ("acc2", 10, 1, 0.01, 0.5),
    ("acc2", 25, 2, 0.0, 0.5),
    ("acc2", 25, 2, 0.01, 0.5),
    ("acc3", 40, 3, 0.0, 0.5),
    ("acc3", 40, 3, 0.01, 0.5),
    ("acc3", 33, 4, 0.005, 0.5),
    ("counts", 20, 5, 0.0, 0.5),
    ("counts", 20, 5, 1.0, 0.5),
    ("quarters", 30, 6, 0.25, 0.5),
    ("quarters", 17, 7, 0.125, 0.5),
    ("acc2", 15, 8, 0.0, 1.0),
    ("acc2", 15, 8, 0.01, 2.0),
]


@pytest.mark.parametrize(
    ("kind", "n", "seed", "rope", "s"),
    SIGNRANK_CASES,
    ids=[f"{k}-n{n}-rope{r}-s{s}" for k, n, _, r, s in SIGNRANK_CASES],
)
def test_signrank_matches_baycomp(kind, n, seed, rope, s):
    a, b = make_data(kind, n, seed)
    theirs = baycomp.SignedRankTest.probs(
        a, b, rope=rope, prior=s, nsamples=N_BAYCOMP, random_state=seed
    )
    res = nbstats.bayes_signrank(
        a,
        b,
        prior="point",
        s=s,
        prior_at=0.0,
        rope=rope,
        n_samples=N_OURS,
        random_state=seed,
    )
    if rope == 0:
        ours = (res.prob_left, res.prob_right)
        assert res.prob_rope is None
    else:
        ours = (res.prob_left, res.prob_rope, res.prob_right)
    assert math.isclose(sum(ours), 1.0)
    assert_within_mc(ours, tuple(float(p) for p in theirs), N_OURS, N_BAYCOMP)


def test_signrank_default_prior_is_baycomps():
    # without s and z0, prior="point" is baycomp's SignedRankTest default
    a, b = make_data("acc2", 25, 2)
    explicit = nbstats.bayes_signrank(
        a, b, prior="point", s=0.5, prior_at=0.0, rope=0.01, random_state=0
    )
    default = nbstats.bayes_signrank(a, b, prior="point", rope=0.01, random_state=0)
    assert (default.prob_left, default.prob_rope, default.prob_right) == (
        explicit.prob_left,
        explicit.prob_rope,
        explicit.prob_right,
    )


# (kind, n, seed, rope, s): s is baycomp's SignTest `prior` (on the rope)
SIGN_CASES = [
    ("acc2", 10, 11, 0.01, 1.0),
    ("acc2", 25, 12, 0.01, 1.0),
    ("acc3", 40, 13, 0.01, 1.0),
    ("acc3", 40, 13, 0.005, 1.0),
    ("counts", 20, 14, 1.0, 1.0),
    ("quarters", 30, 15, 0.25, 1.0),
    ("wins", 30, 16, 0.01, 1.0),
    ("acc2", 25, 12, 0.01, 0.5),
    ("acc2", 25, 12, 0.01, 3.0),
]


@pytest.mark.parametrize(
    ("kind", "n", "seed", "rope", "s"),
    SIGN_CASES,
    ids=[f"{k}-n{n}-rope{r}-s{s}" for k, n, _, r, s in SIGN_CASES],
)
def test_sign_test_matches_baycomp(kind, n, seed, rope, s):
    a, b = make_data(kind, n, seed)
    # the sign test is cheap in baycomp too: same number of draws
    theirs = baycomp.SignTest.probs(
        a, b, rope=rope, prior=s, nsamples=N_OURS, random_state=seed
    )
    res = nbstats.bayes_sign_test(
        a, b, rope=rope, s=s, n_samples=N_OURS, random_state=seed
    )
    d = b - a
    if kind == "wins":
        assert res.losses == 0
    assert (res.losses, res.n_ties, res.wins) == (
        int((d < -rope).sum()),
        int((np.abs(d) <= rope).sum()),
        int((d > rope).sum()),
    )
    ours = (res.prob_left, res.prob_rope, res.prob_right)
    assert math.isclose(sum(ours), 1.0)
    # baycomp's +0.0001 on every Dirichlet parameter is ignored (see module doc)
    assert_within_mc(ours, tuple(float(p) for p in theirs), N_OURS, N_OURS)


# Benavoli, Corani, Demšar & Zaffalon, "Time for a change" (JMLR 2017), Bayesian
# signed-rank test on the 54 UCI data sets: pseudo-observation at 0 with weight
# 0.5, rope 0.01, 50,000 draws; (left, rope, right) with right = "b is better"
PUBLISHED_UCI = {
    ("nbc", "aode"): (0.000, 0.125, 0.875),
    ("nbc", "hnb"): (0.000, 0.001, 0.999),
    ("nbc", "j48"): (0.228, 0.006, 0.766),
    ("aode", "j48"): (0.904, 0.034, 0.062),
    ("hnb", "j48gr"): (0.950, 0.026, 0.024),
    ("j48", "j48gr"): (0.000, 1.000, 0.000),
}


@pytest.fixture(scope="module")
def uci():
    return nbstats.datasets.load("uci_accuracy")


@pytest.mark.parametrize(
    ("a", "b"), list(PUBLISHED_UCI), ids=[f"{a}-{b}" for a, b in PUBLISHED_UCI]
)
def test_uci_published_signrank_figures(uci, a, b):
    res = nbstats.bayes_signrank(
        uci[a],
        uci[b],
        prior="point",
        s=0.5,
        prior_at=0.0,
        rope=0.01,
        n_samples=50_000,
        random_state=2017,
    )
    ours = (res.prob_left, res.prob_rope, res.prob_right)
    # published figures are rounded to 3 decimals (± 0.0005) and come from their
    # own 50,000 draws
    assert_within_mc(ours, PUBLISHED_UCI[a, b], 50_000, 50_000, slack=0.0005)

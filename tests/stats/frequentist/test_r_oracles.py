"""Frequentist tests checked against R (stats, coin) and a brute-force oracle.

Every R comparison runs one Rscript call per oracle (a module-scoped fixture
batches all cases); the numbers are passed to R as C99 hexadecimal floats, so R
sees bit-identical inputs (ties and zero differences are preserved), and read
back printed with ``%.17g``.

Orientation: nbstats tests whether ``b`` is better than ``a`` with
``d = b - a``; R's ``wilcox.test(b, a, paired = TRUE)`` and coin's
``wilcoxsign_test(b ~ a)`` both work on ``b - a`` (R's V and coin's linear
statistic are our R+), and ``binom.test(wins, ...)`` counts b's wins.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import nbstats

RTOL = 1e-10

#: Helpers every script starts with: JSON arrays of doubles printed exactly.
R_PRELUDE = """
num <- function(x) sprintf("%.17g", x)
arr <- function(x) paste0("[", paste(num(x), collapse = ","), "]")
"""

ALTERNATIVES = ("two-sided", "greater", "less")
R_ALTERNATIVE = {"two-sided": "two.sided", "greater": "greater", "less": "less"}


def r_vector(x: object) -> str:
    """An R ``c(...)`` literal holding exactly the doubles of ``x``."""
    return "c(" + ", ".join(float(v).hex() for v in np.ravel(x)) + ")"


def r_script(expressions: list[str]) -> str:
    """A script that ``cat``s the JSON array of the ``arr(...)`` expressions."""
    body = ",\n".join(expressions)
    return (
        R_PRELUDE
        + f"out <- c(\n{body}\n)\n"
        + 'cat(paste0("[", paste(out, collapse = ","), "]"))\n'
    )


@pytest.fixture(scope="module")
def run_r_long(run_r, tmp_path_factory):
    """``run_r`` for long scripts: Rscript truncates an ``-e`` expression
    beyond 10,000 bytes, so the script goes to a file that ``-e`` sources."""
    directory = tmp_path_factory.mktemp("r_oracles")
    counter = itertools.count()

    def run(script: str, packages: tuple[str, ...] = ()) -> object:
        path = directory / f"script{next(counter)}.R"
        path.write_text(script)
        return run_r(f"source({str(path)!r})", packages)

    return run


# ---------------------------------------------------------------------------
# 1. Friedman with tie correction == R friedman.test
# ---------------------------------------------------------------------------


def _friedman_cases() -> list[np.ndarray]:
    cases = []
    for seed, (n, k) in enumerate([(10, 3), (15, 4), (8, 5), (24, 6), (5, 2)]):
        rng = np.random.default_rng(seed)
        continuous = rng.normal(size=(n, k)) + np.linspace(0, 1, k)
        cases.append(continuous)  # no ties
        cases.append(np.round(0.3 * continuous, 1))  # ties within rows
    rng = np.random.default_rng(100)
    integers = rng.integers(0, 3, size=(12, 4)).astype(float)  # heavy ties
    integers[0] = 1.0  # one case where every algorithm ties
    cases.append(integers)
    return cases


FRIEDMAN_CASES = _friedman_cases()


@pytest.fixture(scope="module")
def r_friedman(run_r_long):
    expressions = [
        f"{{ t <- friedman.test(matrix({r_vector(m)}, nrow = {m.shape[0]}, "
        "byrow = TRUE)); arr(c(t$statistic, t$p.value)) }"
        for m in FRIEDMAN_CASES
    ]
    return run_r_long(r_script(expressions))


@pytest.mark.r_oracle
@pytest.mark.parametrize("case", range(len(FRIEDMAN_CASES)))
def test_friedman_tie_corrected_matches_r(r_friedman, case):
    """χ²_F divided by 1 - Σ(t³ - t)/(N k (k² - 1)) and its χ²(k-1) p-value
    == R ``friedman.test(matrix)`` (rows = blocks). R ranks ascending, nbstats
    descending; the statistic is invariant to reversing every row's ranks."""
    scores = FRIEDMAN_CASES[case]
    expected_statistic, expected_pvalue = r_friedman[case]
    for higher_is_better in (True, False):
        res = nbstats.friedman(
            scores, tie_correction=True, higher_is_better=higher_is_better
        )
        np.testing.assert_allclose(res.statistic, expected_statistic, rtol=RTOL)
        np.testing.assert_allclose(res.pvalue, expected_pvalue, rtol=RTOL)


def test_friedman_cases_have_ties():
    """Guard: the rounded cases really contain ties within rows."""
    tied = [any(np.unique(row).size < row.size for row in m) for m in FRIEDMAN_CASES]
    assert sum(tied) >= 5


# ---------------------------------------------------------------------------
# 2. Exact Wilcoxon without ties or zeros == R wilcox.test(exact = TRUE)
# ---------------------------------------------------------------------------


def _continuous_pairs() -> list[tuple[np.ndarray, np.ndarray]]:
    pairs = []
    for seed, (n, shift) in enumerate(
        [(5, 0.0), (8, 0.5), (12, -0.3), (20, 0.4), (30, 0.0), (49, 0.25)]
    ):
        rng = np.random.default_rng(200 + seed)
        a = rng.normal(size=n)
        b = a + shift + rng.normal(size=n)
        pairs.append((a, b))
    return pairs


CONTINUOUS_PAIRS = _continuous_pairs()


@pytest.fixture(scope="module")
def r_wilcox_exact(run_r_long):
    expressions = [
        f"{{ a <- {r_vector(a)}; b <- {r_vector(b)}; "
        f'v <- wilcox.test(b, a, paired = TRUE, exact = TRUE, alternative = "{alt}"); '
        "arr(c(v$statistic, v$p.value)) }"
        for a, b in CONTINUOUS_PAIRS
        for alt in R_ALTERNATIVE.values()
    ]
    results = run_r_long(r_script(expressions))
    return dict(
        zip(
            [(i, alt) for i in range(len(CONTINUOUS_PAIRS)) for alt in ALTERNATIVES],
            results,
            strict=True,
        )
    )


@pytest.mark.r_oracle
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("case", range(len(CONTINUOUS_PAIRS)))
def test_wilcoxon_exact_without_ties_matches_r(r_wilcox_exact, case, alternative):
    """Exact signed-rank p-value (psignrank; two-sided = min(1, 2 × smaller
    tail)) == R ``wilcox.test(b, a, paired = TRUE, exact = TRUE)``; R's V is
    our R+. No ties and no zeros, so every zero_method gives the same test."""
    a, b = CONTINUOUS_PAIRS[case]
    d = b - a
    assert np.all(d != 0) and np.unique(np.abs(d)).size == d.size
    v, expected = r_wilcox_exact[case, alternative]
    for zero_method in ("zsplit", "pratt", "wilcox"):
        res = nbstats.wilcoxon(
            a, b, zero_method=zero_method, alternative=alternative, method="exact"
        )
        assert res.r_plus == v
        np.testing.assert_allclose(res.pvalue, expected, rtol=RTOL)


# ---------------------------------------------------------------------------
# 3. Normal approximation with ties and zeros == R wilcox.test(exact = FALSE)
# ---------------------------------------------------------------------------


def _integer_pairs() -> list[tuple[np.ndarray, np.ndarray]]:
    """Integer-valued scores: many tied |differences| and several zeros."""
    pairs = []
    for seed, (n, low, high) in enumerate(
        [(10, -3, 4), (12, -2, 3), (14, -2, 4), (20, -3, 4), (30, -4, 6), (40, -5, 5)]
    ):
        rng = np.random.default_rng(300 + seed)
        a = rng.integers(50, 60, size=n).astype(float)
        b = a + rng.integers(low, high, size=n)
        pairs.append((a, b))
    # tenths: ties and zeros of decimal data (compared bit-for-bit in R)
    rng = np.random.default_rng(399)
    a = np.round(rng.uniform(0.6, 0.9, size=18), 1)
    b = np.round(a + rng.choice([-0.2, -0.1, 0.0, 0.1, 0.2, 0.3], size=18), 1)
    pairs.append((a, b))
    return pairs


INTEGER_PAIRS = _integer_pairs()


def test_integer_pairs_have_ties_and_zeros():
    """Guard: every case has zero differences and tied non-zero |d|."""
    for a, b in INTEGER_PAIRS:
        d = b - a
        nonzero = np.abs(d[d != 0])
        assert 1 <= np.sum(d == 0) < d.size
        assert np.unique(nonzero).size < nonzero.size


@pytest.fixture(scope="module")
def r_wilcox_approx(run_r_long):
    keys, expressions = [], []
    for i, (a, b) in enumerate(INTEGER_PAIRS):
        for alt in ALTERNATIVES:
            for correct in (True, False):
                keys.append((i, alt, correct))
                expressions.append(
                    f"{{ a <- {r_vector(a)}; b <- {r_vector(b)}; "
                    "v <- wilcox.test(b, a, paired = TRUE, exact = FALSE, "
                    f'correct = {str(correct).upper()}, alternative = "{R_ALTERNATIVE[alt]}"); '
                    "arr(c(v$statistic, v$p.value)) }"
                )
    return dict(zip(keys, run_r_long(r_script(expressions)), strict=True))


@pytest.mark.r_oracle
@pytest.mark.parametrize("correction", [True, False])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("case", range(len(INTEGER_PAIRS)))
def test_wilcoxon_approx_with_ties_and_zeros_matches_r(
    r_wilcox_approx, case, alternative, correction
):
    """Normal approximation with zeros dropped before ranking (zero_method
    "wilcox"), mean n(n+1)/4, tie-corrected variance n(n+1)(2n+1)/24 -
    Σ(t³ - t)/48 and optional ±½ continuity correction == R ``wilcox.test(b, a,
    paired = TRUE, exact = FALSE, correct = ...)``; R's V is our R+."""
    a, b = INTEGER_PAIRS[case]
    v, expected = r_wilcox_approx[case, alternative, correction]
    res = nbstats.wilcoxon(
        a,
        b,
        zero_method="wilcox",
        alternative=alternative,
        method="approx",
        correction=correction,
    )
    assert res.r_plus == v
    np.testing.assert_allclose(res.pvalue, expected, rtol=RTOL)


# ---------------------------------------------------------------------------
# 4. Exact Wilcoxon with ties and zeros == coin::wilcoxsign_test(exact)
# ---------------------------------------------------------------------------
#
# coin builds the exact conditional distribution of the linear statistic R+
# with the Streitberg-Röhmel shift algorithm. It needs integer scores, so it
# multiplies the (mid)ranks by the smallest of 1, 2, 10, ... that makes them
# integral (coin:::is_integer); midranks are multiples of ½, so factor 2 is
# used and the distribution is exact, not approximate. Its two-sided p-value
# is P(|Z| >= |z|) on the standardised statistic; the conditional null is
# symmetric, so this equals nbstats' min(1, 2 × smaller tail).
# zero.method = "Pratt" ranks the zeros and then drops them (= "pratt");
# "Wilcoxon" drops the zeros before ranking (= "wilcox").

COIN_ZERO_METHOD = {"pratt": "Pratt", "wilcox": "Wilcoxon"}


#: A clearly one-sided example: b beats a on all 8 cases by distinct margins.
ORIENTATION_A = np.arange(1.0, 9.0)
ORIENTATION_B = ORIENTATION_A + np.arange(1.0, 9.0)


def _coin_expression(a: np.ndarray, b: np.ndarray, zero: str, alt: str) -> str:
    return (
        f"{{ a <- {r_vector(a)}; b <- {r_vector(b)}; "
        'w <- coin::wilcoxsign_test(b ~ a, distribution = "exact", '
        f'zero.method = "{zero}", alternative = "{R_ALTERNATIVE[alt]}"); '
        'arr(c(coin::statistic(w, type = "linear"), coin::pvalue(w))) }'
    )


@pytest.fixture(scope="module")
def r_coin_exact(run_r_long):
    """One Rscript call (loading coin takes seconds) for every coin case."""
    keys, expressions = [], []
    for i, (a, b) in enumerate(INTEGER_PAIRS):
        for zero_method, coin_zero in COIN_ZERO_METHOD.items():
            for alt in ALTERNATIVES:
                keys.append((i, zero_method, alt))
                expressions.append(_coin_expression(a, b, coin_zero, alt))
    for alt in ALTERNATIVES:
        keys.append(("orientation", "pratt", alt))
        expressions.append(_coin_expression(ORIENTATION_A, ORIENTATION_B, "Pratt", alt))
    return dict(zip(keys, run_r_long(r_script(expressions), ("coin",)), strict=True))


@pytest.mark.r_oracle
def test_coin_orientation(r_coin_exact):
    """coin's ``b ~ a`` tests b - a: with b clearly larger, "greater" is the
    small one-sided p-value (1/2^8: only the all-positive sign pattern of 8
    distinct ranks reaches R+ = 36), matching nbstats' "b is better"."""
    (r_plus, greater) = r_coin_exact["orientation", "pratt", "greater"]
    (_, less) = r_coin_exact["orientation", "pratt", "less"]
    (_, two_sided) = r_coin_exact["orientation", "pratt", "two-sided"]
    assert r_plus == 36
    np.testing.assert_allclose(
        [greater, less, two_sided], [1 / 256, 1, 2 / 256], rtol=RTOL
    )
    res = nbstats.wilcoxon(
        ORIENTATION_A, ORIENTATION_B, alternative="greater", method="exact"
    )
    assert res.r_plus == 36
    np.testing.assert_allclose(res.pvalue, 1 / 256, rtol=RTOL)


@pytest.mark.r_oracle
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("zero_method", ["pratt", "wilcox"])
@pytest.mark.parametrize("case", range(len(INTEGER_PAIRS)))
def test_wilcoxon_exact_with_ties_and_zeros_matches_coin(
    r_coin_exact, case, zero_method, alternative
):
    """Exact p-value conditional on the observed midranks == coin
    ``wilcoxsign_test(b ~ a, distribution = "exact", zero.method = ...)``;
    coin's linear statistic is our R+."""
    a, b = INTEGER_PAIRS[case]
    linear, expected = r_coin_exact[case, zero_method, alternative]
    res = nbstats.wilcoxon(
        a, b, zero_method=zero_method, alternative=alternative, method="exact"
    )
    assert res.r_plus == linear
    np.testing.assert_allclose(res.pvalue, expected, rtol=RTOL)


# ---------------------------------------------------------------------------
# 4b. Exact Wilcoxon == brute-force enumeration of all 2^n sign patterns
# ---------------------------------------------------------------------------


def brute_force_signed_rank(
    d: np.ndarray, zero_method: str, alternative: str
) -> tuple[float, float, float]:
    """(R+, R-, p-value) from the definition, enumerating every sign pattern.

    Midranks: ``#{|d_j| < |d_i|} + (#{|d_j| == |d_i|} + 1) / 2``. Under H0 each
    non-zero difference is + or - with probability ½ independently; zeros are
    not random: "wilcox" drops them before ranking, "pratt" ranks them and
    leaves them out of both sums, "zsplit" adds half of each zero's rank to
    R+ and to R-. One-sided p-values are tail frequencies of R+ (">=" for
    "greater", "<=" for "less"); the two-sided p-value is
    P(|R+ - E R+| >= |r+ - E R+|). All ranks are multiples of ½, so every sum
    here is exact in floating point and the comparisons need no tolerance.
    """
    d = np.asarray(d, dtype=float)
    if zero_method == "wilcox":
        d = d[d != 0]
    size = np.abs(d)
    ranks = (size[None, :] < size[:, None]).sum(axis=1) + (
        (size[None, :] == size[:, None]).sum(axis=1) + 1
    ) / 2
    zero = d == 0
    fixed = ranks[zero].sum() / 2 if zero_method == "zsplit" else 0.0
    r_plus = ranks[d > 0].sum() + fixed
    r_minus = ranks[d < 0].sum() + fixed
    random_ranks = ranks[~zero]
    m = random_ranks.size
    positive = (np.arange(2**m)[:, None] >> np.arange(m)) & 1  # every pattern
    null = fixed + positive @ random_ranks
    if alternative == "greater":
        p = np.mean(null >= r_plus)
    elif alternative == "less":
        p = np.mean(null <= r_plus)
    else:
        centre = fixed + random_ranks.sum() / 2
        p = np.mean(np.abs(null - centre) >= np.abs(r_plus - centre))
    return float(r_plus), float(r_minus), float(p)


def _small_pairs() -> list[np.ndarray]:
    """Differences with n <= 14, many tied |d| and zeros (odd and even counts)."""
    cases = [
        np.array([0, 0, 1, -1, 1, 2, 2, -2, 3, 3, 3, -4, 5, 0], dtype=float),
        np.array([0, 1, 1, 1, -1, 2, 0, 0], dtype=float),  # 3 zeros
        np.array([1, 2, 3, 4, 5, 6, 7, -8], dtype=float),  # no ties, no zeros
        np.array([0, 0, 0, 0, 2, -2], dtype=float),
        np.array([0.5, -0.5, 0.5, 0.0, 1.5, 1.5, 1.5, -1.5, 0.0, 2.5], dtype=float),
    ]
    for seed in range(6):
        rng = np.random.default_rng(500 + seed)
        n = int(rng.integers(9, 15))
        cases.append(rng.integers(-3, 4, size=n).astype(float))
    return cases


SMALL_DIFFERENCES = _small_pairs()


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("zero_method", ["zsplit", "pratt", "wilcox"])
@pytest.mark.parametrize("case", range(len(SMALL_DIFFERENCES)))
def test_wilcoxon_exact_matches_brute_force(case, zero_method, alternative):
    """nbstats' exact p-value, R+ and R- == enumeration of all 2^n sign flips
    of the non-zero differences (see :func:`brute_force_signed_rank`)."""
    d = SMALL_DIFFERENCES[case]
    a = np.full(d.size, 10.0)
    b = a + d
    r_plus, r_minus, expected = brute_force_signed_rank(d, zero_method, alternative)
    res = nbstats.wilcoxon(
        a, b, zero_method=zero_method, alternative=alternative, method="exact"
    )
    assert (res.r_plus, res.r_minus) == (r_plus, r_minus)
    two_sided_statistic = min(r_plus, r_minus)
    assert res.statistic == (
        two_sided_statistic if alternative == "two-sided" else r_plus
    )
    np.testing.assert_allclose(res.pvalue, expected, rtol=RTOL)


# ---------------------------------------------------------------------------
# 5. adjust_pvalues == R p.adjust
# ---------------------------------------------------------------------------

ADJUST_METHODS = ("holm", "hochberg", "hommel", "bonferroni")


def _pvalue_vectors() -> list[np.ndarray]:
    vectors = []
    for length in (1, 2, 3, 5, 10, 30):
        rng = np.random.default_rng(600 + length)
        vectors.append(rng.uniform(size=length))  # plain
        vectors.append(rng.uniform(size=length) ** 4)  # mostly small
        tied = np.round(rng.uniform(size=length), 1)  # ties among p-values
        tied[rng.permutation(length)[: max(1, length // 3)]] = 0.04
        vectors.append(tied)
        near_one = 1 - rng.uniform(size=length) * 1e-3  # near 1
        near_one[::3] = 1.0
        if length > 2:
            near_one[1] = 1e-4
        vectors.append(near_one)
    return vectors


PVALUE_VECTORS = _pvalue_vectors()


@pytest.fixture(scope="module")
def r_p_adjust(run_r_long):
    keys, expressions = [], []
    for i, p in enumerate(PVALUE_VECTORS):
        for method in ADJUST_METHODS:
            keys.append((i, method))
            expressions.append(f'arr(p.adjust({r_vector(p)}, method = "{method}"))')
    return dict(zip(keys, run_r_long(r_script(expressions)), strict=True))


@pytest.mark.r_oracle
@pytest.mark.parametrize("method", ADJUST_METHODS)
@pytest.mark.parametrize("case", range(len(PVALUE_VECTORS)))
def test_adjust_pvalues_matches_r(r_p_adjust, case, method):
    """Adjusted p-values (Bonferroni; Holm's step-down; Hochberg's step-up;
    Hommel's closed Simes procedure, Wright 1992) == R ``p.adjust(p, method)``,
    in input order. R switches Hommel to Hochberg for m = 2 (identical)."""
    p = PVALUE_VECTORS[case]
    expected = np.asarray(r_p_adjust[case, method], dtype=float)
    got = nbstats.adjust_pvalues(p, method)
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=0)


# ---------------------------------------------------------------------------
# 6. Sign test with ties dropped == R binom.test
# ---------------------------------------------------------------------------


def _sign_test_pairs() -> list[tuple[np.ndarray, np.ndarray]]:
    pairs = list(INTEGER_PAIRS)
    pairs.append((np.zeros(15), np.r_[np.ones(13), -1.0, 0.0]))  # lopsided
    pairs.append((np.zeros(3), np.array([1.0, 0.0, 0.0])))  # one trial
    return pairs


SIGN_TEST_PAIRS = _sign_test_pairs()


@pytest.fixture(scope="module")
def r_binom(run_r_long):
    keys, expressions = [], []
    for i, (a, b) in enumerate(SIGN_TEST_PAIRS):
        wins, losses = int(np.sum(b > a)), int(np.sum(b < a))
        for alt in ALTERNATIVES:
            keys.append((i, alt))
            expressions.append(
                f"arr(binom.test({wins}, {wins + losses}, "
                f'alternative = "{R_ALTERNATIVE[alt]}")$p.value)'
            )
    return dict(zip(keys, run_r_long(r_script(expressions)), strict=True))


@pytest.mark.r_oracle
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("case", range(len(SIGN_TEST_PAIRS)))
def test_sign_test_drop_matches_r_binom_test(r_binom, case, alternative):
    """Classical sign test, ties discarded: b's wins ~ Binomial(wins + losses,
    ½) == R ``binom.test(wins, wins + losses, alternative = ...)`` (two-sided:
    sum of the probabilities not exceeding the observed one)."""
    a, b = SIGN_TEST_PAIRS[case]
    (expected,) = r_binom[case, alternative]
    res = nbstats.sign_test(a, b, ties="drop", alternative=alternative)
    assert res.statistic == np.sum(b > a)
    assert res.n_cases == np.sum(b != a)
    np.testing.assert_allclose(res.pvalue, expected, rtol=RTOL)

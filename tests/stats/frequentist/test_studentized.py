"""The vectorised studentized range tail against scipy's."""

import warnings

import numpy as np
import pytest
from scipy import integrate, special
from scipy.stats import studentized_range

from nbstats.stats.frequentist.studentized import studentized_range_sf

Q = np.array([0.0, 0.1, 0.5, 1, 2, 3, 3.5, 4, 5, 6, 8, 10, 15, 30])


@pytest.mark.parametrize(
    ("k", "df"),
    [(2, 1), (2, 2), (3, 10), (4, np.inf), (5, 39), (10, 5), (50, 1421), (200, 20)],
)
def test_matches_scipy(k, df):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's quad warns for some values
        expected = np.array([studentized_range.sf(q, k, df) for q in Q])
    np.testing.assert_allclose(studentized_range_sf(Q, k, df), expected, atol=1e-9)


def test_shape_and_negative_values():
    out = studentized_range_sf(np.array([[-1.0, 0.0], [1.0, 2.0]]), 3, 10)
    assert out.shape == (2, 2)
    assert out[0, 0] == out[0, 1] == pytest.approx(1.0)


@pytest.mark.parametrize(("k", "df", "match"), [(1, 5, "k >= 2"), (3, 0, "positive")])
def test_bad_arguments(k, df, match):
    with pytest.raises(ValueError, match=match):
        studentized_range_sf(1.0, k, df)


def _range_cdf(w: float, k: int) -> float:
    """P(range of k standard normals <= w) by adaptive quadrature (scipy's
    quad on ``k φ(z) [Φ(z) − Φ(z − w)]^(k−1)``, the power in log space), an
    integration independent of both scipy's studentized range and ours."""
    if w <= 0:
        return 0.0

    def integrand(z: float) -> float:
        inside = special.ndtr(z) - special.ndtr(z - w)
        if inside <= 0:
            return 0.0
        return np.exp(-z * z / 2 - 0.5 * np.log(2 * np.pi) + (k - 1) * np.log(inside))

    value, _ = integrate.quad(
        integrand,
        -10,
        12,
        points=list(np.linspace(-2, 8, 21)),
        epsabs=1e-16,
        epsrel=1e-13,
        limit=2000,
    )
    return k * value


@pytest.mark.parametrize("k", [1000, 4000, 10_000])
def test_many_means_known_variance_against_quadrature(k):
    # the inner integrand is a narrow peak near the maximum of k normals:
    # 160 Gauss-Legendre nodes gave errors of 1e-7 at k = 4000, 4e-7 at 10^4
    q = np.array([5.5, 6.0, 6.5, 7.0, 8.0, 9.0])
    expected = np.array([1 - _range_cdf(v, k) for v in q])
    np.testing.assert_allclose(studentized_range_sf(q, k, np.inf), expected, atol=1e-9)


@pytest.mark.parametrize(
    ("k", "df"), [(50, 2), (1000, 5), (4000, 1), (4000, 2), (4000, 5), (10_000, 5)]
)
def test_many_means_few_degrees_of_freedom(k, df):
    # the range's tail at q s is a sharp step in s when k is large: 96 nodes
    # over s missed scipy's adaptive integral by 2.6e-4 at k = 4000, df = 2
    q = np.array([3.0, 6.0, 8.0, 14.0, 30.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = np.array([studentized_range.sf(v, k, df) for v in q])
    np.testing.assert_allclose(studentized_range_sf(q, k, df), expected, atol=1e-9)


def test_ends_are_exact():
    out = studentized_range_sf(np.array([0.0, np.inf]), 4000, 5)
    assert out.tolist() == [1.0, 0.0]


def test_scipy_agrees_with_the_quadrature_at_many_means():
    # which of the two was right at k = 4000: scipy (to 1e-13 here)
    for q in (6.0, 7.0, 8.0):
        assert studentized_range.sf(q, 4000, np.inf) == pytest.approx(
            1 - _range_cdf(q, 4000), abs=1e-12
        )

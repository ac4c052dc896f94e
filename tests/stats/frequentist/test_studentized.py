"""The vectorised studentized range tail against scipy's."""

import warnings

import numpy as np
import pytest
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

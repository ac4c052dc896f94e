"""bayes_hierarchical(min_folds=K): each data set on the folds both scored.

The likelihood of a data set with J_i of its folds is checked against a
multivariate normal density (scipy) integrated over σ_i numerically; the
AutoML benchmark's failed folds run end to end.
"""

from __future__ import annotations

import importlib.util
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

import nbstats
from nbstats.stats.correlated import fold_design
from tests.real_tables import amlb_small_accuracy_folds

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("numpyro") is None,
    reason="the hierarchical extra (numpyro) is not installed",
)

AMLB = dict(case="task", algorithm="framework", score="acc", fold="fold")
#: few draws: one compiled sampler for the runs below (2 chains)
SMALL = dict(n_samples=200, warmup=200, chains=2, random_state=0)


@pytest.fixture(scope="module")
def amlb() -> pd.DataFrame:
    return amlb_small_accuracy_folds()


def _log_lik(x: np.ndarray, delta: float, rho: float, s_high: float) -> float:
    """log ∫₀^s_high N(x; δ1, σ² M) dσ, M = (1 − ρ)I + ρ11ᵀ, by quadrature
    over log σ (the mass spans orders of magnitude of σ)."""
    n = x.size
    m = (1 - rho) * np.eye(n) + rho * np.ones((n, n))

    def density(t: float) -> float:
        sigma = np.exp(t)
        normal = stats.multivariate_normal(np.full(n, delta), sigma**2 * m)
        return normal.pdf(x) * sigma

    value = integrate.quad(
        density, -30, np.log(s_high), limit=500, epsabs=0, epsrel=1e-12
    )[0]
    return float(np.log(value))


def test_likelihood_with_unequal_folds_is_the_correlated_normal():
    import jax
    from numpyro.infer.util import log_density

    from nbstats.stats.hierarchical_inputs import prepare as _prepare
    from nbstats.stats.hierarchical_model import _model

    rng = np.random.default_rng(0)
    d = rng.normal(0.01, 0.02, (3, 10))
    d[0, [2, 7]] = np.nan  # J = 8
    d[2, 5] = np.nan  # J = 9
    used = np.sum(~np.isnan(d), axis=1)
    design = fold_design(10, folds=10)
    prepared = _prepare(d, 0.0, design, used)
    data = prepared.model
    assert data.n.tolist() == [8, 10, 9]
    x = [row[~np.isnan(row)] / prepared.unit for row in d]
    np.testing.assert_allclose(data.mean, [r.mean() for r in x], rtol=1e-12)
    np.testing.assert_allclose(
        data.ss, [((r - r.mean()) ** 2).sum() for r in x], rtol=1e-12
    )
    args = (
        data.mean, data.ss, np.ones(3, bool), data.n.astype(float), data.rho,
        data.delta_high, data.std0_high, data.std_high, (1.0, 2.0), (0.01, 0.1),
    )  # fmt: skip
    hyper = dict(delta0=0.1, std0=0.5, alpha=1.5, beta=0.05, nu_minus_one=3.0)

    def joint(v: np.ndarray) -> float:
        with jax.enable_x64(True):
            params = {**hyper, "v": jax.numpy.asarray(v, dtype=jax.numpy.float64)}
            return float(log_density(_model, args, {}, params)[0])

    one, two = np.array([0.3, -0.2, 0.5]), np.array([0.9, 0.4, -0.6])
    # centred δ_i = v_i: Student prior plus the likelihood of the J_i folds;
    # every constant cancels in the difference
    prior = stats.t(hyper["nu_minus_one"] + 1, hyper["delta0"], hyper["std0"])
    expected = sum(
        prior.logpdf(p) - prior.logpdf(q)
        + _log_lik(xi, p, design.rho, data.std_high)
        - _log_lik(xi, q, design.rho, data.std_high)
        for xi, p, q in zip(x, one, two, strict=True)
    )  # fmt: skip
    assert joint(one) - joint(two) == pytest.approx(expected, rel=1e-9)


def test_amlb_refusal_names_bayes_hierarchical(amlb):
    with pytest.raises(ValueError, match="failed folds") as error:
        nbstats.bayes_hierarchical("TPOT", "oboe", data=amlb, **AMLB, folds=10)
    text = str(error.value)
    assert "min_folds=K to nbstats.bayes_hierarchical" in text
    assert "leaving out a data set" in text
    assert "('kc1', 'oboe'): 3 of 10 folds" in text


def test_amlb_min_folds_records_and_equals_leaving_the_cases_out(amlb):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # R̂ at so few draws
        res = nbstats.bayes_hierarchical(
            "TPOT", "oboe", data=amlb, **AMLB, folds=10, min_folds=8, **SMALL
        )
        # the same data without the three data sets: the same model, draws
        gone = amlb[~amlb["task"].isin(["credit-g", "fabert", "kc1"])]
        same = nbstats.bayes_hierarchical(
            "TPOT", "oboe", data=gone, **AMLB, folds=10, min_folds=8, **SMALL
        )
    assert res.left_out.values.tolist() == [
        ["credit-g", 6, 10],
        ["fabert", 0, 10],
        ["kc1", 3, 10],
    ]
    table = res.datasets.set_index("case")
    assert len(table) == 13 and res.n_folds == 10 and res.min_folds == 8
    wide = amlb.pivot(index=["task", "fold"], columns="framework", values="acc")
    for case, row in table.iterrows():
        d = (wide.loc[case, "oboe"] - wide.loc[case, "TPOT"]).dropna()
        assert row["folds"] == len(d)
        assert row["observed"] == pytest.approx(d.mean(), rel=1e-12)
    assert table.loc["blood-transfusion", "folds"] == 8
    assert table.loc["vehicle", "folds"] == 9
    assert same.prob_right == res.prob_right
    np.testing.assert_array_equal(same.region_samples, res.region_samples)
    text = res.summary()
    assert "on 13 data sets" in text
    assert re.search(r"data sets left out +: 3\n", text)
    assert re.search(r"paired folds required \(min_folds\) +: 8\n", text)
    assert "8–10 of 10" in text
    # the arrays with NaN for a failed fold give the same draws
    cases = list(table.index)
    a = wide["TPOT"].unstack("fold").loc[cases]
    b = wide["oboe"].unstack("fold").loc[cases]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        arrays = nbstats.bayes_hierarchical(a, b, folds=10, min_folds=8, **SMALL)
    np.testing.assert_array_equal(arrays.region_samples, res.region_samples)


@pytest.mark.parametrize(
    ("min_folds", "error", "message"),
    [
        (0, ValueError, "at least 2"),
        (1, ValueError, "at least 2"),
        (11, ValueError, "exceeds the 10 folds"),
        (2.5, TypeError, "whole number"),
    ],
)
def test_bad_min_folds(amlb, min_folds, error, message):
    with pytest.raises(error, match=message):
        nbstats.bayes_hierarchical(
            "TPOT", "oboe", data=amlb, **AMLB, folds=10, min_folds=min_folds
        )


def test_too_few_data_sets_left(amlb):
    two = amlb[amlb["task"].isin(["credit-g", "kc1", "car"])]
    with pytest.raises(ValueError, match="only 1 data set.*needs at least 2"):
        nbstats.bayes_hierarchical(
            "TPOT", "oboe", data=two, **AMLB, folds=10, min_folds=8
        )
    rng = np.random.default_rng(0)
    a = rng.normal(0.8, 0.01, (3, 10))
    b = a.copy()
    b[0, 0] = np.nan
    with pytest.raises(ValueError, match="min_folds=K to nbstats.bayes_hierarchical"):
        nbstats.bayes_hierarchical(a, b, folds=10)

"""bayes_hierarchical (Corani et al. 2017) against baycomp's HierarchicalTest.

The reference probabilities are baycomp's (Stan via pystan) on the bundled
UCI folds, stored by tests/data/make_hierarchical_reference.py. The sampler
is compiled once per (number of data sets, chains, warm-up, draws) per
process (tens of seconds each; a call after that costs its sampling only), so
the tests use three: the UCI data with 4 × 1000 draws (nbc vs aode, whose
probabilities need them), the UCI data with 4 × 200 (j48 vs j48gr: every
draw falls in the rope; its posterior has σ0 near 0 and ν near 1, and
tests/stats/test_hierarchical_init.py checks the cost of sampling it on the
same compiled sampler), and Q simulated data sets with the SMALL
settings for every other test (tests/widgets/test_folds_dashboard.py uses
them too).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.hierarchical import bayes_hierarchical

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "hierarchical_reference.json"
UCI = dict(case="dataset", algorithm="classifier", score="accuracy", fold="fold")
#: the MC error of a share of ~4000 correlated draws is ~0.01: ±0.03 holds
UCI_SAMPLES = 1000
#: j48 vs j48gr: baycomp puts every draw in the rope (prob_rope 1, mean
#: prob_rope 0.993); so do 4 × 200 draws, at a fifth of the cost
UCI_SETTINGS = {"j48:j48gr": {"n_samples": 200, "warmup": 200}}
#: every small test uses Q data sets and the SMALL sampler settings: one
#: compiled sampler for them all (4 chains × 500 draws after 300 warmup steps)
Q = 6
SMALL = {"n_samples": 500, "warmup": 300}


# A few divergent transitions can occur with Q = 6 simulated data sets and
# 1000 draws (σ0 is poorly determined); the warning is tested on its own.
pytestmark = pytest.mark.filterwarnings("ignore:the hierarchical model's sampler")


@pytest.fixture(scope="module")
def folds() -> pd.DataFrame:
    return nbstats.datasets.load("uci_accuracy_folds")


def _reference() -> dict:
    return json.loads(REFERENCE.read_text())


def _pairs() -> list[str]:
    # a missing reference file fails the test (it is committed), never skips it
    return sorted(_reference()["pairs"]) if REFERENCE.exists() else ["no reference"]


@pytest.mark.parametrize("pair", _pairs())
def test_matches_baycomp(folds: pd.DataFrame, pair: str) -> None:
    ref = _reference()
    entry = ref["pairs"][pair]
    settings = ref["settings"]
    draws = UCI_SETTINGS.get(pair, {"n_samples": UCI_SAMPLES})
    res = bayes_hierarchical(
        entry["a"], entry["b"], data=folds, **UCI, runs=settings["runs"],
        rope=settings["rope"], **draws, random_state=0,
    )  # fmt: skip
    got = (res.prob_left, res.prob_rope, res.prob_right)
    want = (entry["prob_left"], entry["prob_rope"], entry["prob_right"])
    assert np.allclose(got, want, atol=0.03), (got, want)
    mean_got = (res.mean_prob_left, res.mean_prob_rope, res.mean_prob_right)
    mean_want = (entry["mean_prob_left"], entry["mean_prob_rope"],
                 entry["mean_prob_right"])  # fmt: skip
    assert np.allclose(mean_got, mean_want, atol=0.03), (mean_got, mean_want)
    assert res.region_samples.shape == (4 * draws["n_samples"], 3)
    assert len(res.datasets) == entry["datasets"] == 54


def test_no_difference_puts_mass_on_rope() -> None:
    # Q data sets, a and b the same distribution: the folds of 10 runs of
    # 10-fold CV share a per-run offset (so the folds are correlated)
    rng = np.random.default_rng(7)
    q, runs, k = Q, 10, 10
    base = rng.uniform(0.7, 0.9, (q, 1))
    a = base + rng.normal(0, 0.02, (q, runs * k))
    b = base + rng.normal(0, 0.02, (q, runs * k))
    res = bayes_hierarchical(a, b, runs=runs, rope=0.01, **SMALL,
                             random_state=3)  # fmt: skip
    assert res.prob_rope > 0.9
    assert res.mean_prob_rope > res.mean_prob_left
    assert res.mean_prob_rope > res.mean_prob_right
    assert res.decision in ("equivalent", "undecided")
    # every shrunk interval covers 0, and shrinkage moves the means towards δ0
    # (up to the Monte Carlo error of a posterior mean: a data set whose
    # observed mean is already at δ0 can land a few standard errors off it)
    table = res.datasets
    assert (table["low"] < 0).all() and (table["high"] > 0).all()
    sd = (table["high"] - table["low"]) / (2 * 1.96)
    mc_error = 4 * (sd / np.sqrt(table["ess"]) + res.std0 / np.sqrt(res.ess))
    assert (np.abs(table["mean"] - res.delta0)
            <= np.abs(table["observed"] - res.delta0) + mc_error).all()  # fmt: skip
    # and on average the shrunk means are much closer to δ0 than observed
    shrunk = np.abs(table["mean"] - res.delta0).mean()
    assert shrunk < 0.5 * np.abs(table["observed"] - res.delta0).mean()


def test_a_clear_winner_and_symmetry() -> None:
    rng = np.random.default_rng(11)
    q, n = Q, 50
    a = rng.normal(0.80, 0.02, (q, n))
    b = a + 0.05 + rng.normal(0, 0.01, (q, n))
    res = bayes_hierarchical(a, b, folds=10, rope=0.01, **SMALL,
                             random_state=1)  # fmt: skip
    assert res.prob_right > 0.95 and res.decision == "b"
    assert res.mean_prob_right > 0.9
    # the observed means (an independent number: plain numpy) are recovered
    assert np.allclose(res.datasets["observed"], (b - a).mean(axis=1))
    assert abs(res.delta0 - 0.05) < 0.01
    swapped = bayes_hierarchical(b, a, folds=10, rope=0.01, **SMALL,
                                 random_state=1)  # fmt: skip
    assert swapped.prob_left > 0.95 and swapped.decision == "a"


def test_deterministic_and_unit_free() -> None:
    rng = np.random.default_rng(5)
    a = rng.normal(0.8, 0.03, (Q, 20))
    b = a + rng.normal(0.005, 0.02, (Q, 20))
    kwargs = dict(folds=10, rope=0.01, random_state=42, **SMALL)
    one = bayes_hierarchical(a, b, **kwargs)
    two = bayes_hierarchical(a, b, **kwargs)
    assert one == two
    np.testing.assert_array_equal(one.region_samples, two.region_samples)
    # scores and rope × 2^40 (exact in floating point, so the scaled model sees
    # the same numbers): the same draws, δ in the new units
    scale = 2.0**40
    big = bayes_hierarchical(a * scale, b * scale, **{**kwargs, "rope": 0.01 * scale})
    assert (big.prob_left, big.prob_rope, big.prob_right) == (
        one.prob_left,
        one.prob_rope,
        one.prob_right,
    )
    assert np.allclose(big.datasets["mean"], one.datasets["mean"] * scale, rtol=1e-9)
    # lower-is-better scores, negated: the same differences b − a, the same draws
    lower = bayes_hierarchical(-a, -b, higher_is_better=False, **kwargs)
    np.testing.assert_array_equal(lower.region_samples, one.region_samples)


def test_long_table_equals_arrays(folds: pd.DataFrame) -> None:
    names = ["anneal", "iris", "zoo", "wine", "glass", "sonar"]  # Q data sets
    pair = folds[folds["dataset"].isin(names)]
    wide = pair.pivot_table(index=["dataset", "fold"], columns="classifier",
                            values="accuracy")  # fmt: skip
    order = list(pd.unique(pair["dataset"]))  # the table's order
    a = wide["nbc"].unstack("fold").loc[order]
    b = wide["aode"].unstack("fold").loc[order]
    kwargs = dict(runs=10, rope=0.01, **SMALL, random_state=0)
    from_long = bayes_hierarchical("nbc", "aode", data=pair, **UCI, **kwargs)
    from_arrays = bayes_hierarchical(a, b, **kwargs)
    assert from_long.prob_right == from_arrays.prob_right
    assert list(from_long.datasets["case"]) == order
    assert list(from_arrays.datasets["case"]) == order
    assert from_long.name_a == "nbc" and from_long.name_b == "aode"
    assert "hierarchical" in from_long.summary()
    assert from_long.to_frame()["datasets"].iloc[0] == Q


def test_zero_variance_data_set_is_handled() -> None:
    rng = np.random.default_rng(2)
    a = rng.normal(0.8, 0.02, (Q, 20))
    b = a + rng.normal(0.0, 0.01, (Q, 20))
    b[0] = a[0]  # identical on every fold of the first data set
    res = bayes_hierarchical(a, b, folds=10, rope=0.01, **SMALL,
                             random_state=0)  # fmt: skip
    assert np.isfinite(res.datasets["mean"]).all()
    assert res.datasets["observed"].iloc[0] == 0.0


def _bad_long(folds: pd.DataFrame) -> pd.DataFrame:
    return folds[folds["dataset"].isin(["anneal", "iris"])].reset_index(drop=True)


def test_bad_inputs(folds: pd.DataFrame) -> None:
    small = _bad_long(folds)
    a = np.full((3, 10), 0.8) + np.arange(10) / 100
    with pytest.raises(ValueError, match="at least 2 data sets"):
        bayes_hierarchical(a[:1], a[:1] + 0.01, folds=10)
    with pytest.raises(ValueError, match="same shape"):
        bayes_hierarchical(a, a[:, :5], folds=10)
    b = a.copy()
    b[1, 3] = np.nan
    with pytest.raises(ValueError, match="missing or infinite"):
        bayes_hierarchical(a, b, folds=10)
    with pytest.raises(ValueError, match="say how the fold scores were made"):
        bayes_hierarchical(a, a + 0.01)
    with pytest.raises(ValueError, match="no difference to model"):
        bayes_hierarchical(a, a.copy(), folds=10)
    with pytest.raises(TypeError, match="is a name"):
        bayes_hierarchical("nbc", "aode", runs=10)
    with pytest.raises(ValueError, match="pass it as data="):
        bayes_hierarchical(a, a, case="dataset", folds=10)
    with pytest.raises(ValueError, match="not an algorithm"):
        bayes_hierarchical("nbc", "svm", data=small, **UCI, runs=10)
    # a fold of aode missing on iris: unequal folds between the algorithms
    gap = small.drop(small.index[(small["dataset"] == "iris")
                                 & (small["classifier"] == "aode")][:1])  # fmt: skip
    with pytest.raises(ValueError, match="unequal folds"):
        bayes_hierarchical("nbc", "aode", data=gap, **UCI, runs=10)
    # both algorithms lack the same fold on iris: fewer folds than anneal
    iris_last = (small["dataset"] == "iris") & (small["fold"] == 100)
    with pytest.raises(ValueError, match="different numbers of folds"):
        bayes_hierarchical("nbc", "aode", data=small[~iris_last], **UCI, runs=10)
    one = small[small["dataset"] == "iris"]
    with pytest.raises(ValueError, match="at least 2"):
        bayes_hierarchical("nbc", "aode", data=one, **UCI, runs=10)
    with pytest.raises(ValueError, match="multiple of 7"):
        bayes_hierarchical("nbc", "aode", data=small, **UCI, runs=7)
    with pytest.raises(ValueError, match="rope"):
        bayes_hierarchical(a, a + 0.01, folds=10, rope=-1)
    with pytest.raises(TypeError, match="n_samples"):
        bayes_hierarchical(a, a + 0.01, folds=10, n_samples=1.5)


def test_missing_extra_names_the_install() -> None:
    # a fresh interpreter where importing jax fails: nbstats imports, the
    # call raises an ImportError that says what to install
    code = """
import sys
sys.modules["jax"] = None
sys.modules["numpyro"] = None
import nbstats, numpy as np
assert "jax" not in [m for m in sys.modules if sys.modules[m] is not None]
from nbstats.stats.hierarchical import bayes_hierarchical
try:
    bayes_hierarchical(np.zeros((2, 10)), np.ones((2, 10)), folds=10)
except ImportError as error:
    print(error)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, timeout=60, check=True)  # fmt: skip
    assert "pip install nbstats[hierarchical]" in out.stdout


def test_import_nbstats_does_not_import_jax() -> None:
    code = "import sys, nbstats; print('jax' in sys.modules, 'numpyro' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, timeout=60, check=True)  # fmt: skip
    assert out.stdout.split() == ["False", "False"]


def test_missing_extra_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpyro", None)
    with pytest.raises(ImportError, match=r"pip install nbstats\[hierarchical\]"):
        bayes_hierarchical(np.zeros((2, 10)), np.ones((2, 10)), folds=10)


def test_diagnostics_warning() -> None:
    from nbstats.stats.hierarchical import _warn_diagnostics

    with pytest.warns(UserWarning, match="3 divergent"):
        _warn_diagnostics(3, 1.0, 1000)
    with pytest.warns(UserWarning, match="R̂ = 1.020"):
        _warn_diagnostics(0, 1.02, 1000)


def test_plots() -> None:
    import matplotlib.pyplot as plt

    from nbstats.plots import legend_texts
    from nbstats.plots.hierarchical import hierarchical_datasets, hierarchical_simplex
    from tests.plots.plot_helpers import picture_axes

    rng = np.random.default_rng(4)
    a = rng.normal(0.8, 0.02, (Q, 20))
    b = a + rng.normal(0.01, 0.01, (Q, 20))
    res = bayes_hierarchical(a, b, folds=10, rope=0.01, **SMALL,
                             random_state=0)  # fmt: skip
    ax = res.plot()
    texts = legend_texts(ax)
    assert texts[1].startswith("rope ±0.01: ")
    winners = np.bincount(np.argmax(res.region_samples, axis=1), minlength=3)
    assert winners[2] / len(res.region_samples) == res.prob_right
    plt.close(ax.figure)
    ax = hierarchical_datasets(res)
    names = {t.get_gid() for t in ax.texts if (t.get_gid() or "").startswith("name-")}
    assert len(names) == Q
    # each dot at its data set's posterior mean, read back by the axis' ticks
    to_x, _ = picture_axes(ax)
    means = [line for line in ax.lines if (line.get_gid() or "").startswith("mean-")]
    shown = sorted(float(to_x(line.get_xdata()[0])) for line in means)
    np.testing.assert_allclose(shown, sorted(res.datasets["mean"]), atol=1e-9)
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="kind must be"):
        res.plot(kind="bar")
    no_rope = bayes_hierarchical(a, b, folds=10, **SMALL, random_state=0)
    assert no_rope.prob_rope is None
    assert no_rope.prob_left + no_rope.prob_right == pytest.approx(1.0)
    with pytest.raises(ValueError, match="no rope"):
        hierarchical_simplex(no_rope)
    with pytest.raises(TypeError, match="bayes_hierarchical"):
        hierarchical_simplex(object())

"""Tukey's HSD after the repeated-measures ANOVA, against R's TukeyHSD."""

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.frequentist.tukey import tukey_hsd


def _r_tukey(run_r, table: pd.DataFrame) -> dict:
    """R: TukeyHSD(aov(y ~ algorithm + case), "algorithm") on the long table."""
    y = ", ".join(repr(float(v)) for v in table.to_numpy().ravel())
    n, k = table.shape
    script = f"""
y <- c({y})
alg <- factor(rep(1:{k}, times = {n}))
case <- factor(rep(1:{n}, each = {k}))
tk <- TukeyHSD(aov(y ~ alg + case), "alg")$alg
cat(sprintf('{{"names": [%s], "diff": [%s], "padj": [%s]}}',
    paste0('"', rownames(tk), '"', collapse = ","),
    paste(sprintf("%.17g", tk[, "diff"]), collapse = ","),
    paste(sprintf("%.17g", tk[, "p adj"]), collapse = ",")))
"""
    return run_r(script)


@pytest.mark.parametrize("seed", [None, 0, 1])
def test_matches_r_tukeyhsd(run_r, seed):
    if seed is None:
        table = nbstats.datasets.load("demsar2006")
    else:
        rng = np.random.default_rng(seed)
        table = pd.DataFrame(
            rng.normal(size=(12, 5)) + rng.normal(size=(12, 1)) + np.arange(5) * 0.4
        )
    expected = _r_tukey(run_r, table)
    res = tukey_hsd(table, higher_is_better=True)
    names = list(res.adjusted.columns)
    for label, diff, padj in zip(
        expected["names"], expected["diff"], expected["padj"], strict=True
    ):
        j, i = (int(x) - 1 for x in label.split("-"))  # "j-i": mean_j - mean_i
        a, b = names[i], names[j]
        assert res.adjusted.loc[a, b] == pytest.approx(padj, abs=1e-6)
        # t's sign: positive when b (the column) has the larger mean
        assert np.sign(res.statistics.loc[a, b]) == np.sign(diff)


def test_direction_flips_the_sign_not_the_pvalues():
    table = nbstats.datasets.load("demsar2006")
    up = tukey_hsd(table)
    down = tukey_hsd(-table, higher_is_better=False)
    pd.testing.assert_frame_equal(up.adjusted, down.adjusted)
    pd.testing.assert_frame_equal(up.statistics, down.statistics)


def test_scale_invariance_and_bad_alpha():
    table = nbstats.datasets.load("demsar2006")
    base = tukey_hsd(table)
    for scale in (1e-300, 1e300):
        res = tukey_hsd(table * scale)
        np.testing.assert_allclose(res.adjusted, base.adjusted, rtol=1e-9)
    with pytest.raises(
        ValueError, match=r"alpha must be a number in \(0, 1\), got 1\.5"
    ):
        tukey_hsd(table, alpha=1.5)

"""posthoc(method="wilcoxon", options=...) passes the Wilcoxon test's options
through (issue 18, item 5), so the pairwise matrices of R's
``pairwise.wilcox.test`` and scikit-posthocs' ``posthoc_wilcoxon`` come out
of one call."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs as sp

import nbstats


def _integer_table(seed: int = 3, n: int = 18, k: int = 4) -> pd.DataFrame:
    # integer scores: tied |differences| and zero differences in every pair
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 6, size=(n, k)) + np.arange(k)
    return pd.DataFrame(values.astype(float), columns=[f"alg{j}" for j in range(k)])


def _r_matrix(run_r, table: pd.DataFrame, adjust: str, exact: str, correct: str):
    values = ",".join(f"{v:g}" for v in table.to_numpy().T.ravel())
    n, k = table.shape
    script = f"""
x <- c({values})
g <- factor(rep(1:{k}, each = {n}))
res <- suppressWarnings(pairwise.wilcox.test(x, g, paired = TRUE,
    p.adjust.method = "{adjust}", exact = {exact}, correct = {correct}))
p <- res$p.value
cat("[", paste(sprintf("%.17g", p[lower.tri(p, diag = TRUE)]), collapse = ","), "]")
"""
    flat = iter(run_r(script))
    matrix = np.full((k, k), np.nan)
    for j in range(k - 1):  # R fills the lower triangle column by column
        for i in range(j + 1, k):
            matrix[i, j] = matrix[j, i] = next(flat)
    return matrix


@pytest.mark.parametrize("adjust", ["holm", "none", "bonferroni"])
@pytest.mark.parametrize("correct", [True, False])
def test_pairwise_wilcoxon_matches_r(run_r, adjust, correct):
    table = _integer_table()
    expected = _r_matrix(run_r, table, adjust, "FALSE", "TRUE" if correct else "FALSE")
    res = nbstats.posthoc(
        table,
        method="wilcoxon",
        adjust=adjust,
        options={"zero_method": "wilcox", "method": "approx", "correction": correct},
    )
    got = res.adjusted.to_numpy(dtype=float)
    off = ~np.eye(table.shape[1], dtype=bool)
    np.testing.assert_allclose(got[off], expected[off], rtol=1e-10)


def test_pairwise_wilcoxon_matches_scikit_posthocs():
    rng = np.random.default_rng(5)
    table = pd.DataFrame(
        rng.normal(size=(12, 4)) + np.linspace(0, 1, 4), columns=list("ABCD")
    )
    theirs = sp.posthoc_wilcoxon(
        table.melt(var_name="g", value_name="x").assign(
            block=np.tile(np.arange(12), 4)
        ),
        val_col="x",
        group_col="g",
        zero_method="wilcox",
        p_adjust="holm",
    )
    res = nbstats.posthoc(
        table, method="wilcoxon", adjust="holm", options={"zero_method": "wilcox"}
    )
    off = ~np.eye(4, dtype=bool)
    np.testing.assert_allclose(
        res.adjusted.to_numpy(dtype=float)[off],
        theirs.loc[list("ABCD"), list("ABCD")].to_numpy(dtype=float)[off],
        rtol=1e-10,
    )


def test_default_options_are_the_wilcoxon_defaults():
    table = _integer_table(seed=7)
    plain = nbstats.posthoc(table, method="wilcoxon", adjust="none")
    explicit = nbstats.posthoc(
        table,
        method="wilcoxon",
        adjust="none",
        options={"zero_method": "zsplit", "method": "auto", "correction": False},
    )
    pd.testing.assert_frame_equal(plain.pvalues, explicit.pvalues)
    a, b = table.columns[:2]
    direct = nbstats.wilcoxon(table[a], table[b], zero_method="pratt")
    pratt = nbstats.posthoc(
        table, method="wilcoxon", adjust="none", options={"zero_method": "pratt"}
    )
    assert pratt.pvalues.loc[a, b] == pytest.approx(direct.pvalue, rel=1e-12)


@pytest.mark.parametrize(
    ("method", "options", "message"),
    [
        ("nemenyi", {"zero_method": "wilcox"}, "takes none"),
        ("sign", {"correction": True}, "takes none"),
        ("wilcoxon", {"exact": True}, "unknown option 'exact'"),
        ("wilcoxon", {"zero_method": "drop"}, "zero_method='drop' is not one of"),
        ("wilcoxon", {"correction": 1}, "correction=1 is not one of"),
        ("wilcoxon", {"method": "permutation"}, "method='permutation'"),
    ],
)
def test_bad_options_are_refused(method, options, message):
    with pytest.raises(ValueError, match=message):
        nbstats.posthoc(_integer_table(), method=method, options=options)

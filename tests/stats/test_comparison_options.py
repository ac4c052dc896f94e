"""comparison_matrix(test=WilcoxonTest(...)) passes the Wilcoxon test's
options through (issue 18, item 5; issue 37: one options object, checked when
made), so the pairwise matrices of R's ``pairwise.wilcox.test`` and
scikit-posthocs' ``posthoc_wilcoxon`` come out of one call."""

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
    res = nbstats.comparison_matrix(
        table,
        test=nbstats.WilcoxonTest(
            zero_method="wilcox", method="approx", correction=correct
        ),
        adjust=adjust,
    )
    columns = list(table.columns)
    got = res.adjusted.loc[columns, columns].to_numpy(dtype=float)
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
    res = nbstats.comparison_matrix(
        table, test=nbstats.WilcoxonTest(zero_method="wilcox"), adjust="holm"
    )
    off = ~np.eye(4, dtype=bool)
    np.testing.assert_allclose(
        res.adjusted.loc[list("ABCD"), list("ABCD")].to_numpy(dtype=float)[off],
        theirs.loc[list("ABCD"), list("ABCD")].to_numpy(dtype=float)[off],
        rtol=1e-10,
    )


def test_default_options_are_the_wilcoxon_defaults():
    table = _integer_table(seed=7)
    plain = nbstats.comparison_matrix(table, test="wilcoxon", adjust="none")
    explicit = nbstats.comparison_matrix(
        table,
        test=nbstats.WilcoxonTest(
            zero_method="zsplit", method="auto", correction=False
        ),
        adjust="none",
    )
    pd.testing.assert_frame_equal(plain.pvalues, explicit.pvalues)
    assert plain.test == explicit.test == "wilcoxon"
    assert plain.test_options == explicit.test_options == nbstats.WilcoxonTest()
    a, b = table.columns[:2]
    direct = nbstats.wilcoxon(table[a], table[b], zero_method="pratt")
    pratt = nbstats.comparison_matrix(
        table, test=nbstats.WilcoxonTest(zero_method="pratt"), adjust="none"
    )
    assert pratt.pvalues.loc[a, b] == pytest.approx(direct.pvalue, rel=1e-12)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"exact": True}, TypeError, "unexpected keyword argument 'exact'"),
        ({"zero_method": "drop"}, ValueError, "unknown zero_method='drop'"),
        ({"correction": 1}, TypeError, "correction must be True or False"),
        ({"method": "permutation"}, ValueError, "unknown method='permutation'"),
    ],
)
def test_bad_options_are_refused_when_made(options, error, message):
    with pytest.raises(error, match=message):
        nbstats.WilcoxonTest(**options)


def test_options_are_frozen():
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        nbstats.WilcoxonTest().zero_method = "wilcox"  # type: ignore[misc]

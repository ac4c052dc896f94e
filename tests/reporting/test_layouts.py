"""The report's layouts (two-sample, standard, compact), aliases, folds, gaps.

Each executed report costs a kernel, so every report here is built once per
module and many assertions read it.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats
from nbstats.reporting import export, notebook, prepare
from nbstats.reporting.appendix import APPENDIX_ROWS, TABLES_FOLDER

LONG = [
    "HistGradientBoostingClassifier(max_iter=300, lr=0.05)",
    "RandomForestClassifier(n_estimators=500, max_depth=None)",
    "LogisticRegression(C=1.0, penalty='l2', solver='lbfgs')",
]


def _random_table(m: int, n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = rng.normal(0.8, 0.04, (n, m)) + np.linspace(0, 0.04, m)
    return pd.DataFrame(
        values,
        index=[f"data set {i}" for i in range(n)],
        columns=[f"algo_{j:02d}" for j in range(m)],
    )


def _executed(scores, **options):
    options = {**nbstats.reporting._REPORT_DEFAULTS, **options}  # report()'s defaults
    table, settings = nbstats.reporting._prepare(scores, **options)
    nb = notebook.build_notebook(table, settings)
    return export.execute_notebook(nb), settings


def _text(nb) -> str:
    return nbstats.reporting._plain_text(nb)


def _labels(nb) -> list[str]:
    return [
        meta["label"]
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if (meta := out.get("metadata", {}).get("nbstats", {})).get("label")
    ]


# -- choosing the layout ---------------------------------------------------------


@pytest.mark.parametrize(
    ("m", "layout"),
    [
        (2, "two-sample"),
        (3, "standard"),
        (12, "standard"),
        (13, "compact"),
        (100, "compact"),
    ],
)
def test_layout_follows_the_number_of_algorithms(m, layout):
    assert prepare.choose_layout(m) == layout


def test_layouts_can_be_forced_where_they_make_sense():
    assert prepare.choose_layout(20, "standard") == "standard"
    assert prepare.choose_layout(4, "compact") == "compact"
    with pytest.raises(ValueError, match="needs at least 3 algorithms"):
        prepare.choose_layout(2, "compact")
    with pytest.raises(ValueError, match="compares exactly 2 algorithms"):
        prepare.choose_layout(5, "two-sample")
    with pytest.raises(ValueError, match="unknown layout=.tiny.; choose one of"):
        prepare.choose_layout(5, "tiny")


def test_aliases_replace_only_the_long_names():
    """One long name no longer turns every name into a letter (issue 27)."""
    table = _random_table(3, 6)
    table.columns = [LONG[0], "svm_C", LONG[1]]
    given = prepare.prepare(table)
    assert given.aliases == {LONG[0]: "A", LONG[1]: "B"}
    assert prepare.prepare(table, aliases=True).aliases == dict(
        zip(table.columns, "ABC", strict=True)
    )


def test_prepare_records_dropped_cases_aliases_and_folds():
    table = _random_table(3, 6)
    table.columns = LONG
    table.iloc[1, 0] = np.nan
    given = prepare.prepare(table, nan_policy="omit")
    assert given.dropped == ["data set 1"]
    assert given.complete.shape == (5, 3)
    assert given.table.shape == (6, 3) and np.isnan(given.table.iloc[1, 0])
    assert given.aliases == dict(zip(LONG, "ABC", strict=True))
    assert prepare.prepare(table, nan_policy="omit", aliases=False).aliases == {}
    with pytest.raises(ValueError, match=r"missing scores at .*nan_policy='omit'"):
        prepare.prepare(table)
    pairwise = prepare.prepare(table, nan_policy="pairwise")
    assert pairwise.dropped == ["data set 1"]  # from the all-algorithm analyses
    assert np.isnan(pairwise.table.iloc[1, 0])  # kept for the pair tables
    with pytest.raises(ValueError, match="unknown nan_policy=.pair."):
        prepare.prepare(table, nan_policy="pair")


def test_missing_cells_survive_the_embedded_csv():
    table = _random_table(3, 4)
    table.iloc[2, 1] = np.nan
    back = notebook.read_scores(notebook.scores_csv(table), index_name="case")
    np.testing.assert_array_equal(back.to_numpy(), table.to_numpy())


# -- two algorithms: Demšar's Table 2 ----------------------------------------------


@pytest.fixture(scope="module")
def two_sample():
    table = nbstats.datasets.load("demsar2006_table2")
    nb, _ = _executed(table, rope=0.01)
    return table, nb, _text(nb)


def test_two_algorithms_get_the_two_sample_analysis(two_sample):
    _table, nb, text = two_sample
    assert "two-sample analysis" in text
    # no omnibus test, no critical-difference diagram, no rank intervals
    assert "Friedman test rejects" not in text
    assert "Friedman test does not reject" not in text
    assert "Critical-difference" not in text
    assert "confidence intervals for the ranks" not in text
    labels = _labels(nb)
    assert labels == [
        "tab:core",  # the answer first: the two algorithms' summary
        "tab:scores",
        "tab:two-sample",
        "tab:bayes-two-sample",
        "fig:posterior",
    ]


def test_two_sample_numbers_match_demsar_and_scipy(two_sample):
    table, _, text = two_sample
    # Demšar (2006), Table 2: R+ = 93 for C4.5+m, R- = 12, T = 12
    assert "R⁺ = 93 for C4.5+m and R⁻ = 12 for C4.5" in text
    assert "T = 12" in text
    # the p-value the API computes (checked against R's coin elsewhere)
    wilcoxon = nbstats.wilcoxon(table["C4.5"], table["C4.5+m"])
    shown = re.search(r"T = 12, p = ([0-9.]+);", text)
    # p-values are shown with 3 decimals (the number policy)
    assert float(shown.group(1)) == pytest.approx(wilcoxon.pvalue, abs=5e-4)
    # rank-biserial r = (R+ - R-) / (R+ + R-) = 81 / 105
    # (an effect size: 2 decimals by the number policy)
    assert "r = 0.77," in text and "is large" in text
    # the sign test: 10 wins, 2 losses, 2 ties (Demšar counts 11 with ties split)
    assert "wins on 10 cases and loses on 2, with 2 ties" in text
    sign_p = stats.binomtest(11, 14).pvalue  # ties split: 11 of 14
    shown = re.search(
        r"sign test (?:rejects|does not reject) equality \(p = ([0-9.]+)\)", text
    )
    assert float(shown.group(1)) == pytest.approx(sign_p, rel=0.01)


def test_two_sample_bayesian_tests_state_the_rope(two_sample):
    _, _, text = two_sample
    assert "equivalent (difference within the rope ±0.01)" in text
    assert "Bayesian signed-rank" in text and "Bayesian sign" in text


# -- long names, missing cells -----------------------------------------------------


@pytest.fixture(scope="module")
def aliased():
    table = _random_table(3, 8, seed=1)
    table.columns = LONG
    table.iloc[0, 2] = np.nan
    table.iloc[3, 0] = np.nan
    nb, settings = _executed(table, nan_policy="omit", analyses=("frequentist",))
    return table, nb, _text(nb), settings


def test_long_names_get_aliases_and_a_legend(aliased):
    _table, nb, text, settings = aliased
    assert settings.aliases == dict(zip(LONG, "ABC", strict=True))
    # the answer-first summary (full names beside the aliases), then the legend
    assert _labels(nb)[:3] == ["fig:cd", "tab:core", "tab:aliases"]
    for name in LONG:
        assert name in text  # in the summary and the legend ...
    legend_end = text.index("Table 3.")
    for name in LONG:  # ... and nowhere after it
        assert name not in text[legend_end:]


def test_no_warning_or_error_reaches_the_report(aliased, two_sample, compact):
    for nb in (aliased[1], two_sample[1], compact[1]):
        for cell in nb.cells:
            for out in cell.get("outputs", []):
                assert out["output_type"] in ("display_data", "execute_result"), out


def test_dropped_cases_are_named_and_counted(aliased):
    _, _, text, _ = aliased
    assert "2 of 8 cases had missing scores and were dropped" in text
    assert "data set 0 and data set 3" in text
    assert "Missing scores per algorithm: A (1), C (1)" in text
    assert "The analyses use the remaining 6 cases" in text
    # Methods: the cases given, the complete ones, and which analyses used them
    assert "We compared 3 algorithms on 8 cases" in text
    assert "Of the 8 cases, 6 have a score from every algorithm" in text
    assert "used the 6 complete cases only (the 2 others left out" in text


# -- per-fold data -------------------------------------------------------------------


def test_per_fold_data_is_averaged_and_said(tmp_path):
    folds = nbstats.datasets.load("uci_accuracy_folds")
    path = nbstats.reporting.report(
        folds,
        tmp_path / "folds.ipynb",
        case="dataset",
        algorithm="classifier",
        score="accuracy",
        fold="fold",
        analyses=("frequentist",),
    )
    import nbformat

    text = _text(nbformat.read(path, as_version=4))
    assert "each algorithm's 100 fold scores on a case" in text
    assert "mean of the algorithm's 100 cross-validation fold scores" in text
    # the Friedman statistic of the authors' own per-data-set means (ties
    # included: averaging must not break a tie by a rounding difference)
    means = nbstats.friedman(nbstats.datasets.load("uci_accuracy")).statistic
    assert f"χ²_F = {means:.4g}" in text


# -- many algorithms ---------------------------------------------------------------


@pytest.fixture(scope="module")
def compact():
    table = _random_table(30, 12, seed=2)
    nb, _ = _executed(table, rope=0.01)
    return table, nb, _text(nb)


def test_compact_layout_for_many_algorithms(compact):
    table, nb, text = compact
    assert "compact layout" in text and "more than 12" in text
    labels = _labels(nb)
    # the answer first (the ranked summary and Figure 1; above CORE_ROWS
    # algorithms Table 1, of the best-ranked, comes first), then the data
    assert labels[:3] == ["tab:core", "fig:cd", "tab:summary"]
    # the full score table only in the appendix, after the pairs that matter
    assert labels.index("tab:scores") > labels.index("tab:nemenyi")
    # 435 pairs > APPENDIX_ROWS: the full pairwise tables are CSV files only
    assert APPENDIX_ROWS < 30 * 29 // 2
    assert "tab:nemenyi-all" not in labels and "tab:signrank-all" not in labels
    names = [
        out["metadata"]["nbstats"]["name"]
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.get("metadata", {}).get("nbstats", {}).get("kind") == "csv"
    ]
    assert names == [
        "summary-all.csv",  # Table 1 in full (30 > CORE_ROWS algorithms)
        "nemenyi_pairs.csv",
        "signrank_pairs.csv",
        "joint_statements.csv",
    ]
    # the signed-rank CSV says what its own columns hold: rows (a, b) with b
    # the better-ranked, effect r of b minus a, recomputed here by hand
    out = next(
        out
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.get("metadata", {}).get("nbstats", {}).get("name")
        == "signrank_pairs.csv"
    )
    assert "rank-biserial correlation of b minus a" in out["data"]["text/plain"]
    pairs = pd.read_csv(io.StringIO(out["metadata"]["nbstats"]["csv"]))
    mean = nbstats.mean_ranks(table)
    assert (mean[pairs["b"]].to_numpy() <= mean[pairs["a"]].to_numpy()).all()
    for row in pairs.head(20).itertuples():
        d = (table[row.b] - table[row.a]).to_numpy()
        d = d[d != 0]
        ranks = stats.rankdata(np.abs(d))
        r = (ranks[d > 0].sum() - ranks[d < 0].sum()) / ranks.sum()
        assert row.effect == pytest.approx(r, abs=1e-9)


def test_compact_tables_hold_the_neighbours_in_the_ranking(compact):
    table, _nb, text = compact
    mean = nbstats.mean_ranks(table)
    caption = re.search(
        r"Table \d+\. Bayesian signed-rank test of the neighbours", text
    )
    assert caption
    section = text[caption.start() :]
    section = section[: section.index("\n\n", section.index("comparison"))]
    rows = re.findall(r"^(algo_\d\d) vs (algo_\d\d)", section, flags=re.M)
    assert len(rows) == 29
    for better, worse in rows:
        low, high = sorted((mean[better], mean[worse]))
        # neighbours: no other algorithm ranks strictly between them
        between = mean[(mean > low) & (mean < high)]
        assert between.empty
    # listed best first
    better = [min(mean[x], mean[y]) for x, y in rows]
    assert better == sorted(better)


def test_compact_csv_files_equal_the_results(compact):
    table, nb, _ = compact
    files = export.csv_files(nb)
    nemenyi = pd.read_csv(__import__("io").StringIO(files["nemenyi_pairs.csv"]))
    expected = nbstats.posthoc(table, method="nemenyi").to_frame()
    assert len(nemenyi) == 435
    np.testing.assert_allclose(nemenyi["adjusted"], expected["adjusted"])


def test_latex_export_writes_the_csv_files_and_names_them(compact, tmp_path):
    _, nb, _ = compact
    body, extras = export.export_notebook(nb, "tex", stem="many algorithms")
    assert "many_algorithms_tables/nemenyi_pairs.csv" in extras
    latex = body.decode()
    assert TABLES_FOLDER not in latex
    assert r"many\_algorithms\_tables/nemenyi\_pairs.csv" in latex


def test_opening_uses_no_alias_before_the_table_that_defines_it():
    # 8 scikit-learn-style names too long for the tables: aliases A, B, ...
    names = [
        "HistGradientBoostingClassifier(max_iter=300, lr=0.05)",
        "RandomForestClassifier(n_estimators=500)",
        "LogisticRegression(C=1.0, penalty='l2')",
        "GaussianNB()",
    ]
    table = _random_table(4, 20, seed=5)
    table.columns = names
    text = nbstats.reporting.report_text(table, analyses=("frequentist",))
    opening = text.split("\n\n")[1]
    assert opening.startswith("This report compares 4 algorithms (Table ")
    aliases = re.search(r"^Table (\d+)\. Aliases", text, flags=re.M)
    assert aliases and f"(Table {aliases[1]} names them)" in opening
    # short names are listed as they are
    short = nbstats.datasets.load("demsar2006")
    opening = nbstats.reporting.report_text(short, analyses=("frequentist",))
    assert "4 algorithms (C4.5, C4.5+m, C4.5+cf and C4.5+m+cf) on" in opening

"""report(..., nan_policy="pairwise"): complete cases for the all-algorithm
analyses, each pair's own cases for the Bayesian signed-rank table."""

import re
import warnings

import nbformat
import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.cli.commands import main
from nbstats.reporting.cells import signrank_frame
from nbstats.reporting.display import start
from nbstats.results.number_policy import format_number


def _table(m: int) -> pd.DataFrame:
    rng = np.random.default_rng(m)
    names = [
        f"HistGradientBoostingClassifier(max_iter={100 * j}, lr=0.05)" for j in range(m)
    ]
    values = rng.normal(size=(14, m)) * 0.02 + np.linspace(0.70, 0.76, m)
    values[1, 0] = values[4, 1] = values[9, m - 1] = np.nan
    return pd.DataFrame(
        values, columns=names, index=[f"data set {i}" for i in range(14)]
    )


def _text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            assert output.output_type != "error", output
            parts.append(output.get("data", {}).get("text/plain", ""))
            parts.append(output.get("data", {}).get("text/markdown", ""))
            parts.append(output.get("text", ""))
    return re.sub(r"\s+", " ", "\n".join(parts))


@pytest.mark.parametrize("m", [3, 8])
def test_report_states_the_policy_and_pair_counts(tmp_path, m):
    table = _table(m)
    path = nbstats.reporting.report(
        table, tmp_path / "pairwise.ipynb", nan_policy="pairwise",
        analyses=["bayesian"],
    )  # fmt: skip
    text = _text(nbformat.read(path, as_version=4))
    assert "nan_policy = 'pairwise'" in text
    assert "3 of 14 cases had missing scores" in text
    assert "cases" in text  # the pair table's column of pair counts


def test_pair_table_numbers_equal_the_pair_alone():
    table = _table(3)
    res = nbstats.bayes_signrank_pairs(
        table, n_samples=5000, random_state=0, interval=False, nan_policy="pairwise"
    )
    frame, caption = signrank_frame(res)
    assert "nan_policy = 'pairwise'" in caption
    for row in res.pairs.itertuples():
        both = table[[row.a, row.b]].dropna()
        assert frame.loc[f"{row.b} vs {row.a}", "cases"] == len(both)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            alone = nbstats.bayes_signrank(
                both[row.a], both[row.b], n_samples=5000, random_state=0
            )
        # the pairs share one stream of weights by case (shared_draws.py):
        # the pair alone's posterior in law, within Monte Carlo error
        p = max(alone.prob_lower * (1 - alone.prob_lower), 1e-4)
        assert abs(row.prob_lower - alone.prob_lower) <= 5 * (2 * p / 5000) ** 0.5


def test_cli_takes_pairwise(tmp_path):
    csv = tmp_path / "scores.csv"
    _table(3).to_csv(csv, index_label="case")
    code = main(
        ["report", str(csv), "--nan-policy", "pairwise", "--analyses", "bayesian",
         "-o", str(tmp_path / "r.ipynb")]
    )  # fmt: skip
    assert code in (0, None)
    text = _text(nbformat.read(tmp_path / "r.ipynb", as_version=4))
    assert "nan_policy = 'pairwise'" in text


def test_dashboards_refuse_pairwise_with_the_fix():
    with pytest.raises(ValueError, match="pass nan_policy='omit'"):
        nbstats.dashboard(_table(3), nan_policy="pairwise")


def test_a_pair_without_shared_cases_is_refused_before_the_report(tmp_path):
    table = _table(3)
    table.iloc[:, 0] = np.where(np.arange(14) < 7, table.iloc[:, 0], np.nan)
    table.iloc[:7, 1] = np.nan
    with pytest.raises(ValueError, match="share at least 2 cases"):
        nbstats.reporting.report(table, tmp_path / "x.ipynb", nan_policy="pairwise")


def test_every_case_reaches_skillings_mack_and_the_rank_intervals(tmp_path):
    table = _table(5)
    path = nbstats.reporting.report(
        table, tmp_path / "pairwise.ipynb", nan_policy="pairwise",
        analyses=["frequentist", "ranks"],
    )  # fmt: skip
    text = _text(nbformat.read(path, as_version=4))
    sm = nbstats.skillings_mack(table)
    assert "Skillings and Mack's test (Friedman's test for missing cells)" in text
    # a statistic by the number policy (at most 2 decimals), as its table
    assert f"T = {format_number(sm.statistic, 'statistic')}, df" in text
    rc = nbstats.rank_ci(table, nan_policy="pairwise")
    assert "Skillings–Mack" in text  # the rank intervals' omnibus test
    for name, lower, upper in zip(rc.lower.index, rc.lower, rc.upper, strict=True):
        assert f"[{lower}, {upper}]" in text or f"{lower} {upper}" in text, name


def test_pair_table_shows_each_pairs_effect():
    res = nbstats.bayes_signrank_pairs(
        _table(3), n_samples=2000, random_state=0, interval=False,
        nan_policy="pairwise",
    )  # fmt: skip
    start(tables=["tab:signrank"], figure_formats=())  # the report's first r
    frame, caption = signrank_frame(res)
    assert "r: the effect size" in caption and "second minus the first" in caption
    for row in res.pairs.itertuples():
        # the row names b first: r of the second minus the first, a − b, the
        # one convention of a report's pairwise tables (the pairs store b − a)
        assert frame.loc[f"{row.b} vs {row.a}", "r"] == round(-row.effect, 2)

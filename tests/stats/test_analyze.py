"""nbstats.analyze: the checks, the choices (as autorank makes them) and the text."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.analyze import analyze


def _autorank_choice(table: pd.DataFrame) -> str:
    import autorank  # an oracle: in the test extra, so never skipped

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = autorank.autorank(table, alpha=0.05, verbose=False)
    return res.omnibus


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("shape", ["normal", "skewed"])
def test_omnibus_choice_agrees_with_autorank(seed, shape):
    # autorank's rule for k >= 3 is the one documented here: Shapiro-Wilk per
    # algorithm (Bonferroni), then Bartlett/Levene; ANOVA if normal and
    # homoscedastic, else Friedman
    rng = np.random.default_rng(seed)
    k, n = 3 + seed % 3, 25
    draw = rng.normal if shape == "normal" else rng.lognormal
    table = pd.DataFrame(
        draw(size=(n, k)) * (2 if shape == "skewed" else 1) + np.arange(k) * 0.3,
        columns=[f"algorithm {j}" for j in range(k)],
    )
    res = analyze(table, bayes=False)
    expected = _autorank_choice(table)
    assert expected in ("anova", "friedman")
    assert res.parametric == (expected == "anova")
    assert type(res.omnibus).__name__ == (
        "AnovaResult" if expected == "anova" else "FriedmanResult"
    )


def test_components_equal_the_direct_calls():
    table = nbstats.datasets.load("demsar2006")
    res = analyze(table, random_state=0, n_samples=2000)
    assert res.omnibus == nbstats.rm_anova(table)
    from nbstats.stats.frequentist.tukey import tukey_hsd

    assert res.pairwise == tukey_hsd(table)
    # draws to the default precision: 2,000 first, more where needed
    assert res.bayes == nbstats.bayes_signrank_pairs(
        table, random_state=0, n_samples=2000, interval=False, mc_error=0.002
    )
    fixed = analyze(table, random_state=0, n_samples=2000, mc_error=None)
    assert fixed.bayes == nbstats.bayes_signrank_pairs(
        table, random_state=0, n_samples=2000, interval=False
    )
    row = res.effect_sizes.iloc[0]
    direct = nbstats.effect_size(table[row["a"]], table[row["b"]], effect="cohen-d")
    assert row["value"] == pytest.approx(direct.value)


def test_rank_based_path_uses_friedman_and_nemenyi():
    rng = np.random.default_rng(3)
    table = pd.DataFrame(rng.lognormal(size=(30, 4)) ** 2 + np.arange(4))
    res = analyze(table, bayes=False)
    assert not res.parametric
    assert res.omnibus == nbstats.friedman(table)
    assert res.pairwise == nbstats.posthoc(table, method="nemenyi")
    assert res.effect_sizes["kind"].eq("rank-biserial").all()
    assert "Friedman test with the Iman–Davenport correction" in res.text


def test_no_posthoc_without_rejection():
    rng = np.random.default_rng(11)
    table = pd.DataFrame(rng.normal(size=(20, 4)))
    res = analyze(table, bayes=False)
    assert res.omnibus.pvalue > 0.05
    assert res.pairwise is None
    assert "no post-hoc test" in res.text
    assert res.log.set_index("step").loc["post-hoc", "choice"] == "none"


@pytest.mark.parametrize("normal", [True, False])
def test_two_algorithms(normal):
    rng = np.random.default_rng(2)
    a = rng.normal(size=25)
    noise = rng.normal(size=25) if normal else rng.standard_cauchy(size=25)
    table = pd.DataFrame({"A": a, "B": a + 0.8 + 0.3 * noise})
    res = analyze(table, random_state=1, n_samples=2000)
    assert res.omnibus is None
    if res.parametric:
        assert res.pairwise == nbstats.ttest(table["A"], table["B"])
    else:
        assert res.pairwise == nbstats.wilcoxon(table["A"], table["B"])
    assert res.parametric == (res.assumptions.loc[0, "pvalue"] > 0.05)
    # one pair to the default precision: the draws at which any probability
    # has a standard error below 0.002
    assert res.bayes == nbstats.bayes_signrank(
        table["A"], table["B"], random_state=1, n_samples=62_501
    )
    fixed = analyze(table, random_state=1, n_samples=2000, mc_error=None)
    assert fixed.bayes == nbstats.bayes_signrank(
        table["A"], table["B"], random_state=1, n_samples=2000
    )


def test_text_and_html_state_the_numbers_without_e_notation():
    table = nbstats.datasets.load("demsar2006")
    res = analyze(table, bayes=False)
    for text in (res.text, str(res), res._repr_html_()):
        assert not re.search(r"\de-\d", text)
        assert "= <" not in text
    assert "p = 0.009" in res.text  # p-values to 3 decimals (format_pvalue)
    assert "Tukey" in res._repr_html_()


def test_too_few_cases_for_the_checks_is_said():
    table = pd.DataFrame({"A": [0.1, 0.2], "B": [0.3, 0.5], "C": [0.2, 0.1]})
    res = analyze(table, bayes=False)
    assert not res.parametric
    assert res.log.set_index("step").loc["normality", "choice"] == "not checked"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"alpha": 0}, ValueError, r"alpha must be a number in \(0, 1\), got 0"),
        ({"alpha": True}, TypeError, r"alpha must be a number in \(0, 1\), got True"),
        ({"rope": -1.0}, ValueError, "rope must be a number >= 0, got -1.0"),
        ({"n_samples": 0}, ValueError, "n_samples must be a whole number >= 1"),
        ({"random_state": "x"}, TypeError, "random_state must be None, an int"),
        ({"mc_error": 0.6}, ValueError, r"mc_error must be a number in \(0, 0.5\)"),
        ({"bayes": "no"}, TypeError, "bayes must be True or False"),
        ({"higher_is_better": 1}, TypeError, "higher_is_better must be"),
        ({"nan_policy": "pairwise"}, ValueError, "analyze uses every algorithm"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        analyze(nbstats.datasets.load("demsar2006"), **kwargs)


def test_the_bayesian_ranking_is_part_of_the_analysis():
    table = nbstats.datasets.load("demsar2006")
    res = analyze(table, random_state=3)
    expected = nbstats.bayes_plackett_luce(table, random_state=3)
    assert res.ranking == expected
    best = expected.prob_best.idxmax()
    assert f"gives {best} the highest probability of being the best" in res.text
    assert "Plackett–Luce" in res.log["choice"].str.cat()
    assert "Bayesian Plackett–Luce ranking" in res.summary()


def test_no_bayesian_ranking_for_two_algorithms_or_without_bayes():
    table = nbstats.datasets.load("demsar2006")
    assert analyze(table.iloc[:, :2], random_state=0).ranking is None
    res = analyze(table, bayes=False)
    assert res.ranking is None
    assert "Plackett" not in res.text

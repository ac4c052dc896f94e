"""Each result writes its own Methods sentence (nbstats.results.methods_text)."""

from __future__ import annotations

import pytest

import nbstats
from nbstats.reporting import methods, references
from nbstats.reporting.results import ReportResults
from nbstats.results import bibliography, prose
from nbstats.results.methods_text import MethodsContext


@pytest.fixture(scope="module")
def table():
    return nbstats.datasets.load("demsar2006")


def test_nemenyi_states_demsars_critical_difference_as_the_table_does(table):
    # Demšar (2006), §3.2.2: CD = 1.25 at α = 0.05 for 4 algorithms on 14 sets
    res = nbstats.posthoc(table, method="nemenyi")
    text = res.methods_sentence(MethodsContext()).text()
    assert text.startswith("All pairs of algorithms were compared with the Nemenyi")
    assert "at α = 0.05 (critical difference CD = 1.25 of mean ranks" in text
    assert text.endswith("diagram [2]. ")  # Demšar is the second work it cites
    # the same figure the result's own table prints
    assert "critical difference : 1.25\n" in res.summary()


def test_holm_against_a_control_as_a_sentence_and_a_clause(table):
    res = nbstats.posthoc(table, method="holm", control="C4.5+m+cf", alpha=0.1)
    context = MethodsContext()
    assert (
        res.methods_sentence(context)
        .text()
        .startswith(
            "Every algorithm was compared against the best-ranked one, C4.5+m+cf,"
        )
    )
    assert (
        res.methods_clause(context, also=True)
        .text()
        .startswith("every algorithm was also compared against")
    )
    assert "at α = 0.1. " in res.methods_sentence(context).text()


def test_a_post_hoc_method_without_a_sentence_says_which_have_one(table):
    res = nbstats.posthoc(table, method="shaffer")
    with pytest.raises(ValueError, match="method='nemenyi'"):
        res.methods_sentence(MethodsContext())


def test_a_result_without_a_sentence_says_so(table):
    res = nbstats.quade(table)
    with pytest.raises(NotImplementedError, match="QuadeResult writes no Methods"):
        res.methods_sentence(MethodsContext())


def test_friedman_states_its_degrees_of_freedom(table):
    # k − 1 = 3 and (k − 1)(N − 1) = 39 (Demšar 2006, §3.2.2)
    text = nbstats.friedman(table).methods_sentence(MethodsContext()).text()
    assert "without tie correction, 3 degrees of freedom" in text
    assert "(3 and 39 degrees of freedom). " in text


def test_bayesian_thresholds_are_written_as_probabilities(table):
    a, b = table.iloc[:, 0], table.iloc[:, 1]
    res = nbstats.bayes_signrank(a, b, prior="bb", loss=(1, 19), random_state=0)
    text = res.methods_sentence(MethodsContext(seed=4, loss=(1, 19))).text()
    # l1 / (l0 + l1) = 19/20, printed as a probability (3 decimals)
    assert "(l0, l1) = (1, 19) of a Type II and a Type I error" in text
    assert "l1/(l0 + l1) = 0.95: an algorithm was decided better" in text
    assert "The two algorithms were compared" in text
    assert "(seed 4, a Monte Carlo standard error" in text
    sign = nbstats.bayes_sign_test(a, b, rope=0.01)
    assert (
        "deciding at threshold 0.95. "
        in sign.methods_sentence(MethodsContext(score_unit="points")).text()
    )
    assert (
        "a rope of ±0.01 points"
        in sign.methods_sentence(MethodsContext(score_unit="points")).text()
    )


def test_one_pairs_result_and_one_result_per_pair_say_the_same(table):
    pairs = nbstats.bayes_signrank_pairs(table, prior="idp", random_state=0)
    one = nbstats.bayes_signrank(
        table.iloc[:, 0], table.iloc[:, 1], prior="idp", random_state=0
    )
    n = len(pairs.pairs)
    assert n == 6  # C(4, 2)
    context = MethodsContext(seed=0)
    from_pairs = pairs.methods_sentence(context).text()
    from_one = one.methods_sentence(MethodsContext(seed=0, n_pairs=n)).text()
    assert from_pairs.startswith("Each of the 6 pairs of algorithms was compared")
    head = from_pairs.split("; all pairs shared")[0]
    assert from_one.split("; all pairs shared")[0] == head
    # the near-ignorance prior's decision rule, with its default s
    assert "indeterminate when a lower and an upper probability" in head
    assert "(√17 − 3)/2" in head


def test_rank_intervals_state_each_method(table):
    context = MethodsContext(seed=5)
    texts = {
        method: nbstats.rank_ci(table, method=method, alpha=0.1, random_state=0)
        .methods_sentence(context)
        .text()
        for method in ("id-wilcoxon-2s", "id-nemenyi", "anova-tukey")
    }
    assert "two-sided Wilcoxon signed-rank tests" in texts["id-wilcoxon-2s"]
    assert "followed by the Nemenyi test" in texts["id-nemenyi"]
    assert "Tukey's HSD at α = 0.1. " in texts["anova-tukey"]
    for text in texts.values():
        assert text.startswith("Simultaneous 90% confidence intervals")
    boot = nbstats.rank_ci(table, method="bootstrap", n_resamples=300, random_state=0)
    assert (
        "used 300 resamples of the cases (seed 5). "
        in boot.methods_sentence(context).text()
    )


def test_the_paragraph_is_the_results_sentences_in_order(table):
    friedman = nbstats.friedman(table)
    rank_ci = nbstats.rank_ci(table)
    para = methods.methods_paragraph(
        ReportResults(friedman=friedman, rank_ci=rank_ci),
        n_cases=14,
        n_algorithms=4,
        higher_is_better=True,
        seed=0,
    )
    context = MethodsContext(seed=0)
    first = friedman.methods_sentence(context).text()
    second = rank_ci.methods_sentence(context).text()
    # the citation numbers differ (they go on through the paragraph); the words not
    strip = str.maketrans("", "", "0123456789")
    text = para.text().translate(strip)
    assert (first + second).translate(strip) in text


def test_prose_moved_below_the_reports_and_is_re_exported():
    assert references.Paragraph is prose.Paragraph
    assert references.cite is prose.cite
    assert references.REFERENCES is bibliography.REFERENCES
    assert methods.rope_text(1, "points") == "±1 points"
    para = prose.Paragraph().add("See", prose.cite("holm1979"), ".")
    assert para.latex() == "See~\\cite{holm1979}."


def test_joint_statements_state_the_prior_they_used(table):
    # under the near-ignorance prior the procedure ranks and accepts by lower
    # probabilities; under a point prior by the posterior probabilities
    idp = nbstats.bayes_posthoc(
        table, test="signrank", prior="idp", s=1.0, rope=0.01, random_state=0
    )
    point = nbstats.bayes_posthoc(
        table, test="signrank", prior="point", s=1.0, rope=0.01, random_state=0
    )
    context = MethodsContext(seed=0)
    idp_text = idp.methods_sentence(context).text()
    point_text = point.methods_sentence(context).text()
    assert "near-ignorance prior of strength s = 1" in idp_text
    assert "lower joint posterior probability" in idp_text
    assert "at \u201cequal\u201d" not in idp_text
    assert "with a prior of strength s = 1 at \u201cequal\u201d" in point_text
    assert "lower" not in point_text

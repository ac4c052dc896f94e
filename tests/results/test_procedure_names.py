"""Procedures are named in words in a post-hoc result's title, as in figures."""

import pytest

import nbstats
from nbstats.results.procedure_names import (
    ADJUSTMENT_NAMES,
    POSTHOC_NAMES,
    adjustment_name,
    posthoc_name,
)
from nbstats.stats.frequentist.adjust import ADJUSTMENTS
from nbstats.stats.frequentist.posthoc import POSTHOC_METHODS


def test_every_procedure_and_correction_has_a_name():
    assert set(POSTHOC_METHODS) <= set(POSTHOC_NAMES)
    assert set(ADJUSTMENTS) <= set(ADJUSTMENT_NAMES)


@pytest.mark.parametrize(
    ("kwargs", "title"),
    [
        ({"method": "nemenyi"}, "Post-hoc comparisons (Nemenyi), α = 0.05"),
        (
            {"method": "bonferroni-dunn", "control": "C4.5"},
            "Post-hoc comparisons (Bonferroni–Dunn) against C4.5, α = 0.05",
        ),
        (
            {"method": "holm", "ranks": "aligned"},
            "Post-hoc comparisons (Holm on aligned ranks), α = 0.05",
        ),
        (
            {"method": "shaffer", "control": "C4.5"},
            "Post-hoc comparisons (Holm) against C4.5, α = 0.05",
        ),
    ],
)
def test_posthoc_title_names_the_procedure_in_words(kwargs, title):
    table = nbstats.datasets.load("demsar2006")
    assert nbstats.posthoc(table, **kwargs)._title() == title


@pytest.mark.parametrize(
    ("kwargs", "title"),
    [
        (
            {"adjust": "bergmann-hommel"},
            "Comparison matrix: Wilcoxon signed-rank tests, Bergmann–Hommel "
            "adjustment, matched-pairs rank-biserial r",
        ),
        (
            {"test": "sign", "adjust": "none", "alpha": 0.1},
            "Comparison matrix: sign tests, unadjusted, matched-pairs rank-biserial r",
        ),
    ],
)
def test_comparison_matrix_title_names_the_test_in_words(kwargs, title):
    table = nbstats.datasets.load("demsar2006")
    assert nbstats.comparison_matrix(table, **kwargs)._title() == title


def test_a_code_without_a_name_is_written_as_it_is():
    assert posthoc_name("made-up") == "made-up"
    assert adjustment_name("made-up") == "made-up"

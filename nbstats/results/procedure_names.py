"""The frequentist procedures' names in words, for titles, captions and controls.

A post-hoc result carries its procedure as a code (``method="bonferroni-dunn"``,
``adjust="holm"``, ``ranking="aligned"``); what a reader sees is the name in
these tables, so a figure's caption, a result's title and a dashboard's menu
name a procedure the same way.

>>> from nbstats.results.procedure_names import adjustment_name, posthoc_name
>>> posthoc_name("bonferroni-dunn"), adjustment_name("bergmann-hommel")
('Bonferroni–Dunn', 'Bergmann–Hommel')
>>> posthoc_name("my-own-test")  # a code with no name is written as it is
'my-own-test'
"""

from __future__ import annotations

__all__ = [
    "ADJUSTMENT_NAMES",
    "POSTHOC_NAMES",
    "RANKING_NAMES",
    "adjustment_clause",
    "adjustment_name",
    "posthoc_name",
    "ranking_name",
]

#: Post-hoc procedures (``posthoc(method=...)``) by the name of the test.
POSTHOC_NAMES = {
    "nemenyi": "Nemenyi",
    "bonferroni-dunn": "Bonferroni–Dunn",
    "holm": "Holm",
    "hochberg": "Hochberg",
    "hommel": "Hommel",
    "finner": "Finner",
    "li": "Li",
    "rom": "Rom",
    "shaffer": "Shaffer",
    "bergmann-hommel": "Bergmann–Hommel",
    "conover": "Conover",
    "wilcoxon": "Wilcoxon signed-rank",
    "sign": "sign",
    "ttest": "paired t",
}

#: Corrections of many p-values (``adjust=...``): the step-wise procedures
#: are the post-hoc procedures of the same name.
ADJUSTMENT_NAMES = {
    **{
        code: POSTHOC_NAMES[code]
        for code in (
            "holm", "hochberg", "hommel", "finner", "li", "rom", "shaffer",
            "bergmann-hommel",
        )
    },
    "bonferroni": "Bonferroni",
    "none": "none",
}  # fmt: skip

#: The ranks a post-hoc result compares (its ``ranking``).
RANKING_NAMES = {
    "friedman": "Friedman ranks",
    "aligned": "aligned ranks",
    "quade": "Quade ranks",
    "durbin": "Durbin ranks, incomplete design",
}


def posthoc_name(method: str) -> str:
    """The post-hoc procedure ``method`` in words (the code if it has none)."""
    return POSTHOC_NAMES.get(method, method)


def adjustment_name(adjust: str) -> str:
    """The p-value correction ``adjust`` in words (the code if it has none)."""
    return ADJUSTMENT_NAMES.get(adjust, adjust)


def ranking_name(ranking: str) -> str:
    """The ranks ``ranking`` in words (the code if it has none)."""
    return RANKING_NAMES.get(ranking, ranking)


def adjustment_clause(method: str, adjust: str) -> str:
    """What follows a procedure's name to say how its p-values were
    corrected: nothing when the procedure is its own correction (Holm's
    test), ``", unadjusted"``, or ``", Holm adjustment"``.

    >>> adjustment_clause("holm", "holm"), adjustment_clause("sign", "none")
    ('', ', unadjusted')
    >>> posthoc_name("wilcoxon") + adjustment_clause("wilcoxon", "finner")
    'Wilcoxon signed-rank, Finner adjustment'
    """
    if adjust == method:
        return ""
    if adjust == "none":
        return ", unadjusted"
    return f", {adjustment_name(adjust)} adjustment"

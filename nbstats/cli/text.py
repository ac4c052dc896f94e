"""The frequentist analysis as plain text (``nbstats analyze --detail
frequentist`` and ``nbstats demo --text``): every test and post-hoc procedure of
Demšar (2006) on one score table."""

from __future__ import annotations

import numpy as np
import pandas as pd

import nbstats.scores as scores
from nbstats.results.number_policy import format_column
from nbstats.results.procedure_names import posthoc_name


def frequentist_analysis(
    table: pd.DataFrame,
    *,
    alpha: float = 0.05,
    control: str | None = None,
    higher_is_better: bool = True,
) -> str:
    """The complete frequentist analysis of a score table, as readable text.

    Friedman and Iman–Davenport, repeated-measures ANOVA, Nemenyi (with CD and
    groups), then comparisons against ``control`` (default: the worst-ranked
    algorithm) with Bonferroni–Dunn, Holm, Hochberg and Hommel, and all pairs
    with Shaffer and with Holm-adjusted Wilcoxon tests.
    """
    from nbstats.stats import frequentist
    from nbstats.stats.comparison import comparison_matrix

    table = scores.score_table(table)
    hib = {"higher_is_better": higher_is_better}
    ranks = scores.mean_ranks(table, **hib)
    if control is None:
        control = str(ranks.idxmax())
    direction = "higher" if higher_is_better else "lower"
    out = [
        f"{table.shape[1]} algorithms on {table.shape[0]} cases "
        f"({direction} scores are better; rank 1 = best)",
        "",
        "Scores with ranks",
        "-----------------",
        _scores_with_ranks(table, higher_is_better),
        "",
        frequentist.friedman(table, **hib).summary(),
        "",
        frequentist.rm_anova(table).summary(),
        "",
    ]
    for level in sorted({alpha, 0.10}):
        out += [
            frequentist.posthoc(table, method="nemenyi", alpha=level, **hib).summary(),
            "",
        ]
    out += [
        frequentist.posthoc(
            table, method="bonferroni-dunn", control=control, alpha=alpha, **hib
        ).summary(),
        "",
    ]
    out.append(f"Step-down and step-up procedures against {control} (α = {alpha:g})")
    out.append("-" * len(out[-1]))
    decisions = {}
    for method in ("holm", "hochberg", "hommel"):
        res = frequentist.posthoc(
            table, method=method, control=control, alpha=alpha, **hib
        )
        decisions[method] = _by_policy(res.adjusted, "pvalue") + res.reject.map(
            {True: " *", False: ""}
        )
    first = frequentist.posthoc(
        table, method="holm", control=control, alpha=alpha, **hib
    )
    z = format_column(list(first.statistics), "statistic")
    summary = pd.DataFrame(
        {
            # the header names a common power of ten, if the column has one
            z.header("z"): pd.Series(z.cells, index=first.statistics.index),
            "p": _by_policy(first.pvalues, "pvalue"),
            **{f"{posthoc_name(m)} adj. p": v for m, v in decisions.items()},
        }
    )
    out += [summary.to_string(), "(* = rejected)", ""]
    out += [
        frequentist.posthoc(table, method="shaffer", alpha=alpha, **hib).summary(),
        "",
    ]
    out += [
        comparison_matrix(
            table, test="wilcoxon", adjust="holm", alpha=alpha, **hib
        ).summary(),
        "",
    ]
    return "\n".join(out)


#: The score table printed shows at most this many cases (the first ones).
SHOWN_CASES = 100


def _scores_with_ranks(table: pd.DataFrame, higher_is_better: bool) -> str:
    """Every score with its rank and the mean ranks; beyond
    :data:`SHOWN_CASES` cases the first ones and how many more (the mean
    ranks are over all of them)."""
    mean = scores.mean_ranks(table, higher_is_better=higher_is_better)
    shown = table.iloc[:SHOWN_CASES]
    ranks = scores.ranks(shown, higher_is_better=higher_is_better)
    # the number policy, as the report's score table: the decimals of the
    # whole table (no header names a power of ten, so an extreme scale is
    # written in scientific notation), the mean ranks as every rank column
    written = format_column(
        shown.to_numpy().ravel().tolist(), "score", common_scale=False
    )
    texts = np.reshape(np.array(written.cells, dtype=object), shown.shape)
    cells = pd.DataFrame(texts, index=shown.index, columns=shown.columns)
    cells += ranks.map(lambda r: f" ({r:g})")
    left_out = len(table) - len(shown)
    if left_out:
        cells.loc[f"… {left_out:,} more cases"] = [""] * cells.shape[1]
    cells.loc["mean rank"] = format_column(mean.tolist(), "rank").cells
    return cells.to_string()


def demo_text() -> str:
    """The frequentist analysis of Demšar's Tables 2 and 6."""
    from nbstats.datasets import load

    table6 = load("demsar2006")
    table2 = load("demsar2006_table2")
    header = (
        "nbstats demo: Demšar (2006), Tables 2 and 6 — AUC of C4.5 variants on 14 "
        "UCI data sets.\n(The 'voting' tie in Table 6 is broken as in the paper: "
        "C4.5+cf = 0.97501; see nbstats.datasets.)\n"
    )
    two = [
        "Two algorithms (Table 2): C4.5 vs C4.5+m",
        "========================================",
        "",
        table2.compare.wilcoxon("C4.5", "C4.5+m").summary(),
        "",
        table2.compare.sign_test("C4.5", "C4.5+m").summary(),
        "",
        table2.compare.ttest("C4.5", "C4.5+m").summary(),
        "",
        "Several algorithms (Table 6)",
        "============================",
        "",
    ]
    return header + "\n" + "\n".join(two) + frequentist_analysis(table6, control="C4.5")


def _by_policy(values: pd.Series, kind: str) -> pd.Series:
    """A column written by the number policy, as the result tables write it."""
    return pd.Series(format_column(list(values), kind).cells, index=values.index)

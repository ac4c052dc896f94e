"""The report's coverage section: where the missing scores are, and what
leaving algorithms out would keep (:func:`nbstats.coverage`).

The report notebook has the section when the scores have missing cells
(``nan_policy="omit"`` or ``"pairwise"``); its cell (template/data.py) calls
:func:`coverage_section` in the kernel.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from nbstats.reporting.display import paragraph, ref
from nbstats.reporting.references import Paragraph
from nbstats.reporting.tables import frame_table
from nbstats.results.coverage import name_list, percent

__all__ = ["coverage_paragraph", "coverage_section"]

#: Algorithms with holes named in the paragraph (the table lists them all).
NAMED = 6
#: Up to this many algorithms with holes the report searches the trade-off
#: exactly (``method="auto"``); above, greedily (said in the text and table),
#: so that the section costs seconds at any size.
EXACT_UP_TO = 50


def coverage_paragraph(result: Any, nan_policy: str) -> Paragraph:
    """What the holes are, what the report's ``nan_policy`` did with them,
    what leaving algorithms out would keep, and which analyses use the
    incomplete table as it is."""
    n, m = result.n_cases, result.n_algorithms
    holed = result.per_algorithm[result.per_algorithm["missing"] > 0]
    named = [f"{name} ({int(k)})" for name, k in holed["missing"].head(NAMED).items()]
    more = len(holed) - len(named)
    incomplete = n - result.n_complete
    para = Paragraph().add(
        f"{result.n_missing:,} of the {n * m:,} scores are missing, in "
        f"{incomplete} of the {n} cases; {len(holed)} of the {m} algorithms "
        f"{'have' if len(holed) != 1 else 'has'} holes: "
        f"{', '.join(named)}"
        + (f" and {more} more" if more > 0 else "")
        + f". {result.n_complete} cases are complete. "
    )
    para.add(
        "The analyses that rank every algorithm on the same cases (the Friedman "
        "test, the rank-based post-hoc tests, the critical-difference diagram, "
        "the rank intervals and the Bayesian Friedman test) use only those "
        f"{result.n_complete} complete cases ({percent(result.n_complete, n)} of "
        f"the {n})"
        + (
            ": more than half of the cases are left out, and the complete ones "
            "may be a biased subset (e.g. the cases on which every slow method "
            "finished). "
            if 2 * incomplete > n
            else ". "
        )
    )
    if nan_policy == "pairwise":
        para.add(
            "The tests of each pair use every case where both algorithms have "
            "a score, Skillings and Mack's test and the Plackett–Luce ranking "
            "every case with at least two scores. "
        )
    rows = result.tradeoff
    better = rows[rows["n_cases"] * 2 >= n]
    if len(rows) > 1:
        para.add(ref("tab:coverage"), " shows which algorithms to leave out to keep ")
        para.add("more complete cases")
        if incomplete and len(better) and better.iloc[0]["n_left_out"]:
            row = better.iloc[0]
            para.add(
                f": leaving out {row['n_left_out']} "
                f"({name_list(row['left_out'])}) keeps {row['n_cases']} "
                f"complete cases for the other {row['n_algorithms']}"
            )
        para.add(
            " (an exact search). "
            if rows["exact"].all()
            else " (a greedy search where an exact one was too costly, so a "
            "row may keep fewer cases than the best set would; the table marks "
            "the rows proven best). "
        )
    para.add(
        "Skillings and Mack's test, the pairwise tests, the Bayesian signed-rank "
        "test of each pair and the Plackett–Luce partial rankings use the "
        "incomplete table as it is (nbstats.coverage lists them with the cases "
        "each would use)."
    )
    return para


def coverage_section(raw: pd.DataFrame, *, nan_policy: str = "omit") -> None:
    """Paragraph and trade-off table of :func:`nbstats.coverage` of ``raw``."""
    from nbstats.stats.coverage import coverage

    holed = int(raw.isna().any(axis=0).sum())
    result = coverage(raw, method="auto" if holed <= EXACT_UP_TO else "greedy")
    paragraph(coverage_paragraph(result, nan_policy))
    frame = result.tradeoff_frame(changes=True)
    kinds = result._kinds()
    frame_table(
        "tab:coverage",
        f"Complete cases (of {result.n_cases}) for each number of the "
        f"{result.n_algorithms} algorithms kept: the algorithms left out change "
        "from row to row (+ also left out, − back in); no set of as many "
        "algorithms or fewer keeps more cases"
        + ("" if result.tradeoff["exact"].all() else " in the rows proven best")
        + ".",
        frame,
        kinds=kinds,
    )

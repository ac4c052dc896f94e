"""What the report says about its data.

- :func:`data_notes`: which layout the number of algorithms chose and why,
  how many folds were averaged, which cases were dropped for missing scores;
- :func:`alias_legend`: the table mapping short aliases to full names;
- :func:`ranked_summary`: one row per algorithm, best first (the compact
  layout's Data table; the full score table moves to the appendix).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from nbstats.reporting.display import (
    _and,
    paragraph,
    ref,
)
from nbstats.reporting.references import Paragraph
from nbstats.reporting.tables import frame_table

__all__ = ["alias_legend", "data_notes", "ranked_summary"]


#: Cases named in the text before "and k more".
_CASES_SHOWN = 10


def data_notes(
    raw: pd.DataFrame,
    scores: pd.DataFrame,
    *,
    layout: str,
    nan_policy: str = "raise",
    folds: Mapping[str, Any] | None = None,
) -> None:
    """The paragraph on the layout, the folds and the dropped cases."""
    from nbstats.reporting.prepare import COMPACT_ABOVE

    m = scores.shape[1]
    para = Paragraph()
    if layout == "two-sample":
        para.add(
            "With two algorithms, this report uses the two-sample analysis "
            "(Wilcoxon signed-ranks and sign tests and their Bayesian "
            "counterparts); the Friedman test, the critical-difference diagram "
            "and the rank intervals, which compare three or more algorithms, "
            "are left out. "
        )
    elif layout == "compact":
        para.add(
            f"With {m} algorithms (more than {COMPACT_ABOVE}), this report uses "
            "its compact layout: a ranked summary instead of the score table, "
            "diagrams and heatmaps for the pairwise results, and in the text "
            "only the pairs that matter (neighbours in the ranking and "
            "significant differences); every full table is in the Appendix. "
        )
    else:
        para.add(
            f"With {m} algorithms (3 to {COMPACT_ABOVE}), this report shows "
            "every score and every pair. "
        )
    if folds:
        k_low, k_high = folds["min_folds"], folds["max_folds"]
        k = str(k_low) if k_low == k_high else f"{k_low} to {k_high}"
        columns = ", ".join(str(c) for c in folds["columns"])
        runs = f" ({folds['runs']} runs)" if folds.get("runs") else ""
        scored = f"{k} fold scores{runs}"
        if folds.get("failed_folds"):  # not every cell has all k
            scored = (
                f"fold scores{runs} ({k} per case; {folds['failed_folds']} failed, "
                "and the cells short of folds average those they have, as "
                "Methods details)"
            )
        para.add(
            f"The scores are per-fold: each algorithm's {scored} "
            f"on a case (fold column{'s' if len(folds['columns']) > 1 else ''} "
            f"{columns}) were averaged ({folds.get('aggregate', 'mean')}) into "
            "one score per case before the tests, which treat the cases as the "
            "independent units. "
        )
    dropped = [str(c) for c in raw.index if c not in scores.index]
    if dropped and nan_policy == "pairwise" and layout != "two-sample":
        para.add(
            "Missing scores are handled pair by pair: the analyses that "
            "compare every "
            "algorithm on the same cases (the Friedman and Bayesian Friedman "
            "tests, the rank-based post-hoc tests, the critical-difference "
            "diagram and the joint Bayesian statements) use the complete cases "
            "below, while Skillings and Mack's test (Friedman's for missing "
            "cells) and the Bayesian Plackett–Luce ranking use every case as it "
            "is (a case ranks the algorithms it has), and the rank intervals' "
            "Wilcoxon tests and the Bayesian signed-rank test of each pair use "
            "every case where both algorithms have a score (the pair table "
            "gives their number), so the two can differ on a pair. "
        )
    if dropped:
        missing = raw.loc[raw.index.isin(dropped)].isna().sum().to_numpy()
        # raw has the full names, scores the aliases shown everywhere else
        which = [
            f"{name} ({int(k)})"
            for name, k in zip(scores.columns, missing, strict=True)
            if k
        ]
        shown = dropped[:_CASES_SHOWN]
        more = len(dropped) - len(shown)
        para.add(
            f"{len(dropped)} of {len(raw)} cases had missing scores and were "
            f"dropped{' from those analyses' if nan_policy == 'pairwise' else ''}"
            f": {_and(shown)}"
            + (f" and {more} more" if more else "")
            + f". Missing scores per algorithm: {', '.join(which)}. "
            + (
                f"The analyses of every algorithm at once use the remaining "
                f"{len(scores)} cases. "
                if nan_policy == "pairwise" and layout != "two-sample"
                else f"The analyses use the remaining {len(scores)} cases. "
            )
        )
    elif nan_policy == "omit":
        para.add("No score is missing, so no case was dropped. ")
    paragraph(para)


def alias_legend(aliases: Mapping[str, str]) -> None:
    """The table of aliases and the full names they stand for: only the
    names replaced (``{full name: alias}``; a name shown as it is has no
    row)."""
    aliases = {name: alias for name, alias in aliases.items() if alias != name}
    frame = pd.DataFrame(
        {"algorithm": list(aliases)},
        index=pd.Index(list(aliases.values()), name="alias"),
    )
    paragraph(
        Paragraph().add(
            "Tables and figures name the algorithms of ",
            ref("tab:aliases"),
            " by short aliases, as their names are long; the others by their "
            "own names.",
        )
    )
    frame_table(
        "tab:aliases",
        "Aliases used in the tables and figures, and the algorithms they stand for.",
        frame,
    )


def ranked_summary(scores: pd.DataFrame, *, higher_is_better: bool = True) -> None:
    """Table: the algorithms best first, with mean rank and score statistics."""
    from nbstats.scores.ranks import ranks as rank_table

    ranks = rank_table(scores, higher_is_better=higher_is_better)
    mean_rank = ranks.mean()
    order = mean_rank.sort_values(kind="stable").index
    best = ranks.eq(ranks.min(axis=1), axis=0)
    frame = pd.DataFrame(
        {
            "mean rank": mean_rank[order],
            "mean score": scores[order].mean(),
            "median score": scores[order].median(),
            "best on": best[order].sum().astype(int),
        }
    )
    frame.index.name = "algorithm"
    frame.insert(0, "position", np.arange(1, len(frame) + 1))
    direction = "higher" if higher_is_better else "lower"
    frame_table(
        "tab:summary",
        f"The {scores.shape[1]} algorithms ordered by mean rank over the "
        f"{scores.shape[0]} cases (1 = best; {direction} scores are better): "
        "mean and median score, and on how many cases each is best (ties "
        "count for all tied). Every score is in the Appendix.",
        frame,
    )

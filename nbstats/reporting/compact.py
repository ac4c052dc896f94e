"""What the report says about its data, and the compact layout for many algorithms.

- :func:`data_notes`: which layout the number of algorithms chose and why,
  how many folds were averaged, which cases were dropped for missing scores;
- :func:`alias_legend`: the table mapping short aliases to full names;
- :func:`ranked_summary`: one row per algorithm, best first (the compact
  layout's Data table; the full score table moves to the appendix);
- :func:`adjacent_pairs`: the pairs that matter in a long pairwise table;
- ``appendix_*``: the full tables of the compact layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from nbstats.reporting.data import csv_text
from nbstats.reporting.display import (
    _and,
    _display,
    _n,
    defined_at,
    paragraph,
    pointer,
    ref,
)
from nbstats.reporting.references import Paragraph
from nbstats.reporting.tables import frame_table, result_table
from nbstats.results.effect_size import MAGNITUDE_BOUNDS
from nbstats.results.render import escape_latex

__all__ = [
    "adjacent_pairs",
    "alias_legend",
    "appendix_frequentist",
    "appendix_note",
    "data_notes",
    "effect_caption",
    "ranked_summary",
    "ranking_order",
    "typeset_pairs",
]

#: Cases named in the text before "and k more".
_CASES_SHOWN = 10

#: A full pairwise table longer than this many rows is not typeset in the
#: appendix (m > 25 algorithms); it is a CSV file instead (a download link in
#: HTML, a file in ``<report>_tables/`` beside a PDF or LaTeX report).
APPENDIX_ROWS = 300


def typeset_pairs(n_pairs: int) -> bool:
    """Whether a full pairwise table of ``n_pairs`` rows is typeset in the appendix."""
    return n_pairs <= APPENDIX_ROWS


#: Replaced, when a PDF or LaTeX report is written, by the folder of its tables.
TABLES_FOLDER = "@@NBSTATS-TABLES-FOLDER@@"


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


def adjacent_pairs(
    a: Sequence[str], b: Sequence[str], order: Sequence[str]
) -> np.ndarray:
    """Mask of the pairs (a[i], b[i]) whose members are neighbours in ``order``."""
    position = {name: i for i, name in enumerate(order)}
    return np.array(
        [abs(position[x] - position[y]) == 1 for x, y in zip(a, b, strict=True)],
        dtype=bool,
    )


def ranking_order(
    a: Sequence[str], b: Sequence[str], order: Sequence[str]
) -> np.ndarray:
    """The indices that list the pairs (a[i], b[i]) best first.

    A pair's place is that of its better-ranked member in ``order`` (best
    first), then that of the other member.

    Examples
    --------
    >>> ranking_order(["C", "A", "B"], ["B", "B", "A"], ["A", "B", "C"]).tolist()
    [1, 2, 0]
    """
    position = {name: i for i, name in enumerate(order)}
    places = [sorted((position[x], position[y])) for x, y in zip(a, b, strict=True)]
    first = np.array([p[0] for p in places], dtype=int)
    second = np.array([p[1] for p in places], dtype=int)
    return np.lexsort((second, first))


def appendix_note() -> None:
    """The appendix's opening sentence."""
    paragraph(
        Paragraph().add(
            "The tables below hold every score and every pair; the text above "
            f"shows only the pairs that matter. Pairwise tables of more than "
            f"{APPENDIX_ROWS} rows are given as CSV files instead, and every "
            "pairwise table is also a CSV file (links below; beside a PDF or "
            "LaTeX report, in its folder of tables)."
        )
    )


def csv_download(
    name: str,
    description: str,
    frame: pd.DataFrame,
    *,
    tables: Mapping[str, str] | None = None,
) -> None:
    """A full table as a CSV file: a download link in HTML, a file beside LaTeX.

    HTML embeds the file as a ``data:`` URI (the report stays one file);
    the PDF and LaTeX exports write it to ``<report>_tables/<name>``, which
    the LaTeX text names. ``tables`` ({file name: LaTeX}): the same table
    typeset, written beside it in ``<report>_tables/`` by those exports
    (for a paper's appendix).
    """
    import base64
    import html

    text = csv_text(frame)
    rows = len(frame)
    encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
    link = (
        f'<a download="{html.escape(name)}" '
        f'href="data:text/csv;charset=utf-8;base64,{encoded}">{html.escape(name)}</a>'
    )
    latex_name = escape_latex(name)
    _display(
        {
            "text/html": f'<p class="nbstats-text nbstats-download">{link}: '
            f"{html.escape(description)} ({rows:,} rows, CSV).</p>",
            "text/latex": f"\\noindent\\texttt{{{TABLES_FOLDER}/{latex_name}}}: "
            f"{escape_latex(description)} ({rows:,} rows, CSV file beside this "
            "report).\n\n",
            "text/plain": f"{name}: {description} ({rows:,} rows, CSV).",
        },
        {
            "nbstats": {
                "kind": "csv",
                "name": name,
                "csv": text,
                **({"tables_files": dict(tables)} if tables else {}),
            }
        },
    )


def effect_text(minuend: str = "second", subtrahend: str = "first") -> str:
    """What a pairwise table's effect column r is (ends a caption): the
    rank-biserial correlation of the ``minuend`` algorithm of a row minus the
    ``subtrahend``, and the bounds of its magnitude words.

    Examples
    --------
    >>> effect_text("first", "second").split("; ")[-1]
    '|r| < 0.1 negligible, < 0.3 small, < 0.5 medium, else large).'
    """
    bounds = MAGNITUDE_BOUNDS["rank-biserial"]
    words = ", < ".join(
        f"{bound:g} {word}"
        for bound, word in zip(bounds, ("negligible", "small", "medium"), strict=True)
    )
    return (
        "; r: the effect size, the matched-pairs rank-biserial correlation of the "
        f"{minuend} minus the {subtrahend} (> 0 when the {minuend} is better; "
        f"|r| < {words}, else large)."
    )


#: The pairwise tables' effect column: rows "a vs b", r of b − a.
EFFECT_TEXT = effect_text()


def effect_caption(label: str) -> str:
    """The end of the caption of the pairwise table ``label`` about its
    effect column r: the definition (:data:`EFFECT_TEXT`) at the report's
    first table with r, a pointer to that table at every later one, so that
    a report states its one sign convention once, where the reader meets it.

    Examples
    --------
    >>> from nbstats.reporting.display import kept_state, start
    >>> with kept_state():
    ...     start(tables=["tab:nemenyi", "tab:holm"], figure_formats=())
    ...     print(effect_caption("tab:nemenyi") == EFFECT_TEXT)
    ...     print(effect_caption("tab:holm"))
    True
    ; r (effect size) as in Table 1.
    """
    first = defined_at("r", label)
    if first is None:
        return EFFECT_TEXT
    return pointer(f"; r (effect size) as in {ref(first).text}.", EFFECT_TEXT)


def appendix_frequentist(nemenyi: Any, holm: Any) -> None:
    """Every Nemenyi pair and Holm's comparisons against the best."""
    caption = (
        f"Nemenyi test of every pair at α = {_n(nemenyi.alpha)} on the "
        f"{nemenyi.n_cases:,} cases: mean ranks, "
        "z statistic, unadjusted and Nemenyi-adjusted p-values, and whether "
        f"the pair differs{effect_caption('tab:nemenyi-all')}"
    )
    csv_download("nemenyi_pairs.csv", caption, nemenyi.to_frame())
    if typeset_pairs(len(nemenyi.to_frame())):
        result_table(nemenyi, "tab:nemenyi-all", caption)
    result_table(
        holm,
        "tab:holm",
        f"Every algorithm against the best-ranked one, {holm.control}: z-tests "
        f"on mean ranks with Holm's step-down correction at α = {_n(holm.alpha)}, "
        f"on the {holm.n_cases:,} cases{effect_caption('tab:holm')}",
    )


def joint_rope_text(joint: Any) -> str:
    """``", rope ±0.01"`` when the joint statements have a rope, else ``""``."""
    rope = getattr(joint, "rope", 0)
    return f", rope ±{_n(rope)}" if rope > 0 else ""


def joint_caption(joint: Any) -> str:
    """Caption of the table of joint statements."""
    return (
        f"Joint Bayesian statements (Bayesian {joint.test_name} test, s = "
        f"{_n(joint.s)}{joint_rope_text(joint)}"
        + ("" if joint.cases is None else f", on the {len(joint.cases):,} cases")
        + ") sorted by posterior probability "
        "(prob); > : better, ≈ : practically equivalent; joint: "
        "probability that the statement and all those above it hold "
        f"together; accepted while joint > {_n(joint.threshold)}."
    )

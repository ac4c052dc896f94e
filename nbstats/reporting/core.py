"""The answer first: the part of a report that goes into a paper.

:func:`core` opens every report of three or more algorithms (and is all that
``core_only=True`` writes): the ranked summary table (mean rank, the compact
letters of the Nemenyi test, and P(best) and the expected rank of the
Bayesian Plackett–Luce ranking), the critical-difference diagram as Figure 1,
and one results paragraph that states the decisions by groups, never pair by
pair. :func:`core_two` is its two-algorithm form. The table and the figure
are also written as files beside the report (``<report>_core/``) for
``\\input`` and ``\\includegraphics``.

The page budget: the core fits two PDF pages of the report (A4, 11 pt), in
every venue (the venue sets the files beside it, not the report's page), up
to at least 100 algorithms. Up to :data:`CORE_ROWS` algorithms Table 1
lists them all, after Figure 1. Above, Table 1 comes first and lists the
:data:`CORE_ROWS` best-ranked (its caption and the paragraph say so), which
then fits the first page; Figure 1, whose names need about 0.11-0.13 in
each, goes atop the second page (``[!ht]``: never a page of floats alone),
the text flowing around both. Every algorithm is then in the same table in
full, ``summary-all``: a CSV download in HTML, and beside a PDF or LaTeX
report ``<report>_tables/summary-all.csv`` and ``summary-all.tex`` (set for
the report's venue: the table a paper puts in its appendix);
``<report>_core/summary.tex`` is Table 1 as the report shows it and
``summary.csv`` keeps every algorithm.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from nbstats.reporting.cases import (
    biased_caution,
    case_counts,
    core_cases,
    table_one_cases,
)
from nbstats.reporting.csv_safety import csv_text
from nbstats.reporting.display import (
    _and,
    _n,
    _p,
    figure,
    paragraph,
    ref,
    table,
    table_latex,
)
from nbstats.reporting.methods import rope_text
from nbstats.reporting.references import Paragraph, cite
from nbstats.results.number_policy import format_number, format_relation
from nbstats.results.table_model import Table, from_frame

__all__ = [
    "CORE_ROWS",
    "MAX_NAMED",
    "core",
    "core_two",
    "group_sentence",
    "power_warning",
]

#: Names listed in a sentence of the results paragraph before "and k more".
MAX_NAMED = 6


def _names(names: Sequence[str]) -> str:
    """At most :data:`MAX_NAMED` names, then "and k more"."""
    names = [str(n) for n in names]
    if len(names) <= MAX_NAMED:
        return _and(names)
    return ", ".join(names[: MAX_NAMED - 1]) + f" and {len(names) - MAX_NAMED + 1} more"


def group_sentence(letters: pd.Series, reject: pd.DataFrame) -> str:
    """The frequentist decision, by groups: the top group and whom it beats.

    ``letters`` (best-ranked first) from :func:`nbstats.letters`; ``reject``
    the square matrix of significantly different pairs. The top group is
    the best-ranked algorithm's letter group (no two of its members are
    significantly different); the sentence names the algorithms
    significantly different from every member, and those different from
    only some of them.

    Examples
    --------
    >>> import pandas as pd
    >>> letters = pd.Series({"A": "a", "B": "a", "C": "b", "D": "b"})
    >>> reject = pd.DataFrame(False, index=list("ABCD"), columns=list("ABCD"))
    >>> reject.loc[["A", "B"], ["C", "D"]] = True
    >>> reject = reject | reject.T
    >>> group_sentence(letters, reject)  # doctest: +NORMALIZE_WHITESPACE
    'A and B are not significantly different from each other (letter a);
    each of them is significantly different from, and ranks above, all the
    others.'
    """
    order = list(letters.index)
    best = order[0]
    letter = letters[best][0]
    top = [n for n in order if letter in letters[n]]
    rest = [n for n in order if n not in top]
    if not rest:
        return (
            "no two algorithms are significantly different: they all share "
            f"letter {letter}."
        )
    beaten = [n for n in rest if all(reject.loc[t, n] for t in top)]
    partial = [n for n in rest if n not in beaten and reject.loc[top, n].any()]
    if len(top) == 1:
        head = f"{best} (letter {letter}) is significantly different from, and "
        head += "ranks above, "
        if len(beaten) == len(rest):
            return head + "every other algorithm."
        text = head + (f"{_names(beaten)}." if beaten else "no other algorithm.")
        return text
    text = (
        f"{_names(top)} are not significantly different from each other "
        f"(letter {letter}); "
    )
    if beaten:
        everyone = "all the others" if len(beaten) == len(rest) else _names(beaten)
        text += "each of them is significantly different from, and ranks above, "
        text += f"{everyone}."
    else:
        text += "no algorithm is significantly different from every one of them."
    if len(partial) == 1:
        above = [t for t in top if reject.loc[t, partial[0]]]
        text += f" {partial[0]} is significantly different from {_names(above)} only."
    elif partial:
        text += (
            f" {len(partial)} more are significantly different from some of "
            "them (their letters tell which)."
        )
    return text


def power_warning(nemenyi: Any, n_cases: int) -> str:
    """``analyze()``'s warning when Nemenyi has too few cases to separate
    even perfectly ordered neighbours (empty when it has enough)."""
    from nbstats.stats.ranking import nemenyi_min_cases

    m = len(nemenyi.mean_ranks)
    needed = nemenyi_min_cases(m, nemenyi.alpha)
    if n_cases >= needed:
        return ""
    return (
        f"With {n_cases:,} cases, Nemenyi's test has low power: it needs "
        f"{needed:,} cases to tell apart even two neighbours ranked in the "
        "same order on every case, so not significantly different is not evidence of "
        "equal performance. "
    )


#: Table 1 lists at most this many algorithms, the best-ranked: with more,
#: the core (Figure 1, Table 1 and the results paragraph) would pass its two
#: pages. The others are in the full table beside the report
#: (``<stem>_tables/summary-all.tex`` and ``.csv``; a download link in HTML).
CORE_ROWS = 25

#: Above this many algorithms the critical-difference diagram is drawn
#: shorter, names in 8 pt, so that the core fits two pages.
DENSE_ABOVE = 25

#: Above this many algorithms the diagram's names are set solid.
HALVES_ABOVE = 50


def _cd_axes(nemenyi: Any, m: int) -> Any:
    """The critical-difference diagram; for many algorithms on shorter axes
    (about 0.13 in per name on the longer side, 0.108 in above
    :data:`HALVES_ABOVE` algorithms: names set solid), names in 8 pt."""
    if m <= DENSE_ABOVE:
        return nemenyi.plot(width="double")
    import matplotlib.pyplot as plt

    per_name = 0.108 if m > HALVES_ABOVE else 0.13
    height = 0.6 + per_name * -(-m // 2)
    _, ax = plt.subplots(figsize=(6.1, height), layout="constrained")
    return nemenyi.plot(ax=ax, label_fontsize=8)


def _venue_figures(nemenyi: Any, venue: Any) -> dict[str, bytes]:
    """Figure 1's files for ``<stem>_core/``, set for the paper's venue."""
    from nbstats.plots.venue_files import venue_figures

    return venue_figures(nemenyi, "article" if venue is None else venue)


def _by_alias(aliases: Mapping[str, str] | None) -> dict[str, str]:
    """{alias: full name} of the report's {full name: alias}."""
    return {alias: name for name, alias in (aliases or {}).items()}


def _summary_frame(
    scores: pd.DataFrame,
    mean_ranks: pd.Series,
    letters: pd.Series | None,
    plackett_luce: Any,
    aliases: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    order = mean_ranks.sort_values(kind="stable").index
    frame = pd.DataFrame(
        {"mean rank": mean_ranks[order], "mean score": scores[order].mean()}
    )
    if aliases:  # the table a paper takes names every algorithm in full
        full = _by_alias(aliases)
        frame.insert(0, "name", [full.get(a, a) for a in order])
    if letters is not None:  # runs of letters as "a–d" (the CSV keeps them all)
        frame["group"] = letters.compact.reindex(order)
    if plackett_luce is not None:
        ranking = plackett_luce.ranking
        frame["P(best)"] = ranking["prob_best"].reindex(order)
        frame["expected rank"] = ranking["expected_rank"].reindex(order)
    frame.index.name = "algorithm"
    return frame


def _named_in_full(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 1 as printed: one name column, the full name, followed by the
    alias the figures use where there is one (``"MultiBoostAB_J48_weka (C)"``).
    """
    if "name" not in frame:
        return frame
    shown = frame.drop(columns="name")
    shown.index = [
        name if name == alias else f"{name} ({alias})"
        for alias, name in zip(frame.index, frame["name"], strict=True)
    ]
    shown.index.name = "algorithm"
    return shown


def _summary_caption(
    m: int,
    n: int,
    nemenyi: Any,
    plackett_luce: Any,
    higher_is_better: bool,
    runs: bool = False,
    cases: tuple[str, str] | None = None,
    missing_of: int | None = None,
    shown: int | None = None,
    aliased: bool = False,
) -> str:
    """Table 1's caption; ``cases``: the case sets of its columns in words
    (:func:`nbstats.reporting.cases.table_one_cases`), by default all ``n``;
    ``missing_of``: the cases given, when the column missing counts each
    algorithm's cases without a score; ``shown``: the rows listed, when
    Table 1 lists only the best-ranked (:data:`CORE_ROWS`); ``aliased``:
    some names carry the short name the figures use, in parentheses (the
    table is then the figures' key, also when a paper pastes both)."""
    direction = "higher" if higher_is_better else "lower"
    ranked, bayes = cases or (f"over the {n} cases", "on the same cases")
    listed = f"The {m} algorithms" if shown is None else (
        f"The {shown} best-ranked of the {m} algorithms"
    )  # fmt: skip
    if ranked.endswith(")"):  # one parenthesis: the cases, then the ranks
        ranked = ranked[:-1] + "; "
    else:
        ranked += " ("
    caption = f"{listed} by mean rank {ranked}1 = best; {direction} scores are better)"
    caption += ", with their mean score"
    if aliased:
        caption += "; in parentheses: the algorithm's short name in the figures"
    if nemenyi is not None:
        caption += (
            "; group: algorithms that share a letter are not significantly "
            f"different (Nemenyi test, α = {_n(nemenyi.alpha)})"
        )
        if runs:
            caption += ", a run of letters first–last (b–e: b, c, d, e; a … z, A … Z)"
    if plackett_luce is not None:
        caption += (
            "; P(best) and expected rank: posterior probability of being the "
            f"best and posterior mean rank (Bayesian Plackett–Luce model, {bayes})"
        )
    if missing_of is not None:
        caption += (
            f"; missing: the algorithm's cases without a score (of {missing_of:,})"
        )
    if shown is not None:
        caption += (
            f". All {m} are in the same table in full, summary-all (a CSV file; "
            "beside a PDF or LaTeX report also its LaTeX)"
        )
    return caption + "."


def _core_table(model: Table, data: pd.DataFrame, full: Table | None = None) -> None:
    """Table 1: in the report, beside it for ``\\input`` (core.tex and the
    core's summary.tex: the same LaTeX, for the report's venue) and as
    ``data`` (summary.csv, every algorithm, defused like every CSV a report
    writes: :func:`nbstats.reporting.csv_safety.csv_text`). ``full``: Table 1 with
    every algorithm when ``model`` lists only the best-ranked
    (:data:`CORE_ROWS`): a CSV download below it, and beside a PDF or LaTeX
    report ``<stem>_tables/summary-all.tex`` and ``.csv``, for a paper's
    appendix."""
    table(
        model,
        files={"core.tex": None},
        core={"summary.tex": None, "summary.csv": csv_text(data)},
    )
    if full is not None:
        from nbstats.reporting.appendix import csv_download

        csv_download(
            "summary-all.csv",
            f"Table 1 with all {len(data)} algorithms (a PDF or LaTeX report "
            "writes it typeset too, summary-all.tex, for a paper's appendix)",
            data,
            tables={"summary-all.tex": table_latex(full)},
        )


def _figure_one(
    nemenyi: Any, m: int, n: int, complete: bool, venue: Any, placement: str | None
) -> None:
    """Figure 1, the critical-difference diagram (and its files for
    ``<stem>_core/``, set for ``venue``); ``complete``: cases were left out;
    ``placement``: the LaTeX float's (:func:`nbstats.reporting.display.figure`)."""
    ax = _cd_axes(nemenyi, m)
    figure(
        "fig:cd",
        f"Critical-difference diagram: mean ranks (1 = best) of the {m} "
        f"algorithms over the {n:,}{' complete' if complete else ''} "
        "cases and the Nemenyi critical difference CD = "
        f"{format_number(nemenyi.critical_difference, 'statistic')} at α = "
        f"{_n(nemenyi.alpha)}; "
        "algorithms joined by a bar are not significantly different.",
        ax.figure,
        core_files=True,
        core_figures=lambda: _venue_figures(nemenyi, venue),
        placement=placement,
    )


def _table_one(
    scores: pd.DataFrame,
    raw: pd.DataFrame | None,
    mean_ranks: pd.Series,
    letters: Any,
    plackett_luce: Any,
    aliases: Mapping[str, str] | None,
    counts: Any,
    *,
    nemenyi: Any,
    higher_is_better: bool,
    cases: tuple[str, str] | None,
) -> int | None:
    """Table 1 and its files; above :data:`CORE_ROWS` algorithms it lists
    the best-ranked, all of them in ``summary-all`` beside it. Returns the
    rows listed then (None: every algorithm)."""
    m, n = scores.shape[1], scores.shape[0]
    frame = _summary_frame(scores, mean_ranks, letters, plackett_luce, aliases)
    if counts.n_missing:  # which algorithms have holes, and how many
        missing = (scores if raw is None else raw).isna().sum()
        frame["missing"] = missing.reindex(frame.index).astype(int).to_numpy()
    runs = "group" in frame and frame["group"].str.contains("–").any()
    missing_of = counts.n_all if counts.n_missing else None
    kinds = {
        "mean rank": "rank",
        "expected rank": "rank",
        "P(best)": "probability",
        "missing": "count",
    }
    kinds = {k: v for k, v in kinds.items() if k in frame}
    shown = _named_in_full(frame)
    data = frame
    if letters is not None:
        data = frame.assign(group=letters.letters.reindex(frame.index).to_numpy())
    listed = CORE_ROWS if m > CORE_ROWS else None

    def caption(rows: int | None) -> str:
        return _summary_caption(
            m, n, nemenyi, plackett_luce, higher_is_better, runs, cases=cases,
            missing_of=missing_of, shown=rows,
            aliased="name" in frame and bool((frame["name"] != frame.index).any()),
        )  # fmt: skip

    full = None
    if listed is not None:  # the best-ranked: the core keeps its two pages
        full = from_frame(shown, kinds, caption=caption(None), label="tab:core-all")
        shown = shown.iloc[:listed]
    model = from_frame(shown, kinds, caption=caption(listed), label="tab:core")
    _core_table(model, data, full)
    return listed


def core(
    scores: pd.DataFrame,
    *,
    friedman: Any = None,
    nemenyi: Any = None,
    plackett_luce: Any = None,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    aliases: Mapping[str, str] | None = None,
    detailed: bool = True,
    raw: pd.DataFrame | None = None,
    nan_policy: str = "raise",
    venue: Any = None,
) -> Paragraph:
    """The answer first: ranked summary, Figure 1 and the results paragraph.

    ``nemenyi`` (a post-hoc result of every pair) gives the letters and the
    critical-difference diagram; ``plackett_luce`` (from
    :func:`nbstats.bayes_plackett_luce`) P(best) and the expected rank.
    Either may be None (analysis not requested). ``aliases`` ({full name:
    alias}): the table gives the full names beside the aliases. ``raw``:
    the table as given, missing scores included, under the names of
    ``scores``; with ``nan_policy`` it tells the cases of each column and
    opens the part with the cases left out (:mod:`nbstats.reporting.cases`).
    ``venue`` (default ``"article"``): the paper the core's figure files are
    set for (:func:`nbstats.plots.venue_files.venue_figures`: column width,
    and ``figure-1-wide.pdf`` for a two-column venue). Returns the results
    paragraph (for its references).
    """
    from nbstats.scores.ranks import mean_ranks as average_ranks
    from nbstats.stats.letters import letters as letters_of

    mean_ranks = average_ranks(scores, higher_is_better=higher_is_better)
    letters = letters_of(nemenyi) if nemenyi is not None else None
    m, n = scores.shape[1], scores.shape[0]
    counts = case_counts(scores if raw is None else raw)
    table_cases = table_one_cases(counts, nan_policy, plackett_luce)
    opening = core_cases(
        counts,
        nan_policy,
        n_algorithms=m,
        plackett_luce=plackett_luce,
        frequentist=nemenyi is not None,
    )
    if opening.pieces:  # first: on the report's first page
        paragraph(opening)
    if nemenyi is not None and m <= CORE_ROWS:  # first: it fits the first page
        _figure_one(nemenyi, m, n, counts.n_left_out > 0, venue, None)
    listed = _table_one(
        scores, raw, mean_ranks, letters, plackett_luce, aliases, counts,
        nemenyi=nemenyi, higher_is_better=higher_is_better, cases=table_cases,
    )  # fmt: skip
    if nemenyi is not None and m > CORE_ROWS:
        # after Table 1 (its best-ranked rows), which then fits the first
        # page; the diagram, taller than half a page at 100 algorithms, atop
        # the second ("!ht": never a page of its own), the text flowing
        # around both
        _figure_one(nemenyi, m, n, counts.n_left_out > 0, venue, "!ht")
    # the paragraph names every algorithm in full, as Table 1 does
    full = _by_alias(aliases)
    if full and letters is not None:
        letters = letters.rename(index=full)
        reject = nemenyi.reject.rename(index=full, columns=full)
    elif letters is not None:
        reject = nemenyi.reject
    para = Paragraph()
    if friedman is not None:
        rejected = friedman.f_pvalue <= alpha
        para.add(
            "The Friedman test",
            cite("friedman1937", "demsar2006"),
            (" rejects" if rejected else " does not reject")
            + f" equal performance at α = {_n(alpha)} (Iman–Davenport F = "
            f"{format_number(friedman.f_statistic, 'statistic')}, "
            f"p {_p(friedman.f_pvalue)}). ",
        )
    if nemenyi is not None and letters is not None:
        cd = format_number(nemenyi.critical_difference, "statistic")
        para.add(
            "By the Nemenyi test",
            cite("nemenyi1963"),
            f" (critical difference {cd} of mean ranks, ",
            ref("fig:cd"),
            "), " + group_sentence(letters, reject) + " ",
        )
        para.add(power_warning(nemenyi, n))
    if plackett_luce is not None:
        pl = plackett_luce.ranking
        top = pl["prob_best"].idxmax()
        para.add(
            "The Bayesian Plackett–Luce model of the rankings",
            cite("calvo2018", "benavoli2017"),
            f" gives {full.get(top, top)} the highest probability of being the best, "
            f"P(best) {format_relation(float(pl.loc[top, 'prob_best']), 'probability')}"
            ", with expected rank "
            f"{format_number(float(pl.loc[top, 'expected_rank']), 'rank')}"
            + (
                f" (on {plackett_luce.n_cases:,} cases, missing scores included)"
                if nan_policy == "pairwise" and plackett_luce.n_partial
                else ""
            )
            + ". ",
        )
    if listed is None:
        para.add("Every algorithm is in ", ref("tab:core"))
    else:
        para.add(
            f"The {listed} best-ranked are in ",
            ref("tab:core"),
            f"; all {m}, in the same table, in summary-all",
        )
    para.add("; the detailed analysis follows." if detailed else ".")
    paragraph(para)
    return para


def core_two(
    scores: pd.DataFrame,
    *,
    wilcoxon: Any = None,
    signrank: Any = None,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    score_unit: str | None = None,
    aliases: Mapping[str, str] | None = None,
    detailed: bool = True,
    raw: pd.DataFrame | None = None,
) -> Paragraph:
    """Two algorithms: the summary table and the results paragraph
    (``detailed``: the detailed analysis follows; ``raw``: the scores as
    given, whose cases without both scores the part states first)."""
    from nbstats.scores.ranks import mean_ranks as average_ranks

    counts = case_counts(scores if raw is None else raw)
    if counts.n_left_out:
        para = Paragraph().add(
            f"Of the {counts.n_all:,} cases, {counts.n_complete:,} have a score "
            f"from both algorithms; every number below uses these only (the "
            f"{counts.n_left_out:,} others, missing "
            + _and([f"{int(k)} of {a}" for a, k in counts.holes.items()])
            + ", are left out). ",
            *biased_caution(counts).pieces,
        )
        paragraph(para)

    mean_ranks = average_ranks(scores, higher_is_better=higher_is_better)
    frame = _summary_frame(scores, mean_ranks, None, None, aliases)
    direction = "higher" if higher_is_better else "lower"
    complete = " complete" if counts.n_left_out else ""
    caption = (
        f"The two algorithms over the {scores.shape[0]}{complete} cases: mean rank "
        f"(1 = best; {direction} scores are better) and mean score."
    )
    kinds = {"mean rank": "rank"}
    _core_table(from_frame(frame, kinds, caption=caption, label="tab:core"), frame)
    para = Paragraph()
    if wilcoxon is not None:
        different = wilcoxon.pvalue <= alpha
        para.add(
            "By the Wilcoxon signed-ranks test",
            cite("wilcoxon1945", "demsar2006"),
            f", {wilcoxon.name_a} and {wilcoxon.name_b} are "
            + ("" if different else "not ")
            + f"significantly different at α = {_n(alpha)} (p {_p(wilcoxon.pvalue)}). ",
        )
    if signrank is not None:
        para.add(
            "The Bayesian signed-rank test",
            cite("benavoli2014", "benavoli2017"),
            f" finds: {bayes_decision_words(signrank, score_unit)}. ",
        )
    para.add("See ", ref("tab:core"), " and the tests below." if detailed else ".")
    paragraph(para)
    return para


def bayes_decision_words(result: Any, score_unit: str | None = None) -> str:
    """A two-sample Bayesian decision in the report's words, naming the
    algorithm: "B better than A", "equivalent", "undecided" or
    "indeterminate" (:func:`nbstats.results.decisions.describe`)."""
    from nbstats.results.decisions import describe

    text = describe(result.decision, result.name_a, result.name_b, rope=result.rope > 0)
    if result.decision == "equivalent":
        text = (
            f"{result.name_a} and {result.name_b} equivalent (within the rope "
            f"{rope_text(result.rope, score_unit)})"
        )
    return text

"""Every number of a report says which cases it stands on (issue 35, items 1 and 4).

On a real public table with holes, TabZilla's test accuracies (McElfresh et
al. 2023; ``tests/data/tabzilla/README.md``), eight algorithms of
which TabPFNModel misses 108 of the 171 data sets: 46 complete cases, fewer
than half. The reports are read back from their executed notebooks: Table
1's data (its summary.csv) and caption, the answer-first paragraphs and
Methods; each number is recomputed here from the case set the report states
(ranks with scipy, counts with pandas).
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.stats import rankdata

import nbstats
from nbstats.reporting.bayesian import outcome_counts, signrank_frame
from nbstats.reporting.cases import case_counts, pair_case_range, table_one_cases
from nbstats.reporting.display import start
from tests.real_tables import tabzilla_accuracy

ALGORITHMS = [
    "CatBoost", "XGBoost", "LightGBM", "TabPFNModel", "SAINT", "KNN", "MLP",
    "RandomForest",
]  # fmt: skip


@pytest.fixture(scope="module")
def tabzilla() -> pd.DataFrame:
    return tabzilla_accuracy()[ALGORITHMS]


def _outputs(path: Path) -> list[dict]:
    import nbformat

    nb = nbformat.read(path, as_version=4)
    return [o for cell in nb.cells for o in cell.get("outputs", [])]


def _plain(outputs: list[dict]) -> list[str]:
    return [o.get("data", {}).get("text/plain", "") for o in outputs]


def _table_one(outputs: list[dict]) -> tuple[str, pd.DataFrame]:
    """Table 1's caption (its plain text) and its data (summary.csv)."""
    import io

    for o in outputs:
        meta = o.get("metadata", {}).get("nbstats", {})
        if meta.get("label") == "tab:core":
            caption = o["data"]["text/plain"].split("\n", 1)[0]
            data = pd.read_csv(io.StringIO(meta["core_files"]["summary.csv"]))
            return caption, data.set_index("algorithm")
    raise AssertionError("no Table 1 in the report")


@pytest.fixture(scope="module", params=["pairwise", "omit"])
def report(request, tabzilla, tmp_path_factory):
    path = tmp_path_factory.mktemp(request.param) / "report.ipynb"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        nbstats.reporting.report(tabzilla, path, nan_policy=request.param)
    return request.param, _outputs(path)


def _mean_ranks(table: pd.DataFrame) -> pd.Series:
    """Friedman mean ranks, 1 = best (higher accuracy), ties averaged."""
    ranks = rankdata(-table.to_numpy(), axis=1, method="average")
    return pd.Series(ranks.mean(axis=0), index=table.columns)


def test_table_one_columns_come_from_the_case_sets_its_caption_states(report, tabzilla):
    policy, outputs = report
    caption, data = _table_one(outputs)
    complete = tabzilla.dropna()
    # the mean rank, mean score and letters: "over the 46 complete cases (of 171"
    stated = re.search(
        r"by mean rank over the (\d+) complete cases \(of (\d+)", caption
    )
    assert stated, caption
    assert (
        (int(stated[1]), int(stated[2]))
        == (len(complete), len(tabzilla))
        == (
            46,
            171,
        )
    )
    ranks = _mean_ranks(complete)
    np.testing.assert_allclose(data["mean rank"], ranks[data.index], rtol=1e-12)
    np.testing.assert_allclose(
        data["mean score"], complete.mean()[data.index], rtol=1e-12
    )
    # Table 1 lists the algorithms by that mean rank
    assert list(data.index) == list(ranks.sort_values(kind="stable").index)
    # every algorithm's missing scores, of all 171 cases
    assert "missing: the algorithm's cases without a score (of 171)" in caption
    assert data["missing"].to_dict() == tabzilla.isna().sum()[data.index].to_dict()
    # P(best) and expected rank: the Plackett-Luce fit on the stated cases
    # (the report's seed 0 and draws), and not on the other case set
    if policy == "pairwise":
        assert "Plackett–Luce model, on all 171 cases, missing scores included" in (
            caption
        )
        stated_cases, other = tabzilla, complete
        options = {"nan_policy": "partial"}
    else:
        assert "Plackett–Luce model, on the same 46 cases" in caption
        stated_cases, other = complete, tabzilla
        options = {}
    fit = nbstats.bayes_plackett_luce(stated_cases, random_state=0, **options)
    np.testing.assert_allclose(
        data["P(best)"], fit.ranking["prob_best"][data.index], atol=1e-12
    )
    np.testing.assert_allclose(
        data["expected rank"], fit.ranking["expected_rank"][data.index], atol=1e-12
    )
    assert len(fit.cases) == len(stated_cases)
    wrong = nbstats.bayes_plackett_luce(
        other, random_state=0, nan_policy="partial" if policy == "omit" else "raise"
    )
    assert (
        np.abs(
            wrong.ranking["expected_rank"][data.index].to_numpy()
            - data["expected rank"].to_numpy()
        ).max()
        > 0.1
    )


def _pair_counts(table: pd.DataFrame) -> np.ndarray:
    """Cases each pair shares, counted pair by pair."""
    cols = list(table.columns)
    return np.array(
        [
            int(table[[a, b]].dropna().shape[0])
            for i, a in enumerate(cols)
            for b in cols[i + 1 :]
        ]
    )


def test_methods_and_core_state_the_cases_used_and_left_out(report, tabzilla):
    policy, outputs = report
    texts = _plain(outputs)
    methods = next(t for t in texts if t.startswith("We compared"))
    core = next(t for t in texts if t.startswith("Of the 171 cases"))
    n_all, n_complete = len(tabzilla), len(tabzilla.dropna())
    left = n_all - n_complete
    holes = int((tabzilla.isna().sum() > 0).sum())
    # the core: complete, left out, which algorithms had holes, the caution
    assert core.startswith(
        f"Of the {n_all} cases, {n_complete} have a score from every algorithm "
        f"and {left} have at least one missing score. {holes} of the 8 "
        f"algorithms have missing scores ({int(tabzilla.isna().sum().sum())} in all"
    )
    assert (
        f"Caution: more than half of the cases ({left} of {n_all}) are left out" in core
    )
    assert "nbstats coverage" in core
    # Methods: the cases given, then each analysis with its own cases
    assert methods.startswith(f"We compared 8 algorithms on {n_all} cases")
    assert "dropped before the analyses" not in methods
    assert (
        f"Of the {n_all} cases, {n_complete} have a score from every algorithm; "
        f"{left} have at least one missing score" in methods
    )
    complete_part = re.search(
        r"([A-Z][^.]*?) used the (\d+) complete cases only \(the (\d+) others left out",
        methods,
    )
    assert complete_part, methods
    assert (int(complete_part[2]), int(complete_part[3])) == (n_complete, left)
    assert complete_part[1].startswith("The Friedman and Iman–Davenport tests")
    counts = _pair_counts(tabzilla)
    if policy == "pairwise":
        assert f"Skillings and Mack's test used {n_all} cases" in methods
        assert (
            "Each pair's Bayesian signed-rank test used the cases where both "
            f"algorithms have a score (from {counts.min()} to {counts.max()} cases "
            f"per pair, median {int(np.median(counts))})" in methods
        )
        assert (
            "The rank intervals' Wilcoxon tests likewise used each pair's shared "
            f"cases (from {counts.min()} to {counts.max()} cases per pair)" in methods
        )
        partial = int(tabzilla.isna().any(axis=1).sum())
        assert (
            f"The Plackett–Luce ranking used {n_all} cases, {partial} of them "
            "partial rankings" in methods
        )
        assert "Bayesian signed-rank tests" not in complete_part[1]
    else:
        for name in ("Bayesian signed-rank tests", "Plackett–Luce", "rank intervals"):
            assert name in complete_part[1], (name, complete_part[1])
        assert "nan_policy = 'omit'" in methods
        assert "Skillings and Mack" not in methods


def test_bayesian_summary_counts_every_outcome(report):
    _, outputs = report
    text = next(t for t in _plain(outputs) if "compares every pair with the Bayes" in t)
    sentence = re.search(r"Of the (\d+) pairs, ([^.]*)\.", text)
    assert sentence, text
    parts = {
        "better": r"the better-ranked algorithm is decided better in (\d+)",
        "worse": r"the worse-ranked in (\d+)",
        "equivalent": r"(\d+) pairs? (?:is|are) decided equivalent",
        "undecided": r"(\d+) pairs? (?:is|are) undecided",
        "indeterminate": r"(\d+) pairs? (?:is|are) indeterminate",
    }
    numbers = {}
    for key, pattern in parts.items():
        hit = re.search(pattern, sentence[2])
        if hit:
            numbers[key] = int(hit[1])
    assert {"better", "worse", "undecided", "indeterminate"} <= set(numbers)
    assert int(sentence[1]) == 28 == sum(numbers.values()), numbers
    # the same counts from the pair table's decisions, row by row
    table = next(
        t
        for t in _plain(outputs)
        if re.match(r"Table \d+\. Bayesian signed-rank test of every pair", t)
    )
    tally = dict.fromkeys(numbers, 0)
    for line in table.split("\n", 1)[1].splitlines()[2:]:
        cells = re.split(r"\s{2,}", line.strip())
        first, second = cells[0].split(" vs ")
        decision = next(c for c in cells if c.endswith(" better") or c in tally)
        if decision == f"{first} better":
            tally["better"] += 1
        elif decision == f"{second} better":
            tally["worse"] += 1
        else:
            tally[decision] += 1
    assert tally == numbers


#: The definition of r (its sign convention), stated once in a report.
R_DEFINITION = "rank-biserial correlation of the second minus the first"


def test_one_sign_for_r_stated_once_where_the_reader_meets_it(report):
    """The first table with an r column defines it (second named minus the
    first); every later one refers to that table, in text, HTML and LaTeX."""
    _, outputs = report
    tables = [
        o
        for o in outputs
        if o.get("metadata", {}).get("nbstats", {}).get("kind") == "table"
    ]
    with_r = [
        o for o in tables if "r" in o["data"]["text/plain"].split("\n")[1].split()
    ]
    assert len(with_r) >= 3  # Nemenyi, Holm and the Bayesian pairs
    first = with_r[0]["metadata"]["nbstats"]["number"]
    assert all(o["metadata"]["nbstats"]["number"] > first for o in with_r[1:])
    for kind in ("text/plain", "text/html", "text/latex"):
        texts = [o.get("data", {}).get(kind, "") for o in outputs]
        assert sum(t.count(R_DEFINITION) for t in texts) == 1, kind
        assert R_DEFINITION in with_r[0]["data"][kind], kind
        assert "first minus the second" not in "".join(texts), kind
        for o in with_r[1:]:
            assert f"r (effect size) as in Table {first}." in o["data"][kind], kind
    # the files a paper pastes have no report numbering: each defines r in full
    for o in with_r:
        for name, latex in o["metadata"]["nbstats"]["files"].items():
            assert R_DEFINITION in " ".join(latex.split()), name
            assert "as in Table" not in latex, name
    # a caption without an r column never speaks of r
    for o in tables:
        if o not in with_r:
            assert "r (effect size)" not in o["data"]["text/plain"]


def test_plackett_luce_table_and_figure_follow_table_one(report, tabzilla):
    """The Plackett–Luce table and figure list the algorithms in Table 1's
    order (mean rank over its complete cases, recomputed with scipy), not
    by their own expected rank, and their captions say so."""
    import base64

    _, outputs = report
    _, data = _table_one(outputs)
    complete = tabzilla.dropna()
    by_rank = list(_mean_ranks(complete).sort_values(kind="stable").index)
    assert list(data.index) == by_rank
    table = next(
        o
        for o in outputs
        if o.get("metadata", {}).get("nbstats", {}).get("label") == "tab:plackett-luce"
    )
    caption, _, body = table["data"]["text/plain"].partition("\n")
    assert (
        "algorithms in the order of Table 1 (mean rank over its "
        f"{len(complete)} cases)" in caption
    )
    rows = [line.split()[0] for line in body.splitlines()[2:]]
    assert rows == by_rank
    expected = [float(line.split()[2]) for line in body.splitlines()[2:]]
    assert expected != sorted(expected)  # its own order would differ here
    fig = next(
        o
        for o in outputs
        if o.get("metadata", {}).get("nbstats", {}).get("label") == "fig:plackett-luce"
    )
    assert "in the order of Table 1" in fig["data"]["text/plain"]
    uri = re.search(r"data:image/svg\+xml;base64,([^\"]+)", fig["data"]["text/html"])
    svg = base64.b64decode(uri.group(1)).decode()
    bars = re.findall(r'id="best-([^"]+)"', svg)  # drawn top row first
    assert bars == by_rank


def test_rank_intervals_follow_table_one_and_define_their_mean_rank(report):
    policy, outputs = report
    _, data = _table_one(outputs)
    texts = _plain(outputs)
    ranks = next(
        t
        for t in texts
        if re.match(r"Table \d+\. \d+% simultaneous confidence intervals", t)
    )
    caption, body = ranks.split("\n", 1)
    assert "algorithms in the order of Table 1" in caption
    if policy == "pairwise":
        assert "mean observed rank: over all 171 cases, each case ranking only" in (
            caption
        )
    else:
        assert "mean rank over the 46 cases, as in Table 1" in caption
    rows = [line.split()[0] for line in body.splitlines()[2:] if line.strip()]
    assert rows == list(data.index)


# -- the pieces, on small tables -------------------------------------------------


def test_case_counts_and_pair_range_match_a_count_by_hand(tabzilla):
    counts = case_counts(tabzilla)
    assert (counts.n_all, counts.n_complete, counts.n_left_out) == (171, 46, 125)
    assert counts.mostly_left_out
    assert counts.holes.index[0] == "TabPFNModel" and counts.holes.iloc[0] == 108
    assert counts.n_missing == int(tabzilla.isna().to_numpy().sum())
    pairs = _pair_counts(tabzilla)
    assert pair_case_range(tabzilla) == (pairs.min(), pairs.max())


def test_table_one_cases_without_holes_states_one_set():
    table = nbstats.datasets.load("demsar2006")
    ranked, bayes = table_one_cases(case_counts(table), "raise")
    assert ranked == f"over the {len(table)} cases"
    assert bayes == "on the same cases"


def test_outcome_counts_add_up_and_name_the_worse_ranked_winners():
    pairs = pd.DataFrame(
        {
            "a": ["C", "C", "B", "D", "D", "D"],
            "b": ["A", "B", "A", "A", "B", "C"],
            "decision": ["b", "a", "undecided", "indeterminate", "b", "equivalent"],
        }
    )

    class Pairs:
        prior, rope = "idp", 0.01

    Pairs.pairs = pairs
    text = outcome_counts(Pairs).text()
    assert text == (
        "Of the 6 pairs, the better-ranked algorithm is decided better in 2, the "
        "worse-ranked in 1 (C over B), 1 pair is decided equivalent (rope ±0.01), "
        "1 pair is undecided (neither reaches the threshold) and 1 pair is "
        "indeterminate "
        "(the lower and upper posterior probabilities straddle the threshold). "
    )


def test_bayesian_table_r_is_the_second_minus_the_first(tabzilla):
    """The Bayesian pair table's r, recomputed by hand: the matched-pairs
    rank-biserial correlation of (second − first) on the pair's cases."""
    table = tabzilla[["CatBoost", "XGBoost", "KNN"]]
    order = list(_mean_ranks(table.dropna()).sort_values().index)
    res = nbstats.bayes_signrank_pairs(
        table[order[::-1]], nan_policy="pairwise", n_samples=1000, random_state=0
    )
    start(tables=["tab:signrank"], figure_formats=())  # its report's first r
    frame, caption = signrank_frame(res)
    assert R_DEFINITION in caption
    for label, r in frame["r"].items():
        first, second = label.split(" vs ")
        both = table[[first, second]].dropna()
        d = (both[second] - both[first]).to_numpy()
        # zero differences ranked, their ranks split evenly (Demšar)
        ranks = rankdata(np.abs(d))
        expected = (ranks[d > 0].sum() - ranks[d < 0].sum()) / ranks.sum()
        assert r == round(expected, 2), label


def test_friedman_summary_and_latex_list_mean_ranks_by_rank():
    table = nbstats.datasets.load("demsar2006")  # column order is not rank order
    res = nbstats.friedman(table)
    by_rank = list(_mean_ranks(table).sort_values(kind="stable").index)
    assert by_rank != list(table.columns)
    summary = res.summary()
    positions = [summary.index(f"{name} ") for name in by_rank]
    assert positions == sorted(positions)
    latex = res.to_latex()
    positions = [latex.index(f"{name} &") for name in by_rank]
    assert positions == sorted(positions)
    assert list(res.mean_ranks.index) == list(table.columns)  # the attribute keeps


def test_every_result_records_its_cases(tabzilla):
    complete = tabzilla.dropna()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert list(nbstats.friedman(tabzilla, nan_policy="omit").cases) == list(
            complete.index
        )
        nemenyi = nbstats.posthoc(tabzilla, method="nemenyi", nan_policy="omit")
    assert list(nemenyi.cases) == list(complete.index)
    wilcoxon = nbstats.comparison_matrix(tabzilla, nan_policy="pairwise")
    assert len(wilcoxon.cases) == 171
    # per pair: the cases both algorithms have
    pair = wilcoxon.pair_cases.loc["CatBoost", "TabPFNModel"]
    assert pair == len(tabzilla[["CatBoost", "TabPFNModel"]].dropna())
    assert len(nbstats.skillings_mack(tabzilla).cases) == 171
    assert len(nbstats.bayes_plackett_luce(complete, random_state=0).cases) == 46
    ci = nbstats.rank_ci(tabzilla, method="id-wilcoxon-2s", nan_policy="pairwise")
    assert len(ci.cases) == 171


# -- properties -------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 12), st.integers(2, 6)),
        elements=st.sampled_from([np.nan, 0.1, 0.5, 0.9]),
    )
)
def test_case_counts_match_brute_force(values):
    raw = pd.DataFrame(values, columns=[f"A{j}" for j in range(values.shape[1])])
    counts = case_counts(raw)
    complete = sum(all(not np.isnan(v) for v in row) for row in values)
    assert counts.n_complete == complete
    assert counts.n_left_out == len(values) - complete
    assert counts.n_missing == int(np.isnan(values).sum())
    assert counts.holes.sum() == counts.n_missing
    assert list(counts.holes) == sorted(counts.holes, reverse=True)
    assert counts.mostly_left_out == (complete < len(values) / 2)
    shared = [
        sum(1 for row in values if not np.isnan(row[i]) and not np.isnan(row[j]))
        for i in range(values.shape[1])
        for j in range(i + 1, values.shape[1])
    ]
    assert pair_case_range(raw) == (min(shared), max(shared))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "b", "equivalent", "undecided", "indeterminate"]),
        min_size=1,
        max_size=40,
    )
)
def test_outcome_counts_always_add_up_to_the_pairs(decisions):
    pairs = pd.DataFrame(
        {
            "a": [f"W{i}" for i in range(len(decisions))],
            "b": [f"B{i}" for i in range(len(decisions))],
            "decision": decisions,
        }
    )

    class Pairs:
        prior, rope = "idp", 0.01

    Pairs.pairs = pairs
    text = outcome_counts(Pairs).text()
    found = [
        int(n)
        for n in re.findall(
            r"(?:decided better in |worse-ranked in )(\d+)|(\d+) pairs? (?:is|are) ",
            text,
        )
        for n in n
        if n
    ]
    assert sum(found) == len(decisions), text
    named = re.search(r"worse-ranked in \d+ \(([^)]*)\)", text)
    worse = [f"W{i} over B{i}" for i, d in enumerate(decisions) if d == "a"]
    if worse:
        shown = named[1]
        for pair in worse[:9]:
            assert pair in shown


def test_methods_cases_names_only_the_analyses_run(tabzilla):
    from nbstats.reporting.cases import methods_cases
    from nbstats.results.prose import Paragraph

    ci = nbstats.rank_ci(tabzilla, method="id-wilcoxon-2s", nan_policy="pairwise")
    para = Paragraph()
    methods_cases(para, tabzilla, nan_policy="pairwise", rank_ci=ci)
    text = para.text()
    assert "complete cases only" not in text  # nothing ran on them
    low, high = pair_case_range(tabzilla)
    assert f"shared cases (from {low} to {high} cases per pair)" in text
    # "omit", or two algorithms: every test on the complete cases
    para = Paragraph()
    methods_cases(para, tabzilla[["CatBoost", "TabPFNModel"]], nan_policy="pairwise")
    complete = len(tabzilla[["CatBoost", "TabPFNModel"]].dropna())
    assert f"Every analysis used the {complete} complete cases only" in para.text()
    # no hole, nothing to say
    para = Paragraph()
    methods_cases(para, tabzilla.dropna(), nan_policy="omit")
    assert para.text() == ""


def test_one_hole_is_counted_in_the_singular():
    table = nbstats.datasets.load("demsar2006")
    table.iloc[0, 1] = np.nan
    text = nbstats.reporting.report_text(
        table, nan_policy="pairwise", analyses=("frequentist",)
    )
    assert "(1 missing score, from 1 algorithm)" in text
    assert "from 1 algorithms" not in text

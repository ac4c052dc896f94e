"""The answer first (issue 26 items 1, 2, 4; issue 29): the core of a report.

The PDF tests build two small PDFs (``core_only=True``) and read their text
layer with pdfplumber; the rest reads :func:`nbstats.reporting.report_text`.
"""

from __future__ import annotations

import re
import shutil
import warnings

import pandas as pd
import pytest

import nbstats
import nbstats.reporting
from nbstats.reporting.core import CORE_ROWS, group_sentence
from nbstats.reporting.methods import rope_text

needs_latex = pytest.mark.skipif(
    shutil.which("xelatex") is None or shutil.which("pandoc") is None,
    reason="xelatex and pandoc typeset the PDF",
)


def _complete_100() -> pd.DataFrame:
    """The 100 classifiers of Fernández-Delgado et al. (2014) that have a
    score on every one of the 121 data sets (19 names over 20 characters)."""
    table = nbstats.datasets.load("fernandez_delgado2014")
    missing = table.isna().sum().sort_values(kind="stable")
    return table[missing.index[:100]]


@needs_latex
@pytest.mark.parametrize(
    "name",
    ["fernandez_delgado2014_multiboost", "fernandez_delgado2014_top50", "complete100"],
)
def test_core_is_two_pdf_pages_with_figure_one(tmp_path, name):
    """Two pages at any number of algorithms: above CORE_ROWS, Table 1 lists
    the best-ranked ones and every algorithm is in summary-all beside the
    report (issue 36; tests/reporting/test_core_pages.py at 42, 50 and 100 in
    every venue)."""
    pdfplumber = pytest.importorskip("pdfplumber")
    table = _complete_100() if name == "complete100" else nbstats.datasets.load(name)
    path = nbstats.reporting.report(
        table, tmp_path / "core.pdf", nan_policy="omit", core_only=True, rope=1
    )
    with pdfplumber.open(path) as pdf:
        pages = [page.extract_text() or "" for page in pdf.pages]
    assert len(pages) <= 2, f"{len(pages)} pages"
    assert "Table 1:" in " ".join(pages[:2])
    # (a tightly set caption line comes out of pdfplumber without its spaces)
    with_figure = [
        i for i, text in enumerate(pages) if "Figure1:" in "".join(text.split())
    ]
    assert with_figure and with_figure[0] <= 1
    if table.shape[1] > CORE_ROWS:  # every algorithm in the full table beside
        full = pd.read_csv(tmp_path / "core_tables" / "summary-all.csv")
        named = set(full["name"] if "name" in full else full["algorithm"])
        assert named == set(table.columns)
        assert f"The{CORE_ROWS}best-ranked" in "".join("".join(pages).split())
    whole = " ".join(pages)
    assert "Critical-differencediagram" in "".join(whole.split())
    assert "P(best)" in whole and "Plackett" in whole
    # only the core: no detailed section, no Methods
    assert "Omnibus tests" not in whole and "Methods" not in whole
    # the table and the figure beside the report, for \input and \includegraphics
    folder = tmp_path / "core_core"
    assert (folder / "figure-1.pdf").read_bytes().startswith(b"%PDF")
    assert b"<svg" in (folder / "figure-1.svg").read_bytes()[:2000]
    assert "\\begin{" in (folder / "summary.tex").read_text()
    summary = pd.read_csv(folder / "summary.csv", index_col=0)
    with warnings.catch_warnings():  # the cases dropped: the report says which
        warnings.simplefilter("ignore", UserWarning)
        complete = nbstats.score_table(table, nan_policy="omit")
    ranks = nbstats.mean_ranks(complete)
    # the CSV has the aliases as index and the full names beside them
    by_name = summary.set_index("name") if "name" in summary else summary
    assert list(by_name.index) == list(ranks.sort_values(kind="stable").index)
    assert by_name["mean rank"].to_numpy() == pytest.approx(
        ranks.sort_values(kind="stable").to_numpy()
    )
    # the CSV keeps every letter (the tables write runs as "b–e")
    nemenyi = nbstats.posthoc(complete, method="nemenyi")
    letters = nbstats.letters(nemenyi).letters
    assert by_name["group"].to_dict() == letters.reindex(by_name.index).to_dict()


def _paragraphs(text: str) -> list[str]:
    """The prose paragraphs of a plain-text report (no table or caption)."""
    blocks = [b.strip() for b in text.split("\n\n") if b.strip()]
    return [
        b
        for b in blocks
        if "\n" not in b and not re.match(r"(Table|Figure) \d+\.", b) and len(b) > 80
    ]


def _pairwise_decisions(paragraph: str, names: list[str]) -> int:
    """How many pairwise decisions a paragraph states ("X over Y", "X > Y",
    "X better than Y", "X and Y" in a list of significant pairs …)."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    name = rf"(?<![\w+-])(?:{alternatives})(?![\w+-])"
    relation = r"(?:over|better than|worse than|>|<|≈|and|vs\.?)"
    return len(re.findall(rf"{name}\s+{relation}\s+{name}", paragraph))


@pytest.fixture(scope="module")
def multiboost_text() -> str:
    """13 algorithms with long names (aliases), missing cells omitted, every
    pair in the text (the standard layout)."""
    table = nbstats.datasets.load("fernandez_delgado2014_multiboost")
    return nbstats.reporting.report_text(
        table, nan_policy="omit", rope=1, layout="standard"
    )


def _aliases(text: str) -> list[str]:
    found = re.findall(r"^([A-Z]{1,2})\s+MultiBoostAB", text, flags=re.M)
    return list(dict.fromkeys(found))  # the legend and the summary both list them


def test_no_paragraph_states_more_than_ten_pairwise_decisions(multiboost_text):
    # aliases per name: the 12 names over 20 characters get letters,
    # MultiBoostAB_weka (17) keeps its own
    names = _aliases(multiboost_text)
    assert len(names) == 12
    names.append("MultiBoostAB_weka")
    counted = {
        p[:60]: _pairwise_decisions(p, names) for p in _paragraphs(multiboost_text)
    }
    assert max(counted.values()) >= 1  # the counter sees the decisions
    if "Bayesian comparisons" in multiboost_text:
        # nbstats/reporting/bayesian.py lists every "X over Y" in the standard
        # layout: its change is asked for in the report
        bayes = multiboost_text.split("Bayesian comparisons", 1)[1]
        first = _paragraphs(bayes)[0][:60]
        counted.pop(first, None)
    too_many = {start: n for start, n in counted.items() if n > 10}
    assert not too_many


def test_bayesian_paragraph_states_at_most_ten_pairs(multiboost_text):
    names = [*_aliases(multiboost_text), "MultiBoostAB_weka"]
    bayes = multiboost_text.split("Bayesian comparisons", 1)[1]
    assert _pairwise_decisions(_paragraphs(bayes)[0], names) <= 10


def test_core_paragraph_states_groups_not_pairs():
    # the closed form: A and B beat C and D, nothing else differs
    letters = pd.Series({"A": "a", "B": "a", "C": "b", "D": "b"})
    reject = pd.DataFrame(False, index=list("ABCD"), columns=list("ABCD"))
    reject.loc[["A", "B"], ["C", "D"]] = True
    reject = reject | reject.T
    assert group_sentence(letters, reject) == (
        "A and B are not significantly different from each other (letter a); "
        "each of them is significantly different from, and ranks above, all "
        "the others."
    )
    # B is not different from C: only D is beaten by every member of {A, B}
    reject.loc["B", "C"] = reject.loc["C", "B"] = False
    letters = pd.Series({"A": "a", "B": "ab", "C": "b", "D": "c"})
    sentence = group_sentence(letters, reject)
    assert sentence.startswith("A and B are not significantly different")
    assert "ranks above, D. C is significantly different from A only." in sentence


def test_core_letters_agree_with_nemenyi_on_demsar():
    # the core's groups come from nbstats.letters of Nemenyi's test; at
    # alpha = 0.10, CD = q(0.10) sqrt(k(k+1)/6N) = 2.291 * sqrt(20/84) = 1.118
    # (Demšar 2006, §3.2.2): C4.5 (mean rank 3.143) differs from C4.5+m+cf
    # (1.964) and C4.5+m (2.000), not from C4.5+cf (2.893)
    table = nbstats.datasets.load("demsar2006")
    nemenyi = nbstats.posthoc(table, method="nemenyi", alpha=0.10)
    assert nemenyi.critical_difference == pytest.approx(1.118, abs=1e-3)
    sentence = group_sentence(nbstats.letters(nemenyi), nemenyi.reject)
    assert sentence == (
        "C4.5+m+cf, C4.5+m and C4.5+cf are not significantly different from "
        "each other (letter a); no algorithm is significantly different from "
        "every one of them. C4.5 is significantly different from C4.5+m+cf "
        "and C4.5+m only."
    )


def test_rope_has_its_unit():
    assert rope_text(1, "percentage points") == "±1 percentage points"
    assert rope_text(0.5) == "±0.5 in the scores' units"


#: The Bayesian outcomes and the frequentist ones, in the report's words.
BAYES_WORDS = ("better", "equivalent", "undecided", "indeterminate")
FORBIDDEN = ("zsplit", "credible level 1", "preferred")
#: A bare "a better" or "b better" (not "MR-Hydra better").
BARE = re.compile(r"(?<![\w+.-])[ab] better")


@pytest.fixture(scope="module")
def demsar_text() -> str:
    table = nbstats.datasets.load("demsar2006")
    return nbstats.reporting.report_text(table, rope=0.01, score_unit="accuracy points")


def test_vocabulary_of_a_multiple_report(demsar_text):
    text = demsar_text
    for word in FORBIDDEN:
        assert word not in text, word
    assert not BARE.search(text)
    methods = text.split("\nMethods\n", 1)[1]
    # the near-ignorance prior's four outcomes, stated in Methods
    for word in BAYES_WORDS:
        assert re.search(rf"\b{word}\b", methods), word
    assert "significantly different" in text
    assert "±0.01 accuracy points" in methods
    assert "Time for a change" in text  # Benavoli et al. (2017) is cited
    # Nemenyi's power at n = 14 (analyze()'s warning): 4 algorithms need 22
    assert "Nemenyi's test has low power: it needs 22 cases to tell" in text
    # every decision cell of every table names an outcome, never "a" or "b"
    for block in text.split("\n\n"):
        lines = block.splitlines()
        if not lines or not lines[0].startswith("Table"):
            continue
        header = lines[1] if len(lines) > 1 else ""
        if "decision" not in header:
            continue
        for row in lines[3:]:
            cell = row.rsplit("  ", 1)[-1].strip()
            assert cell not in ("a", "b", "a better", "b better"), row


def test_vocabulary_of_a_two_algorithm_report_with_folds():
    # 2 algorithms, per-fold long data (the bake-off's first 20 data sets, so
    # that the per-data-set table is typeset): names, not "a" or "b"
    long = nbstats.datasets.load("tsc_bakeoff2024_folds")
    keep = long["dataset"].drop_duplicates().iloc[:20]
    long = long[long["dataset"].isin(keep)]
    text = nbstats.reporting.report_text(
        long,
        case="dataset",
        algorithm="classifier",
        score="accuracy",
        fold="resample",
        runs=3,
        rope=0.01,
    )
    for word in FORBIDDEN:
        assert word not in text, word
    assert not BARE.search(text)
    assert "Each data set's correlated t-tests" in text
    cells = re.findall(r"(?m)\s(a|b|a better|b better)\s*$", text)
    assert not cells
    assert "P(HC2 better)" in text and "P(MR-Hydra better)" in text
    assert "zero differences ranked and their ranks split evenly" in text


def test_table_one_and_paragraph_name_every_algorithm_in_full():
    # aliases per name: the 12 MultiBoostAB names over 20 characters have
    # letters in the figures; Table 1 gives each full name once, with its
    # letter beside it, and the paragraph uses the full names
    table = nbstats.datasets.load("fernandez_delgado2014_multiboost")
    text = nbstats.reporting.report_text(
        table, nan_policy="omit", rope=1, core_only=True
    )
    summary = text.split("Table 1.", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in summary.splitlines()[3:] if line.strip()]
    assert len(rows) == 13
    names = [re.split(r"\s{2,}", row.strip())[0] for row in rows]
    assert "MultiBoostAB_weka" in names  # 17 characters: no letter
    lettered = [n for n in names if re.fullmatch(r"MultiBoostAB_\w+ \([A-Z]\)", n)]
    assert len(lettered) == 12
    assert "name" not in summary.splitlines()[1].split()  # no second name column
    # the caption says what the letters are: pasted beside Figure 1, whose
    # names they are, the table is the figure's key
    caption = text.split("Table 1.", 1)[1].split("\n", 1)[0]
    assert "in parentheses: the algorithm's short name in the figures" in caption
    paragraph = text.split("The Friedman test", 1)[1].split("\n\n", 1)[0]
    assert "MultiBoostAB_LibSVM_weka the highest probability" in paragraph
    assert not re.search(
        r"(?<![\w(])[A-L](?= |,|\.)(?![^(]*\))", paragraph.replace("P(best)", "")
    )


def _synthetic(m: int, n: int = 30) -> pd.DataFrame:
    import numpy as np

    rng = np.random.default_rng(m)
    names = [f"alg_{k:03d}" for k in range(m)]
    names[3] = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"
    return pd.DataFrame(rng.normal(0.8, 0.05, (n, m)), columns=names)


#: The environments Table 1 may be set in.
ENVS = ("table", "longtable", "xltabular", "supertabular")


@pytest.mark.parametrize(
    ("m", "analyses"),
    [
        (50, ("frequentist", "bayesian")),
        (60, ("frequentist",)),
        (101, ("frequentist",)),
    ],
)
def test_table_one_names_every_algorithm_once_at_many_algorithms(tmp_path, m, analyses):
    # the LaTeX source alone (no TeX needed): Table 1 of the .tex report is
    # the table the paper gets (core.tex), one table however long
    path = nbstats.reporting.report(
        _synthetic(m), tmp_path / "r.tex", core_only=True, analyses=analyses
    )
    tex = path.read_text()
    paper = (tmp_path / "r_core" / "summary.tex").read_text()
    everything = (tmp_path / "r_tables" / "summary-all.tex").read_text()
    assert tex.count("\\label{tab:core}") == 1
    start = tex.index("\\label{tab:core}")
    begin = tex.rindex("\\begin{", 0, start)
    ends = [tex.find(f"\\end{{{env}}}", start) for env in ENVS]
    body = tex[begin : min(e for e in ends if e > 0)]
    # the report's page and the paper's file (the venue's): the same model,
    # each with the CORE_ROWS best-ranked once (by pandas' ranks), the full
    # table beside them with every algorithm once
    table = _synthetic(m)
    order = table.rank(axis=1, ascending=False).mean().sort_values(kind="stable")
    best = set(order.index[:CORE_ROWS])
    for latex, names in ((body, best), (paper, best), (everything, set(order.index))):
        plain = re.sub(r"\\allowbreak\{\}|\\penalty\d+\{\}", "", latex)
        for name in table.columns:
            if len(name) <= 20:
                want = 1 if name in names else 0
                assert plain.count(name.replace("_", "\\_")) == want, name


def test_power_warning_groups_thousands_as_the_prose_does():
    # "1,040 missing scores" beside "it needs 4604 cases" read as two styles
    from types import SimpleNamespace

    from nbstats.reporting.core import power_warning

    nemenyi = SimpleNamespace(mean_ranks=pd.Series(range(42)), alpha=0.05)
    needed = nbstats.nemenyi_min_cases(42, 0.05)
    assert needed > 1000
    assert f"it needs {needed:,} cases" in power_warning(nemenyi, 16)


def test_table_one_speaks_of_short_names_only_when_there_are_some(demsar_text):
    caption = demsar_text.split("Table 1.", 1)[1].split("\n", 1)[0]
    assert "short name" not in caption  # Demšar's names are short

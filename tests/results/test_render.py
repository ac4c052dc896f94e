"""The markup of every result: one label/value grid in HTML, escaped names,
p-values as 0.0012 / < 0.001, no e-notation, true minus signs, LaTeX captions
with real subscripts (nbstats.results.render)."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

import nbstats
from nbstats.results import render
from tests.results.conftest import LONG_NAMES

MINUS = "\u2212"
PVALUE = re.compile(r"^(< 0\.001|[01]\.\d{3}|—)$")
E_NOTATION = re.compile(r"\d[eE][-+]?\d")


def _tree(markup: str) -> ET.Element:
    """The result's <div> as XML (the fragment is well-formed apart from CSS)."""
    body = re.sub(r"<style>.*?</style>", "", markup, flags=re.S)
    return ET.fromstring(body)


def test_every_result_uses_the_one_grid(long_results):
    for name, res in long_results.items():
        markup = res._repr_html_()
        assert markup.count("<style>") == 1, name
        root = _tree(markup)
        assert root.get("class") == "nbstats-result", name
        title, grid = root[0], root[1]
        assert title.get("class") == "nbstats-title"
        assert grid.tag == "dl" and grid.get("class") == "nbstats-grid", name
        assert len(grid) == len(res._scalars()), name
        for row in grid:
            assert row.tag == "div" and row.get("class") == "nbstats-row", name
            assert [cell.tag for cell in row] == ["dt", "dd"], name
        tables = root.findall(".//table")
        for table in tables:  # a table sits in its own scroll box
            parent = next(el for el in root.iter() if table in list(el))
            assert parent.get("class") == "nbstats-scroll", name


def test_html_has_no_script_link_or_url(long_results):
    for name, res in long_results.items():
        markup = res._repr_html_()
        for forbidden in ("<script", "<link", "http:", "https:", "@import", "url("):
            assert forbidden not in markup, (name, forbidden)


def test_html_escapes_every_name(long_results):
    for name, res in long_results.items():
        markup = res._repr_html_()
        assert "& 50%" not in markup, name  # the raw ampersand never appears
        if "k-NN (k=5) & 50% #1" in res.summary():
            assert "k-NN (k=5) &amp; 50% #1" in markup, name


def test_p_values_are_written_0_012_or_below_0_001(long_results):
    nemenyi = long_results["nemenyi"]
    root = _tree(nemenyi._repr_html_())
    head = ["".join(th.itertext()) for th in root.find(".//thead/tr")]
    for row in root.findall(".//tbody/tr"):
        cells = dict(zip(head, ["".join(c.itertext()) for c in row], strict=True))
        assert PVALUE.match(cells["p"]) and PVALUE.match(cells["adjusted p"])
    # the independent figures: the comparisons' own p-values, written by hand
    frame = nemenyi.to_frame()
    expected = [
        "< 0.001" if p < 0.001 else f"{p:.3f}" for p in frame["pvalue"].to_numpy()
    ]
    text = nemenyi.summary()
    for value in expected:
        assert value in text
    assert "< 0.001" in expected and any(p != "< 0.001" for p in expected)
    latex = nemenyi.to_latex()
    assert "$<$ 0.001" in latex
    friedman = long_results["friedman"]
    assert friedman.pvalue < 0.001
    assert "p-value            : < 0.001" in friedman.summary()
    assert "<dt>p-value</dt><dd>&lt; 0.001</dd>" in friedman._repr_html_()


def test_no_e_notation_anywhere(long_results):
    for name, res in long_results.items():
        for output in (res.summary(), res._repr_html_(), res.to_latex()):
            assert not E_NOTATION.search(output), (name, E_NOTATION.search(output))


def test_negative_numbers_carry_a_true_minus(long_results, table6):
    res = nbstats.posthoc(table6, method="nemenyi")
    negative = res.to_frame()["statistic"].lt(0)
    assert negative.any()
    assert f"{MINUS}1.83" in res.summary()
    assert f'<td class="num">{MINUS}1.83</td>' in res._repr_html_()
    assert "$-$1.83" in res.to_latex()
    for name, result in long_results.items():
        latex = result.to_latex()
        # no hyphen-minus before a digit in any cell or caption (a LaTeX
        # argument such as \addtocounter{table}{-1} is not a printed number)
        assert not re.search(r"(?<![\w.=({])-\d", latex), name


def test_friedman_caption_has_real_subscripts(table6):
    res = nbstats.friedman(table6)
    latex = res.to_latex()
    caption = next(line for line in latex.splitlines() if line.startswith(r"\caption"))
    assert r"\_F" not in latex and "_F" not in caption.replace("_{F}", "")
    assert r"$\chi^{2}_{F}$ = 9.28" in caption
    assert r"Iman--Davenport $F_{F}$ = 3.69" in caption
    assert "p-value = 0.026" in caption  # Demšar's p = 0.0258, three decimals
    markup = res._repr_html_()
    assert "<dt>χ²<sub>F</sub></dt><dd>9.28</dd>" in markup
    assert "Iman–Davenport F<sub>F</sub>" in markup
    assert "χ²_F               : 9.28" in res.summary()


def test_wilcoxon_rank_sums_are_superscripts(table6):
    res = nbstats.wilcoxon(table6["C4.5"], table6["C4.5+m"])
    assert r"$R^{+}$ / $R^{-}$ & 93 / 12" in res.to_latex()
    assert "<dt>R<sup>+</sup> / R<sup>−</sup></dt><dd><bdi>93 / 12</bdi></dd>" in (
        res._repr_html_()
    )
    assert "R+ / R−          : 93 / 12" in res.summary()


def test_wilcoxon_summary_says_how_in_words(table6):
    # the p-value's method and the zero differences in words, not argument
    # values ("zsplit"); Demšar (2006, §3.1.3) splits zeros' ranks evenly
    summary = nbstats.wilcoxon(table6["C4.5"], table6["C4.5+m"]).summary()
    assert "p-value by       : exact distribution" in summary
    assert "ranked, their ranks split evenly between the two sums" in summary
    assert "zsplit" not in summary and "zero_method" not in summary
    dropped = nbstats.wilcoxon(
        table6["C4.5"], table6["C4.5+m"], zero_method="wilcox", method="approx"
    ).summary()
    assert "normal approximation" in dropped
    assert "dropped before ranking" in dropped


def test_latex_captions_escape_names_once(long_results):
    for name, res in long_results.items():
        latex = res.to_latex()
        assert r"\textbackslash{}" not in latex, name  # nothing escaped twice
        assert "\\\\_" not in latex, name


def test_html_table_marks_numbers_and_keeps_names_as_text():
    frame = pd.DataFrame(
        {"b": [LONG_NAMES[0]], "statistic": [-2.5], "p": [0.00002]},
        index=pd.Index(["<x>"], name="comparison"),
    )
    markup = render.html_table(frame)
    assert '<th scope="row"><bdi>&lt;x&gt;</bdi></th>' in markup
    # a long name is text that breaks only at its natural points (<wbr/>)
    name = html.escape(LONG_NAMES[0])
    assert f'<td class="nbstats-text"><bdi>{name}</bdi></td>' in markup.replace(
        "<wbr/>", ""
    )
    assert f'<td class="num">{MINUS}2.5</td>' in markup
    assert '<td class="num">&lt; 0.001</td>' in markup


def test_latex_scalars_and_table_align_one_column_per_value():
    out = render.latex_scalars([("p-value", 0.2), ("α", 0.05)], float_env=False)
    assert r"\begin{tabular}{lr}" in out
    assert "p-value & 0.200" in out and r"$\alpha$ & 0.05" in out
    frame = pd.DataFrame({"x": [1.5], "y": ["a_b"]}, index=["r"])
    out = render.latex_table(frame, caption="C & D", label="tab:x")
    assert r"\begin{tabular}{lrl}" in out  # numbers right, text left
    assert r"\caption{C \& D}" in out and r"\label{tab:x}" in out
    assert r"r & 1.5 & a\_b \\" in out


@pytest.mark.parametrize("kind", ["friedman", "bayes_signrank", "rank_ci"])
def test_text_html_and_latex_agree_on_the_figures(long_results, kind):
    res = long_results[kind]
    text, markup, latex = res.summary(), res._repr_html_(), res.to_latex()
    for label, value in res._scalars():
        if render.is_pvalue_name(label):
            figure = render.format_pvalue(value)
            assert figure in text and html.escape(figure) in markup, label
            assert render.format_pvalue(value, latex=True) in latex, label


# ------------------------------------------------- bidirectional names (issue 30)

RLO, RLI, PDI = "\u202e", "\u2067", "\u2069"
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _bidi_controls_are_closed(markup: str) -> None:
    """Every explicit bidi control is the whole content of its own <bdi>."""
    for match in BIDI.finditer(markup):
        before = markup[: match.start()]
        after = markup[match.end() :]
        assert before.endswith("<bdi>") and after.startswith("</bdi>"), markup


def test_a_right_to_left_override_cannot_reverse_the_rest_of_a_line():
    # before: "A\u202e vs B (H1: ...)" reversed everything after the name
    name = f"x{RLO}y"
    frame = pd.DataFrame(
        {"b": [name], "p": [0.5]}, index=pd.Index([f"{name} vs B"], name=name)
    )
    markup = render.html_block(f"Test: {name} vs B", [(f"P({name})", name)], frame)
    _bidi_controls_are_closed(markup)
    assert markup.count(f"<bdi>{RLO}</bdi>") == 6
    _tree(markup)  # still well-formed


def test_every_name_in_a_table_is_isolated():
    frame = pd.DataFrame(
        {"עץ": ["شبكة"], "p": [0.5]}, index=pd.Index(["עץ vs C4.5"], name="pair")
    )
    root = _tree(render.html_table(frame))
    head = root.find(".//thead/tr")
    assert all(len(th) == 1 and th[0].tag == "bdi" for th in head)
    label = root.find(".//tbody/tr/th")
    # each side of "a vs b" is its own isolate, "vs" stays outside
    assert [b.text for b in label] == ["עץ", "C4.5"]
    assert label[0].tail == "\u00a0vs "
    text_cell, number_cell = root.findall(".//tbody/tr/td")
    assert text_cell[0].tag == "bdi" and text_cell[0].text == "شبكة"
    assert len(number_cell) == 0  # numbers need no isolate


def test_results_isolate_the_names_they_show(table6):
    hebrew = table6.rename(columns={"C4.5": "עץ החלטה", "C4.5+m": "C4.5 (m)"})
    for res in (nbstats.posthoc(hebrew), nbstats.friedman(hebrew)):
        root = _tree(res._repr_html_())
        isolated = {"".join(b.itertext()) for b in root.iter("bdi")}
        assert {"עץ החלטה", "C4.5 (m)"} <= isolated, type(res).__name__


def test_names_inside_titles_and_labels_are_isolated(table6):
    hebrew = table6.rename(columns={"C4.5": "עץ", "C4.5+m": "C4.5+m"})
    res = nbstats.bayes_sign_test(hebrew["עץ"], hebrew["C4.5+m"], random_state=0)
    markup = render.html_block(
        res._title(), res._scalars(), res._table(), names=[res.name_a, res.name_b]
    )
    root = _tree(markup)
    title = root[0]
    assert [b.text for b in title.iter("bdi")] == ["עץ", "C4.5+m"]
    assert "".join(title.itertext()) == res._title()
    labels = [dt for dt in root.iter("dt") if "better" in "".join(dt.itertext())]
    assert labels and all(
        [b.text for b in dt.iter("bdi")] in (["עץ"], ["C4.5+m"]) for dt in labels
    )
    # a name is isolated only as a whole word: "a" inside "Bayesian" is not
    one = render.html_block("Bayesian test: a vs b", [], None, names=["a", "b"])
    assert "Bayesian test: <bdi>a</bdi> vs <bdi>b</bdi>" in one


def test_isolate_escapes_and_closes_controls():
    assert render.isolate("<b>&") == "<bdi>&lt;b&gt;&amp;</bdi>"
    assert render.isolate(f"a{RLI}b{PDI}") == (
        f"<bdi>a<bdi>{RLI}</bdi>b<bdi>{PDI}</bdi></bdi>"
    )

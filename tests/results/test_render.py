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
PVALUE = re.compile(r"^(< 0\.001|[01]\.\d{4}|—)$")
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


def test_p_values_are_written_0_0012_or_below_0_001(long_results):
    nemenyi = long_results["nemenyi"]
    root = _tree(nemenyi._repr_html_())
    head = [th.text for th in root.find(".//thead/tr")]
    for row in root.findall(".//tbody/tr"):
        cells = dict(zip(head, [c.text for c in row], strict=True))
        assert PVALUE.match(cells["p"]) and PVALUE.match(cells["adjusted p"])
    # the independent figures: the comparisons' own p-values, written by hand
    frame = nemenyi.to_frame()
    expected = [
        "< 0.001" if p < 0.001 else f"{p:.4f}" for p in frame["pvalue"].to_numpy()
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
        # no hyphen-minus before a digit in any cell or caption
        assert not re.search(r"(?<![\w.=(])-\d", latex), name


def test_friedman_caption_has_real_subscripts(table6):
    res = nbstats.friedman(table6)
    latex = res.to_latex()
    caption = next(line for line in latex.splitlines() if line.startswith(r"\caption"))
    assert r"\_F" not in latex and "_F" not in caption.replace("_{F}", "")
    assert r"$\chi^{2}_{F}$ = 9.28" in caption
    assert r"Iman--Davenport $F_{F}$ = 3.69" in caption
    assert "p-value = 0.0258" in caption
    markup = res._repr_html_()
    assert "<dt>χ²<sub>F</sub></dt><dd>9.279</dd>" in markup
    assert "Iman–Davenport F<sub>F</sub>" in markup
    assert "χ²_F               : 9.279" in res.summary()


def test_wilcoxon_rank_sums_are_superscripts(table6):
    res = nbstats.wilcoxon(table6["C4.5"], table6["C4.5+m"])
    assert r"$R^{+}$ / $R^{-}$ & 93 / 12" in res.to_latex()
    assert "<dt>R<sup>+</sup> / R<sup>−</sup></dt><dd>93 / 12</dd>" in (
        res._repr_html_()
    )
    assert "R+ / R−         : 93 / 12" in res.summary()


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
    assert '<th scope="row">&lt;x&gt;</th>' in markup
    assert f"<td>{html.escape(LONG_NAMES[0])}</td>" in markup
    assert f'<td class="num">{MINUS}2.5</td>' in markup
    assert '<td class="num">&lt; 0.001</td>' in markup


def test_latex_scalars_and_table_align_one_column_per_value():
    out = render.latex_scalars([("p-value", 0.2), ("α", 0.05)], float_env=False)
    assert r"\begin{tabular}{lr}" in out
    assert "p-value & 0.2000" in out and r"$\alpha$ & 0.05" in out
    frame = pd.DataFrame({"x": [1.5], "y": ["a_b"]}, index=["r"])
    out = render.latex_table(frame, caption="C & D", label="tab:x")
    assert r"\begin{tabular}{lrr}" in out
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

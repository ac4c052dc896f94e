"""The table model and its renderers (no TeX needed: the compile tests are
in tests/venues/)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.results import table_model
from nbstats.results.font_metrics import quad_pt, text_width_em, text_width_pt
from nbstats.results.render import table_html
from nbstats.results.render_latex import breakable, latex
from nbstats.results.venues import get_venue
from tests.results.every_kind import score_table


def test_cells_know_their_kind_and_the_table_its_content():
    frame = pd.DataFrame(
        {"mean rank": [1.5, 2.5], "pvalue": [0.0001, 0.5], "decision": ["a", "b"]},
        index=pd.Index(["x_1", "y"], name="algorithm"),
    )
    t = table_model.from_frame(
        frame, {"mean rank": "rank"}, caption="C.", label="tab:x", n_cases=14
    )
    assert [c.text for c in t.header] == ["algorithm", "mean rank", "p", "decision"]
    assert [c.kind for c in t.rows[0]] == ["name", "rank", "pvalue", "text"]
    assert [c.text for c in t.rows[0]] == ["x_1", "1.50", "< 0.001", "a"]
    assert (t.caption, t.label, t.n_cases) == ("C.", "tab:x", 14)
    # CSV keeps the values themselves; text the printed cells
    assert "0.0001" in table_model.csv(t) and "< 0.001" in table_model.text(t)


def test_font_widths_are_the_fonts_own():
    # Computer Modern's digits are half an em, its quad at 8 pt 8.5 pt (cmr8)
    assert text_width_em("0123456789", "computer-modern") == 5.0
    assert quad_pt("computer-modern", 8) == 8.5
    # Times: "mean rank" is narrower than in Computer Modern
    assert text_width_pt("mean rank", "times") < text_width_pt(
        "mean rank", "computer-modern"
    )
    # a character without a width counts as wide as "M"
    assert text_width_em("中", "times") == text_width_em("M", "times")


@pytest.mark.parametrize("venue", ["twocolumn", "ieee", "acm"])
@pytest.mark.parametrize("m", [12, 50])
def test_two_column_venues_never_get_a_longtable(venue, m):
    res = nbstats.posthoc(score_table(m), method="nemenyi")
    out = res.to_latex(venue=venue)
    assert "longtable" not in out
    # a float (in the column or across both), or flowing from column to column
    assert "\\begin{table" in out or "\\begin{supertabular}" in out


def test_a_table_too_wide_for_the_column_spans_both():
    """Twelve score columns cannot fit 252 pt: table* on IEEE, a table in
    the one-column article."""
    frame = score_table(12, n_cases=10).round(4)
    frame.columns = [f"alg{j}" for j in range(12)]
    t = table_model.from_frame(frame, caption="Scores.", label="tab:s")
    assert "\\begin{table*}" in latex(t, "ieee")
    assert "\\begin{table*}" not in latex(t, "article")


def test_unknown_venue_is_refused_with_the_names():
    res = nbstats.friedman(score_table(3))
    with pytest.raises(ValueError, match="'article', 'twocolumn', 'ieee', 'acm'"):
        res.to_latex(venue="neurips")
    assert res.to_latex() == res.to_latex(venue=get_venue("article"))


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.sampled_from("abcXYZ_(,=/ -"), min_size=1, max_size=60))
@example("a---b")  # found by CI: three hyphens
def test_break_points_never_change_the_text(text):
    out = breakable(text, 4)
    plain = (
        out.replace("\\allowbreak{}", "")
        .replace("\\penalty300{}", "")
        .replace("\\_", "_")
        .replace("~", " ")
    )
    # the same characters, and no two hyphens side by side (TeX would set an
    # en or em dash): "{}" or a break point sits between them
    assert plain.replace("-{}", "-") == text
    assert "--" not in out


def test_html_breaks_a_long_name_only_at_its_break_points():
    t = table_model.from_frame(
        pd.DataFrame({"p": [0.5]}, index=["RandomForest_n_estimators_500"])
    )
    markup = table_html(t)
    assert "Random<wbr/>Forest_<wbr/>n_<wbr/>estimators_<wbr/>500" in markup
    short = table_html(table_model.from_frame(pd.DataFrame({"p": [0.5]}, index=["x"])))
    assert "<wbr" not in short


def test_scalars_become_a_table_of_key_figures():
    t = table_model.from_scalars([("χ²", 9.2793), ("decision", "a better")])
    assert [r[1].text for r in t.rows] == ["9.28", "a better"]
    assert np.isclose(t.rows[0][1].value, 9.2793)

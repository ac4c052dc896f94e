"""Labels that fit: widths against the renderer, wrapping, aliases, the key."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from nbstats.plots.labels import add_key, fit_names, text_width, wrap_text
from nbstats.plots.style import paper_style

LONG = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"


@pytest.fixture(autouse=True)
def _style_and_close():
    with paper_style():
        yield
    plt.close("all")


def test_text_width_matches_the_renderer():
    fig = plt.figure(dpi=72)  # one pixel per point
    text = fig.text(0.1, 0.5, LONG, fontsize=7)
    fig.canvas.draw()
    drawn = text.get_window_extent(fig.canvas.get_renderer()).width
    # unhinted outlines: within 3%, and never narrower than drawn (safe side)
    assert text_width(LONG, 7) == pytest.approx(drawn, rel=0.03)
    assert text_width(LONG, 7) >= drawn - 0.5
    assert text_width("a\nbbbb", 7) == text_width("bbbb", 7)  # the longest line
    assert text_width("ab", 7, weight="bold") > text_width("ab", 7)


def test_wrap_prefers_parentheses_commas_and_spaces():
    two = wrap_text(LONG, 130, 7)
    assert two == "HistGradientBoostingClassifier(\nmax_iter=300, lr=0.05)"
    assert all(text_width(line, 7) <= 130 for line in two.split("\n"))
    # no room for the class name: other breaks are used, or None
    assert wrap_text(LONG, 60, 7) is None
    assert wrap_text(LONG, 130, 7, max_lines=1) is None
    forced = wrap_text(LONG, 60, 7, force=True)
    assert forced.replace("\n", "").replace(" ", "") == LONG.replace(" ", "")
    assert all(text_width(line, 7) <= 60 for line in forced.split("\n"))
    assert wrap_text("short", 100, 7) == "short"


def test_fit_names_tries_names_then_wrapping_then_letters():
    short = fit_names(["RF", "SVC"], 100, fontsize=8)
    assert short.labels == ["RF", "SVC"] and short.fontsize == 8
    assert short.aliases is None and short.key() == []
    # a little too wide: a smaller font, at most 1 pt smaller, never below 8
    width = text_width("RandomForest", 9) - 1
    smaller = fit_names(["RandomForest"], width, fontsize=9)
    assert smaller.labels == ["RandomForest"] and 8 <= smaller.fontsize < 9
    wrapped = fit_names([LONG, "SVC"], 140, fontsize=8)
    assert wrapped.lines == 2 and wrapped.labels[0].count("\n") == 1
    # a letter only for the name that fits neither way; the key lists only it
    letters = fit_names([LONG, "SVC"], 40, fontsize=8)
    assert letters.labels == ["A", "SVC"] and letters.fontsize == 8
    assert letters.key() == [f"A: {LONG}"]


def test_auto_letters_go_only_to_the_names_that_do_not_fit():
    # issue 27: one long name turned short names like svm_C into letters too
    names = ["svm_C", LONG, "rf_caret", LONG + " (2)"]
    fitted = fit_names(names, 60, fontsize=8, max_lines=1)
    assert fitted.labels == ["svm_C", "A", "rf_caret", "B"]
    assert fitted.aliases == {LONG: "A", LONG + " (2)": "B"}
    assert fitted.key() == [f"A: {LONG}", f"B: {LONG} (2)"]
    assert all(text_width(label, 8) <= 60 for label in fitted.labels)
    # names that are letters already keep them; the long one gets a free one
    clash = fit_names(["A", "B", LONG], 60, fontsize=8, max_lines=1)
    assert clash.labels == ["A", "B", "C"] and clash.key() == [f"C: {LONG}"]


def test_key_grows_the_figure_by_its_height():
    fig, _ = plt.subplots(figsize=(3.3, 2.0), layout="constrained")
    key = add_key(fig, [f"{c}: {LONG}" for c in "ABCD"], 3.3 * 72 - 8)
    assert key.get_gid() == "key" and key._ncols == 1
    # four wrapped 8-pt entries of two or three lines each
    assert 2.0 + 4 * 2 * 8 / 72 < fig.get_figheight() < 2.0 + 4 * 3 * 8 * 1.5 / 72
    wide, _ = plt.subplots(figsize=(6.9, 2.0), layout="constrained")
    assert add_key(wide, ["A: x", "B: y", "C: z"], 6.9 * 72 - 8)._ncols == 3


def test_fit_names_takes_aliases_given_forced_or_refused():
    mapping = fit_names([LONG, "SVC"], 400, fontsize=8, aliases={LONG: "HGB"})
    assert mapping.labels == ["HGB", "SVC"] and mapping.key() == [f"HGB: {LONG}"]
    assert fit_names(["RF", "SVC"], 400, fontsize=8, aliases=True).labels == ["A", "B"]
    refused = fit_names([LONG, "SVC"], 40, fontsize=8, aliases=False)
    assert refused.aliases is None and refused.fontsize == 8
    assert all(text_width(line, 8) <= 40 for line in refused.labels[0].split("\n"))
    assert fit_names(["a$b"], 100, fontsize=8).labels == [r"a\$b"]  # no mathtext
    with pytest.raises(ValueError, match="aliases must be 'auto', True, False"):
        fit_names(["RF"], 100, fontsize=8, aliases="letters")

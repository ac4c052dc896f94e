"""The comparison matrix figure: what each cell says, frames, sizes, errors."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.plots.comparison import CELL_LINES, comparison_matrix_plot
from nbstats.results.number_policy import format_relation


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def demsar():
    return nbstats.comparison_matrix(nbstats.datasets.load("demsar2006"))


def cell(ax, row, column):
    (text,) = [t for t in ax.texts if t.get_gid() == f"cell-{row}-{column}"]
    return text


def test_cells_say_what_the_result_holds(demsar):
    ax = comparison_matrix_plot(demsar)
    for row in demsar.names:
        for column in demsar.names:
            if row == column:
                assert not [t for t in ax.texts if t.get_gid() == f"cell-{row}-{row}"]
                continue
            lines = cell(ax, row, column).get_text().split("\n")
            assert len(lines) == len(CELL_LINES)
            difference = float(lines[0].replace("−", "-"))
            assert difference == pytest.approx(
                demsar.mean_difference.loc[row, column], abs=5e-5
            )
            record = "/".join(
                str(int(getattr(demsar, f).loc[row, column]))
                for f in ("wins", "n_ties", "losses")
            )
            assert lines[1] == record
            assert lines[2].startswith("p ")
            effect = float(lines[3].split()[1].replace("−", "-"))
            assert effect == pytest.approx(
                demsar.effect_sizes.loc[row, column], abs=5e-3
            )


def test_significant_pairs_are_framed_and_bold(demsar):
    ax = comparison_matrix_plot(demsar)
    framed = {p.get_gid() for p in ax.patches if p.get_gid()}
    expected = {
        f"significant-{a}-{b}"
        for a in demsar.names
        for b in demsar.names
        if demsar.reject.loc[a, b]
    }
    assert framed == expected and expected  # C4.5+m vs C4.5 (Demšar)
    for gid in expected:
        _, row, column = gid.split("-", 1)[0], *gid.split("-", 1)[1].rsplit("-", 1)
        assert cell(ax, row, column).get_fontweight() == "bold"


def test_chosen_lines_and_colour(demsar):
    ax = comparison_matrix_plot(demsar, lines=["pvalue"], color="difference")
    # printed as the tables print it (the number policy)
    expected = "p " + format_relation(demsar.adjusted.loc["C4.5+m", "C4.5"], "pvalue")
    assert cell(ax, "C4.5+m", "C4.5").get_text() == expected == "p = 0.047"
    mesh = ax.collections[0]
    low, high = mesh.norm.vmin, mesh.norm.vmax
    assert low == -high == -np.nanmax(np.abs(demsar.mean_difference.to_numpy()))


def test_many_algorithms_drop_the_text_not_the_colours():
    rng = np.random.default_rng(0)
    table = pd.DataFrame(
        rng.normal(size=(20, 40)), columns=[f"a{i}" for i in range(40)]
    )
    res = nbstats.comparison_matrix(table, test="ttest")
    ax = res.plot(width="single")
    assert not ax.texts
    assert ax.collections[0].get_array().count() == 40 * 39  # the diagonal masked
    assert "colour: row vs column" in ax.get_title()


def test_long_names_get_letters_with_a_key():
    names = [
        f"HistGradientBoostingClassifier(max_iter={i}00, lr=0.05)" for i in range(6)
    ]
    rng = np.random.default_rng(1)
    table = pd.DataFrame(rng.normal(size=(15, 6)), columns=names)
    ax = nbstats.comparison_matrix(table).plot(width="single", aliases=True)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert set(labels) <= set("ABCDEF")
    (key,) = [legend for legend in ax.figure.legends if legend.get_gid() == "key"]
    # entries wrap at 8 pt: compare without the line breaks
    assert any(
        "".join(names[0].split()) in "".join(t.get_text().split())
        for t in key.get_texts()
    )


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"lines": "all"}, "lines must be 'auto'"),
        ({"lines": ["pvalue", "stars"]}, "unknown cell lines"),
        ({"color": "pvalue"}, "color must be"),
        ({"width": "wide"}, "width must be one of"),
    ],
)
def test_bad_arguments(demsar, keywords, message):
    with pytest.raises(ValueError, match=message):
        comparison_matrix_plot(demsar, **keywords)


def test_draws_on_given_axes(demsar):
    _, (_, right) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    ax = demsar.plot(ax=right, lines=["record"])
    assert ax is right and cell(ax, "C4.5+m", "C4.5").get_text() == "10/2/2"


def test_unadjusted_p_values_are_called_so():
    """adjust="none": "unadjusted p", the words of the post-hoc titles, not
    "adjusted p (none)"."""
    table = nbstats.datasets.load("demsar2006")
    plain = nbstats.comparison_matrix(table, adjust="none")
    title = comparison_matrix_plot(plain, lines=("pvalue",)).get_title()
    assert "unadjusted p" in title and "(none)" not in title
    holm = nbstats.comparison_matrix(table, adjust="holm")
    title = comparison_matrix_plot(holm, lines=("pvalue",)).get_title()
    assert "adjusted p (Holm)" in title

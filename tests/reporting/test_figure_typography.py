"""Figures in the paper's typography (issue 27, item 3).

The PDF report of two published benchmark tables -- Fernández-Delgado et
al.'s 13 MultiBoost classifiers (long names, missing cells) and their top 50
classifiers (missing cells) -- is built once per table and read with
pdfminer (pdfplumber's parser): every character inside a figure (a Form
XObject, pdfminer's ``LTFigure``) is at least 8 pt at its printed size,
measured across its baseline from the character's matrix (so rotated tick
labels count by their height, not their advance), and set in Latin Modern,
the document's font. No figure repeats its caption as a title.

Every tick label is present at 50 and 100 algorithms (drawn with matplotlib
as the report draws them: the page's width, the document's font) and no two
overlap; the rank-interval markers lie inside their intervals.
"""

from __future__ import annotations

import math
import shutil
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nbstats
import nbstats.reporting
from nbstats import plots
from nbstats.plots.picture_mpl import picture_patches
from nbstats.plots.style import TYPOGRAPHY, set_typography
from nbstats.reporting.display import FIGURE_HEIGHT, FIGURE_WIDTH
from nbstats.reporting.notebook import RANK_CI_METHOD

needs_latex = pytest.mark.skipif(
    shutil.which("xelatex") is None or shutil.which("pandoc") is None,
    reason="xelatex and pandoc typeset the PDF",
)

TABLES = {
    "m13": "fernandez_delgado2014_multiboost",
    "m50": "fernandez_delgado2014_top50",
}
#: Smallest printed size (points), less what rounding in the PDF's matrices
#: can take away.
MIN_PT = 8.0 - 0.02
#: Words of the in-figure titles the captions now give.
TITLE_WORDS = ("framed", "post-hoc tests", "confidence intervals for ranks",
               "Nemenyi test", "joint posterior")  # fmt: skip


def _load(name: str) -> pd.DataFrame:
    return nbstats.datasets.load(name)


@pytest.fixture(scope="module", params=list(TABLES))
def report_pdf(request, tmp_path_factory) -> tuple[str, Path]:
    """The PDF report of one table, built once for the module."""
    if shutil.which("xelatex") is None or shutil.which("pandoc") is None:
        pytest.skip("xelatex and pandoc typeset the PDF")
    folder = tmp_path_factory.mktemp(request.param)
    path = nbstats.reporting.report(
        _load(TABLES[request.param]), folder / "report.pdf", nan_policy="omit"
    )
    return request.param, Path(path)


def printed_size(char) -> float:
    """Font size of a pdfminer ``LTChar`` as printed, across its baseline.

    pdfminer's box of a glyph is ``[0, advance] x [descent, descent + size]``
    in text space, mapped by the character's matrix ``(a, b, c, d)`` (text
    and page transforms together, figure scaling included); its page box is
    ``width = |a| adv + |c| size`` and ``height = |b| adv + |d| size``. The
    size solved from these, times the length of the text's vertical axis
    ``(c, d)``, is the printed size, whatever the rotation.
    """
    a, b, c, d, _, _ = char.matrix
    # the advance in text space (pdfminer's adv is already scaled by the
    # font size, but not by the matrix)
    adv = char.adv
    if abs(d) >= abs(c):
        size = (char.height - abs(b) * adv) / abs(d)
    else:
        size = (char.width - abs(a) * adv) / abs(c)
    return size * math.hypot(c, d)


def figure_chars(path: Path) -> list[list]:
    """Per figure of the PDF, the characters drawn inside it."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTChar, LTFigure

    def chars(item) -> list:
        if isinstance(item, LTChar):
            return [item]
        found = []
        for child in getattr(item, "_objs", []):
            found += chars(child)
        return found

    figures = []
    for page in extract_pages(str(path)):
        for item in page:
            if isinstance(item, LTFigure):
                figures.append((item, chars(item)))
    return figures


@needs_latex
def test_every_figure_character_is_8pt_latin_modern(report_pdf):
    pytest.importorskip("pdfminer")
    case, path = report_pdf
    figures = figure_chars(path)
    assert len(figures) >= 3, f"{case}: {len(figures)} figures in the PDF"
    small, fonts = [], set()
    for _, chars in figures:
        for char in chars:
            if char.get_text().isspace():
                continue
            fonts.add(char.fontname.split("+")[-1])
            if printed_size(char) < MIN_PT:
                small.append((char.get_text(), round(printed_size(char), 2)))
    assert sum(len(chars) for _, chars in figures) > 200
    assert not small, f"{case}: {len(small)} characters under 8 pt: {small[:20]}"
    # Latin Modern Roman (8-pt design), Latin Modern Math for what it lacks
    other = {f for f in fonts if not f.startswith(("LMRoman", "LatinModern"))}
    assert not other, f"{case}: figure text in {sorted(other)}"
    # the rotated text is measured as rotated: some characters stand upright
    rotated = [c for _, chars in figures for c in chars if abs(c.matrix[0]) < 1e-6]
    assert rotated and min(printed_size(c) for c in rotated) >= MIN_PT


def page_chars(path: Path) -> list:
    """Every character of the PDF, body text, tables and figures alike."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTChar

    def chars(item) -> list:
        if isinstance(item, LTChar):
            return [item]
        found = []
        for child in getattr(item, "_objs", []):
            found += chars(child)
        return found

    return [c for page in extract_pages(str(path)) for c in chars(page)]


@needs_latex
def test_every_character_of_the_report_is_8pt_in_latin_modern(report_pdf):
    # issue 27's bar for the whole PDF, not only its figures: sub- and
    # superscripts in captions and tables (χ², R⁺) included, and mathematics
    # in Latin Modern Math rather than Computer Modern
    pytest.importorskip("pdfminer")
    case, path = report_pdf
    chars = [c for c in page_chars(path) if not c.get_text().isspace()]
    assert len(chars) > 2000
    # LaTeX's 8 pt are TeX points (1/72.27 in): 7.97 of the PDF's 1/72 in
    tex_8pt = 8 * 72 / 72.27 - 0.01
    small = sorted(
        {(c.get_text(), round(printed_size(c), 2), c.fontname.split("+")[-1])
         for c in chars if printed_size(c) < tex_8pt}
    )  # fmt: skip
    assert not small, (
        f"{case}: {len(small)} kinds of characters under 8 pt: {small[:20]}"
    )
    fonts = {c.fontname.split("+")[-1] for c in chars}
    other = {f for f in fonts if not f.startswith(("LMRoman", "LatinModern", "LMMono"))}
    assert not other, f"{case}: text in {sorted(other)}"


@needs_latex
def test_figures_are_printed_at_their_own_size_without_titles(report_pdf):
    pytest.importorskip("pdfminer")
    case, path = report_pdf
    for figure, chars in figure_chars(path):
        # the figure's own scale: LaTeX did not shrink it (1 pt is 1 pt)
        a, b, c, d, _, _ = figure.matrix
        assert math.hypot(a, b) == pytest.approx(1.0, abs=0.005), case
        assert math.hypot(c, d) == pytest.approx(1.0, abs=0.005), case
        text = "".join(char.get_text() for char in chars)
        assert not [w for w in TITLE_WORDS if w.replace(" ", "") in text], text[:200]


# -- every tick label, drawn as in a report --------------------------------------


@pytest.fixture
def report_typography():
    """The settings a report sets: Latin Modern, no titles, the page's size."""
    before = set_typography(
        document_font=True,
        titles=False,
        page_width=FIGURE_WIDTH,
        page_height=FIGURE_HEIGHT,
    )
    yield TYPOGRAPHY
    set_typography(**{k: v for k, v in vars(before).items()})
    plt.close("all")


def _table(m: int) -> pd.DataFrame:
    if m == 50:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return nbstats.score_table(_load(TABLES["m50"]), nan_policy="omit")
    rng = np.random.default_rng(m)
    stems = ["svm", "rf_caret", "MultiBoostAB_weka", "knn"]
    names = [f"{stems[i % 4]}_{i}" for i in range(m)]
    return pd.DataFrame(rng.normal(size=(60, m)) + np.linspace(2, 0, m), columns=names)


def _tick_texts(ax) -> list:
    """Visible, non-empty tick labels of ``ax`` and of its secondary axes."""
    # the map's axes and its numbers over the map (not the colorbar's ticks)
    axes = [ax, *(child for child in ax.child_axes if child.get_gid() == "top-labels")]
    found = []
    for each in axes:
        for label in [*each.get_xticklabels(), *each.get_yticklabels()]:
            if label.get_visible() and label.get_text().strip():
                found.append(label)
    return found


def _overlaps(fig, texts) -> list[tuple[str, str]]:
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer).shrunk(0.98, 0.9))
             for t in texts]  # fmt: skip
    return [
        (a, b)
        for i, (a, box_a) in enumerate(boxes)
        for b, box_b in boxes[i + 1 :]
        if box_a.overlaps(box_b)
    ]


def _all_named(labels: list[str], fitted_names: list[str]) -> None:
    """Each algorithm is named once among the rows (by its fitted label)."""
    missing = [name for name in fitted_names if name not in labels]
    assert not missing, f"{len(missing)} names missing: {missing[:5]}"


@pytest.mark.parametrize("m", [50, 100])
def test_comparison_matrix_names_every_row_and_column(report_typography, m):
    table = _table(m)
    ax = plots.comparison_matrix_plot(nbstats.comparison_matrix(table))
    ax.figure.draw_without_rendering()  # the layout settles the ticks
    texts = _tick_texts(ax)
    rows = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    columns = [t for t in texts if t not in ax.get_yticklabels()]
    assert len(rows) == m and len(columns) == m, (len(rows), len(columns))
    # the columns are numbered by rank, each row's name ends in its number
    numbers = sorted(int(t.get_text()) for t in columns)
    assert numbers == list(range(1, m + 1))
    assert [r.rsplit("(", 1)[1] for r in rows] == [f"{k})" for k in numbers]
    assert not _overlaps(ax.figure, texts)
    assert min(t.get_fontsize() for t in texts) >= 8
    plt.close(ax.figure)


@pytest.mark.parametrize("m", [50, 100])
def test_heatmap_names_every_row_and_numbers_the_columns(report_typography, m):
    # every row named, ending in its rank; the columns numbered by rank under
    # the map, every k-th number (1, 2, 5, 10, ... apart) when two would touch,
    # each number under its own column
    result = nbstats.posthoc(_table(m))
    ax = plots.pairwise_heatmap(result, width="double")
    ax.figure.draw_without_rendering()
    gid = lambda t: t.get_gid() or ""  # noqa: E731
    rows = sorted((t for t in ax.texts if gid(t).startswith("row-")),
                  key=lambda t: int(gid(t)[4:]))  # fmt: skip
    assert len(rows) == m
    assert [r.get_text().rsplit("(", 1)[1] for r in rows] == [
        f"{k})" for k in range(1, m + 1)
    ]
    columns = [t for t in ax.texts if gid(t).startswith("column-")]
    numbers = sorted(int(t.get_text()) for t in columns)
    step = numbers[1] - numbers[0] if numbers[0] > 1 else numbers[2] - numbers[1]
    assert step in (1, 2, 5, 10)
    assert set(range(step, m + 1, step)) <= set(numbers)
    fills = {gid(p): p for p in picture_patches(ax) if gid(p).startswith("fill-")}
    names = list(result.mean_ranks.sort_values(kind="stable").index)
    for text in columns:
        k = int(text.get_text())
        cell = fills[f"fill-{names[1 if k == 1 else 0]}-{names[k - 1]}"]
        assert text.get_position()[0] == pytest.approx(
            cell.get_x() + cell.get_width() / 2
        )
    assert not _overlaps(ax.figure, [*rows, *columns])
    assert min(t.get_fontsize() for t in [*rows, *columns]) >= 8
    plt.close(ax.figure)


@pytest.mark.parametrize("m", [50, 100])
def test_cd_rank_interval_and_plackett_luce_name_every_algorithm(report_typography, m):
    table = _table(m)
    nemenyi = nbstats.posthoc(table)
    ax = plots.cd_diagram(nemenyi, width="double")
    ax.figure.draw_without_rendering()  # the layout settles the ticks
    labels = [t for t in ax.texts if (t.get_gid() or "").startswith("label-")]
    assert len(labels) == m and all(t.get_text() for t in labels)
    assert not _overlaps(ax.figure, [*labels, *ax.get_xticklabels()])
    plt.close(ax.figure)
    for ax in (
        plots.rank_intervals(
            nbstats.rank_ci(table, method="id-nemenyi"), width="double"
        ),
        plots.plackett_luce(
            nbstats.bayes_plackett_luce(table, n_samples=400, random_state=0),
            width="double",
        ),
    ):
        ax.figure.draw_without_rendering()
        rows = _row_texts(ax)
        assert len(rows) == m
        assert not _overlaps(ax.figure, rows)
        plt.close(ax.figure)


def _row_texts(ax):
    """The names of a rank figure's rows: its texts with gid ``name-…``."""
    return [t for t in ax.texts if (t.get_gid() or "").startswith("name-")]


def test_rank_figures_taller_than_the_page_go_side_by_side(report_typography):
    # 100 algorithms need some 15 inches of rows: two panels of 50 in a page
    table = _table(100)
    pl = nbstats.bayes_plackett_luce(table, n_samples=400, random_state=0)
    for ax in (plots.plackett_luce(pl, width="double"),):
        fig = ax.figure
        assert len(ax.layout.panels) >= 2 and fig.get_figheight() <= FIGURE_HEIGHT
        fig.draw_without_rendering()
        rows = _row_texts(ax)
        assert len(rows) == 100 and not _overlaps(fig, rows)
        plt.close(fig)
    result = nbstats.rank_ci(table, method="id-nemenyi")
    ax = plots.rank_intervals(result, width="double")
    fig = ax.figure
    assert len(ax.layout.panels) == 2 and fig.get_figheight() <= FIGURE_HEIGHT
    fig.draw_without_rendering()
    rows = _row_texts(ax)
    assert len(rows) == 100 and not _overlaps(fig, rows)
    assert min(t.get_fontsize() for t in rows) >= 8
    lines = {line.get_gid(): line for line in ax.get_lines()}
    for name in result.lower.index:  # every interval drawn once, marker inside
        low, high = lines[f"interval-id-nemenyi-{name}"].get_xdata()
        (x,) = lines[f"rank-id-nemenyi-{name}"].get_xdata()
        assert low <= x <= high


def test_cd_axis_covers_the_observed_mean_ranks(report_typography):
    # the issue: at 50 algorithms the axis ran 1-50, the mean ranks 13-33
    nemenyi = nbstats.posthoc(_table(50))
    ranks = nemenyi.mean_ranks
    ax = plots.cd_diagram(nemenyi, width="double")
    ticks = [
        t for t in ax.get_xticks() if min(ax.get_xlim()) <= t <= max(ax.get_xlim())
    ]
    low, high = math.floor(ranks.min()), math.ceil(ranks.max())
    assert low > 5 and high < 45  # a real spread, not 1..50
    # whole ranks around the observed ones, widened only to hold the CD bar
    span = max(high - low, math.ceil(nemenyi.critical_difference))
    assert min(ticks) >= low - 1 and max(ticks) <= low + span + 1
    bar = next(line for line in ax.lines if line.get_gid() == "cd-bar")
    assert max(bar.get_xdata()) <= low + span + 1e-9


def test_rank_interval_markers_lie_inside_their_intervals(report_typography):
    # the report's method on the real 50-algorithm table
    result = nbstats.rank_ci(_table(50), method=RANK_CI_METHOD)
    ax = plots.rank_intervals(result, width="double")
    lines = {line.get_gid(): line for line in ax.get_lines()}  # x in points
    inside = 0
    for name in result.lower.index:
        low, high = lines[f"interval-{RANK_CI_METHOD}-{name}"].get_xdata()
        (x,) = lines[f"rank-{RANK_CI_METHOD}-{name}"].get_xdata()
        assert low <= x <= high, (name, low, x, high)
        inside += 1
    assert inside == 50


def test_a_cjk_name_is_drawn_in_the_cjk_font_not_as_boxes(report_typography, tmp_path):
    from nbstats.plots.fonts import cjk_font
    from tests.conftest import unavailable

    if cjk_font() is None:
        unavailable("no CJK font (apt-get install fonts-noto-cjk)")
    names = ["支持向量机 SVM", "k--NN", "決定木"]
    table = pd.DataFrame(
        np.random.default_rng(0).normal(size=(10, 3)) + [0.0, 0.5, 1.0],
        columns=names,
    )
    res = nbstats.posthoc(table, method="nemenyi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph … missing from font(s)" included
        figure = res.plot().figure
        figure.savefig(tmp_path / "cd.pdf")
    fonts = subprocess_text("pdffonts", tmp_path / "cd.pdf")
    assert "NotoSerifCJK" in fonts and "LastResort" not in fonts, fonts
    # the text layer (pdftotext breaks a label at its space: compare without)
    text = "".join(subprocess_text("pdftotext", tmp_path / "cd.pdf", "-").split())
    for name in names:
        assert "".join(name.split()) in text


def subprocess_text(*argv) -> str:
    import subprocess

    from tests.conftest import require_executable

    program = require_executable(argv[0], "apt-get install poppler-utils")
    done = subprocess.run(
        [program, *map(str, argv[1:])], capture_output=True, text=True, check=True
    )
    return done.stdout

"""save() and figure_of(): whatever a plot returns can be saved."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn as sns

import nbstats
from nbstats.plots import figure_of, save


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _saved(path) -> bytes:
    assert path.stat().st_size > 1000
    return path.read_bytes()


def test_save_takes_the_axes_a_result_plot_returns(table6, tmp_path):
    ax = table6.compare.posthoc(method="nemenyi").plot()
    save(ax, tmp_path / "cd.pdf")
    assert _saved(tmp_path / "cd.pdf").startswith(b"%PDF")
    save(ax, tmp_path / "cd.svg")
    assert b"<svg" in _saved(tmp_path / "cd.svg")[:500]
    save(ax, tmp_path / "cd.png")
    assert _saved(tmp_path / "cd.png").startswith(b"\x89PNG")


def test_save_takes_a_figure_an_array_or_list_of_axes_and_a_grid(tmp_path):
    fig, axes = plt.subplots(2, 2)
    for k, what in enumerate([fig, axes, list(axes.ravel()), tuple(axes[0])]):
        path = tmp_path / f"{k}.png"
        save(what, path)
        assert _saved(path).startswith(b"\x89PNG")
    assert figure_of(axes) is fig and figure_of(axes[1, 1]) is fig
    frame = pd.DataFrame({"x": [1, 2, 3, 4], "y": [2, 1, 4, 3], "g": list("aabb")})
    grid = sns.FacetGrid(frame, col="g")
    assert figure_of(grid) is grid.figure
    save(grid, tmp_path / "grid.png")
    assert _saved(tmp_path / "grid.png").startswith(b"\x89PNG")


def test_save_takes_a_subfigure_and_saves_the_whole_figure(tmp_path):
    fig = plt.figure()
    left, _right = fig.subfigures(1, 2)
    ax = left.subplots()
    assert figure_of(left) is fig
    assert figure_of(ax) is fig


def test_save_rejects_what_is_no_figure_clearly(tmp_path):
    with pytest.raises(TypeError, match="expected a matplotlib Figure, an Axes"):
        save("cd.png", tmp_path / "x.png")
    with pytest.raises(ValueError, match="empty collection of Axes"):
        save([], tmp_path / "x.png")
    _, first = plt.subplots()
    _, second = plt.subplots()
    with pytest.raises(ValueError, match="2 different figures"):
        save(np.array([first, second]), tmp_path / "x.png")


def test_saved_pdf_keeps_text_as_text(table6, tmp_path):
    # TrueType fonts (paper_style's pdf.fonttype = 42), not Type 3
    save(nbstats.posthoc(table6).plot(), tmp_path / "cd.pdf")
    assert b"/FontType 3" not in (tmp_path / "cd.pdf").read_bytes()


def _font_files(path) -> dict[str, bytes]:
    """``{font name: embedded font program}`` of every font in a PDF."""
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import resolve1

    found = {}
    with open(path, "rb") as handle:
        document = PDFDocument(PDFParser(handle))
        for xref in document.xrefs:
            for objid in xref.get_objids():
                try:
                    obj = resolve1(document.getobj(objid))
                except Exception:  # free or broken entries: not fonts
                    continue
                if not isinstance(obj, dict) or "FontName" not in obj:
                    continue
                for key in ("FontFile", "FontFile2", "FontFile3"):
                    if key in obj:
                        name = resolve1(obj["FontName"]).name
                        found[name] = (key, resolve1(obj[key]).get_data())
    return found


def test_document_typography_embeds_latin_modern_as_truetype(tmp_path):
    pytest.importorskip("pdfminer")
    from nbstats.plots.fonts import document_font
    from nbstats.plots.style import TYPOGRAPHY, set_typography

    if document_font() is None:
        pytest.skip("Latin Modern (fonts-lmodern) is not installed")
    before = set_typography(document_font=True, titles=False)
    try:
        assert not TYPOGRAPHY.titles
        ax = nbstats.posthoc(nbstats.datasets.load("demsar2006")).plot()
        ax.set_xlabel("δ ≤ 0.05", fontweight="bold")  # Greek: the math font
        save(ax, tmp_path / "cd.pdf")
    finally:
        set_typography(**vars(before))
    fonts = _font_files(tmp_path / "cd.pdf")
    names = {name.split("+")[-1] for name in fonts}
    assert "LMRoman8-Regular" in names and "LatinModernMath-Regular" in names
    assert not [n for n in names if not n.startswith(("LMRoman8", "LatinModernMath"))]
    # TrueType outlines in a TrueType slot (FontFile2): the .otf files' CFF
    # outlines there would be a font of one kind declared as another
    for key, data in fonts.values():
        assert key == "FontFile2" and data[:4] == b"\x00\x01\x00\x00"
    # and the caption naming the test is gone (the report captions it)
    assert not [t for t in ax.texts if t.get_gid() == "caption"]

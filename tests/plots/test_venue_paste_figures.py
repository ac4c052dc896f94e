"""The report's other paste-ready figures in real venue classes (issue 36, item 2).

Besides the CD diagram (``test_venue_figures.py``), a PDF or LaTeX report
writes in ``<stem>_tables/`` the figures a paper may include, each from
:func:`nbstats.plots.venue_figures` with ``kind=``: the joint statements' heat
map (``fig:joint``), the post-hoc p-value heat map (the comparison matrix),
the rank intervals (``fig:ranks``), the Plackett–Luce P(best)
(``fig:plackett-luce``) and, for two algorithms, the signed-rank posterior
(density, or the simplex with a rope). Every file is included at its natural
size in the four venue classes (article 10 pt, article twocolumn, IEEEtran
conference, acmart sigconf) at 7 and 42 algorithms of TabZilla's real table
(its holes dropped case-wise, as ``nan_policy="omit"`` does; 40-character
names) and at 50 synthetic algorithms: no LaTeX error, no overfull box over
1 pt, no "Float too large", no missing character; a column figure no wider
than ``\\columnwidth`` and a wide one no wider than ``\\textwidth``; the
smallest printed character at least 7 pt, read from the PDF's text layer
(:func:`tests.plots.test_venue_figures.smallest_printed`, rotated text by its
font size).

Every figure fits: :func:`venue_figures` warns of none too wide or too tall
(a heat map of 50 algorithms is laid out for the venue's float, at 7 pt in the
article classes, its columns numbered every k-th; see
:mod:`nbstats.plots.heatmap_layout`).
"""

from __future__ import annotations

import re

import pytest

import nbstats
from nbstats.plots.venue_files import key_tabular, venue_figures
from nbstats.results.venues import get_venue
from tests.plots.test_venue_figures import (
    LEAST_PRINTED,
    VENUES,
    compile_tex,
    smallest_printed,
    table_of,
)

SIZES = (7, 42, 50)


def paste_figures(m: int, venue: str) -> tuple[dict[str, bytes], set[str]]:
    """Every paste-ready figure (other than the CD diagram) a report of ``m``
    algorithms writes, set for ``venue``; at m = 7 also the two-algorithm
    posteriors (density and simplex). With the names of the files
    :func:`venue_figures` warned are too tall for a float."""
    import warnings

    table = table_of(m)
    files: dict[str, bytes] = {}
    results = {
        "joint": (
            nbstats.bayes_posthoc(
                table, test="signrank", n_samples=2000, random_state=0
            ),
            "heatmap",
        ),
        "posthoc": (nbstats.posthoc(table, method="nemenyi"), "heatmap"),
        "ranks": (nbstats.rank_ci(table), None),
        "plackett-luce": (nbstats.bayes_plackett_luce(table, random_state=0), None),
    }
    if m == SIZES[0]:
        pair = table.iloc[:, :2]
        a, b = pair.columns
        results["posterior"] = (
            nbstats.bayes_signrank(pair[a], pair[b], random_state=0),
            "posterior",
        )
        results["simplex"] = (
            nbstats.bayes_signrank(pair[a], pair[b], rope=0.01, random_state=0),
            "simplex",
        )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name, (result, kind) in results.items():
            files.update(
                venue_figures(
                    result, venue, kind=kind, stem=f"figure-{name}", formats=("pdf",)
                )
            )
    tall = {
        match.group(1)
        for w in caught
        if (match := re.match(r"(\S+\.pdf) is \d+ pt (tall|wide)", str(w.message)))
    }
    return files, tall


def page(venue: str, files: dict[str, bytes], tall: set[str]) -> str:
    """A document of ``venue`` that measures every figure file at its natural
    size and floats each in ``figure`` (column) or ``figure*`` (wide), its key
    of names (if any) in a table of its own."""
    spec = get_venue(venue)
    top = ""
    if venue == "acm":  # acmart's first page holds the permission block
        top = (
            "\\settopmatter{printacmref=false}\\title{Figures}\\maketitle\n"
            "The first page.\\clearpage\n"
        )
    parts = [
        spec.documentclass,
        "\\usepackage{graphicx}\\usepackage{array}",
        "\\begin{document}",
        top,
        "\\typeout{COLUMN=\\the\\columnwidth;TEXT=\\the\\textwidth}",
    ]
    for name in sorted(files):
        if not name.endswith(".pdf"):
            continue
        stem = name[: -len(".pdf")]
        wide = stem.endswith("-wide")
        star = "*" if wide else ""
        parts.append(
            f"\\sbox0{{\\includegraphics{{{name}}}}}\\typeout{{SIZE {name}=\\the\\wd0}}"
        )
        if name in tall:
            continue
        parts += [
            f"\\begin{{figure{star}}}[!tbp]\\centering\\includegraphics{{{name}}}",
            f"\\caption{{{stem}.}}\\end{{figure{star}}}",
        ]
        if f"{stem}-key.tex" in files:
            parts += [
                f"\\begin{{table{star}}}[!tbp]\\centering\\footnotesize",
                f"\\caption{{Key of {stem}.}}\\input{{{stem}-key.tex}}",
                f"\\end{{table{star}}}",
            ]
        parts.append("\\clearpage")
    parts += ["Text of the paper.", "\\end{document}"]
    return "\n".join(parts) + "\n"


def alone(files: dict[str, bytes]) -> str:
    """Each figure file on a page of its own, at its natural size (the venue
    classes print small text of their own, theirs to choose)."""
    shown = [f"\\noindent\\includegraphics{{{n}}}\n" for n in sorted(files)]
    shown = [s for s in shown if ".pdf" in s]
    return "\n".join(
        [
            "\\documentclass[10pt]{article}",
            "\\usepackage[paperwidth=600pt,paperheight=1000pt,margin=10pt]{geometry}",
            "\\usepackage{graphicx}\\pagestyle{empty}",
            "\\begin{document}",
            "\\newpage\n".join(shown),
            "\\end{document}",
        ]
    )


@pytest.fixture(scope="module")
def pdflatex():
    from tests.conftest import require_executable

    return require_executable("pdflatex", "apt-get install texlive-latex-base")


@pytest.mark.parametrize("m", SIZES)
@pytest.mark.parametrize("venue", VENUES)
def test_every_report_figure_fits_its_venue(tmp_path, pdflatex, venue, m):
    spec = get_venue(venue)
    files, tall = paste_figures(m, venue)
    assert not tall, tall  # no figure too wide or too tall for its venue
    kinds = {re.sub(r"(-wide)?(-key)?\.(pdf|tex)$", "", n) for n in files}
    expected = {"joint", "posthoc", "ranks", "plackett-luce"}
    if m == SIZES[0]:
        expected |= {"posterior", "simplex"}
    assert kinds == {f"figure-{k}" for k in expected}
    for kind in kinds:
        # a column figure, or (two-column venue, too many names for a column
        # at 8 pt) the wide one only; a two-column venue always has the wide
        assert f"{kind}.pdf" in files or (
            spec.two_column and f"{kind}-wide.pdf" in files
        ), kind
        assert (f"{kind}-wide.pdf" in files) == spec.two_column, kind
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    log = compile_tex(pdflatex, tmp_path, "page", page(venue, files, tall))
    assert "Float too large" not in log
    assert "Missing character" not in log
    for amount in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log):
        assert float(amount) <= 1.0, f"overfull box of {amount} pt"
    column = float(re.search(r"COLUMN=([\d.]+)pt", log).group(1))
    text = float(re.search(r"TEXT=([\d.]+)pt", log).group(1))
    assert column == pytest.approx(spec.column_width_pt, abs=0.01)
    sizes = dict(re.findall(r"SIZE (\S+\.pdf)=([\d.]+)pt", log))
    assert set(sizes) == {n for n in files if n.endswith(".pdf")}
    for name, width in sizes.items():
        room = text if name.endswith("-wide.pdf") else column
        assert float(width) <= room, (name, width, room)
    compile_tex(pdflatex, tmp_path, "alone", alone(files))
    assert smallest_printed(tmp_path / "alone.pdf") >= LEAST_PRINTED - 0.01


def test_a_key_too_tall_for_the_float_is_a_table_of_its_own():
    # 42 names of 40 characters do not fit under a column's heat map within
    # 80 % of the page: the key goes to -key.tex, and every name is in it
    table = table_of(42)
    files = venue_figures(
        nbstats.posthoc(table, method="nemenyi"),
        "twocolumn",
        kind="heatmap",
        stem="heat",
        formats=("pdf",),
    )
    keys = [n for n in files if n.endswith("-key.tex")]
    assert keys
    for key in keys:
        latex = files[key].decode("utf-8")
        for name in table.columns:
            # a wrapped entry's line break became a space
            flat = "".join(name.replace("_", "\\_").split())
            assert flat in "".join(latex.split()), name


def test_key_tabular_escapes_and_pairs_letters_with_names():
    latex = key_tabular(["A: a_b & c", "B: 50% off"])
    assert "A & a\\_b \\& c \\\\" in latex
    assert "B & 50\\% off \\\\" in latex
    assert latex.startswith("\\begin{tabular}") and latex.endswith("\\end{tabular}\n")


def test_venue_figures_passes_plot_keywords_and_refuses_a_bad_venue():
    table = table_of(7)
    rc = nbstats.rank_ci(table)
    order = list(table.columns[::-1])
    files = venue_figures(rc, "article", kind=None, order=order, formats=("pdf",))
    assert sorted(files) == ["figure-1.pdf"]
    assert files["figure-1.pdf"].startswith(b"%PDF")
    with pytest.raises(ValueError, match="venue"):
        venue_figures(rc, "nature", kind=None)


def test_a_figure_set_for_a_venue_leaves_the_typography_as_it_was():
    from nbstats.plots.style import TYPOGRAPHY

    before = (TYPOGRAPHY.page_width, TYPOGRAPHY.venue, TYPOGRAPHY.titles)
    venue_figures(nbstats.rank_ci(table_of(7)), "ieee", kind=None, formats=("pdf",))
    assert (TYPOGRAPHY.page_width, TYPOGRAPHY.venue, TYPOGRAPHY.titles) == before

"""The hierarchical test's report figure as paste-ready files for each venue
(issue 36, item 3): a column-wide file and, for a two-column venue, a
``-wide`` one for ``figure*``, in the venue's font, text at least 7 pt.

Each file is included at its natural size in the four venue classes
(article 10 pt, article twocolumn, IEEEtran conference, acmart sigconf) with
40-character names: no LaTeX error, no overfull box over 1 pt, no "Float too
large", no missing character; the column file no wider than
``\\columnwidth``, the wide one than ``\\textwidth``; the smallest printed
character read from the PDF's text layer
(:func:`tests.plots.test_venue_figures.smallest_printed`). The result is
duck-typed (what the plots read of a BayesHierarchicalResult), so the test
needs no sampler; ``tests/stats/test_hierarchical.py`` draws a real one.
"""

from __future__ import annotations

import re
import subprocess
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from nbstats.plots.venue_files import venue_figures
from nbstats.results.venues import get_venue
from tests.plots.test_venue_figures import (
    LEAST_PRINTED,
    VENUES,
    compile_tex,
    long_names,
    smallest_printed,
)
from tests.plots.test_venue_paste_figures import alone, page

#: The venues' document fonts, as pdffonts names them.
FONTS = {
    "article": "LMRoman",
    "twocolumn": "LMRoman",
    "ieee": "Times|Nimbus|TeXGyreTermes",
    "acm": "LinLibertine|Libertin|LMRoman",
}


#: The report's figure with a rope (the simplex) and without (the data sets).
KINDS = (("simplex", True), ("datasets", False))


class Hierarchical(SimpleNamespace):
    """What the plots read of a BayesHierarchicalResult, and its plot()."""

    def plot(self, kind="simplex", ax=None, **kw):
        from nbstats.plots.hierarchical import (
            hierarchical_datasets,
            hierarchical_simplex,
        )

        draw = hierarchical_simplex if kind == "simplex" else hierarchical_datasets
        return draw(self, ax=ax, **kw)


def result(rope: bool, q: int = 12) -> Hierarchical:
    rng = np.random.default_rng(0)
    a, b = long_names([f"algorithm{k}" for k in range(2)])
    draws = rng.dirichlet([2, 3, 5], size=4000)
    winner = draws.argmax(axis=1)
    mean = rng.normal(0.01, 0.01, q)
    datasets = pd.DataFrame(
        {
            "case": long_names([f"data set {k}" for k in range(q)]),
            "mean": mean,
            "low": mean - 0.02,
            "high": mean + 0.02,
            "observed": mean + rng.normal(0, 0.005, q),
        }
    )
    shares = [float(np.mean(winner == k)) for k in range(3)]
    return Hierarchical(
        name_a=a,
        name_b=b,
        rope=0.01 if rope else 0.0,
        prob_left=shares[0],
        prob_rope=shares[1] if rope else None,
        prob_right=shares[2],
        region_samples=draws,
        datasets=datasets,
        delta0=0.01,
        level=0.95,
    )


@pytest.fixture(scope="module")
def pdflatex():
    from tests.conftest import require_executable

    return require_executable("pdflatex", "apt-get install texlive-latex-base")


@pytest.mark.parametrize("venue", VENUES)
def test_hierarchical_figures_fit_each_venue(tmp_path, pdflatex, venue):
    spec = get_venue(venue)
    files = {}
    for kind, rope in KINDS:
        files.update(
            venue_figures(
                result(rope), venue, kind=kind, stem=f"figure-{kind}", formats=("pdf",)
            )
        )
    expected = {f"figure-{kind}.pdf" for kind, _ in KINDS}
    if spec.two_column:
        expected |= {f"figure-{kind}-wide.pdf" for kind, _ in KINDS}
    assert set(files) == expected
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        fonts = subprocess.run(
            ["pdffonts", str(tmp_path / name)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert re.search(FONTS[venue], fonts), (name, fonts)
    log = compile_tex(pdflatex, tmp_path, "page", page(venue, files, set()))
    assert "Float too large" not in log and "Missing character" not in log
    for amount in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log):
        assert float(amount) <= 1.0, f"overfull box of {amount} pt"
    column = float(re.search(r"COLUMN=([\d.]+)pt", log).group(1))
    text = float(re.search(r"TEXT=([\d.]+)pt", log).group(1))
    sizes = dict(re.findall(r"SIZE (\S+\.pdf)=([\d.]+)pt", log))
    assert set(sizes) == expected
    for name, width in sizes.items():
        room = text if name.endswith("-wide.pdf") else column
        assert float(width) <= room, (name, width, room)
        if name.endswith("-wide.pdf"):  # a figure* variant wider than a column
            assert float(width) > column
    compile_tex(pdflatex, tmp_path, "alone", alone(files))
    assert smallest_printed(tmp_path / "alone.pdf") >= LEAST_PRINTED - 0.01

"""Remake the screenshots of a two-column IEEEtran page set from a report's files.

Run from the repository root: ``python docs/screenshots/make_venue_page_screenshots.py
[m12 m42]``. Needs xelatex, texlive-publishers (IEEEtran) and pdftoppm.

A LaTeX report written with ``venue="ieee"`` leaves its paste-ready files in
``<stem>_core/``: Table 1 (``summary.tex``) and Figure 1 at column width
(``figure-1.pdf``). They go, unchanged, into an IEEEtran conference page
with text around them, as a paper would take them. Real published tables:
the 13 MultiBoost classifiers of Fernández-Delgado et al. (2014) (m12) and
TabZilla's 42 algorithms on 171 data sets with missing cells (m42, with
``nan_policy="omit"`` as a paper would state it). Writes
``ieee-page-<case>.png`` (the page at 100 dpi).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

import nbstats

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


def _tabzilla() -> pd.DataFrame:
    sys.path.insert(0, str(ROOT))
    from tests.real_tables import tabzilla_accuracy

    return tabzilla_accuracy()


CASES = {
    "m12": (
        lambda: nbstats.datasets.load("fernandez_delgado2014_multiboost"),
        {"nan_policy": "omit"},
    ),
    "m42": (_tabzilla, {"nan_policy": "omit"}),
}

TEXT = (
    "We compare the algorithms on the benchmark; the table and the figure "
    "are pasted as nbstats wrote them, so that the column width, the fonts "
    "and the captions can be judged as a reader sees them. "
) * 3

PAGE = r"""\documentclass[conference]{IEEEtran}
\usepackage{booktabs,array,multirow,makecell,tabularx,xltabular,supertabular}
\usepackage{threeparttable,caption,graphicx,xcolor,amsmath,rotating}
\begin{document}
\title{Comparison of algorithms (nbstats, venue=ieee)}
\author{nbstats}
\maketitle
\section{Results}
%(text)s Table~\ref{tab:core-summary} ranks them; Fig.~\ref{fig:cd} shows
the critical differences.
\input{summary.tex}
\begin{figure}[t]
\centering
\includegraphics{figure-1.pdf}
\caption{Critical-difference diagram (nbstats' Figure 1, at its natural size).}
\label{fig:cd}
\end{figure}
%(text)s
\end{document}
"""


def main(which: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        for name in which:
            load, options = CASES[name]
            nbstats.report(
                load(),
                out / f"{name}.tex",
                venue="ieee",
                core_only=True,
                random_state=0,
                **options,
            )
            core = out / f"{name}_core"
            (core / "page.tex").write_text(PAGE % {"text": TEXT}, encoding="utf-8")
            for _ in range(2):  # the second run resolves the references
                subprocess.run(
                    ["xelatex", "-interaction=nonstopmode", "page.tex"],
                    cwd=core,
                    check=True,
                    capture_output=True,
                )
            subprocess.run(
                ["pdftoppm", "-png", "-r", "100", "-f", "1", "-l", "1",
                 "page.pdf", "page"],
                cwd=core,
                check=True,
            )  # fmt: skip
            shot = next(core.glob("page-*.png"))
            shutil.copy(shot, HERE / f"ieee-page-{name}.png")
            print(f"wrote {HERE / f'ieee-page-{name}.png'}")


if __name__ == "__main__":
    main(sys.argv[1:] or list(CASES))

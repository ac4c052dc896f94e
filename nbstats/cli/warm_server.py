"""``python -m nbstats.cli.warm_server KEY``: the ``nbstats`` command's warm
process (:mod:`nbstats.util.warm`), started by a command for the next ones."""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from nbstats.cli.commands import main
from nbstats.stats.compile_ahead import compile_kernels
from nbstats.util import warm

__all__ = ["serve"]


def warm_up() -> None:
    """Run what the commands run, once, so that every module is imported and
    every compiled kernel loaded: the demo report, and a report (HTML, and
    LaTeX: PDF figures, their fonts subset by fontTools, the LaTeX export)
    and an analysis of a small table with missing cells, then
    :func:`~nbstats.stats.compile_ahead.compile_kernels`."""
    rng = np.random.default_rng(0)
    values = rng.normal(0.8, 0.02, size=(12, 4)) + np.linspace(0, 0.03, 4)
    values[[1, 5], [0, 2]] = np.nan
    table = pd.DataFrame(
        values,
        index=pd.Index([f"data set {i}" for i in range(12)], name="case"),
        columns=[f"algorithm {j}" for j in range(4)],
    )
    with (
        tempfile.TemporaryDirectory() as tmp,
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()),
    ):
        csv = Path(tmp) / "scores.csv"
        table.to_csv(csv)
        main(["demo", "-o", str(Path(tmp) / "demo.html")])
        holes = ["--nan-policy", "pairwise"]
        main(["report", str(csv), "-o", str(Path(tmp) / "r.html"), *holes])
        # what a PDF report adds before xelatex (a failure here, e.g. no
        # pandoc, returns a status: the warm process still serves)
        main(["report", str(csv), "-o", str(Path(tmp) / "r.tex"), *holes])
        main(["analyze", str(csv), *holes])
    # and every kernel with every type a command may call it with, whatever
    # its table: a fork then compiles and loads nothing
    compile_kernels()


def serve(argv: list[str] | None = None) -> None:
    """Serve the commands of the key given first in ``argv``."""
    (key,) = sys.argv[1:] if argv is None else argv
    warm.serve(key, run=main, warm_up=warm_up)


if __name__ == "__main__":
    serve()

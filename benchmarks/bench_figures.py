"""How long does a CD picture take to draw? The dashboard's SVG and the paper's files.

Run: ``python benchmarks/bench_figures.py [--sizes 12 50 100]``. For each
number of algorithms m (m × 30 cases, seeded, names ``alg00`` …), the median
of 20 runs of the dashboard's critical-difference picture
(``nbstats.widgets.rank_svg.cd_svg``: since issue 36 the paper's geometry,
``cd_layout``, written as SVG) — the part of a dashboard update that draws,
target ≤ 150 ms for the whole update at m = 50 (``bench_dashboard.py``) —
and, once, the paste-ready files of one venue
(``nbstats.plots.venue_files.venue_figures``: column PDF, wide PDF, TikZ).
The machine's load average is printed: other work slows everything down.

Figures once stated in the package's comments (moved here in issue 37; recorded,
not re-measured by this script, on a 2-vCPU machine):

- ``nbstats.plots.style._document_rc``: the report's figures of 50 algorithms
  (CD diagram, heat map, rank intervals) saved as PDF in 0.9 / 2.6 / 2.3 s
  with the font embedded against 2.4 / 5.9 / 4.0 s through the PGF backend,
  files of 18 / 74 / 27 KB against 11 / 61 / 12 KB.
- ``nbstats.plots.fonts.document_font``: the first call on a machine converts
  Latin Modern in a few seconds.
- ``nbstats.widgets.svg``: writing an SVG string took about a thousandth of
  matplotlib's layout of the same names.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
import pandas as pd

import nbstats


def scores(m: int, n: int = 30) -> pd.DataFrame:
    rng = np.random.default_rng(2024 + m)
    values = np.linspace(0.0, 0.04, m) + rng.normal(0.0, 0.02, size=(n, m))
    return pd.DataFrame(values, columns=[f"alg{j:02d}" for j in range(m)])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[12, 50, 100])
    parser.add_argument("--venue-files", action="store_true")
    args = parser.parse_args()
    from nbstats.widgets.rank_svg import cd_svg

    print("load average", os.getloadavg())
    for m in args.sizes:
        res = nbstats.posthoc(scores(m), method="nemenyi")
        cd_svg(res)  # warm: fonts and imports
        times = []
        for _ in range(20):
            start = time.perf_counter()
            cd_svg(res)
            times.append(time.perf_counter() - start)
        median = 1000 * statistics.median(times)
        print(f"m = {m:3d}: dashboard CD SVG median {median:6.1f} ms")
        if args.venue_files:
            from nbstats.plots.venue_files import venue_figures

            start = time.perf_counter()
            venue_figures(res, "ieee", formats=("pdf",))
            print(f"         venue files (ieee) {time.perf_counter() - start:6.2f} s")
    print("load average", os.getloadavg())


if __name__ == "__main__":
    main()

"""How long does a report take? ``nbstats demo`` end to end, and a PDF in-process.

Run: ``python benchmarks/bench_report.py`` (about a minute).

1. ``nbstats demo`` as a user runs it: a fresh ``python -m nbstats.cli demo -o
   <tmp>/nbstats-demo.html`` process (interpreter start, imports, building and
   executing the report notebook in a fresh kernel, the HTML export), 3 runs,
   the median against the 20 s target. Each run writes a new file.
2. ``nbstats.report(table6, "x.pdf")`` in this process: the first call (which
   imports nbconvert and nbclient) and a second one; xelatex typesets the PDF.
   Skipped without xelatex or pandoc.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 3
TARGET = 20.0


def demo(directory: Path, run: int) -> float:
    """Seconds for one ``nbstats demo`` in a fresh interpreter."""
    out = directory / f"run{run}" / "nbstats-demo.html"
    out.parent.mkdir()
    command = [sys.executable, "-m", "nbstats.cli", "demo", "-o", str(out)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    spent = time.perf_counter() - start
    if done.returncode != 0 or not out.is_file():
        raise RuntimeError(f"nbstats demo failed ({done.returncode}):\n{done.stderr}")
    if f"nbstats: wrote {out}" not in done.stdout:
        raise RuntimeError(f"nbstats demo did not print the path:\n{done.stdout}")
    return spent


def bench_demo(directory: Path) -> None:
    times = []
    for run in range(RUNS):
        times.append(demo(directory, run))
        print(f"  run {run + 1}: {times[-1]:6.2f} s")
    median = statistics.median(times)
    verdict = "meets" if median < TARGET else "MISSES"
    size = (directory / "run0" / "nbstats-demo.html").stat().st_size
    print(
        f"nbstats demo (fresh process, HTML, {size / 1024:.0f} KiB): median of "
        f"{RUNS} {median:.2f} s (min {min(times):.2f}, max {max(times):.2f}); "
        f"{verdict} the {TARGET:.0f} s target"
    )


def _pages(path: Path) -> str:
    """The page count from ``pdfinfo`` (poppler-utils), or "?" without it."""
    pdfinfo = shutil.which("pdfinfo")
    if pdfinfo is None:
        return "?"
    info = subprocess.run([pdfinfo, str(path)], capture_output=True, text=True)
    for line in info.stdout.splitlines():
        if line.startswith("Pages:"):
            return line.split()[-1]
    return "?"


def bench_pdf(directory: Path) -> None:
    missing = [tool for tool in ("xelatex", "pandoc") if shutil.which(tool) is None]
    if missing:
        print(
            f"nbstats.report(table6, 'x.pdf'): skipped, {' and '.join(missing)} missing"
        )
        return
    start = time.perf_counter()
    import nbstats
    import nbstats.report

    table6 = nbstats.datasets.load("demsar2006")
    imports = time.perf_counter() - start
    for label in ("first call", "second call"):
        out = directory / label.replace(" ", "_") / "x.pdf"
        out.parent.mkdir()
        start = time.perf_counter()
        path = nbstats.report(table6, out)
        spent = time.perf_counter() - start
        pages = _pages(path)
        print(
            f"nbstats.report(table6, 'x.pdf') in-process, {label}: {spent:.2f} s "
            f"({path.stat().st_size / 1024:.0f} KiB, {pages} pages)"
        )
    print(f"  (import nbstats and load the data before: {imports:.2f} s)")


def main() -> None:
    print(f"python {sys.version.split()[0]} ({sys.executable})")
    with tempfile.TemporaryDirectory(prefix="nbstats-bench-report-") as tmp:
        directory = Path(tmp)
        bench_demo(directory)
        bench_pdf(directory)


if __name__ == "__main__":
    main()

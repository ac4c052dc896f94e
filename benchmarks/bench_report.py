"""How long does a report take, and where does the time go?

Run: ``python benchmarks/bench_report.py`` (a few minutes): the profile of
issue 39 on a real table with holes, beside ``nbstats demo`` and autorank in
the same run. ``--scale`` adds the older sections (synthetic 50 × 30 and
100 × 30 tables, the Fernández-Delgado table, ``nbstats.report`` in-process);
``--quick`` skips the PDF runs; ``--commands`` runs the commands only (not
the profile by phase). Needs psutil (in the ``test`` extra).

P. The profile, on TabZilla's 42 algorithms × 171 data sets with 1,040
   missing cells (``tests/data/tabzilla``), ``--nan-policy pairwise``: the
   time of each phase -- interpreter and imports, kernel start, numba's
   first compilation, each analysis (one cell of the report notebook each),
   figures, nbconvert's export, xelatex -- *before* (a fresh kernel per
   report, every pair drawn a fixed number of times) and *after* (the cells
   run in the command's own process, pairs drawn to a stated precision).
   Each phase's wall-clock and CPU seconds: on a shared machine the CPU
   time is the steadier figure. Then the commands as a user runs them
   (``nbstats report`` HTML, PDF, ``--core``; ``nbstats demo``; ``analyze``
   on 26 algorithms × 137 cases), each three ways -- *before* (a kernel per
   report), *fresh* (the cells in the command's own process, no warm
   process) and *warm* (run by a fork of the warm process,
   :mod:`nbstats.util.warm`) -- with the peak memory of the process tree (the
   warm process's fork included), and autorank's frequentist analysis of
   the same table (complete rows). PDF runs after the first find the last
   report's ``.aux`` kept: one xelatex pass when nothing moved.

R/0/1/2: the older sections (``--scale``), described at their functions.

Figures once stated in the package's comments (moved here in issue 37; recorded,
not re-measured by this script, on a 2-vCPU machine):

- ``nbstats.cli.commands._skip_iri_grammar``: jsonschema's rfc3987_syntax compiles
  an IRI grammar for about 2.5 s, a sixth of a report's time (printed first by
  ``iri_grammar_seconds``).
- ``nbstats.stats.footprint``: before the footprint estimates, a report of
  1000 algorithms ran for a minute and reached 1.45 GB before it failed
  inside its notebook.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import math
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd

RUNS = 3
TARGET = 20.0
#: Targets of the 50 × 30 report (seconds, MB of peak RSS of command + kernel).
SCALE_TARGET = (15.0, 600.0)

LONG_NAMES = [
    "HistGradientBoostingClassifier(max_iter=300, lr=0.05)",
    "RandomForestClassifier(n_estimators=500, max_depth=None)",
    "LogisticRegression(C=1.0, penalty='l2', solver='lbfgs')",
    "SVC(kernel='rbf', C=10, gamma='scale')",
    "KNeighborsClassifier(n_neighbors=15, weights='distance')",
    "MLPClassifier(hidden_layer_sizes=(256, 128), alpha=1e-4)",
    "ExtraTreesClassifier(n_estimators=1000, max_features='sqrt')",
    "GaussianProcessClassifier(kernel=1.0 * RBF(1.0))",
]


def suite(m: int, n: int = 30, *, long_names: bool = False) -> pd.DataFrame:
    """Accuracies of m algorithms on n data sets, true effects 0–4 points."""
    rng = np.random.default_rng(m)
    base = rng.uniform(0.6, 0.95, size=(n, 1))
    values = base + np.linspace(0, 0.04, m) + rng.normal(0, 0.02, size=(n, m))
    names = LONG_NAMES[:m] if long_names else [f"algorithm_{j:03d}" for j in range(m)]
    return pd.DataFrame(
        values,
        index=pd.Index([f"dataset_{i:02d}" for i in range(n)], name="data set"),
        columns=names,
    )


#: How often the memory of a command's processes is sampled: each sample
#: reads every process's /proc entry (about 2 ms of CPU), which a report
#: using both cores of a 2-core machine would otherwise share.
SAMPLE_SECONDS = 0.05
#: PSS is read at one sample in this many (see _tree_memory).
PSS_EVERY = 4


def nbstats_command() -> list[str]:
    """The ``nbstats`` command as a user runs it: the console script installed
    beside this interpreter (its launcher imports no pandas when a warm
    process runs the command), else ``python -m nbstats.cli``."""
    script = Path(sys.executable).parent / "nbstats"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "nbstats.cli"]


def _tree_rss(*roots: object) -> float:
    """MB of resident memory of ``roots`` and every process under them
    (:func:`_tree_memory`'s first figure)."""
    return _tree_memory(*roots, pss=False)[0]


def _tree_memory(*roots: object, pss: bool = True) -> tuple[float, float]:
    """MB of memory of ``roots`` and every process under them: the sum of
    their resident sets (RSS), and of their proportional set sizes (PSS).

    RSS counts a page two of them map (a library both load: numba's LLVM,
    NumPy, SciPy) once in each; PSS splits it between them, so the sum of
    PSS is what the tree takes from the machine. It also splits a page with
    processes outside the tree: while the warm process of the profile runs,
    a fresh command's PSS is lower than it would be alone (the first run
    after install is measured with none). Both are printed: the targets
    were set in RSS. PSS (``pss=True``) reads each process's
    memory map, a few milliseconds for a large process, and is sampled less
    often than RSS (NaN when not read). A child whose command line is its parent's is
    a fork not yet turned into the program it starts (a subprocess between
    fork and exec: its pages are its parent's, shared or lent), and is not
    counted twice."""
    import psutil

    rss = shared = 0
    for root in roots:
        try:
            procs = [root, *root.children(recursive=True)]
        except psutil.Error:
            continue
        for proc in procs:
            try:
                if proc is not root and proc.cmdline() == proc.parent().cmdline():
                    continue
                memory = proc.memory_full_info() if pss else proc.memory_info()
            except (psutil.Error, AttributeError):  # gone, or parent gone
                continue
            rss += memory.rss
            shared += getattr(memory, "pss", memory.rss)  # PSS: Linux only
    return rss / 2**20, shared / 2**20 if pss else float("nan")


def run_measured(
    command: list[str],
) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall seconds and peak MB (process tree) of ``command``."""
    import psutil

    start = time.perf_counter()
    popen = psutil.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    peak = [0.0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss(popen))
            time.sleep(SAMPLE_SECONDS)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = popen.communicate(timeout=900)
    spent = time.perf_counter() - start
    done.set()
    sampler.join()
    result = subprocess.CompletedProcess(command, popen.returncode, out, err)
    return spent, peak[0], result


def bench_scale(directory: Path, quick: bool) -> None:
    cases = [
        ("50 × 30", suite(50), "html"),
        ("8 long names × 30", suite(8, long_names=True), "html"),
    ]
    if not quick:
        cases += [
            ("50 × 30", suite(50), "pdf"),
            ("100 × 30", suite(100), "html"),
            # 100 algorithms on 200 cases: did not finish in 280 s before the
            # Bayesian memory ceiling and the Wilcoxon null-distribution cache
            ("100 × 200", suite(100, 200), "html"),
        ]
    for label, table, fmt in cases:
        csv = directory / f"{label.replace(' × ', 'x').split()[0]}-{fmt}.csv"
        table.to_csv(csv)
        out = csv.with_suffix(f".{fmt}")
        command = [
            sys.executable,
            "-m",
            "nbstats.cli",
            "report",
            str(csv),
            "-o",
            str(out),
        ]
        spent, peak, done = run_measured(command)
        if done.returncode != 0:
            raise RuntimeError(f"nbstats report failed:\n{done.stderr}")
        line = (
            f"nbstats report, {label}, {fmt.upper()}: {spent:6.2f} s, "
            f"peak {peak:5.0f} MB"
        )
        if label == "50 × 30":
            ok = spent <= SCALE_TARGET[0] and peak <= SCALE_TARGET[1]
            line += (
                f" ({'meets' if ok else 'MISSES'} the {SCALE_TARGET[0]:.0f} s / "
                f"{SCALE_TARGET[1]:.0f} MB target)"
            )
        print(line + f"; {out.stat().st_size / 1024:.0f} KiB")


def demo(directory: Path, run: int) -> float:
    """Seconds for one ``nbstats demo`` in a fresh interpreter."""
    out = directory / f"run{run}" / "nbstats-demo.html"
    out.parent.mkdir()
    command = [*nbstats_command(), "demo", "-o", str(out)]
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
        tools = " and ".join(missing)
        print(f"nbstats.report(table6, 'x.pdf'): skipped, {tools} missing")
        return
    start = time.perf_counter()
    import nbstats
    import nbstats.reporting

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


#: The real table's targets: at most this many times ``nbstats demo`` of the
#: same run, and this many MB of peak memory (command and kernel).
REAL_TARGET = (2.0, 600.0)


def bench_real(directory: Path, runs: int = 2) -> None:
    """The real 50 × 121 table of Fernández-Delgado et al. (2014) with its 181
    missing cells, ``nbstats report <csv> --nan-policy omit --rope 1``, each
    run beside an ``nbstats demo`` run (interleaved, so both see the same
    load of the machine): both times, their ratio and the peak memory."""
    import nbstats

    table = nbstats.datasets.load("fernandez_delgado2014_top50")
    csv = directory / "top50.csv"
    table.to_csv(csv)
    missing = int(table.isna().sum().sum())
    reports, demos, peaks = [], [], []
    for run in range(runs):
        out = directory / f"top50-{run}.html"
        command = [*nbstats_command(), "report", str(csv)]
        command += ["-o", str(out), "--nan-policy", "omit", "--rope", "1"]
        spent, peak, done = run_measured(command)
        if done.returncode != 0:
            raise RuntimeError(f"nbstats report failed:\n{done.stderr}")
        reports.append(spent)
        peaks.append(peak)
        demos.append(demo(directory, 100 + run))
        print(
            f"  run {run + 1}: report {spent:6.2f} s (peak {peak:4.0f} MB), "
            f"demo {demos[-1]:6.2f} s"
        )
    report, demo_time = statistics.median(reports), statistics.median(demos)
    ratio = report / demo_time
    ok = ratio <= REAL_TARGET[0] and max(peaks) <= REAL_TARGET[1]
    print(
        f"nbstats report fernandez_delgado2014_top50 ({table.shape[1]} algorithms "
        f"x {table.shape[0]} data sets, {missing} missing; --nan-policy omit "
        f"--rope 1): median {report:.2f} s vs nbstats demo {demo_time:.2f} s, "
        f"ratio {ratio:.2f}, peak {max(peaks):.0f} MB "
        f"({'meets' if ok else 'MISSES'} the {REAL_TARGET[0]:g}x / "
        f"{REAL_TARGET[1]:.0f} MB target)"
    )


# -- P. the profile of issue 39 ------------------------------------------------------

TABZILLA = Path(__file__).parents[1] / "tests" / "data" / "tabzilla"
TABZILLA_CSV = TABZILLA / "tabzilla_accuracy_wide.csv"
#: Targets of issue 39 on an idle 2-core machine (seconds, MB).
TARGETS = {
    "report html": 6.0, "report pdf": 10.0, "report --core": 3.0,
    "analyze 26 x 137": 1.0, "nbstats demo": 2.5, "peak MB": 600.0,
}  # fmt: skip


def tabzilla() -> pd.DataFrame:
    return pd.read_csv(TABZILLA_CSV, index_col=0)


def run_timed(
    command: list[str], env: dict[str, str] | None = None, server: object = None
) -> dict:
    """Wall and CPU seconds (the command and every process it waited for)
    and the peak memory of the process tree (sampled every :data:`SAMPLE_SECONDS`,
    :func:`_tree_memory`: ``peak`` in RSS, ``pss`` in PSS).

    ``server`` (a psutil Process, the warm process): its forks run the
    command, so their memory (with their subprocesses') and CPU time count
    too (the CPU time as last sampled, up to one sample before a fork ends; a
    fork's subprocesses' CPU time is not counted)."""
    import os

    import psutil

    start = time.perf_counter()
    popen = psutil.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    peak = [0.0, 0.0]
    forks_cpu: dict[int, float] = {}
    done = threading.Event()

    def sample() -> None:
        count = 0
        while not done.is_set():
            forks = [] if server is None else server.children()
            for fork in forks:
                try:
                    times = fork.cpu_times()
                    forks_cpu[fork.pid] = times.user + times.system
                except psutil.NoSuchProcess:
                    pass
            # the forks with what they run (xelatex)
            count += 1
            rss, pss = _tree_memory(popen, *forks, pss=count % PSS_EVERY == 1)
            peak[0] = max(peak[0], rss)
            if not math.isnan(pss):
                peak[1] = max(peak[1], pss)
            time.sleep(SAMPLE_SECONDS)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(popen.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    popen.returncode = os.waitstatus_to_exitcode(status)
    if popen.returncode != 0:
        raise RuntimeError(f"{command} failed:\n{popen.stderr.read().decode()}")
    cpu = usage.ru_utime + usage.ru_stime + sum(forks_cpu.values())
    return {"wall": wall, "cpu": cpu, "peak": peak[0], "pss": peak[1]}


def _seconds(cell) -> float:
    from datetime import datetime

    timing = cell.metadata.get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return float("nan")
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def _label(source: str) -> str:
    """A cell's analysis, from the first nbstats call or report helper in it."""
    import re

    calls = re.findall(r"nbstats\.(\w+)\(|report\.(\w+)\(", source)
    names = [a or b for a, b in calls if (a or b) not in ("start", "read_scores")]
    return ", ".join(dict.fromkeys(names)) or "set-up"


def profile_cells(table: pd.DataFrame, *, kernel: bool, mc_error, fmt: str) -> dict:
    """{phase: (wall, cpu)} of one report, in this process's view (a kernel's
    cells have their wall time only: its CPU time is the kernel's)."""
    import resource

    from nbstats.reporting import (
        _REPORT_DEFAULTS,
        FIGURE_FORMATS,
        _prepare,
        export,
        inprocess,
        notebook,
    )

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    nan = float("nan")
    phases: dict[str, tuple[float, float]] = {}
    wall0, cpu0 = time.perf_counter(), cpu()
    options = {**_REPORT_DEFAULTS, "nan_policy": "pairwise"}
    shown, settings = _prepare(table, **options)
    settings = dataclasses.replace(settings, mc_error=mc_error)
    nb = notebook.build_notebook(shown, settings, figure_formats=FIGURE_FORMATS[fmt])
    phases["build the notebook"] = (time.perf_counter() - wall0, cpu() - cpu0)
    from matplotlib.figure import Figure

    # figures: their layout and saving (matplotlib's own methods, which every
    # module reaches through the class)
    figures, cell_cpu = [0.0, 0.0], {}
    original_run = inprocess._run_one
    original_save, original_draw = Figure.savefig, Figure.draw_without_rendering

    def timed(method):
        def run(*args, **kwargs):
            w, c = time.perf_counter(), cpu()
            try:
                return method(*args, **kwargs)
            finally:
                figures[0] += time.perf_counter() - w
                figures[1] += cpu() - c

        return run

    def timed_run(source, index, namespace, count):
        c = cpu()
        try:
            return original_run(source, index, namespace, count)
        finally:
            cell_cpu[index] = cpu() - c

    inprocess._run_one = timed_run
    Figure.savefig = timed(original_save)
    Figure.draw_without_rendering = timed(original_draw)
    try:
        w, c = time.perf_counter(), cpu()
        executed = export.execute_notebook(nb, kernel=kernel)
        run_wall, run_cpu = time.perf_counter() - w, cpu() - c
    finally:
        inprocess._run_one = original_run
        Figure.savefig, Figure.draw_without_rendering = original_save, original_draw
    cells = [
        (at, c.source, _seconds(c))
        for at, c in enumerate(executed.cells)
        if c.cell_type == "code"
    ]
    in_cells = sum(sec for _, _, sec in cells)
    first = cells[0]
    phases["kernel start + imports" if kernel else "imports (first cell)"] = (
        run_wall - in_cells + first[2],
        nan if kernel else cell_cpu.get(first[0], nan),
    )
    for at, source, sec in cells[1:]:
        phases[f"  cell: {_label(source)}"[:60]] = (sec, cell_cpu.get(at, nan))
    phases["  of which figures (layout, saving)"] = (
        tuple(figures) if not kernel else (nan, nan)
    )
    phases["execute, all cells"] = (run_wall, run_cpu)
    w, c = time.perf_counter(), cpu()
    with tempfile.TemporaryDirectory() as tmp:
        if fmt == "pdf":
            export.export_notebook(executed, "tex", stem="r")
            phases["nbconvert (LaTeX)"] = (time.perf_counter() - w, cpu() - c)
            w2, c2 = time.perf_counter(), cpu()
            export.write_report(executed, Path(tmp) / "r.pdf", "pdf")
            # the PDF export converts to LaTeX again, then runs xelatex
            latex = phases["nbconvert (LaTeX)"]
            phases["xelatex"] = (
                time.perf_counter() - w2 - latex[0],
                cpu() - c2 - latex[1],
            )
        else:
            export.write_report(executed, Path(tmp) / "r.html", "html")
            phases["nbconvert (HTML)"] = (time.perf_counter() - w, cpu() - c)
    phases["total"] = (time.perf_counter() - wall0, cpu() - cpu0)
    return phases


def start_warm_process(cli: list[str], directory: Path) -> object:
    """Run one command so that a warm process starts (its socket under
    ``directory``), wait until it is ready; returns it (a psutil Process)."""
    import os

    import psutil

    env = {**os.environ, "NBSTATS_WARM": "1", "TMPDIR": str(directory)}
    subprocess.run(
        [*cli, "demo", "-o", str(directory / "first.html")],
        env=env, check=True, capture_output=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not list(directory.glob("nbstats-*/warm-*.sock")):
        if time.monotonic() > deadline:
            raise RuntimeError("the warm process did not start")
        time.sleep(0.2)
    for process in psutil.process_iter(["cmdline"]):
        if "nbstats.cli.warm_server" in (process.info["cmdline"] or []):
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                if process.environ().get("TMPDIR") == str(directory):
                    return process
    raise RuntimeError("the warm process is not to be found")


def numba_first_run() -> tuple[dict, dict]:
    """``nbstats demo`` with an empty numba cache (as after ``pip install``),
    then again with the cache it filled."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        command = [*nbstats_command(), "demo", "-o"]
        # a cache directory of its own, empty, as after an install: a key of
        # its own, so the command starts the compile-ahead process beside it
        env = {"NUMBA_CACHE_DIR": cache, "NBSTATS_WARM": "0"}
        cold = run_timed([*command, f"{out}/a.html"], env)
        warm = run_timed([*command, f"{out}/b.html"], env)
    return cold, warm


def autorank_seconds(table: pd.DataFrame) -> float:
    """autorank's frequentist analysis of the complete rows (it takes no
    missing cells), best of 3."""
    import warnings

    from autorank import autorank

    complete = table.dropna()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")  # and its printed tables
            autorank(complete, alpha=0.05, verbose=False)
        best = min(best, time.perf_counter() - start)
    return best


def _cells(value: tuple[float, float]) -> str:
    return " ".join("     -" if v != v else f"{v:6.2f}" for v in value)


#: The three ways of running the profile: (label, kernel, mc_error).
MODES = (
    ("before: kernel, fixed draws", True, None),
    ("in-process, fixed draws", False, None),
    ("after: in-process, MC <= 0.002", False, 0.002),
)


def bench_profile(directory: Path, quick: bool) -> None:
    table = tabzilla()
    print(
        f"P. TabZilla {table.shape[1]} algorithms x {table.shape[0]} data sets, "
        f"{int(table.isna().sum().sum())} missing cells, --nan-policy pairwise"
    )
    formats = ("html",) if quick else ("html", "pdf")
    if "--commands" in sys.argv:
        formats = ()
    for fmt in formats:
        modes = MODES if fmt == "html" else (MODES[0], MODES[2])
        found = [
            profile_cells(table, kernel=kernel, mc_error=target, fmt=fmt)
            for _, kernel, target in modes
        ]
        print(f"\n  {fmt.upper()} report, by phase (seconds, wall cpu):")
        print(f"  {'phase':<60}" + "".join(f" {m[0][:24]:>24}" for m in modes))
        names = list(dict.fromkeys(name for one in found for name in one))
        nan = (float("nan"), float("nan"))
        for name in names:
            row = "".join(f"    {_cells(one.get(name, nan))}   " for one in found)
            print(f"  {name:<60}{row}")
    print(
        "\n  Commands as a user runs them (wall / CPU s of the command, peak MB\n"
        "  of its processes, RSS / PSS: see _tree_memory):\n"
        "  before = a kernel per report; fresh = cells in the command's own\n"
        "  process (NBSTATS_WARM=0); warm = run by a fork of the warm process"
    )
    csv = directory / "tabzilla.csv"
    table.to_csv(csv)
    runs = {}
    cli = nbstats_command()
    commands = {
        "report html": ["report", str(csv), "-o", str(directory / "t.html")],
        "report pdf": ["report", str(csv), "-o", str(directory / "t.pdf")],
        "report --core": ["report", str(csv), "-o", str(directory / "c.pdf"),
                          "--core"],
        "nbstats demo": ["demo", "-o", str(directory / "demo.html")],
    }  # fmt: skip
    if quick:
        commands.pop("report pdf")
    # no compile-ahead process (nbstats.stats.kernel_signatures): each mode's
    # settings are a key of their own, whose first command would start one
    # once, as only the first command after an install does (measured below)
    ahead = {"NBSTATS_COMPILE_AHEAD": "0"}
    modes = (
        ("before", {"NBSTATS_REPORT_KERNEL": "1", "NBSTATS_WARM": "0", **ahead}),
        ("fresh", {"NBSTATS_WARM": "0", **ahead}),
        ("warm", {"NBSTATS_WARM": "1", "TMPDIR": str(directory), **ahead}),
    )
    server = start_warm_process(cli, directory)
    for name, args in commands.items():
        extra = [] if name == "nbstats demo" else ["--nan-policy", "pairwise"]
        for mode, env in modes:
            runs[name, mode] = run_timed(
                [*cli, *args, *extra], env, server if mode == "warm" else None
            )
        line = ";  ".join(
            f"{mode} {runs[name, mode]['wall']:6.2f} / {runs[name, mode]['cpu']:6.2f}"
            f" s, {runs[name, mode]['peak']:4.0f} / {runs[name, mode]['pss']:4.0f} MB"
            for mode, _ in modes
        )
        print(f"  {name:<15} {line}  (target {TARGETS[name]:g} s idle)", flush=True)
    server.terminate()  # the warm process started above
    cold, warm = numba_first_run()
    print(
        f"  nbstats demo, empty numba cache (first run after install): "
        f"{cold['wall']:.2f} / {cold['cpu']:.2f} s, {cold['peak']:.0f} / "
        f"{cold['pss']:.0f} MB; then "
        f"{warm['wall']:.2f} / {warm['cpu']:.2f} s (target 8 s idle)"
    )
    analyze_wall = bench_analyze(table)
    auto = autorank_seconds(table)
    demo = runs["nbstats demo", "warm"]
    html = runs["report html", "warm"]
    print(
        f"  analyze 26 x 137 in-process: {analyze_wall[0]:.2f} s fixed 50,000 "
        f"draws, {analyze_wall[1]:.2f} s to MC error 0.002 (target 1 s idle)"
    )
    print(
        f"  autorank (frequentist, {len(table.dropna())} complete rows): "
        f"{auto:.3f} s.  Ratios (after, wall): report HTML / demo "
        f"{html['wall'] / demo['wall']:.2f}, report HTML / autorank "
        f"{html['wall'] / auto:.2f}; demo / autorank {demo['wall'] / auto:.2f}"
    )


def bench_analyze(table: pd.DataFrame) -> tuple[float, float]:
    """``nbstats.analyze`` on the 26 algorithms with the fewest holes, on
    their complete rows (137), fixed draws vs the precision rule (warm)."""
    import nbstats

    columns = table.isna().sum().sort_values(kind="stable").index[:26]
    sub = table[columns].dropna()
    nbstats.analyze(sub.iloc[:, :4], random_state=0)  # compile and import first
    out = []
    for options in ({"mc_error": None, "n_samples": 50_000}, {}):
        start = time.perf_counter()
        nbstats.analyze(sub, random_state=0, **options)
        out.append(time.perf_counter() - start)
    return out[0], out[1]


def iri_grammar_seconds() -> float | None:
    """Seconds a fresh process spends importing rfc3987_syntax (jsonschema's
    IRI grammar, which the ``nbstats`` command keeps from loading:
    ``nbstats.cli.commands._skip_iri_grammar``); None when it is not installed."""
    code = (
        "import time; t = time.perf_counter(); import rfc3987_syntax; "
        "print(time.perf_counter() - t)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    return float(done.stdout) if done.returncode == 0 else None


def main() -> None:
    import os

    quick = "--quick" in sys.argv
    print(f"python {sys.version.split()[0]} ({sys.executable})")
    print(f"load average before: {', '.join(f'{v:.2f}' for v in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="nbstats-bench-report-") as tmp:
        directory = Path(tmp)
        if "--real" in sys.argv:  # only the real table beside the demo
            bench_real(directory)
            return
        grammar = iri_grammar_seconds()
        if grammar is not None:
            print(f"rfc3987_syntax IRI grammar (the command skips it): {grammar:.2f} s")
        bench_profile(directory, quick)
        if "--scale" not in sys.argv:
            print(
                f"load average after: {', '.join(f'{v:.2f}' for v in os.getloadavg())}"
            )
            return
        bench_demo(directory)
        bench_real(directory)
        bench_scale(directory, quick)
        if not quick:
            bench_pdf(directory)


if __name__ == "__main__":
    main()

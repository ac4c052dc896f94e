"""How live are the dashboards? Build time, and time from a control change to the view.

Run: ``python benchmarks/bench_dashboard.py [--sizes 8 50 100] [--kinds ...]``
(a few minutes for all sizes). Headless: a dashboard recomputes synchronously
when a control's ``.value`` is set, so the time of that assignment is the time
from the change to the updated ``.result`` *and* views (tables, matrix,
pictures). Score tables: m algorithms × 30 cases, seeded (effects 0 to 4
points apart, noise 2 points), default settings of each dashboard (the
Bayesian one: 50,000 posterior draws up to 10 algorithms, 5,000 from about
30 on; see ``nbstats.widgets.bayes_setup.default_draws``).

Per kind and size: the build time (imports done before, so it is the
dashboard's own work), then for each control the median and 95th percentile
over changes to values not seen before (so no cache of an earlier value
helps; the per-case controls — the Bayesian rope and prior — a few times,
and each of those changes is printed too). Two exceptions, by design of
the plan: the prior's last value, "idp", is the one the dashboard started
with at the same rope and s (its counts and statements are kept, so it
passes over no draws), and "method+adjust" switches to the Wilcoxon tests
once, then only re-adjusts their p-values. Targets at m = 50: build ≤ 1.5 s,
median update ≤ 150 ms. Then the peak resident memory of this process
while that dashboard was built and changed (imports, compiled kernels and
earlier dashboards' leftovers included: what a notebook's kernel would
hold); target at m = 50: 600 MB. By default the process's C heaps are as in
a notebook's kernel (glibc: a heap per thread that allocates, each keeping
what it freed, unless ``MALLOC_ARENA_MAX`` says otherwise);
``--capped-arenas`` caps them as ``nbstats dashboard`` does for its kernels
(:mod:`nbstats.util.malloc_arenas`). The machine's load average is printed
before and after: other work slows everything down.

Two times per change: ``shown``, until the assignment returns with the
views updated — for the Bayesian dashboard from about 29 algorithms on,
every view but the joint statements, which are then computed in a background
thread (``joint_in_background``) and say "updating" meanwhile — and
``complete``, until :meth:`wait` returns, every view current. They differ
only where the joint statements needed a new pass over the draws (a new
rope, the build, or under IDP with a rope a new s or prior).

Figures once stated in the package's comments (moved here in issue 37; recorded,
not re-measured by this script, on a 2-vCPU machine):

- ``nbstats.stats.bayes.signrank.summary_kernel``: in numpy, the per-draw
  arithmetic of 45 pairs alone took half of the 100 ms a change may take.
- ``nbstats.stats.bayes.joint_kernel``: in numpy, the joint statements of 1225
  pairs × 5,000 draws took about 200 ms; int literals were slower than int8
  codes, a branch per draw 3× slower than summing booleans.
- ``nbstats.stats.bayes.decision``: comparisons instead of argmax over a stacked
  copy were several times faster.
- ``nbstats.stats.bayes.signrank.walsh_kernel``: eight cases per accumulator
  update made the dashboard's sums about 20% faster.
- ``nbstats.widgets.bayes`` / ``bayes_joint.BACKGROUND_WORK``: a new rope's
  joint statements took 150–250 ms at 50 algorithms on two processors (a few
  tens of ms below 2,000,000 pairs × draws).
- ``nbstats.widgets.bayes_pairs``: with fresh buffers (page faults), the first
  two rope changes took 3× the later ones.
- ``nbstats.app.process.DEFAULT_MAX_KERNELS``: a dashboard's kernel takes
  200–300 MB (the Bayesian dashboard: 294 MB RSS).

Measured with this script and a profile of each change (2 vCPUs, load
average 1–3 from other work), m = 50, when the caches of
``widgets.bayes_pairs`` (counts per setting), ``widgets.bayes_joint``
(statement tables per setting, IDP's exact statements with a rope in the
background) and ``widgets.frequentist_pairwise`` (the paired tests once per
test) came in:

- rope (the plan sets it at s = 20, under IDP): about 400 ms while the
  pair matrix's exact IDP bounds were counted before the change returned,
  290–335 ms of it the bounds of the 1225 pairs
  (``stats.bayes.signrank.placement_kernel.placement_counts``, two
  threads): at s = 20 almost every draw (99.9 %) is unsettled, so each is
  evaluated at all of a pair's 125 placement states (30 cases). A scalar
  branch-and-bound over the states gave the same counts but took 2.6 times
  as long as the 64-lane kernel. Since those bounds are counted in the
  background when an estimate of their work is long
  (``widgets.bayes_bounds``), the change shows in 80–100 ms (the rope's
  Walsh sums 40–60 ms, 150–270 ms the first time: fresh memory; the
  selected pair's posterior and views about 30 ms); the matrix follows
  about 300 ms later and the IDP joint statements after it (the two take
  turns), 0.9–1.1 s in all. At the IDP's default s (0.562) only 8 % of the
  draws are unsettled: about 45 ms of bounds, 115–170 ms in all while they
  were counted at once; in the background (from an estimated 10 ms of
  counting on) the change shows in 75–125 ms.
- prior: "bb" 110–140 ms, "point" 330–370 ms (about 200 ms of it is the
  first write to the 147 MB of cross terms, pairs × 3 × draws: a refill of
  the same buffer takes 15–20 ms), "idp" 15–20 ms (kept); before, "idp"
  took 630–760 ms (the pairs' placement counts again, and the IDP joint
  statements' in the foreground).
- method+adjust: the first switch to the Wilcoxon tests 310–370 ms
  (``comparison_matrix``: 160 ms for 1225 signed-rank tests one by one,
  150 ms for the records and effect sizes one pair at a time); each new
  adjustment after it 12–32 ms in all (the re-adjustment 2–13 ms, Hommel's
  the slowest; the rest is the views), where each took 290–400 ms before.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import statistics
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

import nbstats
from nbstats.stats.bayes.priors import IDP_DEFAULT_S
from nbstats.util.malloc_arenas import ARENAS, cap_malloc_arenas
from nbstats.util.memory import trim_heap

N_CASES = 30
BUILD_TARGET, UPDATE_TARGET = 1.5, 0.150
#: Peak resident memory of this process while a dashboard is built and its
#: controls are changed (MB), at m = 50: the issue's 600 MB.
MEMORY_TARGET = 600
#: Controls timed this many times or fewer also print each change's time.
FEW = 5


def scores(m: int, n: int = N_CASES) -> pd.DataFrame:
    """Accuracies of m algorithms whose true effects are 0 to 4 points apart."""
    rng = np.random.default_rng(2024 + m)
    base = rng.uniform(0.6, 0.95, size=(n, 1))
    values = base + np.linspace(0.0, 0.04, m) + rng.normal(0.0, 0.02, size=(n, m))
    return pd.DataFrame(
        values,
        index=[f"case{i}" for i in range(n)],
        columns=[f"alg{j:02d}" for j in range(m)],
    )


def plan(kind: str, board: Any, m: int) -> list[tuple[str, list, Callable | None]]:
    """(control, new values, setter) per control; setter None = set .value."""
    names = list(board.names)
    if kind == "bayes":
        rope_max = board.controls["rope"].max
        heavy = 2 if m >= 100 else 4
        others = list(itertools.combinations(names, 2))[1:]
        step = max(1, len(others) // 20)
        pairs = [p if k % 2 else p[::-1] for k, p in enumerate(others[::step][:20])]
        return [
            ("s", [float(v) for v in np.geomspace(0.05, 20, 20)], None),
            ("loss_ratio", list(np.geomspace(1.2, 800, 20)), None),
            ("threshold", list(np.linspace(0.7, 0.99, 20)), None),
            ("epsilon", list(np.linspace(0.01, 0.2, 20)), None),
            ("b", names[2 : 2 + 20], None),  # a is the first algorithm
            ("pair (a, b)", pairs, lambda b, v: b.set(a=v[0], b=v[1])),
            ("rope", [rope_max * f for f in (0.05, 0.1, 0.15, 0.2)][:heavy], None),
            ("prior", ["bb", "idp"] if m >= 100 else ["bb", "point", "idp"], None),
            # the rope again at the IDP's default s (the s sweep above ends at
            # 20, where almost every draw is unsettled by a placement)
            (
                "rope, default s",
                [rope_max * f for f in (0.06, 0.12, 0.18, 0.24)][:heavy],
                lambda b, v: b.set(s=IDP_DEFAULT_S, rope=v),
            ),
        ]
    if kind == "frequentist":
        return [
            ("alpha", list(np.linspace(0.011, 0.2, 20)), None),
            ("omnibus", ["iman-davenport", "friedman"] * 3, None),
            (
                "method",
                ["holm", "bonferroni-dunn", "shaffer", "hochberg", "nemenyi"],
                None,
            ),
            ("control", names[1:11], None),
            ("method+adjust", [("wilcoxon", a) for a in ("holm", "hommel", "none")],
             lambda b, v: b.set(method=v[0], adjust=v[1])),
        ]  # fmt: skip
    return [
        ("alpha", list(np.linspace(0.011, 0.2, 20)), None),
        (
            "methods",
            [
                ("bootstrap", "id-wilcoxon-2s"),
                ("id-nemenyi",),
                ("id-wilcoxon-2s", "anova-tukey"),
                ("id-wilcoxon-1s",),
                ("bootstrap", "id-wilcoxon-2s"),
            ],
            None,
        ),
        ("n_resamples", [200, 500, 1500, 2000], None),  # with the bootstrap shown
    ]


def time_control(board: Any, name: str, values: list, setter) -> dict[str, float]:
    shown, complete = [], []
    for value in values:
        start = time.perf_counter()
        if setter is None:
            board.controls[name].value = value
        else:
            setter(board, value)
        shown.append(time.perf_counter() - start)
        board.wait()
        complete.append(time.perf_counter() - start)
        if board.error is not None:
            raise RuntimeError(f"{name}={value!r}: {board.error}")
    return {
        "n": len(shown),
        "median": statistics.median(shown),
        "p95": float(np.percentile(shown, 95)),
        "complete": statistics.median(complete),
        "each": shown,
    }


class PeakMemory:
    """This process's peak resident memory (MB) while in the block, sampled
    every few milliseconds in a thread (background work included)."""

    def __init__(self) -> None:
        import psutil

        self._process = psutil.Process()
        self.peak = 0.0
        self._stop = threading.Event()

    def now(self) -> float:
        """The resident memory now (MB)."""
        return self._process.memory_info().rss / 2**20

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.now())
            self._stop.wait(0.003)

    def __enter__(self) -> PeakMemory:
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def label(value: Any) -> str:
    """A control's value, short."""
    if isinstance(value, tuple):
        return "/".join(map(label, value))
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 50, 100])
    parser.add_argument("--kinds", nargs="+", default=["bayes", "frequentist", "ranks"])
    parser.add_argument(
        "--capped-arenas",
        action="store_true",
        help="cap malloc's arenas as the kernels of `nbstats dashboard` are",
    )
    args = parser.parse_args()
    if args.capped_arenas:
        capped = cap_malloc_arenas()
        print(f"malloc arenas capped at {ARENAS}: {capped}")
    print(f"machine: {os.cpu_count()} CPUs, load average {load()} (1, 5, 15 min)")
    # imports and compilation first, so builds time the dashboards' own work
    start = time.perf_counter()
    for kind in args.kinds:
        nbstats.dashboard(scores(3), kind=kind)
    print(f"imports and first small dashboards: {time.perf_counter() - start:.1f} s")
    for m in args.sizes:
        table = scores(m)
        for kind in args.kinds:
            # the last dashboard closed and collected, its freed pages given
            # back: each is measured from what a fresh kernel would hold
            gc.collect()
            trim_heap()
            with PeakMemory() as memory:
                start = memory.now()
                run_plan(kind, m, table)
            flag = ""
            if m == 50:
                flag = " ok" if memory.peak <= MEMORY_TARGET else " OVER"
            print(
                f"  peak memory of this process: {memory.peak:.0f} MB{flag} "
                f"(at the start: {start:.0f} MB)"
            )
    print(f"\nload average at the end: {load()}")


def run_plan(kind: str, m: int, table: pd.DataFrame) -> None:
    """Build one dashboard, time it and every control of its plan."""
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = nbstats.dashboard(table, kind=kind)
    build = time.perf_counter() - start
    board.wait()
    built = time.perf_counter() - start
    assert board.error is None, board.error
    extra = f", {board.n_samples:,} draws" if kind == "bayes" else ""
    flag = "" if m != 50 else (" ok" if build <= BUILD_TARGET else " SLOW")
    print(
        f"\n{kind}, m = {m} ({m * (m - 1) // 2} pairs), n = {N_CASES}"
        f"{extra}: build {build:.2f} s{flag} (complete {built:.2f} s)"
    )
    for name, values, setter in plan(kind, board, m):
        stats = time_control(board, name, values, setter)
        flag = ""
        if m == 50:
            flag = " ok" if stats["median"] <= UPDATE_TARGET else " SLOW"
        print(
            f"  {name:<16} n={stats['n']:>2}  shown: median "
            f"{1e3 * stats['median']:7.1f} ms  p95 {1e3 * stats['p95']:7.1f} ms"
            f"{flag}  complete: median {1e3 * stats['complete']:7.1f} ms"
        )
        if stats["n"] <= FEW:  # a median of few: each change as well
            each = ", ".join(
                f"{label(v)} {1e3 * t:.0f}"
                for v, t in zip(values, stats["each"], strict=True)
            )
            print(f"  {'':<16} each (ms): {each}")
    board.close()  # ipywidgets would keep it (and its caches) otherwise


if __name__ == "__main__":
    main()

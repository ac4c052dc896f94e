"""Speed of nbstats' hierarchical test (NumPyro) on the bundled UCI folds.

Run: ``python benchmarks/bench_folds.py [repeats] [after,before,pairs]``
(needs ``pip install nbstats[hierarchical]``; 10-30 minutes on a loaded 2-core
machine; the parts default to all three). All 54
UCI data sets (10 runs of 10-fold cross-validation), rope 0.01, the default
4 chains × (1000 warm-up + 2500) draws.

1. The two tutorial pairs, nbc vs aode and j48 vs j48gr (two near-identical
   trees: the slow posterior, ν near 1 and σ0 far below the folds' standard
   errors), each as the first call of a fresh process (compile + sample:
   what a user waits for), ``repeats`` times (default 3); the median wall
   and CPU time, the mean leapfrog steps per transition, R̂, ESS and the
   probabilities. "before" runs the sampler of the commit before issue 25's
   fix (read with ``git show``; skipped outside a git checkout): u_i ~ t(ν)
   sampled directly, NumPyro's start and unit mass matrix.
2. Every pair of the 5 classifiers (10 pairs) in one process: the first
   call compiles, the others reuse the compiled sampler; each pair's time
   and the total.

Wall and CPU (process) times are printed with the load average: on a shared
machine the wall time is noisy, the CPU time less so. Target: every pair's
first call ≤ 30 s on 2 cores.

Figures once stated in the package's comments (moved here in issue 37; recorded,
not re-measured by this script, on a 2-vCPU machine):

- ``nbstats.stats.hierarchical_model``: the sampler's first compilation took
  about 10–15 s on two cores; ``TARGET_ACCEPT = 0.95`` took 1.1–1.8 times the
  time of 0.8 (54 data sets, nbc vs aode: 21 s instead of 19 s on 2 cores);
  vmapping the chains was 2–3 times slower to compile than ``lax.map``.
"""

from __future__ import annotations

import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the last commit with the sampler before issue 25 (item 6) changed it
BEFORE = "cb9868b"
PAIRS = (("nbc", "aode"), ("j48", "j48gr"))
#: ``python benchmarks/bench_folds.py [repeats] [parts]``: parts, comma-separated
ALL_PARTS = {"after", "before", "pairs"}

#: One first call in a fresh process; prints a JSON line. argv: a b [old-module-file]
FRESH = """
import json, sys, time, types, warnings
warnings.simplefilter("ignore")
import nbstats
from nbstats.stats import hierarchical
if len(sys.argv) > 3:  # the pre-fix sampler and centring
    import importlib.util
    from nbstats.stats import hierarchical_model as new
    spec = importlib.util.spec_from_file_location("old_model", sys.argv[3])
    old = sys.modules["old_model"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(old)
    hierarchical.centering = old.centering
    hierarchical.sample_posterior = lambda *a, **k: new.PosteriorDraws(
        **vars(old.sample_posterior(*a, **k)))
folds = nbstats.datasets.load("uci_accuracy_folds")
wall, cpu = time.perf_counter(), time.process_time()
res = hierarchical.bayes_hierarchical(
    sys.argv[1], sys.argv[2], data=folds, case="dataset", algorithm="classifier",
    score="accuracy", fold="fold", runs=10, rope=0.01, random_state=0)
print(json.dumps(dict(
    wall=time.perf_counter() - wall, cpu=time.process_time() - cpu,
    steps=res.leapfrog_steps, rhat=res.rhat, ess=res.ess, div=res.divergences,
    probs=[res.prob_left, res.prob_rope, res.prob_right])))
"""


def old_sampler(directory: Path) -> Path | None:
    """The pre-fix hierarchical_model.py, from git, or None."""
    try:
        source = subprocess.run(
            ["git", "show", f"{BEFORE}:nbstats/stats/hierarchical_model.py"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None
    path = directory / "old_hierarchical_model.py"
    path.write_text(source)
    return path


def fresh(a: str, b: str, old: Path | None) -> dict:
    args = [sys.executable, "-c", FRESH, a, b] + ([str(old)] if old else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True,
                         timeout=1800)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def first_calls(repeats: int, parts: set[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        old = old_sampler(Path(tmp))
        versions = [("after", None)] + ([("before", old)] if old else [])
        versions = [v for v in versions if v[0] in parts]
        medians = {}
        for (label, module), (a, b) in itertools.product(versions, PAIRS):
            runs = [fresh(a, b, module) for _ in range(repeats)]
            wall = statistics.median(r["wall"] for r in runs)
            cpu = statistics.median(r["cpu"] for r in runs)
            medians[label, a] = (wall, cpu)
            last = runs[-1]
            each = ", ".join(f"{r['wall']:.0f}" for r in runs)
            steps = f"{last['steps']:.0f}" if last["steps"] == last["steps"] else "n/a"
            print(
                f"  {label:6s} {a} vs {b}: first call, median of {repeats}: "
                f"wall {wall:.1f} s, cpu {cpu:.1f} s (each: "
                f"{each} s); leapfrog "
                f"steps/transition {steps}; R̂ {last['rhat']:.4f}, min ESS "
                f"{last['ess']:.0f}, divergences {last['div']}; (left, rope, "
                f"right) {tuple(round(p, 4) for p in last['probs'])}",
                flush=True,
            )
        for label, _ in versions:
            ratio = [
                medians[label, "j48"][i] / medians[label, "nbc"][i] for i in (0, 1)
            ]
            print(f"  {label}: j48/j48gr ÷ nbc/aode = {ratio[0]:.2f} (wall), "
                  f"{ratio[1]:.2f} (cpu)")  # fmt: skip
        if old and {"before", "after"} <= parts:
            for a, b in PAIRS:
                speed = [
                    medians["before", a][i] / medians["after", a][i] for i in (0, 1)
                ]
                print(f"  {a} vs {b}: before ÷ after = {speed[0]:.1f} (wall), "
                      f"{speed[1]:.1f} (cpu)")  # fmt: skip


def all_pairs() -> None:
    import warnings

    import nbstats
    from nbstats.stats.hierarchical import bayes_hierarchical

    warnings.simplefilter("ignore")
    folds = nbstats.datasets.load("uci_accuracy_folds")
    names = list(folds["classifier"].unique())
    total_wall = total_cpu = 0.0
    for a, b in itertools.combinations(names, 2):
        wall, cpu = time.perf_counter(), time.process_time()
        res = bayes_hierarchical(
            a, b, data=folds, case="dataset", algorithm="classifier",
            score="accuracy", fold="fold", runs=10, rope=0.01, random_state=0,
        )  # fmt: skip
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        total_wall, total_cpu = total_wall + wall, total_cpu + cpu
        print(
            f"  {a} vs {b}: wall {wall:.1f} s, cpu {cpu:.1f} s; leapfrog "
            f"steps/transition {res.leapfrog_steps:.0f}; R̂ {res.rhat:.4f}, "
            f"min ESS {res.ess:.0f}, divergences {res.divergences}; "
            f"(left, rope, right) "
            f"{(res.prob_left, res.prob_rope, res.prob_right)}",
            flush=True,
        )
    print(f"  all 10 pairs: wall {total_wall:.1f} s, cpu {total_cpu:.1f} s "
          f"(the first compiles)")  # fmt: skip


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    parts = set(sys.argv[2].split(",")) if len(sys.argv) > 2 else ALL_PARTS
    print(f"load average before: {os.getloadavg()}", flush=True)
    if parts & {"after", "before"}:
        print("first call of a fresh process (compile + sample):", flush=True)
        first_calls(repeats, parts)
        print(f"load average: {os.getloadavg()}", flush=True)
    if "pairs" in parts:
        print("every pair, one process:", flush=True)
        all_pairs()
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()

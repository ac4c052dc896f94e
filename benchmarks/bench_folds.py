"""Speed of nbstats' hierarchical test (NumPyro) against baycomp's (Stan).

Run: ``python benchmarks/bench_folds.py`` (needs ``pip install
nbstats[hierarchical]``; a few minutes). All 54 UCI data sets (10 runs of
10-fold cross-validation), nbc vs aode, rope 0.01.

The first call of a given size compiles the sampler: it is timed on its own,
then the same call again (the compiled sampler is kept), whose time is the
sampling alone; compile = first − second. Then the first call of a fresh
process twice, with jax's persistent compilation cache in a temporary
directory (``JAX_COMPILATION_CACHE_DIR``): the first process compiles and
writes the cache, the second reads it (what a user who sets that variable
gets from the second session on). Wall and CPU (process) times are printed
with the load average: on a shared machine the wall time is noisy, the CPU
time less so. Target: the first call ≤ 30 s on 2 cores.

baycomp: when ``stan`` (pystan 3) is importable here, baycomp's
HierarchicalTest is run live with the same number of draws; otherwise its
time is read from tests/data/hierarchical_reference.json (written by
tests/data/make_hierarchical_reference.py, sampling time only, Stan build
excluded, at nice 19) and compared per posterior draw (both samplers' cost
grows linearly with the draws after warmup; the ratio counts warmup too, 1000
per chain on both sides, so it favours neither).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import nbstats
from nbstats.stats.hierarchical import bayes_hierarchical

REFERENCE = Path(__file__).resolve().parents[1] / "tests" / "data"
REFERENCE = REFERENCE / "hierarchical_reference.json"
UCI = dict(case="dataset", algorithm="classifier", score="accuracy", fold="fold")


def timed(call):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    out = call()
    return out, time.perf_counter() - wall, time.process_time() - cpu


#: One first call in a fresh process (run with -c; prints wall, cpu, prob_right).
FRESH = """
import time, warnings
warnings.simplefilter("ignore")
import nbstats
from nbstats.stats.hierarchical import bayes_hierarchical
folds = nbstats.datasets.load("uci_accuracy_folds")
wall, cpu = time.perf_counter(), time.process_time()
res = bayes_hierarchical(
    "nbc", "aode", data=folds, case="dataset", algorithm="classifier",
    score="accuracy", fold="fold", runs=10, rope=0.01, n_samples=2500,
    chains=4, warmup=1000, random_state=0)
print(time.perf_counter() - wall, time.process_time() - cpu, res.prob_right)
"""


def fresh_processes() -> None:
    """The first call in two fresh processes sharing jax's disk cache."""
    with tempfile.TemporaryDirectory(prefix="nbstats-jax-cache-") as cache:
        env = dict(os.environ, JAX_COMPILATION_CACHE_DIR=cache)
        for label in ("cold cache (compiles, writes)", "warm cache (reads)"):
            out = subprocess.run(
                [sys.executable, "-c", FRESH], env=env, capture_output=True,
                text=True, check=True, timeout=600,
            )  # fmt: skip
            wall, cpu, right = out.stdout.split()[-3:]
            print(
                f"  fresh process, {label}: wall {float(wall):.1f} s, "
                f"cpu {float(cpu):.1f} s (prob_right {float(right):.4f})"
            )


def main() -> None:
    folds = nbstats.datasets.load("uci_accuracy_folds")
    n_samples, chains, warmup = 2500, 4, 1000
    print(f"load average before: {os.getloadavg()}")

    def run(seed: int):  # type: ignore[no-untyped-def]
        return bayes_hierarchical(
            "nbc", "aode", data=folds, **UCI, runs=10, rope=0.01,
            n_samples=n_samples, chains=chains, warmup=warmup, random_state=seed,
        )  # fmt: skip

    first, wall1, cpu1 = timed(lambda: run(0))
    second, wall2, cpu2 = timed(lambda: run(1))
    print(
        f"nbstats (NumPyro NUTS, {chains} chains × ({warmup} warmup + {n_samples})"
        f" draws, 54 data sets)\n"
        f"  first call (compile + sample): wall {wall1:.1f} s, cpu {cpu1:.1f} s\n"
        f"  second call (sample only):     wall {wall2:.1f} s, cpu {cpu2:.1f} s\n"
        f"  compile ≈ wall {wall1 - wall2:.1f} s, cpu {cpu1 - cpu2:.1f} s\n"
        f"  probabilities (left, rope, right): "
        f"{(first.prob_left, first.prob_rope, first.prob_right)} / "
        f"{(second.prob_left, second.prob_rope, second.prob_right)}; "
        f"R̂ {second.rhat:.4f}, min ESS {second.ess:.0f}, "
        f"divergences {second.divergences}"
    )
    print("jax's persistent compilation cache (JAX_COMPILATION_CACHE_DIR):")
    fresh_processes()
    ours_per_iteration = wall2 / (chains * (warmup + n_samples))
    try:
        import stan  # noqa: F401
        from baycomp import HierarchicalTest
    except ImportError:
        ref = json.loads(REFERENCE.read_text())
        entry = ref["pairs"]["nbc:aode"]
        per_chain = ref["settings"]["nsamples_per_chain"]
        theirs_per_iteration = entry["wall_seconds"] / (
            ref["settings"]["chains"] * (1000 + per_chain)
        )
        print(
            f"baycomp {ref['versions']['baycomp']} / pystan "
            f"{ref['versions']['pystan']} (stored, {entry['draws']} draws, nice 19): "
            f"{entry['wall_seconds']:.0f} s wall; probabilities "
            f"{(entry['prob_left'], entry['prob_rope'], entry['prob_right'])}"
        )
        print(
            f"per iteration (warmup included): baycomp / nbstats = "
            f"{theirs_per_iteration / ours_per_iteration:.0f}× (sampling only; "
            f"different load, nice 19 on baycomp's side)"
        )
    else:
        wide = folds.pivot_table(index=["dataset", "fold"], columns="classifier",
                                 values="accuracy")  # fmt: skip
        x = wide["nbc"].unstack("fold").to_numpy(float)
        y = wide["aode"].unstack("fold").to_numpy(float)
        sample, wall_b, _ = timed(
            lambda: HierarchicalTest.sample(
                x,
                y,
                0.01,
                runs=10,
                nsamples=n_samples,
                chains=chains,
                random_state=0,
            )
        )
        winners = np.bincount(np.argmax(sample, axis=1), minlength=3) / len(sample)
        print(f"baycomp live (build included): wall {wall_b:.1f} s, {winners}")
        print(f"baycomp / nbstats (first call, both compile): {wall_b / wall1:.1f}×")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()

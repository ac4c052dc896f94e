"""Reference output of baycomp's HierarchicalTest for tests/stats/test_hierarchical.py.

Runs baycomp's hierarchical t-test (Corani et al. 2017; Stan via pystan 3) on
the bundled per-fold UCI accuracies (10 runs of 10-fold cross-validation,
54 data sets) for a few pairs of classifiers with rope 0.01 and runs=10, and
writes ``hierarchical_reference.json`` next to this file: the probabilities
(baycomp's summary: the share of posterior draws in which each region is the
most probable, plus the mean per-draw probabilities), the package versions,
the settings and the wall time of each pair.

It needs pystan, which nbstats does not depend on; run it in a separate
environment, from the repository root::

    python3 -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install pystan baycomp numpy scipy pandas
    /tmp/refvenv/bin/python tests/data/make_hierarchical_reference.py

baycomp does not pass a seed to Stan (only to its own zero-variance
handling); this script passes ``random_seed`` to ``stan.build`` so the run is
repeatable. It runs in a temporary directory because baycomp caches the last
posterior in ``last-sample.pickle`` in the working directory.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = (
    HERE.parent.parent / "nbstats" / "datasets" / "data" / "uci_accuracy_folds.csv.gz"
)
OUT = HERE / "hierarchical_reference.json"

PAIRS = [("nbc", "aode"), ("j48", "j48gr")]
ROPE = 0.01
RUNS = 10
SEED = 20260523


def fold_matrices(a: str, b: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Data sets × folds accuracies of a and b (folds in file order)."""
    folds = pd.read_csv(DATA)
    wide = folds.pivot_table(
        index=["dataset", "fold"], columns="classifier", values="accuracy"
    )
    x = wide[a].unstack("fold")
    y = wide[b].unstack("fold")
    return [str(n) for n in x.index], x.to_numpy(float), y.to_numpy(float)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nsamples", type=int, default=1000, help="draws per chain")
    parser.add_argument("--chains", type=int, default=4)
    parser.add_argument("--pairs", default=",".join(f"{a}:{b}" for a, b in PAIRS))
    args = parser.parse_args()
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]

    import stan
    from baycomp import HierarchicalTest

    build = stan.build

    def seeded_build(*a, **k):  # baycomp passes no seed to Stan
        k.setdefault("random_seed", SEED)
        return build(*a, **k)

    stan.build = seeded_build

    header = {
        "source": "baycomp.HierarchicalTest (Corani et al. 2017), Stan via pystan",
        "versions": {
            "baycomp": version("baycomp"),
            "pystan": version("pystan"),
            "httpstan": version("httpstan"),
            "numpy": np.__version__,
            "python": sys.version.split()[0],
        },
        "settings": {
            "rope": ROPE,
            "runs": RUNS,
            "nsamples_per_chain": args.nsamples,
            "chains": args.chains,
            "random_state": SEED,
            "stan_random_seed": SEED,
            "data": "nbstats/datasets/data/uci_accuracy_folds.csv.gz",
            "x": "first classifier (a), y: second (b); differences y - x",
            "wall_seconds": "per pair, sampling only (the Stan model is built "
            "before the clock starts), at nice 19 on a shared, loaded machine",
        },
    }
    os.chdir(tempfile.mkdtemp(prefix="hier-ref-"))
    for a, b in pairs:
        names, x, y = fold_matrices(a, b)
        stan.build(_program(), data=_tiny_data())  # build (cached) before timing
        start = time.perf_counter()
        sample = HierarchicalTest.sample(
            x, y, ROPE, runs=RUNS, nsamples=args.nsamples, chains=args.chains,
            random_state=SEED,
        )  # fmt: skip
        seconds = time.perf_counter() - start
        winners = np.bincount(np.argmax(sample, axis=1), minlength=3) / len(sample)
        entry = {
            "a": a,
            "b": b,
            "datasets": len(names),
            "folds_per_dataset": int(x.shape[1]),
            "prob_left": float(winners[0]),
            "prob_rope": float(winners[1]),
            "prob_right": float(winners[2]),
            "mean_prob_left": float(sample[:, 0].mean()),
            "mean_prob_rope": float(sample[:, 1].mean()),
            "mean_prob_right": float(sample[:, 2].mean()),
            "draws": len(sample),
            "wall_seconds": round(seconds, 1),
        }
        _merge(header, f"{a}:{b}", entry)
        print(f"{a} vs {b}: {winners} in {seconds:.0f} s", flush=True)


def _merge(header: dict, key: str, entry: dict) -> None:
    """Add one pair to the JSON under a lock (pairs may run in parallel)."""
    with open(OUT.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        result = json.loads(OUT.read_text()) if OUT.exists() else {}
        result.update(header)
        result.setdefault("pairs", {})[key] = entry
        result["pairs"] = dict(sorted(result["pairs"].items()))
        OUT.write_text(json.dumps(result, indent=2) + "\n")


def _program() -> str:
    import baycomp

    return (Path(baycomp.__file__).parent / "hierarchical-t-test.stan").read_text()


def _tiny_data() -> dict:
    return dict(
        x=[[0.1, -0.1], [0.2, 0.0]], Nsamples=2, q=2, rho=0.5, deltaLow=-1,
        deltaHi=1, lowerAlpha=1, upperAlpha=2, lowerBeta=0.01, upperBeta=0.1,
        stdLow=0, stdHi=1, std0Low=0, std0Hi=1,
    )  # fmt: skip


if __name__ == "__main__":
    main()

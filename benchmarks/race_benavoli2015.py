"""benavoli2015 §7.1, Tables 2 and 3: Bayesian race vs F-Race_S vs F-Race_MR.

Run: ``python benchmarks/race_benavoli2015.py [--reps 200]`` (the paper uses 200
repetitions; the default here is 20, which takes a few minutes).

Setting, as in the paper: q candidates whose scores are normal with means drawn
from U[0, 1] and a common standard deviation ρ; each assessment adds five new
observations; at most M = 300 assessment rounds (``max_steps``); α = γ = 0.05,
ε = 0.05. ITER = rounds used / M; MAE = |true rank of the winner − 1|.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import nbstats

PAPER = {  # (q, rho): {method: (ITER, MAE)}, Table 2; indistinguishable, Table 3
    (30, 1.0): {
        "bayes": (0.63, 0.70),
        "frace-sign": (0.67, 0.80),
        "frace-mr": (0.58, 0.77),
        "indist": 0.9,
    },
    (50, 1.0): {
        "bayes": (0.72, 0.92),
        "frace-sign": (0.80, 1.22),
        "frace-mr": (0.69, 1.15),
        "indist": 1.7,
    },
    (100, 1.0): {
        "bayes": (0.75, 1.84),
        "frace-sign": (0.84, 2.31),
        "frace-mr": (0.70, 2.05),
        "indist": 4.5,
    },
    (100, 0.5): {
        "bayes": (0.67, 1.15),
        "frace-sign": (0.74, 1.19),
        "frace-mr": (0.62, 1.26),
        "indist": 3.1,
    },
    (100, 0.1): {
        "bayes": (0.36, 0.28),
        "frace-sign": (0.36, 0.30),
        "frace-mr": (0.35, 0.30),
        "indist": 2.4,
    },
    (200, 0.1): {
        "bayes": (0.50, 0.46),
        "frace-sign": (0.51, 0.63),
        "frace-mr": (0.50, 0.58),
        "indist": 2.7,
    },
}


def one_race(method: str, q: int, rho: float, rep: int) -> tuple[float, int, int]:
    means = np.random.default_rng([q, rep]).uniform(0, 1, q)

    def evaluate(candidate: int, instance: int) -> float:
        rng = np.random.default_rng([q, rep, candidate, instance])
        return float(means[candidate] + rng.normal(0, rho))

    result = nbstats.race(
        evaluate,
        list(range(q)),
        range(10**9),
        method=method,
        max_steps=300,
        instances_per_step=5,
        n_samples=4000,
        progress=False,
        random_state=rep,
    )
    true_rank = int(np.argsort(np.argsort(-means))[int(result.winner)])
    return result.budget_used, true_rank, result.n_indistinguishable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--settings", default="30,1.0;50,1.0")
    args = parser.parse_args()
    settings = [tuple(map(float, s.split(","))) for s in args.settings.split(";")]
    print(f"{args.reps} repetitions per setting (the paper: 200)")
    print(
        f"{'q, rho':<10}{'method':<12}{'ITER':>7}{'paper':>7}{'MAE':>7}{'±SE':>6}"
        f"{'paper':>7}{'indist.':>9}{'paper':>7}{'time':>8}"
    )
    for q, rho in settings:
        q = int(q)
        paper = PAPER.get((q, rho), {})
        for method in ("bayes", "frace-sign", "frace-mr"):
            start = time.perf_counter()
            runs = np.array([one_race(method, q, rho, rep) for rep in range(args.reps)])
            elapsed = time.perf_counter() - start
            iters, mae, indist = runs.mean(axis=0)
            se = (
                runs[:, 1].std(ddof=1) / np.sqrt(len(runs))
                if len(runs) > 1
                else float("nan")
            )
            p_iter, p_mae = paper.get(method, (float("nan"), float("nan")))
            p_ind = (
                paper.get("indist", float("nan")) if method == "bayes" else float("nan")
            )
            print(
                f"{f'{q}, {rho:g}':<10}{method:<12}{iters:7.2f}{p_iter:7.2f}"
                f"{mae:7.2f}{se:6.2f}{p_mae:7.2f}{indist:9.2f}{p_ind:7.1f}{elapsed:7.0f}s"
            )


if __name__ == "__main__":
    main()

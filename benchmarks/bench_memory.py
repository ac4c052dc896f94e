"""Time and memory of the Bayesian tests at scale (issue 17, item 4).

Run: ``python benchmarks/bench_memory.py [--quick]`` (a few minutes; ``--quick``
uses 5,000 draws for the pairs).

Each case runs in its own subprocess, so its peak resident memory
(``ru_maxrss``) is its own: the interpreter and libraries (~200 MB) plus what
the call needs. Cases:

- ``bayes_signrank`` at n = 10,000 and 100,000 cases with default settings
  (``method="auto"``: the normal approximation beyond 1,000 cases), with the
  reported Monte Carlo error; and at 10,000 cases the exact Monte Carlo with
  2,000 draws, for its time per draw and its probabilities;
- ``bayes_signrank_pairs`` on 200 cases × 100 algorithms (4950 pairs), default
  50,000 draws, at the default memory ceiling and at 128 MB.

The machine's load average is printed before and after: other work slows
everything down (memory figures are not affected).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent(
    """
    import json, resource, time
    import numpy as np, pandas as pd
    import nbstats

    case = json.loads(CASE)
    rng = np.random.default_rng(0)
    nbstats.bayes_signrank(rng.normal(size=30), rng.normal(size=30),
                           n_samples=1000)  # imports and compiled kernels
    out = {}
    start = time.perf_counter()
    if case["kind"] == "signrank":
        n = case["n"]
        a = rng.normal(0.8, 0.05, n)
        b = a + rng.normal(0.0003, 0.02, n)
        res = nbstats.bayes_signrank(a, b, rope=0.001, random_state=0,
                                     **case["kw"])
        out.update(method=res.method, n_samples=res.n_samples,
                   mc_error=res.mc_error, prob_right=res.prob_right,
                   prob_rope=res.prob_rope, ci=list(res.credible_interval))
    else:
        m, n = case["m"], 200
        table = pd.DataFrame(rng.normal(0.8, 0.05, (n, m))
                             + np.linspace(0, 0.02, m))
        res = nbstats.bayes_signrank_pairs(table, random_state=0, **case["kw"])
        out.update(pairs=len(res.pairs), n_samples=res.n_samples,
                   mc_error=res.mc_error)
    out["seconds"] = time.perf_counter() - start
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))
    """
)


def run(case: dict, ceiling: str | None = None) -> dict:
    env = dict(os.environ)
    env.pop("NBSTATS_MAX_MEMORY", None)
    if ceiling:
        env["NBSTATS_MAX_MEMORY"] = ceiling
    code = CHILD.replace("CASE", repr(json.dumps(case)))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {load()} (1, 5, 15 min)")
    print("\nbayes_signrank, rope 0.001 (peak RSS of the whole process)")
    cases = [
        ("n = 10,000, defaults", {"kind": "signrank", "n": 10_000, "kw": {}}),
        ("n = 100,000, defaults", {"kind": "signrank", "n": 100_000, "kw": {}}),
        (
            "n = 10,000, Monte Carlo, 2,000 draws",
            {
                "kind": "signrank",
                "n": 10_000,
                "kw": {"method": "montecarlo", "n_samples": 2000},
            },
        ),
    ]
    for label, case in cases:
        out = run(case)
        print(
            f"  {label:<38} {out['seconds']:7.2f} s  peak {out['peak_mb']:6.0f} MB  "
            f"{out['method']}, {out['n_samples']:,} draws, MC error "
            f"{out['mc_error']:.4f}; P(right) {out['prob_right']:.4f}, "
            f"P(rope) {out['prob_rope']:.4f}, interval "
            f"({out['ci'][0]:.4f}, {out['ci'][1]:.4f})"
        )
    draws = 5000 if args.quick else 50_000
    print(f"\nbayes_signrank_pairs, 200 cases x 100 algorithms, {draws:,} draws")
    for ceiling in (None, "128M"):
        case = {"kind": "pairs", "m": 100, "kw": {"n_samples": draws}}
        out = run(case, ceiling)
        label = f"ceiling {ceiling or '512M (default)'}"
        print(
            f"  {label:<38} {out['seconds']:7.2f} s  peak {out['peak_mb']:6.0f} MB  "
            f"{out['pairs']} pairs, MC error {out['mc_error']:.4f}"
        )
    print(f"\nload average at the end: {load()}")


if __name__ == "__main__":
    main()

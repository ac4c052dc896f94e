"""The report's Bayesian pairs cell on a real table with holes, and baycomp.

Run: ``python benchmarks/bench_pairs.py`` (about a minute; ``--repo PATH``
imports nbstats from another checkout, e.g. the one before a change, for a
before/after comparison in the same conditions).

On TabZilla's 42 algorithms × 171 data sets with 1,040 missing cells
(``tests/data/tabzilla``), with the report's settings (``nan_policy=
"pairwise"``, the near-ignorance prior, no rope, 5,000 first draws, Monte
Carlo error at most 0.002, no credible intervals), it times:

1. ``bayes_signrank_pairs`` of the 861 pairs, each on its own cases;
2. the joint statements as the report makes them with holes:
   ``bayes_posthoc(test="signrank")`` on the complete cases;
3. the pairs with ``joint=True``: the joint statements on every pair's own
   cases, read from the pairs' draws (what a report would cost if its joint
   statements used each pair's cases);
4. baycomp's ``SignedRankTest.probs`` (the reference implementation of
   Benavoli et al.'s test) on a sample of the same pairs, each on its cases
   with as many draws as nbstats gave it on average; the ratio is baycomp's
   time for all 861 pairs (extrapolated) over nbstats' (1.).

Wall-clock and CPU seconds of the process (all its threads): on a shared
machine the CPU time is the steadier figure.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _timed(function):
    wall, cpu = time.perf_counter(), time.process_time()
    value = function()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=HERE.parent)
    parser.add_argument(
        "--baycomp-pairs", type=int, default=8, help="pairs timed with baycomp"
    )
    parser.add_argument("--no-joint", action="store_true", help="skip 3.")
    args = parser.parse_args()
    sys.path.insert(0, str(args.repo))
    sys.path.insert(0, str(HERE.parent / "tests"))
    import numpy as np
    from real_tables import tabzilla_accuracy

    import nbstats

    print(f"nbstats from {Path(nbstats.__file__).parent}")
    table = tabzilla_accuracy()
    order = list(nbstats.mean_ranks(table.dropna()).sort_values(kind="stable").index)
    table = table[order[::-1]]
    kw = {
        "rope": 0.0, "n_samples": 5_000, "mc_error": 0.002, "random_state": 0,
        "interval": False, "prior": "idp",
    }  # fmt: skip
    # numba's kernels compiled or loaded before the clock starts
    nbstats.bayes_signrank_pairs(table.iloc[:30, :4], nan_policy="pairwise", **kw)
    pairs, wall, cpu = _timed(
        lambda: nbstats.bayes_signrank_pairs(table, nan_policy="pairwise", **kw)
    )
    draws = pairs.pairs["draws"]
    print(
        f"{table.shape[1]} x {table.shape[0]}, {int(table.isna().sum().sum()):,} "
        f"missing; {len(pairs.pairs)} pairs, {draws.mean():,.0f} draws per pair "
        f"on average ({int(draws.min()):,}-{int(draws.max()):,})"
    )
    print(f"1. pairs (pairwise)                 wall {wall:6.2f} s  cpu {cpu:6.2f} s")
    joint_kw = {"test": "signrank", "s": pairs.s, "prior": "idp"}
    joint_kw.update(n_samples=5_000, mc_error=0.002, random_state=0)
    _, jwall, jcpu = _timed(lambda: nbstats.bayes_posthoc(table.dropna(), **joint_kw))
    print(f"2. joint, complete cases            wall {jwall:6.2f} s  cpu {jcpu:6.2f} s")
    print(
        f"   the report's cell (1 + 2)         wall {wall + jwall:6.2f} s  "
        f"cpu {cpu + jcpu:6.2f} s"
    )
    if not args.no_joint:
        try:
            shared, swall, scpu = _timed(
                lambda: nbstats.bayes_signrank_pairs(
                    table, nan_policy="pairwise", joint=True, **kw
                )
            )
        except TypeError:  # before joint=True existed
            print("3. pairs + joint on each pair's cases: not in this checkout")
        else:
            print(
                f"3. pairs + joint on each pair's cases wall {swall:6.2f} s  "
                f"cpu {scpu:6.2f} s (joint on {shared.joint.n_samples:,} draws)"
            )
    try:
        import baycomp
    except ImportError:
        print("4. baycomp is not installed")
        return
    rng = np.random.default_rng(0)
    sample = rng.choice(len(pairs.pairs), size=args.baycomp_pairs, replace=False)
    n_draws = round(float(draws.mean()))

    def run_baycomp() -> None:
        for k in sample:
            a, b = pairs.pairs.iloc[k][["a", "b"]]
            both = table[[a, b]].dropna()
            baycomp.SignedRankTest.probs(
                both[a].to_numpy(), both[b].to_numpy(), rope=0.0, nsamples=n_draws
            )

    _, bwall, bcpu = _timed(run_baycomp)
    per_pair = bwall / len(sample)
    print(
        f"4. baycomp, {len(sample)} pairs at {n_draws:,} draws: wall {bwall:.2f} s "
        f"(cpu {bcpu:.2f} s), {per_pair:.3f} s a pair; all {len(pairs.pairs)} "
        f"pairs ~{per_pair * len(pairs.pairs):.0f} s: "
        f"{per_pair * len(pairs.pairs) / wall:.0f}x nbstats' pairs (1.), wall"
    )


if __name__ == "__main__":
    main()

"""The near-ignorance (IDP) bounds with a rope: decisions and time.

Run: ``python benchmarks/bench_idp_bounds.py [--part decisions|speed|all]``
(a minute or two). Run it on two checkouts (``PYTHONPATH=...``) to compare
before and after a change of the bounds.

``decisions``: the decisions of :func:`nbstats.bayes_signrank_pairs` (IDP,
rope 1 accuracy point, 50,000 draws, seed 0, ``nan_policy="omit"``) on the
bundled tables ``fernandez_delgado2014_multiboost`` (13 classifiers: 12
named base learners and one without, 108 complete data sets) and
``fernandez_delgado2014_top50`` (50 classifiers, 66 complete data sets), and
the mean width (upper − lower) of each region's probability.

``speed``: the time of the pairs table at 50 algorithms (the top-50 table,
rope 1, 20,000 draws, IDP) and of the Bayesian dashboard's pair matrix at 50
algorithms (:class:`~nbstats.widgets.bayes_pairs.PairPosteriors`, 30 cases,
5,000 draws as the dashboard takes them, IDP with a rope): the first matrix
(sums and counts) and a change of s (counts only). The best of a few
repetitions, wall and processor time (all threads; on a shared machine the
wall time follows the load); the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np
import pandas as pd

import nbstats

TABLES = ("fernandez_delgado2014_multiboost", "fernandez_delgado2014_top50")


def decisions() -> None:
    for name in TABLES:
        scores = nbstats.datasets.load(name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = nbstats.bayes_signrank_pairs(
                scores, rope=1.0, nan_policy="omit", random_state=0, progress=False
            )
        pairs = res.pairs
        counts = pairs["decision"].value_counts()
        shown = {
            d: int(counts.get(d, 0))
            for d in ("a", "b", "equivalent", "undecided", "indeterminate")
        }
        widths = {
            region: round(
                float((pairs[f"prob_{region}_upper"] - pairs[f"prob_{region}"]).mean()),
                4,
            )
            for region in ("left", "rope", "right")
        }
        print(f"{name}: {scores.shape[1]} algorithms, {len(pairs)} pairs")
        print(f"  decisions: {shown}")
        print(f"  mean width upper - lower: {widths}")


def best_of(function, repeats: int) -> str:
    """The best wall time and the best processor time (all threads) of a few
    runs: on a shared machine the wall time follows the load, the processor
    time much less (it counts the work)."""
    walls, cpus = [], []
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return f"wall {min(walls):.3f} s, processor {min(cpus):.3f} s"


def dashboard_scores(m: int = 50, n: int = 30) -> pd.DataFrame:
    """benchmarks/bench_dashboard.py's table: m algorithms x 30 cases."""
    rng = np.random.default_rng(2024 + m)
    base = rng.uniform(0.6, 0.95, size=(n, 1))
    values = base + np.linspace(0.0, 0.04, m) + rng.normal(0.0, 0.02, size=(n, m))
    return pd.DataFrame(values, columns=[f"alg{j:02d}" for j in range(m)])


def speed(repeats: int) -> None:
    from nbstats.stats.bayes.shared_prior import SharedPrior
    from nbstats.stats.bayes.weights import DirichletWeights
    from nbstats.widgets.bayes_pairs import PairPosteriors

    print(f"load average before: {os.getloadavg()[0]:.2f}")
    top = nbstats.datasets.load(TABLES[1])

    def table() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nbstats.bayes_signrank_pairs(
                top, rope=1.0, nan_policy="omit", random_state=0, n_samples=20_000,
                progress=False,
            )  # fmt: skip

    table()  # compile
    print(f"pairs table, 50 algorithms, 20,000 draws: {best_of(table, repeats)}")

    scores = dashboard_scores()
    cols = list(scores.columns)
    pairs = [(a, b) for i, a in enumerate(cols) for b in cols[i + 1 :]]
    diffs = np.column_stack([scores[b] - scores[a] for a, b in pairs])
    rope = 0.01

    def build() -> PairPosteriors:
        engine = PairPosteriors(
            diffs, DirichletWeights(diffs.shape[0], 5000, 0), SharedPrior(),
            names=pairs,
        )  # fmt: skip
        engine.probabilities("idp", 0.5, rope, 0.05)
        return engine

    build()  # compile
    print(f"dashboard matrix, 50 algorithms, first: {best_of(build, repeats)}")
    engine = build()
    values = iter(np.geomspace(0.05, 20, 10 * repeats))

    def new_s() -> None:
        engine.probabilities("idp", float(next(values)), rope, 0.05)

    print(f"dashboard matrix, 50 algorithms, new s: {best_of(new_s, repeats)}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="all", choices=["decisions", "speed", "all"])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"nbstats from {os.path.dirname(nbstats.__file__)}")
    if args.part in ("decisions", "all"):
        decisions()
    if args.part in ("speed", "all"):
        speed(args.repeats)


if __name__ == "__main__":
    main()

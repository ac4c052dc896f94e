"""Time the table model's LaTeX renderer on the largest tables nbstats writes.

Run: python benchmarks/bench_tables.py  (PYTHONPATH at the checkout)
Prints, for 50 algorithms with 40-character names, the time of
``to_latex(venue=...)`` per venue for the post-hoc table (1,225 pairs), the
Bayesian signed-rank pairs (1,225 rows) and the Friedman test's key figures.
"""

from __future__ import annotations

import time
import warnings

import nbstats
from nbstats.results.venues import VENUES
from tests.results.every_kind import score_table


def main() -> None:
    table = score_table(50, n_cases=60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = {
            "posthoc (1,225 pairs)": nbstats.posthoc(table, method="nemenyi"),
            "signrank pairs (1,225)": nbstats.bayes_signrank_pairs(
                table, rope=0.01, n_samples=2000, random_state=0
            ),
            "friedman (key figures)": nbstats.friedman(table),
        }
    for name, res in results.items():
        for venue in VENUES:
            start = time.perf_counter()
            res.to_latex(venue=venue)
            print(f"{name:26s} {venue:10s} {time.perf_counter() - start:6.3f} s")


if __name__ == "__main__":
    main()

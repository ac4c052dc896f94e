"""Module-level (picklable) pieces of the rank-interval studies used in tests."""

from __future__ import annotations

import functools
import math

import nbstats
from nbstats import simulate


def generate(n_cases, n_algorithms, separability, random_state=None):
    return simulate.challenge_scores(
        n_cases, n_algorithms, separability, random_state=random_state
    )


def analyse_all(data, methods, alpha=0.05, n_boot=200):
    scores, _ = data
    return {
        method: nbstats.rank_ci(
            scores, method=method, alpha=alpha, n_resamples=n_boot, random_state=0
        )
        for method in methods
    }


def evaluate(results, data, setting):
    _, truth = data
    row = {}
    for method, res in results.items():
        metrics = simulate.rank_interval_metrics(res.lower, res.upper, truth)
        if not math.isnan(metrics["fwti"]):  # undefined unless all are equal:
            row[f"{method}:fwti"] = metrics["fwti"]  # left out (NaN in the table)
        row[f"{method}:fwp"] = metrics["fwp"]
    return row


def analyser(methods):
    return functools.partial(analyse_all, methods=tuple(methods))

"""Picklable evaluate functions for the racing tests (process pools need them)."""

from __future__ import annotations

import numpy as np

MEANS = np.array([0.1, 0.3, 0.35, 0.6, 0.9])


def noisy_means(candidate: int, instance: int) -> float:
    """Candidate i scores MEANS[i] plus noise seeded by (candidate, instance)."""
    rng = np.random.default_rng([candidate, instance])
    return float(MEANS[candidate] + rng.normal(0, 0.2))


def fails_on_instance_7(candidate: int, instance: int) -> float:
    if candidate == 2 and instance == 7:
        raise ZeroDivisionError("boom")
    return noisy_means(candidate, instance)


def nan_on_instance_3(candidate: int, instance: int) -> float:
    return (
        float("nan")
        if (candidate, instance) == (4, 3)
        else noisy_means(candidate, instance)
    )

"""Score tables with long, hostile and non-ASCII algorithm names, and one result
of every kind computed on them, for the rendering tests of nbstats.results."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nbstats

#: Names a real experiment produces (issue #13), LaTeX specials and accents.
LONG_NAMES = [
    "HistGradientBoostingClassifier(max_iter=300, lr=0.05)",
    "RandomForestClassifier(n_estimators=500, max_features=sqrt)",
    "LogisticRegression(C=1.0, penalty=l2, solver=lbfgs)",
    "k-NN (k=5) & 50% #1",
    "Café_crème über",
    "SVC",
]
#: Names only a Unicode engine with a suitable font typesets (xelatex).
UNICODE_NAMES = ["Ωmega-Net", "Случайный лес"]


def scores(names: list[str], n_cases: int = 40, seed: int = 3) -> pd.DataFrame:
    """Cases × algorithms, better from left to right: Friedman's p < 0.001, the
    pairwise p-values from < 0.001 to 0.9."""
    rng = np.random.default_rng(seed)
    m = len(names)
    data = rng.normal(0.0, 0.02, (n_cases, m)) + np.linspace(0.9, 0.85, m)
    index = pd.Index([f"data set {i:02d}" for i in range(n_cases)], name="case")
    return pd.DataFrame(data, index=index, columns=names)


@pytest.fixture(scope="session")
def long_table() -> pd.DataFrame:
    return scores(LONG_NAMES)


def every_result(table: pd.DataFrame) -> dict[str, object]:
    """One result object of every kind nbstats returns, on ``table``."""
    a, b = table.columns[:2]
    draws = {"n_samples": 2000, "random_state": 0}

    def evaluate(candidate: str, instance: int) -> float:
        return float(table[candidate].iloc[instance % len(table)])

    return {
        "sign_test": nbstats.sign_test(table[a], table[b]),
        "wilcoxon": nbstats.wilcoxon(table[a], table[b]),
        "wilcoxon_approx": nbstats.wilcoxon(table[a], table[b], method="approx"),
        "ttest": nbstats.ttest(table[a], table[b]),
        "friedman": nbstats.friedman(table),
        "rm_anova": nbstats.rm_anova(table),
        "nemenyi": nbstats.posthoc(table, method="nemenyi"),
        "holm_control": nbstats.posthoc(table, method="holm", control=a),
        "pairwise_wilcoxon": nbstats.comparison_matrix(table),
        "bayes_sign_test": nbstats.bayes_sign_test(
            table[a], table[b], rope=0.01, **draws
        ),
        "bayes_signrank": nbstats.bayes_signrank(
            table[a], table[b], rope=0.01, **draws
        ),
        "bayes_signrank_bb": nbstats.bayes_signrank(
            table[a], table[b], prior="bb", **draws
        ),
        "bayes_signrank_pairs": nbstats.bayes_signrank_pairs(table, rope=0.01, **draws),
        "bayes_posthoc": nbstats.bayes_posthoc(table, **draws),
        "bayes_friedman": nbstats.bayes_friedman(table),
        "rank_ci": nbstats.rank_ci(table),
        "race": nbstats.race(
            evaluate,
            list(table.columns),
            range(len(table)),
            method="frace-sign",
            progress=False,
        ),
    }


@pytest.fixture(scope="session")
def long_results(long_table) -> dict[str, object]:
    return every_result(long_table)

"""One result object of every result class nbstats has, at any number of
algorithms with long names: the subjects of the tests of the number policy
and of ``to_latex()`` in a paper (``tests/reporting/test_latex_input.py``)."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

import nbstats
from nbstats.stats.frequentist.assumptions import mauchly

#: Stems of 40-character names: LaTeX specials, camel case, one long word
#: with no break point, accents.
_STEMS = [
    "HistGradientBoostingClassifier(lr=0.05,depth=8)",
    "RandomForest_n_estimators_500_max_features_sqrt",
    "k-NN (k=5) & 50% subsample #1, Euclidean distance",
    "supportvectormachinewithradialbasiskernelgamma",
    "Régression logistique pénalisée (C = 1.0, L2)",
]


def long_names(m: int, length: int = 40) -> list[str]:
    """``m`` distinct names of exactly ``length`` characters."""
    names = []
    for i in range(m):
        stem = _STEMS[i % len(_STEMS)]
        names.append(stem[: length - 3] + f"-{i:02d}")
    return names


def score_table(
    m: int,
    n_cases: int = 30,
    seed: int = 5,
    scale: float = 1.0,
    names: list[str] | None = None,
):
    """Cases × ``m`` algorithms with long names (or ``names``), better from
    left to right."""
    rng = np.random.default_rng(seed)
    data = rng.normal(0.0, 0.03, (n_cases, m)) + np.linspace(0.9, 0.8, m)
    index = pd.Index([f"data set {i:02d}" for i in range(n_cases)], name="case")
    columns = long_names(m) if names is None else names
    return pd.DataFrame(data * scale, index=index, columns=columns)


def _incomplete(table: pd.DataFrame) -> pd.DataFrame:
    """A balanced incomplete design: case i lacks algorithm i (the table as it
    is for two algorithms, which cannot be incomplete)."""
    m = table.shape[1]
    if m < 3:
        return table
    out = pd.concat([table] * (-(-m // len(table))), ignore_index=True).iloc[:m]
    out.index = pd.Index([f"block {i:02d}" for i in range(m)], name="case")
    values = out.to_numpy().copy()
    values[np.arange(m), np.arange(m)] = np.nan
    return pd.DataFrame(values, index=out.index, columns=out.columns)


def _folds(table: pd.DataFrame, seed: int = 2) -> pd.DataFrame:
    """A long table of 2 runs of 5-fold scores per case and algorithm."""
    rng = np.random.default_rng(seed)
    cases = table.index[:8]
    rows = [
        (case, name, run * 5 + fold, table.loc[case, name] + rng.normal(0, 0.01))
        for case in cases
        for name in table.columns
        for run in range(2)
        for fold in range(5)
    ]
    return pd.DataFrame(rows, columns=["case", "algorithm", "fold", "score"])


@functools.cache
def _hierarchical(scale: float) -> object:
    """The hierarchical test on 8 cases × 2 runs of 5 folds, the same at every
    m (its sampler takes longer than all the others together: made once)."""
    rng = np.random.default_rng(11)
    base = rng.uniform(0.7, 0.9, (8, 1))
    a = (base + rng.normal(0, 0.02, (8, 10))) * scale
    b = (base + 0.01 + rng.normal(0, 0.02, (8, 10))) * scale
    return nbstats.bayes_hierarchical(
        a,
        b,
        runs=2,
        rope=0.01 * scale,
        n_samples=200,
        warmup=200,
        chains=2,
        random_state=0,
    )


def every_result(
    m: int, *, scale: float = 1.0, names: list[str] | None = None
) -> dict[str, object]:
    """One result of every class, on ``m`` algorithms with 40-character names
    or ``names`` (scores multiplied by ``scale``)."""
    table = score_table(m, n_cases=max(30, m + 10), scale=scale, names=names)
    a, b = table.columns[:2]
    draws = {"n_samples": 2000, "random_state": 0}
    folds = _folds(table)
    pair = folds[folds["algorithm"].isin([a, b])]
    fold_a = pair[pair["algorithm"] == a]["score"].to_numpy()
    fold_b = pair[pair["algorithm"] == b]["score"].to_numpy()
    rope = 0.01 * scale

    def evaluate(candidate: str, instance: int) -> float:
        return float(table[candidate].iloc[instance % len(table)])

    results = {
        "sign_test": nbstats.sign_test(table[a], table[b]),
        "wilcoxon": nbstats.wilcoxon(table[a], table[b], method="approx"),
        "ttest": nbstats.ttest(table[a], table[b]),
        "effect_size": nbstats.effect_size(table[a], table[b]),
        "friedman": nbstats.friedman(table),
        "friedman_aligned": nbstats.friedman_aligned(table),
        "quade": nbstats.quade(table),
        "rm_anova": nbstats.rm_anova(table),
        "nemenyi": nbstats.posthoc(table, method="nemenyi"),
        "letters": nbstats.letters(nbstats.posthoc(table, method="nemenyi")),
        "holm_control": nbstats.posthoc(table, method="holm", control=a),
        "comparison_matrix": nbstats.comparison_matrix(table),
        "rank_ci": nbstats.rank_ci(table, random_state=0),
        "durbin": nbstats.durbin(_incomplete(table)),
        "skillings_mack": nbstats.skillings_mack(_incomplete(table)),
        "coverage": nbstats.coverage(_incomplete(table)),
        "bayes_sign_test": nbstats.bayes_sign_test(
            table[a], table[b], rope=rope, **draws
        ),
        "bayes_signrank": nbstats.bayes_signrank(
            table[a], table[b], rope=rope, **draws
        ),
        "bayes_signrank_pairs": nbstats.bayes_signrank_pairs(table, rope=rope, **draws),
        "bayes_posthoc": nbstats.bayes_posthoc(table, **draws),
        "bayes_friedman": nbstats.bayes_friedman(table, **draws),
        "plackett_luce": nbstats.bayes_plackett_luce(
            table, n_samples=400, random_state=0
        ),
        "correlated_ttest": nbstats.correlated_ttest(fold_a, fold_b, runs=2),
        "bayes_correlated_ttest": nbstats.bayes_correlated_ttest(
            fold_a, fold_b, runs=2, rope=rope
        ),
        "correlated_pairs": nbstats.correlated_pairs(
            folds,
            case="case",
            algorithm="algorithm",
            score="score",
            fold="fold",
            runs=2,
            rope=rope,
        ),
        "bayes_hierarchical": _hierarchical(scale),
        "analyze": nbstats.analyze(table, n_samples=2000, random_state=0),
        "race": nbstats.race(
            evaluate,
            list(table.columns),
            range(len(table)),
            method="frace-sign",
            progress=False,
        ),
    }
    if m >= 3:
        results["sphericity"] = mauchly(table)
    return results

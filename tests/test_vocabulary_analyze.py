"""analyze() speaks the product's one vocabulary.

Bayesian outcomes: "better" (naming the algorithm), "equivalent",
"undecided", "indeterminate"; frequentist outcomes: "significantly different"
and "not significantly different". Never "no evidence that", "preferred", or
a bare "a" / "b" for an algorithm. Scanned on 2, 8 (long names) and 50
algorithms, with and without a rope.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import nbstats

#: Words the product never uses for an outcome.
BANNED = ("no evidence that", "preferred", "no evidence", "prefer ")
#: A bare "a" or "b" standing for an algorithm: "b − a", "a and b", "(b > a)",
#: "a vs b", "P(b better)", "decisions 'a'", "a better" …
BARE = re.compile(
    r"(?<![\w'])[ab] (?:−|-|>|<|vs\b|and [ab]\b|better|is better)"
    r"|\([ab]\)|\([ab] [−>-]|P\([ab] |'[ab]'|(?<=vs )[ab]\b(?![\w'-])"
)


def _table(k: int, n: int, *, long: bool = False, seed: int = 0) -> pd.DataFrame:
    """k algorithms on n cases, a small trend so that some pairs differ."""
    rng = np.random.default_rng(seed)
    names = (
        [f"algorithm with a rather long name, number {j}" for j in range(k)]
        if long
        else [f"alg{j}" for j in range(k)]
    )
    values = rng.normal(0.8, 0.05, (n, k)) + np.linspace(0, 0.05, k)
    return pd.DataFrame(values, columns=names)


def _own_words(res) -> str:
    """What analyze itself writes: its paragraph, its log, its head."""
    head = res.summary().split("\n\n")[0]
    return "\n".join([res.text, res.log.to_string(), head])


CASES = {
    "2 algorithms": dict(k=2, n=30),
    "2 algorithms, no difference": dict(k=2, n=8),
    "8 long names": dict(k=8, n=30, long=True),
    "50 algorithms": dict(k=50, n=30),
    "4 algorithms, 5 cases": dict(k=4, n=5),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def analysis(request):
    spec = dict(CASES[request.param])
    table = _table(spec.pop("k"), spec.pop("n"), **spec)
    return nbstats.analyze(table, random_state=0, n_samples=2000, rope=0.01)


def test_analyze_never_uses_the_banned_words(analysis):
    text = _own_words(analysis).lower()
    for banned in BANNED:
        assert banned not in text, banned
    found = BARE.findall(_own_words(analysis))
    assert not found, found


def test_frequentist_outcomes_are_significantly_different_or_not(analysis):
    frequentist = analysis.text.split(" The Bayesian")[0]
    assert "better" not in frequentist  # the word of a Bayesian decision
    if analysis.n_algorithms == 2:
        a, b = analysis.effect_sizes.loc[0, ["a", "b"]]
        significant = analysis.pairwise.pvalue <= analysis.alpha
        said = f"It found {a} and {b} {'' if significant else 'not '}significantly different"
        assert said in frequentist
    elif analysis.pairwise is not None:
        pairs = analysis.pairwise.significant_pairs()
        if pairs:
            assert f"{len(pairs)} of " in frequentist
            assert "pairs significantly different: " in frequentist
            better, worse = pairs[0]
            assert f"{better} over {worse} (" in frequentist
        else:
            assert "no pair significantly different" in frequentist
    else:
        assert "did not reject equal performance" in frequentist


def test_the_two_sample_results_name_the_algorithms(analysis):
    if analysis.n_algorithms != 2:
        pytest.skip("two algorithms")
    summary = analysis.pairwise.summary()
    a, b = analysis.effect_sizes.loc[0, ["a", "b"]]
    assert f"(H1: {a} and {b} differ)" in summary
    if hasattr(analysis.pairwise, "mean_difference"):
        assert f"mean difference ({b} − {a})" in summary
    assert not BARE.findall(summary), BARE.findall(summary)


def test_a_bayesian_decision_names_the_algorithm_or_says_which_outcome(analysis):
    if analysis.n_algorithms != 2:
        pytest.skip("one Bayesian decision")
    line = next(
        row for row in analysis.bayes.summary().splitlines() if "decision" in row
    )
    a, b = analysis.effect_sizes.loc[0, ["a", "b"]]
    decision = line.split(":", 1)[1].strip()
    assert decision.startswith(
        (f"{a} better", f"{b} better", "undecided", "indeterminate")
    ) or ("equivalent" in decision), decision


def test_without_a_rope_undecided_does_not_say_no_evidence():
    # two algorithms with the same scores but for noise: no region reaches 0.95
    table = _table(2, 10, seed=3)
    table.iloc[:, 1] = table.iloc[:, 0] + np.random.default_rng(1).normal(0, 1e-3, 10)
    res = nbstats.analyze(table, random_state=0, n_samples=2000, rope=0.0)
    assert res.bayes.decision == "undecided"
    summary = str(res)
    assert "no evidence" not in summary
    assert "undecided: neither alg1 nor alg0 reaches the threshold" in summary


def test_the_whole_summary_has_no_bare_a_or_b():
    res = nbstats.analyze(_table(4, 12, seed=1), random_state=0, n_samples=2000)
    found = BARE.findall(str(res))
    assert not found, found

"""Compact letter display: validity by brute force, and R's multcompView."""

from __future__ import annotations

import itertools
import subprocess

import numpy as np
import pandas as pd
import pytest

import nbstats
from tests.conftest import unavailable


def _random_reject(k: int, density: float, seed: int) -> tuple[pd.DataFrame, pd.Series]:
    rng = np.random.default_rng(seed)
    names = [f"alg{i}" for i in range(k)]
    upper = np.triu(rng.random((k, k)) < density, 1)
    reject = pd.DataFrame(upper | upper.T, index=names, columns=names)
    ranks = pd.Series(np.arange(1.0, k + 1), index=names)
    return reject, ranks


def _valid(shown: pd.Series, reject: pd.DataFrame) -> bool:
    for x, y in itertools.combinations(reject.index, 2):
        share = bool(set(shown[x]) & set(shown[y]))
        if share == bool(reject.loc[x, y]):
            return False
    return all(shown[x] for x in reject.index)


@pytest.mark.parametrize("seed", range(40))
def test_letters_are_valid_and_irredundant(seed):
    k = 3 + seed % 8
    reject, ranks = _random_reject(k, density=[0.2, 0.5, 0.8][seed % 3], seed=seed)
    shown = nbstats.letters(reject, ranks).letters
    assert _valid(shown, reject)
    used = sorted(set("".join(shown)))
    for letter in used:  # no letter can go without breaking the display
        fewer = shown.str.replace(letter, "", regex=False)
        assert not _valid(fewer, reject), letter


def test_the_best_algorithm_gets_a():
    table = nbstats.datasets.load("uci_accuracy")
    res = nbstats.posthoc(table, method="nemenyi")
    shown = nbstats.letters(res).letters
    assert shown.index[0] == res.mean_ranks.idxmin()
    assert shown.iloc[0].startswith("a")


def test_no_difference_is_one_letter_and_all_differences_many():
    names = list("ABCD")
    none = pd.DataFrame(False, index=names, columns=names)
    ranks = pd.Series([1.0, 2, 3, 4], index=names)
    assert nbstats.letters(none, ranks).letters.tolist() == ["a"] * 4
    every = pd.DataFrame(~np.eye(4, dtype=bool), index=names, columns=names)
    assert nbstats.letters(every, ranks).letters.tolist() == ["a", "b", "c", "d"]


def test_more_than_52_letters():
    names = [f"x{i}" for i in range(60)]
    every = pd.DataFrame(~np.eye(60, dtype=bool), index=names, columns=names)
    shown = nbstats.letters(every, pd.Series(np.arange(60.0), index=names)).letters
    assert shown.iloc[25:28].tolist() == ["z", "A", "B"]
    assert shown.iloc[52:54].tolist() == ["aa", "ab"]
    assert shown.is_unique


def test_bad_input():
    table = nbstats.datasets.load("demsar2006")
    against = nbstats.posthoc(table, method="holm", control="C4.5")
    with pytest.raises(ValueError, match="against a control"):
        nbstats.letters(against)
    with pytest.raises(ValueError, match="mean_ranks"):
        nbstats.letters(pd.DataFrame(False, index=["A", "B"], columns=["A", "B"]))


def test_same_groups_as_multcompview(run_r):
    probe = subprocess.run(
        ["Rscript", "-e", "quit(status = !requireNamespace('multcompView'))"],
        capture_output=True,
    )
    if probe.returncode != 0:
        unavailable("R package multcompView (apt-get install r-cran-multcompview)")
    cases = [_random_reject(3 + s % 6, [0.3, 0.6][s % 2], 100 + s) for s in range(30)]
    calls = []
    for reject, _ in cases:
        pairs = list(itertools.combinations(reject.index, 2))
        values = ", ".join("TRUE" if reject.loc[x, y] else "FALSE" for x, y in pairs)
        labels = ", ".join(f'"{x}-{y}"' for x, y in pairs)
        calls.append(
            f"{{v <- c({values}); names(v) <- c({labels}); "
            "l <- multcompView::multcompLetters(v)$Letters; "
            'paste0(\'"\', paste(names(l), l, sep = "=", collapse = ";"), \'"\')}'
        )
    script = (
        f"out <- c({', '.join(calls)})\n"
        'cat(paste0("[", paste(out, collapse = ","), "]"))\n'
    )
    answers = run_r(script)
    for (reject, ranks), answer in zip(cases, answers, strict=True):
        theirs = dict(item.split("=") for item in answer.split(";"))
        ours = nbstats.letters(reject, ranks).letters

        def groups(assignment):
            letters = set("".join(assignment.values()))
            return {
                frozenset(n for n, s in assignment.items() if letter in s)
                for letter in letters
            }

        assert _valid(pd.Series(theirs), reject)
        assert len(groups(ours.to_dict())) <= len(groups(theirs))

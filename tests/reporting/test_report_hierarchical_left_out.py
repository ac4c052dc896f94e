"""The hierarchical section with a pair left with fewer than 2 data sets
(``min_folds``): that pair is left out and listed with the reason, in the
text, the table's caption and Methods; the other pairs are still tested.

The data: the AutoML benchmark's small suite (tests/data/automl/README.md),
three frameworks; on every task but one, oboe's folds 0-1 and autosklearn's
folds 8-9 blanked, so that each keeps 8 scored folds (the score table stays
complete) but the two share at most 6: that pair keeps one data set with 8
paired folds. The oracle counts the kept data sets of every pair with pandas.
"""

from __future__ import annotations

import itertools
import re
import warnings

import pandas as pd
import pytest

import nbstats
from nbstats.reporting import hierarchical as section
from nbstats.reporting import report_text
from tests.real_tables import amlb_small_accuracy_folds

pytest.importorskip("numpyro")

AMLB = {"case": "task", "algorithm": "framework", "score": "acc", "fold": "fold"}
K = 8
FRAMEWORKS = ["autosklearn", "H2OAutoML", "oboe"]


@pytest.fixture(scope="module")
def blanked() -> pd.DataFrame:
    """Three frameworks; autosklearn and oboe share at most 6 scored folds
    except on one task (one where oboe has all 10)."""
    data = amlb_small_accuracy_folds()
    data = data[data.framework.isin(FRAMEWORKS)].copy()
    oboe = data.framework == "oboe"
    complete = data[oboe].groupby("task")["acc"].count()
    keep_task = complete.index[complete == 10][0]
    elsewhere = data.task != keep_task
    blank = elsewhere & (
        (oboe & (data.fold <= 1))
        | ((data.framework == "autosklearn") & (data.fold >= 8))
    )
    data.loc[blank, "acc"] = float("nan")
    return data


def _kept(data: pd.DataFrame) -> dict[frozenset, int]:
    """The data sets of each pair with at least K folds both scored:
    the two frameworks' scored rows merged on (task, fold), by pandas."""
    scored = data[data["acc"].notna()]
    kept = {}
    for a, b in itertools.combinations(FRAMEWORKS, 2):
        both = scored[scored.framework == a].merge(
            scored[scored.framework == b], on=["task", "fold"]
        )
        per_task = both.groupby("task").size()
        kept[frozenset((a, b))] = int((per_task >= K).sum())
    return kept


def test_the_oracle_sees_the_constructed_holes(blanked):
    kept = _kept(blanked)
    assert kept[frozenset(("autosklearn", "oboe"))] == 1
    assert kept[frozenset(("H2OAutoML", "oboe"))] >= 2
    assert kept[frozenset(("autosklearn", "H2OAutoML"))] == 16


def test_bayes_hierarchical_says_which_pair_and_how_many(blanked):
    from nbstats.stats.hierarchical import TooFewDataSetsError

    with pytest.raises(TooFewDataSetsError, match="needs at least 2 data sets") as info:
        nbstats.bayes_hierarchical(
            "autosklearn", "oboe", data=blanked, **AMLB, runs=1, min_folds=K
        )
    error = info.value
    assert isinstance(error, ValueError)  # as before, for callers that catch it
    assert (error.name_a, error.name_b, error.kept) == ("autosklearn", "oboe", 1)
    assert len(error.left_out) == blanked.task.nunique() - 1
    assert error.min_folds == K
    # each left-out data set's paired folds, by pandas (oboe's own failures
    # make some fewer than the 6 left by the blanking)
    scored = blanked[blanked["acc"].notna()]
    both = scored[scored.framework == "autosklearn"].merge(
        scored[scored.framework == "oboe"], on=["task", "fold"]
    )
    paired = both.groupby("task").size().reindex(blanked.task.unique(), fill_value=0)
    assert error.left_out.set_index("case")["folds"].to_dict() == {
        task: n for task, n in paired.items() if n < K
    }


@pytest.fixture(scope="module")
def text(blanked) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return report_text(
            blanked, **AMLB, runs=1, min_folds=K, nan_policy="pairwise",
            analyses=("frequentist",), hierarchical=True,
        )  # fmt: skip


def test_the_report_leaves_the_pair_out_and_says_why(blanked, text):
    kept = _kept(blanked)
    n_tasks = blanked.task.nunique()
    section_text = text[text.index("Across data sets: the Bayesian hierarchical") :]
    section_text = section_text[: section_text.index("Methods\n")]
    tested = re.findall(r"^(\S+ vs \S+)\s{2,}\d", section_text, flags=re.M)
    skipped = set(re.findall(r"(\S+) vs (\S+) \(only (\d+) data set has", section_text))
    # every pair considered is either tested or left out, never both
    assert tested and skipped
    for b, a, _ in skipped:
        assert kept[frozenset((a, b))] < 2
        assert f"{b} vs {a}" not in tested
    for name in tested:
        b, a = name.split(" vs ")
        assert kept[frozenset((a, b))] >= 2
    # the reason, with the counts of the pandas oracle
    for b, a, n in skipped:
        assert int(n) == kept[frozenset((a, b))]
        assert (
            f"{b} vs {a} (only {n} data set has at least {K} folds both scored; "
            f"{n_tasks - int(n)} have fewer)"
        ) in " ".join(text.split())
    flat = " ".join(text.split())
    left = len(skipped)
    sentence = (
        "With failed folds, the model, which needs at least 2 data sets, left "
        f"out {left} pair{'s' if left != 1 else ''}:"
    )
    # in the text, the table's caption and Methods
    assert flat.count(sentence) == 3, flat.count(sentence)
    methods = flat[flat.index("Methods ") :]
    assert sentence in methods
    # each pair tested has the data sets the oracle counts
    for name in tested:
        b, a = name.split(" vs ")
        row = re.search(rf"^{re.escape(name)}\s+(\d+)", section_text, flags=re.M)
        assert int(row.group(1)) == kept[frozenset((a, b))]


def test_no_pair_with_two_data_sets_leaves_a_paragraph(blanked):
    with_oboe = [("autosklearn", "oboe")]
    long = blanked.rename(
        columns={"task": "case", "framework": "algorithm", "acc": "score"}
    )
    tests = section.hierarchical_tests(
        long, with_oboe, runs=1, rope=0.01, loss=(1, 19), seed=0, min_folds=K
    )
    assert tests.results == ()
    assert [(p.name_a, p.name_b, p.datasets) for p in tests.skipped] == [
        ("autosklearn", "oboe", 1)
    ]
    methods = section.hierarchical_methods(tests).text()
    assert "was requested across data sets but not run" in methods
    assert "oboe vs autosklearn (only 1 data set has at least 8" in methods

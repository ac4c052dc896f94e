"""Aliases for long algorithm names (nbstats.scores.names)."""

import pandas as pd
import pytest

from nbstats.scores.aliases import MAX_NAME_LENGTH, alias_legend, letters, make_aliases
from nbstats.scores.names import check_names

LONG = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"


def test_letters_follow_spreadsheet_columns():
    # closed form: 26 single letters, then 26 * 26 two-letter labels
    labels = letters(26 + 26 * 26 + 1)
    assert labels[:3] == ["A", "B", "C"]
    assert labels[25:28] == ["Z", "AA", "AB"]
    assert labels[26 + 26 * 26 - 1] == "ZZ"
    assert labels[-1] == "AAA"
    assert len(set(labels)) == len(labels)
    assert letters(0) == []
    with pytest.raises(ValueError, match="count must be >= 0"):
        letters(-1)


def test_auto_switches_on_above_the_length_limit():
    short = ["x" * MAX_NAME_LENGTH, "SVM"]
    assert make_aliases(short) == {n: n for n in short}
    mixed = ["x" * (MAX_NAME_LENGTH + 1), "SVM"]
    assert make_aliases(mixed) == {mixed[0]: "A", "SVM": "SVM"}
    assert make_aliases(mixed, max_length=30) == {n: n for n in mixed}


def test_auto_gives_letters_only_to_the_long_names():
    """One long name no longer turns svm_C into a letter (issue 27, item 4);
    letters go to the long names in order, skipping one that is a name."""
    long_a, long_b = LONG, "RandomForestClassifier(n_estimators=500)"
    names = ["svm_C", long_a, "A", "rf", long_b]
    mapping = make_aliases(names)
    assert mapping == {"svm_C": "svm_C", long_a: "B", "A": "A", "rf": "rf", long_b: "C"}
    legend = alias_legend(mapping)
    assert list(legend.index) == ["B", "C"]
    assert list(legend["algorithm"]) == [long_a, long_b]
    # forced either way, as before
    assert list(make_aliases(names, True).values()) == ["A", "B", "C", "D", "E"]
    assert make_aliases(names, False) == {n: n for n in names}
    assert alias_legend(make_aliases(names, False)).empty


@pytest.mark.parametrize(("option", "expected"), [(True, ["A", "B"]), (False, None)])
def test_forced_either_way(option, expected):
    names = [LONG, "SVM"]
    got = list(make_aliases(names, option).values())
    assert got == (expected or names)
    assert list(make_aliases(names, None).values()) == names


def test_hundred_algorithms_get_unique_aliases():
    names = [f"{LONG} #{i}" for i in range(100)]
    mapping = make_aliases(names)
    assert list(mapping) == names
    assert len(set(mapping.values())) == 100
    assert mapping[names[26]] == "AA"


def test_user_aliases_and_long_names_they_leave_out():
    names = [LONG, "RandomForestClassifier(n_estimators=500)", "SVM"]
    mapping = make_aliases(names, {LONG: "HGB"})
    assert mapping == {LONG: "HGB", names[1]: "A", "SVM": "SVM"}
    # a letter the user took is not handed out again
    mapping = make_aliases(names, {LONG: "A"})
    assert mapping[names[1]] == "B"


@pytest.mark.parametrize(
    ("aliases", "error", "match"),
    [
        ({"nope": "N"}, ValueError, "not in the table"),
        ({"SVM": ""}, ValueError, "empty"),
        ({"SVM": 3}, TypeError, "must be a string"),
        ({"SVM": "RF"}, ValueError, "unique"),
        ("sometimes", ValueError, "aliases must be 'auto'"),
    ],
)
def test_bad_aliases_are_refused_with_the_fix(aliases, error, match):
    with pytest.raises(error, match=match):
        make_aliases(["RF", "SVM"], aliases)


def test_duplicate_names_are_refused():
    with pytest.raises(ValueError, match="unique"):
        make_aliases(["RF", "RF"])


def test_legend_lists_only_the_renamed():
    legend = alias_legend({LONG: "A", "SVM": "SVM"})
    assert list(legend.index) == ["A"]
    assert legend.loc["A", "algorithm"] == LONG
    assert legend.index.name == "alias"


# -- check_names: names every output can show -----------------------------------


def test_check_names_accepts_numbers_and_printable_text():
    check_names(pd.DataFrame({"A": [1.0], "β (γ=0.1)": [2.0], 3: [4.0]}))
    check_names(pd.DataFrame([[1.0, 2.0]]))  # a RangeIndex and integer columns


@pytest.mark.parametrize("code", [*range(0x20), 0x7F, *range(0x80, 0xA0)])
def test_check_names_refuses_every_control_character(code):
    name = f"a{chr(code)}b"
    with pytest.raises(ValueError, match="control character") as info:
        check_names(pd.DataFrame({name: [1.0], "c": [2.0]}))
    assert repr(name) in str(info.value)

"""Runs of letters written "first–last" (nbstats.results.letters)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.results.letters import RUN_FROM, compact_letters, group_labels


def _expand(text: str, labels: list[str]) -> list[int]:
    """The group indices that a compact string stands for, read as a reader
    reads it: "x–y" is every label from x to y in the labels' order."""
    position = {label: k for k, label in enumerate(labels)}
    spaced = " " in text or "–" in text or len(labels) > 52
    parts = text.split(" ") if spaced else list(text)
    found: list[int] = []
    for part in parts:
        if "–" in part:
            first, last = part.split("–")
            found.extend(range(position[first], position[last] + 1))
        else:
            found.append(position[part])
    return found


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 79), min_size=1), st.sampled_from([30, 52, 80]))
def test_compact_letters_read_back_to_the_same_groups(indices, count):
    labels = group_labels(count)
    chosen = sorted(i for i in indices if i < count) or [0]
    text = compact_letters(chosen, labels)
    assert _expand(text, labels) == chosen
    # a run shorter than RUN_FROM is never shortened
    for run in re.findall(r"(\S+)–(\S+)", text):
        first, last = (labels.index(x) for x in run)
        assert last - first + 1 >= RUN_FROM


def test_labels_are_distinct_and_in_the_documented_order():
    labels = group_labels(80)
    assert len(set(labels)) == 80
    assert labels[:3] == ["a", "b", "c"] and labels[26:28] == ["A", "B"]
    assert labels[51:54] == ["Z", "aa", "ab"]


def test_real_table_compact_letters_match_the_raw_letters():
    # 100 classifiers of Fernández-Delgado et al. (2014) with no missing
    # score: 37 groups, letters of up to 17 characters
    table = nbstats.datasets.load("fernandez_delgado2014")
    table = table[table.isna().sum().sort_values(kind="stable").index[:100]]
    res = nbstats.letters(nbstats.posthoc(table, method="nemenyi"))
    labels = group_labels(len(res.groups))
    assert len(res.groups) > 26  # the run crosses from z to A somewhere
    longest = res.letters.str.len().max()
    assert res.compact.str.len().max() < longest
    for name, raw in res.letters.items():
        assert "".join(labels[k] for k in _expand(res.compact[name], labels)) == raw
    # every display of the result shows the compact form
    assert "b–" in res.summary() or "a–" in res.summary()
    assert res.compact.iloc[50] in res._repr_html_()


def test_short_runs_and_the_letters_series_are_unchanged():
    scores = nbstats.datasets.load("demsar2006")
    res = nbstats.letters(nbstats.posthoc(scores, method="nemenyi", alpha=0.10))
    assert res.compact.to_dict() == res.letters.to_dict()
    assert isinstance(res.letters, pd.Series)


@pytest.mark.parametrize("count", [1, 26, 52, 53, 700])
def test_group_labels_count(count):
    labels = group_labels(count)
    assert len(labels) == count and len(set(labels)) == count
    assert all(np.char.isalpha(labels))

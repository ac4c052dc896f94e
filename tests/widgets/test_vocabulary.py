"""Every dashboard says its decisions in the product's one vocabulary.

Bayesian: "<algorithm> better" (naming it), "equivalent", "undecided",
"indeterminate"; frequentist: "significantly different" / "not significantly
different"; never a bare "a"/"b" ("b better", "P(b)", "keep a"),
"prefer(red)", "no evidence" or a bare "significant". Each test drives a
dashboard through settings where every outcome occurs (checked on its
``result``, not on the text), then reads its rendered text — the text and
tooltips of every HTML view and every SVG picture in the widget tree — and
looks for the words of each outcome it decided.
"""

from __future__ import annotations

import re
import warnings
from html.parser import HTMLParser

import pytest

import nbstats
from nbstats.widgets.bayes import BayesDashboard
from nbstats.widgets.folds import FoldDashboard
from nbstats.widgets.frequentist import FrequentistDashboard
from nbstats.widgets.ranks import RankDashboard

#: Words no dashboard may show.
FORBIDDEN = re.compile(
    r"\b[ab] better\b|\bbetter than [ab]\b|\bP\([ab]\b|\bkeep [ab]\b"
    r"|\bprefer|\bno evidence\b|\bsignificant\b"
)


class _Text(HTMLParser):
    """Text nodes and tooltips (title attributes) of HTML or SVG."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag == "style":
            self._skip += 1
        self.parts.extend(value for name, value in attrs if name == "title" and value)

    def handle_endtag(self, tag):
        if tag == "style":
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def rendered_text(board) -> str:
    """What a reader sees of the dashboard: every HTML view and SVG picture."""
    parser = _Text()

    def walk(widget):
        value = getattr(widget, "value", None)
        if type(widget).__name__ == "HTML" and isinstance(value, str):
            parser.feed(value)
        for output in getattr(widget, "outputs", ()):
            svg = output.get("data", {}).get("image/svg+xml")
            if svg:
                parser.feed(svg)
        for child in getattr(widget, "children", ()):
            walk(child)

    board.wait()
    walk(board.widget)
    return "\n".join(parser.parts)


def assert_no_forbidden_words(text: str) -> None:
    found = sorted({m.group(0) for m in FORBIDDEN.finditer(text)})
    assert not found, f"words outside the vocabulary: {found}"


def test_bayes_dashboard_words_for_every_outcome():
    table = nbstats.datasets.load("demsar2006")
    board = BayesDashboard(table, n_samples=5000, random_state=0)
    seen = set()
    for settings in (
        {"loss_ratio": 19.0, "rope": 0.0},  # b, a and undecided
        {"loss_ratio": 1.0, "rope": 0.0},  # indeterminate
        {"loss_ratio": 1.0, "rope": 0.02},  # equivalent
    ):
        board.set(**settings)
        assert board.error is None
        text = rendered_text(board)
        assert_no_forbidden_words(text)
        for row in board.result["pairs"].itertuples(index=False):
            seen.add(row.decision)
            if row.decision in ("a", "b"):
                better = row.b if row.decision == "b" else row.a
                assert f"{better} better" in text
            else:
                assert row.decision in text
        selected = board.result["selected"]
        expected = {"b": selected.name_b, "a": selected.name_a}.get(selected.decision)
        decision_line = f"→ {expected} better" if expected else selected.decision
        assert decision_line in text  # the posterior picture's decision line
    assert seen == {"a", "b", "equivalent", "undecided", "indeterminate"}


def test_fold_dashboard_words_for_every_outcome():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = FoldDashboard(
            nbstats.datasets.load("uci_accuracy_folds"),
            case="dataset",
            algorithm="classifier",
            score="accuracy",
            fold="fold",
            runs=10,
        )
    a, b = board.controls["a"].value, board.controls["b"].value
    seen = set()
    for rope in (0.0, 0.01):
        board.controls["rope"].value = rope
        assert board.error is None
        text = rendered_text(board)
        assert_no_forbidden_words(text)
        words = {"a": f"{a} better", "b": f"{b} better"}
        for decision, cases in board.result["counts"].items():
            if cases:
                seen.add(decision)
                assert words.get(decision, decision) in text
    assert seen == {"a", "b", "equivalent", "undecided"}


@pytest.mark.parametrize("m", [4, 30])
def test_frequentist_dashboard_says_significantly_different_or_not(m):
    if m == 4:
        table = nbstats.datasets.load("demsar2006")
    else:
        import numpy as np
        import pandas as pd

        rng = np.random.default_rng(5)
        table = pd.DataFrame(
            rng.normal(size=(20, m)) + np.linspace(0, 3, m),
            columns=[f"alg{j}" for j in range(m)],
        )
    board = FrequentistDashboard(table)
    board.set(method="holm", control=str(table.columns[0]))
    reject = board.result["posthoc"].reject
    assert reject.any() and not reject.all()  # both outcomes occur
    text = rendered_text(board)
    assert_no_forbidden_words(text)
    assert "significantly different" in text
    assert "not significantly different" in text
    board.set(method="nemenyi", control=None)
    text = rendered_text(board)
    assert_no_forbidden_words(text)
    assert "not significantly different" in text  # the groups' note


def test_rank_dashboard_uses_no_other_words():
    board = RankDashboard(nbstats.datasets.load("demsar2006"))
    board.controls["methods"].value = ("bootstrap", "id-wilcoxon-2s")
    assert_no_forbidden_words(rendered_text(board))

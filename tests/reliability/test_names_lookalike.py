"""Names that look the same, names that show nothing, bidi controls (issue 30, 12).

The attack found identical-looking names accepted ("café" composed and
decomposed; "A" and "A\\u200b"), invisible names accepted (only U+200B, U+FEFF
or a combining mark), and a name with U+202E that reversed the rest of its line
in the HTML report. The rule (nbstats.scores.names): names equal after dropping the
characters that show nothing, NFKC normalisation and collapsing whitespace are
refused; names that show nothing are refused; explicit bidirectional controls
are control characters. The oracle of "equal" is Python's ``unicodedata``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.scores.aliases import make_aliases
from nbstats.scores.names import check_names, is_blank, lookalike_key

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u200e", "\u2060", "\ufeff", "\u00ad", "\ufe0f", "\u034f", "\U000e0041"]  # fmt: skip
BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]  # fmt: skip


def table(columns: list[Any], index: list[Any] | None = None) -> pd.DataFrame:
    index = index or [f"d{i}" for i in range(6)]
    values = np.random.default_rng(0).uniform(size=(len(index), len(columns)))
    return pd.DataFrame(values, index=index, columns=columns)


FAST = {"n_samples": 1000, "random_state": 0}
ENTRY_POINTS: dict[str, Callable[[pd.DataFrame], Any]] = {
    "score_table": nbstats.score_table,
    "friedman": nbstats.friedman,
    "posthoc": nbstats.posthoc,
    "bayes_signrank_pairs": lambda t: nbstats.bayes_signrank_pairs(t, **FAST),
    "accessor.friedman": lambda t: t.compare.friedman(),
    "wilcoxon": lambda t: nbstats.wilcoxon(t.iloc[:, 0], t.iloc[:, 1]),
}

LOOKALIKES = {
    "NFC vs NFD": ("caf\u00e9", "cafe\u0301"),
    "zero width space": ("A", "A\u200b"),
    "byte order mark": ("A", "\ufeffA"),
    "soft hyphen": ("RF", "R\u00adF"),
    "variation selector": ("A", "A\ufe0f"),
    "full width": ("A", "\uff21"),
    "ligature": ("fit", "\ufb01t"),
    "no-break space": ("a b", "a\u00a0b"),
    "double space": ("a b", "a  b"),
    "word joiner": ("SVM", "SV\u2060M"),
}


@pytest.mark.parametrize("pair", LOOKALIKES.values(), ids=LOOKALIKES)
@pytest.mark.parametrize("function", ENTRY_POINTS.values(), ids=ENTRY_POINTS)
def test_lookalike_algorithm_names_are_refused(function, pair):
    with pytest.raises(ValueError, match="look the same") as info:
        function(table([pair[0], pair[1], "C"]))
    # the message shows how they differ: their code points
    assert ascii(pair[1]) in str(info.value) or repr(pair[1]) in str(info.value)


@pytest.mark.parametrize("pair", LOOKALIKES.values(), ids=LOOKALIKES)
def test_lookalike_case_names_are_refused(pair):
    with pytest.raises(ValueError, match="case names .* look the same"):
        nbstats.friedman(table(["A", "B"], index=["x", "y", "z", pair[0], pair[1]]))


BLANK = {
    "zero width space": "\u200b",
    "byte order mark": "\ufeff",
    "combining mark": "\u0301",
    "two invisibles": "\u200b\u200d",
    "space and joiner": " \u2060 ",
    "variation selector": "\ufe0f",
    "hangul filler": "\u3164",
    "braille blank": "\u2800",
}


@pytest.mark.parametrize("name", BLANK.values(), ids=BLANK)
@pytest.mark.parametrize("function", ENTRY_POINTS.values(), ids=ENTRY_POINTS)
def test_names_that_show_nothing_are_refused(function, name):
    with pytest.raises(ValueError, match="empty or blank") as info:
        function(table([name, "A", "C"]))
    assert name not in str(info.value)  # shown escaped, by repr


@pytest.mark.parametrize("char", BIDI, ids=[f"U+{ord(c):04X}" for c in BIDI])
@pytest.mark.parametrize("function", ENTRY_POINTS.values(), ids=ENTRY_POINTS)
def test_bidi_controls_are_control_characters(function, char):
    name = f"B{char}x"
    with pytest.raises(ValueError, match="control character") as info:
        function(table(["A", name, "C"]))
    assert repr(name) in str(info.value) and char not in str(info.value)


@pytest.mark.parametrize("char", ["\u202e", "\u2067"], ids=["RLO", "RLI"])
def test_bidi_controls_in_case_and_axis_names(char):
    with pytest.raises(ValueError, match="case name .* control character"):
        nbstats.friedman(table(["A", "B"], index=["x", f"y{char}", "z"]))
    t = table(["A", "B"])
    t.index.name = f"data{char}set"
    with pytest.raises(ValueError, match="index name .* control character"):
        nbstats.friedman(t)


def test_index_name_that_looks_like_an_algorithm():
    t = table(["A", "caf\u00e9"])
    t.index.name = "cafe\u0301"
    with pytest.raises(ValueError, match="like the algorithm column"):
        nbstats.score_table(t)


def test_real_unicode_names_stay_accepted():
    names = [
        "Árbol",
        "SVM (γ=0.1)",
        "随机森林",
        "a b",
        "شبكة",
        "עץ",
        "👍🏽",
        "क्ष",
        "e\u0301x",
    ]
    res = nbstats.friedman(table(names))
    assert list(res.mean_ranks.index) == names
    # ZWJ inside an emoji sequence or ZWNJ inside a Persian word is kept
    joined = ["👩\u200d💻", "می\u200cخواهم", "B"]
    assert list(nbstats.score_table(table(joined)).columns) == joined


def test_aliases_follow_the_same_rule():
    with pytest.raises(ValueError, match="empty or blank"):
        make_aliases(["A", "B"], {"A": "\u200b"})
    with pytest.raises(ValueError, match="look the same"):
        make_aliases(["Long1", "Long2"], {"Long1": "X", "Long2": "X\u200b"})


# ---------------------------------------------------------------- properties

NAME_CHARS = st.characters(
    codec="utf-8", exclude_categories=("Cc", "Cs", "Cf", "Zl", "Zp", "Mn", "Me", "Mc")
)
NAMES = st.text(NAME_CHARS, min_size=1, max_size=8).filter(
    lambda s: (
        not is_blank(s)
        and lookalike_key(s) == " ".join(unicodedata.normalize("NFKC", s).split())
    )
)


@settings(max_examples=150, deadline=None)
@given(NAMES, st.sampled_from(INVISIBLE), st.integers(min_value=0, max_value=8))
def test_any_name_with_an_invisible_character_looks_like_it(name, char, at):
    at = min(at, len(name))
    other = name[:at] + char + name[at:]
    with pytest.raises(ValueError, match="look the same"):
        check_names(table([name, other]))


@settings(max_examples=150, deadline=None)
@given(NAMES, st.sampled_from(["NFC", "NFD", "NFKC", "NFKD"]))
def test_any_two_names_that_normalise_equal_are_refused(name, form):
    other = unicodedata.normalize(form, name)
    assume(other != name)
    with pytest.raises(ValueError, match="look the same"):
        check_names(table([name, other]))


@settings(max_examples=150, deadline=None)
@given(NAMES, NAMES)
@example("a b", "a  b")
@example("A", "\uff21")
@example("caf\u00e9", "cafe\u0301")
@example("x\u00b2", "x2")
@example("A", "a")
def test_names_are_refused_exactly_when_their_forms_agree(a, b):
    """Oracle: NFKC, whitespace collapsed, format characters dropped."""
    assume(a != b)

    def form(s: str) -> str:
        return " ".join(unicodedata.normalize("NFKC", s).split())

    if form(a) == form(b):
        with pytest.raises(ValueError, match="look the same"):
            check_names(table([a, b]))
    else:
        check_names(table([a, b]))


@settings(max_examples=150, deadline=None)
@given(
    st.text(
        st.sampled_from([*INVISIBLE, " ", "\u3000", "\u0301", "\u0308", "\u20dd"]),
        min_size=0,
        max_size=6,
    )
)
def test_any_name_of_invisibles_spaces_and_marks_is_blank(name):
    with pytest.raises(ValueError, match="empty or blank"):
        check_names(table(["A", name]))


def test_report_refuses_lookalikes_before_any_work(tmp_path):
    target = tmp_path / "r.html"
    with pytest.raises(ValueError, match="look the same"):
        nbstats.reporting.report(table(["A", "A\u200b", "C"]), target)
    assert not target.exists()


def test_cli_refuses_lookalike_headers(tmp_path, capsys):
    from nbstats.cli.commands import main

    path = tmp_path / "scores.csv"
    header = "case,caf\u00e9,cafe\u0301,C"
    rows = [header] + [f"d{i},{i % 3},{(i + 1) % 4},{i % 5}" for i in range(6)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code = main(["analyze", str(path), "--case", "case"])
    err = capsys.readouterr().err
    assert code == 2
    assert "look the same" in err and "cafe\\u0301" in err

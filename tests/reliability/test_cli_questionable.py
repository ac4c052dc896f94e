"""Issue 34's questionable points on the command line and names, settled:

- ``--format pdf -o x.html`` wrote a PDF into ``x.html``: a path whose suffix
  names another format is refused (the command line and ``report()``); a
  suffix that names no format (``x.txt``) takes the format given;
- titles accepted U+202E, which names refuse: titles (and ``--score-unit``,
  the dashboard's title) now refuse every character names refuse;
- Cyrillic "а" and Latin "a" were two algorithms: the Cyrillic and Greek
  letters drawn like Latin ones are folded into the look-alike key, so two
  names equal but for them are refused like other look-alikes, naming both.
"""

# ruff: noqa: F811  (the fixtures of tests/cli_helpers.py are parameters)
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.reporting import export
from nbstats.reporting import report as real_report
from nbstats.reporting.settings import check_title
from nbstats.scores.aliases import make_aliases
from nbstats.scores.names import CONFUSABLES, CONTROL_CHARACTERS, check_names
from tests.cli_helpers import calls, run, wide_csv  # noqa: F401  (fixtures)

# -- a report's suffix and its format ------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "output"),
    [("pdf", "x.html"), ("html", "x.pdf"), ("tex", "x.ipynb"), ("ipynb", "x.HTM")],
)
def test_a_suffix_of_another_format_is_refused(fmt, output, wide_csv, tmp_path, calls,
                                                capsys):  # fmt: skip
    target = tmp_path / output
    code, _, err = run(["report", wide_csv, "--format", fmt, "-o", target], capsys)
    assert code == 2
    assert f"argument --format: {fmt}, but -o {target} ends in" in err
    assert f"Give -o {Path(output).stem}.{fmt}" in err
    assert calls == []
    assert not target.exists()
    with pytest.raises(ValueError, match="would hold a .* report under the wrong name"):
        real_report(  # (the fixture replaces nbstats.reporting.report)
            nbstats.datasets.load("demsar2006"), target, format=fmt
        )
    assert not target.exists()


@pytest.mark.parametrize(
    ("fmt", "output"), [("pdf", "x.pdf"), ("pdf", "x.report"), ("html", "x")]
)
def test_a_matching_or_unknown_suffix_is_taken(fmt, output, wide_csv, tmp_path, calls,
                                              capsys):  # fmt: skip
    target = tmp_path / output
    code, _, err = run(["report", wide_csv, "--format", fmt, "-o", target], capsys)
    assert code == 0, err
    assert calls[0][2]["format"] == fmt
    assert export.resolve_format(target, fmt) == fmt


# -- titles refuse what names refuse -------------------------------------------------

controls = st.characters(
    codec="utf-8", categories=None, exclude_characters=None
).filter(lambda c: CONTROL_CHARACTERS.match(c) is not None)


printable = st.text(st.characters(categories=("L", "N", "P", "S")), max_size=20)


@settings(max_examples=200, deadline=None)
@given(printable, controls, printable)
def test_a_title_refuses_every_character_a_name_refuses(before, char, after):
    title = f"T{before}{char}{after}"
    with pytest.raises(ValueError, match=re.escape(f"U+{ord(char):04X}")):
        check_title(title)
    with pytest.raises(ValueError, match="control character"):
        check_names(pd.DataFrame({title: [1.0], "B": [2.0]}))


@pytest.mark.parametrize("char", ["\u202e", "\u202a", "\u2066", "\u2069", "\u2028"])
def test_the_title_option_refuses_a_bidi_control(char, wide_csv, calls, capsys):
    code, _, err = run(["analyze", wide_csv, "--title", f"Results{char}evil"], capsys)
    assert code == 2
    assert (
        f"argument --title: the title has a control character (U+{ord(char):04X}" in err
    )
    code, _, err = run(["analyze", wide_csv, "--score-unit", f"pp{char}"], capsys)
    assert code == 2
    assert calls == []


def test_the_dashboard_title_refuses_it_too(tmp_path):
    from nbstats.app.server import build_notebook

    with pytest.raises(ValueError, match="U\\+202E RIGHT-TO-LEFT OVERRIDE"):
        build_notebook(tmp_path / "s.csv", kind="ranks", title="a\u202eb")


# -- confusables ---------------------------------------------------------------------

LATIN = {latin: chr(code) for code, latin in CONFUSABLES.items()}
folded = "".join(sorted(set(LATIN)))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=folded + "0123456789_-", min_size=1, max_size=12), st.data())
def test_names_equal_but_for_a_confusable_letter_are_refused(name, data):
    positions = [i for i, c in enumerate(name) if c in LATIN]
    if not positions:
        return
    chosen = data.draw(st.lists(st.sampled_from(positions), min_size=1, unique=True))
    twin = "".join(
        LATIN[c] if i in chosen else c for i, c in enumerate(name)
    )  # a letter of another script, drawn alike
    assert twin != name
    with pytest.raises(ValueError, match="look the same") as error:
        check_names(pd.DataFrame([[1.0, 2.0]], columns=[name, twin]))
    assert repr(name) in str(error.value) and repr(twin) in str(error.value)
    with pytest.raises(ValueError, match="look the same"):  # case names too
        check_names(pd.DataFrame({"A": [1.0, 2.0]}, index=[name, twin]))
    with pytest.raises(ValueError, match="aliases must be unique"):
        make_aliases(["x", "y"], {"x": name, "y": twin})


def test_the_issue_pair_is_refused_by_the_command_line(tmp_path, calls, capsys):
    path = tmp_path / "s.csv"
    path.write_text("case,a,\u0430,b\nx,1,2,3\ny,2,3,4\nz,3,1,5\n", encoding="utf-8")
    code, _, err = run(["analyze", path], capsys)
    assert code == 2
    assert "algorithm names 'a' and 'а' (code points '\\u0430') look the same" in err
    assert calls == []


@pytest.mark.parametrize(
    "names",
    [["α-SVM", "β-SVM"], ["Сеть", "Set"], ["A", "Б"], ["ΔN", "DN"], ["k-NN", "κ-NN"]],
)
def test_names_of_other_scripts_that_differ_stay_apart(names):
    check_names(pd.DataFrame([[1.0, 2.0]], columns=names))


# -- the fast path of the name check agrees with the key -------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab ", max_size=5), min_size=1, max_size=6))
def test_ascii_names_are_refused_exactly_when_their_keys_clash(names):
    names = [n for n in names if n.strip()]
    if not names or len(set(names)) != len(names):
        return
    keys = [" ".join(n.split()) for n in names]
    frame = pd.DataFrame(np.ones((1, len(names))), columns=names)
    if len(set(keys)) < len(keys):
        with pytest.raises(ValueError, match="look the same"):
            check_names(frame)
    else:
        check_names(frame)

"""User text reaching a report or a dashboard page is data, never markup or
code (issue 30, findings 10, 11, 13 and 16).

- 10: a file name or title reaches Markdown cells escaped: no live link;
- 11: exported CSV cells that a spreadsheet would run as formulas are
  defused with a leading ``'``; numbers are left as they are;
- 13: index names (and every user value) are written into the notebook as
  data: ``np.int64(3)``, NaN and ``Timestamp`` names do not break a report;
- 16: titles are checked before any work; fold keys stay tuples.

The reports are small (3 algorithms x 5 cases) and HTML or text.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import re

import nbformat
import numpy as np
import pandas as pd
import pytest
from nbconvert.filters.markdown_mistune import markdown2html_mistune

import nbstats
import nbstats.reporting
from nbstats.app.server import build_notebook as dashboard_notebook
from nbstats.reporting import export
from nbstats.reporting.csv_safety import defuse_cell, defuse_csv
from nbstats.reporting.notebook import build_notebook
from nbstats.reporting.settings import (
    MAX_TITLE,
    check_title,
    escape_markdown,
    python_value,
    unpickled,
)

JS_NAME = "[clickme](javascript:alert(document.domain)).csv"
FORMULAS = ["=cmd|' /C calc'!A0", '+HYPERLINK("http://x")', "@SUM(1+1)"]


def small_table(columns=("A", "B", "C"), seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        rng.uniform(0.5, 0.9, size=(5, len(columns))),
        index=pd.Index([f"c{i}" for i in range(5)], name="case"),
        columns=list(columns),
    )


def links(html_text: str) -> list[str]:
    return re.findall(r"<a\b[^>]*>", html_text)


# -- finding 10: Markdown ------------------------------------------------------


def test_the_dashboard_page_shows_a_file_name_as_text(tmp_path):
    nb = dashboard_notebook(tmp_path / JS_NAME, kind="ranks")
    rendered = markdown2html_mistune(nb.cells[0].source)
    assert "javascript:" not in "".join(links(rendered))
    assert [a for a in links(rendered) if "anchor-link" not in a] == []
    # and the reader sees the name as it is
    assert "[clickme](javascript:alert(document.domain)).csv" in rendered


@pytest.mark.parametrize(
    "text",
    [
        "[t](javascript:alert(1))",
        "<img src=x onerror=alert(1)>",
        "**bold** _it_ `code` $x$ www.example.com http://a.b",
        "line\n# heading\n```",
        "![i](http://x/y.png) <https://x.y> a\\b",
    ],
)
def test_escaped_markdown_renders_as_the_text_itself(text):
    rendered = markdown2html_mistune(escape_markdown(text))
    assert links(rendered) == []
    assert re.findall(r"<(?!/?p>)[a-z]", rendered) == [], rendered
    shown = text.replace("\n", " ")
    assert html.unescape(re.sub(r"</?p>", "", rendered)).strip() == shown


def test_the_dashboard_page_writes_names_as_literals(tmp_path):
    nb = dashboard_notebook(
        tmp_path / "s.csv",
        kind="folds",
        case=np.str_("data"),
        algorithm="algo",
        score="acc",
        fold=(np.str_("run"), "fold"),
        runs=np.int64(2),
    )
    code = nb.cells[1].source
    assert "np." not in code
    compile(code, "page", "exec")
    assert "fold=['run', 'fold'], runs=2" in code


def test_the_report_title_cell_shows_the_title_as_text():
    settings = nbstats.reporting.notebook.make_settings(
        small_table(),
        title="[x](javascript:alert(1)) <b>y</b>",
        analyses=("frequentist",),
        higher_is_better=True,
        alpha=0.05,
        threshold=0.95,
        s=None,
        rope=0.0,
        loss=(1, 19),
        random_state=0,
    )
    nb = build_notebook(small_table(), settings)
    rendered = markdown2html_mistune(nb.cells[0].source)
    assert [a for a in links(rendered) if "anchor-link" not in a] == []
    assert "<b>" not in rendered


# -- finding 11: CSV formula injection ------------------------------------------


@pytest.mark.parametrize("cell", [*FORMULAS, "-x", "\tcmd", "\r=1", "-1+cmd|x"])
def test_a_formula_cell_is_defused(cell):
    assert defuse_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-0.5", "+1e-3", "-inf", "-12", "nan", "C4.5", ""])
def test_numbers_and_names_are_left_alone(cell):
    assert defuse_cell(cell) == cell


def test_defused_csv_keeps_every_other_cell_and_is_idempotent():
    frame = pd.DataFrame(
        {"a": FORMULAS, "b": ["x, y", 'say "hi"', "B"], "d": [-0.5, 1e-300, -7.0]}
    )
    text = defuse_csv(frame.to_csv(lineterminator="\n"))
    assert defuse_csv(text) == text
    back = pd.read_csv(io.StringIO(text), index_col=0)
    assert back["a"].tolist() == ["'" + f for f in FORMULAS]
    assert back["b"].tolist() == frame["b"].tolist()
    assert back["d"].tolist() == frame["d"].tolist()  # numbers as they were


@pytest.fixture(scope="module")
def compact_report(tmp_path_factory):
    """An executed compact report (it offers CSV files) of formula names."""
    table = small_table(columns=FORMULAS)
    settings = nbstats.reporting.notebook.make_settings(
        table,
        title="Formulas",
        analyses=("frequentist", "bayesian"),
        higher_is_better=True,
        alpha=0.05,
        threshold=0.95,
        s=None,
        rope=0.0,
        loss=(1, 19),
        random_state=0,
        layout="compact",
        aliases={},
    )
    settings = nbstats.reporting.notebook.dataclasses.replace(settings, n_samples=2000)
    nb = build_notebook(table, settings, figure_formats=("svg",))
    return export.execute_notebook(nb)


def _cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _unsafe(text: str) -> list[str]:
    """Cells a spreadsheet would run (OWASP's list), told without nbstats."""
    starts = ("=", "+", "-", "@", "\t", "\r")
    return [c for c in _cells(text) if c.startswith(starts) and not _number(c)]


def test_the_html_download_links_hold_no_formula(compact_report, tmp_path):
    body, _ = export.export_notebook(compact_report, "html", stem="r")
    payloads = re.findall(r"data:text/csv;charset=utf-8;base64,([A-Za-z0-9+/=]+)",
                          body.decode())  # fmt: skip
    assert payloads, "the compact report offers its tables as CSV"
    for payload in payloads:
        text = base64.b64decode(payload).decode()
        assert _unsafe(text) == []
        assert "'" + FORMULAS[0] in _cells(text)


def test_the_tables_folder_holds_no_formula(compact_report):
    _, extras = export.export_notebook(compact_report, "tex", stem="r")
    files = {k: v.decode() for k, v in extras.items() if k.endswith(".csv")}
    assert files, "the LaTeX report writes its CSV tables"
    for name, text in files.items():
        assert _unsafe(text) == [], name
        numbers = [c for c in _cells(text) if re.fullmatch(r"-\d[\d.e-]*", c)]
        # the negative numbers (effect sizes, differences) stay numbers
        assert all(not c.startswith("'") for c in numbers)


def test_the_executed_notebook_holds_no_formula(compact_report):
    body, _ = export.export_notebook(compact_report, "ipynb", stem="r")
    nb = nbformat.reads(body.decode(), as_version=4)
    for meta in export._outputs_metadata(nb, "csv"):
        assert _unsafe(meta["csv"]) == []


# -- finding 13: user values written as data ------------------------------------


@pytest.mark.parametrize(
    "value",
    [np.int64(3), float("nan"), pd.Timestamp("2024-01-02"), ("run", np.int64(2)),
     np.float32(0.5), None, "it's", {"a": 1}],
)  # fmt: skip
def test_a_python_value_is_read_back_identical(value):
    source = python_value(value)
    report = type("report", (), {"unpickled": staticmethod(unpickled)})
    back = eval(source, {"report": report, "__builtins__": {}})
    if isinstance(value, float) and np.isnan(value):
        assert np.isnan(back)
    else:
        assert back == value
        assert type(back) is type(value)


@pytest.mark.parametrize(
    "name", [np.int64(3), float("nan"), pd.Timestamp("2024-01-02")], ids=str
)
def test_a_report_takes_any_index_name(name):
    # the attack's way to get np.int64: integer column labels, set_index
    frame = small_table().reset_index(drop=True)
    frame.insert(0, "c", [f"c{i}" for i in range(5)])
    frame.columns = pd.Index(np.arange(4, dtype=np.int64))
    table = frame.set_index(frame.columns[0])
    assert type(table.index.name) is np.int64
    table.columns = ["A", "B", "C"]
    table.index.name = name
    text = nbstats.reporting.report_text(table, analyses=("frequentist",))
    assert "Friedman" in text


# -- finding 16: titles up front, fold keys as tuples ---------------------------


@pytest.mark.parametrize(
    ("title", "message"),
    [
        ("Results\x1b[31m red", r"control character \(U\+001B ESCAPE\) at position 8"),
        ("a\x00b", r"U\+0000 NULL"),
        ("two\nlines", r"U\+000A LINE FEED"),
        ("x" * 5000, rf"5,000 characters, more than the {MAX_TITLE}"),
        ("   ", "blank"),
    ],
)
def test_a_bad_title_is_refused_before_any_work(title, message, tmp_path, monkeypatch):
    def no_kernel(*args, **kwargs):
        raise AssertionError("a kernel was started")

    monkeypatch.setattr(export, "execute_notebook", no_kernel)
    with pytest.raises(ValueError, match=message):
        nbstats.reporting.report(small_table(), tmp_path / "r.pdf", title=title)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match=message):
        check_title(title)


def test_a_long_title_at_the_limit_is_kept():
    assert check_title("x" * MAX_TITLE) == "x" * MAX_TITLE


def test_the_dashboard_checks_its_title(tmp_path):
    with pytest.raises(ValueError, match="ESCAPE"):
        dashboard_notebook(tmp_path / "s.csv", kind="ranks", title="a\x1bb")


def fold_data(run_names, fold_names) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    rows = [
        (f"d{i}", algo, run, fold, rng.uniform(0.5, 0.9) + 0.03 * j)
        for i in range(5)
        for j, algo in enumerate("ABC")
        for run in run_names
        for fold in fold_names
    ]
    return pd.DataFrame(rows, columns=["data", "algo", "run", "fold", "acc"])


def test_fold_keys_that_join_alike_stay_apart():
    # ("a|b", "c") and ("a", "b|c") are two folds, as (r2, f2) and (r1, f1)
    kw = dict(case="data", algorithm="algo", score="acc", fold=["run", "fold"],
              analyses=("frequentist",))  # fmt: skip
    joined = nbstats.reporting.report_text(fold_data(["a", "a|b"], ["b|c", "c"]), **kw)
    plain = nbstats.reporting.report_text(fold_data(["r1", "r2"], ["f1", "f2"]), **kw)
    assert "2 runs of 2-fold cross-validation" in joined
    assert joined == plain

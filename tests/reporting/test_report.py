"""nbstats.reporting.report end to end: notebook, HTML, LaTeX, PDF; hostile names;
missing TeX; atomic writes.

Each report executes a notebook in a fresh kernel (seconds), so the reports are
built once per module and shared.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest

import nbstats
import nbstats.reporting
from nbstats.reporting import MissingToolError, ReportError, export, notebook
from nbstats.results.number_policy import format_number
from tests.conftest import require_executable

HOSTILE = ["<img src=x onerror=alert(1)>", "a_b & 50% $x$", "C#{~^}\\"]
HOSTILE_TITLE = "Hostile <script>alert(2)</script> & 100% $z$"


def _friedman_text(table: pd.DataFrame) -> str:
    """The Friedman statistic as the report prints it: the number policy's
    statistic, at most 2 decimals (9.28, as Demšar 2006 prints it)."""
    return format_number(nbstats.friedman(table).statistic, "statistic")


def _files(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


def _normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def table6() -> pd.DataFrame:
    return nbstats.datasets.load("demsar2006")


@pytest.fixture(scope="module")
def hostile_table() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    return pd.DataFrame(
        rng.random((8, 3)) + [0.2, 0.1, 0.0],
        index=[f"case {i} <i>&amp;</i> 10% $y$" for i in range(8)],
        columns=HOSTILE,
    )


@pytest.fixture(scope="module")
def html_report(tmp_path_factory, table6):
    out = tmp_path_factory.mktemp("html") / "demsar.html"
    path = nbstats.reporting.report(table6, out, title="Demšar (2006), Table 6")
    return path, path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def ipynb_report(tmp_path_factory, table6):
    """Lower is better (negated scores) and non-default settings, as a notebook."""
    out = tmp_path_factory.mktemp("ipynb") / "lower.ipynb"
    path = nbstats.reporting.report(
        -table6,
        out,
        title="Lower is better",
        higher_is_better=False,
        alpha=0.1,
        threshold=0.9,
        s=2.5,
        rope=0.01,
        loss=(1, 9),
        random_state=7,
    )
    return path, nbformat.read(path, as_version=4)


@pytest.fixture(scope="module")
def hostile_executed(hostile_table):
    """The hostile report's notebook, executed once and exported many times."""
    settings = notebook.make_settings(
        hostile_table,
        title=HOSTILE_TITLE,
        analyses=notebook.ANALYSES,
        higher_is_better=True,
        alpha=0.05,
        threshold=0.95,
        s=None,
        rope=0.0,
        loss=(1, 19),
        random_state=0,
    )
    nb = notebook.build_notebook(nbstats.score_table(hostile_table), settings)
    return export.execute_notebook(nb)


# -- argument checks (no kernel) ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kwargs", "message"),
    [
        ("x.docx", {}, "cannot tell the report format"),
        ("x.html", {"format": "docx"}, "unknown report format"),
        ("x.html", {"analyses": ("frequentist", "magic")}, "unknown analyses"),
        ("x.html", {"analyses": ()}, "at least one"),
        ("x.html", {"alpha": 1.5}, "alpha must lie"),
        ("x.html", {"threshold": 0}, "threshold must be"),
        ("x.html", {"s": -1}, "s must be a number >= 0"),
        ("x.html", {"rope": -0.1}, "rope"),
        ("x.html", {"loss": (1, -19)}, "loss must be a pair"),
        ("x.html", {"random_state": -3}, "random_state"),
    ],
)
def test_bad_arguments_are_refused_before_anything_runs(
    tmp_path, table6, name, kwargs, message
):
    with pytest.raises(ValueError, match=message):
        nbstats.reporting.report(table6, tmp_path / name, **kwargs)
    assert _files(tmp_path) == []


def test_bad_types_and_places(tmp_path, table6):
    with pytest.raises(TypeError, match="random_state"):
        nbstats.reporting.report(
            table6, tmp_path / "x.html", random_state=np.random.default_rng(0)
        )
    with pytest.raises(TypeError, match="title"):
        nbstats.reporting.report(table6, tmp_path / "x.html", title=3)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        nbstats.reporting.report(table6, tmp_path / "nowhere" / "x.html")
    (tmp_path / "folder.html").mkdir()
    with pytest.raises(IsADirectoryError, match="it is a directory"):
        nbstats.reporting.report(table6, tmp_path / "folder.html")
    (tmp_path / "folder.html").rmdir()
    with pytest.raises(ValueError, match="missing"):  # score_table's own message
        nbstats.reporting.report(table6.where(table6 > 0.6), tmp_path / "x.html")
    assert _files(tmp_path) == []


def test_format_from_suffix_or_argument():
    assert export.resolve_format(Path("a.HTML"), None) == "html"
    assert export.resolve_format(Path("a.ipynb"), None) == "ipynb"
    assert export.resolve_format(Path("a.tex"), None) == "tex"
    assert export.resolve_format(Path("a.txt"), "PDF") == "pdf"


def test_a_report_gives_the_collector_back_every_object(tmp_path, table6):
    """The report keeps the collector off the objects it started with
    (util.collector) and gives them back: nothing stays frozen, and a cycle
    made before it is collected after it."""
    import gc
    import weakref

    class Node:
        pass

    node = Node()
    node.self = node
    watched = weakref.ref(node)
    del node
    nbstats.reporting.report(table6, tmp_path / "r.html")
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert watched() is None


def test_nbstats_report_is_the_function_and_the_package_is_reporting():
    """README's call: ``nbstats.report(df, "r.html")`` is the function; the
    package behind it is ``nbstats.reporting``, a plain module."""
    import types

    import nbstats.reporting

    assert callable(nbstats.report)
    assert nbstats.report is nbstats.reporting.report
    assert nbstats.report_text is nbstats.reporting.report_text
    assert type(nbstats.reporting) is types.ModuleType
    assert not hasattr(nbstats, "build_report")
    with pytest.raises(ValueError, match="unknown report format"):
        nbstats.reporting.report(
            nbstats.datasets.load("demsar2006"), "x.html", format="doc"
        )


# -- the notebook --------------------------------------------------------------------


def test_builder_makes_valid_code_for_every_subset_of_analyses(table6):
    import itertools

    for k in range(1, 4):
        for analyses in itertools.combinations(notebook.ANALYSES, k):
            settings = notebook.make_settings(
                table6,
                title=None,
                analyses=analyses,
                higher_is_better=True,
                alpha=0.05,
                threshold=0.95,
                s=None,
                rope=0.0,
                loss=(1, 19),
                random_state=0,
            )
            nb = notebook.build_notebook(table6, settings)
            nbformat.validate(nb)
            for cell in nb.cells:
                if cell.cell_type == "code":
                    ast.parse(cell.source)
            code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
            assert ("nbstats.friedman(" in code) == ("frequentist" in analyses)
            assert ("nbstats.bayes_posthoc(" in code) == ("bayesian" in analyses)
            assert ("nbstats.rank_ci(" in code) == ("ranks" in analyses)


def test_notebook_embeds_the_data_and_hides_all_code(ipynb_report, table6):
    path, nb = ipynb_report
    assert path.suffix == ".ipynb" and path.is_absolute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all("remove-input" in c.metadata["tags"] for c in code)
    assert all(c.get("execution_count") for c in code)  # executed
    title_cell = nb.cells[0]
    assert title_cell.cell_type == "markdown"
    assert title_cell.metadata["tags"] == ["remove-cell"]
    assert nb.metadata["title"] == "Lower is better"
    # the CSV in the notebook reproduces the scores exactly
    data_cell = next(c for c in code if "SCORES_CSV =" in c.source)
    namespace: dict = {}
    exec(data_cell.source.split("raw = ")[0], namespace)
    embedded = notebook.read_scores(namespace["SCORES_CSV"], index_name="data set")
    np.testing.assert_array_equal(embedded.to_numpy(), (-table6).to_numpy())
    assert list(embedded.columns) == list(table6.columns)
    assert list(embedded.index) == list(table6.index)
    for setting in (
        "HIGHER_IS_BETTER = False",
        "ALPHA = 0.1",
        "THRESHOLD = 0.9",
        "S = 2.5",
        "ROPE = 0.01",
        "LOSS = (1.0, 9.0)",
        "SEED = 7",
    ):
        assert setting in data_cell.source


def _plain_outputs(nb) -> str:
    texts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            assert output.output_type != "error"
            texts.append(output.get("data", {}).get("text/plain", ""))
            texts.append(output.get("text", ""))
    return "\n".join(texts)


def test_notebook_results_follow_the_settings(ipynb_report, table6):
    _, nb = ipynb_report
    text = _plain_outputs(nb)
    # negated scores, lower is better: the same ranks, the same Friedman test
    assert _friedman_text(table6) in text
    assert "Lower scores are better" in text
    for expected in [
        "lower scores being better",
        "prior of strength s = 2.5 on",
        "region of practical equivalence (rope) of ±0.01 in the scores' units",
        "(l0, l1) = (1, 9)",
        "posterior draws in batches (50,000 for every pair, more until each "
        "probability's Monte Carlo standard error was below 0.002, at most "
        "62,501; seed 7)",
        "62,501 joint draws of the Dirichlet weights (seed 7)",
        # the answer-first paragraph cites Friedman, Demšar and Nemenyi first
        "Nemenyi test [3] at α = 0.1",
    ]:
        assert expected in text, expected
    kinds = [
        o.metadata["nbstats"]["kind"]
        for c in nb.cells
        for o in c.get("outputs", [])
        if "nbstats" in o.get("metadata", {})
    ]
    # + the answer-first summary and Plackett–Luce's table and figure
    assert kinds.count("table") == 9 and kinds.count("figure") == 4
    assert kinds[-1] == "references"
    figures = [
        o
        for c in nb.cells
        for o in c.get("outputs", [])
        if o.get("metadata", {}).get("nbstats", {}).get("kind") == "figure"
    ]
    for output in figures:
        assert set(output.data) == {"text/html", "application/pdf", "text/plain"}
        assert 'src="data:image/svg+xml;base64,' in output.data["text/html"]


def test_few_cases_bayesian_only(tmp_path):
    """n < m: no Bayesian Friedman test (it needs n >= m), and the report says so."""
    table = pd.DataFrame(
        [[0.1, 0.4, 0.3, 0.2], [0.2, 0.5, 0.1, 0.3], [0.3, 0.6, 0.2, 0.1]],
        columns=list("ABCD"),
    )
    path = nbstats.reporting.report(
        table, tmp_path / "few.ipynb", analyses=["bayesian"]
    )
    text = _plain_outputs(nbformat.read(path, as_version=4))
    assert "needs at least as many cases as algorithms" in text
    assert "Nemenyi" not in text and "rank_ci" not in text
    assert _files(tmp_path) == ["few.ipynb"]


# -- HTML ----------------------------------------------------------------------------


def test_html_is_self_contained_and_complete(html_report, table6):
    path, html = html_report
    assert _files(path.parent) == [path.name]
    assert 'src="http' not in html and "src='http" not in html
    assert "<script src=" not in html and "<script" not in html
    assert not re.search(r"<link[^>]+href=[\"']?(https?:)?//", html)
    assert "require.js" not in html and "mathjax" not in html.lower()
    srcs = re.findall(r'<img[^>]*\bsrc="([^"]*)"', html)
    # Figure 1 (CD diagram), the joint heatmap, Plackett–Luce, rank intervals
    assert len(srcs) == 4 and all(
        s.startswith("data:image/svg+xml;base64,") for s in srcs
    )
    assert "<style" in html  # the CSS is inline
    assert "Demšar (2006), Table 6" in html
    assert _friedman_text(table6) in html  # 9.28
    for name in table6.columns:
        assert name in html
    for caption in ("Table 1.", "Table 7.", "Figure 1.", "Figure 3."):
        assert caption in html
    assert '<h1 id="references">References</h1>' in html
    assert "Methods" in html and "Benavoli" in html
    # no code is shown
    assert "nbstats.friedman(" not in html and "SCORES_CSV" not in html


def test_html_scores_table_marks_the_best(html_report):
    _, html = html_report
    scores = re.search(r'<table class="nbstats-table nbstats-scores">.*?</table>', html)
    assert scores is not None
    mean_row = re.search(r'<tr class="nbstats-mean-rank">(.*?)</tr>', scores.group())
    assert mean_row.group(1).count("<strong>") == 1
    assert "<strong>1.96</strong>" in mean_row.group(1)  # a rank: 2 decimals


def test_html_shows_hostile_names_literally(hostile_executed, tmp_path):
    path = export.write_report(hostile_executed, tmp_path / "hostile.html", "html")
    html = path.read_text(encoding="utf-8")
    assert "<img src=x" not in html
    assert "<script" not in html  # not even the title's
    assert html.count("&lt;img src=x onerror=alert(1)&gt;") >= 5
    assert "a_b &amp; 50% $x$" in html
    assert "Hostile &lt;script&gt;alert(2)&lt;/script&gt; &amp; 100% $z$" in html
    assert "case 0 &lt;i&gt;&amp;amp;&lt;/i&gt; 10% $y$" in html


# -- LaTeX and PDF ---------------------------------------------------------------------


def _xelatex(tex: Path) -> subprocess.CompletedProcess:
    xelatex = require_executable(
        "xelatex", "apt-get install texlive-xetex texlive-fonts-recommended"
    )
    return subprocess.run(
        [xelatex, "-interaction=nonstopmode", "-halt-on-error", tex.name],
        cwd=tex.parent,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def tex_report(tmp_path_factory, table6):
    require_executable("pandoc", "apt-get install pandoc")
    out = tmp_path_factory.mktemp("tex") / "paper report.tex"
    return nbstats.reporting.report(table6, out, title="Demšar & co: 100% $x$")


def test_tex_writes_bib_figures_and_tables(tex_report):
    directory = tex_report.parent
    files = _files(directory)
    assert "paper report.tex" in files and "paper_report.bib" in files
    figures = [f for f in files if f.startswith("paper_report_files/")]
    # Figure 1 (CD), the joint heatmap, Plackett–Luce and the rank intervals
    assert len(figures) == 4 and all(f.endswith(".pdf") for f in figures)
    tables = sorted(
        f for f in files if f.startswith("paper_report_tables/") and f.endswith(".tex")
    )
    # the other figures a paper may include, set for the venue (article: one
    # column, no wide variant)
    pasted = sorted(
        Path(f).name
        for f in files
        if f.startswith("paper_report_tables/") and not f.endswith(".tex")
    )
    assert pasted == [
        "figure-joint.pdf",
        "figure-plackett-luce.pdf",
        "figure-ranks.pdf",
    ]
    assert [Path(t).name for t in tables] == sorted(
        f"{n}.tex"
        for n in (
            "scores",
            "omnibus",
            "friedman",
            "bayes_friedman",
            "nemenyi",
            "holm",
            "signrank",
            "joint",
            "ranks",
            "core",  # the answer-first part's table (Table 1)
            "plackett-luce",
        )
    )
    tex = tex_report.read_text(encoding="utf-8")
    assert r"\title{Demšar \& co: 100\% \$x\$}" in tex
    assert r"\begin{thebibliography}" in tex and r"\cite{demsar2006}" in tex
    assert r"\caption{Critical-difference diagram" in tex
    assert "nbstats.friedman" not in tex  # no code
    bib = (directory / "paper_report.bib").read_text(encoding="utf-8")
    assert "@article{demsar2006," in bib and "@inproceedings{benavoli2015," in bib


def test_tex_compiles_with_xelatex(tex_report, tmp_path):
    work = tmp_path / "compile"
    shutil.copytree(tex_report.parent, work)
    done = _xelatex(work / tex_report.name)
    assert done.returncode == 0, done.stdout[-3000:]
    log = (work / "paper report.log").read_text(encoding="utf-8", errors="replace")
    assert "Missing character" not in log


def test_every_table_file_can_be_input_alone(tex_report, tmp_path):
    work = tmp_path / "alone"
    shutil.copytree(tex_report.parent, work)
    tables = sorted((work / "paper_report_tables").glob("*.tex"))
    body = "\n".join(
        f"\\input{{paper_report_tables/{t.name}}}\\clearpage" for t in tables
    )
    (work / "paper.tex").write_text(
        "\\documentclass{article}\n"
        "\\usepackage{booktabs,longtable,xltabular,graphicx,amsmath}\n"
        f"\\begin{{document}}\n{body}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    for table in tables:
        assert table.read_text(encoding="utf-8").startswith(
            "% Table written by nbstats"
        )
    done = _xelatex(work / "paper.tex")
    assert done.returncode == 0, done.stdout[-3000:]


def _pdftotext(pdf: Path) -> str:
    pdftotext = require_executable("pdftotext", "apt-get install poppler-utils")
    done = subprocess.run(
        [pdftotext, "-layout", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    )
    return _normalised(done.stdout)


def test_pdf_report(tmp_path, table6):
    require_executable("xelatex", "apt-get install texlive-xetex")
    require_executable("pandoc", "apt-get install pandoc")
    path = nbstats.reporting.report(
        table6, tmp_path / "demsar.pdf", title="Table 6 again"
    )
    # the answer-first part's table and figure beside it, for a paper
    # (Figure 1 set for the paper's venue, article by default: a column wide,
    # as PDF, SVG and TikZ)
    figures = ("figure-1.pdf", "figure-1.svg", "figure-1.tex")
    core = [f"demsar_core/{name}" for name in figures]
    core += [f"demsar_core/{name}" for name in ("summary.csv", "summary.tex")]
    # and the other figures a paper may include, set for the same venue
    pasted = [
        f"demsar_tables/figure-{name}.pdf"
        for name in ("joint", "plackett-luce", "ranks")
    ]
    assert _files(tmp_path) == [
        "demsar.bib",
        "demsar.pdf",
        "demsar_core",
        *core,
        "demsar_tables",
        *pasted,
    ]
    assert path.read_bytes().startswith(b"%PDF")
    text = _pdftotext(path)
    assert "Table 6 again" in text
    assert _friedman_text(table6) in text
    for name in table6.columns:
        assert name in text
    assert "References" in text and "Demšar" in text


def test_pdf_shows_hostile_names_literally(hostile_executed, hostile_table, tmp_path):
    require_executable("xelatex", "apt-get install texlive-xetex")
    require_executable("pandoc", "apt-get install pandoc")
    path = export.write_report(hostile_executed, tmp_path / "hostile.pdf", "pdf")
    text = _pdftotext(path)
    assert _normalised(HOSTILE_TITLE) in text
    for name in [*HOSTILE, *hostile_table.index]:
        assert _normalised(name) in text, name
    assert _friedman_text(hostile_table) in text


# -- missing TeX, atomic writes -------------------------------------------------------------


def test_missing_tex_is_a_clear_error_and_writes_nothing(tmp_path, table6, monkeypatch):
    monkeypatch.setattr(
        export, "LATEX_COMMAND", ["nbstats-no-such-xelatex", "{filename}"]
    )
    with pytest.raises(MissingToolError) as info:
        nbstats.reporting.report(table6, tmp_path / "x.pdf")
    error = info.value
    assert isinstance(error, OSError) and isinstance(error, RuntimeError)
    message = str(error)
    assert "nbstats-no-such-xelatex" in message
    assert "format='html'" in message
    assert (
        "texlive-xetex texlive-fonts-recommended texlive-plain-generic pandoc"
        in message
    )
    assert _files(tmp_path) == []


def test_tex_vanishing_during_export_writes_nothing(
    tmp_path, hostile_executed, monkeypatch
):
    """The check before execution passed, then xelatex is gone at export time."""
    require_executable("pandoc", "apt-get install pandoc")
    monkeypatch.setattr(
        export, "LATEX_COMMAND", ["nbstats-no-such-xelatex", "{filename}"]
    )
    with pytest.raises(MissingToolError, match="format='html'"):
        export.write_report(hostile_executed, tmp_path / "x.pdf", "pdf")
    assert _files(tmp_path) == []


def test_missing_pandoc_is_a_clear_error(monkeypatch):
    real_which = shutil.which
    monkeypatch.setattr(
        export.shutil,
        "which",
        lambda name: None if name == "pandoc" else real_which(name),
    )
    with pytest.raises(MissingToolError, match="pandoc"):
        export.check_tools("tex")
    export.check_tools("html")  # HTML needs neither


def test_failed_export_leaves_everything_as_it_was(
    tmp_path, table6, ipynb_report, monkeypatch
):
    _, executed = ipynb_report
    (tmp_path / "report.tex").write_text("old report", encoding="utf-8")
    (tmp_path / "report.bib").write_text("old bib", encoding="utf-8")
    (tmp_path / "report_tables").mkdir()
    (tmp_path / "report_tables" / "old.tex").write_text("old", encoding="utf-8")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    scores = table6.copy()

    # 1. export fails after the notebook ran
    monkeypatch.setattr(export, "execute_notebook", lambda nb: executed)

    def broken(nb, fmt, *, stem):
        raise ReportError("export exploded")

    monkeypatch.setattr(export, "export_notebook", broken)
    with pytest.raises(ReportError, match="exploded"):
        nbstats.reporting.report(scores, tmp_path / "report.tex")
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    pd.testing.assert_frame_equal(scores, table6)  # the input is untouched
    monkeypatch.undo()

    # 2. the final rename fails after the companions were moved in: rolled back
    monkeypatch.setattr(export, "execute_notebook", lambda nb: executed)
    monkeypatch.setattr(
        export,
        "export_notebook",
        lambda nb, fmt, *, stem: (
            b"new report",
            {f"{stem}.bib": b"new bib", f"{stem}_tables/new.tex": b"new"},
        ),
    )
    real_replace = os.replace

    def failing_replace(src, dst):
        if Path(dst).name == "report.tex":
            raise OSError("disk full")
        return real_replace(src, dst)

    monkeypatch.setattr(export.os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        nbstats.reporting.report(scores, tmp_path / "report.tex")
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert sorted(os.listdir(tmp_path)) == ["report.bib", "report.tex", "report_tables"]

    # 3. and when nothing fails, everything is replaced
    monkeypatch.setattr(export.os, "replace", real_replace)
    nbstats.reporting.report(scores, tmp_path / "report.tex")
    assert (tmp_path / "report.tex").read_bytes() == b"new report"
    assert (tmp_path / "report.bib").read_bytes() == b"new bib"
    # the old folder replaced whole (old.tex gone): the export's new.tex and
    # the venue's paste-ready figures, from the executed notebook
    figures = [
        name.split("/", 1)[1] for name in export.paste_figure_files(executed, "report")
    ]
    assert any(name.startswith("figure-") for name in figures)
    assert _files(tmp_path / "report_tables") == sorted(["new.tex", *figures])
    # and the answer-first part's files, from the executed notebook
    assert sorted(os.listdir(tmp_path)) == [
        "report.bib",
        "report.tex",
        "report_core",
        "report_tables",
    ]

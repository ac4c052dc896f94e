"""The nbconvert exporters and templates on a user's own notebook (no kernel)."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat import v4

from nbstats.reporting import exporters
from nbstats.reporting.exporters import (
    NbstatsHTMLExporter,
    NbstatsLatexExporter,
    NbstatsPDFExporter,
)
from tests.conftest import require_executable

TEMPLATES = Path(__file__).resolve().parents[2] / "report_templates"


def _user_notebook() -> nbformat.NotebookNode:
    """Cells tagged the Jupyter Book way, with outputs already there."""

    def code(source, text, *tags):
        cell = v4.new_code_cell(
            source,
            execution_count=1,
            outputs=[v4.new_output("stream", name="stdout", text=text)],
        )
        if tags:
            cell.metadata["tags"] = list(tags)
        return cell

    nb = v4.new_notebook(
        cells=[
            v4.new_markdown_cell("# My analysis\n\nSome *words*."),
            code("print('visible code')", "output of visible\n"),
            code("print('hidden code')", "output of hidden input\n", "remove-input"),
            code("print('dropped cell')", "output of dropped cell\n", "remove-cell"),
            code("print('code without output')", "dropped output\n", "remove-output"),
            v4.new_code_cell(
                "remote()",
                execution_count=2,
                outputs=[
                    v4.new_output(
                        "display_data",
                        data={
                            "text/html": '<p>remote</p><script src="https://cdn.example/x.js"></script>',
                            "text/plain": "remote",
                        },
                    )
                ],
            ),
        ]
    )
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def test_templates_are_found_in_the_checkout():
    assert str(TEMPLATES) in exporters.template_basedirs()
    for name in ("nbstats-paper", "nbstats-paper-latex"):
        assert (TEMPLATES / name / "conf.json").is_file()
    assert NbstatsHTMLExporter().template_name == "nbstats-paper"
    assert NbstatsPDFExporter().template_name == "nbstats-paper-latex"
    assert str(TEMPLATES) in NbstatsLatexExporter().extra_template_basedirs


def _check_tags(text: str) -> None:
    assert "visible code" in text and "output of visible" in text
    assert "hidden code" not in text and "output of hidden input" in text
    assert "dropped cell" not in text and "output of dropped cell" not in text
    assert "code without output" in text and "dropped output" not in text


def test_html_exporter_honours_tags_and_stays_offline():
    body, _ = NbstatsHTMLExporter().from_notebook_node(_user_notebook())
    _check_tags(body)
    assert 'class="jp-InputPrompt' not in body  # no prompts
    assert 'class="jp-OutputPrompt' not in body
    assert "<p>remote</p>" in body and "cdn.example" not in body
    assert "<script src=" not in body and "require.js" not in body
    assert '<h1 class="nbstats-title">' not in body  # no title in the metadata


def test_nbconvert_command_line_with_the_exporter_class(tmp_path):
    """What ``jupyter nbconvert --to nbstats_html`` runs once the entry point is
    installed (here by class name, which needs no installation)."""
    source = tmp_path / "mine.ipynb"
    nbformat.write(_user_notebook(), source)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "nbconvert",
            "--to",
            "nbstats.reporting.exporters.NbstatsHTMLExporter",
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    _check_tags((tmp_path / "mine.html").read_text(encoding="utf-8"))


def test_installed_template_layout_works_with_plain_nbconvert(tmp_path):
    """``--template nbstats-paper`` from <prefix>/share/jupyter, as the wheel
    installs it (simulated with JUPYTER_PATH)."""
    share = tmp_path / "share" / "jupyter" / "nbconvert" / "templates"
    shutil.copytree(TEMPLATES, share)
    source = tmp_path / "work" / "mine.ipynb"
    source.parent.mkdir()
    nbformat.write(_user_notebook(), source)
    env = dict(os.environ, JUPYTER_PATH=str(tmp_path / "share" / "jupyter"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "nbconvert",
            "--to",
            "html",
            "--template",
            "nbstats-paper",
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=source.parent,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    html = (source.parent / "mine.html").read_text(encoding="utf-8")
    assert "nbstats-paper: paper typography" in html  # our stylesheet, inline
    # the template loads nothing; only the notebook's own output does (plain
    # nbconvert has no strip_remote: that is what --to nbstats_html adds)
    assert re.findall(r"<script[^>]*src=[^>]*>", html) == [
        '<script src="https://cdn.example/x.js">'
    ]
    assert "mathjax" not in html.lower() and "require.js" not in html


def test_latex_exporter_honours_tags():
    require_executable("pandoc", "apt-get install pandoc")
    body, _ = NbstatsLatexExporter().from_notebook_node(_user_notebook())
    _check_tags(body)
    assert r"\documentclass[11pt,a4paper]{article}" in body
    assert r"\captionsetup{format=plain" in body


def test_pdf_exporter_on_a_user_notebook():
    require_executable("xelatex", "apt-get install texlive-xetex")
    require_executable("pandoc", "apt-get install pandoc")
    pdftotext = require_executable("pdftotext", "apt-get install poppler-utils")
    pdf, _ = NbstatsPDFExporter().from_notebook_node(_user_notebook())
    assert pdf.startswith(b"%PDF")
    done = subprocess.run(
        [pdftotext, "-", "-"], input=pdf, capture_output=True, check=True
    )
    _check_tags(done.stdout.decode("utf-8"))


def test_entry_points_when_installed():
    found = {
        ep.name: ep
        for ep in importlib.metadata.entry_points(group="nbconvert.exporters")
        if ep.name.startswith("nbstats_")
    }
    if not found:
        pytest.skip("nbconvert.exporters entry points not installed (pip install -e .)")
    assert found["nbstats_html"].load() is NbstatsHTMLExporter
    assert found["nbstats_pdf"].load() is NbstatsPDFExporter
    if "nbstats_latex" in found:
        assert found["nbstats_latex"].load() is NbstatsLatexExporter


@pytest.mark.parametrize(
    ("markup", "kept"),
    [
        ('<script src="http://x/y.js"></script><p>a</p>', "<p>a</p>"),
        ("<SCRIPT SRC='//x/y.js'>\n</SCRIPT>b", "b"),
        ('<script type="text/javascript">var a = 1;</script>', "var a = 1;"),
        ('<link rel="stylesheet" href="https://x/y.css">c', "c"),
        (
            '<link rel="stylesheet" href="local.css">d',
            '<link rel="stylesheet" href="local.css">d',
        ),
        ("&lt;script src=http://x&gt;", "&lt;script src=http://x&gt;"),
    ],
)
def test_strip_remote(markup, kept):
    assert kept in exporters.strip_remote(markup)
    assert "http" not in exporters.strip_remote(markup).replace(
        "&lt;script src=http://x&gt;", ""
    )


def _typeset(exporter, directory: Path, body: str, monkeypatch) -> tuple[int, str]:
    """(xelatex passes, the PDF's text) of a small document in ``directory``."""
    pdftotext = require_executable("pdftotext", "apt-get install poppler-utils")
    directory.mkdir()
    (directory / "doc.tex").write_text(
        "\\documentclass{article}\\usepackage{hyperref}\\begin{document}"
        "\\section{Results}See Table~\\ref{tab:a}.\n"
        + body
        + "\\begin{table}\\caption{Scores}\\label{tab:a}\\end{table}\\end{document}\n"
    )
    passes = []
    original = exporter.run_command

    def counted(*args, **kwargs):
        passes.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(exporter, "run_command", counted)
    monkeypatch.chdir(directory)
    assert exporter.run_latex("doc.tex")
    text = subprocess.run(
        [pdftotext, "doc.pdf", "-"], capture_output=True, check=True, text=True
    ).stdout
    return len(passes), " ".join(text.split())


def test_a_kept_aux_saves_a_pass_and_is_corrected_when_wrong(tmp_path, monkeypatch):
    require_executable("xelatex", "apt-get install texlive-xetex")
    monkeypatch.setenv("NBSTATS_CACHE_DIR", str(tmp_path / "cache"))
    exporter = NbstatsPDFExporter()
    # first run: no .aux kept, two passes for the reference
    passes, text = _typeset(exporter, tmp_path / "first", "", monkeypatch)
    assert passes == 2 and "See Table 1." in text
    # the same shape again: the kept .aux is right, one pass
    passes, text = _typeset(exporter, tmp_path / "again", "", monkeypatch)
    assert passes == 1 and "See Table 1." in text
    # same labels, another numbering (a table without a label first): the
    # kept .aux is wrong, xelatex says so, a second pass puts it right
    extra = "\\begin{table}\\caption{Other}\\end{table}\n"
    passes, text = _typeset(exporter, tmp_path / "other", extra, monkeypatch)
    assert passes == 2 and "See Table 2." in text

"""The HTML exporter's accessibility attributes, set without BeautifulSoup, give
the tree nbconvert's own pass gives (nbconvert's HTMLExporter is the oracle)."""

from __future__ import annotations

import base64
import warnings

import nbformat
import pytest
from bs4 import BeautifulSoup
from nbconvert.exporters import HTMLExporter
from nbformat import v4

import nbstats
from nbstats.reporting.exporters import NbstatsHTMLExporter, strip_remote
from nbstats.reporting.html_access import MISSING_ALT, accessible

#: A 1 × 1 PNG.
PIXEL = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
        "0000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
    )
).decode("ascii")


def _both(nb: nbformat.NotebookNode) -> tuple[str, str]:
    """Our export, and nbconvert's own pass on the same exporter settings."""
    ours, _ = NbstatsHTMLExporter().from_notebook_node(nb)
    theirs, _ = HTMLExporter.from_notebook_node(NbstatsHTMLExporter(), nb)
    return ours, strip_remote(theirs)


def _tree(markup: str) -> BeautifulSoup:
    return BeautifulSoup(markup, features="html.parser")


def _assert_same_tree(ours: str, theirs: str) -> None:
    mine, nbconverts = _tree(ours), _tree(theirs)
    # the attributes first: a readable message when they differ
    for tag in ("img", "div"):
        assert [t.attrs for t in mine.find_all(tag)] == [
            t.attrs for t in nbconverts.find_all(tag)
        ]
    assert mine == nbconverts


def _notebook_with_images() -> nbformat.NotebookNode:
    html = (
        f'<img src="data:image/png;base64,{PIXEL}" alt="a > b, described">'
        f"<IMG SRC='data:image/png;base64,{PIXEL}'/>"
        f'<img alt="" src="data:image/png;base64,{PIXEL}">'
        '<div class="jp-OutputArea-output other" tabindex="-1">kept</div>'
        # text to the parser: left as it is (an alt="…" would end the string)
        "<script>var s = \"<img src='x'><div class='jp-OutputArea-output'>\";"
        "</script><style>/* <img src=x> */</style><!-- <img src=x> -->"
    )
    cells = [
        v4.new_markdown_cell(f"![](data:image/png;base64,{PIXEL}) text"),
        v4.new_code_cell(
            "show()",
            execution_count=1,
            outputs=[
                v4.new_output("display_data", data={"image/png": PIXEL}),
                v4.new_output(
                    "display_data", data={"text/html": html, "text/plain": "x"}
                ),
                v4.new_output("stream", name="stdout", text="<not a tag>\n"),
            ],
        ),
        v4.new_code_cell("x = 1", execution_count=2),
    ]
    nb = v4.new_notebook(cells=cells)
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def test_images_and_focus_as_nbconvert_sets_them():
    ours, theirs = _both(_notebook_with_images())
    _assert_same_tree(ours, theirs)
    tree = _tree(ours)
    alts = [img.get("alt") for img in tree.find_all("img")]
    assert alts.count(MISSING_ALT) == 2  # the PNG output and <IMG …/>
    assert "a > b, described" in alts
    assert alts.count("") == 2  # markdown's ![](…) and alt="" are left alone
    focus = tree.select("div.jp-OutputArea-output, div.jp-Cell-inputWrapper")
    assert focus and all(d.get("tabindex") == "0" for d in focus)


def test_a_whole_report_as_nbconvert_exports_it(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        path = nbstats.reporting.report(
            nbstats.datasets.load("demsar2006"), tmp_path / "r.ipynb"
        )
    nb = nbformat.read(path, as_version=4)
    ours, theirs = _both(nb)
    _assert_same_tree(ours, theirs)
    assert len(_tree(ours).find_all("img")) >= 3  # the report's figures


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        # a quoted '>' does not end the tag
        ('<img title="x>y" src="a">', f'<img title="x>y" src="a" alt="{MISSING_ALT}">'),
        ("<img src='a' />", f"<img src='a' alt=\"{MISSING_ALT}\"/>"),
        ('<img alt src="a">', '<img alt src="a">'),  # alt present, empty
        ('<imgx src="a">', '<imgx src="a">'),  # another tag
        # no .jp-Notebook ancestor: nothing made focusable
        ('<div class="jp-OutputArea-output">', '<div class="jp-OutputArea-output">'),
    ],
)
def test_start_tags(markup, expected):
    assert accessible(markup)[0] == expected


def test_scripts_styles_and_comments_are_left_as_they_are():
    page = (
        '<body class="jp-Notebook"><SCRIPT type="x">var a = "<img src=\'p\'>";'
        "</Script ><style>div.jp-OutputArea-output > img {}</style>"
        "<!-- <img src=c> --><img src=d>"
    )
    out, missing = accessible(page)
    assert missing == 1
    assert out == page.replace("<img src=d>", f'<img src=d alt="{MISSING_ALT}">')


def test_focus_needs_the_exact_class_under_the_notebook():
    page = (
        '<body class="jp-Notebook">'
        '<div class="jp-OutputArea-output-x">a</div>'
        "<div class='jp-Cell-inputWrapper'>b</div>"
        '<div class=jp-OutputArea-output TABINDEX="2">c</div>'
    )
    out, missing = accessible(page)
    assert missing == 0
    assert '<div class="jp-OutputArea-output-x">' in out
    assert "<div class='jp-Cell-inputWrapper' tabindex=\"0\">" in out
    assert '<div class=jp-OutputArea-output tabindex="0">' in out

"""Every example in README.md and the documentation runs as written.

README's own call once failed (``nbstats.report(df, "r.html")`` raised
"'module' object is not callable") and eight blocks of the pages named
variables no block had made. Here every ```` ```python ```` and
```` ```{code-cell} python ```` block of README.md and ``docs/**/*.md`` is
executed in order, one namespace per file (a page reads as one session),
in a scratch directory, with the figures drawn headless. A block that
cannot run anywhere (an MLflow store, a peer library that is not a
dependency) is preceded by ``<!-- not run: <reason> -->``; the reason must
be written. Every ``nbstats ...`` command line of a ```` ```bash ```` block
must be one the command-line parser accepts.
"""

from __future__ import annotations

import linecache
import re
import shlex
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

from nbstats.cli.options import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})\s*(?P<info>.*)$")
NOT_RUN = re.compile(r"^<!--\s*not run:(?P<reason>.*?)-->\s*$")
PYTHON = {"python", "{code-cell} python", "{code-cell} python3", "{code-cell} ipython3"}
SHELL = {"bash", "sh", "shell", "console"}


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, its first code line (1-based), its code
    and, when the page says it is not run, why."""

    info: str
    line: int
    code: str
    not_run: str | None


def pages() -> list[Path]:
    """README.md and every page of the documentation (not the built site)."""
    found = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)
    return [ROOT / "README.md", *found]


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a markdown file, outermost only, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence, info = opening["fence"], opening["info"].strip()
        end = i + 1
        while end < len(lines) and not (
            lines[end].startswith(fence[0] * len(fence))
            and not lines[end].strip(fence[0]).strip()
        ):
            end += 1
        before = next((s for s in reversed(lines[:i]) if s.strip()), "")
        marker = NOT_RUN.match(before.strip())
        body = lines[i + 1 : end]
        first = i + 2
        if info.startswith("{code-cell}"):
            body, first = _cell_options_removed(body, first)
        found.append(
            Block(info, first, "\n".join(body), marker["reason"] if marker else None)
        )
        i = end + 1
    return found


def _cell_options_removed(body: list[str], first: int) -> tuple[list[str], int]:
    """A MyST code cell's options (``:tags: [...]`` lines or a ``---`` block)
    are not code."""
    if body and body[0].strip() == "---":
        close = body.index("---", 1) if "---" in body[1:] else 0
        return body[close + 1 :], first + close + 1
    skip = 0
    while skip < len(body) and re.match(r"^:\w[\w-]*:", body[skip]):
        skip += 1
    return body[skip:], first + skip


def commands(code: str) -> list[str]:
    """The ``nbstats ...`` lines of a shell block, continuations joined."""
    joined = re.sub(r"\\\n\s*", " ", code)
    found = []
    for line in joined.splitlines():
        line = line.strip().removeprefix("$ ")
        if line.startswith("nbstats "):
            found.append(line)
    return found


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


PAGES = pages()


def test_the_pages_hold_examples():
    everything = [b for p in PAGES for b in blocks(p)]
    python = [b for b in everything if b.info in PYTHON]
    assert len(python) > 80
    assert sum(b.not_run is not None for b in python) < 10
    assert sum(len(commands(b.code)) for b in everything if b.info in SHELL) >= 5


def test_blocks_are_found_as_written(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "text\n\n```python\nx = 1\n```\n\n<!-- not run: needs a server -->\n\n"
        "```{code-cell} python\n:tags: [hide-input]\ny = 2\n```\n"
        "````markdown\n```python\nz = 3\n```\n````\n"
        "```bash\nnbstats report a.csv \\\n    -o a.pdf  # a comment\npip install x\n```\n"
    )
    found = blocks(page)
    assert [(b.info, b.line, b.code, b.not_run) for b in found[:2]] == [
        ("python", 4, "x = 1", None),
        ("{code-cell} python", 11, "y = 2", " needs a server "),
    ]
    assert found[2].info == "markdown" and "z = 3" in found[2].code
    assert commands(found[3].code) == ["nbstats report a.csv  -o a.pdf  # a comment"]


@pytest.mark.parametrize("path", PAGES, ids=_id)
def test_every_example_runs_as_written(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict = {"__name__": "__main__"}
    for block in blocks(path):
        where = f"{_id(path)}:{block.line}"
        if block.info not in PYTHON:
            continue
        if block.not_run is not None:
            assert block.not_run.strip(), f"{where}: say why the block is not run"
            continue
        code = compile(block.code, where, "exec")
        # the failing line in the traceback, not "???"
        linecache.cache[where] = (
            len(block.code),
            None,
            block.code.splitlines(True),
            where,
        )
        with warnings.catch_warnings():
            # a page may show a warning on purpose (holes dropped, say)
            warnings.simplefilter("default")
            exec(code, namespace)
    if "matplotlib.pyplot" in __import__("sys").modules:
        import matplotlib.pyplot as plt

        plt.close("all")


@pytest.mark.parametrize("path", PAGES, ids=_id)
def test_every_command_line_parses(path):
    parser = build_parser()
    for block in blocks(path):
        if block.info not in SHELL:
            continue
        for line in commands(block.code):
            arguments = shlex.split(line, comments=True)[1:]
            try:
                parser.parse_args(arguments)
            except SystemExit as error:  # argparse's way to refuse
                raise AssertionError(f"{_id(path)}:{block.line}: {line}") from error

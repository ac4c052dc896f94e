"""The report notebook's cells, read from the template files.

The code of the report notebook lives in ``nbstats/reporting/template/*.py``:
real Python files that ruff and an editor check, one per section, in the
"percent" form of jupytext. Each cell starts with a header line::

    # %% when=freq and not compact, tables=["tab:nemenyi"]
    # %% [markdown] when=not core_only

(a header ending with a comma goes on in the next comment line) whose
keywords are Python expressions over the builder's flags
(:func:`cells` documents them):

- ``when``: the cell is part of the notebook only if it holds (default: always);
- ``join``: the code is appended to the previous code cell (one notebook cell
  written in several pieces, each with its own ``when``);
- ``tables``, ``figures``: the labels of the floats the cell displays.

A line of code may end with ``# when: <expression>``: the line is kept only if
the expression holds, and the comment is removed. Everything before a file's
first header (the imports from :mod:`nbstats.reporting.notebook_names` that
declare, for the linters, the names earlier cells define) is left out. The
code is copied verbatim: every value that varies with the user's data or
settings is a constant of the one generated cell
(:func:`nbstats.reporting.notebook.build_notebook` writes it).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib.resources
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["Cell", "cells", "evaluate"]

_HEADER = re.compile(r"^# %%(?P<markdown> \[markdown\])?(?P<keywords>.*)$")
_LINE_WHEN = re.compile(r"\s*# when: (?P<expression>.+)$")


@dataclasses.dataclass(frozen=True)
class Cell:
    """One cell of a template file: its source and its header's expressions."""

    kind: str  # "code" or "markdown"
    source: str
    keywords: Mapping[str, ast.expr]
    file: str

    def value(self, name: str, flags: Mapping[str, Any], default: Any) -> Any:
        """The header keyword ``name`` evaluated over ``flags``."""
        if name not in self.keywords:
            return default
        return evaluate(self.keywords[name], flags, where=f"{self.file}: {name}")


@functools.cache
def _read(name: str) -> tuple[Cell, ...]:
    """The cells of ``template/<name>.py`` (parsed once per process)."""
    text = (
        importlib.resources.files("nbstats.reporting")
        .joinpath("template", f"{name}.py")
        .read_text(encoding="utf-8")
    )
    found: list[Cell] = []
    header: re.Match[str] | None = None
    lines: list[str] = []

    def close() -> None:
        if header is None:
            return  # the preamble: imports for the linters only
        keywords = header["keywords"].strip()
        call = ast.parse(f"f({keywords})", mode="eval").body
        if not isinstance(call, ast.Call) or call.args:  # pragma: no cover
            raise ValueError(f"template/{name}.py: a header takes keywords only")
        markdown = bool(header["markdown"])
        source = "\n".join(lines).strip("\n")
        if markdown:  # "# # Heading" -> "# Heading"
            source = "\n".join(
                line[2:] if line.startswith("# ") else line.lstrip("#")
                for line in source.splitlines()
            )
        found.append(
            Cell(
                "markdown" if markdown else "code",
                source,
                {k.arg: k.value for k in call.keywords if k.arg is not None},
                f"template/{name}.py",
            )
        )

    continued = False  # a header ending with "," goes on in the next line
    for line in text.splitlines():
        match = _HEADER.match(line)
        if continued and header is not None:
            header = _HEADER.match(header[0] + " " + line.lstrip("# "))
            continued = line.rstrip().endswith(",")
        elif match:
            close()
            header, lines = match, []
            continued = line.rstrip().endswith(",")
        else:
            lines.append(line)
    close()
    return tuple(found)


def _kept_lines(source: str, flags: Mapping[str, Any], where: str) -> str:
    """``source`` without the lines whose ``# when:`` does not hold."""
    kept = []
    for line in source.splitlines():
        match = _LINE_WHEN.search(line)
        if match is None:
            kept.append(line)
        elif evaluate(ast.parse(match["expression"], mode="eval").body, flags, where):
            kept.append(line[: match.start()])
    return "\n".join(kept)


def cells(name: str, flags: Mapping[str, Any]) -> list[tuple[Cell, str]]:
    """The cells of ``template/<name>.py`` whose ``when`` holds under ``flags``,
    each with its source (lines filtered by their own ``# when:``).

    ``flags`` maps the names the headers use to values (booleans, the layout
    string); :func:`nbstats.reporting.notebook.build_notebook` passes them.
    """
    return [
        (cell, _kept_lines(cell.source, flags, cell.file))
        for cell in _read(name)
        if cell.value("when", flags, True)
    ]


_OPERATORS: dict[type, Any] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def evaluate(node: ast.expr, flags: Mapping[str, Any], where: str = "") -> Any:
    """The value of a header expression: names of ``flags``, literals, lists,
    ``and``/``or``/``not``, ``==``/``!=``/``in``, ``+``, ``*`` (a list times a
    flag) and ``x if c else y``
    (a template is package data, but it is read, never executed here).

    Examples
    --------
    >>> import ast
    >>> evaluate(ast.parse("a and layout != 'compact'", mode="eval").body,
    ...          {"a": True, "layout": "standard"})
    True
    """
    match node:
        case ast.Constant(value=value):
            return value
        case ast.Name(id=name):
            if name not in flags:
                raise KeyError(f"{where}: unknown flag {name!r} in a template header")
            return flags[name]
        case ast.List(elts=items):
            return [evaluate(item, flags, where) for item in items]
        case ast.BoolOp(op=ast.And(), values=values):
            return all(evaluate(v, flags, where) for v in values)
        case ast.BoolOp(op=ast.Or(), values=values):
            return any(evaluate(v, flags, where) for v in values)
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return not evaluate(operand, flags, where)
        case ast.BinOp(left=left, op=ast.Add(), right=right):
            return evaluate(left, flags, where) + evaluate(right, flags, where)
        case ast.BinOp(left=left, op=ast.Mult(), right=right):
            # ["tab:x"] * flag: the label when the flag holds
            return evaluate(left, flags, where) * evaluate(right, flags, where)
        case ast.IfExp(test=test, body=body, orelse=orelse):
            branch = body if evaluate(test, flags, where) else orelse
            return evaluate(branch, flags, where)
        case ast.Compare(left=left, ops=[op], comparators=[right]) if (
            type(op) in _OPERATORS
        ):
            a, b = evaluate(left, flags, where), evaluate(right, flags, where)
            return _OPERATORS[type(op)](a, b)
    raise ValueError(f"{where}: unsupported template expression {ast.dump(node)}")

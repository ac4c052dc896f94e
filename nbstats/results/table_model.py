r"""One table model: a table built once from a result, drawn by one renderer
per target.

A :class:`Table` holds what a table *says*: its header in words, its rows of
cells that each know their kind (a ``"name"``, ``"text"``, or a kind of
number of :data:`nbstats.results.number_policy.KINDS`: ``"score"``,
``"rank"``, ``"pvalue"``, ``"probability"``, ``"count"`` …) and their text
written by the number policy, the rules between groups of rows, the caption,
the label, its notes and the number of cases it stands on. How it *looks*
is the renderers' business:

- LaTeX: :func:`nbstats.results.render_latex.latex` (fitted to a venue);
- HTML: :func:`nbstats.results.render.table_html`;
- plain text: :func:`text`; CSV: :func:`csv`.

Every result's ``to_latex()``, ``_repr_html_`` and ``summary()``, and every
table of a report, go through it; nothing edits a rendered table afterwards.

Examples
--------
>>> import pandas as pd
>>> frame = pd.DataFrame({"pvalue": [0.0001, 0.5]}, index=["a_1", "b"])
>>> t = from_frame(frame, caption="P-values.")
>>> [c.text for c in t.header], [r[1].text for r in t.rows], t.rows[0][1].kind
(['', 'p'], ['< 0.001', '0.500'], 'pvalue')
>>> print(text(t))
          p
a_1 < 0.001
b     0.500
"""

from __future__ import annotations

import csv as _csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from nbstats.results.formatting import Label, format_value
from nbstats.results.number_policy import format_column, format_number, kind_of

__all__ = [
    "TEXT_KINDS",
    "Cell",
    "Table",
    "csv",
    "from_frame",
    "from_scalars",
    "shows_index",
    "text",
]

#: Kinds of cell that hold words, not numbers: they are set flush left and
#: may wrap; every other kind is a number, right-aligned, never wrapped.
TEXT_KINDS = frozenset({"name", "text"})


@dataclass(frozen=True)
class Cell:
    """One cell: its text, its kind and how it is emphasised.

    Attributes
    ----------
    text : str
        Plain text as printed (numbers by the number policy, U+2212 minus).
    kind : str
        ``"name"`` or ``"text"`` (words), else a kind of number.
    label : Label or None
        Text with its own HTML and LaTeX forms (``χ²_F``), when it has them.
    bold : bool
        Set in bold (e.g. the best score of a case).
    value : object
        The value behind the text (for CSV); the text when there is none.
    """

    text: str
    kind: str = "text"
    label: Label | None = None
    bold: bool = False
    value: object = None

    @property
    def numeric(self) -> bool:
        """Whether the cell holds a number (right-aligned, never wrapped)."""
        return self.kind not in TEXT_KINDS


@dataclass(frozen=True)
class Table:
    r"""A table as built from a result: content only, no layout.

    Attributes
    ----------
    header : tuple of Cell
        One per column, in words (``"mean rank"``, ``"p"``); the first is the
        stub's (the row labels'), empty when they have no name.
    rows : tuple of tuple of Cell
        The body.
    caption : str or Label or None
    label : str or None
        The key cross-references use (``"tab:core"``).
    notes : tuple of str
        Sentences set under the table.
    n_cases : int or None
        The number of cases the table stands on, when it is one number.
    rules : frozenset of int
        A rule (``\midrule``) is drawn before each of these rows (e.g. before
        the mean ranks under a score table).
    stub : bool
        Whether the first column holds the rows' labels.
    """

    header: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]
    caption: object = None
    label: str | None = None
    notes: tuple[str, ...] = ()
    n_cases: int | None = None
    rules: frozenset[int] = field(default_factory=frozenset)
    stub: bool = True

    def __post_init__(self) -> None:
        width = len(self.header)
        bad = [i for i, row in enumerate(self.rows) if len(row) != width]
        if bad:
            raise ValueError(
                f"every row needs {width} cells, like the header; rows {bad[:5]} "
                "do not have them"
            )

    @property
    def kinds(self) -> list[str]:
        """Each column's kind: a number kind if any of its cells is a number."""
        out = []
        for j in range(len(self.header)):
            numbers = [row[j].kind for row in self.rows if row[j].numeric]
            out.append(numbers[0] if numbers else "text")
        return out


def _cell(value: object, text: str, kind: str) -> Cell:
    if isinstance(value, Label):
        return Cell(str(value), "text", label=value, value=str(value))
    return Cell(text, kind, value=value)


def shows_index(frame: pd.DataFrame) -> bool:
    """Whether the index carries labels (a bare 0, 1, 2 … is not shown)."""
    index = frame.index
    return not (
        isinstance(index, pd.RangeIndex)
        and index.name is None
        and index.start == 0
        and index.step == 1
    )


def _header_cell(text: object) -> Cell:
    if isinstance(text, Label):
        return Cell(str(text), "text", label=text)
    return Cell(str(text), "text")


def _stub_text(label: object) -> object:
    """A row label as the tables show it (a tuple as ``str`` writes it)."""
    return str(label) if isinstance(label, tuple) else label


def from_frame(
    frame: pd.DataFrame,
    kinds: Mapping[object, str] | None = None,
    *,
    caption: object = None,
    label: str | None = None,
    notes: Sequence[str] = (),
    n_cases: int | None = None,
) -> Table:
    """The table of ``frame``: its index (unless a bare 0, 1, 2 …) as the
    first column, every column written by the number policy.

    Parameters
    ----------
    frame : DataFrame
    kinds : mapping, optional
        The kind of number of each column; the others by their headers
        (:func:`nbstats.results.number_policy.kind_of`).
    caption, label, notes, n_cases
        See :class:`Table`.

    Returns
    -------
    Table
    """
    kinds = kinds or {}
    columns = [
        format_column(frame.iloc[:, j].tolist(), kinds.get(name) or kind_of(name))
        for j, name in enumerate(frame.columns)
    ]
    header: list[Cell] = []
    body: list[list[Cell]] = [[] for _ in range(len(frame))]
    stub = shows_index(frame)
    if stub:
        name = frame.index.name
        header.append(_header_cell(_stub_text(name) if name is not None else ""))
        for i, value in enumerate(frame.index):
            value = _stub_text(value)
            body[i].append(_cell(value, str(value), "name"))
    for j, (name, column) in enumerate(zip(frame.columns, columns, strict=True)):
        header.append(_header_cell(column.header(name)))
        kind = column.kind if column.numeric else "text"
        for i in range(len(frame)):
            body[i].append(_cell(frame.iat[i, j], column.cells[i], kind))
    return Table(
        tuple(header),
        tuple(tuple(row) for row in body),
        caption=caption,
        label=label,
        notes=tuple(notes),
        n_cases=n_cases,
        stub=stub,
    )


def _scalar_text(name: object, value: object, kind: str | None) -> tuple[str, str]:
    numbers = value if isinstance(value, (tuple, list)) else (value,)
    if numbers and all(
        (isinstance(v, (int, float)) and not isinstance(v, bool)) or v is None
        for v in numbers
    ):
        kind = kind or kind_of(name)
        return format_number(value, kind), kind
    return format_value(value), "text"


def from_scalars(
    scalars: Sequence[tuple[object, object]],
    kinds: Mapping[object, str] | None = None,
    *,
    caption: object = None,
    label: str | None = None,
    notes: Sequence[str] = (),
    n_cases: int | None = None,
) -> Table:
    """A table of key figures: one row per (label, value), numbers by the
    number policy (their kind declared in ``kinds`` or known from the label).

    Examples
    --------
    >>> t = from_scalars([("χ²", 9.2793), ("p-value", 0.0258)])
    >>> [(r[0].text, r[1].text, r[1].kind) for r in t.rows]
    [('χ²', '9.28', 'statistic'), ('p-value', '0.026', 'pvalue')]
    """
    rows = []
    for name, value in scalars:
        stub = _cell(name, str(name), "name")
        if isinstance(value, Label):
            cell = _cell(value, str(value), "text")
        elif isinstance(value, str):
            cell = Cell(value, "text", value=value)
        else:
            shown, kind = _scalar_text(name, value, (kinds or {}).get(name))
            cell = Cell(shown, kind, value=value)
        rows.append((stub, cell))
    return Table(
        (Cell(""), Cell("value")),
        tuple(rows),
        caption=caption,
        label=label,
        notes=tuple(notes),
        n_cases=n_cases,
    )


def text(table: Table) -> str:
    """``table`` as aligned plain text (as pandas prints a frame): the row
    labels flush left, the other columns flush right, two spaces apart; a
    named stub's name on a line of its own under the header.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"z": [-2.5, 0.25], "p": [0.0124, 1e-6]}, index=["x", "y"])
    >>> print(text(from_frame(frame)))
           z        p
    x  −2.50    0.012
    y   0.25  < 0.001
    """
    head = [c.text for c in table.header]
    stub_name = ""
    if table.stub:
        stub_name, head[0] = head[0], ""
    grid = [head, *([c.text for c in r] for r in table.rows)]
    if stub_name:
        grid.insert(1, [stub_name] + [""] * (len(head) - 1))
    widths = [max(len(row[j]) for row in grid) for j in range(len(head))]
    lines = []
    for row in grid:
        cells = [
            cell.ljust(w) if j == 0 and table.stub else cell.rjust(w)
            for j, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def csv(table: Table) -> str:
    """``table`` as CSV: the header in words, each cell's value (a number in
    full, not rounded; text as it is).

    Examples
    --------
    >>> import pandas as pd
    >>> print(csv(from_frame(pd.DataFrame({"mean rank": [1.25]}, index=["a"]))))
    ,mean rank
    a,1.25
    <BLANKLINE>
    """
    out = io.StringIO()
    writer = _csv.writer(out, lineterminator="\n")
    writer.writerow([c.text for c in table.header])
    for row in table.rows:
        writer.writerow([c.text if c.value is None else c.value for c in row])
    return out.getvalue()

"""Plain-text rendering of results: the summary block and aligned tables,
numbers by the number policy (:func:`~nbstats.results.render.format_columns`),
beside the HTML and LaTeX renderers of :mod:`nbstats.results.render`."""

from __future__ import annotations

import pandas as pd

from nbstats.results.render import (
    Kinds,
    Scalars,
    format_columns,
    format_scalar,
    shows_index,
)

__all__ = ["text_block", "text_table"]


def text_block(
    title: str,
    scalars: Scalars,
    frame: pd.DataFrame | None,
    *,
    kinds: Kinds | None = None,
) -> str:
    """Plain-text summary: title, aligned label/value lines and the table.

    Key figures are written by :func:`format_scalar`, the table by
    :func:`text_table`: the number policy of :mod:`nbstats.results.formatting`.

    Examples
    --------
    >>> print(text_block("Test", [("statistic", -2.5), ("p-value", 0.0124)], None))
    Test
    ====
    statistic : −2.5
    p-value   : 0.012
    """
    title = str(title)
    lines = [title, "=" * len(title)]
    width = max((len(str(label)) for label, _ in scalars), default=0)
    lines += [
        f"{label!s:<{width}} : {format_scalar(label, value, (kinds or {}).get(label))}"
        for label, value in scalars
    ]
    if frame is not None and len(frame):
        lines += ["", text_table(frame, kinds=kinds)]
    return "\n".join(lines)


def _label_text(label: object) -> object:
    """A tuple as ``str`` writes it, as HTML and LaTeX show it; else as is."""
    return str(label) if isinstance(label, tuple) else label


def text_table(frame: pd.DataFrame, *, kinds: Kinds | None = None) -> str:
    """``frame`` as aligned plain text, numbers by the number policy
    (:func:`format_columns`), headers in words, numbers right-aligned.

    Examples
    --------
    >>> frame = pd.DataFrame({"z": [-2.5, 0.25], "p": [0.0124, 1e-6]}, index=["x", "y"])
    >>> print(text_table(frame))
           z        p
    x  −2.50    0.012
    y   0.25  < 0.001
    """
    columns = format_columns(frame, kinds)
    index = frame.index
    if index.dtype == object:  # pandas writes a tuple name without its quotes
        index = pd.Index([str(v) for v in index], name=_label_text(index.name))
    formatted = pd.DataFrame(
        {j: column.cells for j, column in enumerate(columns)},
        index=index,
    )
    formatted.columns = [
        str(column.header(name))
        for name, column in zip(frame.columns, columns, strict=True)
    ]
    return formatted.to_string(index=shows_index(frame))

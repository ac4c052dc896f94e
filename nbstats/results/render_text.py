"""Plain-text rendering of results: the summary block and aligned tables,
numbers by the number policy (:func:`~nbstats.results.render.format_columns`),
beside the HTML and LaTeX renderers of :mod:`nbstats.results.render`."""

from __future__ import annotations

import pandas as pd

from nbstats.results.render import Kinds, Scalars, format_scalar
from nbstats.results.table_model import from_frame, text

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


def text_table(frame: pd.DataFrame, *, kinds: Kinds | None = None) -> str:
    """``frame`` as aligned plain text: its table model
    (:func:`~nbstats.results.table_model.from_frame`, numbers by the number
    policy, headers in words) drawn by the text renderer
    (:func:`~nbstats.results.table_model.text`).

    Examples
    --------
    >>> frame = pd.DataFrame({"z": [-2.5, 0.25], "p": [0.0124, 1e-6]}, index=["x", "y"])
    >>> print(text_table(frame))
           z        p
    x  −2.50    0.012
    y   0.25  < 0.001
    """
    return text(from_frame(frame, kinds))

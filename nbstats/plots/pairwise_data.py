"""What the pairwise heat map shows of a result: the kind of matrix it
carries, its values and the cells to mark."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from nbstats.plots.protocols import KINDS, is_kind
from nbstats.plots.style import literal
from nbstats.results.number_policy import format_column
from nbstats.results.procedure_names import (
    adjustment_clause,
    adjustment_name,
    posthoc_name,
)

#: Darkest colour of the p-value map: smaller p-values look the same.
P_FLOOR = 1e-3

#: The matrices a heat map can show, per kind of result.
HEATMAP_KINDS = {
    "posthoc": ("pvalues", "unadjusted"),
    "bayes_posthoc": ("probabilities",),
    "signrank_pairs": ("probabilities",),
}


def check_kind(result: object, kind: str | None) -> str:
    for result_kind, kinds in HEATMAP_KINDS.items():
        if is_kind(result, result_kind):
            if kind is None:
                return kinds[0]
            if kind not in kinds:
                raise ValueError(
                    f"kind must be one of {list(kinds)} for a {KINDS[result_kind][1]}, "
                    f"got {kind!r}."
                )
            return kind
    raise TypeError(
        "pairwise_heatmap expects a PosthocResult (from nbstats.posthoc), a "
        "BayesPosthocResult (from nbstats.bayes_posthoc) or a "
        "BayesSignedRankPairsResult (from nbstats.bayes_signrank_pairs); got "
        f"{type(result).__name__}."
    )


def heatmap_matrix(
    result: Any, kind: str
) -> tuple[pd.DataFrame, np.ndarray, str | None]:
    """Values ordered by mean rank, which cells to mark, and the control."""
    order = list(result.mean_ranks.sort_values(kind="stable").index)
    if is_kind(result, "signrank_pairs"):
        values = blank_diagonal(
            result.probabilities.reindex(index=order, columns=order)
        )
        marked = values.to_numpy() > result.threshold
        return values, marked, None
    if is_kind(result, "bayes_posthoc"):
        values = blank_diagonal(
            result.probabilities.reindex(index=order, columns=order)
        )
        marked = pd.DataFrame(False, index=order, columns=order)
        statements = result.statements
        accepted = statements[statements["accepted"]]
        if "relation" in accepted:  # statements of equivalence: _equivalent
            accepted = accepted[accepted["relation"] == "better"]
        for better, worse in zip(accepted["better"], accepted["worse"], strict=True):
            marked.loc[worse, better] = True  # row: worse; column: better
        return values, marked.to_numpy(dtype=bool, copy=True), None
    source = result.adjusted if kind == "pvalues" else result.pvalues
    if isinstance(source, pd.Series):  # against a control: one row
        others = [name for name in order if name in source.index]
        values = source.reindex(others).to_frame(result.control).T
        marked = result.reject.reindex(others).to_numpy(dtype=bool)[None, :]
        return values.astype(float), marked, result.control
    values = blank_diagonal(source.reindex(index=order, columns=order))
    marked = result.reject.reindex(index=order, columns=order).to_numpy(
        dtype=bool, copy=True
    )
    np.fill_diagonal(marked, False)
    return values, marked, None


def equivalent_cells(result: object, rows: list, cols: list) -> np.ndarray:
    """Cells of accepted statements of practical equivalence (both of a pair's
    cells), from a joint result with a rope; all False otherwise."""
    marked = np.zeros((len(rows), len(cols)), dtype=bool)
    statements = getattr(result, "statements", None)
    if statements is None or "relation" not in statements:
        return marked
    where_row = {name: k for k, name in enumerate(rows)}
    where_col = {name: k for k, name in enumerate(cols)}
    chosen = statements[
        statements["accepted"] & (statements["relation"] == "equivalent")
    ]
    for a, b in zip(chosen["better"], chosen["worse"], strict=True):
        for r, c in ((a, b), (b, a)):
            if r in where_row and c in where_col:
                marked[where_row[r], where_col[c]] = True
    return marked


def blank_diagonal(frame: pd.DataFrame) -> pd.DataFrame:
    data = frame.to_numpy(dtype=float, copy=True)
    np.fill_diagonal(data, np.nan)
    return pd.DataFrame(data, index=frame.index, columns=frame.columns)


class HeatContent:
    """What the heat map shows of a result, without positions: its rows and
    columns by mean rank, values, marks, numbers as the number policy prints
    them (``texts``), colours, the colour bar's label and ticks, the title."""

    def __init__(
        self,
        result: Any,
        kind: str,
        values: Any,
        marked: np.ndarray,
        control: str | None,
        title: bool,
    ) -> None:
        from matplotlib import colormaps
        from matplotlib.colors import LogNorm, Normalize, to_hex

        self.result, self.kind = result, kind
        self.rows = tuple(str(r) for r in values.index)
        self.columns = tuple(str(c) for c in values.columns)
        self.data = values.to_numpy(dtype=float)
        self.marked = np.asarray(marked, dtype=bool)
        self.equivalent = equivalent_cells(
            result, list(values.index), list(values.columns)
        )
        self.control = control
        self.order = [str(name) for name in result.mean_ranks.index]  # letters
        self.is_p = kind != "probabilities"
        number_kind = "pvalue" if self.is_p else "probability"
        cells = format_column(list(self.data.ravel()), number_kind).cells
        self.texts = np.array(
            [
                "" if math.isnan(v) else c
                for v, c in zip(self.data.ravel(), cells, strict=True)
            ],
            dtype=object,
        ).reshape(self.data.shape)
        if self.is_p:
            self.norm = LogNorm(vmin=P_FLOOR, vmax=1.0, clip=True)
            self.cmap = colormaps["Blues_r"]  # small p-values dark
            self.bar_label = (
                f"adjusted p-value ({adjustment_name(result.adjust)})"
                if kind == "pvalues" and getattr(result, "adjust", None) != "none"
                else "unadjusted p-value"
            )
            ticks = [0.001, 0.01, 0.05, 0.1, 1.0]
            self.alpha = float(result.alpha) if is_kind(result, "posthoc") else None
            if self.alpha is not None and self.alpha not in ticks:
                ticks = sorted([*ticks, self.alpha])
            # kept first when ticks crowd: the ends, then α
            first = [0.001, 1.0] + ([self.alpha] if self.alpha else [])
            self.ticks = first + [t for t in ticks if t not in first]
        else:
            self.norm = Normalize(vmin=0.0, vmax=1.0)
            self.cmap = colormaps["Blues"]  # probable statements dark
            self.bar_label = "P(column better than row)"
            self.alpha = None
            self.ticks = [0.0, 1.0, 0.5, 0.25, 0.75]
        self.title = heatmap_title(result, kind, control) if title else ""
        # every cell's colour at once: the norm and colour map called per
        # cell took longer than the rest of the layout
        rgba = self.cmap(np.ma.filled(self.norm(self.data), np.nan))
        self.fills = np.array(
            [to_hex(colour) for colour in rgba.reshape(-1, 4)], dtype=object
        ).reshape(self.data.shape)

    def tooltip(self, i: int, j: int) -> str:
        row, col = literal(self.rows[i]), literal(self.columns[j])
        text = self.texts[i, j]
        relation = text if text.startswith(("<", ">")) else f"= {text}"
        if not self.is_p:
            return f"P({col} better than {row}) {relation}"
        which = "adjusted p" if self.kind == "pvalues" else "unadjusted p"
        return f"{row} vs {col}: {which} {relation}"


def heatmap_title(result: Any, kind: str, control: str | None) -> str:
    """The map's title: the test, and what a frame (and a dashed frame) means."""
    if is_kind(result, "signrank_pairs"):
        return (
            f"Bayesian signed-rank test ({result.prior}, s = {result.s:.3g})\n"
            f"framed: probability > {result.threshold:g}"
        )
    if is_kind(result, "bayes_posthoc"):
        rope = getattr(result, "rope", 0.0)
        if rope > 0:
            return (
                f"Bayesian {result.test_name} test, s = {result.s:.3g}, "
                f"rope ±{rope:g}\n"
                f"framed: accepted jointly at {result.threshold:g}\n"
                "dashed: accepted as practically equivalent"
            )
        return (
            f"Bayesian {result.test_name} test, s = {result.s:.3g}\n"
            f"framed: accepted jointly at {result.threshold:g}"
        )
    how = f"{posthoc_name(result.method)} post-hoc tests" + adjustment_clause(
        result.method, result.adjust
    )
    against = f" vs {control}" if control is not None else ""
    return f"{how}{against}\nframed: significant at α = {result.alpha:g}"

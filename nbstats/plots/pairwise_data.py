"""What the pairwise heat map shows of a result: the kind of matrix it
carries, its values and the cells to mark."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from nbstats.plots.protocols import KINDS, is_kind

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

"""The small caption of a critical-difference diagram: the test and α in words."""

from __future__ import annotations

from typing import Any

from nbstats.plots.protocols import is_kind
from nbstats.results.procedure_names import (
    adjustment_clause,
    posthoc_name,
    ranking_name,
)

__all__ = ["cd_caption"]


def cd_caption(
    result: Any, control: Any, marks: bool, control_label: str | None = None
) -> str:
    """The test and α in words; ``control_label`` names the control
    (default: its name as written)."""
    res = result
    if is_kind(res, "bayes_posthoc"):
        test = "signed-rank" if res.test == "signrank" else res.test
        return f"Bayesian {test} test, joint posterior > {res.threshold:g}"
    name = posthoc_name(res.method)
    ranking = getattr(res, "ranks", "friedman")
    if ranking != "friedman" or res.method == "conover":
        name += f" ({ranking_name(ranking)})"
    alpha = f"α = {res.alpha:g}"
    if control is not None:
        control = control_label or str(control)
        text = f"{name} test against {control}, {alpha}"
        if marks:
            text += "; ● significantly different"
        return text
    if res.adjust == res.method:
        return f"{name} test, {alpha}"
    return f"{name} tests{adjustment_clause(res.method, res.adjust)}, {alpha}"

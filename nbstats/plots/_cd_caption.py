"""The small caption of a critical-difference diagram: the test and α in words."""

from __future__ import annotations

from typing import Any

from nbstats.plots.protocols import is_kind

__all__ = ["cd_caption"]

_METHODS = {
    "nemenyi": "Nemenyi",
    "bonferroni-dunn": "Bonferroni–Dunn",
    "holm": "Holm",
    "hochberg": "Hochberg",
    "hommel": "Hommel",
    "finner": "Finner",
    "li": "Li",
    "rom": "Rom",
    "shaffer": "Shaffer",
    "conover": "Conover",
    "wilcoxon": "Wilcoxon signed-rank",
    "sign": "sign",
    "ttest": "paired t",
}
#: The ranks a post-hoc result compares (its ``ranking``), named in the
#: caption unless they are Friedman's for a z-test (the default).
_RANKINGS = {
    "friedman": "Friedman ranks",
    "aligned": "aligned ranks",
    "quade": "Quade ranks",
    "durbin": "Durbin ranks, incomplete design",
}

_ADJUSTMENTS = {
    "holm": "Holm",
    "hochberg": "Hochberg",
    "hommel": "Hommel",
    "finner": "Finner",
    "li": "Li",
    "rom": "Rom",
    "bonferroni": "Bonferroni",
    "shaffer": "Shaffer",
}


def cd_caption(
    result: Any, control: Any, marks: bool, control_label: str | None = None
) -> str:
    """The test and α in words; ``control_label`` names the control
    (default: its name as written)."""
    res = result
    if is_kind(res, "bayes_posthoc"):
        test = "signed-rank" if res.test == "signrank" else res.test
        return f"Bayesian {test} test, joint posterior > {1 - res.gamma:g}"
    name = _METHODS.get(res.method, res.method)
    ranking = getattr(res, "ranking", "friedman")
    if ranking != "friedman" or res.method == "conover":
        name += f" ({_RANKINGS.get(ranking, ranking)})"
    alpha = f"α = {res.alpha:g}"
    if control is not None:
        control = control_label or str(control)
        text = f"{name} test against {control}, {alpha}"
        if marks:
            text += "; ● significantly different"
        return text
    if res.method in _METHODS and res.adjust == res.method:
        return f"{name} test, {alpha}"
    if res.adjust == "none":
        return f"{name} tests, unadjusted, {alpha}"
    adjust = _ADJUSTMENTS.get(res.adjust, res.adjust)
    return f"{name} tests, {adjust} adjustment, {alpha}"

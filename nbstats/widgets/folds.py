"""The fold dashboard: per-fold scores, the Bayesian correlated t-test live.

For a pair of algorithms (a, b) and one data set, the posterior of the mean
difference μ = b − a of the Bayesian correlated t-test (Corani & Benavoli
2015; :func:`nbstats.bayes_correlated_ttest`) is Student's t in closed form:
moving the rope, the fold design (ρ) or the loss ratio recomputes it at once,
with the rope shaded and P(a better), P(rope), P(b better) and the decision
beside it. For every data set of the pair the same test is computed in one
vectorised pass (:mod:`nbstats.widgets.folds_data`: the moments per (pair,
design), the probabilities per rope, the decisions per threshold, cached),
which gives the summary: how many data sets each decision got, and which.
The hierarchical test across data sets (Corani et al. 2017) samples for tens
of seconds, so it runs only when its button is pressed, in a background
thread (:mod:`nbstats.widgets.folds_hierarchical`).
``benchmarks/bench_folds_dashboard.py`` times each control.
"""

from __future__ import annotations

import html
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from nbstats.scores.aliases import AliasOption
from nbstats.stats.bayes.decision import resolve_threshold
from nbstats.util.checks import check_flag, check_positive
from nbstats.widgets import folds_views as views
from nbstats.widgets.base import SCROLL_CLASS, Dashboard, display_names, name_dropdown
from nbstats.widgets.bayes_views import loss_label, round_up
from nbstats.widgets.folds_data import FoldTests, decisions
from nbstats.widgets.folds_hierarchical import HierarchicalPanel
from nbstats.widgets.folds_svg import regions_svg, student_svg

__all__ = ["FoldDashboard", "fold_dashboard"]


class FoldDashboard(HierarchicalPanel, Dashboard):
    """Bayesian correlated t-test of two algorithms on each data set's folds, live.

    Controls (``.controls``):

    - ``a``, ``b``: the pair (μ = b − a, > 0 where b is better).
    - ``dataset``: one data set (its posterior is drawn), or None for
      "all data sets" (every data set's probabilities as stacked bars).
    - ``rope``: half-width of the region of practical equivalence, in score
      units (0 = none).
    - ``runs``: how many runs of k-fold cross-validation made the folds
      (k = folds per data set / runs, ρ = 1/k); the choices are those that
      divide every data set's folds. None: repeated hold-out, with ρ the
      ``test_fraction`` control (enabled only then).
    - ``loss_ratio``: l1/l0; a region is decided when its posterior
      probability exceeds l1/(l0 + l1) (19 → 0.95).

    Parameters
    ----------
    data : DataFrame
        Long per-fold scores, one row per (case, algorithm, fold), as for
        :func:`nbstats.correlated_pairs`.
    case, algorithm, score : str
        Columns of ``data``.
    fold : str or sequence of str
        The fold column(s), e.g. ``"fold"`` or ``["run", "fold"]``.
    folds, runs, test_fraction
        How the folds were made (:func:`nbstats.stats.correlated.fold_design`);
        one is required, except with two fold columns (run, fold), whose first
        gives the runs. The controls start there.
    rope : float
        Initial rope.
    loss : (float, float)
        Initial (l0, l1); the loss-ratio control starts at l1/l0.
    higher_is_better : bool
    aliases : "auto", bool or dict
        Short display names (:func:`nbstats.scores.aliases.make_aliases`).
    hierarchical : dict, optional
        Keywords of :func:`nbstats.bayes_hierarchical` for the button
        (``n_samples``, ``chains``, ``warmup``, ``random_state``; default
        ``random_state=0``).
    min_folds : int, optional
        Failed folds (a fold's row absent or its score missing) are refused
        without it. With ``min_folds=K`` the pair is tested, on each data
        set, on the J folds where both have a score (as
        :func:`nbstats.correlated_pairs` with ``min_folds``), a data set with
        fewer than K is left out of that pair (named in the text and marked
        in the data-set list, e.g. "kc1 — left out (3 of 10 folds)"), and
        the hierarchical test gets the same ``min_folds``.

    Attributes
    ----------
    controls : dict of str to ipywidgets.Widget
    result : dict
        ``"cases"``: DataFrame, one row per data set tested (``case``, ``n``
        the folds used, ``mean_difference``, ``prob_left``, ``prob_rope``,
        ``prob_right``, ``decision``); ``"left_out"``: the data sets left
        out of the pair (``case``, ``folds`` paired, ``of``; empty without
        ``min_folds``); ``"counts"``: decision → list of data sets;
        ``"selected"``: the :class:`BayesCorrelatedTTestResult` of the shown
        data set (None for all); ``"threshold"``; ``"settings"``.
    hierarchical_result : BayesHierarchicalResult or None
        The last hierarchical test run (``hierarchical_settings``: with which
        controls).
    plot_view : ipywidgets.Output
        The posterior (or the stacked bars), as SVG.
    selected_view, summary_view, hierarchical_view : ipywidgets.HTML
    hierarchical_button : ipywidgets.Button
    timings : dict of str to float
        Seconds of the last update (``compute``, ``render``).

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.widgets.folds import FoldDashboard
    >>> folds = nbstats.datasets.load("uci_accuracy_folds")
    >>> board = FoldDashboard(folds, case="dataset", algorithm="classifier",
    ...                       score="accuracy", fold="fold", runs=10)
    >>> board.set(a="nbc", b="aode", dataset="anneal", rope=0.01)
    >>> res = board.result["selected"]
    >>> def scores(name):  # anneal's 100 folds, in fold order
    ...     one = folds.query("dataset == 'anneal' and classifier == @name")
    ...     return one.sort_values("fold")["accuracy"].to_numpy()
    >>> direct = nbstats.bayes_correlated_ttest(
    ...     scores("nbc"), scores("aode"), rope=0.01, runs=10)
    >>> res.prob_right == direct.prob_right, res.decision == direct.decision
    (True, True)
    >>> {k: len(v) for k, v in board.result["counts"].items()}
    {'b': 14, 'equivalent': 7, 'a': 0, 'undecided': 33}
    """

    def __init__(
        self,
        data: pd.DataFrame,
        *,
        case: str,
        algorithm: str,
        score: str,
        fold: str | Sequence[str],
        folds: int | None = None,
        runs: int | None = None,
        test_fraction: float | None = None,
        rope: float = 0.0,
        loss: tuple[float, float] = (1, 19),
        higher_is_better: bool = True,
        aliases: AliasOption | Mapping[str, str] = "auto",
        hierarchical: Mapping[str, Any] | None = None,
        min_folds: int | None = None,
    ) -> None:
        super().__init__()
        check_flag("higher_is_better", higher_is_better)
        rope = check_positive("rope", rope, allow_zero=True)
        threshold = resolve_threshold(None, loss)
        if hierarchical is not None and not isinstance(hierarchical, Mapping):
            raise TypeError(
                "hierarchical must be a dict of keywords of bayes_hierarchical "
                f"(e.g. {{'n_samples': 1000}}) or None, got {hierarchical!r}."
            )
        self.tests = FoldTests(
            data, case=case, algorithm=algorithm, score=score, fold=fold,
            higher_is_better=higher_is_better, min_folds=min_folds,
        )  # fmt: skip
        start_runs = self.tests.initial_runs(folds, runs, test_fraction)
        self.scores = data  # what the report is written from
        self.higher_is_better = higher_is_better
        self.names, self.cases = self.tests.names, self.tests.cases
        self.aliases = display_names(self.names, aliases)
        self._alias_option = aliases
        self._drawn: tuple | None = None
        self.timings: dict[str, float] = {}
        self._build_controls(
            start_runs, test_fraction, rope, threshold / (1 - threshold)
        )
        self._build_views(hierarchical)
        self._connect()
        self.update(None)

    # -- set-up ------------------------------------------------------------------

    def _build_controls(
        self, runs: int | None, test_fraction: float | None, rope: float, ratio: float
    ) -> None:
        import ipywidgets as widgets

        wide = {"description_width": "initial"}
        spread = float(
            (self.tests.means.max(axis=1) - self.tests.means.min(axis=1)).max()
        )
        rope_max = max(round_up(spread) if spread > 0 else 1.0, rope)
        # a power of ten: 0.01, 0.005 … stay on the grid the page snaps to
        step = 10.0 ** math.floor(math.log10(rope_max / 500))
        if rope > 0:
            step = min(step, 10.0 ** math.floor(math.log10(rope) - 1))
        datasets: list[tuple[str, str | None]] = [("all data sets", None)]
        datasets += [(name, name) for name in self.cases]
        self.controls = {
            "a": name_dropdown(
                self.names, self.aliases, description="pair: a", value=self.names[0]
            ),
            "b": name_dropdown(
                self.names, self.aliases, description="vs b", value=self.names[1]
            ),
            "dataset": widgets.Dropdown(
                options=datasets,
                value=self.cases[0],
                description="data set",
                style=wide,
                layout=widgets.Layout(width="20em"),
            ),
            "rope": widgets.FloatSlider(
                value=rope,
                min=0.0,
                max=rope_max,
                step=step,
                readout_format=".4g",
                description="rope ±",
                style=wide,
            ),
            "runs": widgets.Dropdown(
                options=[*self.tests.runs_options, ("repeated hold-out", None)],
                value=runs,
                description="folds from",
                style=wide,
                layout=widgets.Layout(width="22em"),
            ),
            "test_fraction": widgets.FloatSlider(
                value=0.1 if test_fraction is None else float(test_fraction),
                min=0.01,
                max=0.9,
                step=0.01,
                readout_format=".2f",
                description="test fraction ρ",
                style=wide,
            ),
            "loss_ratio": widgets.FloatLogSlider(
                value=ratio,
                base=10,
                min=0,
                max=math.log10(999),
                step=math.log10(19) / 128,  # 19 on the grid (threshold 0.95)
                readout_format=".3g",
                description="loss ratio l1/l0",
                style=wide,
            ),
        }

    def _build_views(self, hierarchical: Mapping[str, Any] | None) -> None:
        import ipywidgets as widgets

        c = self.controls
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        self._design_label = widgets.HTML(layout=widgets.Layout(flex="1 1 16em"))
        self._loss_label = widgets.HTML(layout=widgets.Layout(flex="1 1 20em"))
        self.plot_view = widgets.Output(
            layout=widgets.Layout(flex="0 0 auto", width="520px", max_width="100%")
        )
        self.plot_view.add_class(SCROLL_CLASS)
        self.selected_view = widgets.HTML()
        self.summary_view = widgets.HTML()
        side = widgets.VBox(
            [self.selected_view, self.summary_view],
            layout=widgets.Layout(flex="1 1 0", min_width="300px", margin="0 0 0 16px"),
        )
        self.widget = widgets.VBox(
            [
                widgets.HBox([c["a"], c["b"], c["dataset"]], layout=wrap),
                widgets.HBox(
                    [c["rope"], c["loss_ratio"], self._loss_label], layout=wrap
                ),
                widgets.HBox(
                    [c["runs"], c["test_fraction"], self._design_label], layout=wrap
                ),
                self._error_view,
                widgets.HBox(
                    [self.plot_view, side],
                    layout=widgets.Layout(
                        flex_flow="row wrap", align_items="flex-start"
                    ),
                ),
                *self._build_hierarchical(hierarchical),
            ]
        )
        self._add_notes()
        self._add_export_bar()

    def update(self, changed: str | None = None) -> None:
        """Mark the data sets left out of the chosen pair, then recompute
        (marked even when the shown data set is refused)."""
        self._mark_left_out()
        super().update(changed)

    def _mark_left_out(self) -> None:
        """With ``min_folds``, label each data set left out of the pair
        (a, b) in the data-set list, with its paired folds; the values (the
        case names) stay, so the chosen data set does too."""
        c = self.controls
        a, b = c["a"].value, c["b"].value
        if self.tests.min_folds is None or a == b:
            return
        i, j = self.names.index(a), self.names.index(b)
        paired, kept = self.tests.paired(i, j), self.tests.kept(i, j)
        options = [("all data sets", None)] + [
            (case if keep else f"{case} — left out ({n} of {of} folds)", case)
            for case, keep, n, of in zip(
                self.cases, kept, paired, self.tests.n, strict=True
            )
        ]
        control = c["dataset"]
        if list(control.options) == options:
            return
        value, held = control.value, self._held
        self._held = set()  # a new list resets the value: no recompute for it
        try:
            control.options = options
            control.value = value
        finally:
            self._held = held

    def _settings(self) -> dict[str, Any]:
        c = self.controls
        runs = c["runs"].value
        return {
            "a": c["a"].value,
            "b": c["b"].value,
            "dataset": c["dataset"].value,
            "rope": float(c["rope"].value),
            "runs": runs,
            "test_fraction": float(c["test_fraction"].value) if runs is None else None,
            "loss_ratio": float(c["loss_ratio"].value),
        }

    def compute(self, changed: str | None) -> dict[str, Any]:
        start = time.perf_counter()
        settings = self._settings()
        a, b = settings["a"], settings["b"]
        if a == b:
            raise ValueError(
                f"a and b are both {a!r}: choose two different algorithms."
            )
        runs, fraction = settings["runs"], settings["test_fraction"] or 0.0
        rope = check_positive("rope", settings["rope"], allow_zero=True)
        threshold = resolve_threshold(None, (1.0, settings["loss_ratio"]))
        i, j = self.names.index(a), self.names.index(b)
        left, middle, right, mean = self.tests.regions(i, j, runs, fraction, rope)
        decision = decisions(left, middle, right, threshold)
        paired, kept = self.tests.paired(i, j), self.tests.kept(i, j)
        every = pd.DataFrame(
            {
                "case": self.cases,
                "n": paired,
                "mean_difference": mean,
                "prob_left": left,
                "prob_rope": middle,
                "prob_right": right,
                "decision": decision,
            }
        )
        table = every[kept].reset_index(drop=True)
        left_out = pd.DataFrame(
            {"case": every["case"][~kept], "folds": paired[~kept],
             "of": self.tests.n[~kept]}
        ).reset_index(drop=True)  # fmt: skip
        counts = {
            d: [c for c, x in zip(table["case"], table["decision"], strict=True)
                if x == d]
            for d in views.DECISION_ORDER
        }  # fmt: skip
        case = settings["dataset"]
        selected = (
            None
            if case is None
            else self.tests.direct(
                case, a, b, runs, fraction, rope, settings["loss_ratio"]
            )
        )
        self.timings["compute"] = time.perf_counter() - start
        return {
            "cases": table,
            "left_out": left_out,
            "counts": counts,
            "selected": selected,
            "threshold": threshold,
            "settings": settings,
        }

    def render(self, result: dict[str, Any]) -> None:
        start = time.perf_counter()
        s = result["settings"]
        shown = (self.aliases[s["a"]], self.aliases[s["b"]])
        self.controls["test_fraction"].disabled = s["runs"] is not None
        self._design_label.value = views.design_label(
            s["runs"], s["test_fraction"] or 0.0, list(self.tests.groups)
        )
        self._loss_label.value = loss_label(s["loss_ratio"], result["threshold"])
        table = result["cases"]
        selected = result["selected"]
        if selected is not None:
            self.selected_view.value = views.selected_html(
                selected, shown, s["dataset"]
            )
        else:
            counts = result["counts"]
            parts = ", ".join(
                f"{views.decision_words(d, *shown)}: {len(counts[d])}"
                for d in views.DECISION_ORDER
                if d != "equivalent" or s["rope"] > 0
            )
            self.selected_view.value = (
                f'<div style="font-size:13px;overflow-wrap:anywhere">'
                f"<b>All {len(table)} data sets</b> (one Bayesian correlated "
                f"t-test each): {html.escape(parts)}. Pick a data set to "
                "see its posterior.</div>"
            )
        self.selected_view.value += views.left_out_html(
            result.get("left_out"), self.tests.min_folds, table["n"]
        )
        self.summary_view.value = views.summary_html(
            table, shown, result["threshold"], s["rope"], s["dataset"]
        )
        key = (selected, s["a"], s["b"], s["dataset"], result["threshold"])
        key = (*key, s["rope"], s["runs"], s["test_fraction"])
        if key != self._drawn:
            self._draw(result, shown)
            self._drawn = key
        self._render_hierarchical(s)
        self.timings["render"] = time.perf_counter() - start

    def _draw(self, result: dict[str, Any], shown: tuple[str, str]) -> None:
        s = result["settings"]
        selected = result["selected"]
        if selected is not None:
            title = f"{shown[0]} vs {shown[1]} on {s['dataset']}"
            svg = student_svg(selected, labels=shown, title=title)
            text = f"posterior of μ: {s['a']} vs {s['b']} on {s['dataset']}"
        else:
            table = result["cases"]
            svg = regions_svg(
                table["case"].tolist(),
                table["prob_left"].to_numpy(),
                table["prob_rope"].to_numpy() if s["rope"] > 0 else None,
                table["prob_right"].to_numpy(),
                labels=shown,
                threshold=result["threshold"],
                title=f"{shown[0]} vs {shown[1]}: each data set",
            )
            text = f"posterior probabilities of {s['a']} vs {s['b']} per data set"
        self.plot_view.outputs = (
            {
                "output_type": "display_data",
                "data": {"image/svg+xml": svg, "text/plain": text},
                "metadata": {},
            },
        )

    # -- export and text ------------------------------------------------------------

    def report_settings(self) -> dict[str, Any]:
        """The report's keywords: the long data's columns, the runs, rope and loss
        (the report's per-data-set section runs :func:`nbstats.correlated_pairs`
        with them)."""
        s = self._settings()
        if s["runs"] is None:
            raise ValueError(
                "the report describes k-fold cross-validation (runs=); with a "
                "repeated hold-out design (test fraction) choose the runs instead, "
                "or call nbstats.correlated_pairs(..., test_fraction=) yourself."
            )
        return {
            **self.tests.columns,
            "runs": s["runs"],
            "rope": s["rope"],
            "loss": (1.0, s["loss_ratio"]),
            **({} if self.tests.min_folds is None
               else {"min_folds": self.tests.min_folds}),
        }  # fmt: skip

    def _summary(self) -> str:
        s = self._settings()
        return (
            f"FoldDashboard of {len(self.names)} algorithms on {len(self.cases)} "
            f"data sets (a = {s['a']}, b = {s['b']}, data set = "
            f"{s['dataset'] or 'all'}, rope = {s['rope']:.4g}, runs = {s['runs']}, "
            f"loss ratio = {s['loss_ratio']:.3g}); a live ipywidgets dashboard: run "
            "the notebook to use it."
        )


def fold_dashboard(
    data: pd.DataFrame,
    *,
    case: str,
    algorithm: str,
    score: str,
    fold: str | Sequence[str],
    **kwargs: Any,
) -> FoldDashboard:
    """A live dashboard of per-fold scores: the Bayesian correlated t-test of a
    pair on each data set, and the hierarchical test on request.

    Takes the keywords of :class:`FoldDashboard` (``folds``/``runs``/
    ``test_fraction``, ``rope``, ``loss``, ``higher_is_better``, ``aliases``,
    ``hierarchical``).

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.widgets.folds import fold_dashboard
    >>> board = fold_dashboard(nbstats.datasets.load("uci_accuracy_folds"),
    ...                        case="dataset", algorithm="classifier",
    ...                        score="accuracy", fold="fold", runs=10)
    >>> sorted(board.controls)
    ['a', 'b', 'dataset', 'loss_ratio', 'rope', 'runs', 'test_fraction']
    """
    return FoldDashboard(
        data, case=case, algorithm=algorithm, score=score, fold=fold, **kwargs
    )

"""The Bayesian dashboard: drag s, the loss ratio, the threshold, ε or the rope.

Every pair of algorithms gets a Bayesian signed-rank posterior (Benavoli et al.
2014) drawn from **one** set of Dirichlet weights (common random numbers).
What depends on the cases is computed once per (prior, rope) for
all pairs together (:mod:`nbstats.widgets.bayes_pairs`); moving s, the loss
ratio, the threshold, ε or the shown pair only re-evaluates cached arrays: no random
number is drawn again, so no Monte Carlo noise is re-rolled, and nothing per
case is recomputed. Only a new rope (or a prior not seen before) touches the
cases again. The views are in :mod:`nbstats.widgets.bayes_views`, the joint
statements in :mod:`nbstats.widgets.bayes_joint`; work too slow to wait
for (the joint statements at 50 algorithms, the exact IDP bounds at a large
s) is shown later (:mod:`nbstats.widgets.late_work`).
``benchmarks/bench_dashboard.py`` times each control.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.bayes import BayesSignedRankResult
from nbstats.scores.aliases import AliasOption
from nbstats.stats.bayes.decision import decide_many, resolve_threshold
from nbstats.stats.bayes.draws import check_n_samples
from nbstats.stats.bayes.priors import IDP_DEFAULT_S
from nbstats.util.checks import check_flag, check_random_state
from nbstats.util.random import seed_sequence
from nbstats.widgets import bayes_views as views
from nbstats.widgets.base import (
    Dashboard,
    display_names,
    dropped_html,
    prepare_table,
)
from nbstats.widgets.bayes_controls import build_controls, s_and_loss_widgets
from nbstats.widgets.bayes_friedman import FriedmanVerdicts, friedman_strength
from nbstats.widgets.bayes_joint import BACKGROUND_WORK
from nbstats.widgets.bayes_late import LateViews, joint_prior
from nbstats.widgets.bayes_setup import default_draws, pair_setup

__all__ = ["BayesDashboard"]

#: The pairs table's columns, in order.
_COLUMNS = ["a", "b", "prob_lower", "prob_upper", "prob_left", "prob_left_upper",
            "prob_rope", "prob_rope_upper", "prob_right", "prob_equivalent",
            "decision"]  # fmt: skip


class BayesDashboard(LateViews, Dashboard):
    """Bayesian comparison of every pair of algorithms, live.

    For each pair (a, b) the Bayesian signed-rank test (Benavoli et al. 2014)
    gives the posterior probability that b is better; a loss ratio turns it
    into a decision, the near-ignorance prior (IDP) can leave it
    indeterminate, and ε declares pairs practically equivalent. Around that:
    the joint statements that hold together (Benavoli et al. 2015, §5.3, on
    the same signed-rank test, rope and s as the pairs, so the two never
    disagree) and the Bayesian Friedman verdict.

    Controls (``.controls``):

    - ``s``: prior strength (log slider, 0.01 to 100; the IDP default
      (√17 − 3)/2 ≈ 0.562 of the 2014 paper, §3.1, is marked in the label);
      disabled for the Bayesian bootstrap.
    - ``prior``: ``"idp"`` (lower and upper posteriors), ``"bb"`` (s → 0) or
      ``"point"`` (pseudo-observation of weight s at a zero difference).
    - ``loss_ratio``: l1/l0, the loss of wrongly preferring b over that of
      wrongly keeping a (log slider, 1 to 999). b is preferred when
      P(b better) > l1/(l0 + l1), the Bayesian analogue of a one-sided test
      at α = l0/(l0 + l1); both are shown.
    - ``threshold``: the credibility of the Bayesian Friedman test's region
      (the report's ``threshold``). The pairs and the joint statements
      decide at the loss ratio's threshold l1/(l0 + l1), as in the report.
    - ``rope``: half-width of the region of practical equivalence on the
      scores' scale (0 = none); recomputed on release only, as it needs new
      per-case sums.
    - ``epsilon``: ε of the equivalence check, on the θ scale.
    - ``a``, ``b``: the pair whose posterior is drawn (two dropdowns of the
      algorithms, usable for 100 of them; either order).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms (see
        :func:`nbstats.score_table`).
    higher_is_better : bool
        Whether higher scores are better.
    n_samples : int, optional
        Posterior draws, shared by every pair and by the joint statements.
        Default: 50,000 up to 10 algorithms, fewer beyond (5,000 from about
        30 algorithms on; see :func:`nbstats.widgets.bayes_setup.default_draws`),
        so that every control stays interactive; the matrix caption states it.
    random_state : None, int or Generator
        Seed of the draws. With an int, every pair's numbers equal
        :func:`nbstats.bayes_signrank` and the statements equal
        :func:`nbstats.bayes_posthoc` (``test="signrank"``, the same rope and
        s) for the same seed.
    nan_policy : {"raise", "omit"}
        As :func:`nbstats.score_table`; the dashboard names the dropped cases.
    aliases : "auto", bool or dict
        Short display names (:func:`nbstats.scores.aliases.make_aliases`): ``"auto"``
        gives letters to each name longer than 20 characters; a legend maps
        them back. Results keep the full names.
    joint_in_background : bool, optional
        Compute new joint statements in a background thread, so that the
        pair matrix and the selected posterior update at once and the joint
        view follows (it says "updating" meanwhile; :meth:`wait` blocks until
        it is current). Default: from about 29 algorithms on at 5,000 draws
        (pairs × draws ≥ 2,000,000), where a new rope takes a pass over every
        pair's sums on every draw, and so does a new s or prior under IDP
        with a rope (its exact lower probabilities try every placement of
        the prior; ``benchmarks/bench_dashboard.py``); False updates
        everything before a change returns. Apart from this setting, the
        pair matrix's exact IDP bounds with a rope are counted in the
        background when the count is long (a large s, many pairs:
        :meth:`~nbstats.widgets.bayes_pairs.PairPosteriors.idp_bounds_quick`);
        the matrix says "updating" meanwhile.

    Attributes
    ----------
    controls : dict of str to ipywidgets.Widget
    result : dict
        ``"pairs"``: DataFrame, one row per pair (a, b) with ``prob_lower``,
        ``prob_upper`` (P(b better) under the lower and upper IDP prior; equal
        for the others), ``prob_left``, ``prob_rope``, ``prob_right`` (the
        lower bounds under the IDP), ``prob_left_upper``, ``prob_rope_upper``
        (the upper bounds; the right's is ``prob_upper``),
        ``prob_equivalent`` (P(|θ − ½| < ε): ε-indistinguishability) and
        ``decision`` (the vocabulary of :mod:`nbstats.results.decisions`,
        decided as :func:`nbstats.bayes_signrank` decides: ``"b"``, ``"a"``,
        ``"equivalent"`` (the rope), ``"undecided"``, ``"indeterminate"``);
        None while the exact IDP bounds are counted in the background.
        ``"selected"``: the :class:`BayesSignedRankResult` of the pair (a, b).
        ``"joint"``: DataFrame of statements (``better``, ``worse``,
        ``relation``, ``prob``, ``joint``, ``accepted``); None while they are
        computed in the background (see ``joint_in_background``).
        ``"friedman"``: BayesFriedmanResult.
        ``"threshold"``: l1/(l0 + l1). ``"settings"``: the controls' values
        (``"pair"``: (a, b)).
    error : str or None
    widget : ipywidgets.VBox
    aliases : dict of str to str
        Full name → display name.
    dropped_cases : list of str
        Cases dropped by ``nan_policy="omit"``.
    matrix_view, joint_view, friedman_view : ipywidgets.HTML
        The decision matrix (cells with numbers up to 10 algorithms, a heat
        map with tooltips beyond), the accepted joint statements, the
        Friedman verdict.
    plot_view : ipywidgets.Output
        The selected pair's posterior (:func:`nbstats.plots.signrank_posterior`)
        as SVG.
    timings : dict of str to float
        Seconds spent by the last update: ``compute`` (of which ``pairs``,
        ``joint``, ``friedman``) and ``render`` (of which ``matrix`` and
        ``plot``); for benchmarks.

    Notes
    -----
    *Caching.* One :class:`~nbstats.stats.bayes.weights.DirichletWeights`
    serves every pair. Per (prior, rope) the pairs' Walsh sums are computed
    once, in one pass over the draws, and kept as pairs × draws arrays; a new
    s, threshold or ε is one compiled pass over them for all pairs
    (:func:`~nbstats.widgets.bayes_pairs.pair_counts`), and only the shown
    pair gets a full result with its interval. The joint statements
    (:class:`~nbstats.widgets.bayes_joint.SignedRankJoint`) keep each pair's
    Walsh sums per draw for the current rope (the same weight on the same
    case in every pair, as the joint probability needs) and re-combine them
    with the prior's weight for a new s; the threshold and ε only compare.
    The counts of the last few settings and their statement tables are kept
    (small: pairs × a few numbers), so going back to a prior, s or rope
    seen before passes over no draws.

    *Memory.* What is kept stays within the ceiling of
    :mod:`nbstats.util.memory` (``NBSTATS_MAX_MEMORY``, 512 MiB by
    default): the pairs' sums only when they fit half of it, the joint
    statements' when they fit the other half. Beyond (200 algorithms:
    19,900 pairs × 5,000 draws are 800 MB per region), every change
    recomputes them block by block — the same numbers, in seconds rather
    than milliseconds; raise the ceiling to keep them.

    *Which s where.* The joint statements put the prior of strength s on
    "all algorithms equal" (2015, §7: a pseudo-observation at a zero
    difference, one of the priors of the IDP's set), s = 0 with the Bayesian
    bootstrap. The Bayesian Friedman test uses s as soon as it is set (moved
    from the IDP default, or with the point prior), and otherwise its own
    default, s = 1 (2015, §7; ``FRIEDMAN_DEFAULT_S``), as
    :func:`nbstats.bayes_friedman` and the report do
    (:func:`friedman_strength`). It needs at least as many cases as
    algorithms (twice as many with s = 0).

    *Same answer everywhere.* Every pair is drawn in one canonical
    orientation and the joint statements on one canonical layout of the
    table (:mod:`nbstats.stats.bayes.canonical`): the numbers do not depend
    on the order of the columns or rows, and equal those of the functions
    and of the report for the same seed.

    *Equivalence.* A pair is decided "equivalent" when its rope region
    passes the threshold (for IDP, under every prior of the set), as in
    :func:`nbstats.bayes_signrank`. ε-indistinguishability, P(|θ − ½| < ε),
    is a different statement: it is shown as ``prob_equivalent``.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.widgets.bayes import BayesDashboard
    >>> table = nbstats.datasets.load("demsar2006")
    >>> dash = BayesDashboard(table, n_samples=5_000, random_state=0)
    >>> sorted(dash.controls)
    ['a', 'b', 'epsilon', 'loss_ratio', 'prior', 'rope', 's', 'threshold']
    >>> round(dash.result["threshold"], 3)
    0.95
    >>> pair = ("C4.5+m", "C4.5+m+cf")
    >>> def decision(dash):
    ...     return dash.result["pairs"].set_index(["a", "b"]).loc[pair, "decision"]
    >>> decision(dash)  # P(b better) is 0.69 to 0.85: below 0.95
    'undecided'

    Equal losses for both errors: the threshold drops to ½ and C4.5+m+cf is
    decided better.

    >>> dash.controls["loss_ratio"].value = 1.0
    >>> dash.result["threshold"], decision(dash)
    (0.5, 'b')
    >>> "C4.5+m+cf better" in dash.matrix_view.value
    True
    """

    def __init__(
        self,
        scores: pd.DataFrame | np.ndarray,
        *,
        higher_is_better: bool = True,
        n_samples: int | None = None,
        random_state: object = 0,
        nan_policy: str = "raise",
        aliases: AliasOption | Mapping[str, str] = "auto",
        joint_in_background: bool | None = None,
    ) -> None:
        super().__init__()
        check_flag("higher_is_better", higher_is_better)
        check_random_state(random_state)
        if joint_in_background is not None:
            check_flag("joint_in_background", joint_in_background)
        table, dropped = prepare_table(scores, nan_policy)
        names = [str(c) for c in table.columns]
        if len(set(names)) != len(names):
            raise ValueError(
                f"algorithm names must stay distinct as text, got {names!r}; "
                "rename the columns."
            )
        self.table = table
        self.names = names
        self.aliases = display_names(names, aliases)
        self.dropped_cases = dropped
        self._source, self.nan_policy, self._alias_option = scores, nan_policy, aliases
        self.higher_is_better = higher_is_better
        m = table.shape[1]
        if m < 2:
            raise ValueError(f"the Bayesian dashboard needs 2 algorithms, got {m}.")
        self.n_samples = check_n_samples(
            default_draws(m) if n_samples is None else n_samples
        )
        # one seed for everything random: the same draws on every recompute
        self._seed = seed_sequence(random_state)
        # the report re-draws with an int seed (it runs in its own kernel)
        self._random_state_for_report = (
            random_state
            if isinstance(random_state, int)
            else int(self._seed.entropy % 2**32)
        )
        setup = pair_setup(
            table,
            names,
            higher_is_better=higher_is_better,
            n_samples=self.n_samples,
            seed=self._seed,
        )
        self._pairs, self._pair_index = setup.pairs, setup.pair_index
        self._diffs = setup.diffs
        self._joint_statements, self._engine = setup.joint, setup.engine
        self._a_names, self._b_names = setup.a_names, setup.b_names
        if joint_in_background is None:
            joint_in_background = len(self._pairs) * self.n_samples >= BACKGROUND_WORK
        self._start_late_work(joint_in_background)
        self._selected: tuple[tuple, BayesSignedRankResult] | None = None
        self._friedman = FriedmanVerdicts(self.table, self.higher_is_better)
        self._plotted: BayesSignedRankResult | None = None
        self._plot: views.PosteriorPlot | None = None
        self.timings: dict[str, float] = {}
        self._build_controls()
        self._build_views()
        self._connect()
        self.update(None)

    # -- set-up ------------------------------------------------------------------

    def _build_controls(self) -> None:
        spread = float(np.max(np.abs(self._diffs))) if self._diffs.size else 0.0
        rope_max = views.round_up(spread) if spread > 0 else 1.0
        self.controls = build_controls(self.names, self.aliases, rope_max)
        self._s_label, self._loss_label, self._s_default = s_and_loss_widgets(
            self.controls["s"]
        )

    def _build_views(self) -> None:
        import ipywidgets as widgets

        c = self.controls
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        self.matrix_view = widgets.HTML()
        self.joint_view = widgets.HTML()
        self.friedman_view = widgets.HTML()
        # a fixed-width plot beside a flexible text column: an Output left to
        # grow takes the whole row and squeezes the text off the page
        self.plot_view = widgets.Output(
            layout=widgets.Layout(flex="0 0 auto", width="520px")
        )
        self._dropped_view = (
            widgets.HTML(value=dropped_html(self.dropped_cases, len(self.table)))
            if self.dropped_cases
            else None
        )
        self.widget = widgets.VBox(
            [
                widgets.HBox(
                    [c["prior"], c["s"], self._s_default, self._s_label], layout=wrap
                ),
                widgets.HBox([c["loss_ratio"], self._loss_label], layout=wrap),
                widgets.HBox([c["threshold"], c["epsilon"], c["rope"]], layout=wrap),
                widgets.HBox([c["a"], c["b"]], layout=wrap),
                self._error_view,
                self.matrix_view,
                widgets.HBox(
                    [
                        self.plot_view,
                        widgets.VBox(
                            [self.friedman_view, self.joint_view],
                            layout=widgets.Layout(
                                flex="1 1 0", min_width="320px", margin="0 0 0 16px"
                            ),
                        ),
                    ],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
            ]
        )
        self._add_notes()
        self._add_export_bar()

    def report_settings(self) -> dict[str, Any]:
        """The report's Bayesian settings from the controls: the prior of the
        signed-rank tests and its strength s, the threshold, the rope, the
        loss (1, l1/l0) and the seed. With the dashboard's default draws
        (50,000 up to 12 algorithms, as the report's) the report's pair table
        is the dashboard's, number for number; ε is the dashboard's alone (the
        report states no ε-indistinguishability)."""
        c = self.controls
        settings: dict[str, Any] = {
            "prior": str(c["prior"].value),
            "threshold": float(c["threshold"].value),
            "rope": float(c["rope"].value),
            "loss": (1.0, float(c["loss_ratio"].value)),
            "random_state": self._random_state_for_report,
        }
        # the report's own defaults when the slider keeps the dashboard's
        # (there s also sets the Friedman test's, 1 by default: see
        # friedman_strength)
        if c["prior"].value != "bb" and not (
            c["prior"].value == "idp" and float(c["s"].value) == IDP_DEFAULT_S
        ):
            settings["s"] = float(c["s"].value)
        return settings

    # -- results -----------------------------------------------------------------

    def _pairs_frame(
        self, prior: str, s: float, rope: float, epsilon: float, threshold: float
    ) -> pd.DataFrame:
        probs = self._engine.probabilities(prior, s, rope, epsilon)
        # the rule of bayes_signrank (decide): the rope decides "equivalent";
        # ε-indistinguishability is shown apart (prob_equivalent)
        low, high = probs.pop("bounds")
        decision = decide_many(*low, threshold, upper=high)
        frame = pd.DataFrame(
            {"a": self._a_names, "b": self._b_names, **probs, "decision": decision}
        )
        return frame[_COLUMNS]

    def _selected_result(
        self, pair: tuple[str, str], prior: str, s: float, rope: float,
        threshold: float,
    ) -> BayesSignedRankResult:  # fmt: skip
        a, b = pair
        if a == b:
            raise ValueError(
                f"a and b are both {a!r}: choose two different algorithms."
            )
        state = (pair, prior, s, rope, threshold)
        if self._selected is None or self._selected[0] != state:
            i, j = self.names.index(a), self.names.index(b)
            k = self._pair_index.get((i, j))
            reverse = k is None  # (b, a): the mirror of the matrix's pair
            if reverse:
                k = self._pair_index[(j, i)]
            result = self._engine.result(
                k, prior, s, rope, threshold, names=(a, b), reverse=reverse
            )
            self._selected = (state, result)
        return self._selected[1]

    # -- compute / render --------------------------------------------------------

    def compute(self, changed: str | None) -> dict[str, Any]:
        start = time.perf_counter()
        c = self.controls
        prior = c["prior"].value
        s = 0.0 if prior == "bb" else float(c["s"].value)
        ratio = float(c["loss_ratio"].value)
        level = float(c["threshold"].value)  # the Friedman test's
        rope = float(c["rope"].value)
        epsilon = float(c["epsilon"].value)
        pair = (c["a"].value, c["b"].value)
        threshold = resolve_threshold(None, (1.0, ratio))

        clock = time.perf_counter()
        # the joint statements' sums of another rope, if the new rope's will
        # not be kept, go before the pairs' sums of the new rope are made
        self._joint_runner.if_idle(lambda: self._joint_statements.let_go(rope))
        # the pair shown first: it computes the rope's sums the bounds need
        selected = self._selected_result(pair, prior, s, rope, threshold)
        pairs = None  # while the exact IDP bounds are counted in the background
        if (
            prior != "idp"
            or rope <= 0
            or (self._bounds_runner.request(s, threshold, rope, "idp") is not None)
        ):
            pairs = self._pairs_frame(prior, s, rope, epsilon, threshold)
        self.timings["pairs"] = time.perf_counter() - clock
        clock = time.perf_counter()
        joint = self._joint_runner.request(
            s, threshold, rope, joint_prior(prior)
        )  # None: later
        self.timings["joint"] = time.perf_counter() - clock
        clock = time.perf_counter()
        friedman = self._friedman.result(friedman_strength(prior, s), level)
        self.timings["friedman"] = time.perf_counter() - clock
        result = {
            "pairs": pairs,
            "selected": selected,
            "joint": joint,
            "friedman": friedman,
            "threshold": threshold,
            "settings": {
                "prior": prior,
                "s": s,
                "loss_ratio": ratio,
                "threshold": level,
                "decision_threshold": threshold,
                "rope": rope,
                "epsilon": epsilon,
                "pair": pair,
                "a": pair[0],
                "b": pair[1],
            },
        }
        self.timings["compute"] = time.perf_counter() - start
        return result

    def render(self, result: dict[str, Any]) -> None:
        start = time.perf_counter()
        settings = result["settings"]
        self.controls["s"].disabled = settings["prior"] == "bb"
        self._s_label.value = views.s_label(settings["prior"], settings["s"])
        self._loss_label.value = views.loss_label(
            settings["loss_ratio"], result["threshold"]
        )
        clock = time.perf_counter()
        self._show_late(result)
        self.timings["matrix"] = time.perf_counter() - clock
        self.friedman_view.value = views.friedman_html(result["friedman"], self.aliases)
        clock = time.perf_counter()
        if result["selected"] is not self._plotted:
            self._draw(result["selected"])
            self._plotted = result["selected"]
        self.timings["plot"] = time.perf_counter() - clock
        self.timings["render"] = time.perf_counter() - start

    def update(self, changed: str | None = None) -> None:
        with self._update_lock:
            super().update(changed)

    def _draw(self, selected: BayesSignedRankResult) -> None:
        """The selected pair's posterior, as SVG in the Output widget."""
        if self._plot is None:
            self._plot = views.PosteriorPlot()
        labels = (self.aliases[selected.name_a], self.aliases[selected.name_b])
        svg = self._plot.svg(selected, labels=labels)
        self.plot_view.outputs = (
            {
                "output_type": "display_data",
                "data": {
                    "image/svg+xml": svg,
                    "text/plain": (
                        f"posterior of θ: {selected.name_a} vs {selected.name_b}"
                    ),
                },
                "metadata": {},
            },
        )

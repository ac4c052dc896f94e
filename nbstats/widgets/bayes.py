"""The Bayesian dashboard: drag s, the loss ratio, γ, ε or the rope; see claims change.

Every pair of algorithms gets a Bayesian signed-rank posterior (Benavoli et al.
2014) drawn from **one** set of Dirichlet weights (common random numbers,
DESIGN.md). What depends on the cases is computed once per (pair, prior, rope)
by :meth:`SignedRankPosterior.components`; moving s, the loss ratio, γ, ε or
the pair only re-evaluates cached arrays: no random number is drawn again, so
no Monte Carlo noise is re-rolled, and nothing per case is recomputed. Only a
new rope (or a prior not seen before) touches the cases again.
``benchmarks/bench_dashboard.py`` times each control.
"""

from __future__ import annotations

import html
import math
import time
from collections import OrderedDict
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.bayes import BayesSignedRankResult
from nbstats.scores import oriented, score_table
from nbstats.stats.bayes.decision import (
    IDP_DEFAULT_S,
    check_n_samples,
    decide,
    resolve_threshold,
)
from nbstats.stats.bayes.friedman import bayes_friedman
from nbstats.stats.bayes.posthoc import cap_joint
from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.sign import prob_b_better_sign
from nbstats.stats.bayes.signrank import SignedRankPosterior, shared_components
from nbstats.stats.bayes.summary_kernel import joint_counts, near_half_share
from nbstats.stats.bayes.weights import DirichletWeights, seed_sequence
from nbstats.widgets.base import Dashboard

__all__ = ["BayesDashboard"]

# θ within this distance of ½ counts as exactly ½ (as bayes_posthoc)
_HALF_TOLERANCE = 1e-12
#: Case-dependent posterior parts kept for earlier (prior, rope) settings, bytes.
_CACHE_BYTES = 256 * 2**20

_PRIORS = (
    ("IDP (near-ignorance)", "idp"),
    ("Bayesian bootstrap (s → 0)", "bb"),
    ("pseudo-observation at 0", "point"),
)
#: decision → (label in the matrix, background colour)
_DECISIONS = {
    "b": ("b better", "#b9e3bb"),
    "a": ("keep a", "#c9dcf3"),
    "indeterminate": ("indeterminate", "#ffe2a8"),
    "equivalent": ("equivalent", "#e5d0f2"),
}


class BayesDashboard(Dashboard):
    """Bayesian comparison of every pair of algorithms, live.

    For each pair (a, b) the Bayesian signed-rank test (Benavoli et al. 2014)
    gives the posterior probability that b is better; a loss ratio turns it
    into a decision, the near-ignorance prior (IDP) can leave it
    indeterminate, and ε declares pairs practically equivalent. Around that:
    the joint statements that hold together (Benavoli et al. 2015, §5.3, sign
    test) and the Bayesian Friedman verdict.

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
    - ``gamma``: statements must hold jointly with probability > 1 − γ; a
      pair is equivalent when P(|θ − ½| < ε) > 1 − γ; the Friedman region has
      credibility 1 − γ.
    - ``rope``: half-width of the region of practical equivalence on the
      scores' scale (0 = none); recomputed on release only, as it needs new
      per-case sums.
    - ``epsilon``: ε of the equivalence check, on the θ scale.
    - ``pair``: the pair ``(a, b)`` whose posterior is drawn.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms (see
        :func:`nbstats.score_table`).
    higher_is_better : bool
        Whether higher scores are better.
    n_samples : int
        Posterior draws, shared by every pair and by the joint statements.
    random_state : None, int or Generator
        Seed of the draws. With an int, every pair's numbers equal
        :func:`nbstats.bayes_signrank` and the statements equal
        :func:`nbstats.bayes_posthoc` (``test="sign"``) for the same seed.

    Attributes
    ----------
    controls : dict of str to ipywidgets.Widget
    result : dict
        ``"pairs"``: DataFrame, one row per pair (a, b) with ``prob_lower``,
        ``prob_upper`` (P(b better) under the lower and upper IDP prior; equal
        for the others), ``prob_left``, ``prob_rope``, ``prob_right``,
        ``prob_equivalent`` and ``decision`` (``"b"``, ``"a"`` (keep a),
        ``"indeterminate"`` or ``"equivalent"``, which wins over the others).
        ``"selected"``: the :class:`BayesSignedRankResult` of ``pair``.
        ``"joint"``: DataFrame of statements (``better``, ``worse``, ``prob``,
        ``joint``, ``accepted``). ``"friedman"``: BayesFriedmanResult.
        ``"threshold"``: l1/(l0 + l1). ``"settings"``: the controls' values.
    error : str or None
    widget : ipywidgets.VBox
    matrix_view, joint_view, friedman_view : ipywidgets.HTML
        The decision matrix, the accepted joint statements, the Friedman verdict.
    plot_view : ipywidgets.Output
        The selected pair's posterior (:func:`nbstats.plots.signrank_posterior`)
        as SVG.
    timings : dict of str to float
        Seconds spent by the last update: ``compute`` (of which ``pairs``,
        ``equivalence``, ``joint``, ``friedman``) and ``render`` (of which
        ``plot``); for benchmarks.

    Notes
    -----
    *Caching.* One :class:`~nbstats.stats.bayes.weights.DirichletWeights`
    serves every pair. Per pair and (prior, rope),
    :meth:`SignedRankPosterior.components` runs once and is cached; s and
    the threshold only re-run :meth:`SignedRankPosterior.result` on those
    arrays (the Gamma(s) prior weights once per s for all pairs). The joint
    statements keep the draws' sign-test sums ``E @ H`` and re-evaluate
    θ = (E @ h + ½ g0) / (g0 + Σ e) for a new s; γ and ε only compare
    cached probabilities.

    *Which s where.* The joint statements and the Friedman test put the
    prior of strength s on "all algorithms equal" (2015, §7); with the
    Bayesian bootstrap they use s = 0. The Friedman test uses the ellipsoid
    (eq. 19) when there are at least as many cases as algorithms, Monte
    Carlo otherwise.

    *Equivalence.* Under IDP a pair is equivalent only if both the lower and
    the upper posterior give P(|θ − ½| < ε) > 1 − γ.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.widgets.bayes import BayesDashboard
    >>> table = nbstats.datasets.load("demsar2006")
    >>> dash = BayesDashboard(table, n_samples=5_000, random_state=0)
    >>> sorted(dash.controls)
    ['epsilon', 'gamma', 'loss_ratio', 'pair', 'prior', 'rope', 's']
    >>> round(dash.result["threshold"], 3)
    0.95
    >>> pair = ("C4.5+m", "C4.5+m+cf")
    >>> def decision(dash):
    ...     return dash.result["pairs"].set_index(["a", "b"]).loc[pair, "decision"]
    >>> decision(dash)  # P(b better) is 0.69 to 0.85: below 0.95, keep a
    'a'

    Equal losses for both errors: the threshold drops to ½ and b is preferred.

    >>> dash.controls["loss_ratio"].value = 1.0
    >>> dash.result["threshold"], decision(dash)
    (0.5, 'b')
    >>> "b better" in dash.matrix_view.value
    True
    """

    def __init__(
        self,
        scores: pd.DataFrame | np.ndarray,
        *,
        higher_is_better: bool = True,
        n_samples: int = 50_000,
        random_state: object = 0,
    ) -> None:
        super().__init__()
        table = score_table(scores)
        names = [str(c) for c in table.columns]
        if len(set(names)) != len(names):
            raise ValueError(
                f"algorithm names must stay distinct as text, got {names!r}; "
                "rename the columns."
            )
        self.table = table
        self.names = names
        self.higher_is_better = higher_is_better
        self.n_samples = check_n_samples(n_samples)
        values = oriented(table.to_numpy(), higher_is_better)
        n, m = values.shape
        self._pairs = list(combinations(range(m), 2))
        # d > 0 where the second algorithm of the pair (b) is better
        self._diffs = np.column_stack(
            [values[:, j] - values[:, i] for i, j in self._pairs]
        )
        # one seed for everything random: the same draws on every recompute
        self._seed = seed_sequence(random_state)
        # the report re-draws with an int seed (it runs in its own kernel)
        self._random_state_for_report = (
            random_state
            if isinstance(random_state, int)
            else int(self._seed.entropy % 2**32)
        )
        self._draws = DirichletWeights(n, self.n_samples, self._seed)
        self._gammas = SharedPrior()
        self._shared: dict[str, np.ndarray] = {}
        self._parts: OrderedDict[tuple[str, float], dict[int, tuple]] = OrderedDict()
        self._pair_state: tuple | None = None
        self._pair_results: list[BayesSignedRankResult] = []
        self._equivalence: tuple[tuple, np.ndarray] | None = None
        self._selected: tuple[tuple, BayesSignedRankResult] | None = None
        self._joint_state: tuple[float, np.ndarray] | None = None
        self._friedman: tuple[tuple, Any] | None = None
        self._plotted: BayesSignedRankResult | None = None
        self._plot: _PosteriorPlot | None = None
        self.timings: dict[str, float] = {}
        self._prepare_joint()
        self._build_controls()
        self._build_views()
        self._connect()
        self.update(None)

    # -- set-up ------------------------------------------------------------------

    def _prepare_joint(self) -> None:
        """The s-independent part of the sign-test statements (E @ H, Σ e, u).

        As :func:`nbstats.bayes_posthoc` (``test="sign"``): the statement of
        each pair is its more probable direction (exact marginals, Theorem 2
        of the 2015 paper), statements are sorted by that probability, and
        ``E @ H`` is kept in that order.
        """
        indicators = np.heaviside(self._diffs, 0.5)  # n × K
        wins = (self._diffs > 0).sum(axis=0)
        losses = (self._diffs < 0).sum(axis=0)
        second = np.array(
            [prob_b_better_sign(w, lo) for w, lo in zip(wins, losses, strict=True)]
        )
        first = np.array(
            [prob_b_better_sign(lo, w) for w, lo in zip(wins, losses, strict=True)]
        )
        second_better = second >= first
        self._statement_prob = np.where(second_better, second, first)
        self._order = np.argsort(-self._statement_prob, kind="stable")
        self._second_better = second_better
        self._sorted_second = second_better[self._order]
        rows, k = self._draws.n_samples, indicators.shape[1]
        self._events = np.empty((rows, k))
        self._event_total = np.empty(rows)
        uniforms = np.empty(rows)
        for chunk in self._draws:
            e = chunk.exponentials
            self._events[chunk.rows] = (e @ indicators)[:, self._order]
            self._event_total[chunk.rows] = e.sum(axis=1)
            uniforms[chunk.rows] = chunk.uniforms
        self._shared["uniforms"] = uniforms
        self._gammas.uniforms = uniforms

    def _build_controls(self) -> None:
        import ipywidgets as widgets

        wide = {"description_width": "initial"}
        spread = float(np.max(np.abs(self._diffs))) if self._diffs.size else 0.0
        rope_max = _round_up(spread) if spread > 0 else 1.0
        pairs = [
            (f"{self.names[i]} vs {self.names[j]}", (self.names[i], self.names[j]))
            for i, j in self._pairs
        ]
        self.controls = {
            "s": widgets.FloatLogSlider(
                value=IDP_DEFAULT_S,
                base=10,
                min=-2,
                max=2,
                step=0.01,
                readout_format=".3g",
                description=f"s (IDP ◆ {IDP_DEFAULT_S:.3f})",
                style=wide,
            ),
            "prior": widgets.Dropdown(
                options=_PRIORS, value="idp", description="prior"
            ),
            "loss_ratio": widgets.FloatLogSlider(
                value=19.0,
                base=10,
                min=0,
                max=math.log10(999),
                step=0.01,
                readout_format=".3g",
                description="loss ratio l1/l0",
                style=wide,
            ),
            "gamma": widgets.FloatSlider(
                value=0.05,
                min=0.001,
                max=0.5,
                step=0.001,
                readout_format=".3f",
                description="γ",
            ),
            "rope": widgets.FloatSlider(
                value=0.0,
                min=0.0,
                max=rope_max,
                step=rope_max / 200,
                readout_format=".3g",
                continuous_update=False,
                description="rope ±",
            ),
            "epsilon": widgets.FloatSlider(
                value=0.05,
                min=0.005,
                max=0.25,
                step=0.005,
                readout_format=".3f",
                description="ε",
            ),
            "pair": widgets.Dropdown(
                options=pairs, value=pairs[0][1], description="pair"
            ),
        }
        self._s_label = widgets.HTML()
        self._loss_label = widgets.HTML()
        self._s_default = widgets.Button(
            description="◆ IDP default", tooltip="s = (√17 − 3)/2 (2014, §3.1)"
        )
        self._s_default.on_click(
            lambda _: setattr(self.controls["s"], "value", IDP_DEFAULT_S)
        )

    def _build_views(self) -> None:
        import ipywidgets as widgets

        c = self.controls
        self.matrix_view = widgets.HTML()
        self.joint_view = widgets.HTML()
        self.friedman_view = widgets.HTML()
        # a fixed-width plot beside a flexible text column: an Output left to
        # grow takes the whole row and squeezes the text off the page
        self.plot_view = widgets.Output(
            layout=widgets.Layout(flex="0 0 auto", width="520px")
        )
        self.widget = widgets.VBox(
            [
                widgets.HBox([c["prior"], c["s"], self._s_default, self._s_label]),
                widgets.HBox([c["loss_ratio"], self._loss_label]),
                widgets.HBox([c["gamma"], c["epsilon"], c["rope"]]),
                c["pair"],
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
                    ]
                ),
            ]
        )
        self._add_export_bar()

    def report_settings(self) -> dict[str, Any]:
        """The report's Bayesian settings from the controls (prior s, γ, rope,
        loss (1, l1/l0)); the report's pairwise tests use the IDP prior."""
        c = self.controls
        settings: dict[str, Any] = {
            "gamma": float(c["gamma"].value),
            "rope": float(c["rope"].value),
            "loss": (1.0, float(c["loss_ratio"].value)),
            "random_state": self._random_state_for_report,
        }
        if c["prior"].value != "bb":
            settings["s"] = float(c["s"].value)
        return settings

    # -- caches ------------------------------------------------------------------

    def _components(self, k: int, prior: str, rope: float) -> tuple[Any, dict]:
        """Posterior and s-free parts of pair k, cached by (pair, prior, rope)."""
        self._ensure_components(prior, rope, [k])
        return self._parts[prior, rope][k]

    def _ensure_components(self, prior: str, rope: float, pairs: list[int]) -> None:
        """Compute the missing pairs of (prior, rope) in one pass over the draws."""
        group = self._parts.setdefault((prior, rope), {})
        self._parts.move_to_end((prior, rope))
        missing = [k for k in pairs if k not in group]
        if not missing:
            return
        # θ does not depend on the rope: another rope's posteriors lend their
        # set-up and their θ sums
        source = next(
            (
                other
                for (other_prior, _), other in reversed(self._parts.items())
                if other_prior == prior and all(k in other for k in missing)
            ),
            None,
        )
        if source is not None:
            posteriors = [source[k][0].with_rope(rope) for k in missing]
        else:
            posteriors = [
                SignedRankPosterior(
                    self._diffs[:, k], prior, 0.0, rope, prior_gammas=self._gammas
                )
                for k in missing
            ]
        known = [source[k][1] for k in missing] if source and rope > 0 else None
        computed = shared_components(posteriors, self._draws, known_theta=known)
        # the same draws in every pair: share (and so memoise on) one copy
        shared = {
            key: self._shared.setdefault(key, computed[0][key])
            for key in ("uniforms", "total")
        }
        same = {
            key: computed[0][key] is array or np.array_equal(computed[0][key], array)
            for key, array in shared.items()
        }
        for k, posterior, parts in zip(missing, posteriors, computed, strict=True):
            for key, array in shared.items():
                if same[key]:
                    parts[key] = array
            group[k] = (posterior, parts)
        self._gammas.total = self._shared["total"]

    def _evict(self) -> None:
        """Forget the oldest (prior, rope) settings beyond the memory budget."""

        def size(group: dict[int, tuple]) -> int:
            # uniforms and total are shared by every pair (θ's sums may be
            # shared with another rope: counted in each, an upper bound)
            return sum(
                array.nbytes
                for _, parts in group.values()
                for key, array in parts.items()
                if key.startswith(("quad_", "cross_"))
            )

        while (
            len(self._parts) > 1 and sum(map(size, self._parts.values())) > _CACHE_BYTES
        ):
            self._parts.popitem(last=False)

    def _pair_posteriors(
        self, prior: str, s: float, rope: float, threshold: float
    ) -> list[BayesSignedRankResult]:
        state = (prior, s, rope)
        if self._pair_state != state:
            results = []
            self._ensure_components(prior, rope, list(range(len(self._pairs))))
            # only the rope moved: θ's draws stay (they do not depend on it)
            same_theta = self._pair_state is not None and self._pair_state[:2] == (
                prior,
                s,
            )
            for k, (i, j) in enumerate(self._pairs):
                posterior, parts = self._components(k, prior, rope)
                before = self._pair_results[k] if same_theta else None
                results.append(
                    posterior.result(
                        parts,
                        s=s,
                        threshold=threshold,
                        names=(self.names[i], self.names[j]),
                        interval=False,  # the matrix shows probabilities only
                        theta_draws=(
                            (before.samples_lower, before.samples_upper)
                            if before is not None
                            else None
                        ),
                    )
                )
            self._evict()
            self._pair_results, self._pair_state = results, state
        return self._pair_results

    def _prob_equivalent(self, epsilon: float) -> np.ndarray:
        # θ's draws, and so P(|θ - ½| < ε), depend on the prior and s, not the rope
        state = (self._pair_state[:2], epsilon)
        if self._equivalence is None or self._equivalence[0] != state:
            values = np.array(
                [
                    min(
                        near_half_share(res.samples_lower, epsilon),
                        near_half_share(res.samples_upper, epsilon),
                    )
                    for res in self._pair_results
                ]
            )
            self._equivalence = (state, values)
        return self._equivalence[1]

    def _selected_result(self, k: int, threshold: float) -> BayesSignedRankResult:
        # the matrix's results skip the credible interval and the rope's
        # draws; the selected pair shows them, so it gets its own result (on
        # the matrix's θ draws)
        cached = self._pair_results[k]
        state = (self._pair_state, k, threshold)
        if self._selected is None or self._selected[0] != state:
            prior, s, rope = self._pair_state
            posterior, parts = self._components(k, prior, rope)
            result = posterior.result(
                parts,
                s=s,
                threshold=threshold,
                names=(cached.name_a, cached.name_b),
                theta_draws=(cached.samples_lower, cached.samples_upper),
            )
            self._selected = (state, result)
        return self._selected[1]

    def _joint(self, s: float, gamma: float) -> pd.DataFrame:
        """Statements by probability; joint = all up to here hold (2015, §5.3)."""
        if self._joint_state is None or self._joint_state[0] != s:
            g0 = self._gammas(s, self._shared["uniforms"])
            # θ = (E h + ½ g0) / (g0 + Σ e) per statement: the prior's mass
            # sits on "equal"; compiled, a draw stops at its first failure
            counts = joint_counts(
                self._events,
                self._event_total,
                np.asarray(g0, dtype=float),
                self._sorted_second,
                _HALF_TOLERANCE,
            )
            marginals = np.asarray(self._statement_prob)[self._order]
            joint = cap_joint(counts / self._draws.n_samples, marginals)
            self._joint_state = (s, joint)
        joint = self._joint_state[1]
        rows = []
        for rank, k in enumerate(self._order):
            i, j = self._pairs[k]
            better, worse = (j, i) if self._second_better[k] else (i, j)
            rows.append(
                {
                    "better": self.names[better],
                    "worse": self.names[worse],
                    "prob": float(self._statement_prob[k]),
                    "joint": float(joint[rank]),
                    "accepted": bool(joint[rank] > 1 - gamma),
                }
            )
        return pd.DataFrame(
            rows, columns=["better", "worse", "prob", "joint", "accepted"]
        )

    def _friedman_result(self, s: float, gamma: float) -> Any:
        key = (s, gamma)
        if self._friedman is None or self._friedman[0] != key:
            n, m = self.table.shape
            method = "ellipsoid" if n >= m else "montecarlo"
            result = bayes_friedman(
                self.table,
                s=s,
                gamma=gamma,
                method=method,
                n_samples=self.n_samples,
                higher_is_better=self.higher_is_better,
                random_state=self._seed,
            )
            self._friedman = (key, result)
        return self._friedman[1]

    # -- compute / render --------------------------------------------------------

    def compute(self, changed: str | None) -> dict[str, Any]:
        start = time.perf_counter()
        c = self.controls
        prior = c["prior"].value
        s = 0.0 if prior == "bb" else float(c["s"].value)
        ratio = float(c["loss_ratio"].value)
        gamma = float(c["gamma"].value)
        rope = float(c["rope"].value)
        epsilon = float(c["epsilon"].value)
        pair = tuple(c["pair"].value)
        threshold = resolve_threshold(None, (1.0, ratio))

        clock = time.perf_counter()
        results = self._pair_posteriors(prior, s, rope, threshold)
        self.timings["pairs"] = time.perf_counter() - clock
        clock = time.perf_counter()
        equivalent = self._prob_equivalent(epsilon)
        self.timings["equivalence"] = time.perf_counter() - clock
        rows = []
        for res, p_eq in zip(results, equivalent, strict=True):
            decision = decide(res.prob_lower, res.prob_upper, threshold)
            if p_eq > 1 - gamma:
                decision = "equivalent"
            rows.append(
                {
                    "a": res.name_a,
                    "b": res.name_b,
                    "prob_lower": res.prob_lower,
                    "prob_upper": res.prob_upper,
                    "prob_left": res.prob_left,
                    "prob_rope": np.nan if res.prob_rope is None else res.prob_rope,
                    "prob_right": res.prob_right,
                    "prob_equivalent": float(p_eq),
                    "decision": decision,
                }
            )
        pairs = pd.DataFrame(rows)
        k = self._pairs.index((self.names.index(pair[0]), self.names.index(pair[1])))
        selected = self._selected_result(k, threshold)
        clock = time.perf_counter()
        joint = self._joint(s, gamma)
        self.timings["joint"] = time.perf_counter() - clock
        clock = time.perf_counter()
        friedman = self._friedman_result(s, gamma)
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
                "gamma": gamma,
                "rope": rope,
                "epsilon": epsilon,
                "pair": pair,
            },
        }
        self.timings["compute"] = time.perf_counter() - start
        return result

    def render(self, result: dict[str, Any]) -> None:
        start = time.perf_counter()
        settings = result["settings"]
        self.controls["s"].disabled = settings["prior"] == "bb"
        self._s_label.value = _s_label(settings["prior"], settings["s"])
        self._loss_label.value = _loss_label(
            settings["loss_ratio"], result["threshold"]
        )
        self.matrix_view.value = _matrix_html(
            self.names, result["pairs"], settings, result["threshold"]
        )
        self.joint_view.value = _joint_html(result["joint"], settings)
        self.friedman_view.value = _friedman_html(result["friedman"])
        clock = time.perf_counter()
        if result["selected"] is not self._plotted:
            self._draw(result["selected"])
            self._plotted = result["selected"]
        self.timings["plot"] = time.perf_counter() - clock
        self.timings["render"] = time.perf_counter() - start

    def _draw(self, selected: BayesSignedRankResult) -> None:
        """The selected pair's posterior, as SVG in the Output widget."""
        if self._plot is None:
            self._plot = _PosteriorPlot()
        svg = self._plot.svg(selected)
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


class _PosteriorPlot:
    """:func:`nbstats.plots.signrank_posterior`'s picture for one result after another.

    The picture (curves, limits, texts) is computed as for matplotlib, reusing
    the density of unchanged draws (a new threshold only changes the texts),
    and written as SVG by :mod:`nbstats.widgets.posterior_svg` in about a
    millisecond: matplotlib spent about 30 ms per redraw laying out text. The
    SVG depends only on the result (``fresh=True`` ignores the cached
    density; tested to give the same SVG).
    """

    def __init__(self) -> None:
        self._picture: Any = None

    def svg(self, result: BayesSignedRankResult, *, fresh: bool = False) -> str:
        from nbstats.plots.posterior import _signrank_picture
        from nbstats.widgets.posterior_svg import signrank_svg

        old = None if fresh else self._picture
        self._picture = None  # a failed redraw starts afresh next time
        picture = _signrank_picture(result, None, True, previous=old)
        svg = signrank_svg(
            picture, alt=f"posterior of θ: {result.name_a} vs {result.name_b}"
        )
        self._picture = picture
        return svg


# -- views as HTML --------------------------------------------------------------


def _round_up(x: float) -> float:
    """x rounded up to two significant digits."""
    unit = 10.0 ** (math.floor(math.log10(x)) - 1)
    return math.ceil(x / unit - 1e-9) * unit


def _s_label(prior: str, s: float) -> str:
    if prior == "bb":
        return "s → 0 (Bayesian bootstrap)"
    mark = " ◆ = IDP default (√17 − 3)/2" if math.isclose(s, IDP_DEFAULT_S) else ""
    return f"s = {s:.3g}{mark}"


def _loss_label(ratio: float, threshold: float) -> str:
    return (
        f"prefer b if P(b better) &gt; l1/(l0+l1) = <b>{threshold:.3f}</b>; "
        f"frequentist reading: one-sided α = l0/(l0+l1) = {1 - threshold:.3f}"
    )


def _probabilities(row: Any, rope: bool) -> str:
    if row.prob_lower != row.prob_upper:
        text = f"P(b) {row.prob_lower:.3f}–{row.prob_upper:.3f}"
    else:
        text = f"P(b) {row.prob_lower:.3f}"
    if rope:
        text += (
            f"<br>left/rope/right {row.prob_left:.2f}/{row.prob_rope:.2f}/"
            f"{row.prob_right:.2f}"
        )
    return text + f"<br>P(|θ−½|&lt;ε) {row.prob_equivalent:.3f}"


def _matrix_html(
    names: list[str], pairs: pd.DataFrame, settings: dict, threshold: float
) -> str:
    esc = [html.escape(name) for name in names]
    index = {name: k for k, name in enumerate(names)}
    cells: dict[tuple[int, int], str] = {}
    rope = settings["rope"] > 0
    for row in pairs.itertuples(index=False):
        i, j = index[row.a], index[row.b]
        label, colour = _DECISIONS[row.decision]
        tip = html.escape(f"{row.a} vs {row.b}: {label}", quote=True)
        cells[i, j] = (
            f'<td title="{tip}" style="background:{colour};padding:3px 6px;'
            f'border:1px solid #fff;font-size:11px" data-decision="{row.decision}">'
            f"<b>{label}</b><br>{_probabilities(row, rope)}</td>"
        )
    empty = '<td style="background:#f4f4f4;border:1px solid #fff"></td>'
    header = "".join(f'<th style="padding:3px 6px">{name}</th>' for name in esc[1:])
    body = []
    for i in range(len(names) - 1):
        tds = "".join(cells.get((i, j), empty) for j in range(1, len(names)))
        body.append(
            f'<tr><th style="text-align:right;padding:3px 6px">{esc[i]}</th>{tds}</tr>'
        )
    legend = " ".join(
        f'<span style="background:{colour};padding:1px 6px">{label}</span>'
        for label, colour in _DECISIONS.values()
    )
    prior = {"idp": "IDP", "bb": "Bayesian bootstrap", "point": "point prior"}[
        settings["prior"]
    ]
    caption = (
        f"Row a vs column b: is b better? (Bayesian signed-rank, {prior}"
        + (f", s = {settings['s']:.3g}" if settings["prior"] != "bb" else "")
        + (f", rope ±{settings['rope']:.3g}" if rope else "")
        + f"; prefer b if P(b) &gt; {threshold:.3f}; equivalent if "
        f"P(|θ−½| &lt; {settings['epsilon']:.3g}) &gt; {1 - settings['gamma']:.3g})"
    )
    return (
        '<div class="nbstats-bayes-matrix">'
        f'<div style="font-size:12px;margin:4px 0">{caption}</div>'
        '<table style="border-collapse:collapse">'
        f"<tr><th></th>{header}</tr>{''.join(body)}</table>"
        f'<div style="font-size:11px;margin-top:4px">{legend}</div></div>'
    )


def _joint_html(joint: pd.DataFrame, settings: dict) -> str:
    level = 1 - settings["gamma"]
    accepted = joint[joint["accepted"]]
    head = (
        f"<b>Joint statements</b> (sign test, s = {settings['s']:.3g}): "
        f"{len(accepted)} of {len(joint)} hold together with probability "
        f"&gt; {level:.3g}"
    )
    if accepted.empty:
        return f'<div style="font-size:12px">{head}.</div>'
    pad = "padding:1px 8px"
    rows = "".join(
        f'<tr><td style="{pad}">{html.escape(r.better)} &gt; '
        f"{html.escape(r.worse)}</td>"
        f'<td style="{pad};text-align:right">{r.prob:.3f}</td>'
        f'<td style="{pad};text-align:right">{r.joint:.3f}</td></tr>'
        for r in accepted.itertuples(index=False)
    )
    return (
        f'<div style="font-size:12px">{head}'
        '<table style="border-collapse:collapse;margin-top:4px;font-size:12px">'
        f'<tr><th style="{pad}">statement</th><th style="{pad}">P</th>'
        f'<th style="{pad}">joint P (it and all above)</th></tr>'
        f"{rows}</table></div>"
    )


def _friedman_html(res: Any) -> str:
    ranks = ", ".join(
        f"{html.escape(str(name))} {rank:.2f}" for name, rank in res.mean_ranks.items()
    )
    method = "ellipsoid" if res.method == "ellipsoid" else "Monte Carlo"
    return (
        f'<div style="font-size:12px"><b>Bayesian Friedman</b> ({method}, '
        f"s = {res.s:.3g}): {html.escape(res.decision)}. "
        f"Distance² of equal ranks {res.statistic:.3g}, region up to {res.rho:.3g}. "
        f"Posterior mean ranks (1 = best): {ranks}.</div>"
    )

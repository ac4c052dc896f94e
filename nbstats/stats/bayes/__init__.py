"""Bayesian tests with the Dirichlet process (Benavoli et al. 2014, 2015, 2017).

The map of this package — which module does what, and which path a caller
takes.

Public functions (one module each)
    :func:`bayes_signrank` (``signrank``), :func:`bayes_signrank_pairs`
    (``pairs``), :func:`bayes_posthoc` (``posthoc``), :func:`bayes_sign_test`
    (``sign``), :func:`bayes_friedman` (``friedman``, with
    ``friedman_calibration``) and the Plackett–Luce ranking
    (``plackett_luce``, ``plackett_luce_sampler``, ``plackett_luce_kernel``).

The signed-rank engine: one draw, one sum, one count
    - ``weights`` — :class:`~.weights.DirichletWeights`: the posterior
      draws (exponentials and the prior's uniforms) from one seed, in
      chunks within the memory ceiling (``memory``); ``exponentials`` their
      compiled Exp(1) generator; ``shared_prior`` memoises the Gamma(s) weights of the
      prior for posteriors on the same draws.
    - ``walsh`` / ``walsh_kernel`` — the weighted Walsh sums
      ``Σ_i Σ_j w_i w_j H(±(z_i + z_j) − c)`` in O(n) per draw: one compiled
      kernel (:func:`~.walsh_kernel.walsh_sums`) behind every view.
      :class:`~.walsh.WalshPlan` sets up one pair, :class:`~.pair_sums.PairSums`
      (with ``pair_kernel.first_rows``) many pairs at once.
    - ``summary_kernel`` / ``pair_kernel`` — the prior's combination per draw
      and the counts of draws (θ > ½, each rope region's winners);
      ``bounds`` — the ten counts' layout, the mirror for (b, a), and each
      region's lower and upper probability under the near-ignorance prior;
      ``placements`` / ``placement_kernel`` — with a rope, those bounds
      exactly: each region's draws won at every placement of the prior's
      pseudo-observation, the minimum and maximum;
      ``decision`` — the decision rule on those bounds.
    - ``signrank_posterior`` (:class:`SignedRankPosterior`, one pair with
      its θ draws, for plots and the dashboard's selected pair),
      ``signrank_summary`` (its result) and ``signrank_sums`` (many
      posteriors on shared draws, exact posterior means, the MC error);
      ``signrank_normal`` — the normal approximation for many cases.
    - ``pair_blocks`` — :class:`~.pair_blocks.PairBlocks`: one pair in full
      (``result``, the path of :func:`bayes_signrank`) or many pairs on one
      set of draws, block by block, counted without storing draws
      (``table``, the path of :func:`bayes_signrank_pairs`; ``counts``, of
      the dashboard's pair matrix).
    - ``joint`` / ``joint_kernel`` — :class:`~.joint.JointDraws`, the joint
      statements of :func:`bayes_posthoc` and the dashboard's joint panel:
      every pair's region code per draw (point prior, or the region that
      holds for every prior of the near-ignorance set) and the joint
      probability of each prefix of the statements.

Which path, and which numbers agree
    ``canonical`` draws every pair in one orientation and mirrors it for
    (b, a), so :func:`bayes_signrank`, the pairs table, the report's table
    and the dashboard's matrix give a pair bit-identical numbers for the
    same seed (the weights go to each pair's sorted differences). The joint
    statements need the same weight on the same case in every pair (a joint
    posterior), so they use the same seed on the table's canonical layout:
    their marginals equal the pair tables' within Monte Carlo error, not bit
    for bit.

Under the near-ignorance prior (IDP, the default of the signed-rank test)
every probability is an interval [lower, upper] over the prior set
(``bounds``); a decision — better, equivalent, undecided, indeterminate —
is taken on the bounds (:func:`~.decision.decide`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nbstats.util.lazy import lazy_attributes

#: Public name -> the module that defines it, imported on first use (PEP 562):
#: a caller of one function loads that function's module, not the package's.
_LAZY = {
    "bayes_friedman": "nbstats.stats.bayes.friedman",
    "bayes_posthoc": "nbstats.stats.bayes.posthoc",
    "bayes_sign_test": "nbstats.stats.bayes.sign",
    "bayes_signrank": "nbstats.stats.bayes.signrank.one_pair",
    "bayes_signrank_pairs": "nbstats.stats.bayes.signrank.pairs",
}

__all__ = [
    "bayes_friedman",
    "bayes_posthoc",
    "bayes_sign_test",
    "bayes_signrank",
    "bayes_signrank_pairs",
]

__getattr__, __dir__ = lazy_attributes("nbstats.stats.bayes", _LAZY, globals())

if TYPE_CHECKING:  # static analysers and IDEs see the eager imports
    from nbstats.stats.bayes.friedman import bayes_friedman
    from nbstats.stats.bayes.posthoc import bayes_posthoc
    from nbstats.stats.bayes.sign import bayes_sign_test
    from nbstats.stats.bayes.signrank.one_pair import bayes_signrank
    from nbstats.stats.bayes.signrank.pairs import bayes_signrank_pairs

"""Joint Bayesian multiple comparisons (Benavoli et al. 2015, §5.3)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, Literal

import numpy as np
import pandas as pd

from nbstats.results.bayes import BayesPosthocResult
from nbstats.scores.names import name_index
from nbstats.scores.ranks import oriented, rank_rows
from nbstats.scores.table import NanPolicy, score_table
from nbstats.stats.bayes.canonical import canonical_table
from nbstats.stats.bayes.draws import check_n_samples
from nbstats.stats.bayes.joint import (
    JointDraws,
    cap_joint,
    joint_from_codes,
    joint_shares,
    keeps_codes,
    region_shares,
    statement_table,
)
from nbstats.stats.bayes.joint_events import (
    LEFT,
    RIGHT,
    ROPE,
    SignedRankEvents,
    SignEvents,
)
from nbstats.stats.bayes.precision import check_target, precise_joint
from nbstats.stats.bayes.priors import FRIEDMAN_DEFAULT_S, check_s
from nbstats.stats.bayes.sign import PRIOR_PLACES, PriorPlace, prob_b_better_sign
from nbstats.stats.bayes.signrank.one_pair import prior_strength
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.stats.groups import nonsignificant_groups
from nbstats.util.checks import (
    check_choice,
    check_flag,
    check_fraction,
    check_positive,
    check_random_state,
)
from nbstats.util.memory import budget, get_memory_ceiling
from nbstats.util.progress import progress_bar
from nbstats.util.random import seed_sequence

__all__ = [
    "LEFT",
    "RIGHT",
    "ROPE",
    "SignEvents",
    "SignedRankEvents",
    "bayes_posthoc",
    "cap_joint",
    "joint_from_codes",
    "joint_shares",
    "posthoc_memory",
    "region_shares",
    "statement_table",
]


def bayes_posthoc(
    scores: pd.DataFrame | np.ndarray,
    *,
    s: float | None = None,
    threshold: float = 0.95,
    test: Literal["sign", "signrank"] = "sign",
    rope: float = 0.0,
    prior_at: PriorPlace = "rope",
    prior: Literal["point", "idp"] | None = None,
    n_samples: int = 50_000,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: object = None,
    groups: bool = True,
    progress: bool | None = None,
    mc_error: float | None = None,
) -> BayesPosthocResult:
    """Which algorithms are better than which, with a *joint* posterior guarantee.

    For every pair the most probable of its regions is chosen as its
    statement ("j is better than i", "i is better than j" and, with a rope,
    "i and j are practically equivalent"); the statements are sorted by that
    probability, and the longest prefix whose **joint** posterior probability
    (all of them true at once) exceeds ``threshold`` is accepted. The joint
    probability is the share of posterior draws in which every statement of
    the prefix holds, all statements evaluated on the *same* draw of the
    Dirichlet weights, so dependent statements are not penalised as if
    independent (Benavoli et al. 2015, §5.3, following Gelman & Tuerlinckx).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    s : float, optional
        Prior strength (>= 0), placed on "all algorithms equal" (2015, §7).
        Default None: the test's default, 1 for the sign test
        (:data:`~nbstats.stats.bayes.priors.FRIEDMAN_DEFAULT_S`), and for
        the signed-rank test that of :func:`nbstats.bayes_signrank` with the
        same prior (about 0.56 for ``"idp"``, 0.5 for ``"point"``).
    threshold : float
        Accepted statements hold jointly with posterior probability above
        ``threshold``, in (0, 1); default 0.95 (γ = 1 − threshold in
        Benavoli et al. 2015).
    test : {"sign", "signrank"}
        ``"sign"``: θ = P(j > i) + ½ P(j = i) per pair (marginal probabilities
        exact, Theorem 2). ``"signrank"``: the signed-rank θ of
        :func:`nbstats.bayes_signrank` with the prior's pseudo-observation at
        a zero difference.
    rope : float
        Half-width of the region of practical equivalence (``>= 0``), in score
        units. ``0``: two regions per pair, "j better" (θ > ½) and "i
        better" (θ < ½). ``> 0``: three regions, as in
        :func:`nbstats.bayes_sign_test` and :func:`nbstats.bayes_signrank`
        with the same rope: left (i better by more than the rope), rope and
        right (j better by more than the rope); in each posterior draw the
        region with the largest probability holds (ties to the first), so a
        pair's marginal ``prob`` is that test's ``prob_left``, ``prob_rope``
        or ``prob_right`` (up to Monte Carlo error), and a statement of
        equivalence holds in a draw when the rope is its most probable
        region. The prior's mass sits in the rope (at a zero difference)
        unless ``prior_at`` says otherwise.
    prior_at : {"rope", "left", "right"}
        Sign test only: where the prior's pseudo-observation sits for each
        pair (a, b), a before b in column order — a tie (the default), a
        win of a (``"left"``) or of b (``"right"``), as for
        :func:`nbstats.bayes_sign_test`.
    prior : {"point", "idp", "bb"}, optional
        Default None: the test's default, ``"idp"`` for the signed-rank test
        (as :func:`nbstats.bayes_signrank`), ``"point"`` for the sign test.
        Signed-rank test only (``"bb"`` is ``"point"`` with s = 0, as in
        :func:`nbstats.bayes_signrank`). ``"point"``: one prior, its pseudo-observation
        (weight s) at a zero difference. ``"idp"``: the near-ignorance set of
        :func:`nbstats.bayes_signrank` (every prior of strength s): ``prob``
        is each statement's *lower* probability — with a rope the exact one,
        the smallest over every placement of the prior's pseudo-observation
        (:mod:`nbstats.stats.bayes.signrank.placements`); without one the prior at
        ∓∞ — and ``joint`` a lower joint probability: the share of draws in
        which every statement holds for every prior of the set, or, with a
        rope, the Fréchet bound ``Σ prob − (k − 1)`` of the first k
        statements where that is higher (both hold for every prior; the
        exact lower joint probability is not searched). An accepted
        statement holds whatever the prior, as the pair table's decisions
        do (a pair that :func:`nbstats.bayes_signrank_pairs` calls
        indeterminate is not accepted, up to Monte Carlo error).
    n_samples : int
        Posterior draws for the joint probabilities.
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.
    random_state : None, int or Generator
        Seed of the posterior draws. ``None`` takes fresh entropy from the
        operating system: two calls then give slightly different joint
        probabilities (within Monte Carlo error, about ``0.5 / √n_samples``);
        give an int to reproduce them.
    groups : bool
        Work out ``groups`` (the maximal sets of algorithms with no accepted
        statement inside, for a CD diagram). False leaves them empty: a race,
        which needs only the statements, skips a step that grows fast with
        the number of algorithms.

    Returns
    -------
    BayesPosthocResult
        ``statements`` (sorted, with ``relation`` — ``"better"`` or
        ``"equivalent"`` —, marginal ``prob``, ``joint`` and ``accepted``),
        the m × m ``probabilities`` (and ``rope_probabilities`` with a
        rope) and the ``groups``; :meth:`~BayesPosthocResult.decisions` gives
        each pair's decision in the words of the pairwise tests ("a", "b",
        "equivalent", "undecided").

    Notes
    -----
    The same answer whatever the order of the columns and rows: the table is
    put in one canonical layout (:mod:`nbstats.stats.bayes.canonical`)
    before the draws, so the same weight lands on the same case and the
    statements (ties in probability included) come out in the same order;
    the matrices are returned in the given column order.

    progress : bool, optional
        A progress bar over the passes through the draws (``tqdm.auto``):
        ``None`` shows one in a terminal or a notebook when the call lasts
        more than a second, not in scripts whose output is redirected nor
        under pytest; True/False force it. Ctrl-C stops the call between
        two pieces of draws.
    mc_error : float, optional
        Monte Carlo to a stated precision: when a probability of the
        statements (each one's ``prob`` and ``joint``) has a standard error
        of ``mc_error`` or more after ``n_samples`` draws, the procedure is
        run again on :func:`~nbstats.stats.bayes.precision.draws_for`
        ``(mc_error)`` draws (62,501 for 0.002), where every share is that
        precise (with ``n_samples`` above half of those, directly on them);
        the result is exactly that of a call with those draws.
        Default None: ``n_samples`` draws.

    Memory: the draws are processed in chunks, and each chunk's θ for blocks
    of pairs, within the ceiling of :mod:`nbstats.util.memory` (512
    MiB by default; ``NBSTATS_MAX_MEMORY`` or
    :func:`~nbstats.util.memory.set_memory_ceiling`); the draws'
    events are kept between the two passes only when they fit too. Every
    pair's per-case arrays and its share of a batch of draws are held at
    once, so the memory grows with pairs × cases: a size whose working
    memory (:func:`posthoc_memory`) is over the ceiling — e.g. 1000
    algorithms × 20 cases with the signed-rank test at the default ceiling —
    is refused up front with a ValueError that says what would fit
    (:func:`nbstats.bayes_signrank_pairs` works pair by pair in blocks).

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_posthoc(table, random_state=0)
    >>> res.statements[["better", "worse"]].iloc[0].tolist()
    ['aode', 'nbc']

    With a rope of one accuracy point, pairs can be decided equivalent:

    >>> wide = nbstats.bayes_posthoc(table, rope=0.01, random_state=0)
    >>> sorted(set(wide.statements["relation"]))
    ['better', 'equivalent']
    >>> wide.decisions().columns.tolist()
    ['a', 'b', 'decision', 'prob', 'joint']
    """
    target = check_target(mc_error)
    if target is not None:  # again on more draws if not precise enough
        options = dict(locals())
        for name in ("scores", "mc_error", "target"):
            options.pop(name)
        # a Generator is drawn from once: both runs on the same seed
        options["random_state"] = seed_sequence(random_state)
        return precise_joint(
            lambda draws: bayes_posthoc(scores, **{**options, "n_samples": draws}),
            n_samples,
            target,
        )
    check_choice("test", test, ("sign", "signrank"))
    check_flag("groups", groups)
    check_flag("higher_is_better", higher_is_better)
    check_random_state(random_state)
    if progress is not None:
        check_flag("progress", progress)
    check_choice("prior", prior, (None, "point", "idp", "bb"))
    if prior is None:
        prior = "idp" if test == "signrank" else "point"
    if prior == "bb" and test == "signrank":  # the s → 0 limit of the point prior
        s, prior = prior_strength("bb", s), "point"
    if s is None:
        s = prior_strength(prior, None) if test == "signrank" else FRIEDMAN_DEFAULT_S
    s = check_s(s, allow_zero=True)
    threshold = check_fraction("threshold", threshold, example=0.95)
    rope = check_positive("rope", rope, allow_zero=True)
    check_choice("prior_at", prior_at, PRIOR_PLACES)
    if prior != "point" and test != "signrank":
        raise ValueError(
            f"prior={prior!r} is for the signed-rank test; use test='signrank', "
            "or prior='point' with the sign test."
        )
    if test == "signrank" and prior_at != "rope":
        raise ValueError(
            f"prior_at={prior_at!r} is for the sign test; the signed-rank test "
            "puts its pseudo-observation at a zero difference (test='sign' to "
            "place it on a side)."
        )
    n_samples = check_n_samples(n_samples)
    table = score_table(scores, nan_policy=nan_policy)
    given = list(table.columns)
    ranks = rank_rows(table.to_numpy(), higher_is_better=higher_is_better)
    # one canonical layout (canonical.py): the same draws on the same cases
    # and pairs whatever the order of the columns and rows; results are
    # mapped back to the given names
    values, names, columns = canonical_table(
        oriented(table.to_numpy(), higher_is_better), given
    )
    mean_rank = ranks.mean(axis=0)[columns]
    n, m = values.shape
    # refuse before the pairs' arrays exist, not half-way through the draws
    _check_memory(m, n, n_samples, test, rope, prior)
    pairs = list(combinations(range(m), 2))
    # differences d > 0 where the second algorithm of the pair is better
    diffs = np.column_stack([values[:, j] - values[:, i] for i, j in pairs])

    per_case = len(pairs) if test == "signrank" else 2
    draws = DirichletWeights(n, n_samples, random_state, columns_per_case=per_case)
    # passes over the draws: the region shares (the sign test without a rope
    # has them exactly), then the joint statements unless the codes are kept
    passes = int(test == "signrank" or rope > 0)
    passes += int(passes == 0 or not keeps_codes(n_samples, len(pairs)))
    bar = progress_bar(
        progress, passes * n_samples, "bayes_posthoc", "draw",
        delay=1.0 if progress is None else 0.0,
    )  # fmt: skip
    try:
        if test == "signrank":
            # the engine of the dashboard's joint panel, passing over the draws
            # (its sums are not kept: the memory bound of posthoc_memory)
            engine = JointDraws(diffs, draws, keep_share=0.0)
            shares, joint_of = engine.probabilities(s, rope, prior, bar)
        else:
            swapped = [columns[i] > columns[j] for i, j in pairs]
            shares, joint_of = _sign_probabilities(
                diffs, draws, s, rope, swapped, prior_at, bar
            )
        statements = statement_table(
            shares, joint_of, pairs, names, mean_rank, threshold=threshold, rope=rope
        )
    finally:
        if bar is not None:
            bar.close()

    matrix = np.full((m, m), np.nan)
    rope_matrix = np.full((m, m), np.nan) if rope > 0 else None
    accepted_pairs = np.zeros((m, m), dtype=bool)
    for k, (i, j) in enumerate(pairs):
        matrix[i, j] = shares[k, RIGHT]  # column j better than row i
        matrix[j, i] = shares[k, LEFT]
        if rope_matrix is not None:
            rope_matrix[i, j] = rope_matrix[j, i] = shares[k, ROPE]
    for row in statements.itertuples(index=False):
        if row.accepted and row.relation == "better":
            a, b = names.index(row.better), names.index(row.worse)
            accepted_pairs[a, b] = accepted_pairs[b, a] = True
    index = name_index(names, name="algorithm")
    mean_ranks = pd.Series(mean_rank, index=index, name="mean rank")
    found = (
        nonsignificant_groups(
            pd.DataFrame(accepted_pairs, index=index, columns=index), mean_ranks
        )
        if groups
        else []
    )
    back = np.argsort(columns)  # canonical → given order

    def given_order(square: np.ndarray) -> pd.DataFrame:
        shown = name_index(given, name="algorithm")
        square = square[np.ix_(back, back)]
        return pd.DataFrame(square, index=shown, columns=shown.copy())

    return BayesPosthocResult(
        statements=statements,
        probabilities=given_order(matrix),
        groups=found,
        mean_ranks=pd.Series(
            mean_rank[back], index=name_index(given, name="algorithm"), name="mean rank"
        ),
        threshold=threshold,
        s=s,
        test=test,
        n_samples=n_samples,
        rope=rope,
        prior_at=prior_at,
        rope_probabilities=None if rope_matrix is None else given_order(rope_matrix),
        prior=prior,
        cases=table.index.copy(),
    )


def _sign_probabilities(
    diffs: np.ndarray,
    draws: DirichletWeights,
    s: float,
    rope: float,
    swapped: list[bool],
    prior_at: str,
    bar: Any = None,
) -> tuple[np.ndarray, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
    """The sign test's shares of (LEFT, ROPE, RIGHT) per pair and
    ``joint_of(chosen, order)`` (see :meth:`JointDraws.probabilities`).

    ``prior_at`` names the sides of each pair as given (a before b); a
    canonical pair in the other order (``swapped``) has them the other way
    round.
    """
    mirror = {"rope": "rope", "left": "right", "right": "left"}
    places = [mirror[prior_at] if w else prior_at for w in swapped]
    evaluate = SignEvents(diffs, rope, places)
    if rope == 0:
        # exact marginals (Theorem 2, with the prior's weight on its side);
        # θ = ½ exactly only when every case ties and the prior is in the rope
        wins = (diffs > 0).sum(axis=0) + s * evaluate.to_right
        losses = (diffs < 0).sum(axis=0) + s * evaluate.to_left
        shares = np.zeros((diffs.shape[1], 3))
        shares[:, 2] = [
            prob_b_better_sign(w, lo) for w, lo in zip(wins, losses, strict=True)
        ]
        shares[:, 0] = [
            prob_b_better_sign(lo, w) for w, lo in zip(wins, losses, strict=True)
        ]
        stored = None
    else:
        shares, stored = region_shares(draws, evaluate, s, diffs.shape[1], bar)

    def joint_of(chosen: np.ndarray, order: np.ndarray) -> np.ndarray:
        return joint_shares(draws, evaluate, s, chosen, order, stored, bar)

    return shares, joint_of


def posthoc_memory(
    n_algorithms: int,
    n_cases: int,
    n_samples: int,
    test: Literal["sign", "signrank"] = "sign",
    rope: float = 0.0,
    ceiling: int | None = None,
    prior: Literal["point", "idp", "bb"] | None = None,
) -> int:
    """Bytes of working memory :func:`bayes_posthoc` needs at a size: an
    upper bound of what it allocates beyond the interpreter and libraries,
    under the memory ``ceiling`` (default: the current one; a higher
    ceiling lets it take larger blocks), with the signed-rank test's
    ``prior`` (default None: the test's default, ``"idp"``, as
    :func:`bayes_posthoc`; the sign test has one prior).

    Every pair keeps per-case arrays (its differences; with the signed-rank
    test their sort order, sorted copy and region boundaries), a share of
    one batch of at least 64 draws (the signed-rank sums of all pairs are
    evaluated on the same draws) and its row of the statements; the blocks
    of the sign test's θ and the stored region codes take at most a
    :func:`~nbstats.util.memory.budget` each (the signed-rank test's
    blocks of codes an eighth of one). Under the near-ignorance prior with
    a rope, every pair also keeps the tally of each region at every
    placement of the prior's pseudo-observation (its 4 n + 5 states and
    their counts, :mod:`nbstats.stats.bayes.signrank.placements`).

    Examples
    --------
    >>> posthoc_memory(100, 20, 50_000, "signrank") < 2**28
    True
    >>> posthoc_memory(1000, 20, 50_000, "signrank") > 2**30
    True
    >>> idp = posthoc_memory(100, 20, 50_000, "signrank", 0.01, prior="idp")
    >>> idp > posthoc_memory(100, 20, 50_000, "signrank", 0.01, prior="point")
    True
    """
    check_choice("prior", prior, (None, "point", "idp", "bb"))
    share = budget() if ceiling is None else ceiling // 8  # as memory.budget()
    pairs = n_algorithms * (n_algorithms - 1) // 2
    per_case = 8 * n_cases
    # a pair's tuple, shares, matrix cells and statement row (dict, DataFrame)
    per_pair = 512
    if test == "signrank":
        regions = 2 if rope > 0 else 1
        # diffs and their column list, argsort, sorted and transposed copies,
        # boundaries (main, high, low per region); and the same once more in
        # the statements' order for the joint pass (SignedRankEvents.ordered_blocks)
        per_pair += per_case * (6 + 3 * regions) + per_case * (3 + 3 * regions)
        per_draw = 16 * regions + 4  # quad, cross; codes and their copy
        fit = share // (pairs * (16 * regions + 2) + 64)
        rows = min(n_samples, max(64, fit - fit % 64))
        per_pair += rows * per_draw
        blocks = share // 8
        if rope > 0 and prior in (None, "idp"):
            # placement states (6 int64 fields) and their counts (3 int64)
            # at each of 4 n + 5 states, and the base counts
            per_pair += 72 * (4 * n_cases + 5) + 24
    else:
        # diffs and their column list, indicators (and the rope's two
        # regions), and their copy in the order of the statements
        per_pair += per_case * (3 + (4 if rope > 0 else 0))
        blocks = share
    stored = min(n_samples * pairs, share)
    return pairs * per_pair + stored + blocks + 24 * n_algorithms**2


def _check_memory(
    m: int,
    n: int,
    n_samples: int,
    test: Literal["sign", "signrank"],
    rope: float,
    prior: Literal["point", "idp"],
) -> None:
    """A clear ValueError when :func:`posthoc_memory` is over the ceiling."""
    ceiling = get_memory_ceiling()
    need = posthoc_memory(m, n, n_samples, test, rope, prior=prior)
    if need <= ceiling:
        return
    # the smallest ceiling that fits (a higher one also enlarges the blocks;
    # they take under half of it, so this converges)
    enough = need
    while posthoc_memory(m, n, n_samples, test, rope, enough, prior) > enough:
        enough = posthoc_memory(m, n, n_samples, test, rope, enough, prior)
    # the most algorithms that fit (the need grows with m): by bisection
    most, over = 0, m
    while over - most > 1:
        middle = (most + over) // 2
        if posthoc_memory(middle, n, n_samples, test, rope, prior=prior) <= ceiling:
            most = middle
        else:
            over = middle
    raise ValueError(
        f"bayes_posthoc(test={test!r}) on {m:,} algorithms x {n:,} cases "
        f"({m * (m - 1) // 2:,} pairs) with n_samples={n_samples:,} draws needs "
        f"about {-(-need // 2**20):,} MB of working memory, over the memory "
        f"ceiling of {ceiling // 2**20:,} MB; at most {most:,} algorithms of "
        f"{n:,} cases fit under it. Raise the ceiling to at least "
        f"{-(-enough // 2**20):,} MB (nbstats.set_memory_ceiling or the "
        "environment variable NBSTATS_MAX_MEMORY; the process then needs about "
        "200 MB more), compare fewer algorithms or cases, or use "
        "nbstats.bayes_signrank_pairs, which works pair by pair in blocks "
        "(each pair's own posterior, no joint statements). Fewer n_samples "
        "saves little: the memory grows with pairs x cases (and with the "
        "signed-rank test's batches of 64 draws per pair)."
    )

"""Joint Bayesian multiple comparisons (Benavoli et al. 2015, §5.3)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Literal

import numpy as np
import pandas as pd

from nbstats.results.bayes import BayesPosthocResult
from nbstats.scores import NanPolicy, check_choice, oriented, rank_rows, score_table
from nbstats.stats.bayes.canonical import canonical_table
from nbstats.stats.bayes.decision import (
    FRIEDMAN_DEFAULT_S,
    check_gamma,
    check_n_samples,
    check_rope,
    check_s,
)
from nbstats.stats.bayes.memory import budget, get_memory_ceiling
from nbstats.stats.bayes.pair_sums import PairSums, in_halves, rope_regions
from nbstats.stats.bayes.sign import PRIOR_PLACES, PriorPlace, prob_b_better_sign
from nbstats.stats.bayes.weights import DirichletWeights, WeightChunk
from nbstats.stats.groups import nonsignificant_groups

__all__ = [
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

# θ within this distance of ½ counts as exactly ½ (a pair that always ties)
_HALF_TOLERANCE = 1e-12
#: Region codes of a pair (i, j) in a posterior draw: i better (θ < ½ or the
#: left region), the rope (θ exactly ½ without one), j better.
LEFT, ROPE, RIGHT = 0, 1, 2
#: Columns of ``BayesPosthocResult.statements``.
STATEMENT_COLUMNS = ("better", "worse", "relation", "prob", "joint", "accepted")
# per-draw statement samples are kept between the two passes when they fit in
# memory.budget(); θ of a chunk's draws is made for blocks of pairs that fit


def bayes_posthoc(
    scores: pd.DataFrame | np.ndarray,
    *,
    s: float = FRIEDMAN_DEFAULT_S,
    gamma: float = 0.05,
    test: Literal["sign", "signrank"] = "sign",
    rope: float = 0.0,
    prior_at: PriorPlace = "rope",
    n_samples: int = 50_000,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: object = None,
    groups: bool = True,
) -> BayesPosthocResult:
    """Which algorithms are better than which, with a *joint* posterior guarantee.

    For every pair the most probable of its regions is chosen as its
    statement ("j is better than i", "i is better than j" and, with a rope,
    "i and j are practically equivalent"); the statements are sorted by that
    probability, and the longest prefix whose **joint** posterior probability
    (all of them true at once) exceeds ``1 - gamma`` is accepted. The joint
    probability is the share of posterior draws in which every statement of
    the prefix holds, all statements evaluated on the *same* draw of the
    Dirichlet weights, so dependent statements are not penalised as if
    independent (Benavoli et al. 2015, §5.3, following Gelman & Tuerlinckx).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    s : float
        Prior strength (>= 0), placed on "all algorithms equal" (2015, §7).
    gamma : float
        Accepted statements hold jointly with posterior probability > 1 - γ.
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
    n_samples : int
        Posterior draws for the joint probabilities.
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.
    random_state : None, int or Generator
        Seed of the posterior draws.
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

    Memory: the draws are processed in chunks, and each chunk's θ for blocks
    of pairs, within the ceiling of :mod:`nbstats.stats.bayes.memory` (512
    MiB by default; ``NBSTATS_MAX_MEMORY`` or
    :func:`~nbstats.stats.bayes.memory.set_memory_ceiling`); the draws'
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
    check_choice("test", test, ("sign", "signrank"))
    s = check_s(s, allow_zero=True)
    gamma = check_gamma(gamma)
    rope = check_rope(rope)
    check_choice("prior_at", prior_at, PRIOR_PLACES)
    if test == "signrank" and prior_at != "rope":
        raise ValueError(
            f"prior_at={prior_at!r} is for the sign test; the signed-rank test "
            "puts its pseudo-observation at a zero difference (test='sign' to "
            "place it on a side)."
        )
    n_samples = check_n_samples(n_samples)
    table = score_table(scores, nan_policy=nan_policy)
    given = [str(c) for c in table.columns]
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
    _check_memory(m, n, n_samples, test, rope)
    pairs = list(combinations(range(m), 2))
    # differences d > 0 where the second algorithm of the pair is better
    diffs = np.column_stack([values[:, j] - values[:, i] for i, j in pairs])

    per_case = len(pairs) if test == "signrank" else 2
    draws = DirichletWeights(n, n_samples, random_state, columns_per_case=per_case)
    if test == "sign":
        # prior_at names the sides of each pair as given (a before b); a
        # canonical pair in the other order has them the other way round
        swapped = [columns[i] > columns[j] for i, j in pairs]
        mirror = {"rope": "rope", "left": "right", "right": "left"}
        places = [mirror[prior_at] if w else prior_at for w in swapped]
        evaluate = SignEvents(diffs, rope, places)
    else:
        evaluate = SignedRankEvents(diffs, rope)

    if test == "sign" and rope == 0:
        # exact marginals (Theorem 2, with the prior's weight on its side);
        # θ = ½ exactly only when every case ties and the prior is in the rope
        wins = (diffs > 0).sum(axis=0) + s * evaluate.to_right
        losses = (diffs < 0).sum(axis=0) + s * evaluate.to_left
        shares = np.zeros((len(pairs), 3))
        shares[:, 2] = [
            prob_b_better_sign(w, lo) for w, lo in zip(wins, losses, strict=True)
        ]
        shares[:, 0] = [
            prob_b_better_sign(lo, w) for w, lo in zip(wins, losses, strict=True)
        ]
        stored = None
    else:
        shares, stored = region_shares(draws, evaluate, s, len(pairs))

    def joint_of(chosen: np.ndarray, order: np.ndarray) -> np.ndarray:
        return joint_shares(draws, evaluate, s, chosen, order, stored)

    statements = statement_table(
        shares, joint_of, pairs, names, mean_rank, gamma=gamma, rope=rope
    )

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
    index = pd.Index(names, name="algorithm")
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
        shown = pd.Index(given, name="algorithm")
        square = square[np.ix_(back, back)]
        return pd.DataFrame(square, index=shown, columns=shown.copy())

    return BayesPosthocResult(
        statements=statements,
        probabilities=given_order(matrix),
        groups=found,
        mean_ranks=pd.Series(
            mean_rank[back], index=pd.Index(given, name="algorithm"), name="mean rank"
        ),
        gamma=gamma,
        s=s,
        test=test,
        n_samples=n_samples,
        rope=rope,
        prior_at=prior_at,
        rope_probabilities=None if rope_matrix is None else given_order(rope_matrix),
    )


def posthoc_memory(
    n_algorithms: int,
    n_cases: int,
    n_samples: int,
    test: Literal["sign", "signrank"] = "sign",
    rope: float = 0.0,
    ceiling: int | None = None,
) -> int:
    """Bytes of working memory :func:`bayes_posthoc` needs at a size: an
    upper bound of what it allocates beyond the interpreter and libraries,
    under the memory ``ceiling`` (default: the current one; a higher
    ceiling lets it take larger blocks).

    Every pair keeps per-case arrays (its differences; with the signed-rank
    test their sort order, sorted copy and region boundaries), a share of
    one batch of at least 64 draws (the signed-rank sums of all pairs are
    evaluated on the same draws) and its row of the statements; the blocks
    of the sign test's θ and the stored region codes take at most a
    :func:`~nbstats.stats.bayes.memory.budget` each (the signed-rank test's
    blocks of codes an eighth of one).

    Examples
    --------
    >>> posthoc_memory(100, 20, 50_000, "signrank") < 2**28
    True
    >>> posthoc_memory(1000, 20, 50_000, "signrank") > 2**30
    True
    """
    share = budget() if ceiling is None else ceiling // 8  # as memory.budget()
    pairs = n_algorithms * (n_algorithms - 1) // 2
    per_case = 8 * n_cases
    # a pair's tuple, shares, matrix cells and statement row (dict, DataFrame)
    per_pair = 512
    if test == "signrank":
        regions = 2 if rope > 0 else 1
        # diffs and their column list, argsort, sorted and transposed copies,
        # boundaries (main, high, low per region)
        per_pair += per_case * (6 + 3 * regions)
        per_draw = 16 * regions + 4  # quad, cross; codes and their copy
        fit = share // (pairs * (16 * regions + 2) + 64)
        rows = min(n_samples, max(64, fit - fit % 64))
        per_pair += rows * per_draw
        blocks = share // 8
    else:
        # diffs and their column list, indicators (and the rope's two
        # regions), and their copy in the order of the statements
        per_pair += per_case * (3 + (4 if rope > 0 else 0))
        blocks = share
    stored = min(n_samples * pairs, share)
    return pairs * per_pair + stored + blocks + 24 * n_algorithms**2


def _check_memory(
    m: int, n: int, n_samples: int, test: Literal["sign", "signrank"], rope: float
) -> None:
    """A clear ValueError when :func:`posthoc_memory` is over the ceiling."""
    ceiling = get_memory_ceiling()
    need = posthoc_memory(m, n, n_samples, test, rope)
    if need <= ceiling:
        return
    # the smallest ceiling that fits (a higher one also enlarges the blocks;
    # they take under half of it, so this converges)
    enough = need
    while posthoc_memory(m, n, n_samples, test, rope, enough) > enough:
        enough = posthoc_memory(m, n, n_samples, test, rope, enough)
    raise ValueError(
        f"bayes_posthoc(test={test!r}) on {m:,} algorithms x {n:,} cases "
        f"({m * (m - 1) // 2:,} pairs) with n_samples={n_samples:,} draws needs "
        f"about {need / 2**20:,.0f} MB of working memory, over the memory "
        f"ceiling of {ceiling / 2**20:,.0f} MB. Raise the ceiling to at least "
        f"{-(-enough // 2**20):,} MB (nbstats.set_memory_ceiling or the "
        "environment variable NBSTATS_MAX_MEMORY; the process then needs about "
        "200 MB more), compare fewer algorithms or cases, or use "
        "nbstats.bayes_signrank_pairs, which works pair by pair in blocks "
        "(each pair's own posterior, no joint statements). Fewer n_samples "
        "saves little: the memory grows with pairs x cases (and with the "
        "signed-rank test's batches of 64 draws per pair)."
    )


def statement_table(
    shares: np.ndarray,
    joint_of: Callable[[np.ndarray, np.ndarray], np.ndarray],
    pairs: list[tuple[int, int]],
    names: list[str],
    mean_rank: np.ndarray,
    *,
    gamma: float,
    rope: float,
) -> pd.DataFrame:
    """The sorted statements of :func:`bayes_posthoc` from each pair's region
    shares (pairs × (LEFT, ROPE, RIGHT)); ``joint_of(chosen, order)`` gives
    the joint probability of every prefix of the statements in ``order``."""
    chosen = _statement_regions(shares, rope)
    prob = shares[np.arange(len(pairs)), chosen]
    order = np.argsort(-prob, kind="stable")
    joint = cap_joint(joint_of(chosen, order), prob[order])
    rows = []
    for rank, k in enumerate(order):
        i, j = pairs[k]
        if chosen[k] == RIGHT:
            better, worse = j, i
        elif chosen[k] == LEFT:
            better, worse = i, j
        else:  # equivalent: the better-ranked one first
            better, worse = (j, i) if mean_rank[j] < mean_rank[i] else (i, j)
        rows.append(
            {
                "better": names[better],
                "worse": names[worse],
                "relation": "equivalent" if chosen[k] == ROPE else "better",
                "prob": float(prob[k]),
                "joint": float(joint[rank]),
                "accepted": bool(joint[rank] > 1 - gamma),
            }
        )
    return pd.DataFrame(rows, columns=list(STATEMENT_COLUMNS))


def joint_from_codes(
    codes: np.ndarray, chosen: np.ndarray, order: np.ndarray
) -> np.ndarray:
    """Share of draws (rows of ``codes``, draws × pairs region codes) in which
    the statements ``chosen[order[:k + 1]]`` all hold, for every k."""
    from nbstats.stats.bayes.joint_kernel import joint_prefix_counts

    counts = joint_prefix_counts(
        np.ascontiguousarray(codes, dtype=np.int8),
        np.ascontiguousarray(order, dtype=np.int64),
        np.ascontiguousarray(chosen, dtype=np.int8),
    )
    return counts / codes.shape[0]


def _statement_regions(shares: np.ndarray, rope: float) -> np.ndarray:
    """Each pair's statement: the region with the largest marginal share.

    Without a rope only the two directions compete (the second on a tie, as
    before ropes existed); with one, the rope wins ties (the cautious
    reading), then the second algorithm.
    """
    if rope == 0:
        return np.where(shares[:, RIGHT] >= shares[:, LEFT], RIGHT, LEFT)
    best = shares.max(axis=1)
    return np.where(
        shares[:, ROPE] >= best,
        ROPE,
        np.where(shares[:, RIGHT] >= best, RIGHT, LEFT),
    )


class SignEvents:
    """Sign-test θ of many pairs on a chunk of draws: one matrix product.

    ``diffs`` holds one column per pair (> 0 where its second member is
    better); calling with a chunk and s gives θ per draw and pair. With a
    ``rope``, :meth:`region_blocks` compares the three regions' weights
    instead (cases beyond ±rope, inside it, and the prior's mass, which sits
    on "equal", in the rope).
    """

    def __init__(
        self,
        diffs: np.ndarray,
        rope: float = 0.0,
        prior_at: str | Sequence[str] = "rope",
    ) -> None:
        self.rope = rope
        places = [prior_at] * diffs.shape[1] if isinstance(prior_at, str) else prior_at
        # what the prior's pseudo-observation adds to θ: H(0) = ½ in the
        # rope, 0 as a win of the first algorithm, 1 as one of the second
        step = {"rope": 0.5, "left": 0.0, "right": 1.0}
        self.prior_step = np.array([step[p] for p in places])
        self.to_right = np.array([p == "right" for p in places], dtype=float)
        self.to_left = np.array([p == "left" for p in places], dtype=float)
        self.indicators = np.heaviside(diffs, 0.5)  # n × K
        if rope > 0:
            self.right = (diffs > rope).astype(float)
            self.left = (diffs < -rope).astype(float)

    def __call__(self, chunk: WeightChunk, s: float) -> np.ndarray:
        e = chunk.exponentials
        g0 = chunk.prior_gamma(s)
        total = g0 + e.sum(axis=1)
        # the prior's mass sits on "equal": it contributes H(0) = ½. In place:
        # the same operations as (e @ I + ½ g0) / total, one array instead of
        # three (a chunk of 50 algorithms' 1225 pairs is 40 MB)
        theta = e @ self.indicators
        theta += self.prior_step * g0[:, None]
        theta /= total[:, None]
        return theta

    def blocks(
        self, chunk: WeightChunk, s: float, columns: np.ndarray | None = None
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """θ of the pairs ``columns`` (default all) in blocks that fit the
        memory budget: ``(positions in columns, draws × block)``. One block,
        the same numbers as ``self(chunk, s)``, when everything fits."""
        e = chunk.exponentials
        indicators, steps = self.indicators, self.prior_step
        if columns is not None:
            indicators, steps = indicators[:, columns], steps[columns]
        g0 = chunk.prior_gamma(s)
        total = g0 + e.sum(axis=1)
        k = indicators.shape[1]
        for cols in _column_blocks(k, e.shape[0]):
            theta = e @ indicators[:, cols]
            theta += steps[cols] * g0[:, None]
            theta /= total[:, None]
            yield cols, theta

    def region_blocks(
        self, chunk: WeightChunk, s: float, columns: np.ndarray | None = None
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """As :meth:`blocks`, but each draw's region code (LEFT, ROPE, RIGHT)."""
        if self.rope == 0:
            for cols, theta in self.blocks(chunk, s, columns):
                yield cols, _theta_codes(theta)
            return
        e = chunk.exponentials
        right, left = self.right, self.left
        to_right, to_left = self.to_right, self.to_left
        if columns is not None:
            right, left = right[:, columns], left[:, columns]
            to_right, to_left = to_right[columns], to_left[columns]
        g0 = chunk.prior_gamma(s)[:, None]
        total = g0 + e.sum(axis=1)[:, None]
        for cols in _column_blocks(right.shape[1], e.shape[0]):
            high = e @ right[:, cols]
            low = e @ left[:, cols]
            # the prior's pseudo-observation on its side (all of g0 or none)
            high += g0 * to_right[cols]
            low += g0 * to_left[cols]
            yield cols, _region_codes(low, total - high - low, high)


def _theta_codes(theta: np.ndarray) -> np.ndarray:
    """RIGHT where θ > ½, LEFT where θ < ½, ROPE where θ is ½ (all ties)."""
    codes = np.full(theta.shape, ROPE, dtype=np.int8)
    codes[theta > 0.5 + _HALF_TOLERANCE] = RIGHT
    codes[theta < 0.5 - _HALF_TOLERANCE] = LEFT
    return codes


def _region_codes(left: np.ndarray, rope: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The most probable region of each draw, ties to the first (as
    :func:`~nbstats.stats.bayes.decision.region_shares` and baycomp)."""
    left_wins = (left >= rope) & (left >= right)
    rope_wins = ~left_wins & (rope >= right)
    codes = np.full(left.shape, RIGHT, dtype=np.int8)
    codes[rope_wins] = ROPE
    codes[left_wins] = LEFT
    return codes


def _column_blocks(k: int, rows: int) -> list[slice]:
    """Blocks of k columns: θ and three temporaries of that size per block
    within :func:`~nbstats.stats.bayes.memory.budget`."""
    width = max(1, budget() // (4 * 8 * max(rows, 1)))
    return [slice(a, min(k, a + width)) for a in range(0, k, width)]


class SignedRankEvents:
    """Signed-rank θ (or, with a rope, its three regions) for every pair on a
    chunk, the same weight on each case (the prior's pseudo-observation at a
    zero difference).

    The sums are :class:`~nbstats.stats.bayes.pair_sums.PairSums`' (every
    pair's boundaries found in one compiled call, the pairs evaluated in two
    threads), with the weights permuted into each pair's sorted order.
    """

    def __init__(self, diffs: np.ndarray, rope: float = 0.0) -> None:
        self.rope = rope
        self.sums = PairSums(diffs, None)
        # θ; with a rope H(z_i + z_j - 2 rope) and H(-(z_i + z_j) - 2 rope),
        # the right and left regions of bayes_signrank
        self.regions = rope_regions(rope) if rope > 0 else [(+1, 0.0)]

    @property
    def n_pairs(self) -> int:
        return self.sums.n_pairs

    @property
    def batch_rows(self) -> int:
        """Draws per pass of the compiled sums: a multiple of their 64 lanes,
        as many as the pairs' per-draw arrays (sums, cross terms, codes) fit
        in :func:`~nbstats.stats.bayes.memory.budget`. The draws' chunks are
        sized for many columns per case and can hold fewer than 64 draws; a
        pass costs the same for 20 draws as for 64, which made the joint
        signed-rank statements grow as m^3.3 (issue 30)."""
        from nbstats.stats.bayes.walsh_kernel import LANES

        per_draw = self.n_pairs * (16 * len(self.regions) + 2) + 64
        fit = budget() // per_draw
        return int(max(LANES, fit - fit % LANES))

    def evaluate(
        self,
        exponentials: np.ndarray,
        out: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
        offset: int = 0,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The s-free ``(total, quad, cross)`` of a chunk's draws, quad and
        cross pairs × regions × draws (written from column ``offset`` of
        ``out`` when given)."""
        if out is None:
            rows = exponentials.shape[0]
            shape = (self.n_pairs, len(self.regions), rows)
            out, offset = (np.empty(rows), np.empty(shape), np.empty(shape)), 0
        self.sums.evaluate(
            np.ascontiguousarray(exponentials, dtype=float),
            self.regions,
            out,
            offset,
            permute=True,
        )
        return out

    def region_blocks(
        self, chunk: WeightChunk, s: float, columns: np.ndarray | None = None
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """As :meth:`SignEvents.region_blocks`."""
        codes = self.codes(self.evaluate(chunk.exponentials), chunk.prior_gamma(s))
        if columns is not None:
            codes = codes[:, columns]
        for cols in _column_blocks(codes.shape[1], codes.shape[0]):
            yield cols, codes[:, cols]

    def codes(
        self, parts: tuple[np.ndarray, np.ndarray, np.ndarray], g0: np.ndarray
    ) -> np.ndarray:
        """Region codes (draws × pairs, int8) from the s-free ``(total, quad,
        cross)`` of :meth:`evaluate` and the prior's Gamma weights ``g0`` of
        the same draws."""
        return self.codes_and_counts(parts, g0)[0]

    def codes_and_counts(
        self, parts: tuple[np.ndarray, np.ndarray, np.ndarray], g0: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Region codes (draws × pairs, int8) and each pair's count per code
        (pairs × 3); a dashboard keeps ``parts`` and re-combines them for
        each s."""
        from nbstats.stats.bayes.joint_kernel import signed_rank_codes

        total, quad, cross = parts
        pairs, _, draws = quad.shape
        codes = np.empty((draws, pairs), dtype=np.int8)
        counts = np.zeros((pairs, 3), dtype=np.int64)
        total = np.ascontiguousarray(total, dtype=float)
        g0 = np.ascontiguousarray(g0, dtype=float)

        def run(first: int, last: int) -> None:
            signed_rank_codes(
                quad, cross, total, g0, self.rope > 0, _HALF_TOLERANCE,
                codes, counts, first, last,
            )  # fmt: skip

        in_halves(run, pairs, pairs * draws)
        return codes, counts


def region_shares(
    draws: DirichletWeights, evaluate: object, s: float, n_pairs: int
) -> tuple[np.ndarray, list[np.ndarray] | None]:
    """Monte Carlo shares of (LEFT, ROPE, RIGHT) per pair (n_pairs × 3).

    ``evaluate`` is a :class:`SignEvents` or :class:`SignedRankEvents`; the
    draws' region codes are kept (second value) if they fit in the memory
    ceiling, for :func:`joint_shares`, else ``None``. Used by
    :func:`bayes_posthoc` and the dashboard's joint statements.
    """
    keep = draws.n_samples * n_pairs <= budget()
    stored: list[np.ndarray] = []
    counts = np.zeros((n_pairs, 3))
    for chunk in _pieces(draws, evaluate):
        if keep:
            codes_all = np.empty((chunk.exponentials.shape[0], n_pairs), np.int8)
        for cols, codes in evaluate.region_blocks(chunk, s):
            for region in (LEFT, ROPE, RIGHT):
                counts[cols, region] += np.count_nonzero(codes == region, axis=0)
            if keep:
                codes_all[:, cols] = codes
        if keep:
            stored.append(codes_all)
    return counts / draws.n_samples, stored if keep else None


def _pieces(draws: DirichletWeights, evaluate: object) -> Iterator[WeightChunk]:
    """The draws in the pieces ``evaluate`` works on best (its
    ``batch_rows``, else the draws' own chunks): the same numbers either way."""
    rows = getattr(evaluate, "batch_rows", None)
    return iter(draws) if rows is None else draws.batches(rows)


def cap_joint(joint: np.ndarray, sorted_marginals: np.ndarray) -> np.ndarray:
    """Monte Carlo joint probabilities, never above any statement's marginal.

    With the sign test the marginals are exact (Theorem 2) while the joint
    probabilities are estimated from draws; P(S_1 ∧ … ∧ S_k) ≤ min_i P(S_i)
    is a fact, so the estimate is capped by it (this only moves it towards
    the truth).
    """
    return np.minimum(joint, np.minimum.accumulate(sorted_marginals))


def joint_shares(
    draws: DirichletWeights,
    evaluate: object,
    s: float,
    chosen: np.ndarray,
    order: np.ndarray,
    stored: list[np.ndarray] | None,
) -> np.ndarray:
    """Share of draws in which every statement of each prefix holds.

    ``chosen`` is each pair's region, ``order`` the statements by decreasing
    marginal; ``stored`` the codes kept by :func:`region_shares` (``None``:
    the regions are computed again from ``draws``). Used by
    :func:`bayes_posthoc` and the dashboard's joint statements.
    """
    counts = np.zeros(order.size)
    ordered_choice = chosen[order]
    if stored is not None:
        from nbstats.stats.bayes.joint_kernel import joint_prefix_counts

        ordered = np.ascontiguousarray(order, dtype=np.int64)
        statements = np.ascontiguousarray(chosen, dtype=np.int8)
        for codes in stored:
            counts += joint_prefix_counts(codes, ordered, statements)
        return counts / draws.n_samples
    for chunk in _pieces(draws, evaluate):
        carry = None  # every earlier statement holds, per draw
        for cols, codes in evaluate.region_blocks(chunk, s, order):
            holds = codes == ordered_choice[cols]
            if carry is not None:
                holds[:, 0] &= carry
            held = np.logical_and.accumulate(holds, axis=1)
            counts[cols] += held.sum(axis=0)
            carry = held[:, -1]
    return counts / draws.n_samples

"""The Bayesian signed-rank test on every pair of algorithms, on shared draws."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from itertools import combinations
from typing import Any, Literal

import numpy as np
import pandas as pd

from nbstats.results.bayes import BayesSignedRankPairsResult
from nbstats.scores.missing import observed_mean_ranks, pairwise_table
from nbstats.scores.names import name_array, name_index
from nbstats.scores.ranks import oriented, rank_rows
from nbstats.scores.table import NanPolicy, score_table
from nbstats.stats.bayes.canonical import layout
from nbstats.stats.bayes.precision import (
    batch_seed,
    check_target,
    draws_for,
    precise_table,
    schedule,
)
from nbstats.stats.bayes.signrank.blocks import PairBlocks
from nbstats.stats.bayes.signrank.in_step import one_batch_further
from nbstats.stats.bayes.signrank.one_pair import (
    NORMAL_CASES,
    Method,
    Prior,
    canonical_posterior,
    check_options,
    monte_carlo_bytes,
)
from nbstats.stats.bayes.signrank.pairs_joint import (
    CodeStore,
    joint_statements,
    more_codes,
    posthoc_result,
    resolve_joint,
)
from nbstats.stats.bayes.signrank.shared_draws import BatchStream
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.stats.pairs_memory import check_pairs_fit
from nbstats.util.checks import check_choice, check_flag
from nbstats.util.memory import budget, check_fits
from nbstats.util.progress import progress_bar
from nbstats.util.random import seed_sequence

__all__ = ["bayes_signrank_pairs"]


def bayes_signrank_pairs(
    scores: pd.DataFrame | np.ndarray,
    *,
    prior: Prior = "idp",
    s: float | None = None,
    prior_at: float = 0.0,
    rope: float = 0.0,
    threshold: float | None = None,
    loss: tuple[float, float] = (1, 19),
    n_samples: int = 50_000,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: object = None,
    interval: bool = True,
    method: Method = "auto",
    progress: bool | None = None,
    mc_error: float | None = None,
    joint: bool | Literal["auto"] = False,
) -> BayesSignedRankPairsResult:
    """:func:`nbstats.bayes_signrank` for every pair of columns, at once.

    Each pair (a, b), a before b in column order, gets exactly the posterior
    that ``bayes_signrank(scores[a], scores[b], ..., random_state=...)``
    would give with the same arguments — the same draws, the same
    probabilities (with ``nan_policy="pairwise"``: the same law, see
    there) — but the draws are generated once and every pair's sums
    are evaluated in one pass over them, so the whole matrix costs little
    more than one pair. This is the all-pairs table that autorank's Bayesian
    mode builds with one baycomp call per pair.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    prior, s, prior_at, rope, threshold, loss, n_samples, higher_is_better,
    random_state, method
        As for :func:`nbstats.bayes_signrank` (``method="auto"``: Monte Carlo up
        to 1,000 cases, the normal approximation per pair beyond).
    nan_policy : {"raise", "omit", "pairwise"}
        ``"raise"`` and ``"omit"`` as for :func:`nbstats.score_table`.
        ``"pairwise"``: each pair on the cases where both algorithms have a
        score, and ``pairs`` gains a column ``n`` with their number;
        ``mean_ranks`` rank each case among the algorithms it has
        (:func:`nbstats.scores.missing.observed_mean_ranks`). One stream of
        Dirichlet weights is drawn over every case (and the prior's
        pseudo-observation); each pair takes the weights of its own cases
        and renormalises them (:mod:`~nbstats.stats.bayes.signrank.shared_draws`).
        By the Dirichlet restriction property that sub-vector is
        ``Dir(s, 1, …, 1)`` on the pair's cases, so each pair's posterior is
        that of ``bayes_signrank`` on the pair with ``nan_policy="omit"`` --
        in law, not draw for draw: the numbers differ within Monte Carlo
        error from a standalone call (and, on a complete table, from
        ``nan_policy="raise"``, where each pair takes the weights in its
        own sorted order). The same seed gives the same table, whatever the
        order of the rows and columns (the stream's cases are in the
        canonical layout of :mod:`~nbstats.stats.bayes.canonical`), and the
        weights are drawn once per batch for every pattern of missing cells.
        Each pair takes its cases' weights in its own sorted order (a
        relabelling of exchangeable weights: the same law); with ``joint``,
        weight i stays with case i in every pair.
    interval : bool
        ``False`` skips each pair's credible interval (``ci_low``/``ci_high``
        NaN, ``differs`` False): with many pairs its quantiles are a large
        part of the time, and a table of probabilities does not show it.
    mc_error : float, optional
        Monte Carlo to a stated precision: each pair's draws come in batches
        (the first of ``n_samples`` draws, each further one doubling the
        draws so far) until the Monte Carlo standard error of every
        probability it reports -- each lower and upper bound, left, rope and
        right -- is below ``mc_error``; at most
        :func:`~nbstats.stats.bayes.precision.draws_for` ``(mc_error)`` draws
        (62,501 for 0.002), where even a probability of ½ is that precise.
        ``pairs`` gains a column ``draws``; ``n_samples`` of the result is
        the most any pair took. Pass a small ``n_samples`` (the report and
        :func:`nbstats.analyze` use 5,000) so that clear pairs stop early.
        A pair's probabilities are those of all its draws together (under
        the near-ignorance prior with a rope, the exact bounds over the
        placements of the prior on the pooled draws, not an average of each
        batch's). The same seed gives the same numbers; a pair that stops
        after the first batch has exactly the posterior of ``n_samples``
        draws. With
        ``interval``, the credible interval is the first batch's. Default
        None: exactly ``n_samples`` draws for every pair. Applies to the
        Monte Carlo method (not to ``method="normal"``). See
        :mod:`nbstats.stats.bayes.precision`.
    joint : bool or "auto"
        Also make the joint statements of :func:`nbstats.bayes_posthoc`
        (``test="signrank"``, this prior -- ``"bb"`` as ``"point"`` with
        s = 0 -- rope and s) on *this table's draws*, as ``result.joint``:
        the pairs are then drawn from one stream of weights by case, as with
        ``nan_policy="pairwise"`` (each pair on its own cases with missing
        cells), each pair's code in each draw is kept, and the statements
        are read from them (:mod:`~nbstats.stats.bayes.signrank.pairs_joint`);
        they are accepted while they hold jointly with posterior probability
        above ``threshold`` (the pairs' decision threshold). A
        statement's probability is its pair's lower probability in
        ``pairs``, the same number; the joint probabilities are shares of
        the stream's first draws, as many as the precision target needs
        (with ``mc_error``; else ``n_samples``). Needs the Monte Carlo method,
        ``prior_at = 0`` and the codes' memory: one byte per pair and draw (at
        most :func:`~nbstats.stats.bayes.precision.draws_for` ``(mc_error)``
        draws) within :func:`~nbstats.util.memory.budget`; otherwise
        a ValueError says so. ``"auto"``: only when all that holds and every
        pair has the same cases (no missing cells under ``"pairwise"``),
        else ``result.joint`` is None (the report then calls
        :func:`nbstats.bayes_posthoc` on the complete cases).
    progress : bool, optional
        A progress bar over the pairs (``tqdm.auto``): ``None`` shows one in
        a terminal or a notebook when the call lasts more than a second, not
        in scripts whose output is redirected nor under pytest; True/False
        force it. The time grows with the pairs (m(m − 1)/2), the cases and
        ``n_samples``; Ctrl-C stops the call between two blocks of pairs.

    Returns
    -------
    BayesSignedRankPairsResult
        ``pairs``: one row per pair with its probabilities, credible
        interval and decision; ``probabilities``: the m × m matrix of
        P(column better than row) (the lower probability under IDP).
        ``mc_error``: the largest Monte Carlo standard error of any pair's
        probabilities.

    Notes
    -----
    Memory: pairs are evaluated in groups whose per-draw sums fit an eighth
    of the ceiling of :mod:`nbstats.util.memory` (512 MiB by default;
    ``NBSTATS_MAX_MEMORY`` or
    :func:`~nbstats.util.memory.set_memory_ceiling`), and the draws
    are generated in chunks (kept between groups only if they fit too), so
    memory does not grow with the number of algorithms or cases. A lower
    ceiling makes more, smaller groups: the same numbers, more time.

    Examples
    --------
    >>> import nbstats
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_signrank_pairs(uci, prior="point", rope=0.01,
    ...                                    random_state=0)
    >>> row = res.pairs.set_index(["a", "b"]).loc[("nbc", "aode")]
    >>> [round(float(row[k]), 2) for k in ("prob_left", "prob_rope", "prob_right")]
    [0.0, 0.12, 0.88]

    The joint statements on the same draws: a statement's probability is its
    pair's in the table.

    >>> both = nbstats.bayes_signrank_pairs(uci, random_state=0, joint=True)
    >>> first = both.joint.statements.iloc[0]
    >>> first[["better", "worse"]].tolist()
    ['aode', 'nbc']
    >>> bool(first["prob"] == both.probabilities.loc[first["worse"], first["better"]])
    True
    """
    s, z0, rope, threshold, n_samples = check_options(
        prior, s, prior_at, rope, threshold, loss, n_samples,
        higher_is_better=higher_is_better, random_state=random_state,
        method=method, progress=progress,
    )  # fmt: skip
    check_flag("interval", interval)
    pairwise = nan_policy == "pairwise"
    check_choice("joint", joint, (False, True, "auto"))
    table = (
        pairwise_table(scores)
        if pairwise
        else score_table(scores, nan_policy=nan_policy)
    )
    names = list(table.columns)
    values = oriented(table.to_numpy(), higher_is_better)
    n, m = values.shape
    check_choice("method", method, ("auto", "montecarlo", "normal"))
    target = check_target(mc_error)
    joint = resolve_joint(
        joint, method=method, montecarlo=rows_method(method, n) == "montecarlo",
        z0=z0, n_pairs=m * (m - 1) // 2,
        max_draws=n_samples if target is None else max(n_samples, draws_for(target)),
        holes=pairwise and bool(np.isnan(values).any()),
    )  # fmt: skip
    # the table of every pair beside the draws' blocks (a share of the ceiling)
    check_pairs_fit(
        "bayes_signrank_pairs",
        m,
        n,
        what="bayes_signrank_pairs()",
        fix=" (or nbstats.bayes_signrank on the pairs you need)",
        # the draws' blocks: about a quarter of the ceiling, in 8-byte cells
        block_cells=budget(0.25) // 8,
    )
    # one seed for every pair: on a complete table each pair sees exactly the
    # draws it would see alone; with "pairwise" (or joint) every pair takes
    # its cases' weights from one stream over all the cases (shared_draws.py)
    seed = seed_sequence(random_state)
    options = {
        "prior": prior, "s": s, "z0": z0, "rope": rope, "threshold": threshold,
        "n_samples": n_samples, "seed": seed, "interval": interval, "method": method,
        "mc_error": target,
        "codes": CodeStore() if joint else None,
    }  # fmt: skip
    rows: list[dict[str, np.ndarray]] = []
    errors: list[float] = []
    matrix = np.full((m, m), np.nan)
    bar = progress_bar(
        progress, m * (m - 1) // 2, "bayes_signrank_pairs", "pair",
        delay=1.0 if progress is None else 0.0,
    )  # fmt: skip
    options["bar"] = bar
    try:
        stream = _all_pairs(
            values, names, pairwise or joint, options, rows, errors, matrix
        )
    finally:
        if bar is not None:
            bar.close()
    if pairwise:
        mean_ranks = observed_mean_ranks(table, higher_is_better=higher_is_better)
    else:
        ranks = rank_rows(table.to_numpy(), higher_is_better=higher_is_better)
        mean_ranks = pd.Series(ranks.mean(axis=0), index=table.columns, name="")
    index = name_index(names, name="algorithm")
    # one group (no missing cells) is in column order already: no copies of
    # the columns (2000 algorithms: 13 columns of 1,999,000 pairs)
    columns = rows[0]
    if len(rows) > 1:
        columns = {key: np.concatenate([c[key] for c in rows]) for key in rows[0]}
    pair_ids = columns.pop("_order")
    rows.clear()
    if np.any(pair_ids[1:] < pair_ids[:-1]):
        order = np.argsort(pair_ids, kind="stable")
        pair_ids = pair_ids[order]
        for key in list(columns):
            columns[key] = columns[key][order]
    pairs_frame = pd.DataFrame(columns, copy=False)
    del columns
    if not pairwise:
        pairs_frame = pairs_frame.drop(columns="n")
    mean_ranks = pd.Series(
        mean_ranks.to_numpy(dtype=float), index=index.copy(), name="mean rank"
    )
    cases = table.index[table.notna().sum(axis=1).to_numpy() >= 2].copy()
    joint_result = None
    if joint:
        target = options["mc_error"]
        sizes = [n_samples] if target is None else schedule(n_samples, target)
        joint_of = joint_statements(
            options["codes"], pair_ids, sizes, target,
            partial(more_codes, values, names, options, stream, sizes),
        )  # fmt: skip
        joint_result = posthoc_result(
            pairs_frame, names, mean_ranks, joint_of, threshold=threshold, s=s,
            rope=rope, prior=prior, cases=cases,
        )  # fmt: skip
    return BayesSignedRankPairsResult(
        pairs=pairs_frame,
        probabilities=pd.DataFrame(matrix, index=index, columns=index.copy()),
        mean_ranks=mean_ranks,
        prior=prior,
        s=s,
        prior_at=z0,
        rope=rope,
        threshold=threshold,
        n_cases=n,
        # under a precision target: the most draws any pair took
        n_samples=(
            int(pairs_frame["draws"].max())
            if "draws" in pairs_frame and len(pairs_frame)
            else n_samples
        ),
        mc_error=float(max(errors)),
        method=rows_method(method, n),
        # with missing cells: the cases at least one pair shares
        cases=cases,
        mc_target=options["mc_error"],
        joint=joint_result,
    )


def _all_pairs(
    values: np.ndarray,
    names: list[str],
    pairwise: bool,
    options: dict[str, Any],
    rows: list[dict[str, np.ndarray]],
    errors: list[float],
    matrix: np.ndarray,
) -> BatchStream | None:
    """:func:`_evaluate` on every pair: all at once, or with ``pairwise``
    (weights by case from one stream, also for ``joint``) each group of
    pairs that share their complete cases; returns the stream, if any."""
    m = values.shape[1]
    if pairwise:
        # one stream of weights over every case; each pair takes its own
        # cases' weights, renormalised (shared_draws.py). Pairs with the same
        # cases are evaluated together; the sets of cases take their batches
        # of draws in step, so each batch is drawn once.
        present = ~np.isnan(values)
        by_cases: dict[bytes, list[tuple[int, int]]] = {}
        for i, j in combinations(range(m), 2):
            key = np.packbits(present[:, i] & present[:, j]).tobytes()
            by_cases.setdefault(key, []).append((i, j))
        # the stream's case k is the k-th case of the canonical layout: the
        # same numbers whatever the order of the rows and columns
        canonical_rows = layout(values, names)[0]
        # weight i stays with case i in every pair only for joint statements
        # (each pair alone takes them in its sorted order: the same law)
        stream = BatchStream(
            values.shape[0], partial(batch_seed, options["seed"]),
            np.argsort(canonical_rows), by_case=options["codes"] is not None,
        )  # fmt: skip
        runs = []
        for group in by_cases.values():
            i, j = group[0]
            cases = present[:, i] & present[:, j]
            found = np.array(group, dtype=np.int64).reshape(-1, 2).T
            at_cases = partial(stream.restrict, cases=cases)
            run = _evaluate(
                values[cases], found, names, options, rows, errors, matrix,
                weights_for=at_cases,
            )  # fmt: skip
            runs.append(run)
        # every set of cases one batch further, in step; with the joint
        # statements' codes kept, one thread (their store is filled in order)
        threads = 1 if options["codes"] is not None else None
        while runs:
            runs = one_batch_further(runs, threads)
        return stream
    else:
        # every pair (i < j) in column order, as two index arrays: a list of
        # 1,999,000 tuples for 2000 algorithms would take 150 MB
        for _ in _evaluate(
            values, np.triu_indices(m, 1), names, options, rows, errors, matrix
        ):
            pass
    return None


def _evaluate(
    values: np.ndarray,
    pairs: tuple[np.ndarray, np.ndarray],
    names: list[str],
    options: dict[str, Any],
    rows: list[dict[str, np.ndarray]],
    errors: list[float],
    matrix: np.ndarray,
    weights_for: Callable[..., Any] | None = None,
) -> Iterator[None]:
    """Every pair (``pairs``: arrays of the first and the second columns) on
    the rows of ``values`` (all complete), on one
    set of draws; appends a dict of columns (one entry per pair, with the
    pairs' ``_order``) to ``rows`` and the largest Monte Carlo error to
    ``errors``, and fills ``matrix``.

    A generator, paused between batches of draws under a precision target
    (:func:`~nbstats.stats.bayes.precision.precise_table`).
    ``weights_for(batch, size)``: the draws of each batch (the fixed draws
    are batch 0), e.g. a shared stream's restricted to these rows' cases;
    default the rows' own
    :class:`~nbstats.stats.bayes.weights.DirichletWeights`.

    Each pair is drawn in its canonical orientation
    (:func:`~nbstats.stats.bayes.canonical.flipped`) and mirrored back when
    that is (b, a), exactly as :func:`nbstats.bayes_signrank` does: the same
    numbers whatever the column order.
    """
    # here, not at the top: effect_size imports nbstats.stats.frequentist,
    # whose posthoc imports effect_size back, half-loaded at that point
    from nbstats.stats.effect_size import rank_biserial_columns

    prior, rope, seed = options["prior"], options["rope"], options["seed"]
    method = options["method"]
    m = len(names)
    n = values.shape[0]
    first, second = (np.asarray(p, dtype=np.int64) for p in pairs)
    k = first.size
    cols = {
        "a": name_array(names)[first],
        "b": name_array(names)[second],
        # the lower bounds under the names of BayesSignedRankResult first
        **dict.fromkeys(_ALIASES),
        **{key: np.full(k, np.nan) for key in _FLOAT_COLUMNS},
        "differs": np.zeros(k, dtype=bool),
        "decision": np.empty(k, dtype=object),
        "n": np.full(k, n, dtype=np.int64),
        "effect": np.empty(k),
        "_order": first * m + second,  # column order, whatever the grouping
        # each pair's draws, under a precision target (precise_table)
        **(
            {"draws": np.full(k, options["n_samples"], dtype=np.int64)}
            if options["mc_error"] is not None
            else {}
        ),
    }
    # the same numbers under two names are one array (2,000 algorithms'
    # 1,999,000 pairs: 16 MB a column)
    for alias, name in _ALIASES.items():
        cols[alias] = cols[name]
    if method == "normal" or (method == "auto" and n > NORMAL_CASES):
        for at, (i, j) in enumerate(zip(first, second, strict=True)):
            # O(n log n) per pair, no shared sums to share
            posterior = canonical_posterior(
                values[:, j] - values[:, i], prior, options["z0"], rope,
                (names[i], names[j]),
            )  # fmt: skip
            kw = {
                "s": options["s"], "threshold": options["threshold"],
                "names": (names[i], names[j]),
            }  # fmt: skip
            res = posterior.normal_result(options["n_samples"], seed, **kw)
            _store(cols, at, res)
            cols["_lower_left"][at] = res.prob_left_lower
            if options["bar"] is not None:
                options["bar"].update(1)
    else:
        check_fits(
            monte_carlo_bytes(n),
            f"Monte Carlo draws over {n:,} cases",
            "use method='normal' (or 'auto'), or raise the ceiling",
        )

        def engine_for(draws: DirichletWeights) -> PairBlocks:
            return PairBlocks(draws, prior, options["z0"], rope, options["s"])

        names_ab = list(zip(cols["a"], cols["b"], strict=True))
        store = options.get("codes")
        record = None
        if store is not None:  # each batch's codes, by the pairs' numbers

            def record(batch: int, at: np.ndarray, codes: np.ndarray) -> None:
                store.add(batch, cols["_order"][at], codes)

        if options["mc_error"] is None:
            draws = (
                DirichletWeights(n, options["n_samples"], seed)
                if weights_for is None
                else weights_for(0, options["n_samples"])
            )
            engine_for(draws).table(
                lambda block: values[:, second[block]] - values[:, first[block]],
                names_ab,
                threshold=options["threshold"],
                interval=options["interval"],
                out=cols,
                bar=options["bar"],
                codes=(
                    None
                    if record is None
                    else lambda block, codes: record(0, np.arange(k)[block], codes)
                ),
            )
        else:  # draws in batches until every probability is precise enough
            yield from precise_table(
                engine_for,
                lambda at: values[:, second[at]] - values[:, first[at]],
                names_ab,
                n_cases=n, first=options["n_samples"], target=options["mc_error"],
                seed=seed, threshold=options["threshold"],
                interval=options["interval"], out=cols, bar=options["bar"],
                weights_for=weights_for, codes=record,
            )  # fmt: skip
    # the effects, in blocks within the budget: ranking n × block differences
    # takes about eight times their size (benchmarks/bench_memory.py)
    effect_block = max(1, budget() // (_EFFECT_COPIES * 8 * max(n, 1)))
    for start in range(0, k, effect_block):
        block = slice(start, start + effect_block)
        i, j = first[block], second[block]
        # the size of each difference beside its probabilities, as in the
        # frequentist post-hoc tables: rank-biserial r of b − a (> 0: b better)
        cols["effect"][block] = rank_biserial_columns(values[:, j] - values[:, i])
    # P(column better than row), the lower probability under IDP: the
    # mirrored pair's prob_lower below the diagonal
    matrix[first, second] = cols["prob_lower"]
    matrix[second, first] = cols.pop("_lower_left")
    errors.append(float(cols.pop("_mc_error").max()) if k else 0.0)
    rows.append(cols)


#: Float columns of the pairs' table, as :class:`BayesSignedRankResult` names them.
_FLOAT_COLUMNS = (
    "prob_left_lower", "prob_left_upper", "prob_rope_lower", "prob_rope_upper",
    "prob_right_lower", "prob_right_upper",
    "mean_lower", "mean_upper", "ci_low", "ci_high", "_mc_error",
)  # fmt: skip
#: Columns that are other columns under another name (the lower bounds, as
#: :class:`BayesSignedRankResult` names them; the matrix's lower P(a better)).
_ALIASES = {
    "prob_left": "prob_left_lower",
    "prob_rope": "prob_rope_lower",
    "prob_right": "prob_right_lower",
    "prob_lower": "prob_right_lower",
    "prob_upper": "prob_right_upper",
    "_lower_left": "prob_left_lower",
}
#: Arrays of the size of the differences that ranking them holds at once.
_EFFECT_COPIES = 8


def _store(cols: dict[str, np.ndarray], at: int, res: Any) -> None:
    """One pair's result into the columns (the normal approximation's path)."""
    low, high = res.credible_interval
    values = {
        "prob_left": res.prob_left,
        "prob_rope": np.nan if res.prob_rope is None else res.prob_rope,
        "prob_right": res.prob_right,
        "prob_lower": res.prob_lower,
        "prob_upper": res.prob_upper,
        **{
            f"prob_{key}_{end}": np.nan if value is None else value[k]
            for key, value in res.bounds().items()
            for k, end in enumerate(("lower", "upper"))
        },
        "mean_lower": res.posterior_mean_lower,
        "mean_upper": res.posterior_mean_upper,
        "ci_low": low,
        "ci_high": high,
        "_mc_error": res.mc_error,
        "differs": res.differs,
        "decision": res.decision,
    }
    for key, value in values.items():
        cols[key][at] = value


def rows_method(method: str, n: int) -> str:
    """The method ``"auto"`` resolves to for n cases."""
    if method == "auto":
        return "normal" if n > NORMAL_CASES else "montecarlo"
    return method

"""Post-hoc tests after Friedman: which algorithms differ (Demšar 2006, §3.2.2).

z-tests on mean ranks, all pairs or against a control, with the procedures
that control the family-wise error over them. Conover's t-tests on rank sums
are :func:`nbstats.conover`; pairwise tests on the scores themselves
(Wilcoxon, sign, t) :func:`nbstats.comparison_matrix`.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from nbstats.results.frequentist import PosthocResult
from nbstats.scores.names import name_index
from nbstats.scores.ranks import oriented, rank_rows
from nbstats.scores.table import score_table
from nbstats.stats.frequentist.adjust import adjust_pvalues
from nbstats.stats.frequentist.aligned import aligned_ranks, aligned_standard_error
from nbstats.stats.frequentist.critical_difference import (
    critical_value,
    rank_standard_error,
)
from nbstats.stats.frequentist.pair_matrices import (
    all_pairs,
    effect_block_cells,
    effect_blocks,
    effect_square,
    pair_square,
)
from nbstats.stats.frequentist.quade import quade_scores, weighted_rank_standard_error
from nbstats.stats.groups import nonsignificant_groups
from nbstats.stats.pairs_memory import check_pairs_fit
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_choice, check_flag, check_fraction

__all__ = [
    "POSTHOC_METHODS",
    "RANKS",
    "against_control",
    "check_pairs_memory",
    "control_and_pairs",
    "nonsignificant_groups",
    "pairs_result",
    "posthoc",
]

#: The procedures of :func:`posthoc` (z-tests on mean ranks).
POSTHOC_METHODS = (
    "nemenyi",
    "bonferroni-dunn",
    "holm",
    "hochberg",
    "hommel",
    "finner",
    "li",
    "rom",
    "shaffer",
    "bergmann-hommel",
)
#: The ranks the z-tests compare (``posthoc(ranks=...)``).
RANKS = ("friedman", "aligned", "quade")

#: Procedures of all pairs and the procedure each is against a control, with
#: why (the note a result carries).
_AGAINST_CONTROL = {
    "nemenyi": (
        "bonferroni-dunn",
        "Nemenyi's test compares all pairs; against a control its critical "
        "difference is Bonferroni–Dunn's over the k − 1 comparisons (Demšar "
        "2006, §3.2.2), which was applied.",
    ),
    "shaffer": (
        "holm",
        "Shaffer's procedure bounds the number of true hypotheses by the sets "
        "that can be true together; the k − 1 comparisons with a control can "
        "be true in any combination, so it is Holm's procedure, which was "
        "applied.",
    ),
    "bergmann-hommel": (
        "holm",
        "Bergmann and Hommel's procedure tests every set of hypotheses that "
        "can be true together; the k − 1 comparisons with a control can be "
        "true in any combination, so it is Holm's procedure, which was "
        "applied.",
    ),
}


def against_control(procedure: str, control: object) -> tuple[str, str | None]:
    """The procedure applied for ``procedure`` and a note saying why, if it
    is another one: against a control, Nemenyi's becomes Bonferroni–Dunn's
    and Shaffer's and Bergmann–Hommel's reduce to Holm's.

    Examples
    --------
    >>> against_control("shaffer", "A")[0], against_control("shaffer", None)
    ('holm', ('shaffer', None))
    """
    if control is None or procedure not in _AGAINST_CONTROL:
        return procedure, None
    return _AGAINST_CONTROL[procedure]


def posthoc(
    scores: pd.DataFrame | np.ndarray,
    *,
    method: str = "nemenyi",
    ranks: str = "friedman",
    control: str | None = None,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    nan_policy: str = "raise",
) -> PosthocResult:
    """z-tests on mean ranks, all pairs or against a control (Demšar 2006,
    §3.2.2; García et al. 2010, §5).

    Every pair ``(a, b)`` is tested with ``z = (R_a − R_b) / SE`` on the
    mean ranks ``R`` of ``ranks``, and ``method`` controls the family-wise
    error over the comparisons made. Every combination of the arguments is
    valid: against a control the procedures of all pairs become the
    procedure they are for k − 1 comparisons with one algorithm, and the
    result says which (``method`` is the procedure applied, ``note`` says
    why).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    method : str
        - ``"nemenyi"``: all pairs, studentized-range p-values; has a
          critical difference. Against a control: ``"bonferroni-dunn"``.
        - ``"bonferroni-dunn"``: Bonferroni over the comparisons made (k − 1
          against a control, else all pairs); has a critical difference.
        - ``"holm"``, ``"hochberg"``, ``"hommel"``, ``"finner"``, ``"li"``,
          ``"rom"``: step-down/up procedures (see
          :func:`nbstats.adjust_pvalues`).
        - ``"shaffer"``: Shaffer's static procedure over all pairs.
        - ``"bergmann-hommel"``: Bergmann and Hommel's procedure over every
          set of hypotheses that can be true together; at least as powerful
          as Shaffer's (exact up to 12 algorithms).

        Against a control, Shaffer's and Bergmann and Hommel's procedures
        are Holm's: the k − 1 comparisons with one algorithm can be true in
        any combination, so neither has a logical restriction to use.
    ranks : {"friedman", "aligned", "quade"}
        The ranks compared: ``"friedman"`` (within-case mean ranks, standard
        error ``sqrt(k(k+1)/(6n))``), ``"aligned"`` (mean aligned ranks of
        :func:`nbstats.friedman_aligned`, standard error
        ``sqrt(2 Σ_i Σ_j (r_ij − r̄_i)² / (k − 1)) / n`` over the aligned
        ranks r_ij) or ``"quade"`` (Quade's weighted mean ranks of
        :func:`nbstats.quade`, ``sqrt(2A / (k − 1)) / Σ_i Q_i``, which is
        ``sqrt(k(k+1)(2n+1)/(9n(n+1)))`` without ties) — the post-hoc tests
        of each omnibus test, as scmamp's ``friedmanPost``,
        ``friedmanAlignedRanksPost`` and ``quadePost``, but with other
        standard errors: the aligned and Quade ones are those of the
        differences when the algorithms are exchangeable within each case
        (the null hypothesis). scmamp's ``sqrt(k(kn+1)/6)`` for aligned
        ranks (García et al. print ``sqrt(k(n+1)/6)``) is too small, and
        their ``sqrt(k(k+1)(2n+1)(k-1)/(18n(n+1)))`` for Quade's is too
        large for k > 3: the first rejects too often, the second almost
        never. Only Friedman's have a critical difference
        (``critical_difference`` is None otherwise); ``mean_ranks`` stay
        Friedman's, for ordering and groups.
    control : str, optional
        Compare every algorithm against this one (k − 1 hypotheses) instead
        of all k(k − 1)/2 pairs.
    alpha : float
        Family-wise significance level, in (0, 1).
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit"}
        As for :func:`nbstats.score_table`: refuse missing scores, or drop
        the incomplete cases. (Each pair on its own cases:
        :func:`nbstats.comparison_matrix` with ``nan_policy="pairwise"``.)

    Returns
    -------
    PosthocResult
        ``pvalues``, ``adjusted``, ``reject`` (m × m DataFrames, or Series
        against ``control``), ``critical_difference``, ``groups``,
        ``method`` (the procedure applied) and ``note`` (why, when it is not
        the one asked for).

    See Also
    --------
    nbstats.conover : Conover's t-tests on rank sums (also after Quade's
        and Durbin's tests).
    nbstats.comparison_matrix : Wilcoxon, sign or t-tests of every pair.

    Examples
    --------
    Demšar's Table 6 at α = 0.10: two groups.

    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> res = nbstats.posthoc(table, method="nemenyi", alpha=0.10)
    >>> round(res.critical_difference, 2)
    1.12
    >>> res.groups
    [('C4.5+m+cf', 'C4.5+m', 'C4.5+cf'), ('C4.5+cf', 'C4.5')]

    Holm against C4.5 rejects two hypotheses:

    >>> holm = nbstats.posthoc(table, method="holm", control="C4.5")
    >>> holm.reject.tolist()
    [True, False, True]

    Shaffer's procedure against a control is Holm's, and says so:

    >>> shaffer = nbstats.posthoc(table, method="shaffer", control="C4.5")
    >>> shaffer.method, shaffer.reject.tolist()
    ('holm', [True, False, True])
    """
    from nbstats.stats.frequentist.critical_difference import nemenyi_pvalues

    check_choice("method", method, POSTHOC_METHODS)
    check_choice("ranks", ranks, RANKS)
    alpha = check_fraction("alpha", alpha, example=0.05)
    check_flag("higher_is_better", higher_is_better)
    check_choice("nan_policy", nan_policy, ("raise", "omit"))
    table = score_table(scores, nan_policy=nan_policy)
    n, k = table.shape
    control, first, second, method, note = pairs_to_test(
        list(table.columns), control, method, "posthoc", n
    )
    values = table.to_numpy()
    mean_ranks = pd.Series(
        rank_rows(values, higher_is_better=higher_is_better).mean(axis=0),
        index=table.columns,
        name="mean rank",
    )
    # z > 0 when b (second) has the better, i.e. smaller, mean rank
    compared, se = _ranks_to_compare(ranks, values, mean_ranks, higher_is_better)
    stats = compared[first] - compared[second]
    # se = 0: every case a complete tie, so every difference is 0 too
    stats /= se if se > 0 else 1.0
    raw = 2 * sps.norm.sf(np.abs(stats))

    critical_difference = None
    if method == "nemenyi":
        adjusted = nemenyi_pvalues(stats, k)
        if ranks == "friedman":
            critical_difference = critical_value(k, alpha, "nemenyi") * se
    elif method == "bonferroni-dunn":
        adjusted = adjust_pvalues(raw, "bonferroni")
        if ranks == "friedman":
            critical_difference = (
                critical_value(k, alpha, "bonferroni-dunn", n_comparisons=len(first))
                * se
            )
    else:
        adjusted = adjust_pvalues(raw, method, n_algorithms=k)
    # handed over, not kept here: pairs_result drops each vector once it is
    # in its matrix (at 4000 algorithms each is 64 MB)
    tested = {"stats": stats, "raw": raw, "adjusted": adjusted}
    del stats, raw, adjusted
    return pairs_result(
        table, ~np.isnan(values), first, second, tested,
        mean_ranks, method=method, adjust=method, alpha=alpha, control=control,
        higher_is_better=higher_is_better, ranks=ranks,
        critical_difference=critical_difference, note=note,
    )  # fmt: skip


def pairs_result(
    table: pd.DataFrame,
    present: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    tested: dict[str, np.ndarray],
    mean_ranks: pd.Series,
    *,
    method: str,
    adjust: str,
    alpha: float,
    control: str | None,
    higher_is_better: bool,
    ranks: str,
    critical_difference: float | None = None,
    note: str | None = None,
) -> PosthocResult:
    """The :class:`PosthocResult` of tested pairs: decisions, matrices (or
    Series against a control), effect sizes and groups.

    ``tested`` holds the per-pair vectors ``"stats"`` (of "b vs a",
    antisymmetric), ``"raw"`` and ``"adjusted"``; they are taken out of it
    and dropped once used."""
    stats, raw = tested.pop("stats"), tested.pop("raw")
    adjusted = tested.pop("adjusted")
    names = list(table.columns)
    values = table.to_numpy(dtype=float)
    n = values.shape[0]
    oriented_values = oriented(values, higher_is_better)
    reject = adjusted <= alpha
    # the size of each difference beside its p-value: the matched-pairs
    # rank-biserial correlation of b − a (> 0: b better), on the pair's cases
    effects = effect_blocks(oriented_values, present, first, second)
    if control is not None:
        others = name_index([names[j] for j in second], name="algorithm")
        statistics = pd.Series(stats, index=others, name="statistic")
        pvalues = pd.Series(raw, index=others, name="pvalue")
        adjusted_out = pd.Series(adjusted, index=others, name="adjusted")
        reject_out = pd.Series(reject, index=others, name="reject")
        effects_out = pd.Series(
            np.concatenate([block for _, block in effects]), index=others, name="effect"
        )
        same = [control] + [b for b, r in zip(others, reject, strict=True) if not r]
        groups = [tuple(sorted(same, key=lambda a: (mean_ranks[a], names.index(a))))]
    else:
        # m × m matrices, one at a time: at thousands of algorithms each is
        # 100 MB and each pair vector half of that
        square = functools.partial(pair_square, names)
        statistics = square(stats, mirrored="negated")
        del stats
        pvalues = square(raw)
        del raw
        adjusted_out = square(adjusted)
        del adjusted
        reject_out = square(reject, fill=False)
        del reject
        effects_out = effect_square(names, first, second, effects)
        groups = nonsignificant_groups(reject_out, mean_ranks)
    return PosthocResult(
        method=method,
        adjust=adjust,
        alpha=alpha,
        control=control,
        mean_ranks=mean_ranks,
        statistics=statistics,
        pvalues=pvalues,
        adjusted=adjusted_out,
        reject=reject_out,
        critical_difference=critical_difference,
        groups=groups,
        n_cases=n,
        ranks=ranks,
        effect_sizes=effects_out,
        # with missing cells (Durbin's design): the cases some pair shares
        cases=table.index[(present.sum(axis=1) >= 2)].copy(),
        note=note,
    )


def check_pairs_memory(function: str, n_algorithms: int, n_cases: int) -> None:
    """Refuse, before any test, all pairs of ``function`` (``"posthoc"``,
    ``"conover"``) that cannot fit the memory ceiling."""
    check_pairs_fit(
        "posthoc",
        n_algorithms,
        n_cases,
        block_cells=effect_block_cells(),
        what=f"{function}()",
        fix=", or test against one algorithm (control=: m - 1 pairs)",
    )


def pairs_to_test(
    names: list[str], control: object, procedure: str, function: str, n_cases: int
) -> tuple[str | None, np.ndarray, np.ndarray, str, str | None]:
    """``(control, first, second, procedure, note)`` of a post-hoc table:
    the control checked and the pairs to test (:func:`control_and_pairs`),
    the procedure that applies to them and the note saying why
    (:func:`against_control`); all pairs of ``function`` are refused before
    any test when they cannot fit the memory ceiling
    (:func:`check_pairs_memory`)."""
    control, first, second = control_and_pairs(names, control)
    procedure, note = against_control(procedure, control)
    if control is None:
        check_pairs_memory(function, len(names), n_cases)
    return control, first, second, procedure, note


def control_and_pairs(
    names: list[str], control: str | None
) -> tuple[str | None, np.ndarray, np.ndarray]:
    """The control as the results name it (its column's name; the ``str`` of
    a name finds it too), checked, and the pairs to test as column positions
    ``(first, second)``: (control, other) for each other, else all pairs in
    the order of ``itertools.combinations`` (int32: two vectors of 8 million
    pairs at 4000 algorithms, and no tuples of names)."""
    by_text = {str(name): name for name in names}
    if control is not None and control not in names and str(control) in by_text:
        control = by_text[str(control)]
    if control is not None and control not in names:
        raise ValueError(f"control={control!r} is not one of the algorithms {names}.")
    k = len(names)
    if control is None:
        return None, *all_pairs(k)
    position = names.index(control)
    others = np.array([j for j in range(k) if j != position], dtype=np.int32)
    return control, np.full(others.size, position, dtype=np.int32), others


def _ranks_to_compare(
    ranks: str, values: np.ndarray, mean_ranks: pd.Series, higher_is_better: bool
) -> tuple[np.ndarray, float]:
    """The per-algorithm ranks of ``ranks`` and the standard error of a
    difference of two of them under the null hypothesis (García et al. 2010,
    §5, with the within-case permutation variances of
    :func:`~nbstats.stats.frequentist.aligned.aligned_standard_error` and
    :func:`~nbstats.stats.frequentist.quade.weighted_rank_standard_error`)."""
    n, k = values.shape
    if ranks == "aligned":
        aligned = aligned_ranks(values, higher_is_better=higher_is_better)
        return aligned.mean(axis=0), aligned_standard_error(aligned)
    if ranks == "quade":
        q, r, s = quade_scores(values, higher_is_better=higher_is_better)
        # Σ_i Q_i r_ij / Σ_i Q_i: each algorithm's rank, cases weighted by Q_i
        weighted = (q[:, None] * r).sum(axis=0) / q.sum()
        return weighted, weighted_rank_standard_error(q, s)
    return mean_ranks.to_numpy(), rank_standard_error(k, n)

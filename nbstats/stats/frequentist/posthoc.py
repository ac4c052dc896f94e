"""Post-hoc tests after Friedman: which algorithms differ (Demšar 2006, §3.2.2)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.frequentist import PosthocResult
from nbstats.scores.frames import power_of_two_scale
from nbstats.scores.missing import observed_mean_ranks, pairwise_table
from nbstats.scores.names import name_index
from nbstats.scores.ranks import oriented, rank_rows
from nbstats.scores.table import NanPolicy, score_table
from nbstats.stats.frequentist.adjust import ADJUSTMENTS, adjust_pvalues
from nbstats.stats.frequentist.aligned import aligned_ranks, aligned_standard_error
from nbstats.stats.frequentist.conover import conover, durbin_conover
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
from nbstats.stats.frequentist.pairwise_tests import pairwise_tests
from nbstats.stats.frequentist.quade import quade_scores, weighted_rank_standard_error
from nbstats.stats.groups import nonsignificant_groups
from nbstats.stats.pairs_memory import check_pairs_fit
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_choice

__all__ = ["POSTHOC_METHODS", "nonsignificant_groups", "posthoc"]

RANK_METHODS = (
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
#: Procedures defined for all pairs only (no control).
ALL_PAIRS_ONLY = ("nemenyi", "shaffer", "bergmann-hommel")
PAIRWISE_METHODS = ("wilcoxon", "sign", "ttest")
#: t-tests on Friedman's rank sums (Conover 1999), adjusted by ``adjust``.
CONOVER = "conover"
POSTHOC_METHODS = (*RANK_METHODS, CONOVER, *PAIRWISE_METHODS)
#: The ranks the rank methods' z-tests can compare (``posthoc(ranking=...)``).
RANKINGS = ("friedman", "aligned", "quade", "durbin")


def posthoc(
    scores: pd.DataFrame | np.ndarray,
    *,
    method: str = "nemenyi",
    control: str | None = None,
    alpha: float = 0.05,
    adjust: str | None = None,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    options: Mapping[str, Any] | None = None,
    ranking: str = "friedman",
    progress: bool | None = None,
) -> PosthocResult:
    """Post-hoc comparisons of k algorithms, all pairs or against a control.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    method : str
        z-tests on mean ranks, ``z = (R_i - R_j) / sqrt(k(k+1)/(6N))``:

        - ``"nemenyi"``: all pairs, studentized-range p-values; has a CD.
        - ``"bonferroni-dunn"``: Bonferroni over the comparisons made (k - 1
          against a control, else all pairs); has a CD.
        - ``"holm"``, ``"hochberg"``, ``"hommel"``, ``"finner"``, ``"li"``,
          ``"rom"``:
          step-down/up procedures (see :func:`nbstats.adjust_pvalues`).
        - ``"shaffer"``: Shaffer's static procedure, all pairs only.
        - ``"bergmann-hommel"``: Bergmann and Hommel's procedure over every
          set of hypotheses that can be true together; all pairs only, at
          least as powerful as Shaffer's (exact up to 12 algorithms).

        ``"conover"``: Conover's (1999, §5.8) t-tests on Friedman's rank
        sums ``R_j``, ``t = (R_i − R_j) / sqrt(2 (n A − Σ R_j²) / ((n−1)(k−1)))``
        (A the sum of all squared ranks) with ``(n−1)(k−1)`` degrees of
        freedom — scikit-posthocs' ``posthoc_conover_friedman`` —, adjusted by
        ``adjust``; with ``ranking="quade"`` the same t-tests on Quade's
        weighted scores (scikit-posthocs' ``posthoc_quade``); with
        ``ranking="durbin"`` on a balanced incomplete design (Conover 1999,
        §5.9: the rank sums of :func:`nbstats.durbin`, error
        ``(A − C) 2r (1 − T₁/(b(k−1))) / (bk − b − t + 1)``, T₁ with the tie
        correction — scikit-posthocs' ``posthoc_durbin``; on a complete table
        the same as ``ranking="friedman"``). Its error term is the residual
        variance of the ranks, so it is more powerful than the z-tests when
        the cases agree.

        Pairwise tests on the scores themselves, adjusted by ``adjust``:
        ``"wilcoxon"`` (exact/zsplit as :func:`nbstats.wilcoxon`), ``"sign"``
        (ties split), ``"ttest"`` (paired).
    control : str, optional
        Compare every algorithm against this one (k - 1 hypotheses) instead of
        all k(k-1)/2 pairs. Not possible with ``"nemenyi"``, ``"shaffer"`` and
        ``"bergmann-hommel"``.
    alpha : float
        Family-wise significance level.
    adjust : str, optional
        Only for pairwise tests: one of ``"holm"`` (default), ``"hochberg"``,
        ``"hommel"``, ``"bonferroni"``, ``"finner"``, ``"li"``, ``"rom"``,
        ``"shaffer"``, ``"bergmann-hommel"`` or ``"none"``.
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit", "pairwise"}
        ``"raise"`` and ``"omit"`` as for :func:`nbstats.score_table`.
        ``"pairwise"`` (pairwise tests only): each pair is tested on the cases
        where both algorithms have a score, and ``pair_cases`` says how many;
        ``mean_ranks`` then rank each case among the algorithms it has (see
        :func:`nbstats.scores.missing.observed_mean_ranks`). The rank methods compare
        every algorithm on the same cases and refuse it.
    ranking : {"friedman", "aligned", "quade", "durbin"}
        The ranks the z-tests of the rank methods compare (García et al.
        2010, §5): ``"friedman"`` (within-case mean ranks, standard error
        ``sqrt(k(k+1)/(6n))``), ``"aligned"`` (mean aligned ranks of
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
        ``"durbin"`` (``method="conover"`` only): a balanced incomplete block
        design, NaN where an algorithm was not run (see
        :func:`nbstats.durbin`); each case ranks the scores it has, and
        ``mean_ranks`` are the rank sums over r, the cases per algorithm.
    options : mapping, optional
        Options of the pairwise test, ``method="wilcoxon"`` only: those of
        :func:`nbstats.wilcoxon` — ``zero_method`` (``"zsplit"``, the
        default, ``"wilcox"`` or ``"pratt"``), ``method`` (``"auto"``,
        ``"exact"`` or ``"approx"``) and ``correction`` (continuity, for
        ``"approx"``). E.g. ``{"zero_method": "wilcox", "method": "approx",
        "correction": True}`` reproduces R's ``pairwise.wilcox.test(...,
        paired = TRUE, exact = FALSE)``, and ``{"zero_method": "wilcox"}``
        scikit-posthocs' ``posthoc_wilcoxon`` on ties-free data.
    progress : bool, optional
        A progress bar over the pairs of the pairwise tests (``"wilcoxon"``,
        ``"sign"``, ``"ttest"``; ``tqdm.auto``): ``None`` shows one in a
        terminal or a notebook when the call lasts more than a second, not in
        scripts whose output is redirected nor under pytest; True/False force
        it. Each pair is a test of its own, so hundreds of algorithms take
        minutes; Ctrl-C stops the call between two pairs.

    Returns
    -------
    PosthocResult
        ``pvalues``, ``adjusted``, ``reject`` (m × m DataFrames, or Series
        against ``control``), ``critical_difference`` and ``groups``;
        ``pair_cases`` with ``nan_policy="pairwise"``.

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
    """
    from nbstats.stats.frequentist.critical_difference import nemenyi_pvalues

    check_choice("method", method, POSTHOC_METHODS)
    check_choice("ranking", ranking, RANKINGS)
    if ranking == "durbin":
        return _durbin_posthoc(
            scores, method, control, alpha, adjust, higher_is_better, nan_policy
        )
    if ranking == "aligned" and method == CONOVER:
        raise ValueError(
            "method='conover' has t-tests on Friedman's rank sums "
            "(ranking='friedman') or on Quade's weighted scores "
            "(ranking='quade'), not on aligned ranks; use a rank method such as "
            "'holm' with ranking='aligned'."
        )
    if ranking != "friedman" and method not in (*RANK_METHODS, CONOVER):
        raise ValueError(
            f"ranking={ranking!r} chooses the ranks of the z-tests on mean ranks; "
            f"method={method!r} tests the scores pairwise. Use a rank method "
            "(e.g. 'holm', 'finner') or drop ranking=."
        )
    if ranking != "friedman" and nan_policy == "pairwise":
        raise ValueError(
            f"ranking={ranking!r} ranks every case's scores together; it takes no "
            "nan_policy='pairwise' (use 'omit')."
        )
    test_options = _check_options(method, options)
    _check_alpha(alpha)
    pairwise = nan_policy == "pairwise"
    if pairwise and (method in RANK_METHODS or method == CONOVER):
        raise ValueError(
            f"nan_policy='pairwise' tests each pair on its own cases, but "
            f"method={method!r} compares mean ranks over the same cases for every "
            "algorithm. Use nan_policy='omit' (drop incomplete cases), or a "
            "pairwise test: method='wilcoxon', 'sign' or 'ttest'."
        )
    if pairwise:
        table = pairwise_table(scores)
    else:
        table = score_table(scores, nan_policy=nan_policy)
    names = list(table.columns)
    control, first, second = _control_and_pairs(names, control)
    if control is not None and method in ALL_PAIRS_ONLY:
        raise ValueError(
            f"method={method!r} compares all pairs; against a control use "
            f"'bonferroni-dunn', 'holm', 'hochberg' or 'hommel' (or drop control=)."
        )
    if method in RANK_METHODS:
        if adjust is not None and adjust != method:
            raise ValueError(
                f"adjust= applies to pairwise tests (wilcoxon, sign, ttest); "
                f"method={method!r} already fixes the adjustment."
            )
        adjust = method
    else:
        adjust = _test_adjustment(adjust, control)

    n, k = table.shape
    if control is None:
        _check_pairs_memory(method, k, n)
    values = table.to_numpy()
    if pairwise:
        mean_ranks = observed_mean_ranks(table, higher_is_better=higher_is_better)
    else:
        mean_ranks = pd.Series(
            rank_rows(values, higher_is_better=higher_is_better).mean(axis=0),
            index=table.columns,
            name="mean rank",
        )
    se = rank_standard_error(k, n)
    if method in RANK_METHODS:
        # z > 0 when b (second) has the better, i.e. smaller, mean rank
        ranks, se = _ranks_to_compare(ranking, values, mean_ranks, higher_is_better)
        stats = ranks[first] - ranks[second]
        # se = 0: every case a complete tie, so every difference is 0 too
        stats /= se if se > 0 else 1.0
        raw = 2 * sps.norm.sf(np.abs(stats))
        mirrored = None  # -stats, made in place in the matrix
    elif method == CONOVER:
        stats, raw = conover(values, first, second, higher_is_better, ranking)
        mirrored = None  # -stats, made in place in the matrix
    else:
        better = oriented(values, higher_is_better)
        # a power of two (exact: keeps ties and order) so that no difference
        # of two scores overflows, whatever the units
        better = better / power_of_two_scale(better)
        stats, raw, mirrored = pairwise_tests(
            better, first, second, method, test_options,
            pairwise=pairwise, progress=progress,
        )  # fmt: skip

    critical_difference = None
    if method == "nemenyi":
        adjusted = nemenyi_pvalues(stats, k)
        if ranking == "friedman":
            critical_difference = critical_value(k, alpha, "nemenyi") * se
    elif method == "bonferroni-dunn":
        adjusted = adjust_pvalues(raw, "bonferroni")
        if ranking == "friedman":
            critical_difference = (
                critical_value(k, alpha, "bonferroni-dunn", n_comparisons=len(first))
                * se
            )
    else:
        adjusted = adjust_pvalues(raw, adjust, n_algorithms=k)
    # handed over, not kept here: _pairs_result drops each vector once it is
    # in its matrix (at 4000 algorithms each is 64 MB)
    tested = {"stats": stats, "raw": raw, "adjusted": adjusted, "mirrored": mirrored}
    del stats, raw, adjusted, mirrored
    return _pairs_result(
        table, ~np.isnan(values), first, second, tested,
        mean_ranks, method=method, adjust=adjust, alpha=alpha, control=control,
        higher_is_better=higher_is_better, ranking=ranking,
        critical_difference=critical_difference, pairwise=pairwise,
    )  # fmt: skip


def _pairs_result(
    table: pd.DataFrame,
    present: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    tested: dict[str, np.ndarray | None],
    mean_ranks: pd.Series,
    *,
    method: str,
    adjust: str,
    alpha: float,
    control: str | None,
    higher_is_better: bool,
    ranking: str,
    critical_difference: float | None = None,
    pairwise: bool = False,
) -> PosthocResult:
    """The :class:`PosthocResult` of tested pairs: decisions, matrices (or
    Series against a control), counts, effect sizes and groups.

    ``tested`` holds the per-pair vectors ``"stats"``, ``"raw"``,
    ``"adjusted"`` and ``"mirrored"`` (the statistic of (b, a); None for
    ``-stats``); they are taken out of it and dropped once used."""
    stats, raw = tested.pop("stats"), tested.pop("raw")
    adjusted = tested.pop("adjusted")
    mirrored = tested.pop("mirrored", None)
    names = list(table.columns)
    values = table.to_numpy(dtype=float)
    n = values.shape[0]
    oriented_values = oriented(values, higher_is_better)
    reject = adjusted <= alpha
    # the size of each difference beside its p-value: the matched-pairs
    # rank-biserial correlation of b − a (> 0: b better), on the pair's cases
    effects = effect_blocks(oriented_values, present, first, second)
    counts = None
    if pairwise:
        counts = (present[:, first] & present[:, second]).sum(axis=0)
    if control is not None:
        others = name_index([names[j] for j in second], name="algorithm")
        statistics = pd.Series(stats, index=others, name="statistic")
        pvalues = pd.Series(raw, index=others, name="pvalue")
        adjusted_out = pd.Series(adjusted, index=others, name="adjusted")
        reject_out = pd.Series(reject, index=others, name="reject")
        counts_out = (
            None if counts is None else pd.Series(counts, index=others, name="n")
        )
        effects_out = pd.Series(
            np.concatenate([block for _, block in effects]), index=others, name="effect"
        )
        same = [control] + [b for b, r in zip(others, reject, strict=True) if not r]
        groups = [tuple(sorted(same, key=lambda a: (mean_ranks[a], names.index(a))))]
    else:
        # m × m matrices, one at a time: at thousands of algorithms each is
        # 100 MB and each pair vector half of that
        square = functools.partial(pair_square, names)
        statistics = square(stats, mirrored="negated" if mirrored is None else mirrored)
        del stats, mirrored
        pvalues = square(raw)
        del raw
        adjusted_out = square(adjusted)
        del adjusted
        reject_out = square(reject, fill=False)
        del reject
        counts_out = None if counts is None else square(counts.astype(float))
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
        pair_cases=counts_out,
        ranking=ranking,
        effect_sizes=effects_out,
        # with missing cells: the cases at least one pair shares
        cases=table.index[(present.sum(axis=1) >= 2)].copy(),
    )


def _check_pairs_memory(method: str, n_algorithms: int, n_cases: int) -> None:
    """Refuse, before any test, all pairs that cannot fit the memory ceiling."""
    check_pairs_fit(
        "posthoc_tests" if method in PAIRWISE_METHODS else "posthoc",
        n_algorithms,
        n_cases,
        block_cells=effect_block_cells(),
        what=f"posthoc(method={method!r})",
        fix=", or test against one algorithm (control=: m - 1 pairs)",
    )


def _check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}.")


def _control_and_pairs(
    names: list[str], control: str | None
) -> tuple[str | None, np.ndarray, np.ndarray]:
    """The control as the results name it (its column's name; the ``str`` of
    a name finds it too), checked,
    and the pairs to test as column positions ``(first, second)``: (control,
    other) for each other, else all pairs in the order of
    ``itertools.combinations`` (int32: two vectors of 8 million pairs at 4000
    algorithms, and no tuples of names)."""
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


def _test_adjustment(adjust: str | None, control: str | None) -> str:
    """The correction of tests that do not fix their own (default Holm),
    checked; Shaffer's and Bergmann–Hommel's need all pairs."""
    adjust = "holm" if adjust is None else adjust
    if adjust == "bonferroni-dunn":
        adjust = "bonferroni"
    check_choice("adjust", adjust, ADJUSTMENTS)
    if adjust in ALL_PAIRS_ONLY and control is not None:
        procedure = {
            "shaffer": "Shaffer's procedure",
            "bergmann-hommel": "Bergmann and Hommel's procedure",
        }[adjust]
        raise ValueError(
            f"{procedure} is for all pairwise comparisons; against a "
            "control use adjust='holm'."
        )
    return adjust


def _durbin_posthoc(
    scores: pd.DataFrame | np.ndarray,
    method: str,
    control: str | None,
    alpha: float,
    adjust: str | None,
    higher_is_better: bool,
    nan_policy: str,
) -> PosthocResult:
    """Conover's t-tests after Durbin's test (Conover 1999, §5.9)."""
    from nbstats.stats.frequentist.durbin import balanced_design
    from nbstats.stats.frequentist.skillings_mack import observed_ranks

    if method != CONOVER:
        raise ValueError(
            "ranking='durbin' has Conover's t-tests on the rank sums of a "
            f"balanced incomplete design (method='conover'), not method={method!r}."
        )
    if nan_policy != "raise":
        raise ValueError(
            "ranking='durbin' reads NaN as the cells the design leaves out, so it "
            f"takes no nan_policy={nan_policy!r}: leave nan_policy at 'raise'."
        )
    _check_alpha(alpha)
    table, present, ranks = observed_ranks(scores, higher_is_better=higher_is_better)
    names = list(table.columns)
    control, first, second = _control_and_pairs(names, control)
    adjust = _test_adjustment(adjust, control)
    if control is None:
        _check_pairs_memory(method, len(names), len(table))
    k, r, _ = balanced_design(table, present, names)
    t = present.shape[1]
    sums = np.nansum(ranks, axis=0)
    mean_ranks = pd.Series(sums / r, index=table.columns, name="mean rank")
    stats, raw = durbin_conover(ranks, present, first, second, k, r)
    adjusted = adjust_pvalues(raw, adjust, n_algorithms=t)
    tested = {"stats": stats, "raw": raw, "adjusted": adjusted, "mirrored": None}
    return _pairs_result(
        table, present, first, second, tested, mean_ranks,
        method=method, adjust=adjust, alpha=alpha, control=control,
        higher_is_better=higher_is_better, ranking="durbin",
    )  # fmt: skip


def _ranks_to_compare(
    ranking: str, values: np.ndarray, mean_ranks: pd.Series, higher_is_better: bool
) -> tuple[np.ndarray, float]:
    """The per-algorithm ranks of ``ranking`` and the standard error of a
    difference of two of them under the null hypothesis (García et al. 2010,
    §5, with the within-case permutation variances of
    :func:`~nbstats.stats.frequentist.aligned.aligned_standard_error` and
    :func:`~nbstats.stats.frequentist.quade.weighted_rank_standard_error`)."""
    n, k = values.shape
    if ranking == "aligned":
        ranks = aligned_ranks(values, higher_is_better=higher_is_better)
        return ranks.mean(axis=0), aligned_standard_error(ranks)
    if ranking == "quade":
        q, r, s = quade_scores(values, higher_is_better=higher_is_better)
        # Σ_i Q_i r_ij / Σ_i Q_i: each algorithm's rank, cases weighted by Q_i
        weighted = (q[:, None] * r).sum(axis=0) / q.sum()
        return weighted, weighted_rank_standard_error(q, s)
    return mean_ranks.to_numpy(), rank_standard_error(k, n)


#: The options each pairwise test takes (``posthoc(options=...)``).
_TEST_OPTIONS = {
    "wilcoxon": {
        "zero_method": ("zsplit", "wilcox", "pratt"),
        "method": ("auto", "exact", "approx"),
        "correction": (False, True),
    },
}


def _check_options(method: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The pairwise test's options, validated (a clear error names the
    allowed ones)."""
    if not options:
        return {}
    allowed = _TEST_OPTIONS.get(method)
    if allowed is None:
        raise ValueError(
            f"options= are passed to the pairwise Wilcoxon test; method={method!r} "
            "takes none. Use method='wilcoxon', or drop options=."
        )
    checked = {}
    for key, value in dict(options).items():
        if key not in allowed:
            raise ValueError(
                f"unknown option {key!r} for method='wilcoxon'; choose from "
                f"{sorted(allowed)}."
            )
        if isinstance(value, (bool, np.bool_)) != (key == "correction") or (
            value not in allowed[key]
        ):
            raise ValueError(
                f"option {key}={value!r} is not one of {list(allowed[key])}."
            )
        checked[key] = bool(value) if key == "correction" else value
    return checked

"""The Methods paragraph of a report.

The paragraph is written from the result objects the report computed (not from
the arguments it was given), so every figure it states -- tests, corrections,
priors, s, γ, losses, rope, sample sizes, seeds -- is the one actually used.
Each result writes its own sentence (``methods_sentence``, the prose in
:mod:`nbstats.results.methods_text`); :func:`methods_paragraph` puts them in
order with the sentences on the data. It renders as plain text, HTML and LaTeX
through :class:`Paragraph` (:mod:`nbstats.reporting.references` holds the
reference lists).
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
from collections.abc import Sequence
from typing import Any

from nbstats.reporting.cases import methods_cases
from nbstats.reporting.references import (  # noqa: F401  (re-exported)
    REFERENCES,
    Alt,
    Cite,
    Paragraph,
    Reference,
    bibtex,
    cite,
    references_html,
    references_latex,
    references_text,
)
from nbstats.reporting.results import ReportResults
from nbstats.results.methods_text import (  # noqa: F401  (re-exported)
    CHI2_F,
    F_F,
    TIE_POLICIES,
    ZERO_METHODS,
    MethodsContext,
    rope_text,
    sentence,
)

__all__ = ["CHI2_F", "F_F", "failed_folds_sentence", "methods_paragraph", "rope_text"]


def methods_paragraph(
    results: ReportResults,
    *,
    n_cases: int,
    n_algorithms: int,
    higher_is_better: bool,
    seed: int,
    folds: Any = None,
    dropped: int = 0,
    loss: tuple[float, float] | None = None,
    fold_design: str | None = None,
    score_unit: str | None = None,
    nemenyi_warning: str = "",
    cited: Sequence[str] = (),
    raw: Any = None,
    nan_policy: str = "raise",
) -> Paragraph:
    """Write the Methods paragraph from the results a report computed.

    ``results`` holds the result of each analysis the report ran (an
    analysis left out, ``None`` there, is left out of the paragraph); its
    ``signrank`` is the :func:`~nbstats.bayes_signrank_pairs` result of the
    pairwise table, one :func:`~nbstats.bayes_signrank` result (two
    algorithms) or a list of them (prior, s, rope, threshold and draws are
    read from the first), and ``loss`` is the ``(l0, l1)`` behind their
    threshold. ``folds`` (from :func:`nbstats.fold_summary`) and ``dropped``
    (cases dropped for missing scores) describe the data; the per-fold
    tests were made by ``fold_design`` (e.g. "10 runs of 10-fold
    cross-validation"). ``score_unit`` (e.g. "percentage points") is the
    unit of the rope; ``nemenyi_warning`` a sentence on Nemenyi's power
    (from :func:`nbstats.reporting.core.power_warning`); ``cited`` the keys
    the report cites before Methods (the numbers go on from there).
    ``raw``: the scores as given, missing ones included; with it the
    paragraph states the cases of every analysis under ``nan_policy``
    (:func:`nbstats.reporting.cases.methods_cases`) instead of ``dropped``.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.reporting.results import ReportResults
    >>> scores = nbstats.datasets.load("demsar2006")
    >>> results = ReportResults(friedman=nbstats.friedman(scores))
    >>> para = methods_paragraph(
    ...     results, n_cases=14, n_algorithms=4, higher_is_better=True, seed=0
    ... )
    >>> para.text().startswith("We compared 4 algorithms on 14 cases")
    True

    Returns
    -------
    Paragraph
        Render with ``.text()``, ``.html()`` or ``.latex()``; ``.keys`` are
        the cited references in order.
    """
    p = Paragraph(cited)
    context = MethodsContext(
        seed=seed, score_unit=score_unit, loss=loss, fold_design=fold_design
    )
    n_given = n_cases if raw is None else len(raw)
    _data_sentences(p, n_given, n_algorithms, higher_is_better, folds)
    if folds and folds.get("failed_folds"):
        p.add(failed_folds_sentence(folds, tested=results.fold_tests is not None))
    if results.fold_tests is not None:
        p.add(*results.fold_tests.methods_sentence(context).pieces)
    if results.hierarchical is not None:
        p.add(*results.hierarchical.methods_sentence().pieces)
    if raw is not None:
        r = results
        methods_cases(
            p, raw, nan_policy=nan_policy, friedman=r.friedman, nemenyi=r.nemenyi,
            holm=r.holm, bayes_friedman=r.bayes_friedman, joint=r.joint,
            skillings_mack=r.skillings_mack, signrank=r.signrank,
            rank_ci=r.rank_ci, plackett_luce=r.plackett_luce,
        )  # fmt: skip
    elif dropped:
        p.add(
            f"{dropped} case{'s' if dropped > 1 else ''} with a missing score "
            f"{'were' if dropped > 1 else 'was'} dropped before the analyses. "
        )
    if results.wilcoxon is not None:
        p.add(*results.wilcoxon.methods_clause(context).pieces)
        if results.sign is not None:
            p.add(", ", *results.sign.methods_clause(context, also=True).pieces)
        p.add(". ")
    for result in (results.bayes_sign, results.friedman):
        if result is not None:
            p.add(*result.methods_sentence(context).pieces)
    if results.nemenyi is not None:
        both = results.nemenyi.methods_clause(context)
        if results.holm is not None:
            both.add("; ", *results.holm.methods_clause(context, also=True).pieces)
        p.add(*sentence(both).pieces)
        if nemenyi_warning.strip():
            p.add(nemenyi_warning.strip() + " ")
    elif results.holm is not None:
        p.add(*results.holm.methods_sentence(context).pieces)
    if results.bayes_friedman is not None:
        p.add(*results.bayes_friedman.methods_sentence(context).pieces)
    signrank = results.signrank
    if signrank is not None and not isinstance(signrank, Sequence):
        signrank = [signrank]
    if signrank:
        # the first result speaks for all: the report ran the pairs alike
        pairs = dataclasses.replace(context, n_pairs=len(signrank))
        p.add(*signrank[0].methods_sentence(pairs).pieces)
    for result in (results.joint, results.rank_ci, results.plackett_luce):
        if result is not None:
            p.add(*result.methods_sentence(context).pieces)
    p.add(f"All computations used nbstats {_versions()}.")
    return p


def _versions() -> str:
    names = ("nbstats", "numpy", "scipy", "pandas")
    found = []
    for name in names:
        try:
            found.append((name, importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:  # pragma: no cover
            continue
    head = found[0][1] if found and found[0][0] == "nbstats" else "(unknown version)"
    rest = ", ".join(f"{n} {v}" for n, v in found if n != "nbstats")
    return f"{head} ({rest})" if rest else head


def _data_sentences(
    p: Paragraph,
    n_cases: int,
    n_algorithms: int,
    higher_is_better: bool,
    folds: Any,
) -> None:
    """The design: algorithms, cases, direction, ranks, and the folds."""
    direction = "higher" if higher_is_better else "lower"
    p.add(
        f"We compared {n_algorithms} algorithms on {n_cases} cases, "
        f"{direction} scores being better. Within each case the algorithms were "
        "ranked (rank 1 = best, tied scores receiving the average of the ranks "
        "they span), and the analyses follow the recommendations of Demšar",
        cite("demsar2006"),
        ". ",
    )
    if folds:
        k_low, k_high = folds["min_folds"], folds["max_folds"]
        k = str(k_low) if k_low == k_high else f"{k_low}–{k_high}"
        scored = f"{k} cross-validation fold scores on it"
        if folds.get("failed_folds"):  # the next sentence counts the cells
            scored = f"cross-validation fold scores on it ({k} when none failed)"
        p.add(
            f"Each case's score is the {folds.get('aggregate', 'mean')} of the "
            f"algorithm's {scored}. "
        )


def failed_folds_sentence(folds: dict[str, Any], *, tested: bool = True) -> str:
    """The Methods sentence on failed folds, from :func:`nbstats.fold_summary`
    with ``score`` (its ``failed_folds``, ``partial_cells``, ``fewest_folds``,
    ``short_cells``, ``minimum``; ``fold_tests`` False when the per-fold
    tests were left out, ``fold_cases`` the cases they use); ``tested``:
    whether the report ran the per-fold tests (else they go unmentioned).

    Examples
    --------
    >>> print(failed_folds_sentence({"failed_folds": 25, "cells": 80,
    ...     "min_folds": 10, "max_folds": 10, "minimum": 8, "partial_cells": 3,
    ...     "fewest_folds": 8, "short_cells": 3, "fold_cases": 10}))
    ... # doctest: +NORMALIZE_WHITESPACE
    25 of the 800 fold scores were missing (failed runs). 3 (case, algorithm)
    cells are the mean of the 8–9 folds that have a score (at least 8 were
    required); 3 cells with fewer were treated as missing scores. The tests of
    each case on its own folds, which pair the folds of two algorithms, use
    only the 10 cases on which every algorithm has every fold.
    """
    failed = int(folds["failed_folds"])
    k_low, k_high = folds["min_folds"], folds["max_folds"]
    total = (
        f"of the {int(folds['cells']) * k_low:,} fold scores "
        if k_low == k_high and folds.get("cells")
        else ""
    )
    text = (
        f"{failed:,} {total}{'were' if failed != 1 else 'was'} missing (failed runs). "
    )
    partial, short = int(folds["partial_cells"]), int(folds["short_cells"])
    minimum = folds.get("minimum")
    if partial:
        fewest, most = int(folds["fewest_folds"]), k_high - 1
        span = str(fewest) if fewest >= most else f"{fewest}–{most}"
        text += (
            f"{partial} (case, algorithm) cell{'s' if partial != 1 else ''} "
            f"{'are' if partial != 1 else 'is'} the mean of the {span} folds that "
            f"have a score (at least {minimum} were required)"
        )
        text += "; " if short else ". "
    if short:
        cells = f"{short} cell{'s' if short != 1 else ''}"
        why = "with fewer" if minimum is not None else "with a failed fold"
        text += (
            f"{cells if partial else cells[0].upper() + cells[1:]} {why} "
            f"{'were' if short != 1 else 'was'} treated as missing scores. "
        )
    if folds.get("fold_tests") is False:
        text += (
            "No case has every fold of every algorithm scored, so none could be "
            "tested on its own folds (those tests pair the folds of two "
            "algorithms). "
        )
    elif tested and folds.get("fold_cases") is not None:
        n = int(folds["fold_cases"])
        text += (
            "The tests of each case on its own folds, which pair the folds of "
            f"two algorithms, use only the {n} case{'s' if n != 1 else ''} "
            "on which every algorithm has every fold. "
        )
    return text

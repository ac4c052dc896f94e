"""What the plots read from a result: each kind of result by what it carries.

The plots sit above the results in the layers, and a result's ``.plot()``
calls its plot: so the plots never import the result classes, which would
close a loop. They recognise a result by the attributes they read (duck
typing, as pandas' plotting recognises a frame by its ``_typ``), so anything
that carries them can be drawn.
"""

from __future__ import annotations

__all__ = ["KINDS", "is_kind", "kind_of", "require"]

#: Each kind: the attributes that identify it, its class name and its maker.
KINDS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "posthoc": (
        (
            "pvalues",
            "adjusted",
            "reject",
            "critical_difference",
            "groups",
            "mean_ranks",
        ),
        "PosthocResult",
        "nbstats.posthoc",
    ),
    "bayes_posthoc": (
        ("statements", "probabilities", "groups", "mean_ranks", "threshold"),
        "BayesPosthocResult",
        "nbstats.bayes_posthoc",
    ),
    "signrank_pairs": (
        ("pairs", "probabilities", "mean_ranks", "prior_at"),
        "BayesSignedRankPairsResult",
        "nbstats.bayes_signrank_pairs",
    ),
    "signrank": (
        ("prob_lower", "prob_upper", "samples", "prior_at", "name_a", "name_b"),
        "BayesSignedRankResult",
        "nbstats.bayes_signrank",
    ),
    "sign": (
        ("wins", "losses", "n_ties", "samples", "prior_at", "name_a", "name_b"),
        "BayesSignTestResult",
        "nbstats.bayes_sign_test",
    ),
    "bayes_friedman": (
        ("covariance", "rho", "credibility", "mean_ranks", "samples"),
        "BayesFriedmanResult",
        "nbstats.bayes_friedman",
    ),
    "rank_ci": (
        ("lower", "upper", "omnibus_pvalue", "mean_ranks", "method"),
        "RankCIResult",
        "nbstats.rank_ci",
    ),
    "race": (
        ("winner", "survivors", "eliminations", "history", "scores"),
        "RaceResult",
        "nbstats.race",
    ),
}


def is_kind(result: object, kind: str) -> bool:
    """Whether ``result`` carries every attribute a ``kind`` result has.

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"))
    >>> is_kind(res, "posthoc"), is_kind(res, "bayes_posthoc")
    (True, False)
    """
    attributes = KINDS[kind][0]
    return all(hasattr(result, name) for name in attributes)


def kind_of(result: object, kinds: tuple[str, ...]) -> str | None:
    """The first of ``kinds`` that ``result`` is, or None."""
    return next((kind for kind in kinds if is_kind(result, kind)), None)


def require(result: object, kinds: tuple[str, ...], function: str) -> str:
    """The kind of ``result`` among ``kinds``, or a TypeError naming them.

    Examples
    --------
    >>> require(object(), ("posthoc",), "cd_diagram")
    Traceback (most recent call last):
    ...
    TypeError: cd_diagram draws a PosthocResult (from nbstats.posthoc); got object.
    """
    kind = kind_of(result, kinds)
    if kind is None:
        accepted = " or ".join(f"{KINDS[k][1]} (from {KINDS[k][2]})" for k in kinds)
        raise TypeError(f"{function} draws a {accepted}; got {type(result).__name__}.")
    return kind

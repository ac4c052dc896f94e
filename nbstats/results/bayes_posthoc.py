"""Result object of the joint Bayesian multiple comparisons (Benavoli et al.
2015, §5.3); re-exported by :mod:`nbstats.results.bayes`."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results import methods_text
from nbstats.results.base import Result
from nbstats.results.monte_carlo import format_mc_error
from nbstats.results.prose import Paragraph

__all__ = ["BayesPosthocResult"]

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)


@_frozen
class BayesPosthocResult(Result):
    """Joint Bayesian multiple comparisons (Benavoli et al. 2015, §5.3).

    Attributes
    ----------
    statements : DataFrame
        One row per pair, sorted by posterior probability: ``better``,
        ``worse``, ``relation`` (``"better"``: ``better`` is better than
        ``worse``; ``"equivalent"``: the two are practically equivalent —
        within the rope —, ``better`` being the better-ranked one), ``prob``
        (marginal posterior probability of the statement), ``joint``
        (probability that this and every statement above it hold together,
        from the same posterior draws) and ``accepted``.
    probabilities : DataFrame
        m × m matrix: entry (row i, column j) is the posterior probability
        that column j is better than row i (by more than the rope).
    groups : list of tuple of str
        Maximal sets of algorithms with no accepted statement between them,
        ordered by mean rank.
    mean_ranks : Series
        Average ranks (1 = best), for ordering.
    threshold : float
        Accepted statements hold jointly with posterior probability above it.
    s : float
    test : str
        ``"sign"`` or ``"signrank"``.
    n_samples : int
    rope : float
        Half-width of the region of practical equivalence (0: none).
    rope_probabilities : DataFrame or None
        With a rope, the symmetric m × m matrix of the posterior probability
        that the two algorithms are practically equivalent.
    prior_at : str
        Where the sign test's prior pseudo-observation sits (``"rope"``,
        ``"left"``, ``"right"``).
    prior : str
        ``"point"`` (one prior) or, for the signed-rank test, ``"idp"`` (the
        near-ignorance set: ``prob``, ``joint`` and the matrices are lower
        probabilities, a statement holding for every prior of the set).
    cases : Index or None
        The labels of the cases (rows of the score table) the analysis used.
    """

    statements: pd.DataFrame
    probabilities: pd.DataFrame
    groups: list[tuple[str, ...]]
    mean_ranks: pd.Series
    threshold: float
    s: float
    test: str
    n_samples: int
    rope: float = 0.0
    rope_probabilities: pd.DataFrame | None = None
    prior_at: str = "rope"
    prior: str = "point"
    cases: pd.Index | None = None

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph
        (:func:`nbstats.results.methods_text.bayes_posthoc`)."""
        return methods_text.bayes_posthoc(self, context)

    def _title(self) -> str:
        rope = f", rope ±{self.rope:g}" if self.rope > 0 else ""
        prior = "near-ignorance prior, " if self.prior == "idp" else ""
        lower = "lower " if self.prior == "idp" else ""
        return (
            f"Bayesian joint comparisons ({self.test_name} test, {prior}s = "
            f"{self.s:g}{rope}), {lower}joint probability > {self.threshold:g}"
        )

    @property
    def test_name(self) -> str:
        """The pairwise test in words: ``"sign"`` or ``"signed-rank"``."""
        return "signed-rank" if self.test == "signrank" else self.test

    def decisions(self) -> pd.DataFrame:
        """Each pair's decision in the words of the pairwise Bayesian tests.

        One row per pair (a, b), a before b in the order of the score
        table's columns: ``decision`` is ``"b"`` or ``"a"`` when the accepted
        statements say that one is better, ``"equivalent"`` when they say
        the two are practically equivalent, and ``"undecided"`` when the
        pair's statement is not accepted (it would not hold jointly with
        the more probable ones with probability > 1 − γ); ``prob`` and
        ``joint`` are its statement's.

        Examples
        --------
        >>> import nbstats
        >>> table = nbstats.datasets.load("uci_accuracy")
        >>> res = nbstats.bayes_posthoc(table, random_state=0)
        >>> res.decisions().query("a == 'nbc' and b == 'aode'")["decision"].item()
        'b'
        """
        names = list(self.probabilities.columns)
        position = {name: k for k, name in enumerate(names)}
        rows = []
        for row in self.statements.itertuples(index=False):
            a, b = sorted((row.better, row.worse), key=position.__getitem__)
            if not row.accepted:
                decision = "undecided"
            elif row.relation == "equivalent":
                decision = "equivalent"
            else:
                decision = "b" if row.better == b else "a"
            rows.append((a, b, decision, row.prob, row.joint))
        frame = pd.DataFrame(rows, columns=["a", "b", "decision", "prob", "joint"])
        key = frame["a"].map(position) * len(names) + frame["b"].map(position)
        return frame.iloc[np.argsort(key.to_numpy(), kind="stable")].reset_index(
            drop=True
        )

    def _scalars(self) -> list[tuple[str, object]]:
        accepted = self.statements[self.statements["accepted"]]
        lower = "lower " if self.prior == "idp" else ""
        # the joint probabilities are shares of the draws (the sign test's
        # marginals without a rope are exact, the joint ones are not)
        shares = self.statements["joint"].to_numpy(dtype=float)
        error = (
            float(np.sqrt(shares * (1 - shares) / self.n_samples).max())
            if shares.size and self.n_samples
            else 0.0
        )
        return [
            ("accepted statements", len(accepted)),
            (
                f"{lower}joint probability of all accepted",
                float(accepted["joint"].iloc[-1]) if len(accepted) else None,
            ),
            (
                "groups",
                "; ".join("{" + ", ".join(map(str, g)) + "}" for g in self.groups),
            ),
            (
                "posterior draws",
                f"{self.n_samples:,} ({format_mc_error(error, self.n_samples)})",
            ),
        ]

    def _kinds(self) -> dict[object, str]:
        lower = "lower " if self.prior == "idp" else ""
        return {
            "prob": "probability",
            "joint": "probability",
            f"{lower}joint probability of all accepted": "probability",
        }

    def to_frame(self) -> pd.DataFrame:
        return self.statements.copy()

    def _table(self) -> pd.DataFrame:
        frame = self.statements.copy()
        frame.index = pd.Index(
            [
                f"{b} {'≈' if relation == 'equivalent' else '>'} {w}"
                for b, w, relation in zip(
                    frame["better"], frame["worse"], frame["relation"], strict=True
                )
            ],
            name="statement",
        )
        return frame.drop(columns=["better", "worse", "relation"])

    def plot(self, ax: Any = None, *, kind: str = "cd", **kwargs: Any) -> Any:
        """Groups as a CD-style diagram (``kind="cd"``) or the probability
        heatmap (``kind="heatmap"``). Returns the Axes."""
        import nbstats.plots as plots  # lazy: matplotlib only when drawing

        if kind == "cd":
            return plots.cd_diagram(self, ax=ax, **kwargs)
        if kind == "heatmap":
            return plots.pairwise_heatmap(self, ax=ax, **kwargs)
        raise ValueError(f"unknown kind={kind!r}; choose 'cd' or 'heatmap'.")

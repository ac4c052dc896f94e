"""The result of :func:`nbstats.letters`: a compact letter display."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pandas as pd

from nbstats.results.base import Result

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)


@_frozen
class LettersResult(Result):
    """A compact letter display: algorithms that share a letter are not
    significantly different.

    Displays as a table of mean ranks and letters (text, HTML, and a LaTeX
    table whose names are escaped, so that ``_``, ``&``, ``%`` or ``$`` in a
    name compile). For code written when :func:`nbstats.letters` returned a
    Series: ``res[name]`` is an algorithm's letters, ``name in res`` and
    ``len(res)`` work on the names, iteration gives the names (best-ranked
    first), and the Series' other public attributes (``index``, ``iloc``,
    ``tolist()``, ``to_dict()``, ``reindex()`` …) are those of
    :attr:`letters`.

    Attributes
    ----------
    letters : pandas.Series of str
        Each algorithm's letters, best mean rank first (named ``letters``).
    mean_ranks : pandas.Series
        The mean ranks that order the algorithms and letters (1 = best).
    groups : tuple of tuple of str
        The algorithms of each letter, in letter order (``a``, ``b``, …): the
        maximal groups with no significant difference inside, none redundant.
    method : str or None
        The post-hoc procedure whose rejections the letters show (None when
        built from a matrix of rejected pairs).
    alpha : float or None
        Its significance level.

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.letters(nbstats.posthoc(nbstats.datasets.load("demsar2006"),
    ...                                       method="nemenyi", alpha=0.10))
    >>> res.letters.to_dict()
    {'C4.5+m+cf': 'a', 'C4.5+m': 'a', 'C4.5+cf': 'ab', 'C4.5': 'b'}
    >>> res["C4.5+cf"], list(res)[0]
    ('ab', 'C4.5+m+cf')
    >>> print(res.summary())  # doctest: +NORMALIZE_WHITESPACE
    Compact letter display (nemenyi, α = 0.1)
    =========================================
    algorithms : 4
    letters    : 2
    <BLANKLINE>
               mean rank letters
    algorithm
    C4.5+m+cf       1.96       a
    C4.5+m          2.00       a
    C4.5+cf         2.89      ab
    C4.5            3.14       b
    """

    letters: pd.Series
    mean_ranks: pd.Series
    groups: tuple[tuple[str, ...], ...]
    method: str | None = None
    alpha: float | None = None

    def _title(self) -> str:
        if self.method is None:
            return "Compact letter display"
        alpha = "" if self.alpha is None else f", α = {self.alpha:g}"
        return f"Compact letter display ({self.method}{alpha})"

    def _scalars(self) -> list[tuple[str, object]]:
        return [("algorithms", len(self.letters)), ("letters", len(self.groups))]

    def _kinds(self) -> dict[object, str]:
        return {
            "algorithms": "count",
            "letters": "count",
            "mean_rank": "rank",
            "mean rank": "rank",
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per algorithm, best mean rank first: ``algorithm``,
        ``mean_rank`` and ``letters``."""
        names = list(self.letters.index)
        return pd.DataFrame(
            {
                "algorithm": pd.Series(names, dtype=object),
                "mean_rank": [float(self.mean_ranks[n]) for n in names],
                "letters": self.letters.to_numpy(dtype=object),
            }
        )

    def _table(self) -> pd.DataFrame:
        """The algorithms as the index, headers in words."""
        frame = self.to_frame().set_index("algorithm")
        return frame.rename(columns={"mean_rank": "mean rank"})

    # -- what a Series of letters offered -------------------------------------

    def __getitem__(self, name: Any) -> Any:
        return self.letters[name]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.letters.index)

    def __len__(self) -> int:
        return len(self.letters)

    def __contains__(self, name: object) -> bool:
        return name in self.letters.index

    def __getattr__(self, name: str) -> Any:
        # only called for what the result does not define itself
        shown = self.__dict__.get("letters")
        if name.startswith("_") or shown is None or not hasattr(pd.Series, name):
            raise AttributeError(
                f"{type(self).__name__!r} object has no attribute {name!r}"
            )
        return getattr(shown, name)

"""The result of :func:`nbstats.letters`: a compact letter display."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pandas as pd

from nbstats.results.base import Result
from nbstats.results.procedure_names import posthoc_name
from nbstats.scores.aliases import letters as spreadsheet_letters

#: A run of at least this many consecutive letters prints as "first–last".
RUN_FROM = 4


def group_labels(count: int) -> list[str]:
    """The labels of ``count`` letter groups: a … z, A … Z, then aa, ab, …
    (spreadsheet style, lower case).

    Examples
    --------
    >>> group_labels(3), group_labels(54)[-3:]
    (['a', 'b', 'c'], ['Z', 'aa', 'ab'])
    """
    singles = [chr(c) for c in range(ord("a"), ord("z") + 1)]
    singles += [c.upper() for c in singles]
    if count <= len(singles):
        return singles[:count]
    more = [label.lower() for label in spreadsheet_letters(count)[26:]]
    return singles + more[: count - len(singles)]


def compact_letters(indices: list[int], labels: list[str]) -> str:
    """One algorithm's letters (the indices of its groups, ascending) as a
    reader takes them: a run of :data:`RUN_FROM` or more consecutive letters
    as "first–last" (an en dash, in the order a … z, A … Z). When a run is
    shortened, or when ``labels`` go past the 52nd group (two characters:
    aa, ab, …), the letters are set apart by spaces, so that "b–e h", "Z aa"
    or "ab" (one group, not a and b) cannot be misread.

    Examples
    --------
    >>> labels = group_labels(40)
    >>> compact_letters([0, 1, 2], labels), compact_letters([11, 12, 24, 25], labels)
    ('abc', 'lmyz')
    >>> compact_letters([1, 2, 3, 4, 7], labels)
    'b–e h'
    >>> compact_letters(list(range(20, 30)), labels)
    'u–D'
    >>> labels = group_labels(60)
    >>> compact_letters([0, 1], labels), compact_letters([51, 52], labels)
    ('a b', 'Z aa')
    """
    runs: list[list[int]] = []
    for index in indices:
        if runs and index == runs[-1][-1] + 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    spaced = len(labels) > 52 or any(len(run) >= RUN_FROM for run in runs)
    parts: list[str] = []
    for run in runs:
        if len(run) >= RUN_FROM:
            parts.append(f"{labels[run[0]]}–{labels[run[-1]]}")
        elif spaced:
            parts.extend(labels[i] for i in run)
        else:
            parts.append("".join(labels[i] for i in run))
    return (" " if spaced else "").join(parts)


_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)


#: The Series' plotting methods: not forwarded (a Series of text has no plot).
_NOT_FORWARDED = frozenset({"plot", "hist"})


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
    Compact letter display (Nemenyi, α = 0.1)
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
        return f"Compact letter display ({posthoc_name(self.method)}{alpha})"

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

    @property
    def compact(self) -> pd.Series:
        """Each algorithm's letters as tables print them: a run of four or
        more consecutive letters as "first–last" (:func:`compact_letters`),
        e.g. "b–e" for "bcde". :attr:`letters` keeps every letter.

        Examples
        --------
        >>> import pandas as pd
        >>> res = LettersResult(
        ...     letters=pd.Series({"A": "abcde", "B": "e"}, name="letters"),
        ...     mean_ranks=pd.Series({"A": 1.0, "B": 2.0}),
        ...     groups=(("A",), ("A",), ("A",), ("A",), ("A", "B")),
        ... )
        >>> res.compact.to_dict()
        {'A': 'a–e', 'B': 'e'}
        """
        labels = group_labels(len(self.groups))
        held: dict[Any, list[int]] = {name: [] for name in self.letters.index}
        for k, group in enumerate(self.groups):
            for name in group:
                held[name].append(k)
        return pd.Series(
            {name: compact_letters(held[name], labels) for name in held},
            name="letters",
            dtype=object,
        )

    def _table(self) -> pd.DataFrame:
        """The algorithms as the index, headers in words, letters compact."""
        frame = self.to_frame().set_index("algorithm")
        frame["letters"] = self.compact.to_numpy(dtype=object)
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
        if name in _NOT_FORWARDED:
            # pandas would plot the Series of letters and fail on "no numeric
            # data": the picture of letters is the post-hoc's CD diagram
            raise AttributeError(
                f"{type(self).__name__!r} object has no attribute {name!r}: the "
                "letters are drawn by the post-hoc result they come from "
                "(nbstats.posthoc(...).plot(), a critical-difference diagram)."
            )
        if name.startswith("_") or shown is None or not hasattr(pd.Series, name):
            raise AttributeError(
                f"{type(self).__name__!r} object has no attribute {name!r}"
            )
        return getattr(shown, name)

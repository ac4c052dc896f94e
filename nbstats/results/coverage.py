"""The coverage of a score table with holes (:func:`nbstats.coverage`)."""

from __future__ import annotations

import dataclasses
import html

import pandas as pd

from nbstats.results import render, render_text
from nbstats.results.base import Result

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)

__all__ = ["CoverageResult", "name_list", "percent"]

#: Incomplete cases listed in a summary (``per_case`` holds them all).
CASES_SHOWN = 15
#: Names listed in one cell of a summary before "and N more".
NAMES_SHOWN = 8

_KINDS = {
    "missing": "count",
    "present": "count",
    "complete if left out alone": "count",
    "algorithms kept": "count",
    "complete cases": "count",
}


def percent(count: int, total: int) -> str:
    """``count`` of ``total`` as a percentage with one decimal, never rounded
    to 0% or 100% unless it is.

    Examples
    --------
    >>> percent(170, 171), percent(171, 171), percent(1, 2000)
    ('99.4%', '100%', '< 0.1%')
    """
    if count == total:
        return "100%"
    if count == 0:
        return "0%"
    share = 100 * count / total
    if share < 0.1:
        return "< 0.1%"
    if share > 99.9:
        return "> 99.9%"
    return f"{share:.1f}%"


def name_list(
    names: tuple[object, ...] | list[object], limit: int = NAMES_SHOWN
) -> str:
    """``"A, B, C and 4 more"``: at most ``limit`` names, then a count.

    Examples
    --------
    >>> name_list(("A", "B", "C"), limit=2)
    'A, B and 1 more'
    >>> name_list(())
    '—'
    """
    if not names:
        return "—"
    shown = ", ".join(str(n) for n in names[:limit])
    more = len(names) - limit
    return shown + (f" and {more} more" if more > 0 else "")


@_frozen
class CoverageResult(Result):
    """Where a score table's holes are, and what leaving algorithms out buys.

    Attributes
    ----------
    n_cases, n_algorithms : int
        The table's shape.
    n_missing : int
        Missing cells.
    n_complete : int
        Cases with every score (those ``nan_policy="omit"`` keeps).
    per_algorithm : DataFrame
        Index = algorithms, most missing first: ``missing``, ``present``,
        ``missing_share`` and ``complete_if_left_out`` (the complete cases
        if this algorithm alone were left out).
    per_case : DataFrame
        Index = cases, most missing first: ``missing``, ``present`` and
        ``missing_algorithms`` (a tuple of names).
    tradeoff : DataFrame
        One row per number of algorithms left out that keeps more complete
        cases than any smaller number: ``n_algorithms`` (kept), ``n_cases``
        (complete on them), ``n_left_out``, ``left_out`` (a tuple of names)
        and ``exact`` (whether no set of that many algorithms or fewer keeps
        more cases). The first row leaves out none.
    analyses : DataFrame
        The analyses that take incomplete data as it is: ``analysis``,
        ``call`` and ``cases`` (what each would use on this table).
    search : str
        How the trade-off was found (exact method, or greedy where not).

    Examples
    --------
    >>> import numpy as np, nbstats
    >>> res = nbstats.coverage([[0.9, 0.8, np.nan], [0.7, 0.6, 0.5],
    ...                         [0.4, np.nan, 0.3]])
    >>> res.tradeoff["n_cases"].tolist()
    [1, 2]
    >>> res.to_frame().columns.tolist()
    ['n_algorithms', 'n_cases', 'n_left_out', 'left_out', 'exact']
    """

    n_cases: int
    n_algorithms: int
    n_missing: int
    n_complete: int
    per_algorithm: pd.DataFrame
    per_case: pd.DataFrame
    tradeoff: pd.DataFrame
    analyses: pd.DataFrame
    search: str

    def _title(self) -> str:
        cells = self.n_cases * self.n_algorithms
        return (
            f"Coverage of {self.n_algorithms} algorithms on {self.n_cases} cases: "
            f"{self.n_missing:,} of {cells:,} scores missing, {self.n_complete} "
            "cases complete"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        holed = int((self.per_algorithm["missing"] > 0).sum())
        return [
            ("missing scores", self.n_missing),
            ("complete cases", self.n_complete),
            ("incomplete cases", self.n_cases - self.n_complete),
            ("algorithms with holes", holed),
            ("trade-off search", self.search),
        ]

    def _kinds(self) -> dict[object, str]:
        return dict(_KINDS)

    def to_frame(self) -> pd.DataFrame:
        """The trade-off (a copy of :attr:`tradeoff`)."""
        return self.tradeoff.copy()

    def _table(self) -> pd.DataFrame:
        """The trade-off, as the summary and ``to_latex()`` show it."""
        return self.tradeoff_frame()

    def tradeoff_frame(self, *, changes: bool = False) -> pd.DataFrame:
        """The trade-off with headers in words and the names left out as
        text; ``changes=True`` names only what changes from the row above
        (``+A`` also left out, ``−B`` back in), for plain text."""
        t = self.tradeoff
        if changes:
            left = ["—"]
            for before, after in zip(t["left_out"], t["left_out"][1:], strict=False):
                added = [f"+{n}" for n in after if n not in before]
                back = [f"−{n}" for n in before if n not in after]
                left.append(" ".join(added + back))
            column = "left out (change from the row above)"
        else:
            left = [name_list(n, len(n) or 1) for n in t["left_out"]]
            column = "left out"
        frame = pd.DataFrame(
            {
                "algorithms kept": t["n_algorithms"].to_numpy(),
                "complete cases": t["n_cases"].to_numpy(),
                "share of cases": [percent(c, self.n_cases) for c in t["n_cases"]],
                column: left,
            }
        )
        if not t["exact"].all():
            frame["proven best"] = ["yes" if e else "no" for e in t["exact"]]
        # the number kept labels each row (no bare 0, 1, 2 … index)
        return frame.set_index("algorithms kept")

    def algorithms_frame(self) -> pd.DataFrame:
        """The algorithms with holes, headers in words."""
        a = self.per_algorithm[self.per_algorithm["missing"] > 0]
        return pd.DataFrame(
            {
                "missing": a["missing"],
                "present": a["present"],
                "missing share": [percent(k, self.n_cases) for k in a["missing"]],
                "complete if left out alone": a["complete_if_left_out"],
            }
        )

    def cases_frame(self, limit: int = CASES_SHOWN) -> pd.DataFrame:
        """The incomplete cases, most missing first (at most ``limit``)."""
        c = self.per_case[self.per_case["missing"] > 0].head(limit)
        return pd.DataFrame(
            {
                "missing": c["missing"],
                "present": c["present"],
                "missing algorithms": [name_list(n) for n in c["missing_algorithms"]],
            }
        )

    def analyses_frame(self) -> pd.DataFrame:
        return self.analyses.set_index("analysis")

    def _parts(self, *, text: bool = False) -> list[tuple[str, pd.DataFrame]]:
        incomplete = self.n_cases - self.n_complete
        shown = min(incomplete, CASES_SHOWN)
        cases_title = (
            f"The {incomplete} incomplete cases"
            if shown == incomplete
            else f"The {shown} of {incomplete} incomplete cases missing the most"
        )
        return [
            (
                "Which algorithms to leave out to keep more complete cases",
                self.tradeoff_frame(changes=text),
            ),
            (
                "Missing scores per algorithm (those with holes)",
                self.algorithms_frame(),
            ),
            (cases_title, self.cases_frame()),
            (
                "Analyses that use the incomplete table as it is",
                self.analyses_frame(),
            ),
        ]

    def summary(self) -> str:
        parts = [render_text.text_block(self._title(), self._scalars(), None)]
        for title, frame in self._parts(text=True):
            if len(frame):
                parts.append(
                    render_text.text_block(title, [], frame, kinds=self._kinds())
                )
        return "\n\n".join(parts)

    def _repr_html_(self) -> str:
        parts = [render.html_block(self._title(), self._scalars(), None)]
        for title, frame in self._parts():
            if len(frame):
                parts.append(render.html_block(title, [], frame, kinds=self._kinds()))
        return "\n".join(parts)

    def advice(self) -> str:
        """One sentence: what ``omit`` keeps, and the best trade-off row that
        keeps at least half of the cases (if any)."""
        n = self.n_cases
        text = (
            f"{self.n_complete} of {n} cases are complete for all "
            f"{self.n_algorithms} algorithms"
        )
        better = self.tradeoff[self.tradeoff["n_cases"] * 2 >= n]
        if self.n_complete * 2 < n and len(better):
            row = better.iloc[0]
            text += (
                f"; leaving out {row['n_left_out']} algorithm"
                f"{'s' if row['n_left_out'] != 1 else ''} "
                f"({name_list(row['left_out'])}) keeps {row['n_cases']} complete "
                f"cases for the other {row['n_algorithms']}"
            )
        return text + "."

    def _caption(self) -> render.Label:
        title = (
            f"Complete cases of {self.n_cases} for each number of the "
            f"{self.n_algorithms} algorithms kept, leaving out those named "
            f"({self.search})."
        )
        return render.Label(
            title,
            html=html.escape(title),
            latex=render.breakable_latex(title),
        )

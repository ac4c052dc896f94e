"""Base classes of every result object.

Results are frozen dataclasses. Subclasses say what they are (``_title``), which
scalars matter (``_scalars``) and what their table is (``to_frame``); this module
turns that into ``summary()``, ``__repr__``, ``_repr_html_``, ``_repr_latex_``
and ``to_latex()``. Frequentist results unpack as ``statistic, pvalue = res``
and nothing more, like statsmodels' and scipy's limited-unpacking results.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator

import numpy as np
import pandas as pd

from nbstats.results import render


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Result:
    """Common behaviour of nbstats results (display, export, equality)."""

    def _title(self) -> str:
        return type(self).__name__

    def _scalars(self) -> list[tuple[str, object]]:
        return []

    def to_frame(self) -> pd.DataFrame:
        """The result as a tidy DataFrame."""
        return pd.DataFrame(dict(self._scalars()), index=[0])

    def _table(self) -> pd.DataFrame | None:
        """The table shown under the scalars (defaults to ``to_frame()``)."""
        return self.to_frame()

    def summary(self) -> str:
        """A readable plain-text report of the result."""
        return render.text_block(self._title(), self._scalars(), self._table())

    def __repr__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        return render.html_block(self._title(), self._scalars(), self._table())

    def _repr_latex_(self) -> str:
        return self.to_latex()

    def to_latex(
        self, *, caption: str | None = None, label: str | None = None, digits: int = 4
    ) -> str:
        r"""A booktabs ``table`` a paper can ``\input`` (needs ``booktabs``).

        Parameters
        ----------
        caption : str, optional
            Defaults to the result's title and its key figures.
        label : str, optional
            ``\label{...}`` for cross-references.
        digits : int
            Significant figures of floating-point cells.
        """
        table = self._table()
        if table is None or not len(table):
            table = pd.DataFrame(
                {"value": [v for _, v in self._scalars()]},
                index=pd.Index([k for k, _ in self._scalars()], name=""),
            )
        if caption is None:
            figures = "; ".join(
                f"{k} = {render.format_value(v, 3)}"
                for k, v in self._scalars()
                if isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
            )
            caption = self._title() + (f" ({figures})" if figures else "")
        return render.latex_table(table, caption=caption, label=label, digits=digits)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            _values_equal(getattr(self, f.name), getattr(other, f.name))
            for f in dataclasses.fields(self)
        )

    __hash__ = None  # type: ignore[assignment]  # results hold mutable frames


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class TestResult(Result):
    """A hypothesis test: unpacks as ``statistic, pvalue = res``."""

    __test__ = False  # not a pytest test class, despite its name

    statistic: float
    pvalue: float

    def __iter__(self) -> Iterator[float]:
        return iter((self.statistic, self.pvalue))

    def __len__(self) -> int:
        return 2


def _values_equal(x: object, y: object) -> bool:
    if isinstance(x, (pd.DataFrame, pd.Series)):
        return isinstance(y, type(x)) and x.equals(y)
    if isinstance(x, np.ndarray):
        return (
            isinstance(y, np.ndarray)
            and x.shape == y.shape
            and bool(np.array_equal(x, y, equal_nan=x.dtype.kind == "f"))
        )
    if isinstance(x, float) and isinstance(y, float):
        return x == y or (math.isnan(x) and math.isnan(y))
    if isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)):
        return len(x) == len(y) and all(
            _values_equal(a, b) for a, b in zip(x, y, strict=True)
        )
    return bool(x == y)

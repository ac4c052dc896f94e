"""Base classes of every result object.

Results are frozen dataclasses. Subclasses say what they are (``_title``), which
scalars matter (``_scalars``) and what their table is (``to_frame``); this module
turns that into ``summary()``, ``__repr__``, ``_repr_html_``, ``_repr_latex_``
and ``to_latex()``. Frequentist results unpack as ``statistic, pvalue = res``
and nothing more, like statsmodels' and scipy's limited-unpacking results.
"""

from __future__ import annotations

import dataclasses
import html
import math
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results import render, render_text
from nbstats.results.methods_text import MethodsContext
from nbstats.results.prose import Paragraph
from nbstats.results.render_latex import latex as render_latex
from nbstats.results.table_model import Table, from_frame, from_scalars
from nbstats.results.venues import Venue

#: A ``to_frame()`` column -> the attribute it holds, where the names differ.
_ATTRIBUTE_OF = {"a": "name_a", "b": "name_b"}


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Result:
    """Common behaviour of nbstats results (display, export, equality)."""

    def _title(self) -> str:
        return type(self).__name__

    def _scalars(self) -> list[tuple[str, object]]:
        return []

    def _kinds(self) -> dict[object, str]:
        """The kind of number of each table column and key figure (keyed by
        its name or label; see :mod:`nbstats.results.number_policy`). Those left
        out get their kind from their names."""
        return {}

    def to_frame(self) -> pd.DataFrame:
        """The result as a tidy DataFrame."""
        return pd.DataFrame(dict(self._scalars()), index=[0])

    def _row(self, columns: str, **values: object) -> pd.DataFrame:
        """A one-row ``to_frame()``: ``columns`` names the columns in order
        (separated by spaces), each holding the attribute of its name (``a``
        and ``b``: ``name_a`` and ``name_b``) unless ``values`` gives it.

        Examples
        --------
        >>> import nbstats
        >>> res = nbstats.sign_test([0.8, 0.7, 0.9], [0.9, 0.8, 0.95])
        >>> res._row("a b pvalue", pvalue=0.5).to_dict("records")
        [{'a': 'a', 'b': 'b', 'pvalue': 0.5}]
        """
        row = {
            name: [
                values[name]
                if name in values
                else getattr(self, _ATTRIBUTE_OF.get(name, name))
            ]
            for name in columns.split()
        }
        unknown = set(values) - set(row)
        if unknown:
            raise ValueError(f"values for columns not named: {sorted(unknown)}")
        return pd.DataFrame(row)

    def _table(self) -> pd.DataFrame | None:
        """The table shown under the scalars (defaults to ``to_frame()``)."""
        return self.to_frame()

    def methods_sentence(self, context: MethodsContext) -> Paragraph:
        """The result's sentence in a report's Methods paragraph: the method,
        its settings and its references, as actually used (the prose is in
        :mod:`nbstats.results.methods_text`; ``context`` carries the seed,
        the scores' unit, the losses)."""
        raise NotImplementedError(
            f"{type(self).__name__} writes no Methods sentence; the results a "
            "report states in its Methods paragraph do (see "
            "nbstats.results.methods_text)."
        )

    def summary(self) -> str:
        """A readable plain-text report of the result."""
        return render_text.text_block(
            self._title(), self._scalars(), self._table(), kinds=self._kinds()
        )

    def __repr__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        return render.html_block(
            self._title(),
            self._scalars(),
            self._table(),
            names=self._names(),
            kinds=self._kinds(),
        )

    def _names(self) -> list[str]:
        """The algorithm names the title and labels contain, isolated in HTML."""
        return [
            value
            for key in ("name_a", "name_b", "control")
            if isinstance(value := getattr(self, key, None), str)
        ]

    def _repr_latex_(self) -> str:
        return self.to_latex()

    def to_latex(
        self,
        *,
        caption: str | None = None,
        label: str | None = None,
        fit: bool = True,
        venue: str | Venue = "article",
    ) -> str:
        r"""A booktabs table a paper can ``\input``, fitted to a venue.

        The result's table model (:meth:`table_model`) drawn by the LaTeX
        renderer (:func:`nbstats.results.render_latex.latex`): it fits the
        venue's column (a two-column venue: else both columns, ``table*``),
        long names wrap in ``X`` columns, a wide table is set smaller or split
        into blocks of columns, a long one is a ``longtable`` in one column
        and several floats "(continued)" in two. Needs ``booktabs`` (and
        ``tabularx`` / ``xltabular`` when names wrap or it is long);
        compiles under pdflatex and xelatex. Numbers follow the
        number policy of :mod:`nbstats.results.number_policy` (p-values ``0.026``
        or ``$<$ 0.001``, minus signs ``$-$``), headers are in words.

        Parameters
        ----------
        caption : str, optional
            Defaults to the result's title and its key figures, as sentences.
        label : str, optional
            ``\label{...}`` for cross-references.
        fit : bool
            Fit the venue (default); ``False`` gives the plain table at its
            natural width, as one float.
        venue : str or Venue
            ``"article"`` (one column, 10 pt; default), ``"twocolumn"``,
            ``"ieee"`` (IEEEtran conference), ``"acm"`` (acmart sigconf), or a
            :class:`~nbstats.results.venues.Venue`.

        Returns
        -------
        str

        Examples
        --------
        >>> import nbstats
        >>> res = nbstats.friedman(nbstats.datasets.load("demsar2006"))
        >>> line = res.to_latex(label="tab:friedman").splitlines()[2]
        >>> print(line.replace("; ", ";\n"))
        \caption{Friedman test: 4 algorithms on 14 cases. $\chi^{2}_{F}$ = 9.28;
        df = 3;
        p-value = 0.026;
        Iman--Davenport $F_{F}$ = 3.69;
        F p-value = 0.020.}\label{tab:friedman}
        """
        return render_latex(
            self.table_model(caption=caption, label=label), venue, fit=fit
        )

    def table_model(self, *, caption: object = None, label: str | None = None) -> Table:
        """The result's table, built once (:mod:`nbstats.results.table_model`):
        what ``to_latex()``, the report and its files draw.

        Parameters
        ----------
        caption : str or Label, optional
            Defaults to the result's title and its key figures, as sentences.
        label : str, optional

        Returns
        -------
        Table
            Its rows (``to_frame()``, numbers by the number policy), or its
            key figures when it has no rows.
        """
        table = self._table()
        if caption is None:
            caption = self._caption()
        kinds = self._kinds()
        if table is None or not len(table):
            return from_scalars(self._scalars(), kinds, caption=caption, label=label)
        return from_frame(table, kinds, caption=caption, label=label)

    def _caption(self) -> render.Label:
        """The title and its key figures, as sentences: "Friedman test: ….
        χ²_F = 9.28; df = 3; …".

        Built per format from the labels (a :class:`~render.Label` keeps its
        subscripts), so no symbol is escaped twice.
        """
        figures = [
            (label, value)
            for label, value in self._scalars()
            if isinstance(value, (int, float, np.number))
            and not isinstance(value, bool)
        ]
        title = self._title()
        stop = "" if title.endswith((".", "!", "?")) else "."
        if not figures:
            return render.Label(
                title + stop, latex=render.breakable_latex(title) + stop
            )
        kinds = self._kinds()
        forms = {
            fmt: _capitalized(
                "; ".join(_figure(k, v, fmt, kinds.get(k)) for k, v in figures)
            )
            for fmt in ("text", "html", "latex")
        }
        return render.Label(
            f"{title}{stop} {forms['text']}.",
            html=f"{render.to_html(title)}{stop} {forms['html']}.",
            latex=f"{render.breakable_latex(title)}{stop} {forms['latex']}.",
        )

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


def region_rows(res: object) -> list[tuple[str, object]]:
    """The key figures of a Bayesian test of two algorithms, named by them:
    P(b better), P(a better) and, with a rope, P(within rope ±r) (reads
    ``name_a``, ``name_b``, ``prob_right``, ``prob_left``, ``prob_rope``,
    ``rope``)."""
    r: Any = res
    rows: list[tuple[str, object]] = [
        (f"P({r.name_b} better)", r.prob_right),
        (f"P({r.name_a} better)", r.prob_left),
    ]
    if r.prob_rope is not None:
        rows.append((f"P(within rope ±{r.rope:g})", r.prob_rope))
    return rows


def _figure(label: str, value: object, fmt: str, kind: str | None = None) -> str:
    """``label = value`` (``label < 0.001`` for a small p-value) in one format,
    the value by the number policy (:func:`render.format_scalar`)."""
    text = render.format_scalar(label, value, kind)
    if fmt == "latex":
        text = render.escape_latex(text)
    if fmt == "html":
        text = html.escape(text)
    name = {"text": str, "html": render.to_html, "latex": render.breakable_latex}[fmt](
        label
    )
    sign = "" if text.startswith(("<", ">", "$<$", "$>$", "&lt;", "&gt;")) else "= "
    return f"{name} {sign}{text}"


def _capitalized(text: str) -> str:
    """A sentence starts with a capital: a first word of three lowercase
    letters or more (a symbol such as t, df or r is left as it is)."""
    return text[:1].upper() + text[1:] if re.match(r"[a-z]{3,}", text) else text


def _values_equal(x: object, y: object) -> bool:
    if isinstance(x, (pd.DataFrame, pd.Series, pd.Index)):
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

"""Short display names (aliases) for algorithms whose names do not fit.

Real experiments name algorithms after their configuration, e.g.
``HistGradientBoostingClassifier(max_iter=300, lr=0.05)``. Tables, figures and
dashboards that print such names in every row and column become unreadable, so
reports and dashboards replace them by short aliases (``A``, ``B``, …, or the
user's own) and show one legend table that maps each alias back to its full
name. This module decides when to do so and builds the mapping; it knows
nothing of pandas display, matplotlib or widgets.

The automatic rule (``aliases="auto"``): aliases are used when the longest
name is longer than :data:`MAX_NAME_LENGTH` characters. Letters follow the
given order (spreadsheet style after ``Z``: ``AA``, ``AB``, …).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

import pandas as pd

__all__ = [
    "MAX_NAME_LENGTH",
    "AliasOption",
    "alias_legend",
    "check_names",
    "letters",
    "make_aliases",
]

#: C0 controls (incl. NUL, tab, newline), DEL, C1 controls, and the Unicode
#: line and paragraph separators: invisible or layout-breaking in every format
#: nbstats writes (a NUL stops xelatex, a newline splits a CSV row).
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")

#: Names longer than this (in characters) switch ``aliases="auto"`` on.
MAX_NAME_LENGTH = 20

AliasOption = Literal["auto"] | bool | Mapping[str, str] | None


def letters(count: int) -> list[str]:
    """The first ``count`` spreadsheet-style labels: A … Z, AA, AB, ….

    Examples
    --------
    >>> from nbstats.names import letters
    >>> letters(3), letters(28)[-2:]
    (['A', 'B', 'C'], ['AA', 'AB'])
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}.")
    out = []
    for number in range(1, count + 1):
        label = ""
        while number:
            number, rest = divmod(number - 1, 26)
            label = chr(ord("A") + rest) + label
        out.append(label)
    return out


def make_aliases(
    names: Sequence[object],
    aliases: AliasOption = "auto",
    *,
    max_length: int = MAX_NAME_LENGTH,
) -> dict[str, str]:
    """Map every algorithm name to the name to display.

    Parameters
    ----------
    names : sequence
        The algorithm names, in the order letters are handed out (e.g. the
        table's column order). Converted with ``str``.
    aliases : "auto", bool, None or mapping
        - ``"auto"`` (default): letters when the longest name has more than
          ``max_length`` characters, otherwise the names themselves;
        - ``True``: always letters; ``False`` or ``None``: never;
        - a mapping ``{full name: alias}``: the user's aliases; names it does
          not mention keep their own name, unless longer than ``max_length``:
          those get the first letters no other name uses.
    max_length : int
        The longest name ``"auto"`` leaves alone.

    Returns
    -------
    dict
        ``{name: display name}`` for every name, in the given order. The
        display names are unique. Where no alias is used, each name maps to
        itself.

    Raises
    ------
    ValueError
        A mapping with unknown names, empty or duplicated aliases, or an alias
        equal to another algorithm's name; an unknown option.
    TypeError
        An alias that is not a string.

    Examples
    --------
    >>> from nbstats.names import make_aliases
    >>> make_aliases(["RF", "SVM"])
    {'RF': 'RF', 'SVM': 'SVM'}
    >>> make_aliases(["RandomForestClassifier(n_estimators=500)", "SVM"])
    {'RandomForestClassifier(n_estimators=500)': 'A', 'SVM': 'B'}
    >>> make_aliases(["RF", "SVM"], {"SVM": "S"})
    {'RF': 'RF', 'SVM': 'S'}
    >>> make_aliases(["RandomForestClassifier(n_estimators=500)", "SVM"], {"SVM": "A"})
    {'RandomForestClassifier(n_estimators=500)': 'B', 'SVM': 'A'}
    """
    labels = [str(n) for n in names]
    if len(set(labels)) != len(labels):
        raise ValueError("algorithm names must be unique to be given aliases.")
    if isinstance(aliases, Mapping):
        return _user_aliases(labels, aliases, max_length)
    if aliases is None or aliases is False:
        use = False
    elif aliases is True:
        use = True
    elif aliases == "auto":
        use = any(len(label) > max_length for label in labels)
    else:
        raise ValueError(
            f"aliases must be 'auto', True, False or a mapping "
            f"{{name: alias}}, got {aliases!r}."
        )
    shown = letters(len(labels)) if use else labels
    return dict(zip(labels, shown, strict=True))


def _user_aliases(
    labels: list[str], aliases: Mapping[str, str], max_length: int
) -> dict[str, str]:
    given = {str(k): v for k, v in aliases.items()}
    unknown = [k for k in given if k not in labels]
    if unknown:
        raise ValueError(
            f"aliases names algorithms that are not in the table: {unknown}; "
            f"the algorithms are {labels}."
        )
    for name, alias in given.items():
        if not isinstance(alias, str):
            raise TypeError(
                f"the alias of {name!r} must be a string, got {type(alias).__name__}."
            )
        if not alias.strip():
            raise ValueError(f"the alias of {name!r} is empty; give a short name.")
        if CONTROL_CHARACTERS.search(alias):
            raise ValueError(
                f"the alias {alias!r} of {name!r} contains a control character; "
                "give a printable short name."
            )
    mapping = {label: given.get(label, label) for label in labels}
    taken = set(mapping.values())
    spare = (c for c in letters(len(labels) + len(taken)) if c not in taken)
    for label in labels:
        if label not in given and len(label) > max_length:
            mapping[label] = next(spare)
    shown = list(mapping.values())
    clashes = sorted({a for a in shown if shown.count(a) > 1})
    if clashes:
        raise ValueError(
            f"aliases must be unique, but {clashes} would name more than one "
            "algorithm (an alias may not equal another algorithm's name)."
        )
    return mapping


def check_names(table: pd.DataFrame) -> None:
    """Refuse names that no report, figure or CSV can show faithfully.

    Algorithm names (columns), case names (index) and the two axis names are
    checked as text (``str(name)``), the way every result shows them:

    - a control character (C0 such as NUL, tab or newline; DEL; C1; U+2028,
      U+2029) is refused, naming the offending name by its ``repr``;
    - an empty or blank algorithm name is refused;
    - two names of one axis that are equal as text after stripping
      surrounding whitespace (``"A"`` and ``"A "``, or ``1`` and ``"1"``)
      are refused: they would look identical;
    - an index (case axis) name equal to an algorithm name is refused: in a
      CSV or ``reset_index()`` the two columns would clash.

    Raises
    ------
    ValueError
        Naming the problem, the name (``repr``) and the fix.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbstats.names import check_names
    >>> check_names(pd.DataFrame({"A": [1.0], "B\\x00": [2.0]}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: algorithm name 'B\\x00' contains a control character ... rename it, ...
    """
    _check_axis(table.columns, "algorithm", "columns", blank=True)
    _check_axis(table.index, "case", "index", blank=False)
    for axis, what in ((table.index, "index"), (table.columns, "columns")):
        if axis.name is not None and CONTROL_CHARACTERS.search(str(axis.name)):
            raise ValueError(
                f"the {what} name {str(axis.name)!r} contains a control "
                "character; rename it, e.g. df.rename_axis("
                + ("" if what == "index" else "columns=")
                + f"{_cleaned(str(axis.name))!r})."
            )
    if table.index.name is not None:
        label = str(table.index.name)
        if label in {str(c) for c in table.columns}:
            raise ValueError(
                f"the index (case names) is named {label!r}, like the algorithm "
                f"column {label!r}: in a report or CSV the two would clash. "
                "Rename the index, e.g. df.rename_axis('case'), or the column."
            )


def _cleaned(label: str) -> str:
    return CONTROL_CHARACTERS.sub("", label).strip() or "name"


def _check_axis(axis: pd.Index, what: str, where: str, *, blank: bool) -> None:
    if pd.api.types.is_integer_dtype(axis.dtype) or pd.api.types.is_float_dtype(
        axis.dtype
    ):
        return  # numbers: no control characters, no whitespace, unique
    labels = [str(v) for v in axis]
    for label in labels:
        found = CONTROL_CHARACTERS.search(label)
        if found:
            fix = (
                f"df.rename(columns={{{label!r}: {_cleaned(label)!r}}})"
                if where == "columns"
                else f"df.rename(index={{{label!r}: {_cleaned(label)!r}}})"
            )
            raise ValueError(
                f"{what} name {label!r} contains a control character "
                f"({found.group()!r}), which no report can show; rename it, "
                f"e.g. {fix}."
            )
        if blank and not label.strip():
            raise ValueError(
                f"{what} name {label!r} is empty or blank; give every "
                f"{what} a visible name, e.g. df.rename({where}={{{label!r}: "
                f"'{what}1'}})."
            )
    seen: dict[str, object] = {}
    for value, label in zip(axis, labels, strict=True):
        key = label.strip()
        if key in seen and (seen[key] != value or type(seen[key]) is not type(value)):
            raise ValueError(
                f"{what} names {seen[key]!r} and {value!r} look the same (they "
                "differ only by surrounding whitespace or type); rename one, "
                f"e.g. df.rename({where}={{{value!r}: {key + '_2'!r}}})."
            )
        seen.setdefault(key, value)


def alias_legend(mapping: Mapping[str, str]) -> pd.DataFrame:
    """The legend table of the aliases that differ from their names.

    Examples
    --------
    >>> from nbstats.names import alias_legend
    >>> alias_legend({"Random forest (500 trees)": "A", "SVM": "SVM"})
          algorithm
    alias
    A     Random forest (500 trees)
    """
    rows = [(alias, name) for name, alias in mapping.items() if alias != name]
    frame = pd.DataFrame(rows, columns=["alias", "algorithm"]).set_index("alias")
    return frame

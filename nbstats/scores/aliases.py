"""Short display names (aliases) for algorithms whose names do not fit.

Real experiments name algorithms after their configuration, e.g.
``HistGradientBoostingClassifier(max_iter=300, lr=0.05)``. Tables, figures and
dashboards that print such names in every row and column become unreadable, so
reports and dashboards replace them by short aliases (``A``, ``B``, …, or the
user's own) and show one legend table that maps each alias back to its full
name. This module decides when to do so and builds the mapping; it knows
nothing of pandas display, matplotlib or widgets.

The automatic rule (``aliases="auto"``) is per name: a name longer than
:data:`MAX_NAME_LENGTH` characters gets a letter, a shorter one (``svm_C``)
keeps its name, and the legend lists only the names that were replaced.
Letters follow the given order (spreadsheet style after ``Z``: ``AA``, ``AB``,
…), skipping any letter that is already another algorithm's name.
``aliases=True`` gives every name a letter, ``False`` none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import pandas as pd

from nbstats.scores.names import (
    CONTROL_CHARACTERS,
    is_blank,
    lookalike_key,
)

__all__ = ["MAX_NAME_LENGTH", "AliasOption", "alias_legend", "letters", "make_aliases"]

#: Names longer than this (in characters) get an alias under ``aliases="auto"``.
MAX_NAME_LENGTH = 20

AliasOption = Literal["auto"] | bool | Mapping[str, str] | None


def letters(count: int) -> list[str]:
    """The first ``count`` spreadsheet-style labels: A … Z, AA, AB, ….

    Examples
    --------
    >>> from nbstats.scores.aliases import letters
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
        - ``"auto"`` (default): a letter for each name of more than
          ``max_length`` characters; shorter names keep their own (letters
          that equal one of them are skipped);
        - ``True``: a letter for every name; ``False`` or ``None``: none;
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
    >>> from nbstats.scores.aliases import make_aliases
    >>> make_aliases(["RF", "SVM"])
    {'RF': 'RF', 'SVM': 'SVM'}
    >>> make_aliases(["RandomForestClassifier(n_estimators=500)", "SVM"])
    {'RandomForestClassifier(n_estimators=500)': 'A', 'SVM': 'SVM'}
    >>> make_aliases(["RandomForestClassifier(n_estimators=500)", "SVM"], True)
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
    if isinstance(aliases, str) and aliases == "auto":
        # per name: the long ones get the letters no name takes
        return _user_aliases(labels, {}, max_length)
    if aliases is None or aliases is False:
        return dict(zip(labels, labels, strict=True))
    if aliases is True:
        return dict(zip(labels, letters(len(labels)), strict=True))
    raise ValueError(
        f"aliases must be 'auto', True, False or a mapping "
        f"{{name: alias}}, got {aliases!r}."
    )


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
        if is_blank(alias):
            raise ValueError(
                f"the alias {alias!r} of {name!r} is empty or blank (it shows "
                "nothing); give a short visible name."
            )
        if CONTROL_CHARACTERS.search(alias):
            raise ValueError(
                f"the alias {alias!r} of {name!r} contains a control character; "
                "give a printable short name."
            )
    mapping = {label: given.get(label, label) for label in labels}
    taken = {lookalike_key(v) for v in mapping.values()}
    spare = (c for c in letters(len(labels) + len(taken)) if c not in taken)
    for label in labels:
        if label not in given and len(label) > max_length:
            mapping[label] = next(spare)
    keys = [lookalike_key(a) for a in mapping.values()]
    clashes = sorted(
        {a for a, k in zip(mapping.values(), keys, strict=True) if keys.count(k) > 1}
    )
    if clashes:
        raise ValueError(
            f"aliases must be unique, but {clashes} would name more than one "
            "algorithm, or look the same (an alias may not equal another "
            "algorithm's name)."
        )
    return mapping


def alias_legend(mapping: Mapping[str, str]) -> pd.DataFrame:
    """The legend table of the aliases that differ from their names.

    Examples
    --------
    >>> from nbstats.scores.aliases import alias_legend
    >>> alias_legend({"Random forest (500 trees)": "A", "SVM": "SVM"})
          algorithm
    alias
    A     Random forest (500 trees)
    """
    rows = [(alias, name) for name, alias in mapping.items() if alias != name]
    frame = pd.DataFrame(rows, columns=["alias", "algorithm"]).set_index("alias")
    return frame

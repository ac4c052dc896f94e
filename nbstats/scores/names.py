"""Algorithm and case names: the checks every table's names pass.

A name must be visible, printable and unlike every other name of its table
(``check_names``): invisible or look-alike names would make two algorithms
impossible to tell apart in a table or a figure. Display aliases for long
names are in :mod:`nbstats.scores.aliases`.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np
import pandas as pd

__all__ = [
    "check_names",
    "is_blank",
    "lookalike_key",
    "name_array",
    "name_index",
    "plain_name",
]

#: C0 controls (incl. NUL, tab, newline), DEL, C1 controls, the Unicode line
#: and paragraph separators, and the explicit bidirectional controls
#: (embeddings, overrides, isolates: U+202A–U+202E, U+2066–U+2069): invisible
#: or layout-breaking in every format nbstats writes (a NUL stops xelatex, a
#: newline splits a CSV row, U+202E reverses the rest of a line of HTML).
CONTROL_CHARACTERS = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)

#: Characters that show nothing, besides the format characters (category Cf,
#: e.g. U+200B zero width space, U+FEFF, U+200D joiner): Unicode's other
#: default-ignorable code points (variation selectors, the combining grapheme
#: joiner, Hangul fillers, …) and the blank braille pattern.
INVISIBLE_CHARACTERS = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164"
    "\ufe00-\ufe0f\uffa0\ufff0-\ufff8\U000e0000-\U000e0fff]"
)

#: Cyrillic and Greek letters drawn like a Latin letter in common fonts, and
#: that letter: a hand-made subset of Unicode's confusables (TS #39,
#: confusables.txt) for the scripts names mix in practice. Two names equal
#: but for these letters (Cyrillic "а" for Latin "a") look the same.
CONFUSABLES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x",
        "һ": "h", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w",
        "ӏ": "l", "А": "A", "В": "B", "Е": "E", "Ѕ": "S", "І": "I", "Ј": "J",
        "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
        "У": "Y", "Х": "X", "Ү": "Y", "Ӏ": "l", "Ԛ": "Q", "Ԝ": "W", "Ѵ": "V",
        # Greek
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K",
        "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        "Ϲ": "C", "Ϳ": "J", "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i",
        "υ": "u", "γ": "y", "ϲ": "c", "ϳ": "j",
    }
)  # fmt: skip


def _visible(label: str) -> str:
    """``label`` without the characters that show nothing."""
    text = INVISIBLE_CHARACTERS.sub("", label)
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def lookalike_key(label: str) -> str:
    """What a name looks like: names with the same key cannot be told apart.

    The key drops the characters that show nothing (format characters such as
    U+200B or U+FEFF, variation selectors, …), applies Unicode's compatibility
    normalisation NFKC (so ``"café"`` composed or decomposed, ``"Ａ"`` and
    ``"A"``, ``"ﬁ"`` and ``"fi"`` are one key), draws the Cyrillic and Greek
    letters that look Latin as that Latin letter (:data:`CONFUSABLES`:
    Cyrillic ``"а"`` and Latin ``"a"`` are one key) and collapses whitespace,
    which HTML collapses too (``" A  B "`` is ``"A B"``).

    Examples
    --------
    >>> from nbstats.scores.names import lookalike_key
    >>> lookalike_key("cafe\u0301") == lookalike_key("caf\u00e9")
    True
    >>> lookalike_key("A\u200b"), lookalike_key(" Ａ  B ")
    ('A', 'A B')
    >>> lookalike_key("SVM-\u0430") == lookalike_key("SVM-a")  # Cyrillic а
    True
    """
    if label.isascii():  # NFKC leaves ASCII alone, and it has no Cf character
        return " ".join(label.split())
    # before NFKC too: it turns the lunate sigma "Ϲ", drawn as C, into "Σ"
    text = _visible(label).translate(CONFUSABLES)
    text = _visible(unicodedata.normalize("NFKC", text))
    return " ".join(text.translate(CONFUSABLES).split())


def is_blank(label: str) -> bool:
    """Whether ``label`` shows nothing: only whitespace, characters that show
    nothing, and combining marks with no letter to sit on.

    Examples
    --------
    >>> from nbstats.scores.names import is_blank
    >>> is_blank("\u200b"), is_blank(" \u0301"), is_blank("e\u0301")
    (True, True, False)
    """
    return all(
        unicodedata.category(c).startswith("M")
        for c in lookalike_key(label).replace(" ", "")
    )


def check_names(table: pd.DataFrame) -> None:
    """Refuse names that no report, figure or CSV can show faithfully.

    Algorithm names (columns), case names (index) and the two axis names are
    checked as text (``str(name)``), the way every result shows them:

    - a control character (C0 such as NUL, tab or newline; DEL; C1; U+2028,
      U+2029; the explicit bidirectional controls U+202A–U+202E and
      U+2066–U+2069) is refused, naming the offending name by its ``repr``;
    - an algorithm name that shows nothing is refused: empty, blank, or made
      only of characters that show nothing (U+200B, U+FEFF, …) and
      combining marks (:func:`is_blank`);
    - two names of one axis that look the same are refused: equal after
      dropping the characters that show nothing, NFKC normalisation, the
      Cyrillic and Greek letters drawn like Latin ones, and collapsing
      whitespace (:func:`lookalike_key`: ``"A"`` and ``"A "`` or
      ``"A\u200b"``, ``"café"`` composed and decomposed, Cyrillic ``"а"``
      and Latin ``"a"``), or equal as text with different types (``1`` and
      ``"1"``);
    - an index (case axis) name that looks like an algorithm name is
      refused: in a CSV or ``reset_index()`` the two columns would clash.

    Raises
    ------
    ValueError
        Naming the problem, the name (``repr``) and the fix.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbstats.scores.names import check_names
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
        key = lookalike_key(label)
        clash = [str(c) for c in table.columns if lookalike_key(str(c)) == key]
        if clash:
            raise ValueError(
                f"the index (case names) is named {label!r}, like the algorithm "
                f"column {clash[0]!r}: in a report or CSV the two would clash. "
                "Rename the index, e.g. df.rename_axis('case'), or the column."
            )


def _cleaned(label: str) -> str:
    return CONTROL_CHARACTERS.sub("", label).strip() or "name"


def _check_axis(axis: pd.Index, what: str, where: str, *, blank: bool) -> None:
    if pd.api.types.is_integer_dtype(axis.dtype) or pd.api.types.is_float_dtype(
        axis.dtype
    ):
        return  # numbers: no control characters, no whitespace, unique
    values = axis.tolist()  # (iterating a pandas str Index is slow)
    labels = [str(v) for v in values]
    # one scan of all the names (a million case names in a fraction of a
    # second); the name at fault is looked for only when there is one
    joined = "\ue000".join(labels)
    if CONTROL_CHARACTERS.search(joined):
        found, label = next(
            (match, label)
            for label in labels
            if (match := CONTROL_CHARACTERS.search(label))
        )
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
    for label in labels if blank else ():
        if is_blank(label):
            raise ValueError(
                f"{what} name {label!a} is empty or blank (it shows nothing but "
                "whitespace, invisible characters or combining marks); give every "
                f"{what} a visible name, e.g. df.rename({where}={{{label!a}: "
                f"'{what}1'}})."
            )
    if "".join(labels).isascii() and axis.inferred_type in ("string", "empty"):
        # ASCII strings (no tab or newline: refused above): a key differs
        # from its name only by runs of spaces
        plain = not _has_space_runs(joined)
        keys = labels if plain else [lookalike_key(label) for label in labels]
        if len(set(keys)) == len(keys):
            return  # no two names alike (the loop below names a pair)
    seen: dict[str, object] = {}
    for value, label in zip(values, labels, strict=True):
        key = lookalike_key(label)
        if key in seen and (seen[key] != value or type(seen[key]) is not type(value)):
            first = seen[key]
            raise ValueError(
                f"{what} names {_shown(first)} and {_shown(value)} look the same "
                "(they differ only by whitespace, invisible characters, Unicode "
                "normalisation, letters of another script drawn alike, such as "
                "Cyrillic 'а' for Latin 'a', or type); rename one, e.g. "
                f"df.rename({where}={{{value!r}: {key + '_2'!r}}})."
            )
        seen.setdefault(key, value)


def _has_space_runs(joined: str) -> bool:
    """Whether a name (in names joined by U+E000) starts or ends with a space
    or holds two in a row: then its key differs from the name itself."""
    return (
        "  " in joined
        or " \ue000" in joined
        or "\ue000 " in joined
        or (joined.startswith(" ") or joined.endswith(" "))
    )


def _shown(value: object) -> str:
    """``repr``, and the code points when ``repr`` hides how names differ."""
    shown = repr(value)
    return shown if shown == ascii(value) else f"{shown} (code points {value!a})"


def name_index(names: object, name: object = None) -> pd.Index:
    """A flat Index of algorithm or case names, each name kept as given.

    ``pd.Index`` turns a list of tuples into a MultiIndex (and then refuses a
    single ``name``); here a tuple such as ``("RF", 100)`` stays one name.
    A MultiIndex becomes the flat Index of its tuples, named by the tuple of
    its level names (``None`` when no level is named). Every result and score
    table builds its name axis here, so a name reads the same everywhere:
    ``str(name)`` in text, HTML and LaTeX, the name itself in frames.

    Examples
    --------
    >>> import pandas as pd
    >>> from nbstats.scores.names import name_index
    >>> name_index([("RF", 100), ("SVM", 1)], name="algorithm")
    Index([('RF', 100), ('SVM', 1)], dtype='object', name='algorithm')
    >>> name_index(pd.MultiIndex.from_tuples([("RF", 100)], names=["model", "n"]))
    Index([('RF', 100)], dtype='object', name=('model', 'n'))
    """
    dtype = None
    if isinstance(names, pd.MultiIndex):
        levels = tuple(names.names)
        if name is None and any(level is not None for level in levels):
            name = levels
        dtype = object
    elif isinstance(names, pd.Index):
        name = names.name if name is None else name
        if names.dtype != object or not any(isinstance(v, tuple) for v in names):
            return names.rename(name)  # nothing to flatten: no copy of the labels
        dtype = object
    labels = [plain_name(label) for label in names]  # type: ignore[attr-defined]
    return pd.Index(labels, dtype=dtype, name=name, tupleize_cols=False)


def plain_name(label: object) -> object:
    """``label``, with a tuple's numpy scalars as Python scalars (equal, same
    hash): a MultiIndex hands out ``("RF", np.int64(100))``, whose ``str`` is
    ``"('RF', np.int64(100))"``, not the ``('RF', 100)`` the user wrote.

    Examples
    --------
    >>> import numpy as np
    >>> from nbstats.scores.names import plain_name
    >>> str(plain_name(("RF", np.int64(100))))
    "('RF', 100)"
    """
    if not isinstance(label, tuple):
        return label
    return tuple(v.item() if isinstance(v, np.generic) else v for v in label)


def name_array(names: object) -> np.ndarray:
    """The names as a 1-D object array, one element per name.

    ``np.asarray`` makes a 2-D array of a list of equal-length tuples; here
    ``("RF", 100)`` stays one element (for fancy indexing by pair).

    Examples
    --------
    >>> from nbstats.scores.names import name_array
    >>> name_array([("RF", 100), ("SVM", 1)]).shape
    (2,)
    """
    labels = list(names)  # type: ignore[call-overload]
    return np.fromiter(labels, dtype=object, count=len(labels))

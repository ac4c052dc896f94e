"""Reading a score CSV, checked before pandas can guess (the command line
and the dashboard server).

The file is decoded and split with the :mod:`csv` module first (the user's
``--sep`` and ``--encoding``), so that what pandas would silently repair is
refused with the file, the line and the fix in the message:

- a missing file, a directory, an unreadable, binary, empty or header-only
  file; text that is not in the given encoding (``--encoding latin-1``); a
  file over the input limit, before it is read whole
  (:mod:`nbstats.io.text`: 256 MiB, ``--max-input``, ``NBSTATS_MAX_INPUT``);
- a duplicated column name (pandas would rename the second ``A`` to ``A.1``)
  or a column without a name (pandas' ``Unnamed: 2``), except the first column
  of a wide file (the index as pandas writes it);
- a row with more or fewer fields than the header (pandas would take an extra
  first field as the index, or fill missing ones with NaN);
- an empty case (or algorithm) name;
- a score written as an integer that float64 cannot hold exactly (beyond
  ±2**53), whatever else its column holds (beside a decimal, pandas would
  round it, and ``9007199254740993`` would tie with ``9007199254740992``).

Wide files: the case names are the column given by ``--case NAME``, else the
first column when its header is empty or it holds any value that is not a
number; a named first column of numbers is ambiguous (case numbers, or an
algorithm's scores?) and refused, asking for ``--case NAME`` or
``--no-case-column`` (every column is an algorithm; the rows are numbered 1,
2, ...). Case and algorithm names are kept as the file spells them (``007``
stays ``007``); scores are parsed by :func:`pandas.read_csv`.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import shlex
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from nbstats.io.folds import check_fold_order, recognise_folds
from nbstats.io.options import parse_alias
from nbstats.io.text import read_text
from nbstats.scores.dtypes import EXACT_INTEGER_LIMIT
from nbstats.scores.table import score_table

__all__ = [
    "DEFAULT_ENCODING",
    "SNIFF_SEPARATORS",
    "CsvText",
    "check_fold_order",
    "parse",
    "read_alias_file",
    "read_csv",
    "read_scores",
    "recognise_folds",
]

DEFAULT_ENCODING = "utf-8"

#: The separators ``--sep auto`` chooses from.
SNIFF_SEPARATORS = ",;\t|"


@dataclass(frozen=True)
class CsvText:
    """A score CSV checked field by field: its text, separator and header, the
    number of data rows, their line numbers, and the fields of the columns
    kept as text (``columns``: name -> one field per row; the first column
    and those asked for), as the file spells them."""

    path: str
    text: str
    sep: str
    header: list[str]
    n_rows: int
    lines: array
    columns: dict[str, list[str]]


def _fail(path: str, problem: str, line: int | None = None) -> ValueError:
    where = f"{path}, line {line}" if line is not None else path
    return ValueError(f"{where}: {problem}")


def _shown(sep: str) -> str:
    return "tab" if sep == "\t" else repr(sep)


def _sniff(path: str, text: str) -> str:
    try:
        return csv.Sniffer().sniff(text[:65536], delimiters=SNIFF_SEPARATORS).delimiter
    except csv.Error:
        raise _fail(
            path,
            "--sep auto cannot tell the separator (tried , ; tab |); pass it, "
            "e.g. --sep ';'.",
        ) from None


def parse(
    path: str,
    *,
    sep: str = ",",
    encoding: str = DEFAULT_ENCODING,
    keep: Sequence[str] = (),
    max_bytes: int | None = None,
) -> CsvText:
    """Decode and split a score CSV, refusing what pandas would guess about.

    ``sep="auto"`` picks the separator with :class:`csv.Sniffer` among
    :data:`SNIFF_SEPARATORS`. The fields of the first column and of the
    columns named in ``keep`` are kept as text (the case and algorithm
    names); the others are only counted, so that a large file costs little
    more than its text. ``max_bytes``: the input limit
    (:func:`nbstats.io.text.read_text`). Raises :class:`ValueError` (or an
    :class:`OSError` for a missing file, a directory, an unreadable file)
    whose message names the file, the line and the fix.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "scores.csv"
    >>> _ = path.write_text("case,A,A\\nx,1,2\\n")
    >>> parse(str(path))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...scores.csv, line 1: duplicated column name 'A' (columns 2 and 3); ...
    """
    text = read_text(path, encoding, max_bytes)
    if sep == "auto":
        sep = _sniff(path, text)
    reader = csv.reader(_lines(text), delimiter=sep, strict=True)
    header: list[str] | None = None
    first = 1
    lines = array("q")
    kept: dict[int, list[str]] = {}
    start = 1
    try:
        for row in reader:
            if not row:  # blank lines are skipped, as pandas does
                start = reader.line_num + 1
                continue
            if header is None:
                header, first = row, start
                _check_header(path, header, first, sep)
                kept = {0: []} | {header.index(k): [] for k in keep if k in header}
            elif len(row) != len(header):
                _ragged(path, len(row), len(header), start)
            else:
                lines.append(start)
                for at, fields in kept.items():
                    fields.append(row[at])
            start = reader.line_num + 1
    except csv.Error as error:
        raise _fail(
            path,
            f"{error} (quotes must enclose a whole field; a quote inside one "
            'is written twice, e.g. "a ""b"" c").',
            reader.line_num,
        ) from None
    assert header is not None  # read_text refuses a blank file
    if not lines:
        raise _fail(
            path,
            f"only a header row ({sep.join(header)!r}), no scores; add one row "
            "of scores per case below it.",
        )
    columns = {header[at]: fields for at, fields in kept.items()}
    return CsvText(path, text, sep, header, len(lines), lines, columns)


#: A line and its ending (\r\n, \r or \n), as ``io.StringIO(newline="")``
#: splits them.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` with their endings, one at a time (a
    :class:`io.StringIO` would hold four bytes a character at once).

    Examples
    --------
    >>> list(_lines("a\\r\\nb\\rc\\n"))
    ['a\\r\\n', 'b\\r', 'c\\n']
    """
    for match in _LINE.finditer(text):
        if match.end() > match.start():
            yield match.group()


def _ragged(path: str, fields: int, width: int, line: int) -> None:
    fix = (
        'a separator inside an unquoted name? Quote the name ("a, b") '
        "or pass the right --sep."
        if fields > width
        else "leave a missing score empty (x,0.5,,0.7) instead of dropping its field."
    )
    raise _fail(path, f"{fields} fields where the header has {width}; {fix}", line)


def _fields(parsed: CsvText, column: str, rows: Sequence[int]) -> dict[int, str]:
    """The text of ``column`` in the data rows ``rows`` (0-based), read again
    from the file's text (for the few cells an error names)."""
    at = parsed.header.index(column)
    wanted = set(rows)
    reader = csv.reader(_lines(parsed.text), delimiter=parsed.sep)
    found: dict[int, str] = {}
    number = -1  # the header
    for row in reader:
        if not row:
            continue
        if number in wanted:
            found[number] = row[at]
            if len(found) == len(wanted):
                break
        number += 1
    return found


def _check_header(path: str, header: list[str], line: int, sep: str) -> None:
    if len(header) < 2:
        guess = [s for s in SNIFF_SEPARATORS if s != sep and s in header[0]]
        hint = (
            f"; the separator looks like {_shown(guess[0])}: pass --sep "
            f"{shlex.quote(guess[0]) if guess[0] != chr(9) else 'tab'} (or --sep auto)"
            if guess
            else ""
        )
        raise _fail(
            path,
            f"one column ({header[0]!r}) with the separator {_shown(sep)}; a "
            f"score CSV has a case column and a column per algorithm{hint}.",
            line,
        )
    counts = Counter(header)
    repeated = [name for name, count in counts.items() if count > 1]
    if repeated:
        where = "; ".join(
            f"{name!r} (columns "
            + " and ".join(str(i + 1) for i, h in enumerate(header) if h == name)
            + ")"
            for name in repeated
        )
        plural = "s" if len(repeated) > 1 else ""
        raise _fail(
            path,
            f"duplicated column name{plural} {where}; every column needs its own "
            "name (one column per algorithm): rename or remove the duplicates.",
            line,
        )
    blank = [i + 1 for i, h in enumerate(header) if not h.strip() and i > 0]
    if blank:
        trailing = (
            " (a separator at the end of the header?)"
            if blank[-1] == len(header)
            else ""
        )
        raise _fail(
            path,
            f"column {blank[0]} has no name{trailing}; name every column.",
            line,
        )


def _numeric(column: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(
        column
    )


def _labels(parsed: CsvText, column: str, what: str, fix: str) -> list[str]:
    """The names in ``column`` as the file spells them; an empty one refused."""
    names = parsed.columns[column]
    for line, name in zip(parsed.lines, names, strict=True):
        if not name.strip():
            raise _fail(
                parsed.path, f"no {what} name in column {column!r}; {fix}", line
            )
    return names


def read_csv(
    path: str,
    *,
    sep: str = ",",
    encoding: str = DEFAULT_ENCODING,
    case: str | None = None,
    no_case_column: bool = False,
    long: dict[str, Any] | None = None,
    max_bytes: int | None = None,
) -> tuple[pd.DataFrame, str]:
    """A checked CSV as ``(frame, separator)``: wide with the cases as index, or
    long as it is (``long``: the ``case``/``algorithm`` columns given).

    A score written as an integer that float64 cannot hold exactly (beyond
    ±2**53) is refused, naming its line and column, whatever else its column
    holds: beside a decimal, pandas would read it rounded, and two different
    scores could become equal. ``max_bytes``: the input limit
    (:func:`nbstats.io.text.read_text`).

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "scores.csv"
    >>> _ = path.write_text("data set,A,B,C\\n007,1,2,3\\nx,4,5,6\\n")
    >>> frame, sep = read_csv(str(path))
    >>> frame.index.tolist(), list(frame.columns)
    (['007', 'x'], ['A', 'B', 'C'])
    >>> _ = path.write_text("A,B,C\\n1,2,3\\n4,5,6\\n")
    >>> read_csv(str(path))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...: the first column 'A' holds numbers: ...
    """
    labels = [long.get("case"), long.get("algorithm")] if long else [case]
    keep = [name for name in labels if name is not None]
    parsed = parse(path, sep=sep, encoding=encoding, keep=keep, max_bytes=max_bytes)
    # bytes, not a StringIO (four bytes a character)
    raw = pd.read_csv(
        io.BytesIO(parsed.text.encode("utf-8")),
        sep=parsed.sep,
        index_col=False,
        encoding="utf-8",
    )
    if raw.shape != (parsed.n_rows, len(parsed.header)):
        raise _fail(  # pragma: no cover - both parsers skip the same lines
            path, "pandas reads this file differently from the csv module."
        )
    raw.columns = parsed.header  # an unnamed first column stays unnamed
    # label columns stay as the file spells them (the first column of a wide
    # file is the cases' unless --no-case-column)
    first = [] if long or no_case_column else parsed.header[:1]
    _read_huge_integers(raw, skip=[*keep, *first])
    if long is not None:
        for key in ("case", "algorithm"):
            column = long.get(key)
            if column in parsed.header:
                raw[column] = _labels(
                    parsed, column, key, "give every row its name or drop the row."
                )
        score = long.get("score")
        if score in parsed.header:
            case_column = long.get("case")
            cases = raw[case_column] if case_column in parsed.header else None
            _check_integers(parsed, raw, [score], cases)
        return raw, parsed.sep
    frame = _wide(parsed, raw, case, no_case_column)
    _check_integers(parsed, frame, list(frame.columns), frame.index)
    return frame, parsed.sep


def _read_huge_integers(raw: pd.DataFrame, skip: Sequence[str]) -> None:
    """Columns with integers beyond int64 or uint64 (pandas keeps them as
    Python ints, or the column as text beside a decimal) read as floats, so
    that :func:`_check_integers` takes or refuses each of them as beside a
    decimal (``2**70`` is exact in float64)."""
    for column in raw.columns:
        values = raw[column]
        textual = values.dtype == object or pd.api.types.is_string_dtype(values)
        if column in skip or not textual:
            continue
        present = values.dropna().tolist()
        if not present or not all(
            (isinstance(v, int) and not isinstance(v, bool))
            or (isinstance(v, str) and _DECIMAL.fullmatch(v))
            for v in present
        ):
            continue
        try:
            raw[column] = [float(v) for v in values.tolist()]
        except OverflowError:  # beyond 1e308: left as it is, refused as text
            continue


#: A field written as a decimal number (``-12``, ``1.5``, ``.5``, ``2e9``).
_DECIMAL = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*")
#: A field written as an integer (digits, or digits and a point and zeros).
_INTEGER = re.compile(r"\s*[+-]?\d+(?:\.0*)?\s*")


def _check_integers(
    parsed: CsvText, frame: pd.DataFrame, columns: list[str], cases: Any
) -> None:
    """Refuse the fields written as integers that float64 cannot hold exactly,
    naming the first by its line, case (``cases``: one per row, or None) and
    column.

    Only the cells read as at least 2**53 in magnitude are looked at again
    (their text, from the file), so the check costs nothing on ordinary
    scores.
    """
    inexact: list[tuple[int, str, str, int]] = []
    for column in columns:
        values = frame[column]
        if not _numeric(values):
            continue  # refused later, as not numeric
        numbers = np.abs(values.to_numpy(dtype=float, na_value=np.nan))
        with np.errstate(invalid="ignore"):
            rows = np.flatnonzero(numbers >= EXACT_INTEGER_LIMIT)
        if not rows.size:
            continue
        for row, text in sorted(_fields(parsed, column, rows.tolist()).items()):
            if not _INTEGER.fullmatch(text):
                continue  # a decimal or 1e20: the writer accepted a rounding
            value = int(text.strip().split(".")[0])
            if int(float(value)) != value:
                inexact.append((parsed.lines[row], column, text.strip(), row))
    if not inexact:
        return
    line, column, text, row = inexact[0]  # the first column's first one
    name = None if cases is None else getattr(cases, "iloc", cases)[row]
    case = f"case {name!r}, " if name is not None else ""
    more = (
        f" ({len(inexact) - 1} more such cell(s), the next at line "
        f"{inexact[1][0]}, column {inexact[1][1]!r})"
        if len(inexact) > 1
        else ""
    )
    raise _fail(
        parsed.path,
        f"{case}column {column!r} holds {text}, an integer that float64 cannot hold "
        f"exactly (beyond ±2**53 = {EXACT_INTEGER_LIMIT}): it would be read as "
        f"{float(int(text.split('.')[0])):.0f}, and different scores could become "
        f"equal{more}. Subtract a common offset from every score before writing "
        "the file (the same offset for every column keeps every difference), "
        "or write it in scientific notation (e.g. 9.007199254740993e15) if a "
        "rounded value is meant.",
        line,
    )


def _wide(
    parsed: CsvText, raw: pd.DataFrame, case: str | None, no_case_column: bool
) -> pd.DataFrame:
    path, header = parsed.path, parsed.header
    if no_case_column:
        if not header[0].strip():
            raise _fail(
                path,
                "column 1 has no name, yet --no-case-column makes every column "
                "an algorithm; name it, or drop --no-case-column if it names the "
                "cases.",
            )
        frame = raw
        frame.index = pd.RangeIndex(1, len(raw) + 1, name=None)
    else:
        if case is None:
            case = header[0]
            if header[0].strip() and _numeric(raw[case]):
                option = shlex.quote(case)
                raise _fail(
                    path,
                    f"the first column {case!r} holds numbers: are they case "
                    f"names or an algorithm's scores? Pass --case {option} if "
                    "that column names the cases, or --no-case-column if every "
                    "column is an algorithm (the rows are then numbered 1, 2, …).",
                )
        elif case not in header:
            raise _fail(
                path,
                f"--case {case!r}: no such column; the columns are {header}.",
            )
        fix = "name every case, or pass --no-case-column to number the rows."
        names = _labels(parsed, case, "case", fix)
        frame = raw.drop(columns=case)
        frame.index = pd.Index(names, name=case or None)
    if frame.shape[1] < 2:
        raise _fail(
            path,
            "a wide score CSV needs a column of case names and at least 2 "
            f"columns of scores, got columns {header}.",
        )
    text = [c for c in frame.columns if not _numeric(frame[c])]
    if text:
        raise _fail(
            path,
            f"column(s) {text} are not numeric, so this is not a wide score "
            "table (first column = cases, one column of scores per algorithm). "
            "For long data (one row per case and algorithm) pass --case COL "
            f"--algorithm COL --score COL; the columns are {header}.",
        )
    return frame


def read_scores(
    path: str,
    *,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    fold: str | Sequence[str] | None = None,
    aggregate: str | None = None,
    nan_policy: str = "raise",
    sep: str = ",",
    encoding: str = DEFAULT_ENCODING,
    no_case_column: bool = False,
    max_bytes: int | None = None,
) -> pd.DataFrame:
    """A score table from a CSV: wide (first column = cases) or long.

    Long data needs ``case``, ``algorithm`` and ``score`` (and ``fold`` or
    ``aggregate`` for repeated rows, see :func:`nbstats.score_table`); with
    ``case`` alone the CSV is wide and ``case`` names its column of cases;
    ``no_case_column=True`` reads every column as an algorithm. The file is
    checked first (:mod:`nbstats.io.csv`): duplicated or unnamed columns,
    ragged rows, a named first column of numbers without ``case`` or
    ``no_case_column`` get an error naming the file, the line and the fix, as
    do a file over the input limit (``max_bytes``, default
    :func:`nbstats.io.text.input_limit`) and an integer score that float64
    cannot hold exactly.

    Examples
    --------
    >>> import nbstats, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "scores.csv")
    >>> nbstats.datasets.load("demsar2006").to_csv(path)
    >>> read_scores(path).shape
    (14, 4)
    """
    long = {"case": case, "algorithm": algorithm, "score": score}
    is_long = algorithm is not None or score is not None
    raw, _ = read_csv(
        path,
        sep=sep,
        encoding=encoding,
        case=case,
        no_case_column=no_case_column,
        long=long if is_long else None,
        max_bytes=max_bytes,
    )
    if not is_long:
        return score_table(raw, nan_policy=nan_policy)
    if fold is not None:
        long["fold"] = fold
    return score_table(raw, **long, aggregate=aggregate, nan_policy=nan_policy)


def read_alias_file(path: str) -> list[tuple[str, str]]:
    """The ``NAME=ALIAS`` pairs of an ``--alias-file`` (blank and ``#`` lines
    skipped); an error names the file, the line and the fix."""
    if Path(path).is_dir():
        raise IsADirectoryError(
            f"--alias-file {path}: is a directory; give a text file of NAME=ALIAS "
            "lines."
        )
    if not Path(path).is_file():
        raise FileNotFoundError(f"--alias-file: no such file: {path!r}")
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ValueError(
            f"--alias-file {path}, line {line}: not utf-8 text; save it as UTF-8."
        ) from None
    pairs = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            pairs.append(parse_alias(line))
        except argparse.ArgumentTypeError as error:
            raise ValueError(f"--alias-file {path}, line {number}: {error}") from None
    return pairs

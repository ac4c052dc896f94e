"""The one dtype rule for scores, shared by score tables and paired vectors.

Every score column of a table (:func:`nbstats.score_table` and every function
that reads a score table) and both vectors of a two-sample function (``ttest``,
``wilcoxon``, ``sign_test``, the Bayesian ``(a, b)`` functions) pass through
:func:`real_scores`, so the same input gets the same answer everywhere. The
rules, and why, are in ``docs/input-rules.md``:

========================  ====================================================
kind                      rule
========================  ====================================================
int, uint, float          accepted, converted to float64; integers must be
                          exact in float64 (see below)
pandas Int64/Float64/…    accepted; ``pd.NA`` is a missing score (nan_policy)
object                    accepted only if every value is a real number
                          (``None``/NaN/``pd.NA`` = missing); strings, even
                          ``"0.5"``, are refused: convert with pd.to_numeric
bool / boolean            refused: cast with ``.astype(float)`` if 0/1 is meant
complex                   refused: take ``.real`` or ``abs()`` explicitly
categorical               refused: categories are labels, not scores
datetime, timedelta       refused, as dtypes and as values in object columns
                          (``np.timedelta64`` of every unit, ``pd.Timedelta``,
                          ``datetime``): convert to a number of seconds first,
                          e.g. ``df / pd.Timedelta(seconds=1)``
string                    refused: convert with pd.to_numeric
========================  ====================================================

Integers are exact or refused: float64 holds every integer up to 2**53 in
magnitude, but beyond it only some (2**53 + 1 would become 2**53). An integer
score (int64, uint64, nullable Int64/UInt64, a Python int in an object column)
that float64 cannot hold exactly is refused with a ``ValueError`` naming the
cells: converting it would round it, and two different scores could become the
same number (``b = a + 1`` would become ``b = a``, a tie).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from numbers import Complex, Integral, Real

import numpy as np
import pandas as pd

__all__ = ["EXACT_INTEGER_LIMIT", "real_scores"]

#: float64 holds every integer of at most this magnitude exactly (2**53).
EXACT_INTEGER_LIMIT = 2**53

#: Cells named in an error message, at most.
_CELLS_SHOWN = 3

_DURATION_FIX = (
    "convert them to a number first, e.g. seconds: df / pd.Timedelta(seconds=1) "
    "(or series.dt.total_seconds())."
)
_DATE_FIX = (
    "convert them to a number first, e.g. seconds since the first date: "
    "(s - s.min()) / pd.Timedelta(seconds=1)."
)


def real_scores(values: object, where: str) -> np.ndarray:
    """Return ``values`` as a float64 array or refuse its dtype by name.

    Parameters
    ----------
    values : Series, ndarray or array-like
        One column of scores (any shape for plain arrays).
    where : str
        How the error message names it, e.g. ``"column 'A'"`` or ``"a"``.

    Returns
    -------
    ndarray
        float64; missing values (``None``, ``pd.NA``, NaN) are NaN.

    Raises
    ------
    TypeError
        For every refused kind, naming ``where``, the dtype and the fix.

    Examples
    --------
    >>> real_scores(pd.Series([1, None, 3], dtype="Int64"), "column 'A'")
    array([ 1., nan,  3.])
    >>> real_scores(pd.Series([True, False]), "column 'A'")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: column 'A' holds booleans (dtype bool); ... .astype(float) ...
    """
    labels = _labels(values)
    dtype = getattr(values, "dtype", None)
    if dtype is None:
        # a list keeps its values' types: [np.uint64(2**63 + 1), 3] must not
        # become float64, nor [True, 2] become [1, 2]
        plain = isinstance(values, list | tuple)
        values = np.asarray(values, dtype=object if plain else None)
        dtype = values.dtype
    refusal = _refusal(dtype)
    if refusal is not None:
        raise TypeError(f"{where} {refusal}")
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):
        # nullable Int64/Float64/UInt8...: pd.NA becomes NaN
        extension = pd.array(values)
        if pd.api.types.is_integer_dtype(dtype):
            present = ~np.asarray(extension.isna(), dtype=bool)
            integer = np.dtype(getattr(dtype, "numpy_dtype", "int64"))
            ints = np.asarray(extension.to_numpy(dtype=integer, na_value=0))
            _check_exact(ints, present, labels, where)
        return np.asarray(extension.to_numpy(dtype=float, na_value=np.nan), dtype=float)
    array = np.asarray(values)
    if array.dtype.kind == "O":
        return _object_numbers(array, labels, where)
    if array.dtype.kind in "iu":
        _check_exact(array, np.ones(array.shape, dtype=bool), labels, where)
    floats = array.astype(float)
    if array.dtype.kind == "f" and array.dtype.itemsize > 8:
        # long double: whole numbers float64 would round are refused too
        with np.errstate(invalid="ignore"):
            rounded = (
                np.isfinite(array) & (array == np.floor(array)) & (floats != array)
            )
        if rounded.any():
            cells = [(int(i), int(array.flat[i])) for i in np.flatnonzero(rounded)]
            _refuse_inexact(cells, labels, where)
    return floats


def _labels(values: object) -> Sequence[object] | None:
    """The case labels of a Series (None for arrays: positions are shown)."""
    index = getattr(values, "index", None)
    return index if isinstance(values, pd.Series) else None


def _check_exact(
    ints: np.ndarray, present: np.ndarray, labels: object, where: str
) -> None:
    """Refuse integers that float64 would round (beyond 2**53 in magnitude)."""
    if ints.dtype.itemsize < 8 or ints.size == 0:
        return  # 32-bit integers and smaller are always exact
    flat, mask = ints.ravel(), present.ravel()
    big = flat > EXACT_INTEGER_LIMIT
    if flat.dtype.kind == "i":
        big |= flat < -EXACT_INTEGER_LIMIT
    big &= mask
    if not big.any():
        return
    values = flat[big]
    floats = values.astype(float)
    # the float of an int64 near 2**63 is 2**63, which no int64 holds
    top = 2.0**64 if flat.dtype.kind == "u" else 2.0**63
    exact = np.zeros(values.shape, dtype=bool)
    fits = floats < top
    exact[fits] = floats[fits].astype(flat.dtype) == values[fits]
    rounded = np.flatnonzero(big)[~exact]
    if rounded.size:
        _refuse_inexact([(int(i), int(flat[i])) for i in rounded], labels, where)


def _refuse_inexact(cells: list[tuple[int, int]], labels: object, where: str) -> None:
    shown = []
    for position, value in cells[:_CELLS_SHOWN]:
        at = (
            f"case {labels[position]!r}"
            if labels is not None and position < len(labels)
            else f"position {position}"
        )
        shown.append(f"{value} at {at} (would become {float(value):.0f})")
    more = f" and {len(cells) - _CELLS_SHOWN} more" if len(cells) > _CELLS_SHOWN else ""
    raise ValueError(
        f"{where} holds {len(cells)} integer(s) that float64 cannot hold exactly "
        f"(beyond ±2**53 = {EXACT_INTEGER_LIMIT}): "
        + "; ".join(shown)
        + more
        + ". Converted, different scores could become equal. Subtract a common "
        "offset in integer arithmetic first, e.g. df - df.min().min() (the same "
        "offset for every column keeps every difference), or divide by a scale "
        "if the last digits do not matter, e.g. df / 1000."
    )


def _refusal(dtype: object) -> str | None:
    """Why a dtype cannot hold scores, or None when it can."""
    if isinstance(dtype, pd.CategoricalDtype):
        return (
            f"is categorical (dtype {dtype}); categories are labels, not "
            "scores: if they are numbers, convert with .astype(float)."
        )
    if pd.api.types.is_bool_dtype(dtype):
        return (
            f"holds booleans (dtype {dtype}); scores must be real numbers: cast "
            "with .astype(float) if 0/1 is meant."
        )
    if pd.api.types.is_complex_dtype(dtype):
        return (
            f"holds complex numbers (dtype {dtype}); scores must be real: take "
            ".real or abs() explicitly."
        )
    if pd.api.types.is_timedelta64_dtype(dtype):
        return f"holds durations (dtype {dtype}), not numbers; {_DURATION_FIX}"
    if pd.api.types.is_datetime64_any_dtype(dtype) or isinstance(dtype, pd.PeriodDtype):
        return f"holds dates (dtype {dtype}), not numbers; {_DATE_FIX}"
    if pd.api.types.is_string_dtype(dtype) and not pd.api.types.is_object_dtype(dtype):
        return (
            f"holds strings (dtype {dtype}); convert with pd.to_numeric if "
            "they are numbers, or move labels into the index."
        )
    if pd.api.types.is_object_dtype(dtype):
        return None  # checked value by value
    if not pd.api.types.is_numeric_dtype(dtype):
        return (
            f"is not numeric (dtype {dtype}); scores must be real numbers: "
            "convert with pd.to_numeric."
        )
    return None


def _is_missing(v: object) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and v != v)


def _object_numbers(array: np.ndarray, labels: object, where: str) -> np.ndarray:
    """Object values: real numbers and missing markers only."""
    flat = array.ravel()
    if set(map(type, flat)) <= {float, int, type(None)}:
        return _python_numbers(flat, labels, where).reshape(array.shape)
    inexact: list[tuple[int, int]] = []
    for position, v in enumerate(flat):
        # np.timedelta64 is an integer to numbers.Real; pd.NaT a datetime
        if isinstance(v, datetime.timedelta | np.timedelta64):
            raise TypeError(
                f"{where} holds durations (e.g. {v!r}), not numbers; {_DURATION_FIX}"
            )
        if isinstance(v, datetime.date | np.datetime64 | pd.Period):
            raise TypeError(
                f"{where} holds dates (e.g. {v!r}), not numbers; {_DATE_FIX}"
            )
        if _is_missing(v):
            continue
        if isinstance(v, Real) and not isinstance(v, bool | np.bool_):
            whole = _rounded_integer(v, where)
            if whole is not None:
                inexact.append((position, whole))
            continue
        if isinstance(v, bool | np.bool_):
            kind = np.dtype(bool)
        elif isinstance(v, Complex):
            kind = np.dtype(complex)
        else:
            what = "strings" if isinstance(v, str) else f"{type(v).__name__} values"
            raise TypeError(
                f"{where} holds {what} (e.g. {v!r}); scores must be real "
                "numbers: convert with pd.to_numeric (or move labels into the "
                "index with df.set_index(...))."
            )
        reason = _refusal(kind) or ""
        raise TypeError(f"{where} {reason.replace(f'(dtype {kind})', f'(e.g. {v!r})')}")
    if inexact:
        _refuse_inexact(inexact, labels, where)
    numbers = [np.nan if _is_missing(v) else _float_of(v, where) for v in flat]
    return np.array(numbers, dtype=float).reshape(array.shape)


def _python_numbers(flat: np.ndarray, labels: object, where: str) -> np.ndarray:
    """The common case, Python floats, ints and None, without a type test each."""
    limit = EXACT_INTEGER_LIMIT
    numbers = [np.nan if v is None else _float_of(v, where) for v in flat]
    inexact = [
        (i, v)
        for i, (v, f) in enumerate(zip(flat, numbers, strict=True))
        if type(v) is int and not -limit <= v <= limit and v != f
    ]
    if inexact:
        _refuse_inexact(inexact, labels, where)
    return np.array(numbers, dtype=float)


def _rounded_integer(value: Real, where: str) -> int | None:
    """The whole number ``value`` is, if float64 would round it; else None.

    Python floats are float64 already; an integer (int, NumPy integer) or a
    whole Fraction or long double beyond 2**53 may not be.
    """
    if isinstance(value, float):
        return None
    converted = _float_of(value, where)
    if isinstance(value, Integral):
        whole = int(value)
        return whole if whole != converted else None  # exact int/float compare
    if not np.isfinite(converted) or converted == value:
        return None
    whole = int(value)
    return whole if whole == value else None


def _float_of(value: object, where: str) -> float:
    try:
        return float(value)
    except OverflowError as error:
        raise ValueError(
            f"{where} holds a number too large for float64 ({error}); rescale it."
        ) from None

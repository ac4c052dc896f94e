"""The one dtype rule for scores, shared by score tables and paired vectors.

Every score column of a table (:func:`nbstats.score_table` and every function
that reads a score table) and both vectors of a two-sample function (``ttest``,
``wilcoxon``, ``sign_test``, the Bayesian ``(a, b)`` functions) pass through
:func:`real_scores`, so the same input gets the same answer everywhere. The
rules, and why, are in ``docs/input-rules.md``:

========================  ====================================================
kind                      rule
========================  ====================================================
int, uint, float          accepted, converted to float64
pandas Int64/Float64/…    accepted; ``pd.NA`` is a missing score (nan_policy)
object                    accepted only if every value is a real number
                          (``None``/NaN/``pd.NA`` = missing); strings, even
                          ``"0.5"``, are refused: convert with pd.to_numeric
bool / boolean            refused: cast with ``.astype(float)`` if 0/1 is meant
complex                   refused: take ``.real`` or ``abs()`` explicitly
categorical               refused: categories are labels, not scores
datetime, timedelta       refused: convert to a number of seconds first
string                    refused: convert with pd.to_numeric
========================  ====================================================
"""

from __future__ import annotations

import datetime
from numbers import Complex, Real

import numpy as np
import pandas as pd

__all__ = ["real_scores"]


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
    dtype = getattr(values, "dtype", None)
    if dtype is None:
        values = np.asarray(values)
        dtype = values.dtype
    refusal = _refusal(dtype)
    if refusal is not None:
        raise TypeError(f"{where} {refusal}")
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):
        # nullable Int64/Float64/UInt8...: pd.NA becomes NaN
        return np.asarray(
            pd.array(values).to_numpy(dtype=float, na_value=np.nan), dtype=float
        )
    array = np.asarray(values)
    if array.dtype.kind == "O":
        return _object_numbers(array, where)
    return array.astype(float)


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
    if pd.api.types.is_datetime64_any_dtype(dtype) or pd.api.types.is_timedelta64_dtype(
        dtype
    ):
        return (
            f"holds dates or durations (dtype {dtype}); convert to a number "
            "first, e.g. .dt.total_seconds() for durations."
        )
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


def _object_numbers(array: np.ndarray, where: str) -> np.ndarray:
    """Object values: real numbers and missing markers only."""
    flat = array.ravel()
    for v in flat:
        if _is_missing(v) or (
            isinstance(v, Real) and not isinstance(v, bool | np.bool_)
        ):
            continue
        if isinstance(v, bool | np.bool_):
            kind = np.dtype(bool)
        elif isinstance(v, Complex):
            kind = np.dtype(complex)
        elif isinstance(v, datetime.date | datetime.timedelta | np.datetime64):
            kind = np.dtype("datetime64[ns]")
        else:
            what = "strings" if isinstance(v, str) else f"{type(v).__name__} values"
            raise TypeError(
                f"{where} holds {what} (e.g. {v!r}); scores must be real "
                "numbers: convert with pd.to_numeric (or move labels into the "
                "index with df.set_index(...))."
            )
        reason = _refusal(kind) or ""
        raise TypeError(f"{where} {reason.replace(f'(dtype {kind})', f'(e.g. {v!r})')}")
    try:
        numbers = [np.nan if _is_missing(v) else float(v) for v in flat]
    except OverflowError as error:
        raise ValueError(
            f"{where} holds a number too large for float64 ({error}); rescale it."
        ) from None
    return np.array(numbers, dtype=float).reshape(array.shape)

"""Renamed arguments: the old keyword still works, with a DeprecationWarning.

nbstats names each concept one way across its public functions (the table is
in the documentation's *Conventions* page). When an argument is renamed, the
function is decorated with :func:`renamed`, which keeps the old keyword
working for a while:

- the old keyword gives the same call as the new one, and a
  :class:`DeprecationWarning` that names the new keyword;
- the old and the new keyword together are a :class:`TypeError` (which one
  was meant cannot be known);
- ``inspect.signature``, ``help()`` and tab completion show only the new
  names, so the ``df.compare`` methods made from the functions do too.

A wrapper adds a frame between the caller and the function, so a warning
raised inside a decorated function points at the caller with
``stacklevel=outside_stacklevel()``: the first frame outside nbstats.

This module imports nothing from nbstats: every room may use it.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["RENAMED_ATTRIBUTE", "outside_stacklevel", "renamed"]

F = TypeVar("F", bound=Callable[..., Any])

#: The attribute of a decorated function that maps each old keyword to its
#: new name (read by the tests and the documentation's table).
RENAMED_ATTRIBUTE = "__renamed_arguments__"

#: The folder of the package: frames from files in it are nbstats' own.
_PACKAGE = os.path.dirname(__file__) + os.sep


def renamed(**old_to_new: str) -> Callable[[F], F]:
    """Accept the old keyword of each renamed argument, with a warning.

    Parameters
    ----------
    **old_to_new : str
        Each old keyword and the name of the parameter that replaced it,
        e.g. ``renamed(confidence_level="level")``.

    Returns
    -------
    callable
        A decorator. The decorated function's signature is the function's
        own (only the new names); calling it with an old keyword passes the
        value to the new parameter and warns (``DeprecationWarning``); both
        keywords together raise ``TypeError``.

    Raises
    ------
    TypeError
        At decoration: a new name that is not a parameter of the function,
        an old name that still is one, or two old names for one new name.

    Examples
    --------
    >>> import warnings
    >>> @renamed(confidence_level="level")
    ... def interval(x, *, level=0.95):
    ...     return level
    >>> import inspect
    >>> str(inspect.signature(interval))
    '(x, *, level=0.95)'
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     interval(1, confidence_level=0.9)
    0.9
    >>> str(caught[0].message)
    'interval(): confidence_level= is deprecated; use level= (same meaning).'
    """

    def decorate(function: F) -> F:
        _check_names(function, old_to_new)
        name = function.__name__
        parameters = list(inspect.signature(function).parameters.values())
        # a new name may also arrive by position (e.g. nemenyi_min_cases(5, m=5))
        position = {
            p.name: i
            for i, p in enumerate(parameters)
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        }

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old not in kwargs:
                    continue
                if new in kwargs or position.get(new, len(args)) < len(args):
                    raise TypeError(
                        f"{name}() got both {old}= (its old name) and {new}=; "
                        f"give only {new}=."
                    )
                warnings.warn(
                    f"{name}(): {old}= is deprecated; use {new}= (same meaning).",
                    DeprecationWarning,
                    # at the user's line (through the accessor too): Python
                    # shows a DeprecationWarning by default only there
                    stacklevel=outside_stacklevel(),
                )
                kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        # functools.wraps sets __wrapped__: inspect.signature shows the
        # function's own parameters, the new names only
        setattr(wrapper, RENAMED_ATTRIBUTE, dict(old_to_new))
        return wrapper  # type: ignore[return-value]

    return decorate


def _check_names(function: Callable[..., Any], old_to_new: Mapping[str, str]) -> None:
    """Refuse a renaming that cannot work, when the module is imported."""
    if not old_to_new:
        raise TypeError("renamed() needs at least one old=new pair.")
    parameters = inspect.signature(function).parameters
    where = f"renamed(...) on {function.__qualname__}"
    for old, new in old_to_new.items():
        if not isinstance(new, str) or new not in parameters:
            raise TypeError(f"{where}: {new!r} is not one of its parameters.")
        if old in parameters:
            raise TypeError(f"{where}: the old name {old!r} is still a parameter.")
        kind = parameters[new].kind
        if kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.VAR_KEYWORD):
            raise TypeError(f"{where}: {new!r} cannot be given by keyword.")
    news = list(old_to_new.values())
    doubled = sorted({n for n in news if news.count(n) > 1})
    if doubled:
        raise TypeError(f"{where}: two old names for {', '.join(doubled)}.")


def outside_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first caller outside
    nbstats, however many nbstats frames (wrappers, the accessor) are between.

    Call it in the function that warns: ``warnings.warn(message, category,
    stacklevel=outside_stacklevel())`` (Python 3.12's ``skip_file_prefixes``,
    on 3.11).
    """
    frame = sys._getframe(1)  # the function that warns: stacklevel 1
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level

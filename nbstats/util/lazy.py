"""Attributes of a package imported on first use (PEP 562).

``nbstats`` and ``nbstats.plots`` list their public names and the module that
defines each; :func:`lazy_attributes` gives them the module-level
``__getattr__`` and ``__dir__`` that import a defining module the first time
one of its names is asked for, so that ``import nbstats`` loads neither scipy's
heavier parts nor matplotlib until a function needs them.

This module imports nothing from nbstats: every room may use it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(
    package: str, table: Mapping[str, str | None], namespace: dict[str, Any]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``.

    Parameters
    ----------
    package : str
        The package's name, for the error message and for submodules.
    table : mapping
        Each public name and the module that defines it, or None for a
        submodule of ``package`` of that name.
    namespace : dict
        The package's ``globals()``: a name, once imported, is stored there,
        so that later lookups do not come back to ``__getattr__``.

    Examples
    --------
    >>> namespace = {}
    >>> getattr_, dir_ = lazy_attributes("demo", {"sqrt": "math"}, namespace)
    >>> getattr_("sqrt")(4.0), "sqrt" in namespace, dir_()
    (2.0, True, ['sqrt'])
    >>> getattr_("cbrt")
    Traceback (most recent call last):
    ...
    AttributeError: module 'demo' has no attribute 'cbrt'
    """

    def __getattr__(name: str) -> object:
        try:
            module = table[name]
        except KeyError:
            raise AttributeError(
                f"module {package!r} has no attribute {name!r}"
            ) from None
        if module is None:
            value = importlib.import_module(f"{package}.{name}")
        else:
            value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | table.keys())

    return __getattr__, __dir__

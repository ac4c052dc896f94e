"""``scipy.stats``, imported on first use.

scipy.stats loads hundreds of modules (scipy.special, linalg, optimize,
interpolate, ...) that ``import nbstats`` must not pay for (the figures are in
``benchmarks/bench_import.py``). Modules write ``sps.norm.sf(...)`` with
``from nbstats import _scipy_stats as sps``; the first attribute access
imports scipy.stats (PEP 562 module ``__getattr__``). Other scipy
subpackages are imported inside the functions that use them.
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    return getattr(importlib.import_module("scipy.stats"), name)

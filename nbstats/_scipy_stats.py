"""``scipy.stats``, imported on first use.

Importing scipy.stats takes about half a second, and ``import nbstats`` must stay
fast (under 0.5 s on top of pandas). Modules write ``sps.norm.sf(...)``
with ``from nbstats import _scipy_stats as sps``; the first attribute access
imports scipy.stats (PEP 562 module ``__getattr__``).
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    return getattr(importlib.import_module("scipy.stats"), name)

"""Progress bars for long loops (studies, races, the Bayesian pairs): tqdm,
only where someone looks."""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

__all__ = ["progress_bar"]

_OFF = {"0", "false", "no", "off"}


def progress_bar(
    progress: bool | None,
    total: int | None,
    desc: str,
    unit: str,
    *,
    delay: float = 0.0,
) -> Any:
    """A ``tqdm.auto`` bar, or None.

    ``progress=None`` shows it when stderr is a terminal or code runs in a
    Jupyter kernel (a widget there), and not under pytest, in scripts whose
    output is redirected, or when the environment variable
    ``NBSTATS_PROGRESS`` is ``0`` (the report's kernel: a bar there would be
    an output of the report); True/False force it. ``delay``: seconds before the
    bar appears (a call that ends sooner shows none).
    """
    if progress is None:
        progress = _interactive()
    elif not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be True, False or None, got {progress!r}.")
    if not progress:
        return None
    from tqdm.auto import tqdm  # lazy: only needed to show a bar

    class _Bar(tqdm):  # type: ignore[misc, valid-type]
        # no monitor thread: a background thread would outlive the loop and
        # make a later fork() (process pools) unsafe
        monitor_interval = 0

    return _Bar(total=total, desc=desc, unit=unit, delay=delay)


def _interactive() -> bool:
    """Whether stderr is a terminal, or we run in a Jupyter kernel (and
    ``NBSTATS_PROGRESS`` does not turn the automatic bars off)."""
    if os.environ.get("NBSTATS_PROGRESS", "").strip().lower() in _OFF:
        return False
    try:
        if sys.stderr is not None and sys.stderr.isatty():
            return True
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        pass
    if "ipykernel" not in sys.modules:
        return False
    get_ipython = getattr(sys.modules.get("IPython"), "get_ipython", None)
    shell = get_ipython() if get_ipython is not None else None
    return getattr(shell, "kernel", None) is not None

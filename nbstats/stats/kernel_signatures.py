"""The compiled kernels a report calls, by their argument types: compiled in a
light second process while a command's first run after an install starts.

numba compiles a kernel on its first call, holding the interpreter's lock:
on a two-core machine one core idles meanwhile. So the first ``report``,
``demo`` or ``analyze`` run in a process of its own starts a second process
beside it (:func:`nbstats.util.warm.run_command`) that compiles the kernels
listed here into numba's cache, the pairs' first (a report compiles
Plackett–Luce itself, at its start, and reaches the pairs next); the
command then loads what is ready instead of compiling it. A kernel the
command reaches first it compiles itself; numba writes each cache file
whole, so two processes may fill one cache.

That process imports numba and the kernels' own modules only: not the
``nbstats`` package (pandas), nor the analyses (SciPy's statistics). It
compiles each kernel from its recorded argument types (:data:`KERNELS`,
numba's own notation) instead of running small analyses: the command and
it together then stay under a report's memory target
(``benchmarks/bench_report.py``, "first run after install"). The list
is checked against what :func:`nbstats.stats.compile_ahead.compile_kernels`
compiles (``tests/stats/test_kernel_signatures.py``): a kernel added or
changed without its types here fails that test.

Once it has run to the end it leaves a stamp, and later commands do not
start it again until an upgrade; ``NBSTATS_COMPILE_AHEAD=0`` turns it off.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

__all__ = ["KERNELS", "compile_listed", "compiled_signatures", "main"]


def _array(dtype: str, ndim: int, readonly: bool = False) -> str:
    """numba's notation of a C-contiguous array type."""
    return f"Array({dtype}, {ndim}, 'C', {readonly}, aligned=True)"


_F1, _F2, _F3 = _array("float64", 1), _array("float64", 2), _array("float64", 3)
_I1, _I2, _I3 = _array("int64", 1), _array("int64", 2), _array("int64", 3)
_U1 = _array("uint64", 1)
_READONLY_F1 = _array("float64", 1, readonly=True)
_B8_1, _B8_2 = _array("int8", 1), _array("int8", 2)
_BOOL2 = _array("bool", 2)

#: (module, function, argument types) in the order they are compiled: the
#: Dirichlet draws and the pairs first, Plackett–Luce last.
KERNELS: tuple[tuple[str, str, str], ...] = (
    (
        "nbstats.stats.bayes.exponentials",
        "_fill",
        f"({_U1}, {_F2}, {_F1}, {_U1}, {_F1}, {_F1})",
    ),
    (
        "nbstats.stats.bayes.signrank.walsh_kernel",
        "walsh_sums",
        f"({_F2}, {_I2}, bool, {_I3}, {_I1}, {_BOOL2}, {_I1}, {_I1}, {_I1}, "
        f"{_I1}, {_I2}, {_I2}, bool, {_F1}, {_F3}, {_F3}, int64, {_I1}, {_F3})",
    ),
    (
        "nbstats.stats.bayes.signrank.pair_kernel",
        "first_rows",
        f"({_F2}, {_F2}, float64, bool)",
    ),
    *(
        (
            "nbstats.stats.bayes.signrank.pair_kernel",
            "pair_counts",
            f"({_F2}, {_F2}, {_READONLY_F1}, {scale}, {extra}, {_F1}, bool, bool, "
            f"float64, float64, {_I2})",
        )
        for scale, extra in ((_F1, _F1), (_READONLY_F1, _READONLY_F1))
    ),
    (
        "nbstats.stats.bayes.signrank.summary_kernel",
        "combine_region",
        f"({_F1}, {_F1}, {_READONLY_F1}, {_F1}, bool, {_F1}, float64, bool, bool, "
        f"bool, {_F1}, {_F1})",
    ),
    *(
        (
            "nbstats.stats.bayes.joint_kernel",
            "idp_codes",
            f"({_F3}, {_F1}, {g0}, bool, float64, {_B8_2}, {_I2}, int64, int64)",
        )
        for g0 in (_READONLY_F1, _F1)
    ),
    (
        "nbstats.stats.bayes.joint_kernel",
        "joint_prefix_counts",
        f"({_B8_2}, {_I1}, {_B8_1})",
    ),
    (
        "nbstats.stats.frequentist.signed_rank_tail",
        "capped_tail",
        f"({_I1}, int64)",
    ),
    (
        "nbstats.stats.bayes.plackett_luce_kernel",
        "_gibbs_chain",
        f"({_U1}, {_F1}, {_I2}, {_I1}, {_I1}, {_I1}, {_I1}, float64, bool, int64, "
        f"int64, {_F2}, {_I1}, {_I2}, {_F2}, {_F1}, {_F1}, {_F1}, {_U1}, {_F1}, "
        f"{_F1})",
    ),
)


def compile_listed() -> None:
    """Compile every kernel of :data:`KERNELS` with its argument types (or
    load it from numba's cache).

    Examples
    --------
    >>> compile_listed()  # compiles, or loads from numba's cache
    """
    from numba.core import types

    notation = vars(types)
    for module, name, signature in KERNELS:
        kernel = getattr(importlib.import_module(module), name)
        kernel.compile(eval(signature, dict(notation)))  # numba's own notation


def compiled_signatures() -> set[tuple[str, str, str]]:
    """Every nbstats kernel this process has compiled or loaded, with its
    argument types, as :data:`KERNELS` writes them.

    Examples
    --------
    >>> compiled_signatures() >= set()
    True
    """
    from numba.core.registry import CPUDispatcher

    found = set()
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("nbstats."):
            continue
        for value in list(vars(module).values()):
            if not isinstance(value, CPUDispatcher):
                continue
            function = value.py_func
            for signature in value.signatures:
                found.add((function.__module__, function.__name__, repr(signature)))
    return found


def main(stamp: str | None = None, running: str | None = None) -> None:
    """Compile the listed kernels, then create the file ``stamp`` and remove
    the file ``running`` (when given): a command starts this process only
    while its stamp is missing and no other runs
    (:func:`nbstats.util.warm.run_command`)."""
    try:
        compile_listed()
        if stamp is not None:
            Path(stamp).touch()
    finally:
        if running is not None:
            Path(running).unlink(missing_ok=True)

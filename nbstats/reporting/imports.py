"""nbformat, imported without the cost of a checker it does not use.

``import nbformat`` imports jsonschema, whose format checkers import
``rfc3987_syntax`` when it is installed (jupyter-events installs it), and that
package compiles its Lark grammars on import: most of nbformat's import time
(benchmarks/bench_report.py), paid by every report. nbformat's schemas use no
IRI format, so :func:`nbformat` imports it with ``rfc3987_syntax`` hidden,
when jsonschema is not loaded yet; jsonschema then simply has no IRI checker
in this process. The module stays importable afterwards.
"""

from __future__ import annotations

import sys
from types import ModuleType

__all__ = ["nbformat"]

_HIDDEN = "rfc3987_syntax"


def nbformat() -> ModuleType:
    """The ``nbformat`` module (with ``nbformat.v4`` loaded).

    Examples
    --------
    >>> nbformat().v4.new_notebook().nbformat
    4
    """
    hide = "jsonschema" not in sys.modules and _HIDDEN not in sys.modules
    if hide:
        sys.modules[_HIDDEN] = None  # type: ignore[assignment]  # ImportError
    try:
        import nbformat as module
        import nbformat.v4
    finally:
        if hide and sys.modules.get(_HIDDEN, 0) is None:
            del sys.modules[_HIDDEN]
    return module

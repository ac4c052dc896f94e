"""The ``stacklevel`` that points a warning at the user's line.

This module imports nothing from nbstats: every room may use it.
"""

from __future__ import annotations

import os
import sys

__all__ = ["outside_stacklevel"]

#: The folder of the package (the parent of ``util``): frames from files in
#: it are nbstats' own.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def outside_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first caller outside
    nbstats, however many nbstats frames (helpers, the accessor) are between.

    Call it in the function that warns: ``warnings.warn(message, category,
    stacklevel=outside_stacklevel())`` (Python 3.12's ``skip_file_prefixes``,
    on 3.11).

    Examples
    --------
    >>> outside_stacklevel() >= 1
    True
    """
    frame = sys._getframe(1)  # the function that warns: stacklevel 1
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level

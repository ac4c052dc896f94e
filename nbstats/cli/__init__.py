"""The ``nbstats`` command: ``analyze``, ``report``, ``serve``, ``demo``, ``coverage``.

The commands are in :mod:`~nbstats.cli.commands`, their options in
:mod:`~nbstats.cli.options`; reading the scores (files, ``--from`` sources) in
:mod:`~nbstats.cli.reading` and :mod:`~nbstats.cli.sources`.
"""

from __future__ import annotations

from nbstats.util.lazy import lazy_attributes

__all__ = ["main"]

# lazy: ``python -m nbstats.cli`` first asks the warm process
# (nbstats.util.warm), before pandas and the rest are imported here
_LAZY = {"main": "nbstats.cli.commands"}
__getattr__, __dir__ = lazy_attributes("nbstats.cli", _LAZY, globals())

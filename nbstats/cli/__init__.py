"""The ``nbstats`` command: ``analyze``, ``report``, ``serve``, ``demo``, ``coverage``.

The commands are in :mod:`~nbstats.cli.commands`, their options in
:mod:`~nbstats.cli.options`; reading the scores (files, ``--from`` sources) in
:mod:`~nbstats.cli.reading` and :mod:`~nbstats.cli.sources`.
"""

from __future__ import annotations

from nbstats.cli.commands import main

__all__ = ["main"]

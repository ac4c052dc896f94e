"""Reading score files: below both the command line and the dashboard server.

:mod:`nbstats.io.csv` reads and checks a score CSV before pandas can guess;
:mod:`nbstats.io.options` holds the reading options and help texts that
``nbstats report``, ``nbstats analyze`` and ``nbstats dashboard`` share.
"""

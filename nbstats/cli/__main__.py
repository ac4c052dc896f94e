"""``python -m nbstats.cli``: the ``nbstats`` command without its launcher."""

import sys

from nbstats.util.quick_exit import exit_quickly
from nbstats.util.warm import run_command


def _here() -> int:
    from nbstats.cli.commands import main

    return main()


exit_quickly(
    run_command(
        sys.argv[1:],
        _here,
        "nbstats.cli.warm_server",
        "nbstats.stats.kernel_signatures",
    )
)

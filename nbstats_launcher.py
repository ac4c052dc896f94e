"""The ``nbstats`` command's entry point, outside the package on purpose.

Importing :mod:`nbstats` takes a moment (pandas, SciPy, numba); a Ctrl-C in
that moment would print a traceback from deep inside an import. This module
imports nothing heavy: it installs a quiet handler for SIGINT and SIGTERM
first, then imports and runs :func:`nbstats.cli.commands.main`, which installs its own.
"""

from __future__ import annotations

import signal
import sys


def _interrupted(signum: int, frame: object) -> None:
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_IGN)
    sys.stderr.write(f"nbstats: interrupted ({signal.Signals(signum).name})\n")
    raise SystemExit(128 + signum)


def main() -> int | None:
    """Run the ``nbstats`` command with Ctrl-C quiet from its first moment."""
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, _interrupted)
    from nbstats.util.quick_exit import exit_quickly
    from nbstats.util.warm import run_command

    def here() -> int:
        from nbstats.cli.commands import main as run

        return run()

    # a warm process runs the command when one is ready (nbstats.util.warm)
    exit_quickly(run_command(sys.argv[1:], here, "nbstats.cli.warm_server"))
    return None  # not reached


if __name__ == "__main__":
    sys.exit(main())

"""The ``nbstats`` command's entry point, outside the package on purpose.

Importing :mod:`nbstats` takes a moment (pandas, SciPy, numba); a Ctrl-C in
that moment would print a traceback from deep inside an import. This module
imports nothing heavy: it installs a quiet handler for SIGINT and SIGTERM
first, then imports and runs :func:`nbstats.cli.commands.main`, which installs its own.

When a warm process runs the command (:mod:`nbstats.util.warm`) this process
only passes it the command and waits, so it does not import the package at
all: ``import nbstats`` imports pandas to register the ``DataFrame``
accessor, a third of a second that a warm command would spend for nothing.
The two standard-library modules it needs are read from the package's
directory without running the package's ``__init__``.
"""

from __future__ import annotations

import importlib.util
import signal
import sys
from types import ModuleType


def _interrupted(signum: int, frame: object) -> None:
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_IGN)
    sys.stderr.write(f"nbstats: interrupted ({signal.Signals(signum).name})\n")
    raise SystemExit(128 + signum)


def main() -> int | None:
    """Run the ``nbstats`` command with Ctrl-C quiet from its first moment."""
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, _interrupted)
    try:
        exit_quickly = _standalone("quick_exit").exit_quickly
        run_command = _standalone("warm").run_command
    except (ImportError, OSError):  # an install whose files are not on disk
        from nbstats.util.quick_exit import exit_quickly
        from nbstats.util.warm import run_command

    def here() -> int:
        from nbstats.cli.commands import main as run

        return run()

    # a warm process runs the command when one is ready (nbstats.util.warm)
    exit_quickly(
        run_command(
            sys.argv[1:],
            here,
            "nbstats.cli.warm_server",
            "nbstats.stats.kernel_signatures",
        )
    )
    return None  # not reached


def _standalone(name: str) -> ModuleType:
    """The module ``nbstats.util.<name>`` (standard library only), run from
    its file without importing the ``nbstats`` package (pandas). Kept out of
    ``sys.modules``: a later ``import nbstats`` gets the package's own."""
    package = importlib.util.find_spec("nbstats")  # found, not run
    if package is None or not package.submodule_search_locations:
        raise ModuleNotFoundError("nbstats is not installed", name="nbstats")
    directory = package.submodule_search_locations[0]
    spec = importlib.util.spec_from_file_location(
        f"nbstats_launcher.{name}", f"{directory}/util/{name}.py"
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"nbstats.util.{name} is not a file", name=name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    sys.exit(main())

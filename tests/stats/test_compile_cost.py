"""The first run after installing compiles only the kernels' own code.

A kernel that assigns whole array rows or formats strings makes numba
compile its broadcasting checks and unicode machinery as well: seconds more
on every first run (issue 39). Counted, not timed: the functions numba
compiles for the demo report, in a process with an empty cache.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

_SCRIPT = textwrap.dedent(
    """
    import sys
    from numba.core import event
    from nbstats.cli.commands import main
    with event.install_recorder("numba:compile") as rec:
        status = main(["demo", "-o", sys.argv[1]])
    names = [ev.data["dispatcher"].py_func.__name__
             for _, ev in rec.buffer if not ev.is_start]
    print(status, len(names), " ".join(sorted(set(names))))
    """
)


def test_the_demo_compiles_no_string_machinery(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(tmp_path / "demo.html")],
        env={
            **os.environ,
            "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
            "MPLBACKEND": "Agg",
        },
        capture_output=True,
        text=True,
        timeout=600,
    )
    status, count, names = done.stdout.strip().splitlines()[-1].split(" ", 2)
    assert status == "0", done.stderr
    found = set(names.split())
    assert not found & {"join_list", "_strncpy", "_empty_string", "concat_impl"}
    assert int(count) <= 40, names  # the seven kernels and their helpers: 26

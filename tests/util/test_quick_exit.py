"""exit_quickly: the status, the flushed streams and the exit handlers survive."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("status", [None, 0, 2, 130])
def test_status_streams_and_exit_handlers(tmp_path: Path, status):
    marker = tmp_path / "handler-ran"
    done = _run(
        f"""
        import atexit, sys, tempfile, pathlib
        from nbstats.util.quick_exit import exit_quickly
        kept = tempfile.TemporaryDirectory()  # removed by its exit handler
        pathlib.Path({str(tmp_path)!r}, "dir").write_text(kept.name)
        atexit.register(lambda: pathlib.Path({str(marker)!r}).write_text("yes"))
        sys.stdout.write("buffered, no newline")
        sys.stderr.write("to stderr")
        exit_quickly({status!r})
        print("not reached")
        """
    )
    assert done.returncode == (status or 0)
    assert done.stdout == "buffered, no newline"
    assert done.stderr == "to stderr"
    assert marker.read_text() == "yes"
    assert not Path((tmp_path / "dir").read_text()).exists()


def test_a_closed_stdout_does_not_stop_the_exit(tmp_path: Path):
    done = _run(
        """
        import os, sys
        from nbstats.util.quick_exit import exit_quickly
        sys.stdout.close()
        exit_quickly(3)
        """
    )
    assert done.returncode == 3
    assert "Traceback" not in done.stderr


def test_the_command_keeps_its_status_and_messages(tmp_path: Path):
    done = subprocess.run(
        [sys.executable, "-m", "nbstats.cli", "report", str(tmp_path / "none.csv")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "no such score file" in done.stderr

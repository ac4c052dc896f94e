"""The command's interrupts (nbstats.util.interrupts): noted, honoured before
a report is written, and kept out of numba's and llvmlite's locks.

The lock test shows the hazard first, with Python's own handler: a
KeyboardInterrupt raised inside llvmlite's ``_LLVMLock.__enter__`` leaves the
lock held (a second thread that needs it never ends). With the command's
handler the same signal is handled once the lock's code has run, and the
lock is free.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import nbformat
import pytest

from nbstats.reporting import export
from nbstats.reporting.inprocess import run_cells
from nbstats.util import interrupts


@pytest.fixture
def noted():
    interrupts.clear_interrupts()
    yield
    interrupts.clear_interrupts()


def test_a_noted_interrupt_is_raised_with_its_signal(noted):
    interrupts.raise_recorded_interrupt()  # none noted
    interrupts.record_interrupt(signal.SIGTERM)
    interrupts.record_interrupt(signal.SIGINT)
    assert interrupts.recorded_interrupt() == signal.SIGTERM  # the first
    with pytest.raises(KeyboardInterrupt) as caught:
        interrupts.raise_recorded_interrupt()
    assert caught.value.signum == signal.SIGTERM
    interrupts.clear_interrupts()
    assert interrupts.recorded_interrupt() is None


def test_a_dropped_interrupt_leaves_the_old_report(noted, tmp_path):
    old = tmp_path / "report.html"
    old.write_text("the old report")
    (tmp_path / "report_tables").mkdir()
    (tmp_path / "report_tables" / "t.tex").write_text("old table")
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[v4.new_markdown_cell("new")])
    interrupts.record_interrupt(signal.SIGINT)  # its exception was dropped
    with pytest.raises(KeyboardInterrupt):
        export.write_report(nb, old, "html")
    assert old.read_text() == "the old report"
    assert (tmp_path / "report_tables" / "t.tex").read_text() == "old table"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "report.html",
        "report_tables",
    ]
    interrupts.clear_interrupts()
    export.write_report(nb, old, "html")  # nothing noted: written
    assert "new" in old.read_text()


def test_a_dropped_interrupt_stops_the_cells(noted):
    v4 = nbformat.v4
    nb = v4.new_notebook(
        cells=[
            v4.new_code_cell(
                "from nbstats.util import interrupts\n"
                "import signal\n"
                "interrupts.record_interrupt(signal.SIGTERM)  # as the handler does"
            ),
            v4.new_code_cell("raise AssertionError('the next cell ran')"),
        ]
    )
    with pytest.raises(KeyboardInterrupt) as caught:
        run_cells(nb)
    assert caught.value.signum == signal.SIGTERM


def _lock_callback_frames():
    """Frames seen from inside llvmlite's lock (its acquire callback)."""
    from llvmlite import binding as llvm
    from llvmlite.binding import ffi

    seen = []

    def acquired():
        if not seen:
            seen.append(sys._getframe())

    def released():
        pass

    ffi.register_lock_callback(acquired, released)
    try:
        llvm.get_process_triple()
    finally:
        ffi.unregister_lock_callback(acquired, released)
    return seen


def test_the_lock_code_is_found_on_the_stack():
    pytest.importorskip("llvmlite")
    (frame,) = _lock_callback_frames()
    assert interrupts.inside_compiler_lock(frame)
    assert not interrupts.inside_compiler_lock(sys._getframe())
    from numba.core.compiler_lock import global_compiler_lock

    with global_compiler_lock:  # inside the block the lock is safely held
        assert not interrupts.inside_compiler_lock(sys._getframe())


_SIGNAL_INSIDE_THE_LOCK = textwrap.dedent(
    """
    import signal, sys, threading, time
    from llvmlite import binding as llvm
    from llvmlite.binding import ffi
    from nbstats.cli import commands

    sent = []

    def acquired():  # runs inside _LLVMLock.__enter__, the lock taken
        if not sent:
            sent.append(1)
            signal.raise_signal(signal.SIGINT)  # handled here, at once
            for _ in range(1000):
                pass

    ffi.register_lock_callback(acquired, lambda: None)
    handler = (
        commands._raise_interrupted if sys.argv[1] == "nbstats"
        else signal.default_int_handler
    )
    signal.signal(signal.SIGINT, handler)
    try:
        llvm.get_process_triple()
        deadline = time.monotonic() + 10  # the interrupt comes by then
        while time.monotonic() < deadline:
            pass
        print("NOT INTERRUPTED")
    except KeyboardInterrupt:
        print("INTERRUPTED")
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    other = threading.Thread(target=llvm.get_process_triple, daemon=True)
    other.start()
    other.join(10)
    print("HELD" if other.is_alive() else "FREE", flush=True)
    import os
    os._exit(0)  # a held lock would stop the interpreter's teardown
    """
)


@pytest.mark.parametrize(
    ("handler", "expected"),
    [("python", ["INTERRUPTED", "HELD"]), ("nbstats", ["INTERRUPTED", "FREE"])],
)
def test_an_interrupt_inside_llvmlites_lock(handler, expected):
    pytest.importorskip("llvmlite")
    done = subprocess.run(
        [sys.executable, "-c", _SIGNAL_INSIDE_THE_LOCK, handler],
        env=os.environ, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == expected, done.stderr

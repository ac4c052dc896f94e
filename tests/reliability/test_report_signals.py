"""Interrupting ``nbstats report`` while the notebook executes, for real.

A fresh ``python -m nbstats.cli report`` process gets SIGINT or SIGTERM once
its kernel runs: it must print one line, exit with 128 + the signal's number,
leave the old report byte for byte, leave no temporary file (in the report's
directory, in TMPDIR, in the Jupyter runtime directory) and no kernel behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
import pytest

import nbstats

#: Seconds the kernel may take to appear (a loaded machine), and the command
#: to end after the signal.
KERNEL_START = 45
EXIT_AFTER_SIGNAL = 20


def _kernel_of(process: psutil.Process) -> psutil.Process | None:
    for child in process.children(recursive=True):
        try:
            if any("ipykernel" in part for part in child.cmdline()):
                return child
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return None


def _wait_for_kernel(proc: subprocess.Popen) -> psutil.Process:
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + KERNEL_START
    while time.monotonic() < deadline:
        kernel = _kernel_of(parent)
        if kernel is not None:
            return kernel
        if proc.poll() is not None:
            raise AssertionError(f"ended before its kernel started: {proc.returncode}")
        time.sleep(0.1)
    raise AssertionError(f"no kernel after {KERNEL_START} s")


def _gone(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _interrupt(proc, signum, status, report, wait):
    """``wait()``, then send ``signum`` to the running report; it must exit
    with ``status``, print nothing and say on stderr that ``report`` was left
    unchanged. Returns what ``wait`` returned."""
    try:
        waited = wait()
        assert proc.poll() is None, "the report finished before the signal"
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=EXIT_AFTER_SIGNAL)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    name = signal.Signals(signum).name
    assert proc.returncode == status, err
    assert out == ""
    assert err == f"nbstats: interrupted ({name}); {report} left unchanged\n"
    return waited


def _assert_left_as_it_was(report, old, work, scratch):
    """The old report as it was, nothing new beside it, no scratch files."""
    assert report.read_bytes() == old
    assert sorted(p.name for p in work.iterdir()) == ["scores.csv", "scores.html"]
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize(
    ("signum", "status", "delay"),
    [
        (signal.SIGTERM, 143, 0.5),  # the kernel is starting
        (signal.SIGINT, 130, 3.0),  # the kernel runs the report's cells
        (signal.SIGTERM, 143, 3.0),
    ],
)
def test_a_signal_during_the_report_leaves_the_old_report(
    signum, status, delay, tmp_path
):
    work, scratch, runtime = (tmp_path / d for d in ("work", "tmp", "runtime"))
    for directory in (work, scratch, runtime):
        directory.mkdir()
    nbstats.datasets.load("demsar2006").to_csv(work / "scores.csv")
    old = b"<html>the previous report</html>\n"
    report = work / "scores.html"
    report.write_bytes(old)
    # the report's cells in a fresh kernel (by default they run in-process:
    # test_a_signal_during_in_process_cells_leaves_the_old_report)
    env = dict(os.environ, TMPDIR=str(scratch), JUPYTER_RUNTIME_DIR=str(runtime),
               NBSTATS_REPORT_KERNEL="1")  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "nbstats.cli", "report", "scores.csv"],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

    def kernel_then_delay():
        kernel = _wait_for_kernel(proc)
        time.sleep(delay)
        return kernel

    kernel = _interrupt(proc, signum, status, report, kernel_then_delay)
    _assert_left_as_it_was(report, old, work, scratch)
    assert [p.name for p in runtime.rglob("kernel-*")] == []
    deadline = time.monotonic() + 5
    while not _gone(kernel) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone(kernel), f"the kernel {kernel.pid} survived"


@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)]
)
def test_a_signal_during_in_process_cells_leaves_the_old_report(
    signum, status, tmp_path
):
    """The default: the cells run in the command's process; a signal while
    they run ends it the same way, nothing written, nothing left behind."""
    work, scratch = tmp_path / "work", tmp_path / "tmp"
    for directory in (work, scratch):
        directory.mkdir()
    # 30 algorithms on 80 cases: cells that run for seconds after the 2 s of
    # imports (Demšar's 14 x 4 table, then 20 x 60 once the report was
    # faster, left too little time on a fast machine: the signal could come
    # after the report was written, the CPU time counting both threads)
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(80, 30)) + np.linspace(0.0, 1.0, 30)
    pd.DataFrame(scores, columns=[f"algo{j:02d}" for j in range(30)]).to_csv(
        work / "scores.csv"
    )
    old = b"<html>the previous report</html>\n"
    report = work / "scores.html"
    report.write_bytes(old)
    env = dict(os.environ, TMPDIR=str(scratch))
    env.pop("NBSTATS_REPORT_KERNEL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "nbstats.cli", "report", "scores.csv"],
        cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip

    def into_the_cells():
        # past the imports: into the cells (Plackett-Luce, the pairs, figures)
        watched = psutil.Process(proc.pid)
        deadline = time.monotonic() + KERNEL_START
        while sum(watched.cpu_times()[:2]) < 2.0 and time.monotonic() < deadline:
            time.sleep(0.05)

    _interrupt(proc, signum, status, report, into_the_cells)
    _assert_left_as_it_was(report, old, work, scratch)


def test_an_interrupt_before_any_report_says_nothing_was_written(tmp_path):
    # a signal while the CSV is read: no report existed, none is written
    nbstats.datasets.load("demsar2006").to_csv(tmp_path / "scores.csv")
    code = (
        "import os, signal, sys\n"
        "import nbstats.cli.commands as cli\n"
        "real = cli._prepare\n"
        "def prepare(*a):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return real(*a)\n"
        "cli._prepare = prepare\n"
        "sys.exit(cli.main(['report', 'scores.csv']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 143, done.stderr
    target = Path(tmp_path / "scores.html")
    assert (
        done.stderr == f"nbstats: interrupted (SIGTERM); nothing written to {target}\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.csv"]


def test_an_interrupt_kills_the_kernel_and_propagates():
    # in-process, as Ctrl-C in Jupyter: a stand-in client whose "kernel" is a
    # real process in a session of its own, run until the kernel dies
    import _thread
    import asyncio
    import threading
    from types import SimpleNamespace

    from nbstats.reporting import export

    kernel = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True
    )

    class Client:
        km = SimpleNamespace(provisioner=SimpleNamespace(process=kernel))

        async def async_execute(self, env):
            while kernel.poll() is None:
                await asyncio.sleep(0.02)
            raise RuntimeError("Kernel died")

        def _cleanup_kernel(self):  # registered at exit by nbclient
            pass

    # Ctrl-C until the call gives it back: on a busy CI worker one interrupt
    # can be lost (its handler may run inside a finalizer of an earlier test's
    # objects, where Python prints and drops the exception), so it is sent
    # again each second, and the handler raises only until the test has it
    caught = threading.Event()

    def on_sigint(signum, frame):
        if not caught.is_set():
            raise KeyboardInterrupt

    def interrupt_until_caught():
        delay = 0.3
        while not caught.wait(delay):
            _thread.interrupt_main()
            delay = 1.0

    previous = signal.signal(signal.SIGINT, on_sigint)
    interrupter = threading.Thread(target=interrupt_until_caught, daemon=True)
    try:
        interrupter.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            export._execute_in_thread(Client(), {})
        caught.set()
    finally:
        caught.set()
        interrupter.join()
        signal.signal(signal.SIGINT, previous)
    # a lost interrupt costs a second; the kernel's own end would take 60
    assert time.monotonic() - start < 10
    assert kernel.wait(timeout=5) == -signal.SIGKILL

"""What a killed run leaves behind is cleaned by the next one, and Ctrl-C is
quiet at every moment (issue 30, finding 17).

SIGKILL runs no clean-up: the report's scratch folder (with the kernel's
connection file in it) stays in the temporary folder, the staging folder
beside the report. Every scratch name carries nbstats' tag, the host and the
process id, so the next run removes those whose process is gone -- and only
those.
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
from nbstats.reporting import export

ROOT = str(Path(nbstats.__file__).resolve().parents[1])
#: Seconds the kernel may take to appear on a loaded machine.
KERNEL_START = 60


def small_csv(path: Path) -> Path:
    rng = np.random.default_rng(0)
    table = pd.DataFrame(
        rng.uniform(0.5, 0.9, size=(5, 3)),
        index=pd.Index([f"c{i}" for i in range(5)], name="case"),
        columns=["A", "B", "C"],
    )
    table.to_csv(path)
    return path


def dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "pass"], check=True)
    assert done.returncode == 0
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _old(path: Path) -> None:
    past = time.time() - export.STALE_AFTER - 60
    os.utime(path, (past, past))


def test_only_the_leftovers_of_gone_processes_are_removed(tmp_path):
    host = export.scratch_prefix("x").split("-")[2]
    gone, live = dead_pid(), os.getpid()
    parent = psutil.Process().parent().pid  # alive, not us
    stale = [
        f"nbstats-report-{host}-{gone}-ab12cd_e",
        f"nbstats-latex-{host}-{gone}-zz",
        f".r.html.nbstats-stage-{host}-{gone}-k3j4h5g6.tmp",
        f".r.html.nbstats-probe-{host}-{gone}-k3j4h5g6.probe",
    ]
    kept = [
        f"nbstats-report-{host}-{live}-mine",  # this very process
        f"nbstats-report-{host}-{parent}-busy",  # a live one
        "nbstats-report-fresh123",  # an older nbstats' name, fresh
        "nbstats-reports",  # not a scratch name
        ".r.html.notours.tmp",
        "user.csv",
    ]
    for name in stale + kept:
        if name.endswith((".probe", ".csv")):
            (tmp_path / name).write_text("x")
        else:
            (tmp_path / name).mkdir()
            (tmp_path / name / "kernel.json").write_text("{}")
    legacy = tmp_path / "nbstats-report-old12345"  # an older nbstats', a day old
    legacy.mkdir()
    _old(legacy)
    other_host = tmp_path / f"nbstats-report-ffffff-{gone}-other"
    other_host.mkdir()  # another machine's: its pid means nothing here
    removed = export.remove_stale(tmp_path)
    assert sorted(removed) == sorted([*stale, legacy.name])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*kept, other_host.name]
    )
    _old(other_host)
    assert export.remove_stale(tmp_path) == [other_host.name]


def test_a_symlink_named_like_scratch_is_unlinked_not_followed(tmp_path):
    host = export.scratch_prefix("x").split("-")[2]
    target = tmp_path / "precious"
    target.mkdir()
    (target / "data.txt").write_text("keep me")
    link = tmp_path / f"nbstats-report-{host}-{dead_pid()}-link"
    link.symlink_to(target)
    assert export.remove_stale(tmp_path) == [link.name]
    assert (target / "data.txt").read_text() == "keep me"


def test_a_report_cleans_what_an_older_killed_report_left(tmp_path):
    # the report's own directory: the staging folder of a killed report
    work = tmp_path / "work"
    work.mkdir()
    small_csv(work / "scores.csv")
    legacy = work / ".scores.html.a1b2c3d4.tmp"  # an older nbstats' name
    legacy.mkdir()
    _old(legacy)
    host = export.scratch_prefix("x").split("-")[2]
    stage = work / f".scores.html.nbstats-stage-{host}-{dead_pid()}-q1w2e3r4.tmp"
    stage.mkdir()
    export.check_target(work / "scores.html")
    assert sorted(p.name for p in work.iterdir()) == ["scores.csv"]


def _kernel_of(process: psutil.Process) -> psutil.Process | None:
    for child in process.children(recursive=True):
        try:
            if any("ipykernel" in part for part in child.cmdline()):
                return child
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return None


def test_the_run_after_a_sigkill_leaves_the_temporary_folder_clean(tmp_path):
    work, scratch, runtime = (tmp_path / d for d in ("work", "tmp", "runtime"))
    for directory in (work, scratch, runtime):
        directory.mkdir()
    small_csv(work / "scores.csv")
    # a kernel's scratch folder: the report's cells in a fresh kernel
    env = dict(os.environ, TMPDIR=str(scratch), JUPYTER_RUNTIME_DIR=str(runtime),
               PYTHONPATH=ROOT, NBSTATS_REPORT_KERNEL="1")  # fmt: skip
    command = [sys.executable, "-m", "nbstats.cli", "report", "scores.csv"]
    proc = subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    kernel = None
    try:
        parent = psutil.Process(proc.pid)
        deadline = time.monotonic() + KERNEL_START
        while kernel is None and time.monotonic() < deadline:
            assert proc.poll() is None, "the report ended before its kernel started"
            kernel = _kernel_of(parent)
            time.sleep(0.05)
        assert kernel is not None
        time.sleep(0.5)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        if kernel is not None and kernel.is_running():
            kernel.kill()
    left = sorted(p.name for p in scratch.iterdir())
    assert left, "SIGKILL leaves the scratch folder (nothing to clean up?)"
    # the next report cleans it, and leaves nothing of its own
    done = subprocess.run(command, cwd=work, env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert list(scratch.iterdir()) == [], left
    assert sorted(p.name for p in work.iterdir()) == ["scores.csv", "scores.html"]


# -- Ctrl-C ---------------------------------------------------------------------

#: Run the command as the console script does, saying when nbstats is imported.
SCRIPT = (
    "import sys\n"
    "from nbstats.cli.commands import main\n"
    "print('imported', flush=True)\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def _before_main(err: str) -> bool:
    """Whether the interrupt came before SCRIPT called nbstats' main (a busy
    machine can be that slow after "imported"): the traceback is the
    script's own, with no frame of nbstats -- nothing nbstats printed."""
    return (
        err.startswith("Traceback")
        and err.rstrip().endswith("KeyboardInterrupt")
        and "nbstats" not in err
    )


@pytest.mark.parametrize("delay", [0.0, 0.003, 0.01, 0.03, 0.1, 0.3])
def test_ctrl_c_at_any_moment_of_a_command_prints_one_line(delay, tmp_path):
    small_csv(tmp_path / "scores.csv")
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, "analyze", "scores.csv", "--detail",
         "frequentist"],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=ROOT),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert proc.stdout.readline() == "imported\n"
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    if _before_main(err):
        return
    assert "Traceback" not in err, err
    if proc.returncode == 0:  # it finished first
        assert "Friedman" in out
    else:
        assert proc.returncode == 130, err
        assert err == "nbstats: interrupted (SIGINT)\n"


@pytest.mark.parametrize("when", ["first", "last"])
def test_ctrl_c_on_the_first_or_last_line_of_main_prints_one_line(
    when, tmp_path, monkeypatch, capsys
):
    """The moments before the command's quiet handler is in place and after
    it is gone (delay 0 above hits the first only now and then)."""
    from nbstats.cli.commands import main
    from nbstats.util import interrupts

    calls = []

    def clear():
        calls.append(1)
        if (when == "first" and len(calls) == 1) or (
            when == "last" and len(calls) == 2
        ):
            raise KeyboardInterrupt

    monkeypatch.setattr(interrupts, "clear_interrupts", clear)
    small_csv(tmp_path / "scores.csv")
    monkeypatch.chdir(tmp_path)
    status = main(["analyze", "scores.csv", "--detail", "frequentist"])
    out, err = capsys.readouterr()
    if when == "first":
        assert (status, out, err) == (130, "", "nbstats: interrupted (SIGINT)\n")
    else:  # the command had finished: its output and status stand
        assert (status, err) == (0, "")
        assert "Friedman" in out


#: The ``nbstats`` command as installed (its console script).
CONSOLE_SCRIPT = Path(sys.executable).with_name("nbstats")


@pytest.mark.skipif(not CONSOLE_SCRIPT.exists(), reason="nbstats is not installed")
@pytest.mark.parametrize("delay", [0.15, 0.3, 0.5])
def test_ctrl_c_while_nbstats_is_imported_prints_no_traceback(delay, tmp_path):
    small_csv(tmp_path / "scores.csv")
    proc = subprocess.Popen(
        [str(CONSOLE_SCRIPT), "analyze", "scores.csv", "--detail", "frequentist"],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=ROOT),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err


def test_a_dropped_interrupt_still_stops_the_dashboard(tmp_path, monkeypatch, capsys):
    # Python drops an exception raised inside a finalizer: a Ctrl-C whose
    # KeyboardInterrupt is raised there must still keep Voilà from starting
    # (CI: the dashboard served on after one Ctrl-C, and its handler was gone)
    import threading

    from nbstats.app import process as serve_process
    from nbstats.cli.commands import main

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are the main thread's")

    def dropped(folder):  # called just before Voilà would start
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)  # the handler raises here
        except KeyboardInterrupt:
            pass  # as a finalizer's exception is dropped

    def popen(*args, **kwargs):
        raise AssertionError("Voilà was started after a Ctrl-C")

    monkeypatch.setattr(serve_process, "remove_stale", dropped)
    monkeypatch.setattr(serve_process.subprocess, "Popen", popen)
    small_csv(tmp_path / "scores.csv")
    monkeypatch.chdir(tmp_path)
    before = signal.getsignal(signal.SIGINT)
    assert main(["dashboard", "scores.csv", "--kind", "ranks"]) == 130
    assert capsys.readouterr().err.endswith("nbstats: interrupted (SIGINT)\n")
    assert signal.getsignal(signal.SIGINT) is before  # the caller's, restored


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2])
def test_ctrl_c_before_the_dashboard_serves_prints_one_line(delay, tmp_path):
    # the CSV is read and the page built before Voilà starts: a Ctrl-C then
    # gave a KeyboardInterrupt traceback
    small_csv(tmp_path / "scores.csv")
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, "dashboard", "scores.csv", "--kind", "ranks"],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=ROOT),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline() == "imported\n"
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    if _before_main(err):
        return
    assert "Traceback" not in err, err
    if proc.returncode == 130:
        assert err == "nbstats: interrupted (SIGINT)\n"
    else:  # Voilà had started: the server stopped it
        assert proc.returncode == 0, err
        assert "stopping Voilà" in err

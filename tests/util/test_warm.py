"""The command's warm process (nbstats.util.warm): the same output, status and
signals as a process of its own; a key per interpreter, sources and settings."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
import pytest

from nbstats.util import warm

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or not hasattr(socket, "send_fds"),
    reason="a warm process needs fork and Unix sockets",
)

# a command run through run_command: run_here fails, so that a zero status
# and the right output prove the warm process ran it
_REMOTE = textwrap.dedent(
    """
    import sys
    from nbstats.util.warm import run_command
    def here():
        print("RAN HERE", file=sys.stderr)
        return 99
    sys.exit(run_command(sys.argv[1:], here, "nbstats.cli.warm_server"))
    """
)


@pytest.fixture
def warm_env():
    """An environment with the warm process on, its socket in a temporary
    directory of its own; every warm process started with it is ended
    afterwards."""
    import shutil
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="nbw", dir="/tmp"))
    env = {
        **os.environ,
        "NBSTATS_WARM": "1",
        "NBSTATS_WARM_IDLE": "120",
        "TMPDIR": str(tmp),
    }
    yield env
    for process in _warm_processes(str(tmp)):
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()
    shutil.rmtree(tmp, ignore_errors=True)


def _warm_processes(tmpdir: str) -> list[psutil.Process]:
    """The warm processes started with ``TMPDIR=tmpdir`` (this test's)."""
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if "nbstats.cli.warm_server" in (process.info["cmdline"] or []):
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                if process.environ().get("TMPDIR") == tmpdir:
                    found.append(process)
    return found


def _table(path: Path, rows: int = 12, columns: int = 4) -> Path:
    rng = np.random.default_rng(1)
    values = rng.normal(0.8, 0.02, size=(rows, columns)) + np.linspace(0, 0.03, columns)
    values[2, 1] = np.nan
    frame = pd.DataFrame(
        values,
        index=pd.Index([f"data set {i}" for i in range(rows)], name="case"),
        columns=[f"algorithm {j}" for j in range(columns)],
    )
    frame.to_csv(path)
    return path


def _command(args, env, cwd, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nbstats.cli", *args],
        env=env, cwd=cwd, capture_output=True, text=True, timeout=300, **kw,
    )  # fmt: skip


def _wait_for_socket(env: dict, timeout: float = 120.0) -> None:
    directory = Path(env["TMPDIR"]) / f"nbstats-{os.getuid()}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(directory.glob("warm-*.sock")):
            return
        time.sleep(0.2)
    raise AssertionError("no warm process came up")


def test_the_warm_process_gives_the_output_status_and_directory_of_its_own(
    warm_env, tmp_path
):
    work = tmp_path / "work"
    work.mkdir()
    _table(work / "scores.csv")
    args = ["analyze", "scores.csv", "--nan-policy", "pairwise"]  # a relative path
    alone = _command(args, {**warm_env, "NBSTATS_WARM": "0"}, work)
    first = _command(args, warm_env, work)  # runs here, then starts one
    assert first.returncode == alone.returncode == 0
    _wait_for_socket(warm_env)
    served = subprocess.run(
        [sys.executable, "-c", _REMOTE, *args],
        env=warm_env, cwd=work, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert "RAN HERE" not in served.stderr
    assert served.returncode == 0
    assert served.stdout == alone.stdout == first.stdout
    # bad data: the same message and status
    missing = subprocess.run(
        [sys.executable, "-c", _REMOTE, "analyze", "none.csv"],
        env=warm_env, cwd=work, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert missing.returncode == 2
    assert "no such score file" in missing.stderr and "RAN HERE" not in missing.stderr
    # a report written by the warm process, where the caller is
    report = _command(
        ["report", "scores.csv", "-o", "r.html", "--nan-policy", "pairwise"],
        warm_env,
        work,
    )
    assert report.returncode == 0 and (work / "r.html").stat().st_size > 10_000
    # the caller's umask, not the warm process's
    private = subprocess.run(
        [sys.executable, "-c",
         "import os, sys; os.umask(0o077); sys.argv[1:] = sys.argv[2:]; "
         + _REMOTE, "x", "report", "scores.csv", "-o",
         "p.html", "--nan-policy", "pairwise"],
        env=warm_env, cwd=work, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert private.returncode == 0 and "RAN HERE" not in private.stderr
    assert (work / "p.html").stat().st_mode & 0o077 == 0


def _with_a_warm_process(env: dict, tmp_path: Path) -> Path:
    """A working directory, after a command there started a warm process."""
    work = tmp_path / "work"
    work.mkdir()
    _table(work / "small.csv")
    _command(["analyze", "small.csv"], env, work)
    _wait_for_socket(env)
    return work


# the ``nbstats`` console script's own function, as the installed script runs it;
# at exit (exit_quickly runs the exit handlers) it says whether pandas came in
_LAUNCHER = textwrap.dedent(
    """
    import atexit, sys
    import nbstats_launcher
    atexit.register(
        lambda: print("PANDAS", "pandas" in sys.modules, file=sys.stderr)
    )
    sys.argv = ["nbstats", *sys.argv[1:]]
    nbstats_launcher.main()
    """
)


def test_the_launcher_leaves_pandas_to_the_warm_process(warm_env, tmp_path):
    # served by a warm process, the command's own process imports neither
    # nbstats nor pandas; with none (NBSTATS_WARM=0) it runs the command itself
    work = _with_a_warm_process(warm_env, tmp_path)
    args = ["analyze", "small.csv", "--nan-policy", "pairwise"]
    served = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *args],
        env=warm_env, cwd=work, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    alone = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *args],
        env={**warm_env, "NBSTATS_WARM": "0"}, cwd=work, capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert served.returncode == alone.returncode == 0
    assert served.stdout == alone.stdout and "Friedman" in served.stdout
    assert "PANDAS False" in served.stderr
    assert "PANDAS True" in alone.stderr


def test_the_launcher_imports_the_package_when_the_files_are_not_found(
    warm_env, tmp_path
):
    # an install whose modules are not files: the launcher imports them from
    # the package, and the command runs as ever
    work = tmp_path / "work"
    work.mkdir()
    _table(work / "small.csv")
    no_files = (
        "import nbstats_launcher\n"
        "def _missing(name):\n"
        "    raise ImportError(name)\n"
        "nbstats_launcher._standalone = _missing\n" + _LAUNCHER
    )
    done = subprocess.run(
        [sys.executable, "-c", no_files, "analyze", "small.csv", "--nan-policy",
         "pairwise"],
        env={**warm_env, "NBSTATS_WARM": "0"}, cwd=work, capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Friedman" in done.stdout and "PANDAS True" in done.stderr


def test_a_signal_to_the_caller_reaches_the_command(warm_env, tmp_path):
    work = _with_a_warm_process(warm_env, tmp_path)
    # long enough to be interrupted: many algorithms, the Bayesian analyses
    _table(work / "big.csv", rows=60, columns=40)
    caller = subprocess.Popen(
        [sys.executable, "-c", _REMOTE, "report", "big.csv", "-o", "big.html",
         "--nan-policy", "pairwise"],
        env=warm_env, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    time.sleep(2.0)
    caller.send_signal(signal.SIGTERM)
    _, err = caller.communicate(timeout=120)
    assert caller.returncode == 128 + signal.SIGTERM, err
    assert "interrupted (SIGTERM)" in err and "RAN HERE" not in err
    assert not (work / "big.html").exists()


def test_a_stopped_warm_process_takes_its_socket_along(warm_env, tmp_path):
    _with_a_warm_process(warm_env, tmp_path)
    directory = Path(warm_env["TMPDIR"]) / f"nbstats-{os.getuid()}"
    (socket_file,) = directory.glob("warm-*.sock")
    (process,) = _warm_processes(warm_env["TMPDIR"])
    process.terminate()
    process.wait(30)
    assert not socket_file.exists()


def test_enabled_only_for_the_batch_commands(monkeypatch):
    monkeypatch.setenv("NBSTATS_WARM", "1")
    assert warm.enabled(["report", "a.csv"]) and warm.enabled(["demo"])
    assert not warm.enabled(["dashboard", "a.csv"])
    assert not warm.enabled(["report", "--help"])
    assert not warm.enabled([])
    assert not warm.enabled(["report", "-", "-o", "r.html"])  # scores on stdin
    monkeypatch.setenv("NBSTATS_WARM", "0")
    assert not warm.enabled(["report", "a.csv"])


def test_the_key_follows_the_import_time_settings(monkeypatch, tmp_path):
    package = tmp_path / "package"
    package.mkdir()
    (package / "a.py").write_text("x = 1\n")
    key = warm.server_key(package)
    assert warm.server_key(package) == key
    monkeypatch.setenv("SOMETHING_ELSE", "1")  # not read at import time
    monkeypatch.setenv("NBSTATS_COMPILE_AHEAD", "0")  # read by the launcher
    monkeypatch.setenv("NBSTATS_WARM_IDLE", "60")  # by the warm process
    assert warm.server_key(package) == key
    monkeypatch.setenv("NBSTATS_MAX_MEMORY", "1G")
    other = warm.server_key(package)
    assert other != key
    (package / "a.py").write_text("x = 22\n")  # the sources changed
    changed = warm.server_key(package)
    assert changed != other
    templates = tmp_path / "report_templates" / "nbstats-paper"
    templates.mkdir(parents=True)  # a source checkout's templates, beside it
    (templates / "index.html.j2").write_text("{{ 1 }}")
    with_templates = warm.server_key(package)
    assert with_templates != changed
    (templates / "style.css").write_text("p { margin: 0 }")
    assert warm.server_key(package) != with_templates


def test_a_socket_left_behind_is_removed(monkeypatch, warm_env):
    monkeypatch.setenv("TMPDIR", warm_env["TMPDIR"])
    monkeypatch.setattr("tempfile.tempdir", None)
    path = warm.socket_path("deadbeef")
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(path))
    dead.close()  # bound, never listening: as after a crash
    assert path.exists()
    assert warm.connect("deadbeef") is None
    assert not path.exists()


def test_a_long_temporary_directory_gets_a_short_socket_path(monkeypatch, tmp_path):
    long = tmp_path / ("x" * 80)
    long.mkdir()
    monkeypatch.setenv("TMPDIR", str(long))
    monkeypatch.setattr("tempfile.tempdir", None)
    path = warm.socket_path("0" * 24)
    assert len(os.fsencode(path)) < 100
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(str(path))  # a path the system takes
    finally:
        listener.close()
        path.unlink()
        path.parent.rmdir()


def test_a_shared_socket_directory_is_refused(monkeypatch, warm_env):
    short = warm_env["TMPDIR"]  # short enough to be used as it is
    monkeypatch.setenv("TMPDIR", short)
    monkeypatch.setattr("tempfile.tempdir", None)
    directory = Path(short) / f"nbstats-{os.getuid()}"
    directory.mkdir(mode=0o777)
    directory.chmod(0o777)
    with pytest.raises(PermissionError, match="not private"):
        warm.socket_path("deadbeef")
    assert warm.connect("deadbeef") is None


_SERVER = textwrap.dedent(
    """
    import sys
    from nbstats.util import warm
    def run(argv):
        if argv[0] == "none":
            sys.exit()
        if argv[0] == "message":
            sys.exit("a message")
        if argv[0] == "frozen":  # the warm process's objects: out of gc's reach
            import gc
            return 0 if gc.get_freeze_count() > 0 else 9
        return int(argv[0])
    warm.serve(sys.argv[1], run=run, warm_up=lambda: None)
    """
)


def test_the_fork_ends_with_the_status_python_would_give(warm_env):
    # sys.exit() is success, sys.exit("text") prints the text and is 1, a
    # returned status is itself; and a connection that is not a caller's
    # request leaves the warm process serving. The fork finds the warm
    # process's objects frozen (gc.freeze: its collections copy no page)
    key = "f" * 24
    server = subprocess.Popen(
        [sys.executable, "-c", _SERVER, key], env=warm_env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_for_socket(warm_env)
        client = f"""
import os, socket, sys
os.environ["TMPDIR"] = {warm_env["TMPDIR"]!r}
from nbstats.util import warm
if sys.argv[1] == "junk":
    stray = warm.connect({key!r})
    stray.sendall(b"not a request")
    stray.close()
    sys.exit(0)
sys.exit(warm.run_remote(warm.connect({key!r}), sys.argv[1:]))
"""
        statuses = {}
        for argv in (["junk"], ["none"], ["message"], ["3"], ["0"], ["frozen"]):
            done = subprocess.run(
                [sys.executable, "-c", client, *argv], env=warm_env,
                capture_output=True, text=True, timeout=60,
            )  # fmt: skip
            statuses[argv[0]] = (done.returncode, done.stderr.strip())
        assert statuses == {
            "junk": (0, ""),
            "none": (0, ""),
            "message": (1, "a message"),
            "3": (3, ""),
            "0": (0, ""),
            "frozen": (0, ""),
        }
    finally:
        server.terminate()
        server.wait(30)

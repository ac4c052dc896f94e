"""The kernels compiled beside a command's first run
(nbstats.stats.kernel_signatures), and when that process starts
(nbstats.util.warm).

Oracles: numba itself. The recorded argument types must be exactly those
:func:`~nbstats.stats.compile_ahead.compile_kernels` (the small analyses of
every kernel a report calls) makes numba compile in a new process; after the
light process has run, a demo, a report with holes and ``analyze`` compile
nothing (numba's compile events fire on a cache miss only); and that process
imports neither pandas nor SciPy's statistics.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from nbstats.stats import kernel_signatures
from nbstats.util import warm
from tests.stats.test_compile_ahead import ahead_env, assert_nothing_compiled

_COMPILED = (
    "import sys\n"
    "from nbstats.stats.compile_ahead import compile_kernels\n"
    "from nbstats.stats.kernel_signatures import compile_listed, compiled_signatures\n"
    "compile_kernels() if sys.argv[1] == 'analyses' else compile_listed()\n"
    "for found in sorted(compiled_signatures()):\n"
    "    print(repr(found))\n"
)


def _compiled(tmp_path, how: str) -> set[tuple[str, str, str]]:
    """What numba compiles in a new process with an empty cache."""
    done = subprocess.run(
        [sys.executable, "-c", _COMPILED, how],
        env=ahead_env(tmp_path / how), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return {eval(line) for line in done.stdout.splitlines() if line.startswith("(")}


def test_the_recorded_types_are_those_a_report_compiles(tmp_path):
    # the kernels they call are compiled with them (and cached): the same set
    by_analyses = _compiled(tmp_path, "analyses")
    assert set(kernel_signatures.KERNELS) <= by_analyses
    assert _compiled(tmp_path, "listed") == by_analyses


def _light(tmp_path, module: str, *args: str) -> subprocess.CompletedProcess:
    """``module.main(*args)`` started as :func:`nbstats.util.warm.start_light`
    starts it, but waited for."""
    env = ahead_env(tmp_path)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", warm.LIGHT_START, str(warm.PACKAGE_DIR), module,
         *args],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def test_the_light_process_imports_no_pandas(tmp_path):
    (tmp_path / "probe.py").write_text(
        "import sys\n"
        "def main():\n"
        "    from nbstats.stats.kernel_signatures import compile_listed\n"
        "    compile_listed()\n"
        "    print(sorted(m for m in ('pandas', 'scipy.stats', 'matplotlib')"
        " if m in sys.modules))\n"
    )
    done = _light(tmp_path, "probe")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["[]"]


def test_after_the_light_process_a_report_compiles_nothing(tmp_path):
    stamp, running = tmp_path / "compiled-x", tmp_path / "compiling-x"
    running.touch()
    done = _light(tmp_path, "nbstats.stats.kernel_signatures", str(stamp), str(running))
    assert done.returncode == 0, done.stderr[-3000:]
    assert stamp.exists() and not running.exists()
    assert_nothing_compiled(tmp_path, "fresh")


def test_only_the_commands_that_call_kernels_compile_ahead(monkeypatch):
    monkeypatch.delenv("NBSTATS_COMPILE_AHEAD", raising=False)
    assert warm.compiles_ahead(["report", "a.csv"])
    assert warm.compiles_ahead(["demo"]) and warm.compiles_ahead(["analyze", "a.csv"])
    assert not warm.compiles_ahead(["coverage", "a.csv"])
    assert not warm.compiles_ahead(["dashboard", "a.csv"])
    assert not warm.compiles_ahead(["report", "--help"])
    assert not warm.compiles_ahead([])
    monkeypatch.setenv("NBSTATS_COMPILE_AHEAD", "0")
    assert not warm.compiles_ahead(["report", "a.csv"])


def _ahead_env(monkeypatch, tmp_path) -> list[tuple[str, ...]]:
    monkeypatch.delenv("NBSTATS_COMPILE_AHEAD", raising=False)
    monkeypatch.setenv("NBSTATS_WARM", "0")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    started: list[tuple[str, ...]] = []
    monkeypatch.setattr(warm, "start_light", lambda *args: started.append(args))
    return started


def test_it_starts_until_it_has_left_its_stamp(monkeypatch, tmp_path):
    started = _ahead_env(monkeypatch, tmp_path)
    status = warm.run_command(["demo"], lambda: 0, "server", "ahead")
    assert status == 0
    ((module, stamp, running),) = started
    assert module == "ahead"
    assert stamp == str(warm.compiled_stamp(warm.server_key(warm.PACKAGE_DIR)))
    open(stamp, "w").close()  # what it does at its end
    os.unlink(running)
    warm.run_command(["demo"], lambda: 0, "server", "ahead")
    warm.run_command(["coverage", "a.csv"], lambda: 0, "server", "ahead")
    assert len(started) == 1


def test_commands_started_together_start_one(monkeypatch, tmp_path):
    started = _ahead_env(monkeypatch, tmp_path)
    for _ in range(3):  # the first is still compiling
        warm.run_command(["report", "a.csv"], lambda: 0, "server", "ahead")
    assert len(started) == 1
    running = Path(started[0][2])
    old = time.time() - warm.AHEAD_STALE_SECONDS - 1
    os.utime(running, (old, old))  # a compilation that died long ago
    warm.run_command(["report", "a.csv"], lambda: 0, "server", "ahead")
    assert len(started) == 2 and started[1][2] == str(running)


def test_it_leaves_its_stamp_and_removes_its_running_file(tmp_path):
    stamp, running = tmp_path / "compiled-x", tmp_path / "compiling-x"
    running.touch()
    kernel_signatures.main(str(stamp), str(running))
    assert stamp.exists() and not running.exists()

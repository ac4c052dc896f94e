"""Shared fixtures: bundled tables and the external oracles (R)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading

import pandas as pd
import pytest

import nbstats

# The scripts beside the data (tests/data/make_*.py) are not tests: collecting
# them for doctests puts tests/data on sys.path, where a data folder named like
# a library (a "coverage" folder hid coverage.py from numba) shadows it.
collect_ignore_glob = ["data/*"]

# figures render headless, in the tests as in CI
os.environ.setdefault("MPLBACKEND", "Agg")
# every command a test runs in a process of its own: no warm process left
# behind by the suite (tests/util/test_warm.py turns it on where it is tested)
os.environ["NBSTATS_WARM"] = "0"
# nor a second process compiling the kernels beside a command's first run
# (tests/stats/test_kernel_signatures.py runs it where it is tested)
os.environ["NBSTATS_COMPILE_AHEAD"] = "0"
# what nbstats keeps between runs (the LaTeX .aux of reports) stays out of
# the user's cache, and one test's leftovers out of another session's
os.environ["NBSTATS_CACHE_DIR"] = tempfile.mkdtemp(prefix="nbstats-test-cache-")


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as in a terminal. A runner started in the background by a shell
    without job control (``./.ci/run &``, many CI agents) hands the tests
    SIGINT ignored, and every process they start inherits that: Python then
    installs no KeyboardInterrupt handler, ``_thread.interrupt_main`` does
    nothing, and a Ctrl-C sent to a command before it installs its own
    handlers is lost -- the interrupt tests would hang or test nothing."""
    main = threading.current_thread() is threading.main_thread()
    if main and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


#: Set by .ci/run: a missing oracle (Rscript, an R package) fails instead of skipping.
REQUIRE_ORACLES = os.environ.get("NBSTATS_REQUIRE_ORACLES") == "1"

#: Flags for Debian's chromium driven by Playwright (never `playwright install`):
#: headless, no sandbox in containers, nothing fetched from the network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    # QUIC (HTTP/3) probes are refused by the closed network: noise in the logs
    "--disable-quic",
]


@pytest.fixture(autouse=True)
def _report_state_kept():
    """What a report's first cell sets (float numbers, typography, venue) is
    put back after each test: tests that call ``display.start`` themselves
    would otherwise leave later tests' figures without titles."""
    from nbstats.reporting.display import kept_state

    with kept_state():
        yield


@pytest.fixture
def table6() -> pd.DataFrame:
    """Demšar (2006) Table 6 with the paper's tie-break on 'voting'."""
    return nbstats.datasets.load("demsar2006")


@pytest.fixture
def table2() -> pd.DataFrame:
    """Demšar (2006) Table 2."""
    return nbstats.datasets.load("demsar2006_table2")


def unavailable(reason: str) -> None:
    """Skip a test whose tool or package is missing, or fail it when CI
    requires every oracle (NBSTATS_REQUIRE_ORACLES=1)."""
    if REQUIRE_ORACLES:
        pytest.fail(f"oracle unavailable in CI: {reason}")
    pytest.skip(reason)


_missing = unavailable


def require_executable(name: str, install_hint: str) -> str:
    """Path of an external program; skip without it, unless CI requires oracles."""
    path = shutil.which(name)
    if path is None:
        _missing(f"{name} not installed ({install_hint})")
    return path


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium under Playwright, one per test module."""
    chromium = require_executable("chromium", "apt-get install chromium")
    if importlib.util.find_spec("playwright") is None:
        unavailable("Python package playwright not installed (pip install playwright)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="session")
def run_r():
    """Run an R script and return its stdout parsed as JSON.

    The script must ``cat()`` one JSON document (build it with ``sprintf`` or
    ``paste``; no R JSON package is assumed). Skips when Rscript is absent,
    unless NBSTATS_REQUIRE_ORACLES=1.
    """
    rscript = shutil.which("Rscript")
    if rscript is None:
        _missing("Rscript not installed (apt-get install r-base-core r-cran-coin)")

    def run(script: str, packages: tuple[str, ...] = ()) -> object:
        for package in packages:
            probe = subprocess.run(
                [
                    rscript,
                    "-e",
                    f"quit(status = !requireNamespace('{package}', quietly = TRUE))",
                ],
                capture_output=True,
            )
            if probe.returncode != 0:
                _missing(
                    f"R package {package!r} not installed (apt-get install r-cran-{package})"
                )
        # a file, not -e: Rscript truncates -e expressions beyond 10,000 bytes
        with tempfile.NamedTemporaryFile("w", suffix=".R", delete=False) as handle:
            handle.write(script)
        try:
            done = subprocess.run(
                [rscript, "--vanilla", handle.name],
                capture_output=True,
                text=True,
                timeout=300,
            )
        finally:
            os.unlink(handle.name)
        if done.returncode != 0:
            raise RuntimeError(f"R failed:\n{done.stderr}")
        return json.loads(done.stdout)

    return run

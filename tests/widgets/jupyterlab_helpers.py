"""A private JupyterLab server for a browser test.

``jupyter lab`` runs from this venv on 127.0.0.1 and a free port, with a
random token, no browser, and every Jupyter and IPython directory in the
test's temporary directory: the user's configuration, kernels, workspaces and
settings are never read nor written. Nothing is fetched from the network (no
news, no update check, no extension manager queries).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

#: Seconds the server may take to stop (it shuts its kernels down first; CI
#: runs two test workers on two cores).
STOP_SECONDS = 60

#: JupyterLab's user settings: no news or update notifications (both would
#: ask the network), nothing else changed.
USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}


@dataclass(frozen=True)
class Lab:
    """A running JupyterLab: its base URL, token, notebook directory and
    runtime directory (where its kernels' connection files are)."""

    url: str
    token: str
    root: Path
    runtime: Path

    def kernels(self) -> list[int]:
        """Pids of the kernels running for this server."""
        return processes_mentioning(str(self.runtime))

    def notebook_url(self, name: str) -> str:
        return f"{self.url}lab/tree/{name}?token={self.token}&reset"


def free_port() -> int:
    """A port no one listens on now (the server retries the next ones if
    another worker takes it first, and the test reads the port it got)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fresh_copy(notebook: Path, root: Path) -> Path:
    """``notebook`` copied into ``root`` without its outputs, execution
    counts or saved widget state: whatever the page shows comes from the
    kernel started by the test."""
    document = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in document["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    document["metadata"].pop("widgets", None)
    copy = root / notebook.name
    copy.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return copy


def private_environment(home: Path) -> dict[str, str]:
    """The environment of the server: Jupyter's and IPython's directories
    under ``home``, with this venv's Python as the only ``python3`` kernel."""
    env = dict(os.environ)
    for variable, name in [
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ]:
        (home / name).mkdir(parents=True, exist_ok=True)
        env[variable] = str(home / name)
    for variable in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "MPLBACKEND"):
        # MPLBACKEND: the suite's Agg would hide the notebook's inline figures
        env.pop(variable, None)
    # the user data directory first in Jupyter's path (in a venv the venv's
    # comes first otherwise): this spec wins over any other python3 kernel
    env["JUPYTER_PREFER_ENV_PATH"] = "0"
    spec = home / "data" / "kernels" / "python3"
    spec.mkdir(parents=True, exist_ok=True)
    kernel = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (nbstats venv)",
        "language": "python",
    }
    (spec / "kernel.json").write_text(json.dumps(kernel))
    settings = home / "config" / "lab" / "user-settings"
    for name, values in USER_SETTINGS.items():
        path = settings / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    return env


def _server_info(runtime: Path, pid: int) -> dict | None:
    """What the server wrote about itself once listening (its real port)."""
    path = runtime / f"jpserver-{pid}.json"
    with contextlib.suppress(OSError, ValueError):
        return json.loads(path.read_text())
    return None


def _wait_until_listening(
    process: subprocess.Popen, runtime: Path, log: Path, timeout: float
) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (info := _server_info(runtime, process.pid)) is not None:
            return info
        if process.poll() is not None:
            pytest.fail(
                f"jupyter lab exited ({process.returncode}):\n{log.read_text()}"
            )
        time.sleep(0.1)
    pytest.fail(f"jupyter lab did not start in {timeout} s:\n{log.read_text()}")


def processes_mentioning(path: str) -> list[int]:
    """Pids whose command line names ``path`` (kernels of the server)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if path in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
    return found


def _shut_down(lab: Lab) -> None:
    """``POST /api/shutdown``: the server stops its kernels, then exits."""
    request = urllib.request.Request(
        f"{lab.url}api/shutdown",
        method="POST",
        headers={"Authorization": f"token {lab.token}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status in (200, 202, 204), response.status


@contextlib.contextmanager
def jupyter_lab(tmp_path: Path, notebook: Path, extra_env: dict[str, str]):
    """Run JupyterLab on a fresh copy of ``notebook``; yield a :class:`Lab`.

    After the test the server is shut down through its API and must exit
    with status 0, leaving no kernel running.
    """
    home = tmp_path / "jupyter"
    root = tmp_path / "notebooks"
    root.mkdir()
    fresh_copy(notebook, root)
    env = private_environment(home) | extra_env
    token = secrets.token_hex(24)
    log = tmp_path / "lab.log"
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={free_port()}",
        f"--ServerApp.root_dir={root}",
        f"--IdentityProvider.token={token}",
        "--ServerApp.open_browser=False",
        # containers and CI machines often run tests as root
        "--ServerApp.allow_root=True",
        # offline: no news, no update check, no PyPI queries for extensions
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
        "--LabApp.collaborative=False",
    ]
    with log.open("w") as sink:
        process = subprocess.Popen(
            command,
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group: the server and its kernels
        )
    runtime = home / "runtime"
    lab = None
    try:
        info = _wait_until_listening(process, runtime, log, timeout=60)
        url = f"http://127.0.0.1:{info['port']}/"
        lab = Lab(url=url, token=token, root=root, runtime=runtime)
        yield lab
    finally:
        if process.poll() is None:
            try:
                if lab is None:  # never listened: SIGTERM stops it cleanly
                    raise OSError("no server to ask")
                _shut_down(lab)
            except OSError:  # the API did not answer: SIGTERM also stops cleanly
                process.terminate()
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            pytest.fail(f"jupyter lab did not stop:\n{log.read_text()}")
        text = log.read_text(errors="replace")
        # kernels run with connection files in the runtime directory
        strays = processes_mentioning(str(runtime))
        for pid in strays:  # started (indirectly) by this test
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        assert not strays, f"kernels left running: {strays}\n{text}"
        assert process.returncode == 0, text
        # a clean stop removes the server's own runtime file
        assert not (runtime / f"jpserver-{process.pid}.json").exists(), text
        shutil.rmtree(home, ignore_errors=True)

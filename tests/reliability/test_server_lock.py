"""``nbstats dashboard`` is locked: a token, a kernel cap, idle culling.

Real servers (the ``nbstats dashboard`` command in a subprocess) and real
HTTP (:mod:`http.client`, no browser): a request without the token -- the
page, the kernel REST API, the kernel websocket -- is refused; with the token
the page is the dashboard, and closing it (the POST Voilà's page sends, with
the cookies the page load set) shuts its kernel down; with
``--max-kernels 1`` a second page load is
refused with a page that says why and how to raise the limit, and starts no
process (the server's memory does not grow); an idle kernel is culled, which
frees its place; ``--no-token`` warns and serves anyone.

Kernels are counted as the ``ipykernel`` processes under the server's
process (Voilà exposes no kernel list), read from ``/proc``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import http.client
import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_ORACLES

#: ``nbstats dashboard`` itself: the console script's function, run by this Python.
NBSTATS = [
    sys.executable,
    "-c",
    "import sys, nbstats.cli; sys.exit(nbstats.cli.main())",
]
URL_LINE = re.compile(r"^nbstats dashboard: (http://127\.0\.0\.1:(\d+)/\S*)$", re.M)
KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')
SCORES = "case,knn,svm,forest\n" + "".join(
    f"set{i:02d},{0.60 + i / 100:.3f},{0.70 + i / 90:.3f},{0.72 + i / 95:.3f}\n"
    for i in range(10)
)
#: A kernel running the dashboard holds ~300 MB (294 MB measured); a refused page load may
#: allocate a little in the server (a rendered error page), never a kernel.
GROWTH_LIMIT_KB = 40_000
#: --cull-idle of the capped server: long enough for the cap checks to run
#: before the culler frees the kernel, short enough to wait for it.
CULL_IDLE = 8

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("voila") is None and not REQUIRE_ORACLES,
    reason="Voilà not installed (pip install 'nbstats[dashboard]')",
)


class Server:
    """A running ``nbstats dashboard``: its process, log, URL and token."""

    def __init__(self, folder: Path, *options: str) -> None:
        """Start ``nbstats dashboard`` on a CSV in ``folder`` (no waiting)."""
        csv = folder / "scores.csv"
        csv.write_text(SCORES)
        self.out, self.err = folder / "out.txt", folder / "err.txt"
        self.kernels_seen: set[int] = set()
        with self.out.open("w") as stdout, self.err.open("w") as stderr:
            self.process = subprocess.Popen(
                [*NBSTATS, "dashboard", str(csv), *options],
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                start_new_session=True,  # its own group, for a last-resort kill
            )

    def wait_for_url(self) -> None:
        """Wait for the printed URL; read the port and token from it."""
        deadline = time.monotonic() + 60
        while not (match := URL_LINE.search(self.out.read_text(errors="replace"))):
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the dashboard server did not start:\n{self.log()}")
            time.sleep(0.1)
        self.url, self.port = match.group(1), int(match.group(2))
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.url).query)
        self.token = query.get("token", [None])[0]

    def log(self) -> str:
        return self.out.read_text(errors="replace") + self.err.read_text(
            errors="replace"
        )

    def request(
        self,
        path: str,
        *,
        token: bool,
        headers: dict[str, str] | None = None,
        method: str = "GET",
        body: str | None = None,
    ) -> tuple[int, dict[str, str], str]:
        """``path``, with ``?token=`` or without; no redirect followed."""
        if token:
            path += ("&" if "?" in path else "?") + f"token={self.token}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=90)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            self.last_headers = response.getheaders()
            body = response.read().decode("utf-8", errors="replace")
            return response.status, dict(response.getheaders()), body
        finally:
            connection.close()

    def shut_down(self, kernel: str) -> None:
        """Shut a kernel down through the API (with the token)."""
        status, _, body = self.request(
            f"/api/kernels/{kernel}", token=True, method="DELETE"
        )
        assert status == 204, body
        _wait_for(lambda: not self.kernels(), 20, "the kernel to stop", self)

    def tree(self) -> list[int]:
        """The server's process and all its descendants (from /proc)."""
        parents: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    stat = (entry / "stat").read_text()
                    parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        tree, frontier = [self.process.pid], [self.process.pid]
        while frontier:
            frontier = [pid for pid, ppid in parents.items() if ppid in frontier]
            tree += frontier
        return tree

    def kernels(self) -> list[int]:
        """Pids of the kernels the server runs."""
        found = []
        for pid in self.tree():
            with contextlib.suppress(OSError):
                if b"ipykernel" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    found.append(pid)
        self.kernels_seen.update(found)
        return found

    def rss_kb(self) -> int:
        """Resident memory of the server's whole process tree, in kB."""
        total = 0
        for pid in self.tree():
            with contextlib.suppress(OSError, StopIteration):
                status = Path(f"/proc/{pid}/status").read_text().splitlines()
                line = next(x for x in status if x.startswith("VmRSS:"))
                total += int(line.split()[1])
        return total

    def stop(self) -> None:
        """SIGTERM to the pid we started (it stops Voilà and its kernels)."""
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # the group we started
            self.process.wait()
            pytest.fail(f"the dashboard server ignored SIGTERM:\n{self.log()}")
        # a pid seen earlier may since belong to another process (pids wrap
        # at 32768 in a long run): only a kernel still is one
        strays = [pid for pid in self.kernels_seen if _is_kernel(pid)]
        for pid in strays:  # started (indirectly) by this test
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        assert not strays, f"kernels left running: {strays}\n{self.log()}"


def _is_kernel(pid: int) -> bool:
    """Whether ``pid`` is (still) an IPython kernel."""
    try:
        return b"ipykernel" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """The module's two servers, started together (their start-up overlaps):
    ``capped`` (the default token, one kernel at most, a short idle time)
    and ``open`` (``--no-token``)."""
    started = {
        "capped": Server(
            tmp_path_factory.mktemp("capped"),
            *("--max-kernels", "1", "--cull-idle", str(CULL_IDLE)),
        ),
        "open": Server(tmp_path_factory.mktemp("open"), "--no-token"),
    }
    try:
        for server in started.values():
            server.wait_for_url()
        yield started
    finally:
        for server in started.values():
            server.stop()


@pytest.fixture(scope="module")
def capped(servers):
    return servers["capped"]


def test_the_url_carries_a_random_token(capped):
    assert capped.token is not None, capped.url
    assert re.fullmatch(r"[A-Za-z0-9_-]{40,}", capped.token)
    assert capped.url == f"http://127.0.0.1:{capped.port}/?token={capped.token}"
    # Voilà's own log (stderr) shows no token; nor does any command line
    assert capped.token not in capped.err.read_text()
    for pid in capped.tree():
        with contextlib.suppress(OSError):
            assert (
                capped.token.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes()
            )


def test_a_page_without_the_token_is_refused_and_starts_no_kernel(capped):
    # a redirect to the login form (which asks for the token)
    for path in ("/", "/?token=wrong-token"):
        status, headers, _ = capped.request(path, token=False)
        assert status == 302
        assert headers["Location"].startswith("/login?next=")
    status, _, form = capped.request("/login", token=False)
    assert status == 200 and "token" in form.lower()
    assert capped.kernels() == []


def test_with_the_token_the_page_is_the_dashboard_and_its_kernel_locked(capped):
    status, headers, page = capped.request("/", token=True)
    assert status == 200, page
    kernel = KERNEL_ID.search(page).group(1)
    cookies = [
        value.split(";", 1)[0]
        for name, value in capped.last_headers
        if name.lower() == "set-cookie"
    ]
    try:
        assert headers["Content-Type"].startswith("text/html")
        assert "Bayesian comparison dashboard" in page
        assert "application/vnd.jupyter.widget-view+json" in page  # the widget
        assert "Traceback" not in page
        assert len(capped.kernels()) == 1
        # the kernel's REST API and websocket refuse a request without token
        api = f"/api/kernels/{kernel}"
        assert capped.request(api, token=False)[0] == 403
        assert capped.request(api, token=False, method="DELETE")[0] == 403
        status, _, model = capped.request(api, token=True)
        assert status == 200 and kernel in model
        upgrade = {
            "Connection": "Upgrade",
            "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        }
        channels = f"{api}/channels"
        assert capped.request(channels, token=False, headers=upgrade)[0] == 403

        # closing the page: what Voilà's page does on ``beforeunload``, a POST
        # with the ``_xsrf`` field, authenticated by the cookies the page load
        # set (no token); without those cookies (another site, another user)
        # it is refused
        xsrf = next(c.split("=", 1)[1] for c in cookies if c.startswith("_xsrf="))
        beacon = {
            "Cookie": "; ".join(cookies),
            "Origin": f"http://127.0.0.1:{capped.port}",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        shutdown = f"/voila/api/shutdown/{kernel}"
        form = urllib.parse.urlencode({"_xsrf": xsrf})
        status, _, _ = capped.request(shutdown, token=False, method="POST", body=form)
        assert status == 403
        assert len(capped.kernels()) == 1
        status, _, reply = capped.request(
            shutdown, token=False, method="POST", headers=beacon, body=form
        )
        assert status == 204, reply
        _wait_for(lambda: not capped.kernels(), 20, "the kernel to stop", capped)
    finally:
        if capped.kernels():
            capped.shut_down(kernel)


def test_the_kernel_cap_holds_and_culling_frees_it(capped):
    assert capped.kernels() == []
    # two page loads at once: exactly one gets a kernel
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        loads = list(pool.map(lambda _: capped.request("/", token=True), range(2)))
    assert sorted(status for status, _, _ in loads) == [200, 503], loads
    assert len(kernels := capped.kernels()) == 1
    before = capped.rss_kb()
    # a third load, with the first page still holding its kernel: refused
    # with a page that says why and what to do, and no new process
    status, _, page = capped.request("/", token=True)
    assert status == 503
    assert "at its limit of 1 kernel" in page and "--max-kernels" in page
    assert capped.kernels() == kernels
    assert capped.rss_kb() - before < GROWTH_LIMIT_KB
    assert "refused a new kernel: 1 of at most 1 in use" in capped.err.read_text()
    # nobody uses the kernel: the culler stops it, and a page load gets one again
    _wait_for(lambda: not capped.kernels(), CULL_IDLE + 20, "the culler", capped)
    assert "Culling 'idle' kernel" in capped.err.read_text()
    status, _, page = capped.request("/", token=True)
    assert status == 200, page
    capped.shut_down(KERNEL_ID.search(page).group(1))


def test_no_token_warns_and_serves_anyone(servers):
    server = servers["open"]
    assert server.token is None
    assert server.url == f"http://127.0.0.1:{server.port}/"
    warning = server.err.read_text()
    assert "warning: --no-token" in warning and "every user" in warning
    status, _, page = server.request("/", token=False)
    assert status == 200 and "Bayesian comparison dashboard" in page
    assert len(server.kernels()) == 1


def _wait_for(condition, timeout: float, what: str, server: Server) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}:\n{server.log()}")
        time.sleep(0.25)

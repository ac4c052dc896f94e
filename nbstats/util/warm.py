"""A warm process for the ``nbstats`` command: the imports paid once.

A report's own work is a few seconds; a fresh process adds about two more
before it starts (pandas, SciPy, matplotlib, numba's compiled kernels,
nbconvert) and half a second to leave (``benchmarks/bench_report.py``).
After a command has run, a *warm process* stays behind for a while
(:data:`IDLE_SECONDS`): it has imported all of that and made a small report
once. The next command asks it, over a Unix socket only its user can open,
to fork a copy of itself; the copy runs the command in the caller's
directory, with the caller's environment, standard streams and exit status,
and the caller forwards Ctrl-C (SIGINT), SIGTERM and SIGHUP to it. A forked copy
starts from the same state every time, so one command cannot change the
next one's numbers.

The warm process serves only callers whose interpreter, nbstats sources and
settings (the environment variables that matter at import time, see
:func:`server_key`) are its own; any other caller gets (and starts) a warm
process of its own. ``NBSTATS_WARM=0`` turns it all off; without ``fork``
or Unix sockets (Windows) every command runs in its own process.

Standard library only: the command's launcher imports this module before
anything heavy.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = [
    "AHEAD_COMMANDS",
    "IDLE_SECONDS",
    "WARM_COMMANDS",
    "compiled_stamp",
    "compiles_ahead",
    "connect",
    "enabled",
    "run_command",
    "run_remote",
    "serve",
    "server_key",
    "socket_path",
    "start_detached",
    "start_server",
]

#: Commands a warm process runs (not ``serve``/``dashboard``: they hold a
#: port and run until stopped).
WARM_COMMANDS = frozenset({"report", "demo", "analyze", "coverage"})
#: Commands that call compiled kernels: a process of their own starts the
#: kernels' compilation beside it (:func:`run_command`).
AHEAD_COMMANDS = frozenset({"report", "demo", "analyze"})
#: Seconds after which a compilation that left no stamp counts as dead.
AHEAD_STALE_SECONDS = 300.0
#: Seconds a warm process waits for a command before it leaves
#: (``NBSTATS_WARM_IDLE`` sets another).
IDLE_SECONDS = 900.0
#: Environment variables read when modules are imported: a caller whose
#: values differ gets a warm process of its own.
_IMPORT_TIME_PREFIXES = (
    "NBSTATS_", "NUMBA_", "MPL", "OMP_", "OPENBLAS_", "MKL_", "PYTHON", "LC_",
)  # fmt: skip
_IMPORT_TIME_NAMES = ("LANG", "TZ", "HOME", "TMPDIR")
#: Settings read by the launcher or the warm process itself, not at import
#: time: they do not make a warm process of their own.
_NOT_IMPORT_TIME = ("NBSTATS_WARM_IDLE", "NBSTATS_COMPILE_AHEAD")
#: The nbstats package (this module is nbstats/util/warm.py).
PACKAGE_DIR = Path(__file__).resolve().parents[1]


def run_command(
    argv: Sequence[str],
    run_here: Callable[[], int],
    server_module: str,
    ahead_module: str | None = None,
) -> int:
    """The exit status of the command ``argv``: run by the warm process when
    one is ready, else by ``run_here()``, after which a warm process is
    started (``python -m server_module KEY``) for the next command.

    Before ``run_here()`` runs a command of :data:`AHEAD_COMMANDS`,
    ``ahead_module.main(STAMP, RUNNING)`` is started in a process beside it,
    without the ``nbstats`` package's own imports (:func:`start_light`; it
    compiles the kernels, :mod:`nbstats.stats.kernel_signatures`), unless it
    has left its stamp for this key already or one is running.

    A command run here, and a warm process, first cap the C heap's arenas
    (:func:`nbstats.util.malloc_arenas.cap_malloc_arenas`)."""
    key = None
    if enabled(argv):
        try:
            key = server_key(PACKAGE_DIR)
        except OSError:
            key = None
        client = None if key is None else connect(key)
        if client is not None:
            status = run_remote(client, argv)
            if status is not None:
                return status
    if ahead_module is not None and compiles_ahead(argv):
        _compile_ahead(ahead_module, key)
    _cap_malloc_arenas()
    status = run_here()
    if key is not None and status in (0, 2):  # not after an interrupt
        start_server(key, server_module)
    return status


def _cap_malloc_arenas() -> None:
    # imported here: the launcher runs this module without the package, and
    # only a command run in this process (or a warm process) needs it
    from nbstats.util.malloc_arenas import cap_malloc_arenas

    cap_malloc_arenas()


def enabled(argv: Sequence[str]) -> bool:
    """Whether the command ``argv`` may run in a warm process."""
    if os.environ.get("NBSTATS_WARM", "1").strip().lower() in ("0", "no", "off"):
        return False
    if not hasattr(os, "fork") or not hasattr(socket, "AF_UNIX"):
        return False
    if not hasattr(socket, "send_fds"):
        return False
    words = [a for a in argv if not a.startswith("-")]
    # "-": the scores come from standard input, which a terminal keeps for
    # its foreground process (a fork of the warm process is not one)
    return (
        bool(words)
        and words[0] in WARM_COMMANDS
        and "--help" not in argv
        and "-" not in argv
    )


def compiled_stamp(key: str) -> Path:
    """The file the kernels' compilation leaves once it has run for ``key``."""
    return socket_path(key).with_name(f"compiled-{key}")


def _compile_ahead(module: str, key: str | None) -> None:
    """Start ``module.main(STAMP, RUNNING)`` (:func:`start_light`) unless the
    stamp is there or another command's compilation is running (its
    ``RUNNING`` file is younger than :data:`AHEAD_STALE_SECONDS`): ten
    commands started at once after an install start one compilation, not
    ten."""
    try:
        stamp = compiled_stamp(server_key(PACKAGE_DIR) if key is None else key)
        if stamp.exists():
            return
        running = stamp.with_name(stamp.name.replace("compiled-", "compiling-", 1))
        try:
            os.close(os.open(running, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            if time.time() - running.stat().st_mtime < AHEAD_STALE_SECONDS:
                return
            running.touch()  # left by a compilation that died: taken over
    except OSError:  # no private directory for the files: no compilation
        return
    start_light(module, str(stamp), str(running))


def compiles_ahead(argv: Sequence[str]) -> bool:
    """Whether the command ``argv``, run in a process of its own, starts the
    kernels' compilation beside it (``NBSTATS_COMPILE_AHEAD=0``: never)."""
    if os.environ.get("NBSTATS_COMPILE_AHEAD", "1").strip().lower() in (
        "0", "no", "off",
    ):  # fmt: skip
        return False
    if not hasattr(os, "getuid"):  # no private directory for its stamp
        return False
    words = [a for a in argv if not a.startswith("-")]
    return bool(words) and words[0] in AHEAD_COMMANDS and "--help" not in argv


#: ``python -c`` program of :func:`start_light`: an empty ``nbstats`` package
#: (its ``__init__`` imports pandas for the accessor) whose modules are
#: found in its directory, then ``module.main(*args)``.
LIGHT_START = (
    "import importlib, sys, types\n"
    "package = types.ModuleType('nbstats')\n"
    "package.__path__ = [sys.argv[1]]\n"
    "sys.modules['nbstats'] = package\n"
    "importlib.import_module(sys.argv[2]).main(*sys.argv[3:])\n"
)


def start_light(module: str, *args: str) -> None:
    """Start ``module.main(*args)`` detached from this command (its own
    session, no inherited streams), in a process that does not run the
    ``nbstats`` package's ``__init__``: for a module that imports only
    standard-library, NumPy and numba modules and nbstats modules like it.
    Nothing when it cannot start."""
    _detached(["-c", LIGHT_START, str(PACKAGE_DIR), module, *args])


def server_key(package_dir: str | os.PathLike[str]) -> str:
    """What a caller and a warm process must share: the interpreter, the
    nbstats sources (every file's path, size and modification time; with the
    ``report_templates`` folder beside the package, in a source checkout)
    and the import-time environment.

    Examples
    --------
    >>> import nbstats
    >>> len(server_key(Path(nbstats.__file__).parent))
    24
    """
    digest = hashlib.sha256()
    digest.update(sys.executable.encode())
    digest.update(sys.version.encode())
    # the report templates of a source checkout too, beside the package
    templates = Path(package_dir).parent / "report_templates"
    for path in [*sorted(Path(package_dir).rglob("*")), *sorted(templates.rglob("*"))]:
        if path.suffix in (".py", ".tex", ".j2", ".json", ".csv", ".tpl", ".css"):
            stat = path.stat()
            digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    for name in sorted(os.environ):
        if name.startswith(_IMPORT_TIME_PREFIXES) or name in _IMPORT_TIME_NAMES:
            if name in _NOT_IMPORT_TIME:
                continue
            digest.update(f"{name}={os.environ[name]}".encode())
    return digest.hexdigest()[:24]


def socket_path(key: str) -> Path:
    """The warm process's socket, in a directory only this user can enter."""
    directory = Path(tempfile.gettempdir()) / f"nbstats-{os.getuid()}"
    if len(os.fsencode(directory)) > 60:
        # a Unix socket's path has room for about 100 bytes: a long temporary
        # directory gets a short one of its own in /tmp
        digest = hashlib.sha256(os.fsencode(directory)).hexdigest()[:12]
        directory = Path("/tmp") / f"nbstats-{os.getuid()}-{digest}"
    directory.mkdir(mode=0o700, exist_ok=True)
    info = directory.lstat()
    if info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise PermissionError(
            f"{directory} is not private to this user; remove it (or set "
            "NBSTATS_WARM=0)."
        )
    return directory / f"warm-{key}.sock"


def connect(key: str) -> socket.socket | None:
    """A connection to the warm process of ``key``, or None (none is running;
    a socket left by one that died is removed)."""
    try:
        path = socket_path(key)
    except OSError:
        return None
    if not path.exists():
        return None
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(str(path))
    except OSError:
        client.close()
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    return client


def start_server(key: str, module: str) -> None:
    """Start ``python -m module key`` detached from this command (its own
    session, no inherited streams): the warm process of ``key``."""
    start_detached(module, key)


def start_detached(module: str, *args: str) -> None:
    """Start ``python -m module *args`` detached from this command (its own
    session, no inherited streams); nothing when it cannot start."""
    _detached(["-m", module, *args])


def _detached(arguments: list[str]) -> None:
    """Start this interpreter with ``arguments`` in a session of its own,
    with no inherited streams; nothing when it cannot start."""
    with contextlib.suppress(OSError):
        subprocess.Popen(  # our own interpreter and program
            [sys.executable, *arguments],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )


# -- the caller ----------------------------------------------------------------


def _send(sock: socket.socket, message: dict) -> None:
    data = json.dumps(message).encode()
    sock.sendall(struct.pack("!I", len(data)) + data)


def _receive(sock: socket.socket) -> dict | None:
    head = _exactly(sock, 4)
    if head is None:
        return None
    body = _exactly(sock, struct.unpack("!I", head)[0])
    return None if body is None else json.loads(body)


def _exactly(sock: socket.socket, size: int) -> bytes | None:
    chunks, got = [], 0
    while got < size:
        chunk = sock.recv(size - got)  # a signal: retried by Python (PEP 475)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def run_remote(sock: socket.socket, argv: Sequence[str]) -> int | None:
    """Run the command ``argv`` in a fork of the warm process; its exit
    status, or None when the warm process would not take it (nothing ran).

    The fork gets this process's standard streams, directory, umask and
    environment; SIGINT, SIGTERM and SIGHUP received here are passed on to it.
    """
    with sock:
        umask = os.umask(0o022)
        os.umask(umask)
        request = {
            "argv": list(argv), "cwd": os.getcwd(), "env": dict(os.environ),
            "umask": umask,
        }  # fmt: skip
        try:
            payload = json.dumps(request).encode()
            socket.send_fds(
                sock, [struct.pack("!I", len(payload)) + payload], [0, 1, 2]
            )
            started = _receive(sock)
        except OSError:
            return None
        if not started or "pid" not in started:
            return None
        pid = int(started["pid"])

        def forward(signum: int, frame: object) -> None:
            with contextlib.suppress(OSError):
                os.kill(pid, signum)

        previous = {
            number: signal.signal(number, forward)
            for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
        }
        try:
            finished = _receive(sock)
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
    if not finished or "status" not in finished:
        sys.stderr.write(
            "nbstats: the warm process ended before the command did "
            "(set NBSTATS_WARM=0 to run every command in its own process)\n"
        )
        return 1
    return int(finished["status"])


# -- the warm process ----------------------------------------------------------


def serve(
    key: str, run: Callable[[list[str]], int], warm_up: Callable[[], None]
) -> None:
    """Warm up, then fork a copy to ``run(argv)`` for each caller, until
    :data:`IDLE_SECONDS` pass without one."""
    path = socket_path(key)
    if connect(key) is not None:  # another warm process of this key: leave
        return
    _cap_malloc_arenas()  # its forks inherit it
    warm_up()
    # everything warm_up left alive is moved out of the collector's reach: a
    # fork's collections would otherwise write to every object's header, and
    # each page they touch is copied from the warm process into the fork
    gc.collect()
    gc.freeze()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        with contextlib.suppress(FileNotFoundError):
            if connect(key) is None:  # a socket left by one that died
                path.unlink()
        listener.bind(str(path))
    except OSError:  # another one bound it meanwhile: leave it the callers
        listener.close()
        return
    os.chmod(path, 0o600)
    listener.listen(16)
    idle = float(os.environ.get("NBSTATS_WARM_IDLE", IDLE_SECONDS))
    listener.settimeout(idle)
    # forks are reaped by the system; each fork sets SIGCHLD back to the
    # default at once (its subprocesses, e.g. xelatex, must be waited for)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    # stopped (SIGTERM, SIGHUP): the socket goes with the process
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, _leave)
    try:
        while True:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                return
            with conn:
                if _same_user(conn):
                    _fork_one(conn, listener, run)
    finally:
        listener.close()
        with contextlib.suppress(OSError):
            path.unlink()


def _leave(signum: int, frame: object) -> None:
    raise SystemExit(0)


def _same_user(conn: socket.socket) -> bool:
    """The caller runs as this process's user (checked where the system
    tells, on Linux; elsewhere the socket's directory is private)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:  # pragma: no cover - not Linux
        return True
    creds = conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _, uid, _ = struct.unpack("3i", creds)
    return uid == os.getuid()


def _fork_one(
    conn: socket.socket, listener: socket.socket, run: Callable[[list[str]], int]
) -> None:
    try:
        message, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
    except OSError:
        return
    request = _request(conn, message)
    if request is None or len(fds) != 3:  # not a caller of this module
        for fd in fds:
            os.close(fd)
        return
    pid = os.fork()
    if pid:  # the warm process: the fork has what it needs
        for fd in fds:
            os.close(fd)
        return
    # the fork: this command's process from here on
    status = 1
    try:
        listener.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, signal.default_int_handler)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)  # not the server's _leave
        _take_over(request, fds)
        _send(conn, {"pid": os.getpid()})
        status = int(run(request["argv"]) or 0)
    except SystemExit as stop:  # as Python ends on sys.exit(code)
        if stop.code is None:
            status = 0
        elif isinstance(stop.code, int):
            status = stop.code
        else:  # a message: printed, status 1
            print(stop.code, file=sys.stderr)
            status = 1
    except BaseException:  # reported to the caller, then gone
        import traceback

        traceback.print_exc()
        status = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        with contextlib.suppress(OSError):
            _send(conn, {"status": status})
        os._exit(status)


def _request(conn: socket.socket, message: bytes) -> dict | None:
    """The caller's request: the length-prefixed JSON whose start came with
    the streams (``message``), the rest read from ``conn``; None if it is
    not one."""
    try:
        size = struct.unpack("!I", message[:4])[0]
        body = message[4:]
        rest = _exactly(conn, max(0, size - len(body)))
        return None if rest is None else json.loads(body + rest)
    except (ValueError, struct.error, OSError):
        return None


def _take_over(request: dict, fds: list[int]) -> None:
    """The caller's streams, directory and environment, as if started there."""
    for target, fd in zip((0, 1, 2), fds, strict=True):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.umask(int(request.get("umask", 0o022)))
    os.environ.clear()
    os.environ.update(request["env"])
    # the streams as Python opens them at start-up (same locale: the key)
    encoding = getattr(sys.__stdout__, "encoding", None) or "utf-8"
    tty = os.isatty(1)
    sys.stdin = open(0, closefd=False, encoding=encoding)  # noqa: SIM115
    sys.stdout = open(  # noqa: SIM115
        1, "w", closefd=False, buffering=1 if tty else -1, encoding=encoding
    )
    sys.stderr = open(  # noqa: SIM115
        2, "w", closefd=False, buffering=1, encoding=encoding,
        errors="backslashreplace",
    )  # fmt: skip
    sys.argv = ["nbstats", *request["argv"]]

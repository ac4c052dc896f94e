"""Execute a report notebook: in this process, or in a fresh kernel.

:func:`execute_notebook` runs the cells in this process by default
(:mod:`nbstats.reporting.inprocess`); with ``kernel=True`` it runs the notebook
with nbclient in a kernel of *this*
interpreter (never a same-named kernelspec installed elsewhere, which might
lack nbstats), in a scratch directory (:mod:`nbstats.reporting.scratch`); an
interrupt kills the kernel's whole process group and propagates unchanged.
"""

from __future__ import annotations

import copy
import os
import tempfile
from pathlib import Path
from typing import Any

from nbstats.reporting.errors import ReportError
from nbstats.reporting.scratch import remove_stale, scratch_prefix

__all__ = ["CELL_TIMEOUT", "STARTUP_TIMEOUT", "execute_notebook"]

#: Seconds a cell of the report may run, and the kernel may take to start.
CELL_TIMEOUT = 900
STARTUP_TIMEOUT = 120


def _kernel_manager_class() -> type:
    """A kernel manager whose "python3" is always this interpreter's ipykernel."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    class ThisPythonKernelSpecManager(KernelSpecManager):
        def get_kernel_spec(self, kernel_name: str) -> Any:
            if kernel_name != "python3":
                raise NoSuchKernel(kernel_name)
            from ipykernel.kernelspec import RESOURCES, get_kernel_dict

            return self.kernel_spec_class(resource_dir=RESOURCES, **get_kernel_dict())

    class ThisPythonKernelManager(AsyncKernelManager):
        @default("kernel_spec_manager")
        def _default_kernel_spec_manager(self) -> KernelSpecManager:
            return ThisPythonKernelSpecManager(data_dir=self.data_dir)

        @default("transport_encryption")
        def _default_transport_encryption(self) -> str:
            # encrypt the local channels when libzmq can (the kernel warns
            # about plain-text TCP otherwise)
            import zmq

            return "auto" if zmq.has("curve") else "disabled"

    return ThisPythonKernelManager


def _kernel_env() -> dict[str, str]:
    env = dict(os.environ)
    # the caller's memory ceiling (set in code, or its environment's): the
    # report was sized against it (prepare.check_size)
    from nbstats.util.memory import get_memory_ceiling

    env["NBSTATS_MAX_MEMORY"] = str(get_memory_ceiling())
    # the kernel imports the same nbstats as this process, installed or not
    root = str(Path(__file__).resolve().parents[2])  # above nbstats/
    env["PYTHONPATH"] = os.pathsep.join(
        [root, *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])]
    )
    env.pop("MPLBACKEND", None)  # the kernel's own inline backend
    # a long call's progress bar would be an output cell of the report
    env["NBSTATS_PROGRESS"] = "0"
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    return env


def execute_notebook(
    nb: Any, *, timeout: int = CELL_TIMEOUT, kernel: bool | None = None
) -> Any:
    """Execute a copy of ``nb``; return the executed copy.

    By default the cells run in this process
    (:func:`nbstats.reporting.inprocess.run_cells`: no kernel to start, nothing
    to import twice); ``kernel=True``, or the environment variable
    ``NBSTATS_REPORT_KERNEL=1``, runs them in a fresh kernel of this
    interpreter instead, as Jupyter would. Both give the same outputs
    (tested). ``timeout`` (seconds per cell) applies to the kernel only.

    The kernel is driven from a worker thread while this thread waits, so that
    an interrupt (Ctrl-C's :class:`KeyboardInterrupt`, or whatever exception a
    signal handler raises) arrives here: the kernel's process group is killed,
    its files removed, and the exception propagates unchanged. (nbclient's own
    signal handlers, which kill the kernel under a running cell and end in a
    ``DeadKernelError``, are not installed outside the main thread.)

    Raises
    ------
    ReportError
        A cell raised (the message names it), timed out, or the kernel died.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import (
        CellExecutionError,
        CellTimeoutError,
        DeadKernelError,
    )

    executed = copy.deepcopy(nb)
    if kernel is None:
        kernel = os.environ.get("NBSTATS_REPORT_KERNEL", "").strip() in ("1", "true")
    if not kernel:
        from nbstats.reporting.display import kept_state
        from nbstats.reporting.inprocess import run_cells

        with kept_state():
            return run_cells(executed)
    scratch = tempfile.gettempdir()
    remove_stale(scratch)
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("report")) as workdir:
        client = NotebookClient(
            executed,
            timeout=timeout,
            startup_timeout=STARTUP_TIMEOUT,
            kernel_name="python3",
            kernel_manager_class=_kernel_manager_class(),
            resources={"metadata": {"path": workdir}},
            allow_errors=False,
        )
        # the kernel's connection file goes in the scratch folder too (by
        # default it is a loose file in the temporary folder)
        client.create_kernel_manager().connection_file = os.path.join(
            workdir, "kernel.json"
        )
        try:
            _execute_in_thread(client, _kernel_env())
        except CellExecutionError as error:
            raise ReportError(
                f"the report notebook failed: {error.ename}: {error.evalue}"
            ) from error
        except (CellTimeoutError, DeadKernelError, TimeoutError) as error:
            raise ReportError(f"the report notebook did not finish: {error}") from error
    return executed


#: Seconds to wait, after an interrupt, for the client to notice its killed
#: kernel and remove the kernel's connection file.
STOP_TIMEOUT = 10.0


def _execute_in_thread(client: Any, env: dict[str, str]) -> None:
    """Run ``client.async_execute`` in a thread of its own; re-raise its error.

    The wait is on an event, not ``Thread.join``: an exception raised in a
    signal handler during ``join`` marks a running thread as stopped (CPython
    3.11).
    """
    import asyncio
    import atexit
    import threading

    failure: list[BaseException] = []
    done = threading.Event()

    def work() -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(client.async_execute(env=env))
        except BaseException as error:  # handed to the waiting thread
            failure.append(error)
        finally:
            loop.close()
            done.set()

    worker = threading.Thread(target=work, name="nbstats-report-kernel", daemon=True)
    worker.start()
    try:
        while not done.wait(0.1):
            pass
    except BaseException:
        _stop(client, done)
        raise
    finally:
        # nbclient leaves its exit hook registered when the kernel dies while
        # starting; the hook would then fail at exit (its manager is gone)
        hook = getattr(client, "_cleanup_kernel", None)
        if hook is not None:
            atexit.unregister(hook)
    if failure:
        raise failure[0]


def _stop(client: Any, done: Any) -> None:
    """Kill the kernel (its whole process group) until the client gives up."""
    import signal
    import time

    deadline = time.monotonic() + STOP_TIMEOUT
    while not done.is_set() and time.monotonic() < deadline:
        manager = getattr(client, "km", None)
        process = getattr(getattr(manager, "provisioner", None), "process", None)
        if process is not None and process.poll() is None:
            try:  # the kernel leads a session of its own: kill its children too
                os.killpg(process.pid, signal.SIGKILL)
            except (AttributeError, ProcessLookupError, PermissionError):
                process.kill()
        done.wait(0.05)

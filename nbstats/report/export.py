"""Execute the report notebook and write the report, atomically.

:func:`execute_notebook` runs the notebook with nbclient in a kernel of *this*
interpreter (never a same-named kernelspec installed elsewhere, which might
lack nbstats), in a scratch directory. :func:`export_notebook` turns it into
the bytes of the report and of the files that go next to it;
:func:`write_report` stages all of them in a temporary directory beside the
target and renames them into place, the report itself last. Any failure before
that leaves the target directory as it was: no half-written report, no stray
temporary file, an existing report untouched.

Files next to a report named ``<stem>``:

=============  ==============================================================
format         written
=============  ==============================================================
``html``       ``<stem>.html`` (self-contained: figures and CSS inline)
``ipynb``      ``<stem>.ipynb`` (executed, with its outputs)
``pdf``        ``<stem>.pdf`` and ``<stem>.bib``
``tex``        ``<stem>.tex``, ``<stem>.bib``, ``<stem>_files/`` (the figures
               as PDF) and ``<stem>_tables/`` (every table as a booktabs
               ``.tex`` file a paper can ``\\input``)
=============  ==============================================================

In the companion files' names, characters LaTeX and BibTeX cannot take (spaces,
``%``, ``#``, ...) become ``_``: ``my report.tex`` comes with ``my_report.bib``,
``my_report_files/`` and ``my_report_tables/``.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import os
import re
import shutil
import socket
import tempfile
import time
from pathlib import Path
from typing import Any

from nbstats.report.errors import TEX_PACKAGES, MissingToolError, ReportError

__all__ = [
    "FORMATS",
    "LATEX_COMMAND",
    "MissingToolError",
    "ReportError",
    "execute_notebook",
    "export_notebook",
    "remove_stale",
    "resolve_format",
    "scratch_prefix",
    "write_report",
]

#: Formats by file suffix.
FORMATS = {
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
    ".tex": "tex",
    ".ipynb": "ipynb",
}

#: How xelatex is run for PDF reports ("{filename}" is the .tex file).
LATEX_COMMAND = ["xelatex", "-interaction=nonstopmode", "-halt-on-error", "{filename}"]

#: Seconds a cell of the report may run, and the kernel may take to start.
CELL_TIMEOUT = 900
STARTUP_TIMEOUT = 120


def resolve_format(path: Path, format: str | None) -> str:
    """The report format: ``format`` if given, else from the path's suffix."""
    choices = sorted(set(FORMATS.values()))
    if format is None:
        suffix = path.suffix.lower()
        if suffix not in FORMATS:
            raise ValueError(
                f"cannot tell the report format from {path.name!r}: use a path "
                f"ending in {', '.join(sorted(FORMATS))}, or pass format= one of "
                f"{choices}."
            )
        return FORMATS[suffix]
    if not isinstance(format, str) or format.lower() not in choices:
        raise ValueError(f"unknown report format {format!r}; choose one of {choices}.")
    return format.lower()


def _missing_tools_message(fmt: str, missing: list[str]) -> str:
    what = " and ".join(missing)
    verb = "is" if len(missing) == 1 else "are"
    return (
        f"format={fmt!r} needs {what}, which {verb} not installed (not found on "
        f"PATH). Write the report as HTML instead (format='html', or "
        f"--format html on the command line), or install TeX and pandoc; on "
        f"Debian or Ubuntu: sudo apt-get install {TEX_PACKAGES}"
    )


def check_tools(fmt: str) -> None:
    """Raise :class:`MissingToolError` if ``fmt`` needs a program that is missing.

    ``tex`` needs pandoc (nbconvert converts Markdown cells with it); ``pdf``
    needs pandoc and the LaTeX engine of :data:`LATEX_COMMAND`.
    """
    needed = {"tex": ["pandoc"], "pdf": [LATEX_COMMAND[0], "pandoc"]}.get(fmt, [])
    missing = [tool for tool in needed if shutil.which(tool) is None]
    if missing:
        raise MissingToolError(_missing_tools_message(fmt, missing))


# -- scratch files ----------------------------------------------------------------

#: The host's tag in scratch names (a folder may be shared between machines).
_HOST = hashlib.sha1(socket.gethostname().encode("utf-8")).hexdigest()[:6]
#: Scratch names: ``nbstats-<kind>-<host>-<pid>-<random>``, in the temporary
#: folder, or ``.<report name>.nbstats-<kind>-<host>-<pid>-<random>.tmp``
#: (or ``.probe``) beside the report.
_SCRATCH = re.compile(
    r"(?:\..+\.)?nbstats-(?P<kind>report|latex|dashboard|stage|probe)-"
    r"(?P<host>[0-9a-f]{6})-(?P<pid>\d{1,10})-[A-Za-z0-9_]+(?:\.tmp|\.probe)?"
)
#: Scratch names of nbstats before they named their process.
_LEGACY = re.compile(r"nbstats-(?:report|latex|dashboard)-[a-z0-9_]{8}")
#: Leftovers whose process cannot be asked (another host, an older nbstats)
#: are removed once they are this old, in seconds.
STALE_AFTER = 24 * 3600


def scratch_prefix(kind: str) -> str:
    """The start of a temporary file's or folder's name: it names nbstats,
    this host and this process, so that :func:`remove_stale` can tell the
    leftovers of a killed run (SIGKILL runs no clean-up) from live ones.

    Examples
    --------
    >>> scratch_prefix("report").startswith("nbstats-report-")
    True
    """
    return f"nbstats-{kind}-{_HOST}-{os.getpid()}-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # another user's: alive
        return True
    return True


def remove_stale(directory: str | os.PathLike[str], *, report: str = "") -> list[str]:
    """Remove the scratch files and folders that killed nbstats runs left in
    ``directory``; return their names.

    Only nbstats' own names (:func:`scratch_prefix`) are touched: those of a
    process of this host that is gone, those of another host after
    :data:`STALE_AFTER` seconds, and (after that long too) the names an
    older nbstats used: ``nbstats-report-XXXXXXXX`` in the temporary folder,
    ``.<report>.XXXXXXXX.tmp`` beside the report named ``report``.
    """
    legacy = (
        re.compile(rf"\.{re.escape(report)}\.[a-z0-9_]{{8}}\.(?:tmp|probe)")
        if report
        else _LEGACY
    )
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    now = time.time()
    for entry in entries:
        match = _SCRATCH.fullmatch(entry.name)
        try:
            old = now - entry.stat(follow_symlinks=False).st_mtime > STALE_AFTER
        except OSError:
            continue
        if match is not None and match["host"] == _HOST:
            stale = int(match["pid"]) != os.getpid() and not _alive(int(match["pid"]))
        else:
            stale = old and (match is not None or legacy.fullmatch(entry.name))
        if not stale:
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
        except OSError:
            continue  # another user's, or gone already
        removed.append(entry.name)
    return removed


# -- execution ------------------------------------------------------------------


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
    # the kernel imports the same nbstats as this process, installed or not
    root = str(Path(__file__).resolve().parents[2])  # above nbstats/
    env["PYTHONPATH"] = os.pathsep.join(
        [root, *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])]
    )
    env.pop("MPLBACKEND", None)  # the kernel's own inline backend
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    return env


def execute_notebook(nb: Any, *, timeout: int = CELL_TIMEOUT) -> Any:
    """Execute a copy of ``nb`` in a fresh kernel; return the executed copy.

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


# -- export -----------------------------------------------------------------------


def _safe_stem(stem: str) -> str:
    """A file-name stem LaTeX can \\includegraphics from (no spaces, no %#$)."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", stem) or "report"


def _latex_config() -> Any:
    from traitlets.config import Config

    return Config(
        {
            "TemplateExporter": {
                "exclude_input": True,
                "exclude_input_prompt": True,
                "exclude_output_prompt": True,
            }
        }
    )


def _outputs_metadata(nb: Any, kind: str) -> list[dict[str, Any]]:
    found = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            meta = output.get("metadata", {}).get("nbstats")
            if meta and meta.get("kind") == kind:
                found.append(meta)
    return found


def table_files(nb: Any) -> dict[str, str]:
    """Every table of an executed report as ``{file name: LaTeX}``."""
    files: dict[str, str] = {}
    for meta in _outputs_metadata(nb, "table"):
        files.update(meta.get("files", {}))
    return files


def csv_files(nb: Any) -> dict[str, str]:
    """The full tables an executed compact report offers as CSV files."""
    return {meta["name"]: meta["csv"] for meta in _outputs_metadata(nb, "csv")}


def core_files(nb: Any, stem: str) -> dict[str, bytes]:
    """The answer-first part's table and figure files, ``<stem>_core/...``:
    ``summary.tex`` and ``summary.csv``, ``figure-1.pdf`` and ``.svg``."""
    folder = f"{_safe_stem(stem)}_core"
    files: dict[str, bytes] = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            meta = output.get("metadata", {}).get("nbstats") or {}
            for name, text in meta.get("core_files", {}).items():
                body = text
                if name.endswith(".tex"):
                    body = _table_file(name, text, folder)
                files[f"{folder}/{name}"] = body.encode("utf-8")
            for name, data in meta.get("core_binary", {}).items():
                files[f"{folder}/{name}"] = base64.b64decode(data)
    return files


def _with_tables_folder(nb: Any, folder: str) -> Any:
    """A copy of ``nb`` whose LaTeX names the folder the CSV files go to."""
    from nbstats.report.compact import TABLES_FOLDER

    if not csv_files(nb):
        return nb
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/latex" in data:
                data["text/latex"] = data["text/latex"].replace(
                    TABLES_FOLDER, folder.replace("_", "\\_")
                )
    return nb


def cited_keys(nb: Any) -> list[str] | None:
    """The reference keys of an executed report's reference list."""
    found = _outputs_metadata(nb, "references")
    return list(found[-1]["keys"]) if found else None


def _table_file(name: str, latex: str, folder: str) -> str:
    needs = {
        "longtable": "\\begin{longtable}" in latex,
        "xltabular": "\\begin{xltabular}" in latex,
        "graphicx": "\\resizebox" in latex or "\\rotatebox" in latex,
        "amsmath": "\\text{" in latex,
    }
    packages = ", ".join(["booktabs", *(name for name, used in needs.items() if used)])
    return (
        f"% Table written by nbstats.report. Use it in a paper with\n"
        f"%   \\input{{{folder}/{name}}}\n"
        f"% after \\usepackage{{{packages}}} in the preamble.\n" + latex
    )


def export_notebook(nb: Any, fmt: str, *, stem: str) -> tuple[bytes, dict[str, bytes]]:
    """Convert an executed report notebook.

    Returns the report's bytes and the files to write next to it, as
    ``{path relative to the report's directory: bytes}``.
    """
    import nbformat

    from nbstats.report.data import defuse_csv_outputs
    from nbstats.report.methods import bibtex

    nb = defuse_csv_outputs(nb)
    if fmt == "ipynb":
        return nbformat.writes(nb).encode("utf-8"), {}
    if fmt == "html":
        from nbstats.report.exporters import NbstatsHTMLExporter

        exporter = NbstatsHTMLExporter(config=_latex_config())
        body, _ = exporter.from_notebook_node(
            nb, resources={"metadata": {"name": stem}}
        )
        return body.encode("utf-8"), {}

    from nbconvert.exporters.pdf import LatexFailed
    from nbconvert.utils.pandoc import PandocMissing

    from nbstats.report.exporters import NbstatsLatexExporter, NbstatsPDFExporter

    extras: dict[str, bytes] = {
        f"{_safe_stem(stem)}.bib": bibtex(cited_keys(nb)).encode("utf-8")
    }
    folder = f"{_safe_stem(stem)}_tables"
    for name, text in csv_files(nb).items():
        extras[f"{folder}/{name}"] = text.encode("utf-8")
    nb = _with_tables_folder(nb, folder)
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("latex")) as workdir:
        try:
            if fmt == "tex":
                files_dir = f"{_safe_stem(stem)}_files"
                exporter = NbstatsLatexExporter(config=_latex_config())
                body, resources = exporter.from_notebook_node(
                    nb,
                    resources={
                        "metadata": {"name": stem, "path": workdir},
                        "output_files_dir": files_dir,
                    },
                )
                extras.update(resources.get("outputs", {}))
                for name, latex in table_files(nb).items():
                    extras[f"{folder}/{name}"] = _table_file(
                        name, latex, folder
                    ).encode("utf-8")
                return body.encode("utf-8"), extras
            exporter = NbstatsPDFExporter(config=_latex_config())
            exporter.latex_command = list(LATEX_COMMAND)
            pdf, _ = exporter.from_notebook_node(
                nb, resources={"metadata": {"name": stem, "path": workdir}}
            )
            return pdf, extras
        except PandocMissing as error:
            raise MissingToolError(_missing_tools_message(fmt, ["pandoc"])) from error
        except LatexFailed as error:
            log = str(error.output)[-3000:]
            raise ReportError(
                f"xelatex failed to typeset the report:\n{log}"
            ) from error
        except OSError as error:
            if shutil.which(LATEX_COMMAND[0]) is None:
                raise MissingToolError(
                    _missing_tools_message(fmt, [LATEX_COMMAND[0]])
                ) from error
            raise


# -- atomic writes ------------------------------------------------------------------


def check_target(path: Path) -> None:
    """Raise an :class:`OSError` naming ``path`` if the report cannot go there.

    Checked before any work: the directory exists, ``path`` is not a
    directory, and a file can be created in the directory (a probe file, as
    :func:`write_report` stages the report there, removed at once; this also
    catches read-only file systems, which permission bits do not show).

    Examples
    --------
    >>> import tempfile
    >>> check_target(Path(tempfile.mkdtemp()) / "no" / "report.html")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    FileNotFoundError: cannot write 'report.html': the directory ... does not exist;
    create it or pass another path.
    """
    path = Path(path)
    directory = path.parent
    if not directory.is_dir():
        what = "is not a directory" if directory.exists() else "does not exist"
        raise FileNotFoundError(
            f"cannot write {path.name!r}: the directory {str(directory)!r} "
            f"{what}; create it or pass another path."
        )
    if path.is_dir():
        raise IsADirectoryError(
            f"cannot write {str(path)!r}: it is a directory; give a file name "
            f"such as {str(path / ('report' + (path.suffix or '.html')))!r}."
        )
    remove_stale(directory, report=path.name)
    try:
        handle, probe = tempfile.mkstemp(
            prefix=f".{path.name}.{scratch_prefix('probe')}",
            suffix=".probe",
            dir=directory,
        )
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise PermissionError(
            f"cannot write {path.name!r}: the directory {str(directory)!r} is not "
            f"writable ({reason.lower()}); pass a path in a writable directory."
        ) from None
    os.close(handle)
    os.unlink(probe)


def write_report(nb: Any, path: Path, fmt: str) -> Path:
    """Export ``nb`` and write the report at ``path`` (and its companion files).

    Everything is staged in a temporary directory next to ``path`` and renamed
    into place, the report last; on any error the staging directory is removed
    and the existing files are left as they were.
    """
    path = Path(path)
    directory = path.parent
    stem = path.stem
    remove_stale(directory, report=path.name)
    staging = Path(
        tempfile.mkdtemp(
            prefix=f".{path.name}.{scratch_prefix('stage')}",
            suffix=".tmp",
            dir=directory,
        )
    )
    try:
        body, extras = export_notebook(nb, fmt, stem=stem)
        if fmt in ("pdf", "tex"):  # an HTML report stays one self-contained file
            extras.update(core_files(nb, stem))
        (staging / path.name).write_bytes(body)
        tops: list[str] = []
        for relative, data in extras.items():
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            top = Path(relative).parts[0]
            if top not in tops:
                tops.append(top)
        _commit(staging, directory, tops, path.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return path


def _commit(staging: Path, directory: Path, tops: list[str], main: str) -> None:
    """Rename the staged entries into ``directory``: companions first, then the
    report. Entries they replace are kept aside until the report is in place,
    and put back if any rename fails."""
    replaced: list[tuple[Path, Path]] = []
    moved: list[Path] = []
    try:
        for top in tops:
            source, target = staging / top, directory / top
            if target.exists() or target.is_symlink():
                backup = staging / f".replaced-{top}"
                os.replace(target, backup)
                replaced.append((backup, target))
            os.replace(source, target)
            moved.append(target)
        os.replace(staging / main, directory / main)
    except BaseException:
        for target in reversed(moved):
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target, ignore_errors=True)
            else:
                target.unlink(missing_ok=True)
        for backup, target in reversed(replaced):
            os.replace(backup, target)
        raise

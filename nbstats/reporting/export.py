"""Write the report: convert the executed notebook, stage every file, and
rename them into place, atomically.

The notebook is executed by :mod:`nbstats.reporting.kernel` (re-exported here as
:func:`execute_notebook`); scratch names and the removal of a killed run's
leftovers are :mod:`nbstats.reporting.scratch`'s. :func:`export_notebook` turns
the executed notebook into the bytes of the report and of the files that go
next to it; :func:`write_report` stages all of them in a temporary directory
beside the target and renames them into place, the report itself last. Any
failure before that leaves the target directory as it was: no half-written
report, no stray temporary file, an existing report untouched.

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

Beside a PDF or LaTeX report, ``<stem>_core/`` holds Table 1 and Figure 1
and ``<stem>_tables/`` the other figures a paper may include
(``figure-<name>.pdf``: heat map, rank intervals, Plackett–Luce, posterior),
all set for the report's venue: a column wide, text at 8 pt in the venue's
font, with a ``-wide`` variant for ``figure*`` in a two-column venue.

In the companion files' names, characters LaTeX and BibTeX cannot take (spaces,
``%``, ``#``, ...) become ``_``: ``my report.tex`` comes with ``my_report.bib``,
``my_report_files/`` and ``my_report_tables/``.
"""

from __future__ import annotations

import base64
import copy
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nbstats.reporting.errors import TEX_PACKAGES, MissingToolError, ReportError

# the kernel's and the scratch files' names, where callers have found them
from nbstats.reporting.kernel import (  # noqa: F401  (tests replace it here)
    CELL_TIMEOUT,
    STARTUP_TIMEOUT,
    _execute_in_thread,
    execute_notebook,
)
from nbstats.reporting.scratch import STALE_AFTER, remove_stale, scratch_prefix
from nbstats.util.interrupts import raise_recorded_interrupt

__all__ = [
    "FORMATS",
    "LATEX_COMMAND",
    "STALE_AFTER",
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

#: The PDF report refused: a font would leave characters out.
_MISSING_FONT = (
    "The PDF report would leave out characters that no installed font has: "
    "{}. Install a font that has them (Debian: fonts-noto-cjk for Chinese, "
    "Japanese and Korean; fonts-dejavu-core for Greek, Cyrillic, Hebrew and "
    'Arabic), or write the report as HTML (format="html", or --format html '
    "on the command line), which the browser sets with its own fonts."
)

#: How xelatex is run for PDF reports ("{filename}" is the .tex file).
LATEX_COMMAND = ["xelatex", "-interaction=nonstopmode", "-halt-on-error", "{filename}"]


def resolve_format(path: Path, format: str | None) -> str:
    """The report format: ``format`` if given, else from the path's suffix.

    A path whose suffix names another format is refused (``format="pdf"``
    with ``x.html`` would write a PDF into a file that says HTML); a suffix
    that names no format (``x.txt``) takes ``format`` as given.

    Examples
    --------
    >>> resolve_format(Path("r.PDF"), None), resolve_format(Path("r.out"), "tex")
    ('pdf', 'tex')
    >>> resolve_format(Path("x.html"), "pdf")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the report 'x.html' ends in '.html', an html file, but format='pdf' ...
    """
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
    named = FORMATS.get(path.suffix.lower())
    if named is not None and named != format.lower():
        raise ValueError(
            f"the report {path.name!r} ends in {path.suffix!r}, an {named} file, "
            f"but format={format!r} was asked for: the file would hold a "
            f"{format.lower()} report under the wrong name. Give a path ending "
            f"in .{format.lower()}, or leave out format= (the suffix gives it)."
        )
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
    ``summary.tex`` and ``summary.csv``, ``figure-1.pdf``, ``.svg`` and
    ``.tex`` (and ``figure-1-wide.pdf`` for a two-column venue)."""
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


def paste_figure_files(nb: Any, stem: str) -> dict[str, bytes]:
    """The paste-ready figures (other than Figure 1, in ``<stem>_core/``)
    set for the report's venue: ``<stem>_tables/figure-<name>.pdf``, its
    ``-wide.pdf`` for a two-column venue and a ``-key.tex`` of names too
    many for the float; and the full LaTeX of a table the report shows in
    part (``summary-all.tex``: Table 1 of many algorithms)."""
    folder = f"{_safe_stem(stem)}_tables"
    files: dict[str, bytes] = {}
    for meta in _outputs_metadata(nb, "figure"):
        for name, data in meta.get("tables_binary", {}).items():
            files[f"{folder}/{name}"] = base64.b64decode(data)
    # a long table shown in part (Table 1 of many algorithms): in full, for a
    # paper's appendix
    for meta in _outputs_metadata(nb, "csv"):
        for name, latex in meta.get("tables_files", {}).items():
            body = _table_file(name, latex, folder)
            files[f"{folder}/{name}"] = body.encode("utf-8")
    return files


def _with_tables_folder(nb: Any, folder: str) -> Any:
    """A copy of ``nb`` whose LaTeX names the folder the CSV files go to."""
    from nbstats.reporting.appendix import TABLES_FOLDER

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
        "tabularx": "\\begin{tabularx}" in latex,
        "xltabular": "\\begin{xltabular}" in latex or "\\begin{longtable}" in latex,
        "supertabular": "\\begin{supertabular}" in latex,
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
    from nbstats.reporting.csv_safety import defuse_csv_outputs
    from nbstats.reporting.imports import nbformat as load_nbformat

    nbformat = load_nbformat()
    from nbstats.reporting.methods import bibtex

    nb = defuse_csv_outputs(nb)
    if fmt == "ipynb":
        return nbformat.writes(nb).encode("utf-8"), {}
    if fmt == "html":
        from nbstats.reporting.exporters import NbstatsHTMLExporter

        exporter = NbstatsHTMLExporter(config=_latex_config())
        body, _ = exporter.from_notebook_node(
            nb, resources={"metadata": {"name": stem}}
        )
        return body.encode("utf-8"), {}

    from nbconvert.exporters.pdf import LatexFailed
    from nbconvert.utils.pandoc import PandocMissing

    from nbstats.reporting.exporters import NbstatsLatexExporter, NbstatsPDFExporter

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
                        "nbstats_lost_characters": "error",
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
            missing = exporter.missing_characters()
            if missing:
                raise ReportError(_MISSING_FONT.format(", ".join(missing)))
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


def write_report(
    nb: Any,
    path: Path,
    fmt: str,
    later: Callable[[], dict[str, dict[str, str]]] | None = None,
) -> Path:
    """Export ``nb`` and write the report at ``path`` (and its companion files).

    Everything is staged in a temporary directory next to ``path`` and renamed
    into place, the report last; on any error the staging directory is removed
    and the existing files are left as they were. Every CSV file goes through
    :func:`nbstats.reporting.csv_safety.defuse_files` (and the notebook's CSV outputs
    through :func:`~nbstats.reporting.csv_safety.defuse_csv_outputs`), so no cell of
    any CSV file is a formula a spreadsheet would run.

    ``later`` (PDF and LaTeX): the paste-ready figure files the cells left to
    draw (:mod:`nbstats.reporting.paste_later`), ``{figure label: {file name:
    base64}}``; drawn in this thread while the export runs in another (xelatex
    is a process of its own), then put into ``nb`` where the cells would have.
    """
    from nbstats.reporting.csv_safety import defuse_files
    from nbstats.util.memory import give_back_freed_memory

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
        if fmt == "pdf":  # xelatex's memory comes on top of this process's
            give_back_freed_memory()
        if later is None:
            body, extras = export_notebook(nb, fmt, stem=stem)
        else:
            body, extras = _export_beside(nb, fmt, stem, later)
        if fmt in ("pdf", "tex"):  # an HTML report stays one self-contained file
            extras.update(core_files(nb, stem))
            extras.update(paste_figure_files(nb, stem))
        extras = defuse_files(extras)  # no CSV cell a spreadsheet would run
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


def _export_beside(
    nb: Any, fmt: str, stem: str, later: Callable[[], dict[str, dict[str, str]]]
) -> tuple[bytes, dict[str, bytes]]:
    """:func:`export_notebook` in a thread of its own while ``later()`` draws
    in this one; its files go into ``nb``'s figure outputs once both are done
    (the export reads ``nb`` meanwhile, and needs none of them)."""
    from concurrent import futures

    from nbstats.util.pools import thread_pool

    exported = thread_pool("nbstats-export", workers=1).submit(
        export_notebook, nb, fmt, stem=stem
    )
    try:
        drawn = later()
    except BaseException:
        futures.wait([exported])  # its xelatex ends before the error leaves
        raise
    done = exported.result()
    for meta in _outputs_metadata(nb, "figure"):
        files = drawn.get(meta.get("label"))
        if files:
            meta["tables_binary"] = files
    return done


def _commit(staging: Path, directory: Path, tops: list[str], main: str) -> None:
    """Rename the staged entries into ``directory``: companions first, then the
    report. Entries they replace are kept aside until the report is in place,
    and put back if any rename fails. Nothing is renamed after an interrupt
    whose exception was dropped (:mod:`nbstats.util.interrupts`): the report
    and its files are left as they were."""
    raise_recorded_interrupt()
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

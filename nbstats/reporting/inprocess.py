"""Execute a report notebook's cells in this process, as a kernel would.

A fresh kernel costs its start and the whole import chain (numpy, pandas,
scipy, matplotlib, nbstats) on every report, more than the analyses of a
small table. :func:`run_cells` runs the *same* code cells, in order, in one
fresh namespace of this process, and records what a kernel would record:

- every output of :mod:`nbstats.reporting.display` (``display_data`` with its
  MIME bundle and metadata: the helpers hand it to :func:`capture` instead of
  IPython's display);
- what a cell prints, on stdout or stderr (warnings included, shown once per
  place as in a fresh interpreter), as ``stream`` outputs;
- the value of a cell's last expression, when not None, as an
  ``execute_result``;
- any figure a cell leaves open, as a ``display_data`` with its SVG and PDF
  (as the kernel's inline backend set to those formats does).

The notebook is unchanged: its cells still rebuild every number from the
scores they embed, and re-executing it in a kernel gives the same outputs
(tested). What the run changes in this process is put back afterwards:
warning filters, matplotlib's settings, ``NBSTATS_PROGRESS`` (a progress bar
would be captured as an output), and the report's display sink.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import os
import sys
import warnings
from collections.abc import Iterator
from typing import Any

from nbstats.reporting.errors import ReportError
from nbstats.util.interrupts import raise_recorded_interrupt

__all__ = ["capture", "run_cells"]

#: The outputs of the cell being run, or None outside :func:`run_cells` (the
#: helpers of :mod:`nbstats.reporting.display` then use IPython's display).
_SINK: list[tuple[dict[str, Any], dict[str, Any]]] | None = None


def capture() -> list[tuple[dict[str, Any], dict[str, Any]]] | None:
    """The list the report's outputs go to while :func:`run_cells` runs a cell,
    else None."""
    return _SINK


def run_cells(nb: Any) -> Any:
    """Execute ``nb``'s code cells in order in this process; fill their outputs.

    ``nb`` is changed in place (pass a copy) and returned.

    Raises
    ------
    ReportError
        A cell raised; the message names the error, as the kernel's does.

    Examples
    --------
    >>> from nbstats.reporting.imports import nbformat
    >>> v4 = nbformat().v4
    >>> nb = v4.new_notebook(cells=[v4.new_code_cell("1 + 1")])
    >>> run_cells(nb).cells[0].outputs[0]["data"]["text/plain"]
    '2'
    """
    from nbstats.reporting.imports import nbformat

    from_dict = nbformat().from_dict
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    count = 0
    with _isolated():
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            count += 1
            started = _now()
            outputs = _run_one(cell.source, index, namespace, count)
            # an interrupt dropped inside the cell (raised in a finalizer,
            # its traceback printed into the cell's output) still stops it
            raise_recorded_interrupt()
            cell.outputs = [from_dict(out) for out in outputs]
            cell.execution_count = count
            # when it ran, under nbclient's names (benchmarks/bench_report.py)
            cell.metadata["execution"] = {
                "iopub.execute_input": started,
                "shell.execute_reply": _now(),
            }
    return nb


def _now() -> str:
    import datetime

    return datetime.datetime.now(datetime.UTC).isoformat()


def _run_one(
    source: str, index: int, namespace: dict[str, Any], count: int
) -> list[dict[str, Any]]:
    """One cell's outputs, in the order they were made."""
    global _SINK
    outputs: list[dict[str, Any]] = []
    stdout, stderr = _Stream("stdout", outputs), _Stream("stderr", outputs)
    tree = ast.parse(source, filename=f"<report cell {index}>")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    figures = _open_figures()
    _SINK = _Displayed(outputs, (stdout, stderr))
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            exec(compile(tree, f"<report cell {index}>", "exec"), namespace)
            value = None
            if last is not None:
                value = eval(compile(last, f"<report cell {index}>", "eval"), namespace)
            _figures_left(figures, _SINK)
    except Exception as error:
        raise ReportError(
            f"the report notebook failed: {type(error).__name__}: {error}"
        ) from error
    finally:
        _SINK = None
        stdout.flush_output()
        stderr.flush_output()
    if value is not None:
        outputs.append(
            {
                "output_type": "execute_result",
                "execution_count": count,
                "data": _bundle(value),
                "metadata": {},
            }
        )
    return outputs


class _Displayed(list):
    """The sink: each display flushes pending text first, keeping the order."""

    def __init__(self, outputs: list, streams: tuple) -> None:
        super().__init__()
        self._outputs, self._streams = outputs, streams

    def append(self, item: tuple[dict[str, Any], dict[str, Any]]) -> None:
        for stream in self._streams:
            stream.flush_output()
        bundle, metadata = item
        self._outputs.append(
            {
                "output_type": "display_data",
                "data": dict(bundle),
                "metadata": dict(metadata),
            }
        )


class _Stream(io.StringIO):
    """A captured stream whose text becomes a ``stream`` output when flushed
    (a run of text between two displays is one output, as in a kernel)."""

    def __init__(self, name: str, outputs: list[dict[str, Any]]) -> None:
        super().__init__()
        self.name, self._outputs = name, outputs

    def flush_output(self) -> None:
        text = self.getvalue()
        if text:
            last = self._outputs[-1] if self._outputs else {}
            if last.get("output_type") == "stream" and last["name"] == self.name:
                last["text"] += text
            else:
                self._outputs.append(
                    {"output_type": "stream", "name": self.name, "text": text}
                )
            self.seek(0)
            self.truncate()


def _bundle(value: Any) -> dict[str, str]:
    """The MIME bundle IPython would show for a last expression's value."""
    data = {"text/plain": repr(value)}
    for method, mime in (("_repr_html_", "text/html"), ("_repr_latex_", "text/latex")):
        found = getattr(value, method, None)
        if callable(found):
            shown = found()
            if shown is not None:
                data[mime] = shown
    return data


def _open_figures() -> set[int]:
    pyplot = sys.modules.get("matplotlib.pyplot")
    return set(pyplot.get_fignums()) if pyplot is not None else set()


def _figures_left(before: set[int], sink: Any) -> None:
    """Figures a cell left open: shown as the inline backend would (SVG and
    PDF, the formats :func:`nbstats.reporting.display.start` sets), then closed."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return
    import base64

    for number in sorted(set(pyplot.get_fignums()) - before):
        fig = pyplot.figure(number)
        svg, pdf = io.BytesIO(), io.BytesIO()
        fig.savefig(svg, format="svg", bbox_inches="tight")
        fig.savefig(pdf, format="pdf", bbox_inches="tight")
        pyplot.close(fig)
        bundle = {
            "image/svg+xml": svg.getvalue().decode("utf-8"),
            "application/pdf": base64.b64encode(pdf.getvalue()).decode("ascii"),
            "text/plain": f"<Figure {number}>",
        }
        sink.append((bundle, {}))


@contextlib.contextmanager
def _isolated() -> Iterator[None]:
    """Warning filters as a fresh interpreter has them, matplotlib's settings,
    and progress bars off, for the run; the caller's put back after."""
    saved = os.environ.get("NBSTATS_PROGRESS")
    os.environ["NBSTATS_PROGRESS"] = "0"
    try:
        with warnings.catch_warnings(), _matplotlib_settings():
            # a fresh interpreter's filters (any change of the filters also
            # forgets which warnings were already shown: each shows once)
            warnings.resetwarnings()
            for category in (
                DeprecationWarning,
                PendingDeprecationWarning,
                ImportWarning,
                ResourceWarning,
            ):
                warnings.simplefilter("ignore", category)
            warnings.simplefilter("default", UserWarning)
            # shown on the cell's stderr, as a kernel shows them (whoever
            # records the caller's warnings, e.g. a test runner)
            warnings.showwarning = _show_warning
            yield
    finally:
        if saved is None:
            os.environ.pop("NBSTATS_PROGRESS", None)
        else:
            os.environ["NBSTATS_PROGRESS"] = saved


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    text = warnings.formatwarning(message, category, filename, lineno, line)
    (sys.stderr if file is None else file).write(text)


def _matplotlib_settings() -> contextlib.AbstractContextManager[Any]:
    """matplotlib's rcParams put back after the report's typography."""
    import matplotlib

    return matplotlib.rc_context()

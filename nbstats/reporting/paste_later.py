"""A report's paste-ready figure files, drawn while xelatex typesets the report.

A PDF report writes every figure a paper may include again, set for the
paper's venue (``<stem>_tables/``,
:func:`nbstats.plots.venue_files.venue_figures`): for a large table about a
second of drawing that nothing else waits for, except that it used to come
before xelatex. When the report's cells run in this process
(:mod:`nbstats.reporting.inprocess`), :func:`collected` keeps those drawings
for later instead; :func:`nbstats.reporting.export.write_report` then draws
them while xelatex (a process of its own, on another core) typesets the
report, and puts them into the notebook's metadata where a kernel would have.

Each drawing is made with matplotlib's settings, the figures' typography and
the venue of the moment its figure was shown, so the files are the same bytes
as when drawn at once (tested). Run in a kernel, or outside
:func:`collected`, the files are drawn at once, as before.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
from collections.abc import Iterator
from typing import Any

from nbstats.reporting.inprocess import capture

__all__ = ["Pending", "collected", "draw_all", "paste_files"]

#: The drawings kept for later while :func:`collected` runs, else None.
_PENDING: list[Pending] | None = None


@dataclasses.dataclass(frozen=True)
class Pending:
    """One figure's paste-ready files, to be drawn: what to draw and the
    settings it was shown with."""

    label: str
    result: Any
    kind: str | None
    plot_kw: dict[str, Any]
    venue: Any
    typography: Any
    rc: dict[str, Any]

    def draw(self) -> dict[str, str]:
        """The files (base64), drawn as they would have been when shown."""
        import matplotlib

        from nbstats.plots.style import typography_as

        with typography_as(self.typography), matplotlib.rc_context(self.rc):
            return _drawn(self.label, self.result, self.kind, self.plot_kw, self.venue)


@contextlib.contextmanager
def collected() -> Iterator[list[Pending]]:
    """Inside, the paste-ready files of figures shown by cells run in this
    process are kept (the list yielded) instead of drawn; draw them with
    :func:`draw_all`.

    Examples
    --------
    >>> with collected() as later:
    ...     pass
    >>> later
    []
    """
    global _PENDING
    outer, _PENDING = _PENDING, []
    try:
        yield _PENDING
    finally:
        _PENDING = outer


def paste_files(
    label: str, result: Any, kind: str | None, plot_kw: dict[str, Any], venue: Any
) -> dict[str, str] | None:
    """A figure's paste-ready files for ``venue`` (base64 by file name), or
    None when they are kept to be drawn later (:func:`collected`, cells run
    in this process)."""
    if _PENDING is not None and capture() is not None:
        import matplotlib

        from nbstats.plots.style import set_typography

        _PENDING.append(
            Pending(
                label,
                result,
                kind,
                dict(plot_kw),
                venue,
                set_typography(),  # the settings as they are
                dict(matplotlib.rcParams),
            )
        )
        return None
    return _drawn(label, result, kind, plot_kw, venue)


def draw_all(pending: list[Pending]) -> dict[str, dict[str, str]]:
    """``{figure label: {file name: base64}}`` of the kept drawings, in the
    order their figures were shown."""
    return {one.label: one.draw() for one in pending}


def _drawn(
    label: str, result: Any, kind: str | None, plot_kw: dict[str, Any], venue: Any
) -> dict[str, str]:
    from nbstats.plots.venue_files import venue_figures

    stem = "figure-" + label.split(":", 1)[-1]
    files = venue_figures(
        result, venue, kind=kind, stem=stem, formats=("pdf",), **plot_kw
    )
    return {
        name: base64.b64encode(data).decode("ascii") for name, data in files.items()
    }

"""What every dashboard shares: controls, a synchronous recompute, visible errors.

A dashboard is ipywidgets' ``interactive_output`` pattern made testable: the
controls (``.controls``, name → widget) are separate from the views they drive;
changing any control's ``.value`` recomputes ``.result`` and the views at once,
in the same thread, so a test can set a value and assert on the outcome without
a browser. An exception raised while recomputing is shown in the dashboard
(``.error`` holds its text) and the previous result stays, instead of vanishing
into a callback log.
"""

from __future__ import annotations

import functools
import html
import traceback
import warnings
from collections.abc import Mapping
from typing import Any

import pandas as pd

from nbstats.results.number_policy import format_number
from nbstats.scores.aliases import AliasOption, make_aliases
from nbstats.scores.table import score_table

__all__ = [
    "SCROLL_CLASS",
    "TABLE_STYLE",
    "Dashboard",
    "alias_html",
    "alpha_slider",
    "cell_style",
    "dropped_html",
    "name_dropdown",
    "number_html",
    "prepare_table",
]

#: CSS class of the boxes that scroll (wide matrices, long tables): the only
#: places where content may be wider or taller than its box.
SCROLL_CLASS = "nbstats-scroll"
#: CSS class of every dashboard's outer box.
BOARD_CLASS = "nbstats-board"
#: Lets the HTML views shrink to the dashboard's width (a flex item is never
#: narrower than its content otherwise), so that their scroll boxes scroll
#: instead of pushing the page sideways.
STYLE = (
    "<style>"
    f".{BOARD_CLASS} .widget-html-content,"
    f".{BOARD_CLASS} .jupyter-widget-html-content{{min-width:0}}"
    "</style>"
)

#: Inline style of the dashboards' own tables: tabular figures, a row a line.
TABLE_STYLE = (
    "border-collapse:collapse;font-size:12px;line-height:1.4;"
    "font-variant-numeric:tabular-nums;white-space:nowrap"
)


def cell_style(align: str = "right", *, head: bool = False) -> str:
    """Inline style of a cell of a dashboard's table (``head``: a header cell,
    ruled darker)."""
    rule = "#888" if head else "#ddd"
    return f"padding:2px 8px;border-bottom:1px solid {rule};text-align:{align}"


class Dashboard:
    """Base class: subclasses build controls and views, and implement
    :meth:`compute` (controls → result) and :meth:`render` (result → views).

    Attributes
    ----------
    controls : dict of str to ipywidgets.Widget
    result : dict
        The current result objects (what the views show).
    error : str or None
        The message of the last failed recompute, None after a success.
    widget : ipywidgets.Widget
        The whole dashboard (displayed by ``display(dashboard)``).
    """

    def __init__(self) -> None:
        import ipywidgets as widgets  # lazy: only dashboards need ipywidgets

        self.controls: dict[str, Any] = {}
        self.result: dict[str, Any] = {}
        self.error: str | None = None
        self._error_view = widgets.HTML(value="")
        self.widget: Any = None

    # -- to implement ---------------------------------------------------------

    def compute(self, changed: str | None) -> dict[str, Any]:
        """Recompute the result from the controls; ``changed`` names the
        control that moved (None at start), so caches can be kept."""
        raise NotImplementedError

    def render(self, result: dict[str, Any]) -> None:
        """Update the views from a freshly computed result."""
        raise NotImplementedError

    # -- wiring ----------------------------------------------------------------

    def _connect(self) -> None:
        self._held: set[str] | None = None
        for name, control in self.controls.items():
            control.observe(
                lambda change, name=name: self._changed(name), names="value"
            )

    def _changed(self, name: str) -> None:
        if self._held is not None:
            self._held.add(name)
        else:
            self.update(name)

    def set(self, **values: Any) -> None:
        """Set several controls, then recompute once (not once per control).

        Examples
        --------
        >>> import nbstats
        >>> board = nbstats.dashboard(nbstats.datasets.load("demsar2006"),
        ...                           kind="frequentist")
        >>> board.set(method="holm", control="C4.5")
        >>> board.result["posthoc"].control
        'C4.5'
        """
        unknown = sorted(set(values) - set(self.controls))
        if unknown:
            raise TypeError(
                f"no control named {', '.join(map(repr, unknown))}; the controls "
                f"are {', '.join(map(repr, self.controls))}."
            )
        self._held = set()
        try:
            for name, value in values.items():
                self.controls[name].value = value
        finally:
            changed, self._held = self._held, None
        if changed:
            self.update(next(iter(changed)) if len(changed) == 1 else None)

    def update(self, changed: str | None = None) -> None:
        """Recompute and re-render now; errors are shown, not raised."""
        try:
            result = self.compute(changed)
            self.render(result)
        except Exception as error:  # shown in the dashboard, never lost
            self.error = f"{type(error).__name__}: {error}"
            detail = html.escape("".join(traceback.format_exception_only(error)))
            self._error_view.value = (
                '<div style="color:#b00020;white-space:pre-wrap">'
                f"<b>Could not update:</b> {detail}</div>"
            )
            return
        self.result = result
        self.error = None
        self._error_view.value = ""

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no view is still being computed in the background (a
        dashboard whose views all update at once returns True at once);
        False if ``timeout`` seconds passed first."""
        return True

    def close(self) -> None:
        """Close the dashboard's widgets, so that the kernel lets it go.

        ipywidgets keeps every widget it has made until it is closed, and the
        controls' handlers keep the dashboard, with its draws and cached
        sums (a few hundred MB for the Bayesian one at 50 algorithms): until
        ``close()``, re-running a cell that makes a dashboard holds the old
        one as well. Background work is waited for first; a closed dashboard
        is no longer shown and cannot be used again.

        Examples
        --------
        >>> import gc, weakref, nbstats
        >>> board = nbstats.dashboard(nbstats.datasets.load("demsar2006"),
        ...                           kind="frequentist")
        >>> gone = weakref.ref(board)
        >>> board.close()
        >>> del board
        >>> _ = gc.collect()
        >>> gone() is None
        True
        """
        self.wait()
        found = {
            id(w): w for w in (*_widget_tree(self.widget), *self.controls.values())
        }
        for widget in found.values():
            widget.close()
        self.result = {}

    # -- export ----------------------------------------------------------------

    def report_settings(self) -> dict[str, Any]:
        """Keyword arguments of :func:`nbstats.report` matching the controls."""
        return {}

    def export_report(self, path: str) -> Any:
        """Write the report of this dashboard's data with its current settings.

        Returns the written path; see :func:`nbstats.report` (HTML, PDF, TeX or
        ipynb by the suffix).
        """
        import inspect

        from nbstats.reporting import report  # lazy: nbconvert only when writing

        self.wait()
        table = getattr(self, "scores", None)
        if table is None:
            table = self.table
        options = inspect.signature(report).parameters
        anything = any(p.kind is p.VAR_KEYWORD for p in options.values())

        def takes(name: str) -> bool:
            return name in options or anything

        extra: dict[str, Any] = {}
        if takes("nan_policy") and hasattr(self, "nan_policy"):
            # the report names the dropped cases itself
            extra["nan_policy"] = self.nan_policy
            table = self._source
        if takes("aliases") and hasattr(self, "_alias_option"):
            extra["aliases"] = self._alias_option
        return report(
            table,
            path,
            higher_is_better=self.higher_is_better,
            **extra,
            **self.report_settings(),
        )

    def _add_export_bar(self) -> None:
        """Append an "Export report" row (path, button, status) to the widget."""
        import ipywidgets as widgets

        self.export_path = widgets.Text(
            value="nbstats-report.html",
            description="report",
            style={"description_width": "initial"},
        )
        self.export_button = widgets.Button(
            description="Export report",
            icon="file",
            tooltip="write the report with these settings",
        )
        self.export_status = widgets.HTML(value="")

        def clicked(_button: Any) -> None:
            self.export_status.value = "writing…"
            try:
                path = self.export_report(self.export_path.value)
            except Exception as error:  # shown next to the button, never lost
                self.export_status.value = (
                    '<span style="color:#b00020">could not write the report: '
                    f"{html.escape(f'{type(error).__name__}: {error}')}</span>"
                )
                return
            self.export_status.value = f"wrote <code>{html.escape(str(path))}</code>"

        self.export_button.on_click(clicked)
        self.widget.children = (
            *self.widget.children,
            widgets.HBox([self.export_path, self.export_button, self.export_status]),
        )

    def _add_notes(self) -> None:
        """Put the alias legend and the dropped-cases note under the controls
        (and the style that keeps the views within the page)."""
        import ipywidgets as widgets

        self.widget.add_class(BOARD_CLASS)
        style = widgets.HTML(value=STYLE, layout=widgets.Layout(margin="0"))
        self.widget.children = (style, *self.widget.children)
        notes = [
            view
            for view in (getattr(self, "_dropped_view", None), self._alias_view())
            if view is not None
        ]
        if notes:
            children = list(self.widget.children)
            at = children.index(self._error_view)
            self.widget.children = (*children[:at], *notes, *children[at:])

    def _alias_view(self) -> Any:
        import ipywidgets as widgets

        legend = alias_html(getattr(self, "aliases", {}))
        if not legend:
            return None
        self.alias_view = widgets.HTML(value=legend)
        return self.alias_view

    # -- display -----------------------------------------------------------------

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, with a static snapshot (``text/html``) and a
        readable ``text/plain`` for where widgets do not run (GitHub, a
        notebook opened without its kernel, plain-text viewers)."""
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/html"] = self.snapshot_html()
        bundle["text/plain"] = self._summary()
        return bundle

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self._repr_mimebundle_(), raw=True)

    def _summary(self) -> str:
        table = getattr(self, "scores", None)
        if table is None:
            table = self.table
        n, m = table.shape
        settings = ", ".join(
            f"{name} = {_control_text(control)}"
            for name, control in self.controls.items()
        )
        return (
            f"{type(self).__name__} of {m} algorithms on {n} cases ({settings}); "
            "a live ipywidgets dashboard: run the notebook to use it."
        )

    def snapshot_html(self) -> str:
        """The dashboard as it is now, as static HTML: the controls' values as
        text, the views' HTML and pictures (no script, no widget)."""
        self.wait()
        note = (
            '<div style="font-size:12px;color:#555;margin-bottom:4px"><i>A static '
            "snapshot of the dashboard as it was displayed; run the notebook for "
            "the live controls.</i></div>"
        )
        return (
            '<div class="nbstats-snapshot" style="max-width:100%;overflow-x:auto">'
            f"{note}{_snapshot(self.widget)}</div>"
        )


@functools.lru_cache(maxsize=1 << 16)
def number_html(value: float, kind: str) -> str:
    """``value`` as the report prints it (the number policy,
    :func:`~nbstats.results.number_policy.format_number`), HTML-escaped.

    Remembered per (value, kind): a dashboard redraws the same probabilities
    and p-values on every move of a control that does not change them (the
    loss ratio, α), and a Monte Carlo probability takes few distinct values.

    Examples
    --------
    >>> number_html(0.99951, "probability"), number_html(0.0004, "pvalue")
    ('&gt; 0.999', '&lt; 0.001')
    """
    return html.escape(format_number(float(value), kind))


def alpha_slider(value: float = 0.05) -> Any:
    """The significance-level slider the frequentist dashboards share."""
    import ipywidgets as widgets

    return widgets.FloatSlider(
        value=value,
        min=0.001,
        max=0.2,
        step=0.001,
        readout_format=".3f",
        description="α",
        style={"description_width": "initial"},
    )


def prepare_table(
    scores: Any, nan_policy: str = "raise"
) -> tuple[pd.DataFrame, list[str]]:
    """The validated score table and the cases ``nan_policy="omit"`` dropped.

    :func:`nbstats.score_table`'s warning about dropped cases is not
    repeated: a dashboard shows the dropped cases itself (:func:`dropped_html`).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> raw = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": [2.0, 2.0, 1.0]},
    ...                    index=["x", "y", "z"])
    >>> table, dropped = prepare_table(raw, "omit")
    >>> list(table.index), dropped
    (['x', 'z'], ['y'])
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="nan_policy='omit'")
        table = score_table(scores, nan_policy=nan_policy)
    dropped: list[str] = []
    if nan_policy == "omit":
        if isinstance(scores, pd.DataFrame) and len(scores) != len(table):
            kept = set(table.index)
            dropped = [str(c) for c in scores.index if c not in kept]
        elif not isinstance(scores, pd.DataFrame):
            size = len(pd.DataFrame(scores))
            if size != len(table):
                dropped = [f"{size - len(table)} unnamed"]
    return table, dropped


def display_names(
    names: list[str], aliases: AliasOption | Mapping[str, str]
) -> dict[str, str]:
    """``{name: display name}`` (:func:`nbstats.scores.aliases.make_aliases`), with
    ``aliases`` checked: "auto", True, False, None or a mapping."""
    if not (
        aliases is None
        or isinstance(aliases, (bool, Mapping))
        or (isinstance(aliases, str) and aliases == "auto")
    ):
        raise ValueError(
            f"aliases must be 'auto', True, False or a mapping {{name: alias}}, "
            f"got {aliases!r}."
        )
    return make_aliases(names, aliases)


def alias_html(mapping: Mapping[str, str]) -> str:
    """The legend alias → full name, or "" when no alias differs from its name."""
    rows = [(alias, name) for name, alias in mapping.items() if alias != name]
    if not rows:
        return ""
    items = "".join(
        f"<div><b>{html.escape(alias)}</b> = {html.escape(name)}</div>"
        for alias, name in rows
    )
    return (
        '<div style="font-size:12px;margin:4px 0"><b>Aliases</b> '
        "used in the views for the long names:"
        f'<div class="{SCROLL_CLASS}" style="max-width:100%;max-height:9em;'
        "overflow:auto;display:grid;gap:0 2em;overflow-wrap:anywhere;"
        "grid-template-columns:repeat(auto-fill,minmax(min(24em,100%),1fr));"
        f'margin-top:2px;line-height:1.5">{items}</div></div>'
    )


def dropped_html(dropped: list[str], kept: int) -> str:
    """The note that nan_policy="omit" dropped cases, naming them."""
    if not dropped:
        return ""
    if len(dropped) == 1 and dropped[0].endswith(" unnamed"):
        count = int(dropped[0].split()[0])
        which = ""
    else:
        count = len(dropped)
        shown = ", ".join(html.escape(c) for c in dropped[:20])
        more = f", … ({count - 20} more)" if count > 20 else ""
        which = f": {shown}{more}"
    return (
        '<div style="font-size:12px;color:#8a5a00;overflow-wrap:anywhere">'
        f"nan_policy='omit': dropped {count} case{'s' if count != 1 else ''} "
        f"with a missing score{which}; {kept} cases remain.</div>"
    )


def name_dropdown(
    names: list[str],
    shown: Mapping[str, str],
    *,
    description: str,
    value: str | None = None,
    none_label: str | None = None,
) -> Any:
    """A dropdown of algorithms that stays usable for 100 long names.

    Options read "alias — full name" when an alias is used; the box has a
    fixed width (the browser clips a long option inside it; the open list
    shows it in full).
    """
    import ipywidgets as widgets

    options: list[tuple[str, Any]] = []
    if none_label is not None:
        options.append((none_label, None))
    for name in names:
        alias = shown.get(name, name)
        options.append((name if alias == name else f"{alias} — {name}", name))
    return widgets.Dropdown(
        options=options,
        value=value if value is not None or none_label is not None else names[0],
        description=description,
        style={"description_width": "initial"},
        layout=widgets.Layout(width="20em"),
    )


def _control_text(control: Any) -> str:
    label = getattr(control, "label", None)
    if isinstance(label, (tuple, list)):
        return "; ".join(map(str, label)) or "(none)"
    if label is not None:
        return str(label)
    value = control.value
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _snapshot(widget: Any) -> str:
    """Static HTML of a widget tree (see :meth:`Dashboard.snapshot_html`)."""
    import base64

    import ipywidgets as widgets

    if isinstance(widget, widgets.Box):
        inner = "".join(_snapshot(child) for child in widget.children)
        if isinstance(widget, widgets.HBox):
            return (
                '<div style="display:flex;flex-wrap:wrap;align-items:flex-start;'
                f'gap:4px 16px;max-width:100%">{inner}</div>'
            )
        return f'<div style="max-width:100%">{inner}</div>'
    if isinstance(widget, widgets.HTML):
        return widget.value if widget.value != STYLE else ""
    if isinstance(widget, widgets.Output):
        parts = []
        for output in widget.outputs:
            data = output.get("data", {})
            if "image/svg+xml" in data:
                svg = base64.b64encode(data["image/svg+xml"].encode()).decode()
                parts.append(f'<img src="data:image/svg+xml;base64,{svg}" alt="">')
            elif "image/png" in data:
                parts.append(f'<img src="data:image/png;base64,{data["image/png"]}">')
        return f'<div style="max-width:100%;overflow-x:auto">{"".join(parts)}</div>'
    if isinstance(widget, (widgets.Button, widgets.Text)):
        return ""  # the export bar does nothing in a snapshot
    if isinstance(widget, widgets.ValueWidget):
        name = html.escape(widget.description or "")
        value = html.escape(_control_text(widget))
        return f'<div style="font-size:13px;padding:2px 0">{name}: <b>{value}</b></div>'
    return ""


def _widget_tree(widget: Any) -> list[Any]:
    """A widget and every widget inside it (boxes' children, depth first)."""
    found = [widget]
    for child in getattr(widget, "children", ()):
        found.extend(_widget_tree(child))
    return found

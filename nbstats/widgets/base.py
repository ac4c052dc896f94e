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

import html
import traceback
from typing import Any

__all__ = ["Dashboard", "alpha_slider"]


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
        for name, control in self.controls.items():
            control.observe(lambda change, name=name: self.update(name), names="value")

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

    # -- export ----------------------------------------------------------------

    def report_settings(self) -> dict[str, Any]:
        """Keyword arguments of :func:`nbstats.report` matching the controls."""
        return {}

    def export_report(self, path: str) -> Any:
        """Write the report of this dashboard's data with its current settings.

        Returns the written path; see :func:`nbstats.report` (HTML, PDF, TeX or
        ipynb by the suffix).
        """
        from nbstats.report import report  # lazy: nbconvert only when writing

        table = getattr(self, "scores", None)
        if table is None:
            table = self.table
        return report(
            table,
            path,
            higher_is_better=self.higher_is_better,
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

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


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

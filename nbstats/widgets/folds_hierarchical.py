"""The fold dashboard's hierarchical test: run on request, in the background.

The Bayesian hierarchical test (Corani et al. 2017;
:func:`nbstats.bayes_hierarchical`) samples with NumPyro for tens of seconds
(the first call of a size also compiles the model), far beyond a slider's
budget. :class:`HierarchicalPanel` gives the dashboard a button that runs it
on the current pair, rope, design and loss in a background thread (the
dashboard stays live), a spinner while it runs, then the probabilities, the
decision, the diagnostics and the simplex; it says when the controls have
moved since. Without jax/NumPyro the button is disabled and names the extra
to install. The panel is a mixin of :class:`nbstats.widgets.folds.FoldDashboard`.
"""

from __future__ import annotations

import html
import importlib.util
import threading
import time
from collections.abc import Mapping
from typing import Any

from nbstats.widgets import folds_views as views
from nbstats.widgets.simplex_svg import simplex_svg

__all__ = ["MISSING_LABEL", "RUN_LABEL", "HierarchicalPanel", "sampler_available"]

#: What the button says.
RUN_LABEL = "Run hierarchical test (≈30 s)"
RUNNING_LABEL = "Running the hierarchical test…"
MISSING_LABEL = "Hierarchical test: pip install nbstats[hierarchical]"


def sampler_available() -> bool:
    """jax and numpyro importable (checked without importing them)."""
    try:
        return all(importlib.util.find_spec(m) is not None for m in ("jax", "numpyro"))
    except (ImportError, ValueError):  # a module set to None in sys.modules
        return False


class HierarchicalPanel:
    """The button, status, result and simplex of the hierarchical test.

    Expects of the dashboard: ``tests`` (a
    :class:`~nbstats.widgets.folds_data.FoldTests`), ``aliases``, ``timings``
    and ``_settings()`` (the controls' values).
    """

    tests: Any
    aliases: dict[str, str]
    timings: dict[str, float]

    def _settings(self) -> dict[str, Any]:  # pragma: no cover - the dashboard's
        raise NotImplementedError

    def _build_hierarchical(self, options: Mapping[str, Any] | None) -> list[Any]:
        """The panel's widgets (two rows), its state and the button's action."""
        import ipywidgets as widgets

        self._hier_options = {"random_state": 0, **dict(options or {})}
        self.hierarchical_result: Any = None
        self.hierarchical_settings: dict[str, Any] | None = None
        self.hierarchical_error: str | None = None
        self._thread: threading.Thread | None = None
        self.hierarchical_view = widgets.HTML()
        self.hierarchical_status = widgets.HTML()
        self.hierarchical_plot = widgets.Output(
            layout=widgets.Layout(width="360px", max_width="100%")
        )
        available = sampler_available()
        self.hierarchical_button = widgets.Button(
            description=RUN_LABEL if available else MISSING_LABEL,
            icon="play" if available else "",
            disabled=not available,
            tooltip=(
                "Bayesian hierarchical test (NumPyro) across all data sets"
                if available
                else "needs the optional extra: pip install nbstats[hierarchical]"
            ),
            layout=widgets.Layout(width="auto"),
        )
        if not available:
            self.hierarchical_status.value = (
                '<span style="font-size:12px">The hierarchical test samples with '
                "NumPyro (on jax), not installed here: <code>pip install "
                "nbstats[hierarchical]</code></span>"
            )
        self.hierarchical_button.on_click(lambda _: self.run_hierarchical(wait=False))
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        return [
            widgets.HBox(
                [self.hierarchical_button, self.hierarchical_status], layout=wrap
            ),
            widgets.HBox(
                [
                    self.hierarchical_plot,
                    widgets.VBox(
                        [self.hierarchical_view],
                        layout=widgets.Layout(flex="1 1 0", min_width="260px"),
                    ),
                ],
                layout=widgets.Layout(flex_flow="row wrap"),
            ),
        ]

    @staticmethod
    def _hierarchical_key(s: Mapping[str, Any]) -> dict[str, Any]:
        key = {"a": s["a"], "b": s["b"], "rope": s["rope"]}
        if s["runs"] is None:
            key["test fraction"] = s["test_fraction"]
        else:
            key["runs"] = s["runs"]
        key["loss ratio"] = round(s["loss_ratio"], 4)
        return key

    def run_hierarchical(self, wait: bool = True) -> Any:
        """Run :func:`nbstats.bayes_hierarchical` on the current pair, rope,
        design and loss — what the button does, there with ``wait=False``: in
        a background thread, so that the dashboard stays live.

        Returns the result with ``wait=True`` (None if it failed: the error is
        shown beside the button and kept in ``hierarchical_error``), else the
        thread. A run already under way is not started again.
        """
        if self._thread is not None and self._thread.is_alive():
            return self._thread
        s = self._settings()
        button = self.hierarchical_button
        button.disabled = True
        button.description = RUNNING_LABEL
        names = self.tests.names
        if s["a"] in names and s["b"] in names and s["a"] != s["b"]:
            # with min_folds, the data sets the pair keeps
            kept = self.tests.kept(names.index(s["a"]), names.index(s["b"]))
            count = int(kept.sum())
        else:
            count = len(self.tests.cases)
        self.hierarchical_status.value = views.spinner_html(
            f"sampling {count} data sets… (the first run also compiles the model)"
        )
        if wait:
            return self._hierarchical_job(s)
        self._thread = threading.Thread(
            target=self._hierarchical_job, args=(s,), daemon=True
        )
        self._thread.start()
        return self._thread

    def _hierarchical_job(self, s: dict[str, Any]) -> Any:
        from nbstats.stats.hierarchical import bayes_hierarchical

        start = time.perf_counter()
        columns = self.tests.columns
        data = self.tests.data
        design = (
            {"test_fraction": s["test_fraction"]}
            if s["runs"] is None
            else {"runs": s["runs"]}
        )
        result = None
        try:
            pair = data[data[columns["algorithm"]].astype(str).isin([s["a"], s["b"]])]
            result = bayes_hierarchical(
                s["a"], s["b"], data=pair, **columns, **design, rope=s["rope"],
                loss=(1.0, s["loss_ratio"]),
                higher_is_better=self.tests.higher_is_better,
                min_folds=self.tests.min_folds, **self._hier_options,
            )  # fmt: skip
            shown = (
                self.aliases.get(result.name_a, result.name_a),
                self.aliases.get(result.name_b, result.name_b),
            )
            svg = None if result.prob_rope is None else simplex_svg(result, shown)
        except Exception as error:  # shown beside the button, never lost
            result = None
            self.hierarchical_error = f"{type(error).__name__}: {error}"
            self.hierarchical_status.value = (
                '<span style="color:#b00020;font-size:13px">the hierarchical test '
                f"failed: {html.escape(self.hierarchical_error)}</span>"
            )
        else:
            self.hierarchical_error = None
            self.hierarchical_result = result
            self.hierarchical_settings = self._hierarchical_key(s)
            self.timings["hierarchical"] = time.perf_counter() - start
            self.hierarchical_status.value = (
                '<span style="font-size:12px;color:#555">done in '
                f"{self.timings['hierarchical']:.1f} s</span>"
            )
            self.hierarchical_plot.outputs = (
                ()
                if svg is None
                else (
                    {
                        "output_type": "display_data",
                        "data": {
                            "image/svg+xml": svg,
                            "text/plain": "hierarchical test: simplex",
                        },
                        "metadata": {},
                    },
                )
            )
            self._render_hierarchical(self._settings())
        finally:
            self.hierarchical_button.disabled = False
            self.hierarchical_button.description = RUN_LABEL
        return result

    def _render_hierarchical(self, s: Mapping[str, Any]) -> None:
        result = self.hierarchical_result
        if result is None:
            return
        used = self.hierarchical_settings or {}
        stale = used if used != self._hierarchical_key(s) else None
        shown = (
            self.aliases.get(result.name_a, result.name_a),
            self.aliases.get(result.name_b, result.name_b),
        )
        text = views.hierarchical_html(result, shown, stale)
        if result.prob_rope is None:
            text += (
                '<div style="font-size:12px;color:#555">no rope: no simplex '
                "(set a rope and run again to see one).</div>"
            )
        self.hierarchical_view.value = text

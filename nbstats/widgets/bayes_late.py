"""What the Bayesian dashboard shows later, and how it waits for it.

Two pieces of its work can be too slow to wait for on a change of a
control: the joint statements (a pass over every pair's sums on every draw
at 50 algorithms) and the pair matrix's exact IDP bounds with a rope at a
large s (every placement of the prior's pseudo-observation). Each has a
:class:`~nbstats.widgets.late_work.LateRunner`; meanwhile its view says
"updating" over the last current one, and :meth:`LateViews.wait` blocks
until both are current. :class:`LateViews` is a part of
:class:`~nbstats.widgets.bayes.BayesDashboard`, kept apart by topic.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pandas as pd

from nbstats.widgets import bayes_views as views
from nbstats.widgets.bayes_bounds import PairBounds
from nbstats.widgets.late_work import LateRunner, prior_arguments

__all__ = ["JOINT_TITLE", "MATRIX_TITLE", "LateViews", "joint_prior"]

#: The late views' names in their "updating" and "could not be computed" lines.
MATRIX_TITLE = "Pair matrix (exact IDP bounds)"
JOINT_TITLE = "Joint statements"


class LateViews:
    """The late views of :class:`~nbstats.widgets.bayes.BayesDashboard`:
    the runners of its joint statements and exact bounds, their arrivals
    and :meth:`wait`."""

    def _start_late_work(self, joint_in_background: bool) -> None:
        # an update and a late joint table or late bounds never interleave
        self._update_lock = threading.RLock()
        self._joint_shown = ""  # the last current statements' HTML
        self._matrix_shown = ""  # the last current matrix's HTML
        # the two pieces of late work take turns in the background
        serial = threading.Lock()
        self._joint_runner = LateRunner(
            self._joint_statements,
            self._joint_arrived,
            background=joint_in_background,
            serial=serial,
        )
        self._bounds_runner = LateRunner(
            PairBounds(self._engine), self._bounds_arrived, background=True,
            serial=serial,
        )  # fmt: skip

    def _show_late(self, result: dict[str, Any]) -> None:
        """The matrix and the joint statements of ``result``, or "updating"."""
        settings = result["settings"]
        if result["pairs"] is not None:
            self._show_matrix(result["pairs"], settings, result["threshold"])
        else:
            self.matrix_view.value = views.pending_html(
                MATRIX_TITLE, self._matrix_shown, settings
            )
        if result["joint"] is not None:
            self._show_joint(result["joint"], settings)
        else:
            self.joint_view.value = views.pending_html(
                JOINT_TITLE, self._joint_shown, settings
            )

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the joint statements and the pair matrix match the
        controls (they may be computed in the background, see
        ``joint_in_background``); False if ``timeout`` seconds passed first.

        Examples
        --------
        >>> import nbstats
        >>> from nbstats.widgets.bayes import BayesDashboard
        >>> dash = BayesDashboard(nbstats.datasets.load("demsar2006"),
        ...                       n_samples=2_000, joint_in_background=True)
        >>> dash.controls["rope"].value = 0.01
        >>> dash.wait(timeout=60), dash.result["joint"] is not None
        (True, True)
        """
        start = time.monotonic()
        if not self._bounds_runner.wait(timeout):
            return False
        left = None if timeout is None else max(0.0, timeout - time.monotonic() + start)
        return self._joint_runner.wait(left)

    def _bounds_arrived(
        self, wanted: tuple, counted: bool | None, error: Exception | None
    ) -> None:
        """The background thread has counted the exact IDP bounds of
        ``wanted`` (``(s, threshold, rope, "idp")``): the matrix is shown if
        the controls still ask for it (else a newer request is on its way)."""
        with self._update_lock:
            settings, asked = self._asked()
            current = (*asked, settings.get("prior"))
            if current != tuple(wanted) or self.result.get("pairs") is not None:
                return
            if error is not None:
                self.matrix_view.value = views.failed_html(MATRIX_TITLE, error)
                return
            if not counted:  # a newer rope took the sums: its request follows
                return
            pairs = self._pairs_frame(
                settings["prior"], settings["s"], settings["rope"],
                settings["epsilon"], settings["decision_threshold"],
            )  # fmt: skip
            self.result["pairs"] = pairs
            self._show_matrix(pairs, settings, settings["decision_threshold"])

    def _asked(self) -> tuple[dict[str, Any], tuple]:
        """The settings the views show now, and their (s, decision
        threshold, rope): what late work must match to be shown."""
        settings = self.result.get("settings", {})
        asked = (
            settings.get("s"),
            settings.get("decision_threshold"),
            settings.get("rope"),
        )
        return settings, asked

    def _show_matrix(
        self, pairs: pd.DataFrame, settings: dict[str, Any], threshold: float
    ) -> None:
        shown = [self.aliases[name] for name in self.names]
        self._matrix_shown = views.matrix_html(
            self.names, shown, pairs, settings, threshold, self.n_samples
        )
        self.matrix_view.value = self._matrix_shown

    def _joint_arrived(
        self,
        wanted: tuple,
        joint: pd.DataFrame | None,
        error: Exception | None,
    ) -> None:
        """The background thread's statements: shown if the controls still
        ask for them (else a newer request is on its way). ``wanted`` is
        ``(s, threshold, rope)``, then ``"idp"`` for the IDP's statements
        (:class:`~nbstats.widgets.late_work.LateRunner`)."""
        with self._update_lock:
            settings, asked = self._asked()
            current = (*asked, *prior_arguments(joint_prior(settings.get("prior"))))
            if current != tuple(wanted):
                return
            if error is not None:
                self.joint_view.value = views.failed_html(JOINT_TITLE, error)
                return
            self.result["joint"] = joint
            self._show_joint(joint, settings)

    def _show_joint(self, joint: pd.DataFrame, settings: dict[str, Any]) -> None:
        self._joint_shown = views.joint_html(joint, settings, self.aliases)
        self.joint_view.value = self._joint_shown


def joint_prior(prior: str | None) -> str:
    """The joint statements' prior for the pairs' ``prior``: under IDP a
    statement holds for every prior; "bb" is the point prior at s = 0.

    Examples
    --------
    >>> joint_prior("idp"), joint_prior("bb")
    ('idp', 'point')
    """
    return "idp" if prior == "idp" else "point"

"""The Bayesian dashboard's joint statements computed in the background
(nbstats.widgets.late_work.LateRunner and its use by BayesDashboard).

The statements must be those of :func:`nbstats.bayes_posthoc` whichever
thread computed them; a superseded request is never shown; an error in the
thread is shown, not lost; :meth:`wait` returns when the view is current.
"""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.widgets.bayes import BayesDashboard
from nbstats.widgets.bayes_joint import (
    BACKGROUND_WORK,
    KEEP_TABLES,
    SignedRankJoint,
)
from nbstats.widgets.late_work import LateRunner

N_SAMPLES = 5_000


def wide_table(m: int, n: int = 20, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = rng.uniform(0.6, 0.9, (n, 1)) + np.linspace(0, 0.05, m)
    values = values + rng.normal(0, 0.02, (n, m))
    return pd.DataFrame(values, columns=[f"alg{j:02d}" for j in range(m)])


class BlockingJoint:
    """A stand-in for SignedRankJoint whose table waits for a go-ahead and
    records what it computed (or raises, if told to)."""

    def __init__(self, fail: bool = False) -> None:
        self.go = threading.Event()
        self.started = threading.Event()
        self.computed: list[tuple] = []
        self.fail = fail

    def ready(self, s: float, rope: float, *prior: str) -> bool:
        return False

    def table(
        self, s: float, threshold: float, rope: float, *prior: str
    ) -> pd.DataFrame:
        self.started.set()
        assert self.go.wait(30)
        self.computed.append((s, threshold, rope, *prior))
        if self.fail:
            raise FloatingPointError("the draws overflowed")
        return pd.DataFrame({"rope": [rope]})


def test_a_superseded_request_is_computed_but_never_delivered():
    joint = BlockingJoint()
    delivered = []
    runner = LateRunner(joint, lambda *args: delivered.append(args), background=True)
    assert runner.request(1.0, 0.95, 0.01) is None
    assert joint.started.wait(30)  # the thread is inside the first table
    assert runner.busy
    # two newer requests while it computes: only the newest runs next
    assert runner.request(1.0, 0.95, 0.02) is None
    assert runner.request(1.0, 0.95, 0.03) is None
    joint.go.set()
    assert runner.wait(timeout=30)
    assert not runner.busy
    assert joint.computed == [(1.0, 0.95, 0.01), (1.0, 0.95, 0.03)]
    assert len(delivered) == 1
    settings, table, error = delivered[0]
    assert settings == (1.0, 0.95, 0.03)
    assert table["rope"].tolist() == [0.03] and error is None


def test_an_error_in_the_thread_is_delivered():
    joint = BlockingJoint(fail=True)
    joint.go.set()
    delivered = []
    runner = LateRunner(joint, lambda *args: delivered.append(args), background=True)
    assert runner.request(2.0, 0.9, 0.0) is None
    assert runner.wait(timeout=30)
    ((settings, table, error),) = delivered
    assert settings == (2.0, 0.9, 0.0) and table is None
    assert isinstance(error, FloatingPointError)


def test_without_background_every_request_is_answered_at_once():
    joint = BlockingJoint()
    joint.go.set()
    runner = LateRunner(joint, lambda *args: pytest.fail("delivered"), background=False)
    assert runner.request(1.0, 0.95, 0.0)["rope"].tolist() == [0.0]
    assert runner.wait(timeout=0)


def test_wait_times_out_while_the_thread_computes():
    joint = BlockingJoint()
    runner = LateRunner(joint, lambda *args: None, background=True)
    runner.request(1.0, 0.95, 0.0)
    assert joint.started.wait(30)
    assert runner.wait(timeout=0.05) is False
    joint.go.set()
    assert runner.wait(timeout=30) is True


def test_large_dashboards_compute_the_statements_in_the_background():
    table = wide_table(32)  # 496 pairs
    assert 496 * N_SAMPLES >= BACKGROUND_WORK
    dash = BayesDashboard(table, n_samples=N_SAMPLES, random_state=7)
    assert dash.wait(timeout=120)
    assert dash._joint_runner.background
    dash.controls["rope"].value = 0.004
    # the pair matrix is current at once; the statements are on their way
    assert dash.result["settings"]["rope"] == 0.004
    pending = dash.result["joint"] is None
    if pending:  # (a fast machine may have finished already)
        assert "updating" in dash.joint_view.value
    assert dash.wait(timeout=120)
    s = dash.result["settings"]["s"]
    post = nbstats.bayes_posthoc(
        table, s=s, threshold=0.95, test="signrank", rope=0.004, prior="idp",
        n_samples=N_SAMPLES, random_state=7,
    )  # fmt: skip
    pd.testing.assert_frame_equal(dash.result["joint"], post.statements)
    assert "updating" not in dash.joint_view.value
    assert "rope ±0.004" in dash.joint_view.value
    # the same statements as a dashboard that computes them before returning
    sync = BayesDashboard(
        table, n_samples=N_SAMPLES, random_state=7, joint_in_background=False
    )
    assert not sync._joint_runner.background
    sync.controls["rope"].value = 0.004
    pd.testing.assert_frame_equal(sync.result["joint"], dash.result["joint"])


def test_the_snapshot_waits_for_current_statements():
    dash = BayesDashboard(
        wide_table(32), n_samples=N_SAMPLES, random_state=7, joint_in_background=True
    )
    dash.controls["rope"].value = 0.006
    html = dash.snapshot_html()
    assert "rope ±0.006" in html and "updating" not in html


def test_a_failed_background_computation_is_shown(monkeypatch):
    dash = BayesDashboard(
        wide_table(6), n_samples=2_000, random_state=1, joint_in_background=True
    )
    assert dash.wait(timeout=60)

    def broken(*args):
        raise MemoryError("no room for the draws")

    monkeypatch.setattr(dash._joint_statements, "table", broken)
    monkeypatch.setattr(dash._joint_statements, "ready", lambda s, rope, *prior: False)
    dash.controls["rope"].value = 0.01
    assert dash.wait(timeout=60)
    assert "could not be computed" in dash.joint_view.value
    assert "MemoryError: no room for the draws" in dash.joint_view.value
    assert dash.result["joint"] is None  # never an old table as the current one


def test_a_late_table_for_older_settings_is_ignored():
    dash = BayesDashboard(
        wide_table(5), n_samples=2_000, random_state=1, joint_in_background=False
    )
    shown = dash.joint_view.value
    current = dash.result["joint"]
    stale = pd.DataFrame({"better": ["x"]})
    dash._joint_arrived((99.0, 0.05, 0.0), stale, None)
    assert dash.result["joint"] is current
    assert dash.joint_view.value == shown


def test_a_failure_half_way_leaves_no_stale_sums(monkeypatch):
    """The kept sums are overwritten in place for a new rope: if that fails
    half-way, the previous rope's statements must not be re-combined from
    the half-written sums."""
    from nbstats.stats.bayes import posthoc as posthoc_module

    table = wide_table(6)
    dash = BayesDashboard(
        table, n_samples=2_000, random_state=5, joint_in_background=False
    )
    joint: SignedRankJoint = dash._joint_statements
    before = joint.table(1.0, 0.95, 0.01)
    real = posthoc_module.SignedRankEvents.evaluate

    def half_way(self, exponentials, out=None, offset=0):
        real(self, exponentials, out=out, offset=offset)
        out[1][:] = 0.0  # the sums are clobbered, then the pass fails
        raise MemoryError("half-way")

    monkeypatch.setattr(posthoc_module.SignedRankEvents, "evaluate", half_way)
    with pytest.raises(MemoryError):
        joint.table(1.0, 0.95, 0.02)
    monkeypatch.setattr(posthoc_module.SignedRankEvents, "evaluate", real)
    assert not joint.ready(2.0, 0.01)  # the sums are gone, not taken as 0.01's
    pd.testing.assert_frame_equal(joint.table(1.0, 0.95, 0.01), before)
    post = nbstats.bayes_posthoc(
        table, s=2.0, threshold=0.95, test="signrank", rope=0.01, prior="point",
        n_samples=2_000, random_state=5,
    )  # fmt: skip
    pd.testing.assert_frame_equal(joint.table(2.0, 0.95, 0.01), post.statements)


def test_the_prior_is_delivered_with_the_settings():
    joint = BlockingJoint()
    joint.go.set()
    delivered = []
    runner = LateRunner(joint, lambda *args: delivered.append(args), background=True)
    assert runner.request(1.0, 0.95, 0.01, "idp") is None
    assert runner.wait(timeout=30)
    assert runner.request(1.0, 0.95, 0.01) is None  # "point": as before
    assert runner.wait(timeout=30)
    assert [settings for settings, _, _ in delivered] == [
        (1.0, 0.95, 0.01, "idp"),
        (1.0, 0.95, 0.01),
    ]
    assert joint.computed == [(1.0, 0.95, 0.01, "idp"), (1.0, 0.95, 0.01)]


def posthoc(table, s, threshold, rope, prior, seed):
    return nbstats.bayes_posthoc(
        table, s=s, threshold=threshold, test="signrank", rope=rope, prior=prior,
        n_samples=2_000, random_state=seed,
    ).statements  # fmt: skip


def test_idp_with_a_rope_is_not_ready_until_its_table_is_kept():
    """IDP's exact lower probabilities with a rope count every placement of
    the pseudo-observation on every draw: not quick, even with the rope's
    sums kept."""
    dash = BayesDashboard(
        wide_table(6), n_samples=2_000, random_state=5, joint_in_background=False
    )
    joint: SignedRankJoint = dash._joint_statements
    joint.table(1.0, 0.95, 0.0)
    assert joint.ready(2.0, 0.0, "idp")  # no rope: no placements
    joint.table(1.0, 0.95, 0.01)  # the rope's sums are kept
    assert joint.ready(2.0, 0.01)  # the point prior: re-combined at once
    assert not joint.ready(2.0, 0.01, "idp")
    joint.table(2.0, 0.95, 0.01, "idp")
    assert joint.ready(2.0, 0.01, "idp")  # kept


def test_kept_tables_equal_fresh_ones():
    table = wide_table(6)
    dash = BayesDashboard(
        table, n_samples=2_000, random_state=5, joint_in_background=False
    )
    joint: SignedRankJoint = dash._joint_statements
    settings = [
        (1.0, 0.95, 0.01, "point"),
        (1.0, 0.95, 0.01, "idp"),
        (2.0, 0.90, 0.01, "point"),
        (1.0, 0.80, 0.01, "idp"),  # kept: a new threshold only
        (1.0, 0.95, 0.02, "idp"),  # a new rope: the sums are written over
        (1.0, 0.95, 0.01, "point"),  # kept, although its sums are not
        (2.0, 0.95, 0.01, "point"),
    ]
    for s, threshold, rope, prior in settings:
        got = joint.table(s, threshold, rope, prior)
        pd.testing.assert_frame_equal(got, posthoc(table, s, threshold, rope, prior, 5))
    assert len(joint._tables) <= KEEP_TABLES
    # the caller's table is a copy: changing it changes no kept table
    got["prob"] = 0.0
    kept = joint.table(2.0, 0.95, 0.01, "point")
    pd.testing.assert_frame_equal(kept, posthoc(table, 2.0, 0.95, 0.01, "point", 5))


def test_kept_tables_are_bounded():
    dash = BayesDashboard(
        wide_table(4), n_samples=2_000, random_state=5, joint_in_background=False
    )
    joint: SignedRankJoint = dash._joint_statements
    for s in np.linspace(0.5, 3.0, KEEP_TABLES + 3):
        joint.table(float(s), 0.95, 0.0)
    assert len(joint._tables) == KEEP_TABLES
    assert (3.0, 0.0, "point") in joint._tables
    assert (0.5, 0.0, "point") not in joint._tables


def test_a_large_dashboard_computes_new_idp_statements_in_the_background():
    table = wide_table(32)  # 496 pairs: in the background
    dash = BayesDashboard(table, n_samples=N_SAMPLES, random_state=7)
    assert dash._joint_runner.background
    dash.controls["rope"].value = 0.004
    assert dash.wait(timeout=120)
    dash.controls["prior"].value = "point"
    assert dash.wait(timeout=120)
    joint: SignedRankJoint = dash._joint_statements
    dash.controls["s"].value = 2.0  # quick for the point prior ...
    assert dash.result["joint"] is not None
    assert not joint.ready(2.0, 0.004, "idp")  # ... not for IDP
    dash.controls["prior"].value = "idp"
    assert dash.result["settings"]["prior"] == "idp"
    pending = dash.result["joint"] is None
    if pending:  # (unless the thread was done before this line)
        assert "updating" in dash.joint_view.value
    assert dash.wait(timeout=120)
    want = nbstats.bayes_posthoc(
        table, s=2.0, threshold=0.95, test="signrank", rope=0.004, prior="idp",
        n_samples=N_SAMPLES, random_state=7,
    ).statements  # fmt: skip
    pd.testing.assert_frame_equal(dash.result["joint"], want)
    assert "updating" not in dash.joint_view.value
    # back to the point prior and to IDP: both kept, shown at once
    dash.controls["prior"].value = "point"
    dash.controls["prior"].value = "idp"
    pd.testing.assert_frame_equal(dash.result["joint"], want)


def test_a_late_table_of_another_prior_is_ignored():
    dash = BayesDashboard(
        wide_table(5), n_samples=2_000, random_state=1, joint_in_background=False
    )
    dash.controls["rope"].value = 0.005
    assert dash.result["settings"]["prior"] == "idp"
    shown, current = dash.joint_view.value, dash.result["joint"]
    settings = dash.result["settings"]
    wanted = (settings["s"], settings["decision_threshold"], settings["rope"])
    stale = pd.DataFrame({"better": ["x"]})
    dash._joint_arrived(wanted, stale, None)  # the point prior's: not shown
    assert dash.result["joint"] is current
    assert dash.joint_view.value == shown
    dash._joint_arrived((*wanted, "idp"), current, None)  # IDP's: shown
    assert dash.result["joint"] is current
    assert dash.joint_view.value == shown
    dash.controls["prior"].value = "point"
    shown, current = dash.joint_view.value, dash.result["joint"]
    dash._joint_arrived((*wanted, "idp"), stale, None)  # IDP's: not shown
    assert dash.result["joint"] is current
    assert dash.joint_view.value == shown

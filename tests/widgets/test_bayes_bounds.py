"""The pair matrix's exact IDP bounds counted in the background
(nbstats.widgets.bayes_bounds.PairBounds, PairPosteriors.count_idp_bounds and
their use by BayesDashboard).

Oracles: :func:`nbstats.bayes_signrank` on the same seed (the numbers a
late matrix shows), the same dashboard counting at once (the HTML it shows),
and the placement kernel's own split of the draws into settled and evaluated
ones (the work estimate). A count that a newer rope overtakes must stop and
hand its memory back, never write late numbers over current ones.
"""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.bayes.signrank.placement_kernel import unsettled_count
from nbstats.stats.bayes.signrank.placements import (
    MARGIN,
    placement_counts,
    placement_states,
)
from nbstats.widgets import bayes_pairs
from nbstats.widgets.bayes import BayesDashboard
from nbstats.widgets.late_work import LateRunner

N_SAMPLES = 2_000
S = 20.0  # a large s: almost no draw is settled by the quick check


@pytest.fixture
def table() -> pd.DataFrame:
    rng = np.random.default_rng(11)
    values = rng.uniform(0.6, 0.9, (14, 1)) + np.linspace(0.0, 0.03, 5)
    values = np.round(values + rng.normal(0.0, 0.02, (14, 5)), 3)
    return pd.DataFrame(values, columns=list("ABCDE"))


def dashboard(table: pd.DataFrame) -> BayesDashboard:
    dash = BayesDashboard(table, n_samples=N_SAMPLES, random_state=7)
    dash.set(prior="idp", s=S)
    assert dash.wait(timeout=60)
    return dash


def later(monkeypatch) -> None:
    """Every exact count of the bounds goes to the background."""
    monkeypatch.setattr(bayes_pairs, "QUICK_PLACEMENTS", -1)


def test_late_bounds_are_those_of_bayes_signrank(table, monkeypatch):
    later(monkeypatch)
    dash = dashboard(table)
    dash.controls["rope"].value = 0.01
    assert dash.wait(timeout=60)
    assert dash.error is None, dash.error
    pairs = dash.result["pairs"]
    assert pairs is not None and len(pairs) == 10
    for r in pairs.itertuples():
        ref = nbstats.bayes_signrank(
            table[r.a], table[r.b], prior="idp", s=S, rope=0.01,
            n_samples=N_SAMPLES, random_state=7,
        )  # fmt: skip
        got = (r.prob_lower, r.prob_upper, r.prob_left, r.prob_rope, r.prob_right)
        want = (ref.prob_lower, ref.prob_upper, ref.prob_left, ref.prob_rope,
                ref.prob_right)  # fmt: skip
        assert got == want
        if r.decision != "equivalent":
            assert r.decision == ref.decision


def test_a_late_matrix_is_the_matrix_counted_at_once(table, monkeypatch):
    at_once = dashboard(table)
    at_once.controls["rope"].value = 0.01
    assert not at_once._bounds_runner.busy
    later(monkeypatch)
    late = dashboard(table)
    late.controls["rope"].value = 0.01
    assert late.wait(timeout=60)
    pd.testing.assert_frame_equal(late.result["pairs"], at_once.result["pairs"])
    assert late.matrix_view.value == at_once.matrix_view.value


def assert_first_pair_as_bayes_signrank(dash, table, rope: float) -> None:
    ref = nbstats.bayes_signrank(
        table["A"], table["B"], prior="idp", s=S, rope=rope, n_samples=N_SAMPLES,
        random_state=7,
    )  # fmt: skip
    row = dash.result["pairs"].set_index(["a", "b"]).loc[("A", "B")]
    assert (row.prob_left, row.prob_rope) == (ref.prob_left, ref.prob_rope)


def blocked_counts(monkeypatch) -> tuple[threading.Event, threading.Event, list]:
    """Make the background count wait inside its first block until ``go``;
    ``started`` is set when it gets there; ``calls`` records each block."""
    started, go, calls = threading.Event(), threading.Event(), []
    real = bayes_pairs.placement_counts

    def waiting(*args, **kwargs):
        calls.append(threading.current_thread().name)
        started.set()
        assert go.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(bayes_pairs, "placement_counts", waiting)
    return started, go, calls


def test_the_matrix_says_updating_over_the_last_one(table, monkeypatch):
    later(monkeypatch)
    dash = dashboard(table)
    before = dash.matrix_view.value
    started, go, _ = blocked_counts(monkeypatch)
    dash.controls["rope"].value = 0.01
    assert started.wait(60)
    # the change returned with the other views current, the matrix pending
    assert dash.result["pairs"] is None
    assert dash.result["selected"].rope == 0.01
    view = dash.matrix_view.value
    assert "Pair matrix (exact IDP bounds)</b>: updating for s = 20" in view
    assert "rope ±0.01" in view
    assert 'style="opacity:0.4;pointer-events:none">' + before in view
    assert dash.wait(timeout=0.05) is False
    go.set()
    assert dash.wait(timeout=60)
    assert dash.result["pairs"] is not None
    assert "updating" not in dash.matrix_view.value


def test_a_newer_rope_stops_the_count_and_takes_its_memory(table, monkeypatch):
    later(monkeypatch)
    monkeypatch.setattr(bayes_pairs, "PLACEMENT_BLOCK", 1)  # one pair per block
    dash = dashboard(table)
    dash.controls["rope"].value = 0.01
    assert dash.wait(timeout=60)
    engine = dash._engine
    outcomes = []
    real_count = engine.count_idp_bounds

    def recorded(s, rope):
        outcomes.append((rope, real_count(s, rope)))
        return outcomes[-1][1]

    monkeypatch.setattr(engine, "count_idp_bounds", recorded)
    started, go, calls = blocked_counts(monkeypatch)
    dash.controls["rope"].value = 0.02
    assert started.wait(60)
    buffer = engine._cache[("rope", 0.02)]
    # the next rope needs that memory: it stops the count (which finishes
    # the block it is in once let go) and writes its sums there
    threading.Timer(0.2, go.set).start()
    dash.controls["rope"].value = 0.03
    assert engine._cache[("rope", 0.03)] is buffer
    assert dash.wait(timeout=60)
    assert outcomes == [(0.02, False), (0.03, True)]
    assert ("idp", S, 0.02) not in engine._rope_counts_kept
    assert len([c for c in calls if c != calls[0]]) == 0  # all in one thread
    assert_first_pair_as_bayes_signrank(dash, table, 0.03)


def test_late_bounds_for_settings_left_behind_are_not_shown(table, monkeypatch):
    later(monkeypatch)
    dash = dashboard(table)
    started, go, _ = blocked_counts(monkeypatch)
    dash.controls["rope"].value = 0.01
    assert started.wait(60)
    dash.controls["prior"].value = "bb"  # needs no placement: shown at once
    bb = dash.result["pairs"]
    assert bb is not None
    go.set()
    assert dash.wait(timeout=60)
    assert dash.result["pairs"] is bb
    assert "updating" not in dash.matrix_view.value


def test_an_error_in_the_count_is_shown(table, monkeypatch):
    later(monkeypatch)
    dash = dashboard(table)

    def failing(s, rope):
        raise FloatingPointError("the draws overflowed")

    monkeypatch.setattr(dash._engine, "count_idp_bounds", failing)
    dash.controls["rope"].value = 0.01
    assert dash.wait(timeout=60)
    view = dash.matrix_view.value
    assert "Pair matrix (exact IDP bounds) could not be computed" in view
    assert "FloatingPointError: the draws overflowed" in view


def test_small_counts_are_made_at_once(table):
    """At the default s and a few pairs the estimate is far below the limit:
    no thread, the matrix current when the change returns."""
    dash = BayesDashboard(table, n_samples=N_SAMPLES, random_state=7)
    dash.controls["rope"].value = 0.01
    assert not dash._bounds_runner.busy
    assert dash.result["pairs"] is not None


def test_the_work_estimate_counts_the_draws_the_kernel_evaluates(table):
    """idp_bounds_quick's estimate: the kernel's unsettled draws (those not
    counted in ``base``) times the states, compared with the limit."""
    dash = dashboard(table)
    engine = dash._engine
    rope = 0.01
    group = engine.group("idp", rope)
    right, left = group.arrays["quad_right"], group.arrays["quad_left"]
    g0, _, inverse, extra = engine._terms(S)
    states = placement_states(engine.sums.sorted, rope)
    base, _ = placement_counts(engine.draws, states, right, left, g0, inverse, extra)
    evaluated = engine.n_pairs * N_SAMPLES - int(base.sum())
    assert unsettled_count(right, left, inverse, extra, MARGIN) == evaluated
    assert evaluated > 0.9 * engine.n_pairs * N_SAMPLES  # s = 20: almost all
    work = evaluated * states.shape[1]
    # every pair is sampled here (10 < SAMPLED_PAIRS): the estimate is exact
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bayes_pairs, "QUICK_PLACEMENTS", work)
        assert engine.idp_bounds_quick(S, rope)
        patch.setattr(bayes_pairs, "QUICK_PLACEMENTS", work - 1)
        assert not engine.idp_bounds_quick(S, rope)
        assert engine.idp_bounds_quick(S, 0.0)  # no rope: nothing to place


def test_runners_sharing_a_lock_take_turns():
    inside, overlaps = [], []
    go = threading.Event()

    class Work:
        def ready(self, s, rope, *prior):
            return False

        def table(self, s, threshold, rope, *prior):
            inside.append(s)
            overlaps.append(len(inside))
            assert go.wait(30)
            inside.remove(s)
            return s

    serial = threading.Lock()
    got = []
    first = LateRunner(Work(), lambda *a: got.append(a), background=True, serial=serial)
    second = LateRunner(
        Work(), lambda *a: got.append(a), background=True, serial=serial
    )
    first.request(1.0, 0.9, 0.0)
    second.request(2.0, 0.9, 0.0)
    threading.Timer(0.2, go.set).start()
    assert first.wait(30) and second.wait(30)
    assert overlaps == [1, 1]
    assert sorted(value for _, value, _ in got) == [1.0, 2.0]


def test_sums_that_do_not_fit_are_not_made_ahead(table, monkeypatch):
    """When a rope's sums do not fit the cache the matrix counts them block
    by block: the bounds' work must not make them for every pair at once
    (at 100 algorithms that was 400 MB)."""
    dash = BayesDashboard(table, n_samples=N_SAMPLES, random_state=7)
    engine = dash._engine
    monkeypatch.setattr(engine, "cache_bytes", 8 * engine.n_pairs * N_SAMPLES)
    assert not engine.fits("idp", 0.01)
    dash.set(prior="idp", s=S, rope=0.01)
    assert dash.wait(timeout=60)
    assert not [key for key in engine._cache if key[0] == "rope"]
    assert engine.count_idp_bounds(S, 0.01) and not engine._cache.get(("rope", 0.01))
    assert_first_pair_as_bayes_signrank(dash, table, 0.01)


def test_the_joint_sums_go_before_a_new_ropes_sums_are_made(table, monkeypatch):
    """The joint statements keep their sums without a rope but not a rope's
    (too big for their share): on a rope change they are let go before the
    pair matrix makes the new rope's sums, not after (two sets at once)."""
    from nbstats.widgets import bayes_joint

    monkeypatch.setattr(bayes_joint, "KEEP_SHARE", 0.0008)  # 0.4 MiB of 512
    dash = BayesDashboard(table, n_samples=N_SAMPLES, joint_in_background=True)
    assert dash.wait(timeout=60)
    joint = dash._joint_statements._engine
    assert joint.kept(0.0) and not joint.keeps(0.01)
    seen = []
    real = dash._engine.group

    def group(prior, rope):
        seen.append((rope, joint._buffers is None))
        return real(prior, rope)

    monkeypatch.setattr(dash._engine, "group", group)
    dash.controls["rope"].value = 0.01
    assert dash.wait(timeout=60)
    assert seen[0] == (0.01, True)
    assert dash.result["joint"] is not None


def test_if_idle_runs_only_when_no_thread_works():
    go, started = threading.Event(), threading.Event()

    class Work:
        def ready(self, s, rope, *prior):
            return False

        def table(self, s, threshold, rope, *prior):
            started.set()
            assert go.wait(30)
            return s

    runner = LateRunner(Work(), lambda *a: None, background=True)
    called = []
    assert runner.if_idle(lambda: called.append(1))
    runner.request(1.0, 0.9, 0.0)
    assert started.wait(30)
    assert not runner.if_idle(lambda: called.append(2))
    go.set()
    assert runner.wait(30)
    assert runner.if_idle(lambda: called.append(3))
    assert called == [1, 3]

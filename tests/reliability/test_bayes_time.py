"""Long Bayesian computations show progress, stop on Ctrl-C, and the joint
pass does no work it does not need (issue 34, finding 10).

``bayes_posthoc`` (signed-rank, m = 300–400; sign, m = 1000) and
``bayes_signrank_pairs`` (m = 700) ran 200–300 s with no result, refusal or
progress bar, and the signed-rank post-hoc looked like m³ (5 s at 50, 43 s
at 100). Its cost per pass is m² (pairs) × draws × cases; past m ≈ 58 at
50,000 draws the draws' region codes no longer fit the budget and the joint
statements took a second full pass. That pass now evaluates the statements
in their order and stops a piece of draws as soon as none of its draws
holds them all, exactly (the counts of longer prefixes are 0 there): tested
against the kept-codes path, a separate compiled kernel.
"""

from __future__ import annotations

import _thread
import threading
import time

import numpy as np
import pandas.testing as pd_testing
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.stats.bayes import plackett_luce as plackett_luce_module
from nbstats.stats.bayes import posthoc as posthoc_module
from nbstats.stats.bayes.joint import keeps_codes
from nbstats.stats.bayes.signrank import one_pair as signrank_module
from nbstats.stats.bayes.signrank import pairs as pairs_module
from nbstats.util.memory import memory_ceiling
from tests.progress_helpers import record_bars


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    m=st.integers(11, 14),  # 16M: codes of 55+ pairs x 40,000 draws not kept
    n=st.integers(5, 12),
    spread=st.floats(0.0, 3.0),
    test=st.sampled_from(["sign", "signrank"]),
    rope=st.sampled_from([0.0, 0.3]),
    idp=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_the_early_stopping_joint_pass_equals_the_kept_codes(
    m, n, spread, test, rope, idp, seed
):
    """Recomputed joint probabilities (low ceiling: the codes are not kept,
    the statements are evaluated in order and a piece stops when no draw
    holds) equal those counted from the kept codes, bit for bit."""
    rng = np.random.default_rng(seed)
    table = rng.normal(size=(n, m)) + np.linspace(0, spread, m)
    kw = {"test": test, "rope": rope, "n_samples": 40_000, "random_state": seed}
    if idp and test == "signrank":
        kw["prior"] = "idp"
    pairs = m * (m - 1) // 2
    with memory_ceiling("16M"):
        assert not keeps_codes(40_000, pairs)
        recomputed = nbstats.bayes_posthoc(table, **kw)
    with memory_ceiling("1G"):
        assert keeps_codes(40_000, pairs)
        kept = nbstats.bayes_posthoc(table, **kw)
    assert recomputed.statements.equals(kept.statements)
    assert recomputed.probabilities.equals(kept.probabilities)


@pytest.fixture
def bars(monkeypatch):
    return record_bars(
        monkeypatch,
        (posthoc_module, pairs_module, signrank_module, plackett_luce_module),
    )


@pytest.mark.parametrize(
    ("test", "rope", "ceiling"),
    [("sign", 0.0, "512M"), ("sign", 0.2, "16M"), ("signrank", 0.0, "512M"),
     ("signrank", 0.2, "16M"), ("signrank", 0.0, "16M")],
)  # fmt: skip
def test_posthoc_progress_counts_every_pass_to_its_total(bars, test, rope, ceiling):
    table = np.random.default_rng(0).normal(size=(10, 12))
    with memory_ceiling(ceiling):
        nbstats.bayes_posthoc(
            table, test=test, rope=rope, n_samples=30_000, random_state=0,
            progress=True,
        )  # fmt: skip
    ((desc, unit, bar),) = bars
    assert (desc, unit) == ("bayes_posthoc", "draw")
    assert bar.n == bar.total and bar.total in (30_000, 60_000) and bar.closed


def test_pairs_and_signrank_progress_reach_their_totals(bars):
    rng = np.random.default_rng(1)
    table = rng.normal(size=(15, 9))
    nbstats.bayes_signrank_pairs(table, random_state=0, progress=True)
    nbstats.bayes_signrank_pairs(np.vstack([table] * 80), random_state=0, progress=True)
    nbstats.bayes_signrank(table[:, 0], table[:, 1], random_state=0, progress=True)
    nbstats.bayes_signrank(
        rng.normal(size=3000), rng.normal(size=3000), method="montecarlo",
        n_samples=2000, random_state=0, progress=True,
    )  # fmt: skip
    got = [(desc, unit, bar.n, bar.total, bar.closed) for desc, unit, bar in bars]
    assert got == [
        ("bayes_signrank_pairs", "pair", 36, 36, True),
        ("bayes_signrank_pairs", "pair", 36, 36, True),  # normal form per pair
        ("bayes_signrank", "draw", 50_000, 50_000, True),
        ("bayes_signrank", "draw", 2000, 2000, True),
    ]


def test_plackett_luce_progress_counts_every_iteration(bars):
    table = np.random.default_rng(3).normal(size=(12, 5))
    res = nbstats.bayes_plackett_luce(
        table, n_samples=2000, random_state=0, progress=True
    )
    ((desc, unit, bar),) = bars
    assert (desc, unit) == ("bayes_plackett_luce", "iteration")
    # warm-up plus the draws of one chain (the chains run side by side)
    assert bar.n == bar.total == plackett_luce_module.N_WARMUP + 2000 // 4
    assert bar.closed
    same = nbstats.bayes_plackett_luce(table, n_samples=2000, random_state=0)
    pd_testing.assert_frame_equal(res.ranking, same.ranking)  # the bar draws nothing


def test_no_automatic_bar_where_nbstats_progress_is_0(monkeypatch):
    from nbstats.util import progress as _progress

    monkeypatch.setattr(_progress.sys.stderr, "isatty", lambda: True)
    assert _progress.progress_bar(None, 10, "x", "y") is not None  # a terminal
    for off in ("0", "off", "False", " no "):
        monkeypatch.setenv("NBSTATS_PROGRESS", off)
        assert _progress.progress_bar(None, 10, "x", "y") is None
    bar = _progress.progress_bar(True, 10, "x", "y")  # asked for: still drawn
    assert bar is not None
    bar.close()


def test_the_report_kernel_shows_no_bar():
    from nbstats.reporting import kernel

    assert kernel._kernel_env()["NBSTATS_PROGRESS"] == "0"


def test_a_real_bar_is_drawn_when_asked_and_none_under_pytest(capsys):
    table = np.random.default_rng(2).normal(size=(8, 6))
    nbstats.bayes_posthoc(table, test="signrank", n_samples=5000, random_state=0)
    assert "bayes_posthoc" not in capsys.readouterr().err  # progress=None here
    nbstats.bayes_posthoc(
        table, test="signrank", n_samples=5000, random_state=0, progress=True
    )
    err = capsys.readouterr().err
    assert "bayes_posthoc" in err and "5000/5000" in err


def test_progress_must_be_a_bool_or_none():
    table = np.random.default_rng(2).normal(size=(8, 4))
    with pytest.raises(TypeError, match="progress must be True or False"):
        nbstats.bayes_signrank_pairs(table, progress="yes")


def _interrupted_within(call, after: float) -> float:
    """Seconds from a simulated Ctrl-C (``after`` s into ``call``) until
    ``call`` raised KeyboardInterrupt."""
    sent = []

    def interrupt():
        sent.append(time.perf_counter())
        _thread.interrupt_main()

    timer = threading.Timer(after, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    assert sent, "the call ended before the interrupt: make it longer"
    return time.perf_counter() - sent[0]


# each call below takes a minute or more; Ctrl-C must end it within seconds
# (the machine running the tests may be loaded: a generous bound)
PROMPT = 10.0


def _posthoc(table):
    return nbstats.bayes_posthoc(table, test="signrank", random_state=0)


def _pairs(table):
    return nbstats.bayes_signrank_pairs(table, random_state=0)


def _montecarlo(table):
    # 30 x 4000 = 120,000 cases, Monte Carlo asked for explicitly
    a, b = np.tile(table[:, 0], 4000), np.tile(table[:, 1], 4000)
    return nbstats.bayes_signrank(a, b, method="montecarlo", random_state=0)


@pytest.mark.parametrize("call", [_posthoc, _pairs, _montecarlo])
def test_ctrl_c_stops_a_long_call_promptly(call):
    table = np.random.default_rng(3).normal(size=(30, 250))
    small = table[:6, :4]
    nbstats.bayes_posthoc(small, test="signrank", n_samples=1000)  # kernels loaded
    nbstats.bayes_signrank_pairs(small, n_samples=1000)
    assert _interrupted_within(lambda: call(table), after=1.0) < PROMPT
    # the worker threads are free again: a small call still works
    assert nbstats.bayes_signrank_pairs(small, n_samples=1000) is not None

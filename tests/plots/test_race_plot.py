"""Race trace: the step line and the elimination markers come from the result."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import nbstats
from nbstats.plots.race import race_trace
from nbstats.plots.style import literal, save

MEANS = [0.0, 0.2, 0.4, 0.7, 0.7]
NASTY = ["a_b", "x & y", "$5", "50%", "Ærø"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _evaluate(candidate, instance):
    # candidate 4 is a twin of 3 (same noise): the Bayesian race finds them
    # indistinguishable and drops 4; 0, 1, 2 are dominated
    seed = 3 if candidate == 4 else candidate
    return MEANS[candidate] + np.random.default_rng([seed, instance]).normal(0, 0.2)


@pytest.fixture(scope="module")
def mixed():
    return nbstats.race(
        _evaluate, list(range(5)), range(60), progress=False, random_state=0
    )


def _survivors_line(ax):
    (line,) = [line for line in ax.get_lines() if line.get_gid() == "survivors"]
    return line


def _markers(ax):
    return {
        line.get_gid().removeprefix("eliminated-"): line
        for line in ax.get_lines()
        if (line.get_gid() or "").startswith("eliminated-")
    }


def _check_trace(ax, result):
    n = len(result.survivors) + len(result.eliminations)
    line = _survivors_line(ax)
    xs, ys = list(line.get_xdata()), list(line.get_ydata())
    assert (xs[0], ys[0]) == (0, n)
    assert ys[-1] == len(result.survivors)
    assert xs[-1] == result.evaluations
    assert ys == sorted(ys, reverse=True)
    assert line.get_drawstyle() == "steps-post"
    # the step line at e evaluations counts the candidates not dropped by then
    for x, y in zip(xs, ys, strict=True):
        dropped = int((result.eliminations["evaluations_used"] <= x).sum())
        assert y == n - dropped

    markers = _markers(ax)
    assert sum(len(m.get_xdata()) for m in markers.values()) == len(result.eliminations)
    for reason, group in result.eliminations.groupby("reason"):
        assert sorted(markers[reason].get_xdata()) == sorted(group["evaluations_used"])
    # every marker sits on a drop of the step line
    for m in markers.values():
        for x, y in zip(m.get_xdata(), m.get_ydata(), strict=True):
            assert x in xs
            assert len(result.survivors) < y < n


def test_trace_of_a_bayesian_race(mixed):
    reasons = set(mixed.eliminations["reason"])
    assert reasons == {"dominated", "indistinguishable"}
    ax = race_trace(mixed)
    _check_trace(ax, mixed)
    assert ax.get_title() == f"Race (bayes): winner {mixed.winner}"
    markers = _markers(ax)
    assert (
        markers["dominated"].get_marker() != markers["indistinguishable"].get_marker()
    )
    legend = ax.get_legend()
    assert legend.get_title().get_text() == "eliminated as"
    assert {t.get_text() for t in legend.get_texts()} == reasons
    # few eliminations: each marker names its candidate
    assert sorted(t.get_text() for t in ax.texts) == sorted(
        mixed.eliminations["candidate"]
    )
    assert ax.get_xlabel() == "evaluations used"
    assert ax.get_ylabel() == "candidates left"


@pytest.mark.parametrize("method", ["frace-sign", "frace-mr"])
def test_trace_of_an_f_race(method):
    result = nbstats.race(
        _evaluate, list(range(5)), range(60), method=method, progress=False
    )
    assert result.eliminations["reason"].str.startswith("worse than the best").all()
    ax = race_trace(result)
    _check_trace(ax, result)
    assert ax.get_title().startswith(f"Race ({method}): winner ")


def test_several_survivors_and_no_labels():
    # a budget stops the race with several candidates left
    result = nbstats.race(
        lambda c, i: 0.03 * c + np.random.default_rng([c, i]).normal(0, 0.2),
        list(range(20)),
        range(100),
        budget=300,
        progress=False,
        random_state=0,
    )
    assert len(result.survivors) > 1
    ax = race_trace(result)
    _check_trace(ax, result)
    assert not ax.texts  # 20 candidates: names would not fit
    plt.close(ax.figure)
    ax = race_trace(result, names=True)
    assert len(ax.texts) == len(result.eliminations)


def test_race_without_eliminations():
    result = nbstats.race(
        lambda c, i: np.random.default_rng([c, i]).normal(),
        [0, 1, 2],
        range(4),
        progress=False,
    )
    assert result.eliminations.empty
    ax = race_trace(result)
    line = _survivors_line(ax)
    assert list(line.get_ydata()) == [3, 3]
    assert not _markers(ax)
    assert ax.get_legend() is None


def test_nasty_names_render_literally(tmp_path):
    means = dict(zip(NASTY, [0.0, 0.2, 0.4, 0.6, 0.8], strict=True))
    result = nbstats.race(
        lambda c, i: (
            means[c] + np.random.default_rng([NASTY.index(c), i]).normal(0, 0.2)
        ),
        NASTY,
        range(60),
        progress=False,
        random_state=0,
    )
    ax = race_trace(result)
    assert ax.get_title() == f"Race (bayes): winner {literal(result.winner)}"
    assert sorted(t.get_text() for t in ax.texts) == sorted(
        literal(c) for c in result.eliminations["candidate"]
    )
    save(ax.figure, tmp_path / "nasty.svg")
    svg = (tmp_path / "nasty.svg").read_text(encoding="utf-8")
    escaped = {"x & y": "x &amp; y"}
    for name in result.eliminations["candidate"]:
        assert f">{escaped.get(name, name)}<" in svg
    assert "\\$" not in svg


def test_saves_png_and_svg(tmp_path, mixed):
    ax = race_trace(mixed)
    for suffix in ("png", "svg"):
        path = tmp_path / f"race.{suffix}"
        save(ax.figure, path)
        assert path.stat().st_size > 1000


def test_draws_on_a_given_axes(mixed):
    _fig, (left, right) = plt.subplots(1, 2)
    assert race_trace(mixed, ax=right) is right
    assert not left.get_lines()


def test_bad_input(table6):
    with pytest.raises(TypeError, match="RaceResult"):
        race_trace(nbstats.posthoc(table6))
    with pytest.raises(TypeError, match="RaceResult"):
        race_trace(None)

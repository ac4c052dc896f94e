"""plot() on the results and df.compare.cd_diagram draw the matching picture."""

from __future__ import annotations

import numpy as np
import pytest

import nbstats


@pytest.fixture
def uci():
    return nbstats.datasets.load("uci_accuracy")


def _gids(ax):
    return {artist.get_gid() for artist in ax.get_children() if artist.get_gid()}


def test_accessor_cd_diagram_is_the_posthoc_diagram(table6):
    ax = table6.compare.cd_diagram(alpha=0.10)
    groups = [a for a in ax.get_lines() if (a.get_gid() or "").startswith("group-")]
    assert len(groups) == 2
    direct = nbstats.plots.cd_diagram(nbstats.posthoc(table6, alpha=0.10))
    assert _gids(ax) == _gids(direct)
    band = table6.compare.cd_diagram(method="bonferroni-dunn", control="C4.5")
    assert "control-band" in _gids(band)


def test_accessor_cd_diagram_with_missing_cells(table6):
    holes = table6.copy()
    holes.iloc[0, 1] = holes.iloc[3, 2] = np.nan
    # pairwise tests on each pair's shared cases: the comparison matrix's diagram
    matrix = holes.compare.comparison_matrix(nan_policy="pairwise")
    ax = nbstats.plots.cd_diagram(matrix)
    direct = nbstats.comparison_matrix(holes, nan_policy="pairwise")
    assert _gids(ax) == _gids(nbstats.plots.cd_diagram(direct))
    # the algorithms sit at the mean ranks of the cases each one has
    labels = {t.get_text() for t in ax.texts}
    assert set(holes.columns) <= labels
    # the rank methods compare every algorithm on the same cases: holes are
    # refused, naming what works
    with pytest.raises(ValueError, match="nan_policy='omit'"):
        holes.compare.cd_diagram()
    with pytest.raises(ValueError, match="unknown nan_policy='pairwise'"):
        holes.compare.cd_diagram(nan_policy="pairwise")


def test_posthoc_plot_kinds(table6):
    res = nbstats.posthoc(table6, method="holm")
    assert "cd-bar" not in _gids(res.plot())
    heatmap = res.plot(kind="heatmap")
    # the heat map's cells: one per ordered pair of the four algorithms
    assert sum(g.startswith("fill-") for g in _gids(heatmap)) == 12
    with pytest.raises(ValueError, match="unknown kind"):
        res.plot(kind="pie")


def test_bayesian_results_plot(uci):
    signrank = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    assert "posterior-lower" in _gids(signrank.plot())
    roped = nbstats.bayes_signrank(
        uci["nbc"], uci["aode"], prior="point", rope=0.01, random_state=0
    )
    assert roped.plot(kind="rope") is not None
    assert roped.plot(kind="simplex") is not None
    sign = nbstats.bayes_sign_test(uci["nbc"], uci["j48"])
    assert sign.plot() is not None
    three = nbstats.bayes_friedman(uci[["nbc", "aode", "j48"]])
    assert "null-point" in _gids(three.plot())
    joint = nbstats.bayes_posthoc(uci, random_state=0)
    lines = [
        a for a in joint.plot().get_lines() if (a.get_gid() or "").startswith("group-")
    ]
    assert len(lines) == len(joint.groups)


def test_rank_ci_and_race_plot(table6):
    res = nbstats.rank_ci(table6, method="id-wilcoxon-2s")
    ax = res.plot()
    assert any((a.get_gid() or "").startswith("interval-") for a in ax.get_lines())

    means = {"a": 0.1, "b": 0.5, "c": 0.9}

    def evaluate(candidate, instance):
        return means[candidate] + np.random.default_rng(
            [instance, ord(candidate)]
        ).normal(0, 0.1)

    race = nbstats.race(
        evaluate, list(means), range(40), method="frace-sign", progress=False
    )
    trace = race.plot()
    assert trace.get_title().endswith(race.winner)


def test_import_nbstats_still_does_not_import_matplotlib():
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, nbstats; print('matplotlib' in sys.modules)",
        ],
        capture_output=True,
        text=True,
    )
    assert done.stdout.strip() == "False"


def test_figures_save_as_vector_pdf_and_svg(table6, tmp_path):
    ax = table6.compare.cd_diagram(alpha=0.10)
    for suffix in ("pdf", "svg", "png"):
        path = tmp_path / f"cd.{suffix}"
        nbstats.plots.save(ax.figure, path)
        assert path.stat().st_size > 1000
    assert (tmp_path / "cd.pdf").read_bytes().startswith(b"%PDF")
    assert b"<svg" in (tmp_path / "cd.svg").read_bytes()[:500]

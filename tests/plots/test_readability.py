"""Every figure stays readable from 2 to 100 algorithms, with long names.

For each plot and each case -- m = 2 and m = 8 with names such as
``HistGradientBoostingClassifier(max_iter=300, lr=0.05)``, m = 50 and
m = 100 with names up to 20 characters -- the figure is drawn and measured:
no two texts overlap, every text lies inside the figure, no font is below
8 pt (see readability.py). The m = 8 and m = 100 figures are saved to
tests/artifacts/plots/ to be looked at.
"""

from __future__ import annotations

import pathlib

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from readability import assert_readable

import nbstats
from nbstats import plots

ARTIFACTS = pathlib.Path(__file__).resolve().parents[1] / "artifacts" / "plots"

LONG = [
    "HistGradientBoostingClassifier(max_iter=300, lr=0.05)",
    "HistGradientBoostingClassifier(max_iter=100, lr=0.1)",
    "RandomForestClassifier(n_estimators=500, max_depth=None)",
    "LogisticRegression(C=1.0, penalty='l2', solver='lbfgs')",
    "SVC(kernel='rbf', C=10, gamma='scale')",
    "KNeighborsClassifier(n_neighbors=15, weights='distance')",
    "ExtraTreesClassifier(n_estimators=300, min_samples_leaf=2)",
    "MLPClassifier(hidden_layer_sizes=(128, 64), alpha=0.0001)",
]
_STEMS = ["RF", "SVC-rbf", "kNN", "LogReg-l2", "HistGB", "ExtraTrees", "MLP-128x64"]
CASES = {"m2-long": 2, "m8-long": 8, "m50": 50, "m100": 100}
SAVED = {"m8-long", "m100", "long"}


def names_of(case: str) -> list[str]:
    m = CASES[case]
    if case.endswith("long"):
        return LONG[:m]
    return [f"{_STEMS[i % len(_STEMS)]}(k={i})" for i in range(m)]  # <= 20 chars


def table_of(case: str, n: int = 30) -> pd.DataFrame:
    names = names_of(case)
    m = len(names)
    rng = np.random.default_rng(m)
    scores = rng.normal(size=(n, m)) * 0.6 + np.linspace(1.5, 0, m)
    return pd.DataFrame(scores, columns=names)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def check(ax, name: str, case: str) -> None:
    fig = ax.figure
    try:
        assert_readable(fig)  # at the first drawing, as a notebook shows it
    finally:
        if case in SAVED:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            fig.savefig(ARTIFACTS / f"{name}-{case}.png", dpi=150)


# -- the pictures of m algorithms ------------------------------------------------

WIDTHS = ["single", "double"]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", list(CASES))
def test_cd_diagram(case, width):
    res = nbstats.posthoc(table_of(case), method="nemenyi")
    check(res.plot(width=width), f"cd-{width}", case)


@pytest.mark.parametrize("case", list(CASES))
def test_cd_diagram_against_a_control(case):
    table = table_of(case)
    res = nbstats.posthoc(table, method="holm", control=table.columns[0])
    check(plots.cd_diagram(res), "cd-control", case)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", list(CASES))
def test_pairwise_heatmap(case, width):
    # pairwise Wilcoxon tests where quick, rank z-tests at m = 100
    if CASES[case] <= 8:
        res = nbstats.comparison_matrix(table_of(case))
    else:
        res = nbstats.posthoc(table_of(case), method="holm")
    check(plots.pairwise_heatmap(res, width=width), f"heatmap-{width}", case)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", list(CASES))
def test_comparison_matrix(case, width):
    res = nbstats.comparison_matrix(table_of(case))
    check(res.plot(width=width), f"comparison-{width}", case)


@pytest.mark.parametrize("case", ["m2-long", "m8-long"])
def test_bayes_heatmap_and_groups(case):
    joint = nbstats.bayes_posthoc(table_of(case), random_state=0, n_samples=2000)
    check(joint.plot(kind="heatmap", width="double"), "bayes-heatmap", case)
    check(joint.plot(width="double"), "bayes-cd", case)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", list(CASES))
def test_rank_intervals(case, width):
    res = nbstats.rank_ci(table_of(case), method="id-nemenyi")
    check(res.plot(width=width), f"ranks-{width}", case)


@pytest.mark.parametrize("case", ["m2-long", "m8-long", "m50"])
def test_rank_intervals_of_two_methods(case):
    table = table_of(case)
    # two procedures side by side
    both = {
        "Iman–Davenport + Nemenyi": nbstats.rank_ci(table, method="id-nemenyi"),
        "the same at α = 0.2": nbstats.rank_ci(table, method="id-nemenyi", alpha=0.2),
    }
    check(plots.rank_intervals(both), "ranks-two", case)


# -- the pictures of two algorithms (and three) ------------------------------------


@pytest.fixture(scope="module")
def pair():
    table = table_of("m8-long")
    a, b = table[LONG[4]], table[LONG[0]]
    return {
        "idp": nbstats.bayes_signrank(a, b, random_state=0),
        "rope": nbstats.bayes_signrank(a, b, prior="point", rope=0.1, random_state=0),
        "sign": nbstats.bayes_sign_test(a, b, random_state=0),
        "sign-rope": nbstats.bayes_sign_test(a, b, rope=0.1, random_state=0),
        "friedman": nbstats.bayes_friedman(
            table[LONG[:3]], method="montecarlo", n_samples=2000, random_state=0
        ),
    }


TWO = {
    "signrank": lambda r, w: plots.signrank_posterior(r["idp"], width=w),
    "signrank-rope": lambda r, w: plots.signrank_posterior(r["rope"], width=w),
    "rope-bar": lambda r, w: plots.rope_probabilities(r["rope"], width=w),
    "rope-simplex": lambda r, w: plots.rope_probabilities(
        r["rope"], kind="simplex", width=w
    ),
    "sign": lambda r, w: plots.sign_posterior(r["sign"], width=w),
    "sign-rope": lambda r, w: plots.sign_posterior(r["sign-rope"], width=w),
    "friedman": lambda r, w: plots.friedman_posterior(r["friedman"], width=w),
}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", list(TWO))
def test_two_algorithm_pictures_with_long_names(name, width, pair):
    check(TWO[name](pair, width), f"{name}-{width}", "long")


def test_letters_follow_the_table_in_every_figure():
    table = table_of("m8-long")
    key = {name: letter for letter, name in zip("ABCDEFGH", table.columns, strict=True)}

    def labels(ax):
        fig = ax.figure
        (legend,) = [leg for leg in fig.legends if leg.get_gid() == "key"]
        entries = [t.get_text().replace("\n", " ") for t in legend.get_texts()]
        return dict(entry.split(": ", 1)[::-1] for entry in entries)

    cd = nbstats.posthoc(table).plot(aliases=True)
    heatmap = nbstats.posthoc(table, method="holm").plot(kind="heatmap")
    ranks = nbstats.rank_ci(table, method="id-nemenyi").plot()
    for ax in (cd, heatmap, ranks):
        assert labels(ax) == key
    given = {table.columns[0]: "HGB-300"}
    ax = nbstats.posthoc(table).plot(width="double", aliases=given)
    # the user's alias; nbstats.scores.names letters the other long names
    assert labels(ax)[table.columns[0]] == "HGB-300"
    assert "HGB-300" in [t.get_text() for t in ax.texts]


def _race(candidates, quality):
    def evaluate(candidate, instance):
        noise = np.random.default_rng([instance, int(1000 * quality(candidate))])
        return quality(candidate) + noise.normal(0, 0.1)

    return nbstats.race(
        evaluate, candidates, range(60), method="frace-sign", progress=False
    )


@pytest.mark.parametrize("names", [None, True])
def test_race_trace_of_long_configurations(names):
    configs = [
        {"estimator": "HistGradientBoostingClassifier", "max_iter": 100 * (i + 1)}
        for i in range(8)
    ]
    res = _race(configs, lambda c: c["max_iter"] / 800)
    check(res.plot(names=names), f"race-{names}", "m8-long")


def test_race_trace_of_fifty_candidates():
    res = _race(list(range(50)), lambda c: c / 50)
    check(plots.race_trace(res, width="double"), "race", "m50")


@pytest.mark.parametrize("case", ["m8-long", "m100"])
def test_heatmap_against_a_control(case):
    table = table_of(case)
    res = nbstats.posthoc(table, method="holm", control=table.columns[0])
    check(res.plot(kind="heatmap", width="double"), "heatmap-control", case)


def test_panels_of_one_table_on_given_axes_share_one_key():
    table = table_of("m8-long")
    fig, (left, right) = plt.subplots(1, 2, figsize=(6.9, 3.5), layout="constrained")
    assert plots.cd_diagram(nbstats.posthoc(table), ax=left) is left
    ranks = nbstats.rank_ci(table, method="id-nemenyi")
    assert plots.rank_intervals(ranks, ax=right) is right
    assert [legend.get_gid() for legend in fig.legends] == ["key"]
    assert fig.get_size_inches()[1] == 3.5  # a figure given is not resized
    check(left, "panels", "m8-long")

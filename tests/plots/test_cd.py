"""Critical-difference diagrams: the drawn artists against Demšar (2006) Table 6."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.text import Text

import nbstats
from nbstats.plots.cd import cd_diagram

BEST, WORST = "C4.5+m+cf", "C4.5"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# -- helpers -----------------------------------------------------------------


def gid_lines(ax, prefix):
    """Line2D artists whose gid starts with ``prefix``, in gid order."""
    found = [
        line for line in ax.lines if (line.get_gid() or "").startswith(prefix + "-")
    ]
    return sorted(found, key=lambda line: int(line.get_gid().rsplit("-", 1)[1]))


def one(ax, gid):
    found = [a for a in [*ax.lines, *ax.texts] if a.get_gid() == gid]
    assert len(found) == 1, f"expected one artist with gid {gid!r}, found {found}"
    return found[0]


def caption_text(ax):
    """The small caption, its lines joined (at 8 pt it wraps sooner)."""
    return one(ax, "caption").get_text().replace("\n", " ")


def labels(ax, result):
    """Algorithm name -> its label Text (gid label-<j>, j indexes mean_ranks)."""
    names = [str(a) for a in result.mean_ranks.index]
    out = {}
    for text in ax.texts:
        gid = text.get_gid() or ""
        if gid.startswith("label-"):
            out[names[int(gid.split("-")[1])]] = text
    return out


def shown(text: Text) -> str:
    """What a label shows: ``literal()`` escapes ``$`` as ``\\$``."""
    return text.get_text().replace(r"\$", "$")


def extent(line) -> tuple[float, float]:
    x = np.asarray(line.get_xdata(), dtype=float)
    return float(x.min()), float(x.max())


def span(result, group) -> tuple[float, float]:
    ranks = result.mean_ranks[list(group)]
    return float(ranks.min()), float(ranks.max())


def renderer_of(ax):
    fig = ax.figure
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def random_table(seed: int, m: int = 30, n: int = 25, trend: float = 0.0):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(2, 14, size=m)
    names = [f"{'x' * int(k)}_{i}" for i, k in enumerate(lengths)]
    scores = rng.normal(size=(n, m)) + trend * np.linspace(0, 1, m)
    return pd.DataFrame(scores, columns=names)


# -- Demšar's Table 6, Nemenyi (Figure 1a) ---------------------------------


def test_table6_nemenyi_010_two_groups_with_their_extents(table6):
    res = nbstats.posthoc(table6, method="nemenyi", alpha=0.10)
    ax = cd_diagram(res)
    expected = [{"C4.5+m+cf", "C4.5+m", "C4.5+cf"}, {"C4.5+cf", "C4.5"}]
    assert [set(g) for g in res.groups] == expected
    lines = gid_lines(ax, "group")
    assert [line.get_gid() for line in lines] == ["group-0", "group-1"]
    assert all(line.get_visible() for line in lines)
    for line, members in zip(lines, expected, strict=True):
        assert extent(line) == pytest.approx(span(res, members), abs=1e-12)
    # the two groups share C4.5+cf: they must sit on different rows
    assert lines[0].get_ydata()[0] != lines[1].get_ydata()[0]
    ranks = res.mean_ranks
    assert extent(lines[0]) == pytest.approx((ranks["C4.5+m+cf"], ranks["C4.5+cf"]))
    assert extent(lines[1]) == pytest.approx((2.893, 3.143), abs=5e-4)


def test_table6_cd_bar_length_and_text(table6):
    res = nbstats.posthoc(table6, method="nemenyi", alpha=0.10)
    ax = cd_diagram(res)
    bar = one(ax, "cd-bar")
    x0, x1 = bar.get_xdata()
    length = abs(x1 - x0)
    assert length == pytest.approx(nbstats.critical_difference(4, 14, 0.10))
    assert round(length, 2) == 1.12
    assert one(ax, "cd-text").get_text() == "CD = 1.12"
    # the bar starts at the left end of the axis (rank 4 when best is right)
    assert max(x0, x1) == pytest.approx(4.0)
    # the bar sits above the axis: y grows downwards
    spine_y = ax.spines["top"].get_position()[1]
    assert bar.get_ydata()[0] < spine_y


def test_table6_label_texts_are_exactly_the_names(table6):
    res = nbstats.posthoc(table6, method="nemenyi", alpha=0.10)
    ax = cd_diagram(res)
    texts = labels(ax, res)
    assert sorted(shown(t) for t in texts.values()) == sorted(table6.columns)
    assert {name: shown(t) for name, t in texts.items()} == {
        name: name for name in table6.columns
    }


@pytest.mark.parametrize("reverse", [False, True])
def test_best_on_the_right_by_default_and_flipped_by_reverse(table6, reverse):
    res = nbstats.posthoc(table6, method="nemenyi", alpha=0.10)
    ax = cd_diagram(res, reverse=reverse)
    renderer = renderer_of(ax)
    texts = labels(ax, res)
    best = texts[BEST].get_window_extent(renderer)
    worst = texts[WORST].get_window_extent(renderer)
    if reverse:
        assert best.x1 < worst.x0
    else:
        assert best.x0 > worst.x1
    # the rank axis itself: 1 on the right unless reversed
    one_px, four_px = ax.transData.transform([[1, 0], [4, 0]])[:, 0]
    assert (one_px > four_px) is not reverse
    # the better half is named on the best side, the worse half on the other
    stems = {
        name: ax.transData.transform((res.mean_ranks[name], 0))[0] for name in texts
    }
    for name, text in texts.items():
        box = text.get_window_extent(renderer)
        assert box.x1 < stems[name] or box.x0 > stems[name]
    right = {n for n, t in texts.items() if t.get_horizontalalignment() == "left"}
    assert right == ({"C4.5", "C4.5+cf"} if reverse else {"C4.5+m+cf", "C4.5+m"})


def test_table6_nemenyi_005_one_group_spanning_all(table6):
    res = nbstats.posthoc(table6, method="nemenyi", alpha=0.05)
    ax = cd_diagram(res)
    lines = gid_lines(ax, "group")
    assert len(lines) == 1
    assert extent(lines[0]) == pytest.approx(
        (res.mean_ranks.min(), res.mean_ranks.max())
    )
    assert extent(lines[0]) == pytest.approx((1.964, 3.143), abs=5e-4)
    assert round(abs(np.diff(one(ax, "cd-bar").get_xdata())[0]), 2) == 1.25


def test_caption_states_test_and_alpha(table6):
    res = nbstats.posthoc(table6, method="nemenyi", alpha=0.10)
    ax = cd_diagram(res, title="Figure 1(a)")
    assert caption_text(ax) == "Nemenyi test, α = 0.1"
    assert ax.get_title() == "Figure 1(a)"


def test_show_cd_false_draws_no_bar(table6):
    ax = cd_diagram(nbstats.posthoc(table6, method="nemenyi"), show_cd=False)
    assert not [
        a for a in [*ax.lines, *ax.texts] if a.get_gid() in ("cd-bar", "cd-text")
    ]
    assert len(gid_lines(ax, "group")) == 1


# -- against a control (Figure 1b and step-wise methods) ------------------


def test_bonferroni_dunn_band_around_the_control(table6):
    res = nbstats.posthoc(table6, method="bonferroni-dunn", control="C4.5")
    ax = cd_diagram(res)
    band = one(ax, "control-band")
    lo, hi = band.get_xdata()
    half = (hi - lo) / 2
    centre = (hi + lo) / 2
    assert half == pytest.approx(
        nbstats.critical_difference(4, 14, 0.05, "bonferroni-dunn")
    )
    assert round(half, 3) == 1.168
    assert centre == pytest.approx(res.mean_ranks["C4.5"])
    assert round(centre, 3) == 3.143
    # true extent in the data (beyond rank 4), drawing clipped to the axis
    assert hi > 4
    assert band.get_clip_on()
    assert band.get_clip_box() is not None
    # a control comparison draws no group lines, and the CD bar has the BD CD
    assert gid_lines(ax, "group") == []
    assert abs(np.diff(one(ax, "cd-bar").get_xdata())[0]) == pytest.approx(half)
    texts = labels(ax, res)
    assert texts["C4.5"].get_fontweight() == "bold"
    assert texts["C4.5+m"].get_fontweight() == "normal"
    assert "Bonferroni–Dunn test against C4.5" in caption_text(ax)


def test_bonferroni_dunn_band_is_clipped_to_the_axis(table6):
    res = nbstats.posthoc(table6, method="bonferroni-dunn", control="C4.5")
    ax = cd_diagram(res)
    renderer_of(ax)
    axis_ends = ax.transData.transform([[1, 0], [4, 0]])[:, 0]
    clip = one(ax, "control-band").get_clip_box()
    assert clip.x0 == pytest.approx(min(axis_ends))
    assert clip.x1 == pytest.approx(max(axis_ends))


def test_reverse_moves_the_band_and_keeps_its_extent(table6):
    res = nbstats.posthoc(table6, method="bonferroni-dunn", control="C4.5")
    lo, hi = one(cd_diagram(res), "control-band").get_xdata()
    lo_r, hi_r = one(cd_diagram(res, reverse=True), "control-band").get_xdata()
    assert (lo, hi) == (lo_r, hi_r)


@pytest.mark.parametrize("method", ["holm", "hochberg", "hommel"])
def test_stepwise_control_marks_the_significant_ones(table6, method):
    res = nbstats.posthoc(table6, method=method, control="C4.5")
    ax = cd_diagram(res)
    names = list(res.mean_ranks.index)
    marked = {
        names[int(line.get_gid().split("-")[1])]
        for line in gid_lines(ax, "significant")
    }
    assert marked == set(res.reject[res.reject].index)
    if method == "holm":
        assert marked == {"C4.5+m", "C4.5+m+cf"}
    assert "C4.5+cf" not in marked
    assert not [a for a in ax.lines if a.get_gid() in ("control-band", "cd-bar")]
    assert gid_lines(ax, "group") == []
    assert labels(ax, res)["C4.5"].get_fontweight() == "bold"
    assert "significantly different" in caption_text(ax)


def test_stepwise_marks_sit_on_the_marked_algorithms_lines(table6):
    res = nbstats.posthoc(table6, method="holm", control="C4.5")
    ax = cd_diagram(res)
    renderer = renderer_of(ax)
    texts = labels(ax, res)
    names = list(res.mean_ranks.index)
    for line in gid_lines(ax, "significant"):
        name = names[int(line.get_gid().split("-")[1])]
        stem = one(ax, line.get_gid().replace("significant", "stem"))
        # same row as the algorithm's own elbow and name
        assert line.get_ydata()[0] == stem.get_ydata()[-1]
        x, y = line.get_transform().transform(
            (line.get_xdata()[0], line.get_ydata()[0])
        )
        box = texts[name].get_window_extent(renderer)
        assert box.y0 <= y <= box.y1
        assert x < box.x0  # next to the name, not on it


# -- pairwise and Bayesian results: the result's own groups --------------


def test_pairwise_wilcoxon_holm_draws_the_results_groups(table6):
    res = nbstats.comparison_matrix(table6, adjust="holm")
    ax = cd_diagram(res)
    lines = gid_lines(ax, "group")
    assert len(lines) == len(res.groups)
    for line, group in zip(lines, res.groups, strict=True):
        assert extent(line) == pytest.approx(span(res, group))
    assert not [a for a in ax.lines if a.get_gid() == "cd-bar"]
    assert caption_text(ax) == ("Wilcoxon signed-rank tests, Holm adjustment, α = 0.05")


def test_groups_that_skip_an_algorithm_mark_their_members(table6):
    res = nbstats.comparison_matrix(table6, adjust="holm")
    ax = cd_diagram(res)
    ranks = res.mean_ranks
    skipping = 0
    for line, group in zip(gid_lines(ax, "group"), res.groups, strict=True):
        lo, hi = span(res, group)
        inside = set(ranks[(ranks >= lo) & (ranks <= hi)].index)
        skips = inside != set(group)
        skipping += skips
        assert (line.get_marker() not in (None, "None", "none", "")) is skips
        assert sorted(line.get_xdata()) == pytest.approx(sorted(ranks[list(group)]))
    # {C4.5+m+cf, C4.5+cf, C4.5} leaves out C4.5+m, ranked inside its span
    assert skipping == 1


def test_bayes_posthoc_draws_the_results_groups(table6):
    res = nbstats.bayes_posthoc(table6, n_samples=4000, random_state=0)
    ax = cd_diagram(res)
    lines = gid_lines(ax, "group")
    assert len(lines) == len(res.groups)
    for line, group in zip(lines, res.groups, strict=True):
        assert extent(line) == pytest.approx(span(res, group))
    assert not [a for a in ax.lines if a.get_gid() in ("cd-bar", "control-band")]
    assert caption_text(ax) == ("Bayesian sign test, joint posterior > 0.95")
    assert sorted(shown(t) for t in labels(ax, res).values()) == sorted(table6.columns)


def test_holm_all_pairs_on_ranks(table6):
    res = nbstats.posthoc(table6, method="holm")
    ax = cd_diagram(res)
    assert len(gid_lines(ax, "group")) == len(res.groups)
    assert caption_text(ax) == "Holm test, α = 0.05"


@pytest.mark.parametrize(
    ("function", "kwargs", "caption"),
    [
        ("conover", {}, "Conover (Friedman ranks) tests, Holm adjustment"),
        (
            "conover",
            {"ranks": "quade"},
            "Conover (Quade ranks) tests, Holm adjustment",
        ),
        (
            "posthoc",
            {"method": "holm", "ranks": "aligned"},
            "Holm (aligned ranks) test",
        ),
        # every procedure by its name in words, the code never
        ("posthoc", {"method": "bergmann-hommel"}, "Bergmann–Hommel test"),
        (
            "comparison_matrix",
            {"adjust": "bergmann-hommel"},
            "Wilcoxon signed-rank tests, Bergmann–Hommel adjustment",
        ),
        (
            "comparison_matrix",
            {"test": "sign", "adjust": "finner"},
            "sign tests, Finner adjustment",
        ),
    ],
)
def test_the_caption_names_the_ranks_compared(table6, function, kwargs, caption):
    ax = cd_diagram(getattr(nbstats, function)(table6, **kwargs))
    assert caption_text(ax) == f"{caption}, α = 0.05"


def test_a_group_of_one_is_an_invisible_placeholder():
    rng = np.random.default_rng(3)
    table = pd.DataFrame(rng.normal(size=(60, 3)), columns=["A", "B", "C"])
    table["A"] += 10  # A always wins: different from both others
    res = nbstats.posthoc(table, method="nemenyi")
    assert [set(g) for g in res.groups] == [{"A"}, {"B", "C"}]
    ax = cd_diagram(res)
    lines = gid_lines(ax, "group")
    assert [line.get_gid() for line in lines] == ["group-0", "group-1"]
    assert [line.get_visible() for line in lines] == [False, True]


def test_a_group_of_tied_algorithms_is_a_dot():
    table = pd.DataFrame({"A": [1.0, 2.0, 3.0, 4.0], "B": [2.0, 1.0, 4.0, 3.0]})
    res = nbstats.posthoc(table, method="nemenyi")
    assert res.mean_ranks.tolist() == [1.5, 1.5]
    (line,) = gid_lines(cd_diagram(res), "group")
    assert line.get_visible()
    assert extent(line) == (1.5, 1.5)
    assert line.get_marker() == "o"


# -- 30 algorithms: nothing overlaps, nothing is cut off -----------------


@pytest.mark.parametrize(
    ("seed", "n", "trend"), [(0, 10, 0.0), (1, 25, 0.0), (2, 60, 3.0), (3, 200, 2.0)]
)
@pytest.mark.parametrize("width", ["single", "double"])
def test_30_algorithms_no_overlaps(seed, n, trend, width):
    table = random_table(seed, n=n, trend=trend)
    res = nbstats.posthoc(table, method="nemenyi")
    ax = cd_diagram(res, width=width)
    fig = ax.figure
    renderer = renderer_of(ax)
    texts = labels(ax, res)
    assert len(texts) == 30
    boxes = [t.get_window_extent(renderer) for t in texts.values()]
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b)
    # nor with the other texts (ticks, CD, caption), and nothing off the figure
    others = [
        t.get_window_extent(renderer)
        for t in [*ax.texts, *ax.xaxis.get_ticklabels()]
        if t.get_visible() and t.get_text() and t not in texts.values()
    ]
    for a, b in itertools.combinations(boxes + others, 2):
        assert not a.overlaps(b)
    for box in boxes + others:
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1
        assert fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1
    # group lines: one per group, exact spans, no overlap within a row
    lines = gid_lines(ax, "group")
    assert len(lines) == len(res.groups)
    visible = []
    for line, group in zip(lines, res.groups, strict=True):
        assert extent(line) == pytest.approx(span(res, group))
        if line.get_visible():
            visible.append(line)
    for a, b in itertools.combinations(visible, 2):
        if a.get_ydata()[0] == b.get_ydata()[0]:
            (a0, a1), (b0, b1) = extent(a), extent(b)
            assert a1 < b0 or b1 < a0
            # and apart on screen, thick ends included
            pa = a.get_window_extent(renderer)
            pb = b.get_window_extent(renderer)
            assert not pa.overlaps(pb)


def test_figure_height_grows_with_the_number_of_algorithms(table6):
    small = cd_diagram(nbstats.posthoc(table6, method="nemenyi")).figure
    big = cd_diagram(nbstats.posthoc(random_table(0), method="nemenyi")).figure
    assert big.get_figheight() > 2 * small.get_figheight()
    assert small.get_figwidth() == pytest.approx(3.3)


# -- names shown literally, PNG and SVG ----------------------------------

NASTY = ["a_b", "x & y", "cost $5", "50%", "Ångström ñ", "$x$"]


def test_nasty_names_render_literally(tmp_path):
    rng = np.random.default_rng(0)
    table = pd.DataFrame(
        rng.normal(size=(12, len(NASTY))) + np.arange(len(NASTY)), columns=NASTY
    )
    res = nbstats.posthoc(table, method="nemenyi", alpha=0.10)
    ax = cd_diagram(res, title="scores in $ & %")
    texts = labels(ax, res)
    assert {name: shown(t) for name, t in texts.items()} == {n: n for n in NASTY}
    renderer = renderer_of(ax)
    # same width as the same string drawn with mathtext switched off
    for name, text in texts.items():
        plain = ax.figure.text(
            0, 0, name, fontsize=text.get_fontsize(), parse_math=False
        )
        assert text.get_window_extent(renderer).width == pytest.approx(
            plain.get_window_extent(renderer).width, rel=1e-6
        )
        plain.remove()
    assert not matplotlib.rcParams["text.usetex"]
    png, svg = tmp_path / "cd.png", tmp_path / "cd.svg"
    nbstats.plots.save(ax.figure, png)
    nbstats.plots.save(ax.figure, svg)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    written = "".join(ET.parse(svg).getroot().itertext())
    for name in [*NASTY, "scores in $ & %"]:
        assert name in written


def test_table6_saves_png_and_svg(table6, tmp_path):
    for i, res in enumerate(
        [
            nbstats.posthoc(table6, method="nemenyi", alpha=0.10),
            nbstats.posthoc(table6, method="bonferroni-dunn", control="C4.5"),
            nbstats.posthoc(table6, method="holm", control="C4.5"),
        ]
    ):
        ax = cd_diagram(res)
        for suffix in ("png", "svg"):
            path = tmp_path / f"cd{i}.{suffix}"
            nbstats.plots.save(ax.figure, path)
            assert path.stat().st_size > 1000
        assert "C4.5+m+cf" in "".join(
            ET.parse(tmp_path / f"cd{i}.svg").getroot().itertext()
        )


# -- given axes, style, bad input -----------------------------------------


def test_draws_on_given_axes_in_a_constrained_layout(table6):
    fig, (left, right) = plt.subplots(1, 2, figsize=(6.9, 2.2), layout="constrained")
    a = cd_diagram(nbstats.posthoc(table6, method="nemenyi", alpha=0.10), ax=left)
    b = cd_diagram(
        nbstats.posthoc(table6, method="bonferroni-dunn", control="C4.5"),
        ax=right,
        reverse=True,
    )
    assert a is left
    assert b is right
    fig.canvas.draw()  # no "constrained_layout not applied" warning (-W error)
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for ax in (a, b) for t in ax.texts]
    for x, y in itertools.combinations(boxes, 2):
        assert not x.overlaps(y)
    for box in boxes:
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1


def test_leaves_global_settings_alone(table6):
    before = dict(matplotlib.rcParams)
    cd_diagram(nbstats.posthoc(table6, method="nemenyi"))
    after = dict(matplotlib.rcParams)
    assert before == after


@pytest.mark.parametrize(
    "bad", ["friedman", "frame", None, "rank_ci"], ids=lambda b: str(b)
)
def test_not_a_posthoc_result_is_a_type_error(table6, bad):
    value = {
        "friedman": lambda: nbstats.friedman(table6),
        "frame": lambda: table6,
        None: lambda: None,
        "rank_ci": lambda: nbstats.rank_ci(table6, method="id-nemenyi"),
    }[bad]()
    with pytest.raises(TypeError, match=r"PosthocResult.*BayesPosthocResult"):
        cd_diagram(value)


def test_bad_options(table6):
    res = nbstats.posthoc(table6, method="nemenyi")
    with pytest.raises(ValueError, match="width must be one of"):
        cd_diagram(res, width="triple")
    with pytest.raises(ValueError, match="label_fontsize"):
        cd_diagram(res, label_fontsize=0)
    with pytest.raises(ValueError, match="label_fontsize"):
        cd_diagram(res, label_fontsize="big")

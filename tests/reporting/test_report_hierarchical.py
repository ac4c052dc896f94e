"""The report's Bayesian hierarchical test across data sets (opt-in)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pandas as pd
import pytest

import nbstats
from nbstats.reporting import hierarchical as section
from nbstats.reporting.folds import _probability
from tests.cli_helpers import calls, run  # noqa: F401 (calls: a fixture)

UCI = dict(case="dataset", algorithm="classifier", score="accuracy", fold="fold")
ARTIFACT = Path(__file__).parents[1] / "artifacts" / "report-hierarchical.png"


@pytest.fixture(scope="module")
def eight_sets() -> pd.DataFrame:
    """nbc vs aode on 8 UCI data sets, 10 runs of 10-fold cross-validation."""
    data = nbstats.datasets.load("uci_accuracy_folds")
    keep = data.dataset.isin(data.dataset.unique()[:8])
    return data[keep & data.classifier.isin(["nbc", "aode"])]


@pytest.fixture(scope="module")
def html_report(eight_sets, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("hierarchical") / "report.html"
    nbstats.reporting.report(
        eight_sets, path, **UCI, runs=10, rope=0.01, hierarchical=True, random_state=7
    )
    return path


def _cells(html: str, label: str) -> list[list[str]]:
    """The body rows of the table ``label`` as text (a no-break space, as
    in "a\u00a0vs b", read as the space it shows)."""
    start = html.index(f'id="{label}"')
    body = html[start : html.index("</table>", start)]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    return [
        [
            re.sub(r"<[^>]+>", "", c).replace("\u00a0", " ").strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in rows
    ]


def test_the_report_shows_bayes_hierarchical_of_the_pair(html_report, eight_sets):
    html = html_report.read_text()
    assert "Across data sets: the Bayesian hierarchical test" in html
    # the same call on the report's own long table (MCMC draws depend on the
    # order of the data sets): the report's numbers are bayes_hierarchical's
    from nbstats.reporting import _REPORT_DEFAULTS, _prepare
    from nbstats.reporting.folds import fold_scores_csv, read_fold_scores

    options = {**_REPORT_DEFAULTS, **UCI, "runs": 10}
    table, settings = _prepare(eight_sets, **options)
    long = read_fold_scores(fold_scores_csv(settings.fold_scores), {}, table.index)
    with warnings.catch_warnings():  # R̂, divergences: the table states them
        warnings.simplefilter("ignore", UserWarning)
        direct = nbstats.bayes_hierarchical(
            "nbc",
            "aode",
            data=long,
            case="case",
            algorithm="algorithm",
            score="score",
            fold="fold",
            runs=10,
            rope=0.01,
            random_state=7,
        )
    (row,) = [
        r for r in _cells(html, "tab-hierarchical") if r and r[0] == "aode vs nbc"
    ]
    assert row[1:4] == [
        _probability(direct.prob_left),
        _probability(direct.prob_rope),
        _probability(direct.prob_right),
    ]
    assert row[6] == f"{direct.rhat:.3f}" and row[8] == str(int(direct.divergences))
    # cited in the body by author and year, numbered in Methods and References
    assert "(Corani et al. 2017)" in html
    assert "Statistical comparison of classifiers through Bayesian hierarchical" in html
    assert "NUTS" in html  # the Methods sentence


def test_the_section_renders_in_chromium(html_report, browser):
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    try:
        page.goto(html_report.as_uri())
        heading = page.locator("h1:has-text('hierarchical test')").first
        top = heading.evaluate("e => e.getBoundingClientRect().top + window.scrollY")
        width = page.evaluate("document.documentElement.scrollWidth")
        figure = page.locator("#fig-hierarchical img, #fig-hierarchical svg").first
        assert figure.bounding_box()["width"] > 200
        ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(
            path=ARTIFACT,
            full_page=True,
            clip={"x": 0, "y": top - 10, "width": 1000, "height": 1300},
        )
    finally:
        page.close()
    assert width <= 1000  # no page-level horizontal scroll


def test_without_the_sampler_the_section_says_what_to_install(monkeypatch, eight_sets):
    def missing():
        raise ImportError("no module named 'numpyro'")

    monkeypatch.setattr("nbstats.stats.hierarchical_model.require_sampler", missing)
    long = eight_sets.rename(
        columns={"dataset": "case", "classifier": "algorithm", "accuracy": "score"}
    )
    tests = section.hierarchical_tests(
        long, [("nbc", "aode")], runs=10, rope=0.01, loss=(1, 19), seed=0
    )
    assert tests.results == () and "numpyro" in tests.missing
    assert section.hierarchical_methods(tests).text() == ""
    shown = []
    monkeypatch.setattr(section, "paragraph", lambda para: shown.append(para.text()))
    section.hierarchical_section(tests)
    (text,) = shown
    assert "pip install nbstats[hierarchical]" in text


def test_without_the_sampler_the_notebook_numbers_no_table(monkeypatch, eight_sets):
    from nbstats.reporting import _REPORT_DEFAULTS, _prepare, notebook

    monkeypatch.setattr(section, "sampler_installed", lambda: False)
    options = {**_REPORT_DEFAULTS, **UCI, "runs": 10, "hierarchical": True}
    table, settings = _prepare(eight_sets, **options)
    nb = notebook.build_notebook(table, settings, figure_formats=("svg",))
    start = nb.cells[1].source
    assert "tab:hierarchical" not in start and "fig:hierarchical" not in start
    assert any("report.hierarchical_section" in c.source for c in nb.cells)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"hierarchical": "yes", "runs": 10}, TypeError, "hierarchical must be True"),
        ({"hierarchical": True}, ValueError, "runs="),
    ],
)
def test_bad_settings(eight_sets, options, error, message):
    from nbstats.reporting import _REPORT_DEFAULTS, _prepare

    with pytest.raises(error, match=message):
        _prepare(eight_sets, **{**_REPORT_DEFAULTS, **UCI, **options})


def test_wide_scores_cannot_have_it():
    from nbstats.reporting import _REPORT_DEFAULTS, _prepare

    table = nbstats.datasets.load("demsar2006")
    with pytest.raises(ValueError, match="per-fold long data"):
        _prepare(table, **{**_REPORT_DEFAULTS, "hierarchical": True})


def test_cli_option(calls, tmp_path, capsys, eight_sets):  # noqa: F811
    path = tmp_path / "folds.csv"
    eight_sets.to_csv(path, index=False)
    argv = [
        "report",
        path,
        "--case",
        "dataset",
        "--algorithm",
        "classifier",
        "--score",
        "accuracy",
        "--fold",
        "fold",
        "--runs",
        "10",
    ]
    code, _, _ = run([*argv, "--hierarchical"], capsys)
    assert code == 0
    assert calls[-1][2]["hierarchical"] is True
    code, _, _ = run(argv, capsys)
    assert code == 0 and "hierarchical" not in calls[-1][2]
    code, _, err = run(
        ["analyze", path, *argv[2:-2], "--detail", "auto", "--hierarchical"], capsys
    )
    assert code == 2 and "argument --hierarchical: does not apply" in err


def _fake_result(a: str, b: str) -> object:
    """What the simplex panel reads of a hierarchical result (duck typing)."""
    from types import SimpleNamespace

    import numpy as np

    draws = np.random.default_rng(0).dirichlet([1, 3, 2], size=200)
    return SimpleNamespace(
        name_a=a, name_b=b, rope=0.01, prob_left=0.1, prob_rope=0.6,
        prob_right=0.3, region_samples=draws, datasets=pd.DataFrame(index=range(8)),
    )  # fmt: skip


def test_the_report_figure_has_no_title_but_names_each_panel():
    # in a report the caption says what the figure is; with several pairs
    # each panel names its pair in the text's order (b vs a)
    import matplotlib.pyplot as plt

    from nbstats.reporting.display import start

    # outside a report the plot keeps its own title
    ax = nbstats.plots.hierarchical_simplex(_fake_result("nbc", "aode"))
    title = "\n".join(t.get_text() for t in ax.texts if t.get_gid() == "title")
    assert title.startswith("nbc vs aode: next data set")
    start(figure_formats=())  # titles off, as in a report (put back after)
    one = section._hierarchical_figure([_fake_result("nbc", "aode")])
    assert [ax.get_title() for ax in one.axes] == [""]
    assert not [t for t in one.axes[0].texts if t.get_gid() == "title"]
    two = section._hierarchical_figure(
        [_fake_result("nbc", "aode"), _fake_result("nbc", "hnb")]
    )
    assert [ax.get_title() for ax in two.axes] == ["aode vs nbc", "hnb vs nbc"]
    plt.close("all")


def test_the_data_sets_figure_has_one_key_below_the_axis_labels():
    # without a rope the report draws each data set's shrunk difference; one
    # key for the figure, under the x-axis label (a key per panel had
    # overlapped it), saying what the dashed line is (its value is in the table)
    from types import SimpleNamespace

    import matplotlib.pyplot as plt

    from nbstats.reporting.display import start

    def fake(a: str, b: str) -> object:
        table = pd.DataFrame(
            {
                "case": [f"set{i}" for i in range(6)],
                "mean": [0.01, 0.0, -0.01, 0.02, 0.005, 0.0],
                "low": [-0.01] * 6,
                "high": [0.03] * 6,
                "observed": [0.012, -0.002, -0.02, 0.025, 0.004, 0.001],
            }
        )
        return SimpleNamespace(
            name_a=a, name_b=b, rope=0.0, prob_rope=None, datasets=table,
            delta0=0.004, level=0.95,
        )  # fmt: skip

    start(figure_formats=())
    fig = section._hierarchical_figure([fake("nbc", "aode"), fake("nbc", "hnb")])
    assert all(ax.get_legend() is None for ax in fig.axes)
    (key,) = fig.legends
    labels = [t.get_text() for t in key.get_texts()]
    assert labels[0] == "δ0: posterior mean"
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = key.get_window_extent(renderer)
    for ax in fig.axes:  # each panel a picture: its x label a text of gid xlabel
        (xlabel,) = [t for t in ax.texts if t.get_gid() == "xlabel"]
        assert box.y1 <= xlabel.get_window_extent(renderer).y0
        assert not [t for t in ax.texts if t.get_gid().startswith("legend-")]
    plt.close(fig)

"""The fold dashboard (nbstats.widgets.folds) against the module functions.

Every number it shows is checked against :func:`nbstats.bayes_correlated_ttest`
called directly, and that against the closed form (Student's t of Nadeau and
Bengio's corrected variance, scipy); the hierarchical button against
:func:`nbstats.bayes_hierarchical` with the same seed. Then a Voilà page in
Chromium at 2 and 8 algorithms (long names) must fit: screenshots in
tests/artifacts/dashboards/folds-{m}.png.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats
from nbstats.widgets import folds_hierarchical
from nbstats.widgets.folds import FoldDashboard, fold_dashboard
from nbstats.widgets.folds_svg import format_probability
from tests.conftest import CHROMIUM_ARGS

UCI = dict(case="dataset", algorithm="classifier", score="accuracy", fold="fold")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "dashboards"
#: Real-looking configuration names, longer than any column can show.
LONG_NAMES = [
    "HistGradientBoostingClassifier(max_iter=300, lr=0.05)",
    "RandomForestClassifier(n_estimators=500, max_depth=None)",
    "LogisticRegression(C=1.0, penalty='l2', solver='lbfgs')",
    "SVC(kernel='rbf', C=10, gamma='scale')",
    "KNeighborsClassifier(n_neighbors=15, weights='distance')",
    "ExtraTreesClassifier(n_estimators=1000)",
    "MLPClassifier(hidden_layer_sizes=(256, 128), alpha=1e-4)",
    "GaussianNB()",
]


@pytest.fixture(scope="module")
def uci() -> pd.DataFrame:
    return nbstats.datasets.load("uci_accuracy_folds")


@pytest.fixture(scope="module")
def wide(uci: pd.DataFrame) -> pd.DataFrame:
    return uci.pivot_table(index=["dataset", "fold"], columns="classifier",
                           values="accuracy")  # fmt: skip


@pytest.fixture
def board(uci: pd.DataFrame) -> FoldDashboard:
    return FoldDashboard(uci, **UCI, runs=10)


def long_folds(m: int, q: int = 12, runs: int = 2, k: int = 5, seed: int = 0):
    """m algorithms × q data sets × runs × k folds, effects growing with the
    column, with (run, fold) columns."""
    rng = np.random.default_rng(seed)
    names = LONG_NAMES[:m] if m <= 8 else [f"model_{j:02d}" for j in range(m)]
    rows = []
    for i in range(q):
        base = rng.uniform(0.6, 0.9)
        offsets = rng.normal(0, 0.01, runs)  # a run's folds share its split
        for j, name in enumerate(names):
            for r in range(runs):
                for f in range(k):
                    value = base + 0.01 * j + offsets[r] + rng.normal(0, 0.02)
                    rows.append((f"dataset_{i:02d}_openml", name, r, f, value))
    return pd.DataFrame(rows, columns=["dataset", "model", "run", "fold", "acc"])


LONG = dict(case="dataset", algorithm="model", score="acc", fold=["run", "fold"])


def closed_form(a: np.ndarray, b: np.ndarray, rho: float, rope: float):
    """(P(μ < −rope), P(μ > rope)): Student t(n − 1), location mean(b − a),
    scale sqrt((1/n + ρ/(1 − ρ)) var(b − a)) (Corani & Benavoli 2015)."""
    d = b - a
    n = d.size
    scale = np.sqrt((1 / n + rho / (1 - rho)) * d.var(ddof=1))
    left = stats.t.cdf(-rope, n - 1, loc=d.mean(), scale=scale)
    right = stats.t.sf(rope, n - 1, loc=d.mean(), scale=scale)
    return left, right


# -- numbers ------------------------------------------------------------------------


def test_shown_numbers_equal_direct_calls(board, wide):
    board.set(a="nbc", b="aode", dataset="anneal", rope=0.01)
    assert board.error is None
    shown = board.result["selected"]
    xa, xb = wide.loc["anneal", "nbc"], wide.loc["anneal", "aode"]
    direct = nbstats.bayes_correlated_ttest(xa, xb, rope=0.01, runs=10)
    for field in ("prob_left", "prob_rope", "prob_right", "mean", "scale", "df",
                  "decision", "rho", "threshold"):  # fmt: skip
        assert getattr(shown, field) == getattr(direct, field), field
    left, right = closed_form(xa.to_numpy(), xb.to_numpy(), 0.1, 0.01)
    assert shown.prob_left == pytest.approx(left, abs=1e-10)
    assert shown.prob_right == pytest.approx(right, abs=1e-10)
    text = board.selected_view.value
    for p in (direct.prob_left, direct.prob_rope, direct.prob_right):
        assert format_probability(p) in text
    assert "aode better" in text or direct.decision != "b"
    # the summary: every data set its own direct call
    table = board.result["cases"].set_index("case")
    for name in table.index:
        one = nbstats.bayes_correlated_ttest(
            wide.loc[name, "nbc"], wide.loc[name, "aode"], rope=0.01, runs=10
        )
        row = table.loc[name]
        assert row["prob_left"] == pytest.approx(one.prob_left, abs=1e-12)
        assert row["prob_rope"] == pytest.approx(one.prob_rope, abs=1e-12)
        assert row["prob_right"] == pytest.approx(one.prob_right, abs=1e-12)
        assert row["decision"] == one.decision, name
    counts = {k: len(v) for k, v in board.result["counts"].items()}
    decided = table["decision"].value_counts()
    assert counts == {k: int(decided.get(k, 0)) for k in counts}
    assert sum(counts.values()) == 54
    summary = board.summary_view.value
    found = re.search(r"<b>aode better</b></td><td[^>]*>(\d+)<", summary)
    assert found and int(found.group(1)) == counts["b"]


def test_controls_update_the_views(board, wide):
    board.set(a="nbc", b="aode", dataset="iris", rope=0.0)
    xa, xb = wide.loc["iris", "nbc"].to_numpy(), wide.loc["iris", "aode"].to_numpy()
    no_rope = board.result["selected"]
    assert no_rope.prob_rope is None
    assert "equivalent" not in board.summary_view.value
    svg = board.plot_view.outputs[0]["data"]["image/svg+xml"]
    board.controls["rope"].value = 0.02
    with_rope = board.result["selected"]
    assert with_rope.prob_rope > 0
    assert with_rope.prob_left == pytest.approx(closed_form(xa, xb, 0.1, 0.02)[0])
    assert board.plot_view.outputs[0]["data"]["image/svg+xml"] != svg
    assert "P(rope ±0.02)" in board.plot_view.outputs[0]["data"]["image/svg+xml"]
    # the design: 1 run of 100 folds makes ρ = 1/100 and the posterior narrower
    board.controls["runs"].value = 1
    one_run = board.result["selected"]
    assert one_run.rho == 0.01
    n = xa.size
    ratio = np.sqrt((1 / n + 1 / 99) / (1 / n + 1 / 9))
    assert one_run.scale == pytest.approx(with_rope.scale * ratio, rel=1e-12)
    assert board.controls["test_fraction"].disabled
    assert "ρ = 1/100" in board._design_label.value
    board.set(runs=None, test_fraction=0.2)
    assert not board.controls["test_fraction"].disabled
    holdout = board.result["selected"]
    assert holdout.rho == 0.2 and holdout.folds is None
    assert holdout.prob_right == pytest.approx(closed_form(xa, xb, 0.2, 0.02)[1])
    # the loss ratio moves the threshold, and with it the decisions
    board.set(runs=10, loss_ratio=1.0)
    assert board.result["threshold"] == 0.5
    assert "<b>0.5</b>" in board._loss_label.value  # as the report prints it
    lenient = board.result["counts"]
    board.controls["loss_ratio"].value = 99.0
    assert board.result["threshold"] == pytest.approx(0.99)
    assert len(board.result["counts"]["undecided"]) > len(lenient["undecided"])
    # swapping a and b mirrors the probabilities
    before = board.result["selected"]
    board.set(a="aode", b="nbc")
    after = board.result["selected"]
    assert after.prob_left == pytest.approx(before.prob_right, abs=1e-12)
    assert after.mean == pytest.approx(-before.mean)
    # all data sets: stacked bars, one per data set
    board.controls["dataset"].value = None
    assert board.result["selected"] is None
    bars = board.plot_view.outputs[0]["data"]["image/svg+xml"]
    assert bars.count('data-role="name-') == 54  # one row a data set
    assert "All 54 data sets" in board.selected_view.value


def test_lower_is_better_and_two_fold_columns():
    data = long_folds(3)
    board = FoldDashboard(data, **LONG)  # runs from the 'run' column: 2
    assert board.controls["runs"].value == 2
    name_a, name_b = LONG_NAMES[0], LONG_NAMES[2]
    board.set(a=name_a, b=name_b, dataset="dataset_03_openml", rope=0.01)
    upper = board.result["selected"]
    negated = data.assign(acc=-data["acc"])
    lower = FoldDashboard(negated, **LONG, higher_is_better=False)
    lower.set(a=name_a, b=name_b, dataset="dataset_03_openml", rope=0.01)
    assert lower.result["selected"].prob_right == pytest.approx(upper.prob_right)
    pd.testing.assert_frame_equal(lower.result["cases"], board.result["cases"])
    block = data[data["dataset"] == "dataset_03_openml"]
    xa = block[block["model"] == name_a].sort_values(["run", "fold"])["acc"]
    xb = block[block["model"] == name_b].sort_values(["run", "fold"])["acc"]
    left, right = closed_form(xa.to_numpy(), xb.to_numpy(), 1 / 5, 0.01)
    assert upper.prob_left == pytest.approx(left) and upper.prob_right == pytest.approx(
        right
    )
    assert any("Aliases" in getattr(c, "value", "") for c in board.widget.children)


def test_update_speed(board):
    # the benchmark (benchmarks/bench_folds_dashboard.py) times every control;
    # here a loose bound that only catches a regression by an order of magnitude
    board.set(a="nbc", b="aode", dataset="anneal")
    times = []
    for k in range(12):
        start = time.perf_counter()
        board.controls["rope"].value = 0.001 * (k + 1)
        times.append(time.perf_counter() - start)
    assert board.error is None
    assert statistics.median(times) < 1.5, times


def test_hostile_names_are_escaped():
    data = long_folds(2)
    data["model"] = data["model"].map(
        {LONG_NAMES[0]: "<b>x</b>", LONG_NAMES[1]: 'a&"b'}
    )
    data["dataset"] = data["dataset"].str.replace("dataset_00", "<i>d</i>")
    board = FoldDashboard(data, **LONG, rope=0.01)
    board.controls["dataset"].value = "<i>d</i>_openml"
    views = [board.selected_view.value, board.summary_view.value]
    assert all("<b>x</b>" not in v and "<i>d</i>" not in v for v in views)
    assert "&lt;b&gt;x&lt;/b&gt;" in board.summary_view.value
    svg = board.plot_view.outputs[0]["data"]["image/svg+xml"]
    assert "<b>x</b>" not in svg and "&lt;b&gt;x&lt;/b&gt;" in svg


# -- errors ---------------------------------------------------------------------------


def test_bad_input(uci):
    with pytest.raises(ValueError, match="say how the fold scores were made"):
        FoldDashboard(uci, **UCI)
    with pytest.raises(ValueError, match="multiple of 7"):
        FoldDashboard(uci, **UCI, runs=7)
    with pytest.raises(ValueError, match="leaves 1 fold per run"):
        FoldDashboard(uci, **UCI, runs=100)
    with pytest.raises(ValueError, match="100 is not a multiple of 3"):
        FoldDashboard(uci, **UCI, folds=3)
    assert FoldDashboard(uci, **UCI, folds=20).controls["runs"].value == 5
    with pytest.raises(TypeError, match="long DataFrame"):
        FoldDashboard(uci.to_numpy(), **UCI, runs=10)
    with pytest.raises(ValueError, match="not found"):
        FoldDashboard(uci, **{**UCI, "score": "auc"}, runs=10)
    with pytest.raises(ValueError, match="at least 2 algorithms"):
        FoldDashboard(uci[uci["classifier"] == "nbc"], **UCI, runs=10)
    with pytest.raises(ValueError, match="rope"):
        FoldDashboard(uci, **UCI, runs=10, rope=-0.1)
    with pytest.raises(ValueError, match="loss"):
        FoldDashboard(uci, **UCI, runs=10, loss=(1, -1))
    with pytest.raises(ValueError, match="test_fraction"):
        FoldDashboard(uci, **UCI, test_fraction=1.5)
    with pytest.raises(TypeError, match="higher_is_better must be True or False"):
        FoldDashboard(uci, **UCI, runs=10, higher_is_better="yes")
    gap = uci.drop(uci.index[(uci["dataset"] == "iris") & (uci["fold"] == 3)][:1])
    with pytest.raises(ValueError, match="unequal folds"):
        FoldDashboard(gap, **UCI, runs=10)


def test_errors_show_in_the_dashboard(board):
    board.set(a="nbc", b="aode")
    kept = board.result
    board.controls["b"].value = "nbc"
    assert board.error is not None and "two different algorithms" in board.error
    assert "Could not update" in board._error_view.value
    assert board.result is kept
    board.controls["b"].value = "hnb"
    assert board.error is None and board._error_view.value == ""


def test_export_passes_the_fold_settings(board, monkeypatch, tmp_path):
    calls = []

    def fake_report(scores, path, **kwargs):
        calls.append((scores, path, kwargs))
        return Path(path)

    monkeypatch.setattr(sys.modules["nbstats.reporting"], "report", fake_report)
    board.set(rope=0.01, runs=5, loss_ratio=9.0)
    board.export_report(str(tmp_path / "r.html"))
    scores, _, kwargs = calls[0]
    assert scores is board.scores
    assert kwargs["runs"] == 5 and kwargs["rope"] == pytest.approx(0.01)
    assert kwargs["loss"] == (1.0, pytest.approx(9.0))
    assert {k: kwargs[k] for k in UCI} == UCI
    board.controls["runs"].value = None
    board.export_button.click()
    assert "runs=" in board.export_status.value and len(calls) == 1


def test_snapshot_and_summary(board):
    assert "<svg" not in board.snapshot_html() or "data:image/svg+xml" in (
        board.snapshot_html()
    )
    assert "data:image/svg+xml;base64," in board.snapshot_html()
    assert board._summary().startswith("FoldDashboard of 5 algorithms on 54 data")
    assert fold_dashboard(board.scores, **UCI, runs=10).names == board.names


# -- the hierarchical test -----------------------------------------------------------


def test_hierarchical_button_names_the_extra(uci, monkeypatch):
    monkeypatch.setitem(sys.modules, "numpyro", None)
    board = FoldDashboard(uci, **UCI, runs=10)
    button = board.hierarchical_button
    assert button.disabled
    assert "pip install nbstats[hierarchical]" in button.description
    assert "pip install nbstats[hierarchical]" in board.hierarchical_status.value


@pytest.mark.filterwarnings("ignore:the hierarchical model's sampler")
def test_hierarchical_on_request_equals_the_function():
    pytest.importorskip("numpyro")
    data = long_folds(3, q=6, runs=2, k=5)
    # the settings and size of tests/stats/test_hierarchical.py's SMALL tests:
    # in one pytest session the compiled sampler is shared
    options = {"n_samples": 500, "warmup": 300, "random_state": 5}
    board = FoldDashboard(data, **LONG, rope=0.01, hierarchical=options)
    assert board.hierarchical_button.description == folds_hierarchical.RUN_LABEL
    assert board.hierarchical_result is None  # nothing runs before the click
    board.set(a=LONG_NAMES[0], b=LONG_NAMES[2])
    thread = board.run_hierarchical(wait=False)  # what the button does
    assert board.hierarchical_button.disabled
    assert "nbstats-spin" in board.hierarchical_status.value
    thread.join(timeout=300)
    assert board.hierarchical_error is None, board.hierarchical_error
    assert not board.hierarchical_button.disabled
    res = board.hierarchical_result
    direct = nbstats.bayes_hierarchical(
        LONG_NAMES[0], LONG_NAMES[2], data=data, **LONG, runs=2, rope=0.01, **options
    )
    assert (res.prob_left, res.prob_rope, res.prob_right) == (
        direct.prob_left,
        direct.prob_rope,
        direct.prob_right,
    )
    text = board.hierarchical_view.value
    assert format_probability(direct.prob_right) in text
    assert "changed since" not in text
    simplex = board.hierarchical_plot.outputs[0]["data"]["image/svg+xml"]
    assert simplex.startswith("<svg")  # the dashboards' renderer, no matplotlib
    assert simplex.count("<circle") >= 1000 and 'data-role="simplex-' in simplex
    board.controls["rope"].value = 0.02
    assert "changed since" in board.hierarchical_view.value


# -- in a browser -----------------------------------------------------------------------

URL_LINE = re.compile(r"^\s*(http://127\.0\.0\.1:\d+/)\S*\s*$", re.M)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One Voilà server with a page per size; its process group stopped after."""
    from nbstats.app import server as serve
    from tests.conftest import require_executable
    from tests.widgets.test_browser import require_module

    chromium = require_executable("chromium", "apt-get install chromium")
    require_module("playwright", "pip install playwright")
    require_module("voila", "pip install 'nbstats[dashboard]'")
    import nbformat
    import nbformat.v4 as nbf

    folder = tmp_path_factory.mktemp("folds")
    for m in (2, 8):
        csv = folder / f"folds{m}.csv"
        long_folds(m, q=20, seed=m).to_csv(csv, index=False)
        code = "\n".join(
            [
                "import pandas as pd",
                "from nbstats.widgets.folds import FoldDashboard",
                f"data = pd.read_csv({str(csv)!r})",
                "board = FoldDashboard(data, case='dataset', algorithm='model', "
                "score='acc', fold=['run', 'fold'], rope=0.01)",
                "board.widget.add_class('nbstats-dashboard')",
                "board",
            ]
        )
        nb = nbf.new_notebook(
            cells=[nbf.new_code_cell(code)],
            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}},
        )  # fmt: skip
        nbformat.write(nb, folder / f"folds-{m}.ipynb")
    log = folder / "voila.log"
    token = secrets.token_urlsafe(16)
    env = dict(os.environ, PYTHONUNBUFFERED="1", JUPYTER_TOKEN=token)
    env.pop("MPLBACKEND", None)
    config = serve.write_voila_config(folder / "config").parent
    command = serve.voila_command(
        folder, port=serve.free_port(), port_retries=10, connection_dir=folder,
        config_dir=config,
    )  # fmt: skip
    with log.open("w") as sink:
        process = subprocess.Popen(
            command, cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=sink,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while not (match := URL_LINE.search(log.read_text(errors="replace"))):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Voilà did not start:\n{log.read_text()}")
            time.sleep(0.1)
        yield chromium, match.group(1), token
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.mark.parametrize("m", [2, 8])
def test_fits_the_page_in_chromium(server, m):
    from playwright.sync_api import sync_playwright

    from tests.widgets.test_browser_layout import OVERFLOW

    chromium, url, token = server
    dashboard = ".nbstats-dashboard"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_ARGS, headless=True
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            page.goto(f"{url}voila/render/folds-{m}.ipynb?token={token}",
                      wait_until="domcontentloaded", timeout=120_000)  # fmt: skip
            failed = "[data-mime-type='application/vnd.jupyter.stderr']"
            page.locator(f"{dashboard}, {failed}").first.wait_for(timeout=120_000)
            if not page.locator(dashboard).count():
                pytest.fail(f"the notebook failed:\n{page.inner_text('body')}")
            page.locator(f"{dashboard} img").first.wait_for(timeout=60_000)
            page.locator(f"{dashboard} details summary").first.click()
            page.wait_for_timeout(500)
            text = page.inner_text(dashboard)
            found = page.evaluate(OVERFLOW, dashboard)
            bottom = page.evaluate(
                f"document.querySelector('{dashboard}').getBoundingClientRect().bottom"
            )
            page.set_viewport_size({"width": 1280, "height": int(bottom) + 40})
            page.wait_for_timeout(300)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shot = ARTIFACTS / f"folds-{m}.png"
            page.screenshot(path=shot)
        finally:
            with contextlib.suppress(Exception):
                page.goto("about:blank", timeout=10_000)
            browser.close()
    assert "Could not update" not in text, text
    assert not errors, errors
    assert not found["bad"], f"elements wider than their box (see {shot}): {found}"
    width, visible = found["pageScroll"]
    assert width <= visible, f"the page scrolls sideways ({width} > {visible}): {shot}"
    assert "Per data set" in text and "P(" in text
    if m == 8:
        assert "Aliases" in text and "HistGradientBoostingClassifier" in text

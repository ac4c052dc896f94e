"""quiet(): a cell ending in a plot shows the figure and no ``<Axes: …>``."""

from __future__ import annotations

import matplotlib.pyplot as plt
import nbformat
import pytest

import nbstats
from nbstats.plots._common import quiet


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _results(table6):
    uci = nbstats.datasets.load("uci_accuracy")
    roped = nbstats.bayes_signrank(
        uci["nbc"], uci["aode"], prior="point", rope=0.01, random_state=0
    )
    return {
        "cd": lambda: nbstats.posthoc(table6).plot(),
        "heatmap": lambda: nbstats.posthoc(table6, method="holm").plot(kind="heatmap"),
        "ranks": lambda: nbstats.rank_ci(table6, method="id-nemenyi").plot(),
        "signrank": lambda: nbstats.bayes_signrank(
            uci["nbc"], uci["j48"], random_state=0
        ).plot(),
        "rope": lambda: roped.plot(kind="rope"),
        "simplex": lambda: roped.plot(kind="simplex"),
        "sign": lambda: nbstats.bayes_sign_test(uci["nbc"], uci["j48"]).plot(),
        "friedman": lambda: nbstats.bayes_friedman(uci[["nbc", "aode", "j48"]]).plot(),
        "joint": lambda: nbstats.bayes_posthoc(uci, random_state=0).plot(),
        "accessor": lambda: table6.compare.cd_diagram(),
    }


def test_every_plot_returns_a_quiet_axes(table6):
    from IPython.core.formatters import DisplayFormatter

    formatter = DisplayFormatter()
    for name, draw in _results(table6).items():
        ax = draw()
        assert isinstance(ax, plt.Axes), name
        # IPython asks _ipython_display_ first: nothing is published
        assert formatter.format(ax) == ({}, {}), name
        assert "<Axes" in repr(ax)  # the class itself is untouched
        plt.close(ax.figure)  # the earlier test files' open figures are enough


def test_race_trace_is_quiet():
    def evaluate(candidate, instance):
        return {"a": 0.1, "b": 0.9}[candidate] + 0.01 * (instance % 3)

    res = nbstats.race(evaluate, ["a", "b"], range(20), progress=False)
    from IPython.core.formatters import DisplayFormatter

    assert DisplayFormatter().format(res.plot()) == ({}, {})


def test_quiet_marks_only_the_instance():
    _, (first, second) = plt.subplots(1, 2)
    assert quiet(first) is first
    assert hasattr(first, "_ipython_display_")
    assert not hasattr(second, "_ipython_display_")


def test_interactive_shell_prints_no_axes_repr():
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    shell = InteractiveShell.instance()
    try:
        code = (
            "import matplotlib\nmatplotlib.use('Agg')\nimport nbstats\n"
            "nbstats.datasets.load('demsar2006').compare.posthoc("
            "method='nemenyi').plot()"
        )
        with capture_output() as captured:
            result = shell.run_cell(code)
        assert result.success, result.error_in_exec
        # a terminal shell still prints its "Out[n]: " prompt, with nothing after
        assert "<Axes" not in captured.stdout
        assert result.result is not None  # the cell's value is still the Axes
        with capture_output() as captured:
            shell.run_cell("import matplotlib.pyplot as plt\nplt.figure().gca()")
        assert "<Axes" in captured.stdout  # a plain Axes still shows its repr
    finally:
        InteractiveShell.clear_instance()


def test_notebook_cell_shows_the_image_and_no_axes_text():
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("%matplotlib inline\nimport nbstats"),
        nbformat.v4.new_code_cell(
            'nbstats.datasets.load("demsar2006").compare.posthoc('
            'method="nemenyi").plot()'
        ),
        nbformat.v4.new_code_cell(
            "nbstats.plots.pairwise_heatmap(nbstats.posthoc("
            'nbstats.datasets.load("demsar2006"), method="holm"))'
        ),
    ]
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    for cell in nb.cells[1:]:
        kinds = [out.output_type for out in cell.outputs]
        assert "error" not in kinds, cell.outputs
        images = [out for out in cell.outputs if "image/png" in out.get("data", {})]
        assert len(images) == 1, cell.outputs
        texts = [
            out["data"]["text/plain"]
            for out in cell.outputs
            if "text/plain" in out.get("data", {})
        ]
        assert not any("<Axes" in text for text in texts), texts
        assert all(out.output_type == "display_data" for out in cell.outputs)

"""Every "at most" Monte Carlo error a report states is a bound: never below
the error of the result it describes (rounded up, nbstats.results.monte_carlo)."""

from __future__ import annotations

import re

import nbstats
import nbstats.reporting


def test_plackett_luce_error_is_not_understated():
    scores = nbstats.datasets.load("demsar2006")
    text = nbstats.reporting.report_text(scores, random_state=0)
    stated = re.search(
        r"standard error of each P\(best\) is at most ([0-9]+\.[0-9]+)", text
    )
    assert stated is not None, "the Plackett–Luce paragraph states its error"
    # the report's own call (nbstats/reporting/template/core.py), outside it
    result = nbstats.bayes_plackett_luce(scores, random_state=0)
    error = result.mc_error
    assert 0 < error <= float(stated.group(1)) < 1.1 * error + 1e-12


def test_every_bayesian_pair_and_joint_probability_is_to_the_target():
    """The report's own pairs and joint statements (read from its executed
    notebook's namespace): every probability's Monte Carlo standard error is
    below the report's target, and Methods states the rule."""
    from nbstats.reporting import notebook
    from nbstats.reporting.imports import nbformat
    from nbstats.reporting.inprocess import run_cells
    from nbstats.stats.bayes.precision import MC_TARGET, PROBABILITIES

    table = nbstats.datasets.load("uci_accuracy")
    settings = notebook.make_settings(
        table, title=None, analyses=notebook.ANALYSES, higher_is_better=True,
        alpha=0.05, threshold=0.95, s=None, rope=0.01, loss=(1, 19), random_state=0,
    )  # fmt: skip
    assert settings.mc_error == MC_TARGET
    nb = notebook.build_notebook(table, settings, figure_formats=())
    nb.cells.append(
        nbformat().v4.new_code_cell(
            "import numpy as np\n"
            f"p = signrank.pairs[{list(PROBABILITIES)!r}].to_numpy(float)\n"
            "n = signrank.pairs['draws'].to_numpy(float)[:, None]\n"
            "pair_error = np.nanmax(np.sqrt(p * (1 - p) / n))\n"
            "q = joint.statements[['prob', 'joint']].to_numpy(float)\n"
            "joint_error = np.sqrt(q * (1 - q) / joint.n_samples).max()\n"
            "print(pair_error, joint_error, int(n.min()), int(n.max()))"
        )
    )
    done = run_cells(nb)
    printed = done.cells[-1].outputs[0]["text"].split()
    pair_error, joint_error = float(printed[0]), float(printed[1])
    assert 0 < pair_error < MC_TARGET
    assert joint_error < MC_TARGET
    # the first draws for every pair, more only where needed
    assert int(printed[2]) == settings.n_samples <= int(printed[3])
    text = "".join(
        out.get("data", {}).get("text/plain", "")
        for cell in done.cells
        for out in cell.get("outputs", [])
    )
    assert "until each probability's Monte Carlo standard error was below 0.002" in (
        re.sub(r"\s+", " ", text)
    )

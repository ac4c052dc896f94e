"""The report's pairs table and joint statements share their draws (issue 39,
item 3): a statement prints the probability its pair prints."""

from __future__ import annotations

import nbstats
import nbstats.reporting


def _run(table, **options):
    from nbstats.reporting import notebook
    from nbstats.reporting.imports import nbformat
    from nbstats.reporting.inprocess import run_cells

    settings = notebook.make_settings(
        table, title=None, analyses=notebook.ANALYSES, higher_is_better=True,
        alpha=0.05, threshold=0.95, s=None, rope=0.0, loss=(1, 19), random_state=0,
        **options,
    )  # fmt: skip
    nb = notebook.build_notebook(table, settings, figure_formats=())
    nb.cells.append(
        nbformat().v4.new_code_cell(
            "pairs = signrank.pairs.set_index(['a', 'b'])\n"
            "same = []\n"
            "for row in joint.statements.itertuples():\n"
            "    if (row.worse, row.better) in pairs.index:\n"
            "        pair = pairs.loc[(row.worse, row.better), 'prob_right_lower']\n"
            "    else:\n"
            "        pair = pairs.loc[(row.better, row.worse), 'prob_left_lower']\n"
            "    same.append(f'{row.prob:.3f}' == f'{pair:.3f}' and row.prob == pair)\n"
            "print(len(same), sum(same), signrank.joint is joint)"
        )
    )
    done = run_cells(nb)
    return done.cells[-1].outputs[0]["text"].split()


def test_a_statement_prints_its_pairs_probability_in_the_report():
    table = nbstats.datasets.load("uci_accuracy")
    n, same, shared = _run(table)
    assert int(n) == table.shape[1] * (table.shape[1] - 1) // 2
    assert same == n  # every statement: equal, to the printed decimals and exactly
    assert shared == "True"  # one computation, not two

"""Reports and ``analyze`` refuse sizes they cannot finish in the memory
ceiling, before they start (issue 34, finding 9).

At m = 1000 algorithms × n = 30 cases ``nbstats analyze`` was refused only
after 54 s and a 1.08 GB peak, from inside the report notebook (the joint
statements' own check); with ``--analyses frequentist,ranks`` it ran at 1.45
GB. The tables of every pair (499,500 of them) were the cost: Nemenyi's and
Holm's tables and their rendering, the ranks' Wilcoxon test per pair, the
Bayesian pairs and joint statements. :mod:`nbstats.stats.footprint`
estimates each analysis from m, n and the draws; the report and
:func:`nbstats.analyze` refuse when the chosen ones exceed the ceiling,
naming each analysis, its estimate, the ceiling and the fixes.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nbstats
import nbstats.reporting
from nbstats.stats.footprint import PAIR_BYTES, analysis_bytes, check_analyses_fit
from nbstats.util.memory import get_memory_ceiling, memory_ceiling
from tests.cli_helpers import run


def _table(m: int, n: int = 30, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        rng.normal(size=(n, m)) + np.linspace(0, 1, m),
        columns=[f"alg{j}" for j in range(m)],
        index=[f"case{i}" for i in range(n)],
    )


def _refused_quickly(call) -> str:
    """The message of the ValueError ``call`` raises, checked to come before
    any analysis: within a second and 64 MB of Python allocations."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(ValueError, match="refused before starting") as caught:
            call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - start < 5.0  # generous: a loaded machine
    assert peak < 64 * 2**20
    return str(caught.value)


@pytest.mark.parametrize(
    ("analyses", "named"),
    [
        (None, ["bayesian", "ranks", "frequentist"]),
        (("frequentist", "ranks"), ["ranks", "frequentist"]),
        (("frequentist",), ["frequentist"]),
    ],
)
def test_issue_reproducer_a_report_of_1000_algorithms_is_refused_up_front(
    analyses, named
):
    table = _table(1000)
    options = {} if analyses is None else {"analyses": analyses}
    message = _refused_quickly(lambda: nbstats.reporting.report_text(table, **options))
    assert "1,000 algorithms x 30 cases" in message
    for name in named:
        assert f"{name}: about" in message
    for other in {"bayesian", "ranks", "frequentist"} - set(named):
        assert f"{other}: about" not in message
    assert f"ceiling of {get_memory_ceiling() // 2**20:,} MB" in message
    assert "NBSTATS_MAX_MEMORY" in message and "--analyses" in message
    assert "fewer algorithms" in message


def test_report_refuses_and_writes_nothing(tmp_path):
    target = tmp_path / "big.html"
    _refused_quickly(lambda: nbstats.reporting.report(_table(1000), target))
    assert list(tmp_path.iterdir()) == []


def test_the_cli_refuses_before_running_a_notebook(tmp_path, capsys):
    path = tmp_path / "big.csv"
    _table(1000).to_csv(path)
    start = time.perf_counter()
    code, _, err = run(["analyze", path, "--analyses", "frequentist,ranks"], capsys)
    assert code != 0 and "refused before starting" in err
    assert "ranks: about" in err and "NBSTATS_MAX_MEMORY" in err
    assert time.perf_counter() - start < 30  # reading 30,000 cells, no kernel


def test_analyze_refuses_up_front_and_names_the_fix():
    message = _refused_quickly(lambda: nbstats.analyze(_table(1000), random_state=0))
    assert "analyze() of 1,000 algorithms" in message
    assert "bayes=False" in message and "Bayesian pairs: about" in message


def test_a_higher_ceiling_lets_the_same_size_through_the_check():
    """The refusal follows the ceiling of the context (not a fixed size)."""
    table = _table(1000)
    with memory_ceiling("4G"):  # the check passes: refused later for no size
        with pytest.raises(ValueError, match="unknown analyses"):
            nbstats.reporting.report_text(table, analyses=("nonsense",))
        nbstats.reporting.prepare.check_size(
            table, _Settings(("frequentist", "ranks"), 5000, 0.0)
        )


class _Settings:
    def __init__(self, analyses, n_samples, rope):
        self.analyses, self.n_samples, self.rope = analyses, n_samples, rope


def test_sizes_that_fit_still_run():
    table = _table(15, n=12)
    result = nbstats.analyze(table, random_state=0, n_samples=2000)
    assert result.n_algorithms == 15
    nbstats.reporting.prepare.check_size(
        table, _Settings(("frequentist", "bayesian", "ranks"), 50_000, 0.0)
    )


@settings(max_examples=60, deadline=None)
@given(
    m=st.integers(3, 3000),
    n=st.integers(3, 500),
    ceiling_mb=st.integers(16, 8192),
    chosen=st.sets(st.sampled_from(sorted(PAIR_BYTES)), min_size=1),
)
def test_refused_exactly_when_the_estimates_exceed_the_ceiling(
    m, n, ceiling_mb, chosen
):
    """Refused iff the chosen analyses' estimates add up to more than the
    ceiling; and each 'fits up to K algorithms' is the largest K that fits."""
    options = {"n_samples": 5000, "rope": 0.0}
    with memory_ceiling(f"{ceiling_mb}M"):
        ceiling = get_memory_ceiling()
        sizes = {a: analysis_bytes(a, m, n, **options) for a in chosen}
        if sum(sizes.values()) <= ceiling:
            check_analyses_fit(sizes, m, n, what="x", fixes="y", options=options)
            return
        with pytest.raises(ValueError, match="over the memory ceiling") as caught:
            check_analyses_fit(sizes, m, n, what="x", fixes="y", options=options)
        message = str(caught.value)
        for name in chosen:
            found = message.split(f"{name}: about ")[1]
            k = int(found.split("fits up to ")[1].split(" ")[0].replace(",", ""))
            assert k == 0 or analysis_bytes(name, k, n, **options) <= ceiling
            assert analysis_bytes(name, k + 1, n, **options) > ceiling


def test_estimates_bound_the_measured_frequentist_and_ranks_work():
    """The per-pair bytes are upper bounds of what the functions behind the
    analyses allocate (tracemalloc peak, 80 algorithms: 3160 pairs)."""
    table = _table(80)

    def frequentist():
        nbstats.friedman(table)
        nemenyi = nbstats.posthoc(table, method="nemenyi")
        holm = nbstats.posthoc(table, method="holm", control="alg79")
        return nemenyi._repr_html_(), holm._repr_html_(), nemenyi.to_latex()

    def ranks():
        res = nbstats.rank_ci(table, method="id-wilcoxon-2s")
        return res._repr_html_()

    for name, work in (("frequentist", frequentist), ("ranks", ranks)):
        work()  # warm: imports and caches are not the analysis's
        tracemalloc.start()
        try:
            work()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak <= analysis_bytes(name, 80, 30), (name, peak)

"""The Methods paragraph, its citations and the bibliography (no kernel needed)."""

from __future__ import annotations

import re
import subprocess

import pytest

import nbstats
from nbstats.reporting import methods
from nbstats.reporting.methods import Paragraph, cite
from nbstats.reporting.results import ReportResults
from tests.conftest import require_executable


def _results(
    table, *, s=None, threshold=0.95, rope=0.0, loss=(1, 19), n=50_000, seed=0
):
    """The results a report computes, in process, with the report's settings."""
    prior = {} if s is None else {"s": s}
    best = str(nbstats.mean_ranks(table).idxmin())
    order = list(nbstats.mean_ranks(table).sort_values(kind="stable").index)
    signrank = [
        nbstats.bayes_signrank(
            table[a],
            table[b],
            rope=rope,
            loss=loss,
            n_samples=n,
            random_state=seed,
            prior="idp",
            **prior,
        )
        for i, b in enumerate(order)
        for a in order[i + 1 :]
    ]
    return ReportResults(
        friedman=nbstats.friedman(table),
        nemenyi=nbstats.posthoc(table, method="nemenyi", alpha=0.1),
        holm=nbstats.posthoc(table, method="holm", control=best, alpha=0.1),
        bayes_friedman=nbstats.bayes_friedman(table, threshold=threshold, **prior),
        signrank=signrank,
        joint=nbstats.bayes_posthoc(
            table, threshold=threshold, n_samples=n, random_state=seed, **prior
        ),
        rank_ci=nbstats.rank_ci(table, alpha=0.1),
    )


@pytest.fixture(scope="module")
def defaults():
    table = nbstats.datasets.load("demsar2006")
    para = methods.methods_paragraph(
        _results(table),
        n_cases=14,
        n_algorithms=4,
        higher_is_better=True,
        seed=0,
        loss=(1, 19),
    )
    return para


def test_default_settings_are_stated(defaults):
    text = defaults.text()
    for expected in [
        "4 algorithms on 14 cases",
        "higher scores being better",
        "Friedman test",
        "without tie correction, 3 degrees of freedom",
        "Iman–Davenport",
        "3 and 39 degrees of freedom",
        "Nemenyi test",
        "α = 0.1",
        "CD = 1.12",  # Demšar: 1.12 at α = 0.10 (the number policy: rank)
        "best-ranked one, C4.5+m+cf",
        "Holm's step-down correction",
        "prior of strength s = 1 on",  # Bayesian Friedman default
        "ellipsoid",
        "near-ignorance (imprecise) Dirichlet-process prior of strength s = 0.5616",
        "(√17 − 3)/2",
        "rope = 0",
        "(l0, l1) = (1, 19)",
        "threshold of l1/(l0 + l1) = 0.95",  # a setting: as the body prints it
        "50,000 posterior draws (seed 0, a Monte Carlo standard error of at most",
        "Bayesian sign test with a prior of strength s = 1",
        "exceeds 0.95 ",
        "50,000 joint draws",
        "90% confidence intervals for the ranks",
        "two-sided Wilcoxon signed-rank tests",
        f"nbstats {nbstats.__version__}",
    ]:
        assert expected in text, expected


def test_custom_settings_are_stated():
    table = nbstats.datasets.load("demsar2006")
    para = methods.methods_paragraph(
        _results(table, s=2.5, threshold=0.9, rope=0.01, loss=(1, 9), n=2000, seed=7),
        n_cases=14,
        n_algorithms=4,
        higher_is_better=False,
        seed=7,
        loss=(1, 9),
    )
    text = para.text()
    for expected in [
        "lower scores being better",
        "prior of strength s = 2.5 on",
        "90% credible region",
        "strength s = 2.5, with a region of practical equivalence (rope) of ±0.01 "
        "in the scores' units",
        "(l0, l1) = (1, 9)",
        "l1/(l0 + l1) = 0.9",
        "2,000 posterior draws (seed 7, a Monte Carlo standard error of at most",
        "2,000 joint draws of the Dirichlet weights (seed 7)",
        "exceeds 0.9 ",
    ]:
        assert expected in text, expected
    assert "√17" not in text  # not the default s


def test_citations_are_numbered_alike_in_every_format(defaults):
    keys = defaults.keys
    assert keys[0] == "demsar2006"
    # a full report on one score per case cites every reference but the
    # correlated t-tests and the hierarchical test of per-fold data
    # (tests/reporting/test_report_folds.py, test_report_hierarchical.py)
    per_fold = {"nadeau2003", "corani2015", "corani2017"}
    # and the Plackett–Luce ranking's, whose result the fixture does not pass
    plackett_luce = {"calvo2018", "caron2012"}
    assert set(keys) == set(methods.REFERENCES) - per_fold - plackett_luce
    numbers = [int(n) for n in re.findall(r"\[(\d+)", defaults.text())]
    assert max(numbers) == len(keys)
    html = defaults.html()
    for i, key in enumerate(keys, start=1):
        assert f'<a href="#ref-{key}">{i}</a>' in html
    latex = defaults.latex()
    assert latex.count("\\cite{") == html.count("[<a href")
    bib = methods.references_latex(keys)
    assert [m for m in re.findall(r"\\bibitem\{(\w+)\}", bib)] == keys


def test_paragraph_escapes_names_per_format():
    hostile = "<img src=x onerror=alert(1)> a_b & 50% $x$"
    para = Paragraph().add(f"Against {hostile}", cite("holm1979"), ".")
    assert "<img" not in para.html()
    assert "&lt;img src=x onerror=alert(1)&gt; a_b &amp; 50% $x$" in para.html()
    assert r"a\_b \& 50\% \$x\$" in para.latex()
    assert para.text() == f"Against {hostile} [1]."
    with pytest.raises(KeyError, match="unknown reference"):
        cite("nobody2099")


def test_bibtex_entries_are_well_formed():
    bib = methods.bibtex()
    for key, ref in methods.REFERENCES.items():
        assert f"@{ref.kind}{{{key}," in bib
    assert bib.count("{") == bib.count("}")
    assert "Dem{\\v{s}}ar" in bib  # BibTeX-safe accent


def test_bibtex_runs_on_the_bib(tmp_path):
    bibtex = require_executable(
        "bibtex", "apt-get install texlive-binaries (with texlive-xetex)"
    )
    (tmp_path / "refs.bib").write_text(methods.bibtex(), encoding="utf-8")
    (tmp_path / "doc.aux").write_text(
        "\\relax\n\\citation{*}\n\\bibstyle{plain}\n\\bibdata{refs}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [bibtex, "doc"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8")
    assert bbl.count("\\bibitem") == len(methods.REFERENCES)


def test_normal_approximation_and_monte_carlo_error_are_stated():
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.normal(0.8, 0.02, 1500)
    b = a + rng.normal(0.001, 0.02, 1500)
    res = nbstats.bayes_signrank(a, b, prior="bb", random_state=0)
    assert res.method == "normal"  # above 1,000 cases, method="auto"
    para = methods.methods_paragraph(
        ReportResults(signrank=res),
        n_cases=1500,
        n_algorithms=2,
        higher_is_better=True,
        seed=0,
    )
    text = para.text()
    assert "normal approximation of the posterior (used above 1,000 cases" in text
    # the largest binomial standard error of the reported probabilities
    worst = max(
        np.sqrt(p * (1 - p) / res.n_samples) for p in (res.prob_left, res.prob_right)
    )
    stated = re.search(r"at most ([0-9.]+) on each probability", text)
    assert stated is not None
    # a bound, never understated: rounded up to two significant figures
    bound = float(stated.group(1))
    step = 10.0 ** (np.floor(np.log10(worst)) - 1)
    assert worst <= bound < worst + step

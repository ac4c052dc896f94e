"""The report's prior for the Bayesian signed-rank tests (report(prior=...),
nbstats report --prior): the numbers are those of bayes_signrank with it."""

from __future__ import annotations

import pytest

import nbstats
from nbstats.reporting import report_text
from nbstats.results.number_policy import format_number, format_relation


@pytest.fixture(scope="module")
def uci_two():
    return nbstats.datasets.load("uci_accuracy")[["nbc", "aode"]]


def test_point_prior_reaches_the_two_sample_tests(uci_two):
    text = report_text(uci_two, prior="point", s=0.5, rope=0.01, analyses=("bayesian",))
    direct = nbstats.bayes_signrank(
        uci_two["nbc"], uci_two["aode"], prior="point", s=0.5, rope=0.01,
        n_samples=62_501, random_state=0,  # the report's draws for one pair
    )  # fmt: skip
    assert "prior s = 0.5 at 0" in text
    assert f"{direct.prob_rope:.3f}" in text  # ≈ 0.125 (the tutorial's figure)
    assert "near-ignorance" not in text.split("Methods")[0]
    assert "a prior of strength s = 0.5 at a zero difference" in text


def test_bootstrap_prior_and_s_zero_give_the_same_signed_rank_test(uci_two):
    bb = report_text(uci_two, prior="bb", analyses=("bayesian",))
    zero = report_text(uci_two, s=0, analyses=("bayesian",))
    direct = nbstats.bayes_signrank(
        uci_two["nbc"], uci_two["aode"], prior="bb", n_samples=50_000, random_state=0
    )
    for text in (bb, zero):
        assert "signed-rank: Bayesian bootstrap, s → 0" in text
        # a probability by the number policy, as the table writes it
        shown = format_relation(direct.prob_right, "probability")
        assert f"P(aode better) {shown}" in text
        assert "near-ignorance" not in text  # no lower/upper, no indeterminacy
    # s = 0 reaches every Bayesian test, prior="bb" only the signed-rank one
    assert "sign: s = 0" in zero and "sign: s = 1" in bb


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"prior": "uniform"}, "unknown prior"),
        ({"prior": "bb", "s": 1.0}, "leave s unset"),
        ({"prior": "point", "s": 0}, "needs s > 0"),
    ],
)
def test_bad_priors(uci_two, options, message):
    with pytest.raises(ValueError, match=message):
        report_text(uci_two, **options)


def test_cli_prior(tmp_path, capsys):
    from nbstats.cli.commands import main

    csv = tmp_path / "uci.csv"
    nbstats.datasets.load("uci_accuracy")[["nbc", "aode"]].to_csv(csv)
    status = main(
        ["analyze", str(csv), "--prior", "point", "--s", "0.5", "--rope", "0.01",
         "--analyses", "bayesian"]
    )  # fmt: skip
    assert status == 0
    assert "prior s = 0.5 at 0" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        main(["analyze", str(csv), "--prior", "flat"])
    assert exit_info.value.code == 2


def test_idp_two_sample_table_gives_every_region_as_an_interval():
    # review P3: under the near-ignorance prior P(a better) and P(rope) are
    # intervals too, the bounds of bayes_signrank with the same prior
    table = nbstats.datasets.load("demsar2006")[["C4.5", "C4.5+m"]]
    text = report_text(table, rope=0.01, random_state=0, analyses=("bayesian",))
    direct = nbstats.bayes_signrank(
        table["C4.5"], table["C4.5+m"], prior="idp", rope=0.01,
        n_samples=62_501, random_state=0,
    )  # fmt: skip
    # the report's one pair takes the draws at which even p = 1/2 has a Monte
    # Carlo error below its target 0.002: floor(0.25 / 0.002**2) + 1
    row = next(
        line for line in text.splitlines() if line.startswith("Bayesian signed-rank ")
    )
    for region in ("left", "rope", "right"):
        low = format_number(getattr(direct, f"prob_{region}_lower"), "probability")
        high = format_number(getattr(direct, f"prob_{region}_upper"), "probability")
        assert f"{low} to {high}" in row, (region, row)

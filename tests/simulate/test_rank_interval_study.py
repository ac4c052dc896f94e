"""A reduced version of Foucart et al.'s FWTI study, and executor independence."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import distributed  # in the test extra, so this runs in CI
import pandas as pd
from study_helpers import analyser, evaluate, generate

from nbstats import simulate

METHODS = ["bootstrap", "id-nemenyi", "id-wilcoxon-2s", "id-wilcoxon-1s", "anova-tukey"]


def test_fwti_qualitative_findings_of_the_supplement():
    # f = 0 (no true difference): the supplement finds bootstrap far above alpha
    # and growing with m (33% / 96% at n = 20), the Iman-Davenport methods near
    # alpha (2-5%) and ANOVA-Tukey at 0%. 60 repetitions: a rate of 0.05 has a
    # Monte Carlo SE of 0.028 here.
    frame = simulate.study(
        generate,
        analyser(METHODS),
        evaluate,
        settings={"n_cases": 20, "n_algorithms": [5, 10], "separability": 0.0},
        repetitions=60,
        random_state=2025,
        progress=False,
    )
    fwti = frame.groupby("n_algorithms").mean(numeric_only=True)
    boot = fwti["bootstrap:fwti"]
    assert boot.loc[5] > 0.15
    assert boot.loc[10] > boot.loc[5]
    assert boot.loc[10] > 0.7
    for method in ["id-nemenyi", "id-wilcoxon-2s", "id-wilcoxon-1s"]:
        assert (fwti[f"{method}:fwti"] <= 0.05 + 3 * 0.028).all(), method
    assert (fwti["anova-tukey:fwti"] <= 0.05).all()


def test_power_grows_with_separability():
    frame = simulate.study(
        generate,
        analyser(["id-wilcoxon-2s"]),
        evaluate,
        settings={"n_cases": 20, "n_algorithms": 5, "separability": [0.25, 2.0]},
        repetitions=20,
        random_state=1,
        progress=False,
    )
    power = frame.groupby("separability")["id-wilcoxon-2s:fwp"].mean()
    assert power.loc[2.0] == 1.0
    assert power.loc[2.0] >= power.loc[0.25]


def _small_study(executor):
    return simulate.study(
        generate,
        analyser(["id-nemenyi", "bootstrap"]),
        evaluate,
        settings={"n_cases": [10, 15], "n_algorithms": 4, "separability": [0.0, 1.0]},
        repetitions=3,
        random_state=7,
        executor=executor,
        progress=False,
    )


def test_identical_with_a_process_pool():
    plain = _small_study(None)
    with ProcessPoolExecutor(2) as pool:
        pooled = _small_study(pool)
    pd.testing.assert_frame_equal(plain, pooled)


def test_identical_on_a_dask_local_cluster():
    plain = _small_study(None)
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            scheduler_port=0,
            dashboard_address=":0",  # any free port: never clash with 8787
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = _small_study(client.get_executor())
    pd.testing.assert_frame_equal(plain, on_dask)

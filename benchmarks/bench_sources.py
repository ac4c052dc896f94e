"""Reading score sources: how long ``nbstats.io``'s readers take.

Run: ``python benchmarks/bench_sources.py [--mlflow]``. Prints the median time of

- ``read_sklearn`` on generated ``cross_validate`` dicts: 100 data sets x 20
  estimators x 10 folds (20,000 rows), and the same with one failed fold (the
  incomplete-cell check then names it);
- ``read_automl_benchmark`` on the bundled real results (800 runs, 25 failed)
  and on a generated file of 100 tasks x 20 frameworks x 10 folds x 5 repeats
  (100,000 rows);
- with ``--mlflow``: ``read_mlflow`` on an sqlite store of 20 data sets x 5
  models x 10 folds (1,000 runs) written by MLflow's client (writing it is
  not timed).

Each reader's time is its own: the score table built after it is timed
apart (``score_table``).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import nbstats
from nbstats.io import read_automl_benchmark, read_mlflow, read_sklearn

HERE = Path(__file__).resolve().parents[1]
AMLB = HERE / "tests" / "data" / "automl" / "amlb_small_8c4h.csv"


def timed(function, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def sklearn_results(cases=100, algorithms=20, folds=10, seed=0):
    rng = np.random.default_rng(seed)
    return {
        (f"d{i}", f"a{j}"): {
            "test_score": rng.uniform(size=folds),
            "fit_time": rng.uniform(size=folds),
            "score_time": rng.uniform(size=folds),
        }
        for i in range(cases)
        for j in range(algorithms)
    }


def automl_frame(tasks=100, frameworks=20, folds=10, repeats=5, seed=0):
    rng = np.random.default_rng(seed)
    index = pd.MultiIndex.from_product(
        [[f"t{i}" for i in range(tasks)], [f"f{j}" for j in range(frameworks)],
         range(repeats), range(folds)],
        names=["task", "framework", "repeat", "fold"],
    )  # fmt: skip
    frame = index.to_frame(index=False)
    frame["acc"] = rng.uniform(size=len(frame))
    frame["result"] = frame["acc"]
    frame["info"] = None
    return frame


def main() -> None:
    results = sklearn_results()
    print(f"read_sklearn, 20,000 rows: {timed(lambda: read_sklearn(results)):.3f} s")
    long = read_sklearn(results)
    keywords = long.attrs["score_table"]
    seconds = timed(lambda: nbstats.score_table(long, **keywords))
    print(f"  score_table after it: {seconds:.3f} s")
    broken = dict(results)
    first = results[("d0", "a0")]
    broken[("d0", "a0")] = dict(
        first, test_score=np.r_[np.nan, first["test_score"][1:]]
    )
    print(f"read_sklearn, one failed fold: {timed(lambda: read_sklearn(broken)):.3f} s")
    seconds = timed(lambda: read_automl_benchmark(AMLB, score="acc"))
    print(f"read_automl_benchmark, bundled 800 runs: {seconds:.3f} s")
    frame = automl_frame()
    seconds = timed(lambda: read_automl_benchmark(frame, score="acc"), 3)
    print(f"read_automl_benchmark, 100,000 rows: {seconds:.3f} s")
    if "--mlflow" in sys.argv:
        from mlflow.tracking import MlflowClient

        folder = Path(tempfile.mkdtemp())
        uri = f"sqlite:///{folder / 'mlflow.db'}"
        client = MlflowClient(tracking_uri=uri)
        experiment = client.create_experiment("bench")
        rng = np.random.default_rng(0)
        for i in range(20):
            for j in range(5):
                for fold in range(10):
                    run = client.create_run(experiment, tags={"dataset": f"d{i}"})
                    client.log_param(run.info.run_id, "model", f"m{j}")
                    client.log_param(run.info.run_id, "fold", fold)
                    client.log_metric(run.info.run_id, "acc", float(rng.uniform()))
                    client.set_terminated(run.info.run_id)

        def read():
            return read_mlflow("bench", tracking_uri=uri, case="dataset",
                               algorithm="model", fold="fold", score="acc")  # fmt: skip

        print(f"read_mlflow, 1,000 runs (sqlite): {timed(read, 3):.3f} s")


if __name__ == "__main__":
    main()

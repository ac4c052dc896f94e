"""Rebuild ``nbstats/datasets/data/tsc_bakeoff2024_folds.csv.gz`` from its source.

Source
------
Middlehurst, M., Schäfer, P. & Bagnall, A. (2024). Bake off redux: a review and
experimental evaluation of recent time series classification algorithms. *Data
Mining and Knowledge Discovery* 38. doi:10.1007/s10618-024-01022-1.

The authors' results files, in the repository
https://github.com/time-series-machine-learning/tsml-eval (BSD-3-Clause), at
commit 6270c37ec55db6ecef7fbb28607e75bb760305ee (unchanged since, up to
b71665415853fae7a6a109a4245487608dbf88a0):

    tsml_eval/publications/y2023/tsc_bakeoff/results/best/HC2_accuracy.csv
    tsml_eval/publications/y2023/tsc_bakeoff/results/best/MR-Hydra_accuracy.csv

Each holds the test accuracy of one classifier on 142 data sets (112 UCR
archive problems and the 30 added in the paper, e.g. ``Tools``, ``Colposcopy``
and versions of UCR problems made equal-length (``_eq``), without missing
values (``_nmv``) or discretised (``_disc``)) for 30 train/test resamples
(``Resamples:`` 0..29).
HC2 is HIVE-COTE 2.0 and MR-Hydra is MultiROCKET-Hydra; the files use these
short codes and so does the bundled table. The accuracies are copied as the
files print them (no rounding); no cell is missing.

Usage
-----
    python tests/data/make_tsc_bakeoff2024_folds.py HC2_accuracy.csv MR-Hydra_accuracy.csv

The test suite imports the constants below: they were read by hand from the
source files (``SPOT_VALUES``) and from the paper's Table C4 as corrected in
the same repository (``results/table_c4.csv``, ``TABLE_C4_MEANS``).
"""

from __future__ import annotations

import csv
import gzip
import sys
from pathlib import Path

TARGET = (
    Path(__file__).resolve().parents[2]
    / "nbstats"
    / "datasets"
    / "data"
    / "tsc_bakeoff2024_folds.csv.gz"
)
CLASSIFIERS = ("HC2", "MR-Hydra")
N_DATASETS = 142
N_RESAMPLES = 30
N_MISSING = 0

# (dataset, classifier, resample) -> accuracy, as printed in the source files.
SPOT_VALUES = {
    ("ACSF1", "HC2", 0): 0.91,
    ("ACSF1", "HC2", 29): 0.86,
    ("ACSF1", "MR-Hydra", 0): 0.9,
    ("ACSF1", "MR-Hydra", 29): 0.76,
    ("Beef", "HC2", 1): 0.6333333333333333,
    ("Beef", "MR-Hydra", 0): 0.7666666666666667,
    ("Covid3Month_disc", "HC2", 0): 0.7377049180327869,
    ("Covid3Month_disc", "MR-Hydra", 2): 0.5409836065573771,
}

# Corrected Table C4 (mean accuracy over the 30 resamples), printed to 9 decimals.
TABLE_C4_MEANS = {
    ("Covid3Month_disc", "MR-Hydra"): 0.608743169,
    ("Covid3Month_disc", "HC2"): 0.655191257,
    ("ElectricDeviceDetection", "MR-Hydra"): 0.901769285,
    ("ElectricDeviceDetection", "HC2"): 0.891525124,
    ("Tools", "MR-Hydra"): 0.865174129,
    ("Tools", "HC2"): 0.884328358,
    ("SharePriceIncrease", "MR-Hydra"): 0.664768806,
    ("SharePriceIncrease", "HC2"): 0.686197378,
}


def read_source(path: Path) -> dict[str, list[str]]:
    """Map each data set to its 30 accuracies, as the text of the file."""
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    header = rows[0]
    if header[0] != "Resamples:" or header[1:] != [str(i) for i in range(30)]:
        raise ValueError(f"{path}: unexpected header {header[:3]}...")
    table = {row[0]: row[1:] for row in rows[1:] if row}
    if len(table) != N_DATASETS or any(len(v) != N_RESAMPLES for v in table.values()):
        raise ValueError(f"{path}: expected {N_DATASETS} rows of {N_RESAMPLES}.")
    return table


def build(sources: list[Path]) -> list[tuple[str, str, int, str]]:
    """Long rows ``(dataset, classifier, resample, accuracy)``."""
    tables = dict(zip(CLASSIFIERS, (read_source(p) for p in sources), strict=True))
    datasets = list(tables[CLASSIFIERS[0]])
    if set(datasets) != set(tables[CLASSIFIERS[1]]):
        raise ValueError("the two files list different data sets.")
    return [
        (dataset, classifier, resample, tables[classifier][dataset][resample])
        for dataset in datasets
        for classifier in CLASSIFIERS
        for resample in range(N_RESAMPLES)
    ]


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        raise SystemExit(__doc__)
    rows = build([Path(a) for a in argv])
    for (dataset, classifier, resample), value in SPOT_VALUES.items():
        index = [r[:3] for r in rows].index((dataset, classifier, resample))
        assert float(rows[index][3]) == value, (dataset, classifier, resample)
    # mtime=0: the same source gives the same bytes.
    with gzip.GzipFile(TARGET, "wb", mtime=0) as raw:
        text = "dataset,classifier,resample,accuracy\n" + "".join(
            f"{d},{c},{r},{a}\n" for d, c, r, a in rows
        )
        raw.write(text.encode())
    print(f"wrote {TARGET} ({len(rows)} rows)")


if __name__ == "__main__":
    main(sys.argv[1:])

"""The report loses no number at mixed magnitudes (issue 34, finding 12).

Mean run times of 0.41 s and 1.75 s printed as "0.000" under "mean score
(×10⁶)" beside an algorithm that takes 2.4e6 s: the best algorithm read as
zero and two different means looked equal. The report's Table 1 writes that
column by the number policy, which now gives such a column scientific
notation (tests/results/test_number_policy_faithful.py has the properties).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

import nbstats.reporting


def test_run_times_of_three_magnitudes_keep_their_means():
    rng = np.random.default_rng(3)
    n = 10
    times = pd.DataFrame(
        {
            "fast": 0.41 + rng.uniform(-0.01, 0.01, n),
            "medium": 1.75 + rng.uniform(-0.01, 0.01, n),
            "slow": 2.4e6 + rng.uniform(-1e3, 1e3, n),
        },
        index=[f"task{i}" for i in range(n)],
    )
    text = nbstats.reporting.report_text(
        times, higher_is_better=False, core_only=True, analyses=("frequentist",)
    )
    rows = {line.split()[0]: line for line in text.splitlines() if line.strip()}
    superscripts = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
    for name, mean in times.mean().items():
        mantissa, exponent = f"{mean:.3e}".split("e")
        power = str(int(exponent)).translate(superscripts)
        assert f"{mantissa} × 10{power}" in rows[name], (name, rows[name])
    assert "(×10⁶)" not in text
    assert not re.search(r"(?<![\d.])0\.000(?!\d)", text)

"""The warm process's warm-up (nbstats.cli.warm_server): a fork of it imports
nothing more for a report, HTML or LaTeX (what a PDF report does before
xelatex), than the warm-up already did."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from tests.conftest import require_executable
from tests.real_tables import TABZILLA

_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from nbstats.cli.commands import main
    from nbstats.cli.warm_server import warm_up

    warm_up()
    before = set(sys.modules)
    found = {}
    for name in ("r.html", "r.tex"):
        status = main([
            "report", sys.argv[1], "-o", name, "--nan-policy", "pairwise",
        ])
        found[name] = [status, sorted(set(sys.modules) - before)]
    print(json.dumps(found))
    """
)


def test_a_report_after_the_warm_up_imports_nothing_new(tmp_path):
    require_executable("pandoc", "apt-get install pandoc")
    # a larger real table with holes than the warm-up's own: 15 TabZilla
    # algorithms, the compact layout
    import pandas as pd

    table = pd.read_csv(TABZILLA, index_col=0).iloc[:80, :15]
    table.to_csv(tmp_path / "scores.csv")
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, "scores.csv"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={**os.environ, "NBSTATS_WARM": "0", "MPLBACKEND": "Agg"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {"r.html": [0, []], "r.tex": [0, []]}

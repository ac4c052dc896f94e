"""Fixtures and helpers of the command-line tests (tests/test_cli*.py)."""

from __future__ import annotations

import argparse
import inspect
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
import nbstats.reporting
from nbstats.cli.commands import build_parser, main

LONG = ["--case", "data", "--algorithm", "algo", "--score", "acc"]


@pytest.fixture
def wide_csv(tmp_path, table6):
    path = tmp_path / "scores.csv"
    table6.to_csv(path)
    return path


@pytest.fixture
def calls(monkeypatch):
    """Record the calls of report() and report_text() instead of running them."""
    recorded: list[tuple[str, pd.DataFrame, dict]] = []
    signature = inspect.signature(nbstats.reporting.report)

    def recorder(name):
        def fake(scores, *args, **kwargs):
            # report_text takes report's keywords except path and format
            path = args or ("report.html",)
            signature.bind(scores, *path, **kwargs)
            recorded.append((name, scores, kwargs))
            return Path(args[0]).absolute() if args else f"{name} text"

        return fake

    for name in ("report", "report_text"):
        monkeypatch.setattr(nbstats.reporting, name, recorder(name))
    return recorded


def run(argv, capsys):
    """``(status, stdout, stderr)`` of ``nbstats argv``; argparse exits count."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit:
        code = exit.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def folds_frame(seed=1, n_cases=8, runs=2, folds=3) -> pd.DataFrame:
    """Long scores, one row per (case, algorithm, run, fold)."""
    rng = np.random.default_rng(seed)
    rows = [
        (f"d{i}", algo, r, f, rng.uniform(0.5, 0.9) + 0.05 * j)
        for i in range(n_cases)
        for j, algo in enumerate(["A", "B", "C"])
        for r in range(runs)
        for f in range(folds)
    ]
    return pd.DataFrame(rows, columns=["data", "algo", "run", "fold", "acc"])


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(
        a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
    )
    return dict(action.choices)

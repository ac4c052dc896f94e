"""A report's tables carry LaTeX only when it becomes a LaTeX document: the
HTML report renders none (nothing reads it), the PDF/LaTeX report and the
notebook render the page's and the venue's, unchanged."""

from __future__ import annotations

import re

import pytest

import nbstats.reporting
from nbstats.reporting import _executed, _prepare
from nbstats.reporting.export import table_files
from tests.real_tables import TABZILLA

_TABLE = re.compile(r"\\begin\{(longtable|tabular|tabularx|tabulary)\}")


@pytest.fixture(scope="module")
def prepared():
    import pandas as pd

    table = pd.read_csv(TABZILLA, index_col=0)
    columns = ["CatBoost", "XGBoost", "LightGBM", "RandomForest", "SVM", "KNN"]
    options = {**nbstats.reporting._REPORT_DEFAULTS, "nan_policy": "pairwise"}
    return _prepare(table[columns].iloc[:30], **options)


def _tables(nb):
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            meta = output.get("metadata", {}).get("nbstats") or {}
            if meta.get("kind") == "table":
                yield output["data"], meta


def test_html_tables_carry_no_latex(prepared):
    nb = _executed(*prepared, nbstats.reporting.FIGURE_FORMATS["html"])
    found = list(_tables(nb))
    assert len(found) >= 5
    for data, meta in found:
        assert "text/latex" not in data and "text/html" in data
        assert not meta.get("files") and not meta.get("core_files")


@pytest.mark.parametrize("fmt", ["tex", "ipynb"])
def test_latex_documents_keep_every_tables_latex(prepared, fmt):
    nb = _executed(*prepared, nbstats.reporting.FIGURE_FORMATS[fmt])
    found = list(_tables(nb))
    assert len(found) >= 5
    for data, _meta in found:
        assert list(data) == ["text/html", "text/latex", "text/plain"]
        assert _TABLE.search(data["text/latex"]), data["text/latex"][:200]
    files = table_files(nb)
    assert files and all(_TABLE.search(text) for text in files.values())

r"""The report's paper files compile in every venue.

``report(..., venue=...)`` to ``.tex`` writes ``<stem>_tables/*.tex``
and ``<stem>_core/*.tex`` for the venue; one document of the venue
``\input``\ s them all and must compile with a clean log (as in
``test_venues_latex.py``: no error, no Overfull \hbox over 1 pt, no "Float
too large", no missing character, no ``longtable`` in two columns).

Reports: 7 algorithms with 40-character names, and the real TabZilla table
(42 algorithms, 171 data sets with 1,040 missing cells; ``nan_policy=
"omit"``) in all four venues; 2, 12 and 50 algorithms in IEEEtran.
"""

from __future__ import annotations

import warnings

import pytest

import nbstats.reporting
from nbstats.results.venues import VENUES
from tests.results.every_kind import score_table
from tests.venues.test_venues_latex import assert_clean, compile_tables, tabzilla

CASES = [(venue, "m7") for venue in VENUES] + [(venue, "tabzilla") for venue in VENUES]
CASES += [("ieee", "m2"), ("ieee", "m12"), ("ieee", "m50")]


def scores(name: str):
    if name == "tabzilla":
        return tabzilla(), {"nan_policy": "omit"}
    return score_table(int(name[1:])), {}


@pytest.mark.parametrize(("venue", "name"), CASES)
def test_report_files_compile_in_the_venue(tmp_path, venue, name):
    table, options = scores(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = nbstats.reporting.report(
            table, tmp_path / "r.tex", venue=venue, **options
        )
    files = sorted((tmp_path / "r_tables").glob("*.tex"))
    files += sorted((tmp_path / "r_core").glob("*.tex"))
    assert files and path.exists()
    tables = {f"{f.parent.name}-{f.stem}": f.read_text() for f in files}
    assert any(key.startswith("r_core-summary") for key in tables)
    if VENUES[venue].two_column:
        long = [key for key, latex in tables.items() if "longtable" in latex]
        assert not long, long
    folder = tmp_path / "paper"
    folder.mkdir()
    assert_clean(compile_tables(folder, venue, tables))


def test_an_unknown_venue_is_refused_before_any_work(tmp_path):
    with pytest.raises(ValueError, match="venue 'neurips' is not known"):
        nbstats.reporting.report(score_table(3), tmp_path / "r.tex", venue="neurips")
    assert not list(tmp_path.iterdir())

"""Every table a report exports as CSV, safe to open in a spreadsheet.

:func:`csv_text` writes a table's CSV; :func:`defuse_cell`, :func:`defuse_csv`,
:func:`defuse_files` and :func:`defuse_csv_outputs` keep a cell a spreadsheet
would read as a formula (OWASP, CSV injection) as text, leaving numbers as
they are.
"""

from __future__ import annotations

import base64
import copy
import csv
import io
import re
from typing import Any

import pandas as pd

__all__ = [
    "FORMULA_STARTS",
    "csv_text",
    "defuse_cell",
    "defuse_csv",
    "defuse_csv_outputs",
    "defuse_files",
]

#: What a spreadsheet reads as the start of a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A cell that is a number (``-0.5``, ``+1e-3``, ``-inf``) stays as it is.
_NUMBER = re.compile(
    r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)",
    re.IGNORECASE,
)


def defuse_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: one that starts with
    ``= + - @``, a tab or a carriage return, and is not a number, gets a
    leading ``'`` (OWASP's advice against CSV injection).

    Examples
    --------
    >>> defuse_cell("=cmd|' /C calc'!A0"), defuse_cell("-0.25"), defuse_cell("C4.5")
    ("'=cmd|' /C calc'!A0", '-0.25', 'C4.5')
    """
    if text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def defuse_csv(text: str) -> str:
    """CSV text (comma-separated, as :meth:`pandas.DataFrame.to_csv` writes
    it) with every cell passed through :func:`defuse_cell`; unchanged when
    no cell needs it (so defusing twice changes nothing).

    Examples
    --------
    >>> print(defuse_csv("a,b,r\\n@SUM(A1),+HYPERLINK(x),-0.5\\n"), end="")
    a,b,r
    '@SUM(A1),'+HYPERLINK(x),-0.5
    """
    rows = list(csv.reader(io.StringIO(text, newline="")))
    defused = [[defuse_cell(cell) for cell in row] for row in rows]
    if defused == rows:
        return text
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\n").writerows(defused)
    return out.getvalue()


def defuse_files(files: dict[str, bytes]) -> dict[str, bytes]:
    """``files`` (``{relative path: bytes}``, UTF-8 text for a CSV) with every
    ``.csv`` file passed through :func:`defuse_csv`: the one gate of every CSV
    file a report writes (:func:`nbstats.reporting.export.write_report`), whatever
    wrote its text.

    Examples
    --------
    >>> defuse_files({"r_core/summary.csv": b"algorithm\\n=1+1\\n", "r.bib": b"="})
    {'r_core/summary.csv': b"algorithm\\n'=1+1\\n", 'r.bib': b'='}
    """
    return {
        name: (
            defuse_csv(data.decode("utf-8")).encode("utf-8")
            if name.lower().endswith(".csv")
            else data
        )
        for name, data in files.items()
    }


def csv_text(frame: pd.DataFrame) -> str:
    """A table as the CSV text a report exports (a download link, a file in
    ``<report>_tables/``): names that a spreadsheet would run as formulas are
    defused (:func:`defuse_cell`), numbers are written as they are.

    Examples
    --------
    >>> frame = pd.DataFrame({"a": ["=1+1", "B"], "d": [-0.5, 2.0]})
    >>> print(csv_text(frame), end="")
    ,a,d
    0,'=1+1,-0.5
    1,B,2.0
    """
    return defuse_csv(frame.to_csv(lineterminator="\n"))


def defuse_csv_outputs(nb: Any) -> Any:
    """``nb`` (a copy if anything changes) whose CSV files and download links
    hold no cell a spreadsheet would run as a formula
    (:func:`nbstats.reporting.data.defuse_csv`): every export goes through here,
    whatever wrote the CSV text in the kernel. The CSV outputs (download links,
    ``<report>_tables/``) and the core's CSV files (``<report>_core/``, in a
    table's ``core_files``) are both covered."""

    def encoded(text: str) -> str:
        return base64.b64encode(text.encode("utf-8")).decode("ascii")

    def core_csv(meta: dict[str, Any]) -> dict[str, str]:
        files = meta.get("core_files", {})
        return {k: v for k, v in files.items() if k.lower().endswith(".csv")}

    metas = [
        output.get("metadata", {}).get("nbstats") or {}
        for cell in nb.cells
        for output in cell.get("outputs", [])
    ]
    texts = [m["csv"] for m in metas if m.get("kind") == "csv"]
    texts += [text for m in metas for text in core_csv(m).values()]
    if all(defuse_csv(text) == text for text in texts):
        return nb
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            meta = output.get("metadata", {}).get("nbstats")
            if not meta:
                continue
            for name, text in core_csv(meta).items():
                meta["core_files"][name] = defuse_csv(text)
            if meta.get("kind") != "csv":
                continue
            safe = defuse_csv(meta["csv"])
            data = output.get("data", {})
            if "text/html" in data:  # the data: URI of the download link
                data["text/html"] = data["text/html"].replace(
                    f"base64,{encoded(meta['csv'])}", f"base64,{encoded(safe)}"
                )
            meta["csv"] = safe
    return nb

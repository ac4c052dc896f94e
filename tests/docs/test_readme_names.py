"""The README's table of functions names what ``nbstats`` has.

A row ``| `report(scores, ...)` |`` read as ``nbstats.report(...)`` raised
"'module' object is not callable": every call the table shows must be a
callable of the package (and a module row, such as ``nbstats.simulate``,
a module).
"""

from __future__ import annotations

import importlib
import re
import types
from pathlib import Path

import nbstats

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_call_in_the_readme_table_is_a_callable_of_nbstats():
    rows = re.findall(r"^\| `([A-Za-z_][\w.]*)(\(?)", README.read_text(), flags=re.M)
    calls = [(name, bool(paren)) for name, paren in rows]
    assert len(calls) > 20
    for name, called in calls:
        if name == "nbstats":  # a command line row (`nbstats report ...`)
            continue
        target, path = nbstats, "nbstats"
        for part in name.removeprefix("nbstats.").split("."):
            path += f".{part}"
            # a subpackage the package does not import itself (nbstats.io)
            target = getattr(target, part, None) or importlib.import_module(path)
        if called:
            assert callable(target) and not isinstance(target, types.ModuleType), name

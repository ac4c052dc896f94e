"""Every public name of nbstats has a place in the API reference."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import nbstats
import nbstats.plots
import nbstats.results
import nbstats.simulate

API = Path(__file__).parents[2] / "docs" / "api" / "index.md"

#: Public names documented through another name (a module, or its function).
THROUGH = {
    "nbstats.datasets": "nbstats.datasets.load",
    "nbstats.simulate": "nbstats.simulate.study",
}
#: Plain values, named in the page's text rather than given a page.
VALUES = {"nbstats.plots.PALETTE", "nbstats.plots.WIDTHS"}


def _documented() -> set[str]:
    text = API.read_text(encoding="utf-8")
    listed = set(re.findall(r"^\s{3}(nbstats\.[\w.]+)\s*$", text, flags=re.M))
    listed |= set(re.findall(r"autoclass:: (nbstats\.[\w.]+)", text))
    return listed


def _public() -> set[str]:
    names = {f"nbstats.{n}" for n in nbstats.__all__}
    names |= {f"nbstats.plots.{n}" for n in nbstats.plots.__all__}
    names |= {f"nbstats.simulate.{n}" for n in nbstats.simulate.__all__}
    names |= {f"nbstats.results.{n}" for n in nbstats.results.__all__}
    return names


def test_every_public_name_has_a_page():
    documented = _documented()
    missing = {
        name for name in _public() - VALUES if THROUGH.get(name, name) not in documented
    }
    assert not missing, f"add to docs/api/index.md: {sorted(missing)}"
    text = API.read_text(encoding="utf-8")
    for value in VALUES:
        assert value in text


def test_every_documented_name_exists():
    for dotted in _documented():
        module, _, attribute = dotted.rpartition(".")
        owner = __import__(module, fromlist=[attribute])
        assert hasattr(owner, attribute), dotted


def test_the_accessor_is_documented_with_its_members():
    assert "nbstats.accessor.CompareAccessor" in _documented()
    assert ":members:" in API.read_text(encoding="utf-8")
    methods = [
        name
        for name, _ in inspect.getmembers(nbstats.accessor.CompareAccessor)
        if not name.startswith("_")
    ]
    assert "friedman" in methods

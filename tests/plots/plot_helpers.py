"""Helpers of the plot tests: find artists by gid; names that break mathtext."""

from __future__ import annotations

#: Names with characters mathtext and LaTeX would eat: they must show as written.
NASTY = ("a_b & $x$", "50% Ωmega")


def by_gid(ax, gid, kind=None):
    found = [a for a in ax.get_children() if a.get_gid() == gid]
    if kind is not None:
        found = [a for a in found if isinstance(a, kind)]
    assert len(found) == 1, (gid, found)
    return found[0]


def gids(ax) -> set[str]:
    return {a.get_gid() for a in ax.get_children() if a.get_gid()}


def has_region_samples(result) -> bool:
    return getattr(result, "region_samples", None) is not None

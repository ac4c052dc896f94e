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


def _fit(pairs):
    """(value, position) pairs → (offset, scale) of position = offset + scale·value."""
    import numpy as np

    values, positions = np.array(pairs, dtype=float).T
    scale, offset = np.polyfit(values, positions, 1)
    assert np.allclose(offset + scale * values, positions, atol=0.01), pairs
    return offset, scale


def _number(text: str) -> float:
    return float(text.replace("\u2212", "-"))


def picture_axes(ax):
    """A picture's data axes read from what it draws: each tick mark's
    position paired with its label's number. Returns functions mapping
    points (x right, y down) back to data x and y."""
    lines = {a.get_gid(): a for a in ax.lines if a.get_gid()}
    texts = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
    fits = []
    for axis, coord in (("x", 0), ("y", 1)):
        pairs = []
        k = 0
        while f"{axis}tick-{k}" in lines:
            mark = lines[f"{axis}tick-{k}"].get_xydata()[0][coord]
            pairs.append((_number(texts[f"{axis}tick-label-{k}"]), mark))
            k += 1
        fits.append(_fit(pairs) if len(pairs) >= 2 else None)
    (x0, xs), y_fit = fits[0], fits[1]

    def to_x(p):
        import numpy as np

        return (np.asarray(p, dtype=float) - x0) / xs

    def to_y(p):
        import numpy as np

        y0, ys = y_fit
        return (np.asarray(p, dtype=float) - y0) / ys

    return to_x, to_y


def text_of(ax, gid: str) -> str:
    """The text (lines joined by spaces) of the picture text ``gid``."""
    (text,) = [t for t in ax.texts if t.get_gid() == gid]
    return " ".join(text.get_text().split("\n"))

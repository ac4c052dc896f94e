"""Checks that a drawn figure is readable: no overlapping texts, nothing cut off,
no font below 6 pt. Measured with the renderer, in display pixels."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from matplotlib.text import Text

#: Smallest font a printed figure may use (points).
MIN_FONT = 8.0
#: Pixels two texts may share, or a text may stick out of the figure (rounding).
TOLERANCE = 0.75


@dataclass
class Shown:
    """A text as drawn: its artist, where it came from, its corners (pixels)."""

    text: Text
    role: str
    corners: np.ndarray  # 4 × 2, display pixels (a rotated rectangle)

    @property
    def label(self) -> str:
        return f"{self.role} {self.text.get_text()!r}"


def _corners(text: Text, renderer) -> np.ndarray:
    """The rotated rectangle of ``text`` (its bbox is the rectangle's hull)."""
    box = text.get_window_extent(renderer)
    angle = text.get_rotation() % 180
    if min(angle, 180 - angle) < 1e-6 or abs(angle - 90) < 1e-6:
        return np.array(
            [[box.x0, box.y0], [box.x1, box.y0], [box.x1, box.y1], [box.x0, box.y1]]
        )
    rotation = text.get_rotation()
    text.set_rotation(0)
    flat = text.get_window_extent(renderer)
    text.set_rotation(rotation)
    w, h = flat.width, flat.height
    theta = math.radians(rotation)
    ux = np.array([math.cos(theta), math.sin(theta)])
    uy = np.array([-math.sin(theta), math.cos(theta)])
    centre = np.array([(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2])
    return np.array(
        [
            centre + sx * w / 2 * ux + sy * h / 2 * uy
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
    )


def _separated(a: np.ndarray, b: np.ndarray, tolerance: float) -> bool:
    """Separating-axis test of two convex quadrilaterals, with a tolerance."""
    for poly in (a, b):
        for i in range(4):
            edge = poly[(i + 1) % 4] - poly[i]
            normal = np.array([-edge[1], edge[0]])
            norm = np.hypot(*normal)
            if norm == 0:
                continue
            normal /= norm
            pa, pb = a @ normal, b @ normal
            if pa.max() <= pb.min() + tolerance or pb.max() <= pa.min() + tolerance:
                return True
    return False


def shown_texts(fig) -> list[Shown]:
    """Every non-empty text the figure draws (tick labels only of drawn ticks)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found: list[tuple[Text, str]] = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if not ax.axison or not axis.get_visible():  # set_axis_off: not drawn
                continue
            for tick in axis._update_ticks():
                for label in (tick.label1, tick.label2):
                    found.append((label, f"{name}tick"))
            found.append((axis.label, f"{name}label"))
            found.append((axis.get_offset_text(), f"{name}offset"))
        for title in (ax.title, ax._left_title, ax._right_title):
            found.append((title, "title"))
        found.extend((text, f"text:{text.get_gid()}") for text in ax.texts)
        legend = ax.get_legend()
        if legend is not None and legend.get_visible():
            found.extend(
                (t, "legend") for t in [*legend.get_texts(), legend.get_title()]
            )
    for legend in fig.legends:
        if legend.get_visible():
            found.extend(
                (t, "legend") for t in [*legend.get_texts(), legend.get_title()]
            )
    found.extend((text, "figtext") for text in fig.texts)
    if fig._suptitle is not None:
        found.append((fig._suptitle, "suptitle"))
    out = []
    for text, role in found:
        if not text.get_visible() or not text.get_text().strip():
            continue
        out.append(Shown(text, role, _corners(text, renderer)))
    return out


def problems(fig, *, allow_overlap=()) -> list[str]:
    """What makes the figure hard to read; empty when it is fine."""
    issues = []
    width, height = fig.bbox.width, fig.bbox.height
    texts = shown_texts(fig)
    for item in texts:
        size = item.text.get_fontsize()
        if size < MIN_FONT - 1e-9:
            issues.append(f"{item.label}: font {size:.2f} pt < {MIN_FONT}")
        x, y = item.corners[:, 0], item.corners[:, 1]
        if (
            x.min() < -TOLERANCE
            or y.min() < -TOLERANCE
            or x.max() > width + TOLERANCE
            or y.max() > height + TOLERANCE
        ):
            issues.append(
                f"{item.label}: outside the figure (x {x.min():.1f}..{x.max():.1f} "
                f"of {width:.0f}, y {y.min():.1f}..{y.max():.1f} of {height:.0f})"
            )
    for a, b in itertools.combinations(texts, 2):
        if {a.role, b.role} <= set(allow_overlap):
            continue
        if not _separated(a.corners, b.corners, TOLERANCE):
            issues.append(f"overlap: {a.label} and {b.label}")
    return issues


def assert_readable(fig, **kwargs) -> None:
    issues = problems(fig, **kwargs)
    shown = "\n".join(issues[:25])
    assert not issues, f"{len(issues)} readability problems:\n{shown}"

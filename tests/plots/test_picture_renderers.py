"""The figure model's two generic renderers draw the same picture in the same place.

Oracles: the SVG parsed back with ``xml.etree`` (positions, escaping), the
matplotlib figure rendered by Agg and read pixel by pixel (a box's colour is
where the model put it), and matplotlib's own text extents for the texts.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import matplotlib.pyplot as plt
import numpy as np
import pytest

from nbstats.plots.figure_model import Area, Dot, Picture, Rect, Stroke, Text
from nbstats.plots.picture_mpl import draw_picture
from nbstats.plots.picture_svg import picture_svg

SVG = "{http://www.w3.org/2000/svg}"


def _picture() -> Picture:
    return Picture(
        200.0,
        100.0,
        (
            Rect(10, 10, 40, 30, "cell-0", fill="#0072B2", tooltip="a <&> b"),
            Area(((60, 90), (100, 50), (140, 90)), "shade", fill="#D55E00"),
            Stroke(((10, 60), (50, 60)), 2.0, "line", dash=(4.0, 2.0)),
            Dot(170, 30, 10.0, "dot", color="#009E73"),
            Text(150, 80, ("HistGradientBoosting", "(lr=0.05)"), 8.0, "label"),
            Text(5, 95, ("up",), 8.0, "ylabel", rotation=90.0),
        ),
        "a test picture",
    )


def test_svg_holds_every_item_at_its_place():
    root = ET.fromstring(picture_svg(_picture()))
    assert root.find(f"{SVG}title").text == "a test picture"
    rect = root.find(f"{SVG}rect[@data-role='cell-0']")
    assert [float(rect.get(k)) for k in ("x", "y", "width", "height")] == [
        10,
        10,
        40,
        30,
    ]
    assert rect.find(f"{SVG}title").text == "a <&> b"
    polygon = root.find(f"{SVG}polygon[@data-role='shade']")
    assert polygon.get("points") == "60.00,90.00 100.00,50.00 140.00,90.00"
    line = root.find(f"{SVG}polyline[@data-role='line']")
    assert line.get("stroke-dasharray") == "4,2"
    circle = root.find(f"{SVG}circle[@data-role='dot']")
    assert (float(circle.get("cx")), float(circle.get("r"))) == (170.0, 5.0)
    label = root.find(f"{SVG}text[@data-role='label']")
    assert [t.text for t in label.findall(f"{SVG}tspan")] == [
        "HistGradientBoosting",
        "(lr=0.05)",
    ]
    ylabel = root.find(f"{SVG}text[@data-role='ylabel']")
    assert ylabel.get("transform") == "rotate(-90 5.00 95.00)"


def test_svg_leaves_out_invisible_strokes_and_refuses_unknown_items():
    hidden = Stroke(((0, 0), (1, 1)), 1.0, "hidden", visible=False)
    assert "hidden" not in picture_svg(Picture(10, 10, (hidden,)))
    with pytest.raises(TypeError, match="cannot hold str items"):
        picture_svg(Picture(10, 10, ("text",)))  # type: ignore[arg-type]


def _pixels(ax) -> np.ndarray:
    fig = ax.figure
    fig.set_dpi(72)
    fig.canvas.draw()
    image = np.asarray(fig.canvas.buffer_rgba())[..., :3]
    plt.close(fig)
    return image


def test_matplotlib_draws_boxes_and_areas_where_the_model_puts_them():
    ax = draw_picture(_picture())
    assert tuple(ax.figure.get_size_inches()) == pytest.approx((200 / 72, 100 / 72))
    image = _pixels(ax)  # one pixel per point, y down as in the model
    assert tuple(image[25, 30]) == (0x00, 0x72, 0xB2)  # inside the cell
    assert tuple(image[5, 30]) == (255, 255, 255)  # above it
    assert tuple(image[85, 100]) == (0xD5, 0x5E, 0x00)  # inside the triangle
    assert tuple(image[55, 70]) == (255, 255, 255)  # beside its slope
    assert tuple(image[30, 170]) == (0x00, 0x9E, 0x73)  # the dot's centre


def test_matplotlib_tags_every_artist_and_keeps_dashes_in_points():
    ax = draw_picture(_picture())
    gids = [a.get_gid() for a in ax.get_children() if a.get_gid()]
    # a text's lines are set one by one (LEADING apart, as in the SVG)
    assert gids == ["cell-0", "shade", "line", "dot", "label", "label", "ylabel"]
    (line,) = [a for a in ax.get_lines() if a.get_gid() == "line"]
    _offset, pattern = line._dash_pattern  # the scaled pattern, in points
    assert list(pattern) == pytest.approx([4.0, 2.0])
    plt.close(ax.figure)


def test_matplotlib_text_is_anchored_as_the_svg_text():
    """An ``end``-anchored text ends at x; a rotated one reads upwards."""
    ax = draw_picture(_picture())
    fig = ax.figure
    fig.set_dpi(72)
    renderer = fig.canvas.get_renderer()
    texts = {t.get_gid(): t for t in ax.texts}
    label = texts["label"]
    label.set_horizontalalignment("right")
    box = label.get_window_extent(renderer)
    assert box.x1 == pytest.approx(150, abs=0.5)  # 1 px per pt
    ylabel = texts["ylabel"].get_window_extent(renderer)
    assert ylabel.height > ylabel.width  # set upright
    plt.close(fig)


def test_svg_escapes_roles_and_data_from_user_names():
    """A gid made of an algorithm's name cannot break out of its attribute."""
    name = 'a" onload="x&y'
    pic = Picture(20, 10, (Rect(0, 0, 5, 5, f"cell-{name}"),))
    svg = picture_svg(pic, data=lambda gid: {"name": name})
    rect = ET.fromstring(svg).find(f"{SVG}rect[@data-name]")
    assert rect.get("data-role") == f"cell-{name}"
    assert rect.get("data-name") == name
    assert rect.get("onload") is None


@pytest.mark.parametrize("size", [(200, 100), (100, 50)])
def test_matplotlib_sets_a_texts_lines_leading_apart_in_points(size):
    """On axes of any size (a caller's), lines are 1.2 font sizes apart."""
    fig = plt.figure(figsize=(size[0] / 72, size[1] / 72), dpi=72)
    ax = draw_picture(_picture(), ax=fig.add_axes((0, 0, 1, 1)))
    first, second = (t for t in ax.texts if t.get_gid() == "label")
    renderer = fig.canvas.get_renderer()
    x0, y0 = first.get_transform().transform(first.get_position())
    x1, y1 = second.get_transform().transform(second.get_position())
    assert (x1 - x0, y0 - y1) == pytest.approx((0.0, 1.2 * 8.0))
    assert first.get_window_extent(renderer).y0 > second.get_window_extent(renderer).y1
    plt.close(fig)

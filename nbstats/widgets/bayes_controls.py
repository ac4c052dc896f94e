"""The Bayesian dashboard's controls (:class:`nbstats.widgets.bayes.BayesDashboard`).

Their ranges and steps are chosen for what they control: s on a log scale
around the IDP default, the loss ratio on a grid through 19 (threshold 0.95),
the rope up to the largest difference in the table, recomputed only when the
slider is released (a new rope passes over every case again).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from nbstats.stats.bayes.priors import IDP_DEFAULT_S
from nbstats.widgets.base import name_dropdown

__all__ = ["PRIORS", "build_controls", "s_and_loss_widgets"]

#: The prior dropdown's (label, value) pairs.
PRIORS = (
    ("IDP (near-ignorance)", "idp"),
    ("Bayesian bootstrap (s → 0)", "bb"),
    ("pseudo-observation at 0", "point"),
)


def build_controls(
    names: Sequence[str], aliases: Mapping[str, str], rope_max: float
) -> dict[str, Any]:
    """The controls by name: ``s``, ``prior``, ``loss_ratio``, ``threshold``,
    ``rope`` (0 to ``rope_max``), ``epsilon``, and the pair ``a``, ``b``.

    Examples
    --------
    >>> controls = build_controls(["x", "y"], {"x": "x", "y": "y"}, 0.5)
    >>> sorted(controls)
    ['a', 'b', 'epsilon', 'loss_ratio', 'prior', 'rope', 's', 'threshold']
    >>> controls["rope"].max, controls["rope"].continuous_update
    (0.5, False)
    """
    import ipywidgets as widgets  # lazy: only dashboards need ipywidgets

    wide = {"description_width": "initial"}
    names = list(names)
    return {
        "s": widgets.FloatLogSlider(
            value=IDP_DEFAULT_S,
            base=10,
            min=-2,
            max=2,
            step=0.01,
            readout_format=".3g",
            description=f"s (IDP ◆ {IDP_DEFAULT_S:.3f})",
            style=wide,
        ),
        "prior": widgets.Dropdown(options=PRIORS, value="idp", description="prior"),
        "loss_ratio": widgets.FloatLogSlider(
            value=19.0,
            base=10,
            min=0,
            max=math.log10(999),
            # 19 (threshold 0.95) on the slider's grid, which the page
            # snaps to: a step of 0.01 made it 19.05 (threshold 0.9501)
            step=math.log10(19) / 128,
            readout_format=".3g",
            description="loss ratio l1/l0",
            style=wide,
        ),
        "threshold": widgets.FloatSlider(
            value=0.95,
            min=0.5,
            max=0.999,
            step=0.001,
            readout_format=".3f",
            description="Friedman threshold",
            style=wide,
        ),
        "rope": widgets.FloatSlider(
            value=0.0,
            min=0.0,
            max=rope_max,
            step=rope_max / 200,
            readout_format=".3g",
            continuous_update=False,
            description="rope ±",
        ),
        "epsilon": widgets.FloatSlider(
            value=0.05,
            min=0.005,
            max=0.25,
            step=0.005,
            readout_format=".3f",
            description="ε",
        ),
        "a": name_dropdown(names, aliases, description="pair: a", value=names[0]),
        "b": name_dropdown(names, aliases, description="vs b", value=names[1]),
    }


def s_and_loss_widgets(s_control: Any) -> tuple[Any, Any, Any]:
    """The s label, the loss label and the "◆ IDP default" button that sets
    ``s_control`` back to (√17 − 3)/2 (Benavoli et al. 2014, §3.1)."""
    import ipywidgets as widgets

    s_label = widgets.HTML()
    loss_label = widgets.HTML(layout=widgets.Layout(flex="1 1 20em"))
    default = widgets.Button(
        description="◆ IDP default", tooltip="s = (√17 − 3)/2 (2014, §3.1)"
    )
    default.on_click(lambda _: setattr(s_control, "value", IDP_DEFAULT_S))
    return s_label, loss_label, default

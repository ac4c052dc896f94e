"""Live dashboards (ipywidgets), built by :func:`nbstats.dashboard`.

Every dashboard draws its pictures as SVG (:mod:`nbstats.widgets.svg` says
why). The dashboard classes import ipywidgets (and :mod:`nbstats.plots` for
the paper style's colours) when they are built, not when this package is
imported.
"""

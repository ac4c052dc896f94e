"""Live dashboards (ipywidgets), built by :func:`nbstats.dashboard`.

The dashboard classes import ipywidgets and matplotlib when they are built,
not when this package is imported.
"""

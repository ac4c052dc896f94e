"""Sphinx configuration of the nbstats documentation.

Build: ``pip install -e ".[docs]"`` then
``sphinx-build -W --keep-going docs docs/_build/html`` (what CI runs).

Offline by design: the pages load nothing from the network when read (math
is rendered to SVG at build time by imgmath, not by MathJax from a CDN), and
the build fetches nothing either, so there is no intersphinx (its inventories
come from the projects' web sites, which CI cannot reach); links to pandas,
SciPy and matplotlib are plain URLs where a page needs one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbstats

HERE = Path(__file__).parent
ROOT = HERE.parent

project = "nbstats"
author = "the nbstats developers"
copyright = "2026, the nbstats developers"
release = version = nbstats.__version__

extensions = [
    "myst_nb",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.imgmath",
    "sphinx_copybutton",
    "sphinxarg.ext",
]

exclude_patterns = ["_build", "screenshots", "**/.ipynb_checkpoints", "input-rules.md"]
templates_path = ["_templates"]

# -- API reference ----------------------------------------------------------------
autosummary_generate = True
autodoc_typehints = "none"  # numpydoc writes the types from the docstrings
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# -- notebooks and executable pages -------------------------------------------------
# The tutorial notebooks are stored executed (tests/notebooks runs them): they are
# shown as they are. Pages written as MyST markdown with {code-cell} blocks run at
# every build, so the numbers they print are always today's.
nb_execution_mode = "force"
nb_execution_excludepatterns = ["notebooks/*"]
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_merge_streams = True
myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 3
suppress_warnings = ["mystnb.unknown_mime_type"]

# -- math without a CDN ----------------------------------------------------------
imgmath_image_format = "svg"
imgmath_font_size = 14

# -- HTML ---------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"nbstats {version}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
}
# no left sidebar (the top bar and "On this page" navigate): wide tables and
# code get its width
html_sidebars: dict[str, list[str]] = {"**": []}
html_static_path: list[str] = []


def _copy_notebooks(app: object) -> None:
    """The tutorial notebooks live in ``notebooks/`` at the top of the repository;
    Sphinx reads only its source folder, so they are copied in at each build."""
    target = HERE / "notebooks"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir()
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        shutil.copy2(notebook, target / notebook.name)


def setup(app: object) -> None:
    app.connect("builder-inited", _copy_notebooks)  # type: ignore[attr-defined]

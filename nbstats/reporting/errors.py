"""The report's errors, and the packages its PDF and LaTeX formats need."""

from __future__ import annotations

__all__ = ["TEX_PACKAGES", "MissingToolError", "ReportError"]

#: The Debian packages behind the PDF and LaTeX formats.
TEX_PACKAGES = "texlive-xetex texlive-fonts-recommended texlive-plain-generic pandoc"


class ReportError(RuntimeError):
    """The report notebook failed to execute or to typeset."""


class MissingToolError(OSError, RuntimeError):
    """A program the report format needs (xelatex, pandoc) is not installed.

    Both an ``OSError`` (what nbconvert raises for a missing LaTeX) and a
    ``RuntimeError``. Its message suggests ``format="html"`` and the Debian
    packages of :data:`TEX_PACKAGES`.
    """

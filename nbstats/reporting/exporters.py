"""nbconvert exporters for paper-style documents: HTML, LaTeX and PDF.

Registered as the ``nbconvert.exporters`` entry points ``nbstats_html``,
``nbstats_latex`` and ``nbstats_pdf``, so any notebook can be exported with
``jupyter nbconvert --to nbstats_html notebook.ipynb``. They use the templates
``nbstats-paper`` (extends ``lab``) and ``nbstats-paper-latex`` (extends
``latex``), found in the source checkout's ``report_templates/`` when it is
there, else where the wheel installs them
(``<prefix>/share/jupyter/nbconvert/templates``).

All three honour the cell tags of Jupyter Book and friends: ``remove-cell``
drops a cell, ``remove-input`` its code, ``remove-output`` its outputs; prompts
are never shown. The HTML is self-contained: no script is loaded from the
network (the template drops require.js, MathJax, Mermaid and the widget
manager, and :func:`strip_remote` removes any external script or stylesheet a
notebook's own outputs would load).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from nbconvert.exporters import (
    HTMLExporter,
    LatexExporter,
    PDFExporter,
    TemplateExporter,
)
from nbconvert.exporters.pdf import LatexFailed
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter
from traitlets import default
from traitlets.config import Config

from nbstats.reporting.html_access import accessible

__all__ = [
    "HTML_TEMPLATE",
    "LATEX_TEMPLATE",
    "NbstatsHTMLExporter",
    "NbstatsLatexExporter",
    "NbstatsPDFExporter",
    "strip_remote",
    "template_basedirs",
]

HTML_TEMPLATE = "nbstats-paper"
LATEX_TEMPLATE = "nbstats-paper-latex"

#: Cell tags the exporters honour (TagRemovePreprocessor).
TAGS = {
    "remove_cell_tags": {"remove-cell"},
    "remove_input_tags": {"remove-input"},
    "remove_all_outputs_tags": {"remove-output"},
}


def _holds_templates(directory: Path) -> bool:
    return all(
        (directory / name / "conf.json").is_file()
        for name in (HTML_TEMPLATE, LATEX_TEMPLATE)
    )


def template_basedirs() -> list[str]:
    """Directories holding the nbstats templates, for ``extra_template_basedirs``.

    The source checkout's ``report_templates/`` first (an editable install or
    a run from the repository), then the installed
    ``share/jupyter/nbconvert/templates`` of this interpreter's prefix and of
    the user scheme. Empty if none holds them (nbconvert still searches its
    own Jupyter paths).
    """
    candidates = [Path(__file__).resolve().parents[2] / "report_templates"]
    for base in {
        sys.prefix,
        sysconfig.get_path("data"),
        sysconfig.get_path("data", f"{os.name}_user"),
    }:
        if base:
            candidates.append(
                Path(base) / "share" / "jupyter" / "nbconvert" / "templates"
            )
    found: list[str] = []
    for directory in candidates:
        if _holds_templates(directory) and str(directory) not in found:
            found.append(str(directory))
    return found


_REMOTE_SCRIPT = re.compile(
    r"<script\b[^>]*\bsrc\s*=[^>]*>.*?</script\s*>", re.IGNORECASE | re.DOTALL
)
_REMOTE_LINK = re.compile(
    r"<link\b[^>]*\bhref\s*=\s*[\"']?\s*(?:https?:)?//[^>]*>", re.IGNORECASE
)


def strip_remote(markup: str) -> str:
    """Remove every ``<script src=...>`` and every ``<link>`` to another host.

    Examples
    --------
    >>> strip_remote('<p>a</p><script src="https://cdn/x.js"></script>')
    '<p>a</p>'
    >>> strip_remote('<link rel="stylesheet" href="//cdn/x.css"><b>b</b>')
    '<b>b</b>'
    """
    return _REMOTE_LINK.sub("", _REMOTE_SCRIPT.sub("", markup))


class _Paper(TemplateExporter):
    """What the three exporters share: templates, tags, no prompts."""

    @default("extra_template_basedirs")
    def _default_extra_template_basedirs(self) -> list[str]:
        base = [os.getcwd()]  # nbconvert's own default
        return [*base, *(d for d in template_basedirs() if d not in base)]

    @default("exclude_input_prompt")
    def _default_exclude_input_prompt(self) -> bool:
        return True

    @default("exclude_output_prompt")
    def _default_exclude_output_prompt(self) -> bool:
        return True

    @property
    def default_config(self) -> Config:
        config = super().default_config.copy()
        config.merge(Config({"TagRemovePreprocessor": {"enabled": True, **TAGS}}))
        return config


class NbstatsHTMLExporter(_Paper, HTMLExporter):
    """Self-contained paper-style HTML (template ``nbstats-paper``)."""

    export_from_notebook = "nbstats paper (HTML)"

    @default("template_name")
    def _default_template_name(self) -> str:
        return HTML_TEMPLATE

    @default("embed_images")
    def _default_embed_images(self) -> bool:
        return True

    def from_notebook_node(
        self, nb: Any, resources: dict[str, Any] | None = None, **kw: Any
    ) -> tuple[str, dict[str, Any]]:
        # HTMLExporter.from_notebook_node's set-up, then the template; its
        # BeautifulSoup round trip is replaced by html_access.accessible
        language = nb.metadata.get("language_info", {})
        lexer = language.get("pygments_lexer", language.get("name", None))
        highlight = self.filters.get(
            "highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self)
        )
        resources = self._init_resources(resources)
        widgets = WidgetsDataTypeFilter(
            notebook_metadata=self._nb_metadata, parent=self, resources=resources
        )
        self.register_filter("highlight_code", highlight)
        self.register_filter("filter_data_type", widgets)
        output, resources = TemplateExporter.from_notebook_node(
            self, nb, resources=resources, **kw
        )
        output, missing = accessible(output)
        if missing:  # as nbconvert says it
            self.log.warning("Alternative text is missing on %s image(s).", missing)
        return strip_remote(output), resources


class NbstatsLatexExporter(_Paper, LatexExporter):
    """Paper-style LaTeX (template ``nbstats-paper-latex``); figures as files."""

    export_from_notebook = "nbstats paper (LaTeX)"

    @default("template_name")
    def _default_template_name(self) -> str:
        return LATEX_TEMPLATE


#: The LaTeX log asks for another pass (longtable's column widths, labels).
_RERUN = re.compile(
    r"Rerun LaTeX|Rerun to get|Label\(s\) may have changed|widths have changed"
)


#: What makes two reports' ``.aux`` files interchangeable as a first guess:
#: the document class and every label, citation and long table, in order.
_STRUCTURE = re.compile(
    r"\\documentclass(?:\[[^\]]*\])?\{[^}]*\}|\\label\{[^}]*\}|\\cite\{[^}]*\}"
    r"|\\begin\{(?:longtable|xltabular)\}"
)


#: The auxiliary files xelatex reads back on the next pass: labels and
#: citations, hyperref's bookmarks, a table of contents.
_KEPT = (".aux", ".out", ".toc")


def aux_seed(tex: Path) -> Path | None:
    """Where the ``.aux`` of documents shaped like ``tex`` is kept between
    runs (``NBSTATS_CACHE_DIR``, else ``nbstats`` in the user's cache
    directory, ``XDG_CACHE_HOME`` or ``~/.cache``), or None when ``tex``
    cannot be read.

    Examples
    --------
    >>> import tempfile
    >>> tex = Path(tempfile.mkdtemp()) / "r.tex"
    >>> _ = tex.write_text(r"\\documentclass{article}\\label{fig:cd} 0.91")
    >>> first = aux_seed(tex)
    >>> _ = tex.write_text(r"\\documentclass{article}\\label{fig:cd} 0.93")
    >>> aux_seed(tex) == first  # other numbers, the same structure
    True
    >>> first.suffix, first.parent.name
    ('.aux', 'latex')
    """
    try:
        text = tex.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    import hashlib

    shape = "\n".join(_STRUCTURE.findall(text)).encode()
    cache = os.environ.get("NBSTATS_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME")
        or os.path.join(os.path.expanduser("~"), ".cache"),
        "nbstats",
    )
    return Path(cache) / "latex" / (hashlib.sha256(shape).hexdigest()[:24] + ".aux")


def _copy_kept(source: str, target: str) -> None:
    """Copy each :data:`_KEPT` file of ``source`` (a path less its suffix)
    that exists to the same suffix of ``target``."""
    for suffix in _KEPT:
        if os.path.isfile(source + suffix):
            shutil.copyfile(source + suffix, target + suffix)


#: xelatex's line for a character its font lacks (left out of the PDF).
_MISSING = re.compile(r"^Missing character: There is no (\S+)", re.M)


class NbstatsPDFExporter(_Paper, PDFExporter):
    """Paper-style PDF through xelatex (template ``nbstats-paper-latex``).

    xelatex runs ``latex_count`` times (2), then again while its log asks for
    it (longtables settle their column widths over passes: with two, a long
    table's rows would not line up with its header), at most
    ``max_latex_count`` times. The last log stays in ``latex_log``. BibTeX
    runs only when the document asks for it (``\\bibdata`` in the ``.aux``);
    the reports carry their reference list inline.
    """

    export_from_notebook = "nbstats paper (PDF)"
    #: Passes of xelatex at most.
    max_latex_count = 5
    #: The log of the last xelatex pass ("" before any).
    latex_log = ""

    @default("template_name")
    def _default_template_name(self) -> str:
        return LATEX_TEMPLATE

    @default("latex_count")
    def _default_latex_count(self) -> int:
        return 2  # enough for \ref and \cite; the report needs no BibTeX pass

    def run_latex(self, filename: str, raise_on_failure: Any = LatexFailed) -> bool:
        """Run xelatex until its log asks for no other pass.

        The ``.aux`` (and ``.out``, ``.toc``) of the last document with the
        same labels, citations and tables (:func:`aux_seed`) is put beside
        the ``.tex`` first: a report written again after new results usually
        numbers and sizes everything as before, and xelatex then says after
        one pass that nothing changed. When anything did, its log asks for
        another pass, as on a first run.
        """

        def log_error(command: list[str], out: bytes) -> None:
            self.log.critical("%s failed: %s\n%s", command[0], command, out)

        stem = os.path.splitext(filename)[0]
        log, aux = Path(stem + ".log"), Path(stem + ".aux")
        seed = aux_seed(Path(filename))
        least = self.latex_count
        if seed is not None and seed.is_file() and not aux.exists():
            with contextlib.suppress(OSError):
                _copy_kept(str(seed.with_suffix("")), stem)
                least = 1  # the log says whether the seed was right
        for number in range(1, self.max_latex_count + 1):
            if not self.run_command(
                self.latex_command, filename, 1, log_error, raise_on_failure
            ):
                return False
            try:
                self.latex_log = log.read_text(encoding="utf-8", errors="replace")
            except OSError:
                self.latex_log = ""
            if number >= least and not _RERUN.search(self.latex_log):
                break
        if seed is not None:
            with contextlib.suppress(OSError):
                seed.parent.mkdir(parents=True, exist_ok=True)
                _copy_kept(stem, str(seed.with_suffix("")))
        return True

    def missing_characters(self) -> list[str]:
        """The characters of the last pass that no font had, each once, as
        ``'中' (U+4E2D)``, in the order xelatex met them."""
        found = dict.fromkeys(_MISSING.findall(self.latex_log))
        return [
            f"{char!r} (U+{ord(char):04X})" if len(char) == 1 else repr(char)
            for char in found
        ]

    def run_bib(self, filename: str, raise_on_failure: bool = False) -> bool:
        aux = Path(os.path.splitext(filename)[0] + ".aux")
        try:
            wanted = "\\bibdata" in aux.read_text(encoding="utf-8", errors="replace")
        except OSError:
            wanted = False
        if not wanted or shutil.which(self.bib_command[0]) is None:
            return False
        return super().run_bib(filename, raise_on_failure=raise_on_failure)

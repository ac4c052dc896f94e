"""A report's citations and references, and the paragraphs that carry them.

The prose machinery lives below the reports, in :mod:`nbstats.results.prose`
(:class:`Paragraph`, :class:`Cite`, :class:`Alt`, :func:`cite`) and
:mod:`nbstats.results.bibliography` (:data:`REFERENCES`), so that results can
write their own Methods sentences; this module re-exports them and writes the
reference lists. A :class:`Paragraph` renders as plain text, HTML (escaped) and
LaTeX (escaped, ``\\cite{key}`` with the keys of :data:`REFERENCES`);
:func:`bibtex` writes the matching ``.bib``.

Citations are numbered in order of first appearance, the same numbers in every
format: ``[1]`` in text and HTML, ``\\cite`` with a ``thebibliography`` whose
items follow that order in LaTeX.

Examples
--------
>>> para = Paragraph()
>>> para = para.add("Ranks follow Demšar", cite("demsar2006"), ".")
>>> para.text()
'Ranks follow Demšar [1].'
>>> para.latex()
'Ranks follow Demšar~\\\\cite{demsar2006}.'
>>> print(references_text(para.keys)[:40])
[1] Demšar, Janez (2006). Statistical co
"""

from __future__ import annotations

from collections.abc import Sequence

from nbstats.results.bibliography import REFERENCES, Reference, author_year
from nbstats.results.prose import Alt, Cite, Paragraph, cite

__all__ = [
    "REFERENCES",
    "Alt",
    "Cite",
    "Paragraph",
    "Reference",
    "author_year",
    "bibtex",
    "cite",
    "references_html",
    "references_latex",
    "references_text",
]


def references_text(keys: Sequence[str]) -> str:
    """Numbered plain-text reference list."""
    return "\n".join(
        f"[{i}] {REFERENCES[k].text()}" for i, k in enumerate(keys, start=1)
    )


def references_html(keys: Sequence[str]) -> str:
    """Numbered HTML reference list (items carry ``id="ref-<key>"``)."""
    items = "".join(f'<li id="ref-{k}">{REFERENCES[k].html()}</li>' for k in keys)
    return f'<ol class="nbstats-references">{items}</ol>'


def references_latex(keys: Sequence[str]) -> str:
    """A ``thebibliography`` environment in citation order (needs no BibTeX)."""
    width = str(len(keys))
    items = "\n".join(f"\\bibitem{{{k}}} {REFERENCES[k].latex()}" for k in keys)
    return f"\\begin{{thebibliography}}{{{width}}}\n{items}\n\\end{{thebibliography}}\n"


def bibtex(keys: Sequence[str] | None = None) -> str:
    """BibTeX entries of ``keys`` (default: every reference), for a ``.bib`` file.

    Examples
    --------
    >>> print(bibtex(["holm1979"]).splitlines()[0])
    @article{holm1979,
    """
    chosen = list(REFERENCES) if keys is None else list(keys)
    return "\n\n".join(REFERENCES[k].bibtex() for k in chosen) + "\n"

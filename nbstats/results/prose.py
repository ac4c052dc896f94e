"""Text with citations, rendered alike as plain text, HTML and LaTeX.

A :class:`Paragraph` holds pieces: plain strings (escaped per format),
:class:`Cite` (numbered in order of first citation, ``[1]`` in text and HTML,
``\\cite{key}`` in LaTeX) and :class:`Alt` (a piece written differently per
format, such as a formula). Results write their Methods sentences with it
(:mod:`nbstats.results.methods_text`); reports assemble them.

Examples
--------
>>> para = Paragraph()
>>> para = para.add("Ranks follow Demšar", cite("demsar2006"), ".")
>>> para.text()
'Ranks follow Demšar [1].'
>>> para.latex()
'Ranks follow Demšar~\\\\cite{demsar2006}.'
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Sequence

from nbstats.results.bibliography import REFERENCES
from nbstats.results.formatting import escape_latex, tie_relations

__all__ = ["Alt", "Cite", "Paragraph", "cite"]


@dataclasses.dataclass(frozen=True)
class Cite:
    """A citation of one or more :data:`REFERENCES` keys inside a paragraph."""

    keys: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Alt:
    """A piece written differently per format (e.g. a formula)."""

    text: str
    html: str
    latex: str


def cite(*keys: str) -> Cite:
    """A citation of ``keys`` (checked against :data:`REFERENCES`)."""
    unknown = [k for k in keys if k not in REFERENCES]
    if unknown:
        raise KeyError(f"unknown reference keys {unknown}; known: {sorted(REFERENCES)}")
    return Cite(tuple(keys))


class Paragraph:
    """Text with citations, rendered to plain text, HTML and LaTeX alike.

    Pieces are plain strings (escaped per format), :class:`Cite` and
    :class:`Alt`. ``cited``: the keys an earlier paragraph of the same
    reference list cites, in its order, so that the numbers go on from there.
    """

    def __init__(self, cited: Sequence[str] = ()) -> None:
        self.pieces: list[str | Cite | Alt] = []
        self.cited = list(cited)

    def add(self, *pieces: str | Cite | Alt) -> Paragraph:
        """Append pieces; returns the paragraph."""
        self.pieces.extend(pieces)
        return self

    @property
    def keys(self) -> list[str]:
        """The cited keys in order of first citation."""
        seen: list[str] = list(self.cited)
        for piece in self.pieces:
            if isinstance(piece, Cite):
                seen += [k for k in piece.keys if k not in seen]
        return seen

    def _numbers(self, keys: Sequence[str]) -> str:
        order = self.keys
        return ", ".join(str(order.index(k) + 1) for k in keys)

    def text(self) -> str:
        """Plain text, citations as ``[1, 2]``."""
        out = []
        for piece in self.pieces:
            if isinstance(piece, Cite):
                out.append(f" [{self._numbers(piece.keys)}]")
            elif isinstance(piece, Alt):
                out.append(piece.text)
            else:
                out.append(piece)
        return "".join(out)

    def html(self) -> str:
        """Escaped HTML, citations as links to ``#ref-<key>``."""
        out = []
        order = self.keys
        for piece in self.pieces:
            if isinstance(piece, Cite):
                links = ", ".join(
                    f'<a href="#ref-{k}">{order.index(k) + 1}</a>' for k in piece.keys
                )
                out.append(f" [{links}]")
            elif isinstance(piece, Alt):
                out.append(piece.html)
            else:
                out.append(html.escape(piece))
        return "".join(out)

    def latex(self) -> str:
        """Escaped LaTeX, citations as ``~\\cite{key,...}``."""
        out = []
        for piece in self.pieces:
            if isinstance(piece, Cite):
                out.append("~\\cite{" + ",".join(piece.keys) + "}")
            elif isinstance(piece, Alt):
                out.append(piece.latex)
            else:
                out.append(tie_relations(escape_latex(piece)))
        return "".join(out)

"""What nbconvert's HTML exporter adds for screen readers, without parsing the page.

nbconvert's ``HTMLExporter`` parses its whole output with BeautifulSoup to
give every image without alternative text a placeholder one and to make each
cell's input and output focusable (``tabindex="0"``), then writes the tree
out again. On a report of a large table (a megabyte and a half, most of it
figures as ``data:`` URIs) that round trip is about a third of a second,
longer than the template's rendering (``benchmarks/bench_report.py``). The
markup is the template's own, whose tags are regular, so the same
attributes are set here by one pass over its start tags (outside scripts,
styles and comments, which the parser reads as text); the result parses
to the same tree (``tests/reporting/test_html_access.py`` compares them
with nbconvert's own pass).
"""

from __future__ import annotations

import re

__all__ = ["MISSING_ALT", "accessible"]

#: nbconvert's alternative text for an image that has none.
MISSING_ALT = "No description has been provided for this image"

#: What the HTML parser reads as text, left as it is (a string in a script
#: may hold "<img …>"): a script's or a style's contents, a comment; else a
#: start tag of ``img`` or ``div`` (quoted attribute values may hold ``>``).
_TOKEN = re.compile(
    r"""<(script|style)\b[^>]*>.*?</\1\s*>|<!--.*?-->"""
    r"""|<(img|div)\b((?:[^>"']|"[^"]*"|'[^']*')*)>""",
    re.IGNORECASE | re.DOTALL,
)
#: One attribute: name, then an optional value (quoted or bare).
_ATTRIBUTE = re.compile(
    r"""([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?""", re.IGNORECASE
)
#: The classes nbconvert makes focusable (under ``.jp-Notebook``, which the
#: lab template's body carries).
_FOCUSABLE = {"jp-Cell-inputWrapper", "jp-OutputArea-output"}


def accessible(markup: str) -> tuple[str, int]:
    """``markup`` with nbconvert's accessibility attributes; the number of
    images that had no alternative text.

    Examples
    --------
    >>> page = '<body class="jp-Notebook"><img src="a.png">'
    >>> accessible(page)[0][-71:]
    '<img src="a.png" alt="No description has been provided for this image">'
    >>> cell = '<div tabindex="-1" class="jp-Cell-inputWrapper">'
    >>> accessible('<body class="jp-Notebook">' + cell)[0][26:]
    '<div tabindex="0" class="jp-Cell-inputWrapper">'

    """
    if "jp-Notebook" not in markup:  # nbconvert's selectors need that ancestor
        focusable: set[str] = set()
    else:
        focusable = _FOCUSABLE
    missing = 0

    def tag(match: re.Match[str]) -> str:
        nonlocal missing
        name, body = match.group(2), match.group(3)
        if name is None:  # text to the parser
            return match.group(0)
        closing = "/" if body.rstrip().endswith("/") else ""
        inner = body.rstrip()[:-1] if closing else body
        attributes = {
            found.group(1).lower(): found for found in _ATTRIBUTE.finditer(inner)
        }
        if name.lower() == "img":
            if "alt" in attributes:
                return match.group(0)
            missing += 1
            return f'<{name}{inner.rstrip()} alt="{MISSING_ALT}"{closing}>'
        classes = attributes.get("class")
        value = classes.group(2) if classes is not None else None
        if value is None or not focusable & set(value.strip("\"'").split()):
            return match.group(0)
        old = attributes.get("tabindex")
        if old is not None:
            start, end = old.span()
            inner = f'{inner[:start]}tabindex="0"{inner[end:]}'
            return f"<{name}{inner}{closing}>"
        return f'<{name}{inner.rstrip()} tabindex="0"{closing}>'

    return _TOKEN.sub(tag, markup), missing

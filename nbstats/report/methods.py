"""The Methods paragraph of a report, its citations and its references.

The paragraph is written from the result objects the report computed (not from
the arguments it was given), so every figure it states -- tests, corrections,
priors, s, γ, losses, rope, sample sizes, seeds -- is the one actually used. It
renders as plain text, HTML (escaped) and LaTeX (escaped, ``\\cite{key}`` with
the keys of :data:`REFERENCES`), and :func:`bibtex` writes the matching ``.bib``.

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
"""

from __future__ import annotations

import dataclasses
import html
import importlib.metadata
from collections.abc import Sequence
from typing import Any

from nbstats.results.render import escape_latex, format_value

__all__ = [
    "REFERENCES",
    "Paragraph",
    "Reference",
    "bibtex",
    "cite",
    "methods_paragraph",
    "references_html",
    "references_latex",
    "references_text",
]


@dataclasses.dataclass(frozen=True)
class Reference:
    """One bibliography entry.

    ``authors`` are "Last, First" in plain Unicode (for text and HTML);
    ``bib_authors`` the same names as BibTeX wants them (accents as TeX
    commands, so the ``.bib`` works with BibTeX as well as biber).
    """

    key: str
    kind: str  # BibTeX entry type
    authors: tuple[str, ...]
    bib_authors: tuple[str, ...]
    year: int
    title: str
    fields: tuple[tuple[str, str], ...]  # BibTeX fields besides author/title/year
    where: str  # the venue, as printed in a reference list

    def text(self) -> str:
        """The reference as one line of plain text."""
        authors = _author_list(self.authors)
        return f"{authors} ({self.year}). {self.title}. {self.where}."

    def html(self) -> str:
        """The reference as escaped HTML (venue in italics)."""
        return (
            f"{html.escape(_author_list(self.authors))} ({self.year}). "
            f"{html.escape(self.title)}. <em>{html.escape(self.where)}</em>."
        )

    def latex(self) -> str:
        """The reference as escaped LaTeX (venue in italics)."""
        return (
            f"{escape_latex(_author_list(self.authors))} ({self.year}). "
            f"{escape_latex(self.title)}. \\emph{{{escape_latex(self.where)}}}."
        )

    def bibtex(self) -> str:
        """The BibTeX entry."""
        lines = [
            f"@{self.kind}{{{self.key},",
            f"  author = {{{' and '.join(self.bib_authors)}}},",
            f"  title = {{{{{self.title}}}}},",
            f"  year = {{{self.year}}},",
        ]
        lines += [f"  {name} = {{{value}}}," for name, value in self.fields]
        lines.append("}")
        return "\n".join(lines)


def _author_list(authors: Sequence[str]) -> str:
    if len(authors) == 1:
        return authors[0]
    return ", ".join(authors[:-1]) + " & " + authors[-1]


def _reference(
    key: str,
    kind: str,
    authors: Sequence[str],
    year: int,
    title: str,
    where: str,
    bib_authors: Sequence[str] | None = None,
    **fields: str,
) -> Reference:
    return Reference(
        key=key,
        kind=kind,
        authors=tuple(authors),
        bib_authors=tuple(bib_authors if bib_authors is not None else authors),
        year=year,
        title=title,
        fields=tuple(fields.items()),
        where=where,
    )


#: Every work a report may cite, by BibTeX key.
REFERENCES: dict[str, Reference] = {
    ref.key: ref
    for ref in (
        _reference(
            "demsar2006",
            "article",
            ["Demšar, Janez"],
            2006,
            "Statistical comparisons of classifiers over multiple data sets",
            "Journal of Machine Learning Research, 7, 1–30",
            bib_authors=["Dem{\\v{s}}ar, Janez"],
            journal="Journal of Machine Learning Research",
            volume="7",
            pages="1--30",
        ),
        _reference(
            "friedman1937",
            "article",
            ["Friedman, Milton"],
            1937,
            "The use of ranks to avoid the assumption of normality implicit in "
            "the analysis of variance",
            "Journal of the American Statistical Association, 32(200), 675–701",
            journal="Journal of the American Statistical Association",
            volume="32",
            number="200",
            pages="675--701",
        ),
        _reference(
            "iman1980",
            "article",
            ["Iman, Ronald L.", "Davenport, James M."],
            1980,
            "Approximations of the critical region of the Friedman statistic",
            "Communications in Statistics – Theory and Methods, 9(6), 571–595",
            journal="Communications in Statistics -- Theory and Methods",
            volume="9",
            number="6",
            pages="571--595",
        ),
        _reference(
            "nemenyi1963",
            "phdthesis",
            ["Nemenyi, Peter B."],
            1963,
            "Distribution-free multiple comparisons",
            "PhD thesis, Princeton University",
            school="Princeton University",
        ),
        _reference(
            "holm1979",
            "article",
            ["Holm, Sture"],
            1979,
            "A simple sequentially rejective multiple test procedure",
            "Scandinavian Journal of Statistics, 6(2), 65–70",
            journal="Scandinavian Journal of Statistics",
            volume="6",
            number="2",
            pages="65--70",
        ),
        _reference(
            "wilcoxon1945",
            "article",
            ["Wilcoxon, Frank"],
            1945,
            "Individual comparisons by ranking methods",
            "Biometrics Bulletin, 1(6), 80–83",
            journal="Biometrics Bulletin",
            volume="1",
            number="6",
            pages="80--83",
        ),
        _reference(
            "benavoli2014",
            "inproceedings",
            [
                "Benavoli, Alessio",
                "Mangili, Francesca",
                "Corani, Giorgio",
                "Zaffalon, Marco",
                "Ruggeri, Fabrizio",
            ],
            2014,
            "A Bayesian Wilcoxon signed-rank test based on the Dirichlet process",
            "Proceedings of the 31st International Conference on Machine "
            "Learning (ICML), 1026–1034",
            booktitle="Proceedings of the 31st International Conference on "
            "Machine Learning (ICML)",
            pages="1026--1034",
        ),
        _reference(
            "benavoli2015",
            "inproceedings",
            [
                "Benavoli, Alessio",
                "Mangili, Francesca",
                "Corani, Giorgio",
                "Zaffalon, Marco",
            ],
            2015,
            "A Bayesian nonparametric procedure for comparing algorithms",
            "Proceedings of the 32nd International Conference on Machine "
            "Learning (ICML), 1264–1272",
            booktitle="Proceedings of the 32nd International Conference on "
            "Machine Learning (ICML)",
            pages="1264--1272",
        ),
        _reference(
            "foucart2025",
            "inproceedings",
            ["Foucart, A.", "Elskens, A.", "Decaestecker, C."],
            2025,
            "Ranking the scores of algorithms with confidence",
            "European Symposium on Artificial Neural Networks, Computational "
            "Intelligence and Machine Learning (ESANN)",
            booktitle="European Symposium on Artificial Neural Networks, "
            "Computational Intelligence and Machine Learning (ESANN)",
        ),
    )
}


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
    :class:`Alt`.
    """

    def __init__(self) -> None:
        self.pieces: list[str | Cite | Alt] = []

    def add(self, *pieces: str | Cite | Alt) -> Paragraph:
        """Append pieces; returns the paragraph."""
        self.pieces.extend(pieces)
        return self

    @property
    def keys(self) -> list[str]:
        """The cited keys in order of first citation."""
        seen: list[str] = []
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
                out.append(escape_latex(piece))
        return "".join(out)


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


# -- the paragraph ------------------------------------------------------------

#: χ²_F and F_F, typeset per format.
CHI2_F = Alt("χ²_F", "χ<sup>2</sup><sub>F</sub>", "$\\chi^2_F$")
F_F = Alt("F_F", "F<sub>F</sub>", "$F_F$")

_IDP_S = Alt(
    text="(√17 − 3)/2",
    html="(√17 − 3)/2",
    latex="$(\\sqrt{17}-3)/2$",
)


def _num(value: object, digits: int = 4) -> str:
    """``digits`` significant figures, and no ".0" on whole numbers."""
    text = format_value(value, digits)
    return text[:-2] if text.endswith(".0") else text


def _count(n: int) -> str:
    return f"{n:,}"


def methods_paragraph(
    *,
    n_cases: int,
    n_algorithms: int,
    higher_is_better: bool,
    seed: int,
    friedman: Any = None,
    nemenyi: Any = None,
    holm: Any = None,
    bayes_friedman: Any = None,
    signrank: Sequence[Any] = (),
    loss: tuple[float, float] | None = None,
    bayes_posthoc: Any = None,
    rank_ci: Any = None,
) -> Paragraph:
    """Write the Methods paragraph from the results a report computed.

    Every argument after ``seed`` is optional: an analysis left out of the
    report is left out of the paragraph. ``signrank`` is the list of
    :class:`~nbstats.results.BayesSignedRankResult` of the pairwise table
    (their prior, s, rope, threshold and number of draws are read from the
    first), ``loss`` the ``(l0, l1)`` behind their threshold.

    Returns
    -------
    Paragraph
        Render with ``.text()``, ``.html()`` or ``.latex()``; ``.keys`` are
        the cited references in order.
    """
    p = Paragraph()
    direction = "higher" if higher_is_better else "lower"
    p.add(
        f"We compared {n_algorithms} algorithms on {n_cases} cases, "
        f"{direction} scores being better. Within each case the algorithms were "
        "ranked (rank 1 = best, tied scores receiving the average of the ranks "
        "they span), and the analyses follow the recommendations of Demšar",
        cite("demsar2006"),
        ". ",
    )
    if friedman is not None:
        tie = "with" if friedman.tie_correction else "without"
        p.add(
            "The hypothesis that all algorithms perform equally was tested with "
            "the Friedman test",
            cite("friedman1937"),
            " (",
            CHI2_F,
            f" {tie} tie correction, {friedman.df} degrees of freedom) and with "
            "the Iman–Davenport ",
            F_F,
            " statistic",
            cite("iman1980"),
            f" ({friedman.f_df[0]} and {friedman.f_df[1]} degrees of freedom). ",
        )
    if nemenyi is not None:
        p.add(
            "All pairs of algorithms were compared with the Nemenyi test",
            cite("nemenyi1963"),
            f" at α = {_num(nemenyi.alpha)} (critical difference "
            f"CD = {_num(nemenyi.critical_difference)} of mean ranks, from the "
            "studentized range distribution), shown as a critical-difference "
            "diagram",
            cite("demsar2006"),
            "",
        )
        if holm is not None:
            p.add(
                "; every algorithm was also compared against the best-ranked one, "
                f"{holm.control}, with z-tests on mean ranks and Holm's step-down "
                "correction",
                cite("holm1979"),
                f" at α = {_num(holm.alpha)}",
            )
        p.add(". ")
    elif holm is not None:
        p.add(
            f"Every algorithm was compared against the best-ranked one, "
            f"{holm.control}, with z-tests on mean ranks and Holm's step-down "
            "correction",
            cite("holm1979"),
            f" at α = {_num(holm.alpha)}. ",
        )
    if bayes_friedman is not None:
        bf = bayes_friedman
        how = (
            "the exact posterior mean and covariance of the mean ranks "
            "(ellipsoid approximation, no sampling)"
            if bf.method == "ellipsoid"
            else f"{_count(bf.n_samples)} Monte Carlo draws (seed {seed})"
        )
        p.add(
            "The Bayesian Friedman test",
            cite("benavoli2015"),
            " placed a Dirichlet-process prior of strength "
            f"s = {_num(bf.s)} on \u201call algorithms equal\u201d and declared "
            "the algorithms different when the vector of equal mean ranks lies "
            f"outside the {_num(100 * bf.credible_level)}% credible region "
            f"(γ = {_num(bf.gamma)}), computed from {how}. ",
        )
    if signrank:
        first = signrank[0]
        pairs = len(signrank)
        if first.prior == "idp":
            prior = Paragraph().add(
                "the near-ignorance (imprecise) Dirichlet-process prior of "
                f"strength s = {_num(first.s)}"
            )
            if abs(first.s - 0.5615528128088303) < 1e-12:
                prior.add(" (", _IDP_S, ")")
            decision = (
                "an algorithm was preferred when even its lower posterior "
                f"probability of being better exceeds {_num(first.threshold)}, "
                f"not preferred when even its upper probability stays at or "
                f"below it, and the decision is indeterminate otherwise"
            )
        elif first.prior == "bb":
            prior = Paragraph().add("the Bayesian bootstrap (s → 0)")
            decision = (
                "an algorithm was preferred when its posterior probability of "
                f"being better exceeds {_num(first.threshold)}"
            )
        else:
            prior = Paragraph().add(
                f"a prior of strength s = {_num(first.s)} at a zero difference"
            )
            decision = (
                "an algorithm was preferred when its posterior probability of "
                f"being better exceeds {_num(first.threshold)}"
            )
        losses = (
            f"losses (l0, l1) = ({_num(loss[0])}, {_num(loss[1])}) of a Type II "
            "and a Type I error, i.e. a threshold of "
            f"l1/(l0 + l1) = {_num(first.threshold)}"
            if loss is not None
            else f"a threshold of {_num(first.threshold)}"
        )
        rope = (
            f"a region of practical equivalence of ±{_num(first.rope)}"
            if first.rope > 0
            else "no region of practical equivalence (rope = 0)"
        )
        p.add(
            f"Each of the {pairs} pairs of algorithms was compared with the "
            "Bayesian Wilcoxon signed-rank test",
            cite("benavoli2014"),
            " under ",
            *prior.pieces,
            f", with {rope} and decisions that minimise the expected loss with "
            f"{losses}: {decision}; each pair used "
            f"{_count(first.samples.size)} posterior draws (seed {seed}). ",
        )
    if bayes_posthoc is not None:
        bp = bayes_posthoc
        p.add(
            "Joint statements were made with the procedure of Benavoli et al.",
            cite("benavoli2015"),
            f": per pair the Bayesian {bp.test} test with a prior of strength "
            f"s = {_num(bp.s)} at \u201cequal\u201d chose the more probable "
            "direction, and the longest list of statements, sorted by posterior "
            "probability, whose joint posterior probability (all statements "
            f"true on the same draw) exceeds 1 − γ = {_num(1 - bp.gamma)} was "
            f"accepted, from {_count(bp.n_samples)} joint draws of the "
            f"Dirichlet weights (seed {seed}). ",
        )
    if rank_ci is not None:
        rc = rank_ci
        level = f"{_num(100 * rc.confidence_level)}%"
        if rc.method.startswith("id-wilcoxon"):
            sided = "two-sided" if rc.method == "id-wilcoxon-2s" else "one-sided"
            p.add(
                f"Simultaneous {level} confidence intervals for the ranks",
                cite("foucart2025"),
                " were obtained from the Iman–Davenport test followed by "
                f"{sided} Wilcoxon signed-rank tests",
                cite("wilcoxon1945"),
                " with Holm's correction over each algorithm's comparisons",
                cite("holm1979"),
                f" at α = {_num(rc.alpha)} (no random numbers). ",
            )
        elif rc.method == "id-nemenyi":
            p.add(
                f"Simultaneous {level} confidence intervals for the ranks",
                cite("foucart2025"),
                " were obtained from the Iman–Davenport test followed by the "
                "Nemenyi test",
                cite("nemenyi1963"),
                f" at α = {_num(rc.alpha)} (no random numbers). ",
            )
        elif rc.method == "bootstrap":
            p.add(
                f"{level} bootstrap percentile intervals for the ranks",
                cite("foucart2025"),
                f" used {_count(rc.n_boot)} resamples of the cases (seed {seed}). ",
            )
        else:
            p.add(
                f"Simultaneous {level} confidence intervals for the ranks",
                cite("foucart2025"),
                " were obtained from a repeated-measures ANOVA on rank-transformed "
                f"scores followed by Tukey's HSD at α = {_num(rc.alpha)}. ",
            )
    p.add(f"All computations used nbstats {_versions()}.")
    return p


def _versions() -> str:
    names = ("nbstats", "numpy", "scipy", "pandas")
    found = []
    for name in names:
        try:
            found.append((name, importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:  # pragma: no cover
            continue
    head = found[0][1] if found and found[0][0] == "nbstats" else "(unknown version)"
    rest = ", ".join(f"{n} {v}" for n, v in found if n != "nbstats")
    return f"{head} ({rest})" if rest else head

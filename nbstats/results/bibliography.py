"""The works nbstats cites, by BibTeX key: its one reference database.

A :class:`Reference` writes itself as plain text, HTML, LaTeX and BibTeX;
:data:`REFERENCES` holds every work a Methods sentence or a report may cite
(:func:`nbstats.results.prose.cite` checks keys against it).

Examples
--------
>>> REFERENCES["demsar2006"].year
2006
>>> author_year("nadeau2003")
'(Nadeau & Bengio 2003)'
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Sequence

from nbstats.results.formatting import escape_latex

__all__ = ["REFERENCES", "Reference", "author_year"]


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


def author_year(key: str) -> str:
    """``"(Nadeau & Bengio 2003)"``, ``"(Corani et al. 2017)"``: a citation
    for the report's body, whose numbered citations are the Methods
    paragraph's alone (a number in the body would follow another order).

    Examples
    --------
    >>> author_year("nadeau2003"), author_year("benavoli2015")
    ('(Nadeau & Bengio 2003)', '(Benavoli et al. 2015)')
    """
    ref = REFERENCES[key]
    surnames = [author.split(",")[0] for author in ref.authors]
    if len(surnames) == 1:
        who = surnames[0]
    elif len(surnames) == 2:
        who = f"{surnames[0]} & {surnames[1]}"
    else:
        who = f"{surnames[0]} et al."
    return f"({who} {ref.year})"


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
            "nadeau2003",
            "article",
            ["Nadeau, Claude", "Bengio, Yoshua"],
            2003,
            "Inference for the generalization error",
            "Machine Learning, 52(3), 239–281",
            journal="Machine Learning",
            volume="52",
            number="3",
            pages="239--281",
        ),
        _reference(
            "corani2015",
            "article",
            ["Corani, Giorgio", "Benavoli, Alessio"],
            2015,
            "A Bayesian approach for comparing cross-validated algorithms on "
            "multiple data sets",
            "Machine Learning, 100(2–3), 285–304",
            journal="Machine Learning",
            volume="100",
            number="2--3",
            pages="285--304",
        ),
        _reference(
            "corani2017",
            "article",
            [
                "Corani, Giorgio",
                "Benavoli, Alessio",
                "Demšar, Janez",
                "Mangili, Francesca",
                "Zaffalon, Marco",
            ],
            2017,
            "Statistical comparison of classifiers through Bayesian hierarchical "
            "modelling",
            "Machine Learning, 106(11), 1817–1837",
            journal="Machine Learning",
            volume="106",
            number="11",
            pages="1817--1837",
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
            "benavoli2017",
            "article",
            [
                "Benavoli, Alessio",
                "Corani, Giorgio",
                "Demšar, Janez",
                "Zaffalon, Marco",
            ],
            2017,
            "Time for a change: a tutorial for comparing multiple classifiers "
            "through Bayesian analysis",
            "Journal of Machine Learning Research, 18(77), 1–36",
            bib_authors=[
                "Benavoli, Alessio",
                "Corani, Giorgio",
                "Dem{\\v{s}}ar, Janez",
                "Zaffalon, Marco",
            ],
            journal="Journal of Machine Learning Research",
            volume="18",
            number="77",
            pages="1--36",
        ),
        _reference(
            "calvo2018",
            "inproceedings",
            ["Calvo, Borja", "Ceberio, Josu", "Lozano, Jose A."],
            2018,
            "Bayesian inference for algorithm ranking analysis",
            "Proceedings of the Genetic and Evolutionary Computation "
            "Conference Companion (GECCO), 324–325",
            booktitle="Proceedings of the Genetic and Evolutionary Computation "
            "Conference Companion (GECCO)",
            pages="324--325",
        ),
        _reference(
            "caron2012",
            "article",
            ["Caron, François", "Doucet, Arnaud"],
            2012,
            "Efficient Bayesian inference for generalized Bradley–Terry models",
            "Journal of Computational and Graphical Statistics, 21(1), 174–196",
            bib_authors=["Caron, Fran{\\c{c}}ois", "Doucet, Arnaud"],
            journal="Journal of Computational and Graphical Statistics",
            volume="21",
            number="1",
            pages="174--196",
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

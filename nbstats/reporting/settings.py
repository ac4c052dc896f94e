"""A report's settings: every argument of :func:`nbstats.reporting.report` checked.

:func:`make_settings` validates them once, before any notebook is built, and
returns the frozen :class:`ReportSettings` the notebook builder embeds. The
user's text that reaches a Markdown cell (the title, a file name) is checked
by :func:`check_title` and written by :func:`escape_markdown`; every value
the notebook's code holds is written by :func:`python_value`, as data.
"""

from __future__ import annotations

import ast
import base64
import dataclasses
import json
import pickle
import unicodedata
from collections.abc import Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd

from nbstats.stats.bayes.precision import MC_TARGET, draws_for

__all__ = [
    "ANALYSES",
    "MAX_TITLE",
    "N_SAMPLES",
    "ReportSettings",
    "check_title",
    "escape_markdown",
    "json_value",
    "make_settings",
    "python_value",
    "unpickled",
]

#: The analyses a report can contain, in report order.
ANALYSES = ("frequentist", "bayesian", "ranks")

#: Posterior draws of every Monte Carlo computation in a report.
N_SAMPLES = 50_000

#: The longest title a report (or a dashboard) takes, in characters: a title
#: is one heading, and a longer one would not fit the page of a PDF report.
MAX_TITLE = 200

#: Characters that end a line of text besides the control characters.
_LINE_BREAKS = {"\u2028", "\u2029", "\x85"}


def check_title(title: object, *, what: str = "title") -> str:
    """A report's or a dashboard's title, checked before any work.

    A title is one line of printable text: a control character (ESC, NUL,
    a tab or a line break) and a bidirectional control (U+202A–U+202E,
    U+2066–U+2069: one reverses the rest of a line) are refused, naming it
    and where it is -- the characters names refuse
    (:data:`nbstats.scores.names.CONTROL_CHARACTERS`) -- and so is a blank title or
    one longer than :data:`MAX_TITLE` characters.

    Examples
    --------
    >>> check_title("Ten classifiers on UCI data")
    'Ten classifiers on UCI data'
    >>> check_title("Results\\x1b[31m")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: title has a control character (U+001B ESCAPE) at position 8; ...
    """
    if not isinstance(title, str):
        raise TypeError(f"{what} must be a string, got {type(title).__name__}.")
    from nbstats.scores.names import CONTROL_CHARACTERS

    for position, char in enumerate(title, 1):
        category = unicodedata.category(char)
        control = CONTROL_CHARACTERS.match(char) is not None
        if control or category in ("Cc", "Cs") or char in _LINE_BREAKS:
            name = unicodedata.name(char, "") or {
                "\x00": "NULL",
                "\x1b": "ESCAPE",
                "\t": "TAB",
                "\n": "LINE FEED",
                "\r": "CARRIAGE RETURN",
            }.get(char, "control character")
            raise ValueError(
                f"{what} has a control character (U+{ord(char):04X} {name}) at "
                f"position {position}; a title is one line of printable text: "
                "remove it."
            )
    if not title.strip():
        raise ValueError(f"{what} is blank; give some text, or leave it out.")
    if len(title) > MAX_TITLE:
        raise ValueError(
            f"{what} has {len(title):,} characters, more than the {MAX_TITLE} a "
            "title may have; shorten it (say the rest in the text around the "
            "report)."
        )
    return title


#: ASCII punctuation Markdown may read as markup, escaped with a backslash.
_MARKDOWN_PUNCTUATION = set("!#$%()*+,-./:;=?@[\\]^_`{|}~")
#: ... and the characters HTML reads as markup, written as entities.
_MARKDOWN_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                      "'": "&#x27;"}  # fmt: skip


def escape_markdown(text: object) -> str:
    """``text`` for a Markdown cell, shown literally: no link, emphasis, HTML,
    heading, list, math or autolink can come out of it.

    Every ASCII punctuation character is backslash-escaped (CommonMark lets
    any of them be), the HTML ones become entities, and line breaks and other
    control characters become spaces (a line break would start a new block).

    Examples
    --------
    >>> print(escape_markdown("[clickme](javascript:alert(1)).csv"))
    \\[clickme\\]\\(javascript\\:alert\\(1\\)\\)\\.csv
    >>> print(escape_markdown("<b>C4.5</b> & *m*"))
    &lt;b&gt;C4\\.5&lt;\\/b&gt; &amp; \\*m\\*
    """
    out = []
    for char in str(text):
        if char in _MARKDOWN_ENTITIES:
            out.append(_MARKDOWN_ENTITIES[char])
        elif char in _MARKDOWN_PUNCTUATION:
            out.append("\\" + char)
        elif unicodedata.category(char) == "Cc" or char in _LINE_BREAKS:
            out.append(" ")
        else:
            out.append(char)
    return "".join(out)


@dataclasses.dataclass(frozen=True)
class ReportSettings:
    """Validated arguments of :func:`nbstats.reporting.report`."""

    title: str
    analyses: tuple[str, ...]
    higher_is_better: bool
    alpha: float
    threshold: float
    s: float | None
    rope: float
    loss: tuple[float, float]
    random_state: int
    nan_policy: str = "raise"
    layout: str = "standard"
    aliases: dict[str, str] = dataclasses.field(default_factory=dict)
    folds: dict[str, Any] | None = None
    n_samples: int = N_SAMPLES
    #: the pairs' draws go on until each probability's Monte Carlo standard
    #: error is below this (nbstats.stats.bayes.precision; N_SAMPLES first)
    mc_error: float = MC_TARGET
    #: prior of the Bayesian signed-rank tests
    prior: str = "idp"
    #: runs of the cross-validation behind per-fold scores (None: unknown)
    runs: int | None = None
    #: per-fold scores for the per-data-set tests (not stored in the metadata)
    fold_scores: pd.DataFrame | None = dataclasses.field(
        default=None, repr=False, compare=False
    )
    #: the Bayesian hierarchical test on the fold section's first pairs
    hierarchical: bool = False
    #: the unit of the scores, e.g. "percentage points" (None: unstated)
    score_unit: str | None = None
    #: only the answer-first part: summary table, Figure 1, results paragraph
    core_only: bool = False
    #: the venue the tables are set for (nbstats.results.venues)
    venue: str = "article"


def pair_draws(n_algorithms: int) -> int:
    """Posterior draws of the Bayesian pairs and joint statements of a report.

    :data:`N_SAMPLES` up to 12 algorithms (66 pairs); above, the draws shrink
    so that pairs × draws stays at most 66 × :data:`N_SAMPLES`, but never
    below :data:`MIN_PAIR_DRAWS` (a Monte Carlo standard error of at most
    0.5/√5000 ≈ 0.007 on each probability, 0.003 near a threshold of 0.95).
    The cost of the shared draws grows with pairs × draws, and the report
    states the draws and the error.

    Examples
    --------
    >>> pair_draws(4), pair_draws(12), pair_draws(20), pair_draws(50)
    (50000, 50000, 17368, 5000)
    """
    pairs = n_algorithms * (n_algorithms - 1) // 2
    if pairs <= 66:
        return N_SAMPLES
    return max(MIN_PAIR_DRAWS, 66 * N_SAMPLES // pairs)


#: The fewest posterior draws a report's Bayesian pairs take (see pair_draws).
MIN_PAIR_DRAWS = 5_000


def make_settings(
    table: pd.DataFrame,
    *,
    title: str | None,
    analyses: Sequence[str],
    higher_is_better: bool,
    alpha: float,
    threshold: float,
    s: float | None,
    rope: float,
    loss: tuple[float, float],
    random_state: int | None,
    prior: str = "idp",
    nan_policy: str = "raise",
    layout: str = "standard",
    aliases: dict[str, str] | None = None,
    folds: dict[str, Any] | None = None,
    runs: int | None = None,
    fold_scores: pd.DataFrame | None = None,
    hierarchical: bool = False,
    score_unit: str | None = None,
    core_only: bool = False,
    venue: object = "article",
    n_given: int | None = None,
) -> ReportSettings:
    """Check every report argument; clear ``ValueError``/``TypeError`` otherwise
    (``n_given``: the cases given, when ``table`` holds the complete ones)."""
    from nbstats.stats.bayes.decision import resolve_threshold
    from nbstats.stats.bayes.priors import check_s
    from nbstats.util.checks import check_fraction, check_positive

    if title is None:
        on = f"{table.shape[0]} cases"
        if n_given is not None and n_given != table.shape[0]:
            on = f"{n_given} cases ({table.shape[0]} complete)"
        title = f"Statistical comparison of {table.shape[1]} algorithms on {on}"
    title = check_title(title)
    if isinstance(analyses, str):
        analyses = (analyses,)
    try:
        chosen = [str(a) for a in analyses]
    except TypeError:
        raise TypeError(
            f"analyses must be a sequence drawn from {ANALYSES}, got {analyses!r}."
        ) from None
    unknown = [a for a in chosen if a not in ANALYSES]
    if unknown:
        raise ValueError(f"unknown analyses {unknown}; choose any of {list(ANALYSES)}.")
    if not chosen:
        raise ValueError(f"analyses is empty; choose at least one of {list(ANALYSES)}.")
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise TypeError(
            f"higher_is_better must be True or False, got {higher_is_better!r}."
        )
    if isinstance(alpha, (bool, np.bool_)) or not isinstance(alpha, Real):
        raise TypeError(f"alpha must be a number in (0, 1), got {alpha!r}.")
    if not 0 < float(alpha) < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}.")
    threshold = check_fraction("threshold", threshold, example=0.95)
    s = None if s is None else check_s(s, allow_zero=True)
    prior = _check_prior(prior, s)
    rope = check_positive("rope", rope, allow_zero=True)
    resolve_threshold(None, loss)  # validates the pair
    l0, l1 = (float(v) for v in loss)
    if random_state is None:
        # a report must say which seed it used: draw one and write it down
        random_state = int(np.random.SeedSequence().generate_state(1)[0])
    elif isinstance(random_state, (bool, np.bool_)) or not isinstance(
        random_state, Integral
    ):
        raise TypeError(
            "random_state must be an int (the report embeds and states its "
            f"seed) or None, got {type(random_state).__name__}."
        )
    elif random_state < 0:
        raise ValueError(f"random_state must be >= 0, got {random_state}.")
    runs = _check_runs(runs, folds)
    if not isinstance(hierarchical, (bool, np.bool_)):
        raise TypeError(f"hierarchical must be True or False, got {hierarchical!r}.")
    if hierarchical and (folds is None or runs is None):
        raise ValueError(
            "hierarchical=True tests the folds of each data set: give per-fold "
            "long data (case=, algorithm=, score=, fold=) and runs= (or two fold "
            "columns, run and fold)."
        )
    if score_unit is not None:
        score_unit = check_title(score_unit, what="score_unit")
    if not isinstance(core_only, (bool, np.bool_)):
        raise TypeError(f"core_only must be True or False, got {core_only!r}.")
    from nbstats.results.venues import VENUES, get_venue

    venue_name = get_venue(venue).name
    if venue_name not in VENUES:
        raise ValueError(
            f"a report's venue must be one of {', '.join(map(repr, VENUES))} (its "
            f"notebook names it), not the Venue {venue_name!r}."
        )
    return ReportSettings(
        title=title,
        analyses=tuple(a for a in ANALYSES if a in chosen),
        higher_is_better=bool(higher_is_better),
        alpha=float(alpha),
        threshold=threshold,
        s=s,
        rope=rope,
        loss=(l0, l1),
        random_state=int(random_state),
        nan_policy=nan_policy,
        layout=layout,
        aliases=dict(aliases or {}),
        folds=folds,
        runs=runs,
        fold_scores=fold_scores,
        prior=prior,
        hierarchical=bool(hierarchical),
        # two algorithms: one pair, drawn until any probability is precise
        n_samples=(
            pair_draws(table.shape[1])
            if table.shape[1] > 2
            else max(N_SAMPLES, draws_for(MC_TARGET))
        ),
        score_unit=score_unit,
        core_only=bool(core_only),
        venue=venue_name,
    )


def _check_prior(prior: object, s: float | None) -> str:
    """The signed-rank tests' prior; s = 0 is the Bayesian bootstrap."""
    if prior not in ("idp", "bb", "point"):
        raise ValueError(
            f"unknown prior={prior!r}; choose 'idp' (near-ignorance), 'bb' "
            "(Bayesian bootstrap) or 'point' (a pseudo-observation at 0)."
        )
    if prior == "bb" and s not in (None, 0):
        raise ValueError(
            f"prior='bb' is the s -> 0 limit; leave s unset (got s={s!r}), or "
            "choose prior='point' or 'idp' for s > 0."
        )
    if s == 0 and prior == "point":
        raise ValueError(
            "prior='point' needs s > 0 (s = 0 is the Bayesian bootstrap, prior='bb')."
        )
    return "bb" if s == 0 else str(prior)


def _check_runs(runs: object, folds: dict[str, Any] | None) -> int | None:
    """The runs of the cross-validation: given, or read from (run, fold) columns."""
    if runs is None:
        return None if folds is None else folds.get("runs")
    if isinstance(runs, (bool, np.bool_)) or not isinstance(runs, Integral):
        raise TypeError(f"runs must be a whole number, got {runs!r}.")
    if runs < 1:
        raise ValueError(f"runs must be at least 1, got {runs}.")
    if folds is None:
        raise ValueError(
            "runs= describes per-fold scores (the repetitions of the "
            "cross-validation); give the fold column(s) with fold= too."
        )
    known = folds.get("runs")
    if known is not None and known != runs:
        raise ValueError(
            f"runs={runs}, but the first fold column {folds['columns'][0]!r} "
            f"has {known} distinct runs; leave runs out."
        )
    k = folds["max_folds"]
    if k % runs or k // runs < 2:
        raise ValueError(
            f"runs={runs} does not divide the {k} folds per case into runs of "
            "k >= 2 folds; give the number of repetitions of the k-fold "
            "cross-validation."
        )
    return int(runs)


# -- user values in the notebook's code ------------------------------------------

#: The packages whose objects a notebook may carry pickled (an index named
#: ``np.int64(3)`` or ``pd.Timestamp(...)``): the kernel imports them too.
_PICKLED_PACKAGES = ("builtins", "numpy", "pandas", "datetime", "decimal", "fractions")


def _identical(a: Any, b: Any) -> bool:
    """Equal, with the same types all the way down (``1 == 1.0 == True`` is not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_identical, a, b))
    if isinstance(a, dict):
        return len(a) == len(b) and all(
            _identical(k, q) and _identical(a[k], b[q])
            for k, q in zip(a, b, strict=True)
        )
    return bool(a == b)


def _types(value: Any) -> list[type]:
    if isinstance(value, (list, tuple, set, frozenset)):
        return [type(value), *(t for v in value for t in _types(v))]
    if isinstance(value, dict):
        return [dict, *(t for kv in value.items() for v in kv for t in _types(v))]
    return [type(value)]


def python_value(value: Any) -> str:
    """Python source of ``value`` as data, never as code to run.

    A literal when :func:`ast.literal_eval` reads it back identical (same
    types: ``3``, ``'x'``, ``[('run', 'fold')]``); otherwise, for values of
    numpy, pandas and the standard library (``np.int64(3)``, ``nan``,
    ``pd.Timestamp(...)``), a call of :func:`unpickled` on its pickle, which
    the report's kernel reads back exactly. Anything else is written as its
    ``str`` (a name shown in the report is shown as text anyway).

    Examples
    --------
    >>> python_value(("run", 3))
    "('run', 3)"
    >>> source = python_value(np.int64(3))
    >>> source.startswith("report.unpickled(")
    True
    >>> unpickled(source[len("report.unpickled('"):-2])
    np.int64(3)
    """
    text = repr(value)
    try:
        if _identical(ast.literal_eval(text), value):
            return text
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    modules = {t.__module__.partition(".")[0] for t in _types(value)}
    if not modules <= set(_PICKLED_PACKAGES):
        return repr(str(value))
    blob = base64.b64encode(pickle.dumps(value, protocol=4)).decode("ascii")
    return f"report.unpickled({blob!r})"


def unpickled(blob: str) -> Any:
    """The value :func:`python_value` wrote as a pickle (base64 text)."""
    # only ever a pickle python_value wrote into the notebook
    return pickle.loads(base64.b64decode(blob))


def json_value(value: Any) -> Any:
    """``value`` as JSON data for the notebook's metadata (numpy scalars as
    numbers, other objects as their text).

    Examples
    --------
    >>> json_value({"columns": [np.int64(3), "fold"], "when": pd.Timestamp(0)})
    {'columns': [3, 'fold'], 'when': '1970-01-01 00:00:00'}
    """

    def default(obj: Any) -> Any:
        if isinstance(obj, np.generic):
            return obj.item()
        if isinstance(obj, (set, frozenset)):
            return list(obj)
        return str(obj)

    return json.loads(json.dumps(value, default=default, allow_nan=True))

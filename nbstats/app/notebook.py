"""The notebook ``nbstats dashboard`` serves: a title and one cell that reads
the CSV and displays :func:`nbstats.dashboard`.

Every option is written into the cell as a Python literal (data, never code):
any path or column name is safe, and the file name and title are
Markdown-escaped. :mod:`nbstats.app.server` checks the options, builds
this notebook and serves it with Voilà.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from nbstats.app.data import fold_keyword, option_problem
from nbstats.reporting.settings import check_title, escape_markdown, python_value

__all__ = [
    "ALIASES",
    "CONTROL_CLASS",
    "DASHBOARD_CLASS",
    "KINDS",
    "NAN_POLICIES",
    "build_notebook",
    "check_options",
    "refuse_options",
]

#: The dashboards ``nbstats dashboard --kind`` can serve.
KINDS = ("bayes", "frequentist", "ranks", "folds")
#: ``--aliases`` → the ``aliases=`` of :func:`nbstats.dashboard`.
ALIASES = {"auto": "auto", "on": True, "off": False}
NAN_POLICIES = ("raise", "omit")

#: CSS class the served notebook gives each control (``nbstats-control-<name>``)
#: and the whole dashboard (``nbstats-dashboard``), so pages can be styled and
#: driven by a browser test without depending on widget labels.
CONTROL_CLASS = "nbstats-control-"
DASHBOARD_CLASS = "nbstats-dashboard"


def build_notebook(
    csv: str | os.PathLike[str],
    *,
    kind: str = "bayes",
    higher_is_better: bool = True,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    aggregate: str | None = None,
    fold: str | Sequence[str] | None = None,
    runs: int | None = None,
    title: str | None = None,
    nan_policy: str = "raise",
    aliases: str = "auto",
    sep: str = ",",
    encoding: str = "utf-8",
    no_case_column: bool = False,
) -> Any:
    """The notebook Voilà serves: a title and one cell showing the dashboard.

    The CSV is read by the kernel from its absolute path (so every page load
    sees the file as it is then), through :mod:`nbstats.io.csv` with the
    options given here (as :func:`load_scores` reads it); names and options
    are embedded as Python literals (data, never code), so any path or
    column name is safe; the file name and title are Markdown-escaped.
    ``kind="folds"`` reads long per-fold data as it is and needs ``fold``
    (the fold column(s); :func:`~nbstats.app.data.read_folds`
    recognises it) and, with a single fold column, ``runs``.

    Returns
    -------
    nbformat.NotebookNode
        A version-4 notebook with the ``python3`` kernel.

    Examples
    --------
    >>> nb = build_notebook("scores.csv", kind="ranks")
    >>> source = nb.cells[-1].source
    >>> source.splitlines()[:4]  # the served kernel's imports
    ['import logging', '', 'import nbstats', 'import nbstats.io.csv']
    >>> print(source[source.index("# a missing font"):])  # doctest: +ELLIPSIS
    # a missing font is not the reader's business
    logging.getLogger('matplotlib.font_manager').setLevel(logging.ERROR)
    scores, _ = nbstats.io.csv.read_csv(
        r'/.../scores.csv',
        sep=',',
        encoding='utf-8',
        case=None,
        no_case_column=False,
    )
    board = nbstats.dashboard(scores, kind='ranks')
    ...
    """
    import nbformat.v4 as nbf

    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}.")
    check_options(nan_policy, aliases)
    path = Path(csv).expanduser().resolve()
    refuse_options(case, algorithm, score, aggregate, no_case_column, fold, runs,
                   kind, nan_policy)  # fmt: skip
    columns = {"case": case, "algorithm": algorithm, "score": score}
    options = f"kind={kind!r}"
    if kind == "folds":
        if fold is None:
            raise ValueError(
                "kind='folds' needs fold=, the fold column(s) "
                "(read_folds recognises them)."
            )
        read = _call(
            "scores, _ = nbstats.io.csv.read_csv",
            _literal(path),
            sep=sep,
            encoding=encoding,
            case=case,
            no_case_column=False,
            long=columns,
        )
        options += "".join(f", {key}={_value(v)}" for key, v in columns.items())
        options += f", fold={_value(fold)}"
        if runs is not None:
            options += f", runs={_value(runs)}"
    elif algorithm is not None:
        keywords: dict[str, Any] = dict(columns, aggregate=aggregate)
        if fold_keyword(fold) is not None:
            keywords["fold"] = fold_keyword(fold)
        read = _call(
            "scores = nbstats.io.csv.read_scores",
            _literal(path),
            **keywords,
            nan_policy=nan_policy,
            sep=sep,
            encoding=encoding,
        )
    else:  # the dashboard validates (and names the cases nan_policy drops)
        read = _call(
            "scores, _ = nbstats.io.csv.read_csv",
            _literal(path),
            sep=sep,
            encoding=encoding,
            case=case,
            no_case_column=no_case_column,
        )
    if not higher_is_better:
        options += ", higher_is_better=False"
    if nan_policy != "raise":
        options += f", nan_policy={nan_policy!r}"
    if aliases != "auto":
        options += f", aliases={ALIASES[aliases]!r}"
    code = "\n".join(
        [
            "import logging",
            "",
            "import nbstats",
            "import nbstats.io.csv",
            "",
            "# a missing font is not the reader's business",
            "logging.getLogger('matplotlib.font_manager').setLevel(logging.ERROR)",
            read,
            f"board = nbstats.dashboard(scores, {options})",
            "# hooks for styling and browser tests",
            f"board.widget.add_class({DASHBOARD_CLASS!r})",
            "for name, control in board.controls.items():",
            f"    control.add_class({CONTROL_CLASS!r} + name)",
            "board",
        ]
    )
    direction = "higher" if higher_is_better else "lower"
    heading = f"nbstats — {_KIND_TITLES[kind]}" if title is None else check_title(title)
    ranks = "" if kind == "folds" else "; rank 1 = best"
    # Markdown-escaped: a file named "[x](javascript:...).csv" stays text
    intro = (
        f"# {escape_markdown(heading)}\n\n"
        f"Scores from <code>{escape_markdown(path.name)}</code> "
        f"({direction} scores are better{ranks}). "
        "Move a control and every view is recomputed."
    )
    nb = nbf.new_notebook(
        cells=[nbf.new_markdown_cell(intro), nbf.new_code_cell(code)],
        metadata={
            "kernelspec": {
                "name": "python3",
                "display_name": "Python 3",
                "language": "python",
            },
            "language_info": {"name": "python"},
        },
    )
    return nb


_KIND_TITLES = {
    "bayes": "Bayesian comparison dashboard",
    "frequentist": "frequentist comparison dashboard",
    "ranks": "rank confidence intervals dashboard",
    "folds": "cross-validation folds dashboard",
}


def check_options(nan_policy: str, aliases: str) -> None:
    """ValueError for an unknown ``--nan-policy`` or ``--aliases``."""
    if nan_policy not in NAN_POLICIES:
        raise ValueError(
            f"--nan-policy must be one of {', '.join(NAN_POLICIES)}; "
            f"got {nan_policy!r}."
        )
    if aliases not in ALIASES:
        raise ValueError(
            f"--aliases must be one of {', '.join(ALIASES)}; got {aliases!r}."
        )


def _plain(value: Any) -> Any:
    """``value`` in built-in types: str, int, list and dict (numpy's too)."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


def _value(value: Any) -> str:
    """A Python literal of an option: names (str) and numbers are data in the
    page's code, never code (``np.str_('x')`` is written ``'x'``)."""
    source = python_value(_plain(value))
    if source.startswith("report.unpickled("):
        raise TypeError(
            f"the dashboard takes column names as text and numbers as int, "
            f"got {value!r} ({type(value).__name__})."
        )
    return source


def _call(function: str, path: str, **keywords: Any) -> str:
    """Source of a call, one argument a line, every value a literal."""
    lines = [f"{function}(", f"    {path},"]
    lines += [f"    {name}={_value(value)}," for name, value in keywords.items()]
    return "\n".join([*lines, ")"])


def _literal(path: Path) -> str:
    """A Python literal for a path (raw string when it has no quote or
    trailing backslash, else plain repr)."""
    text = str(path)
    if "'" not in text and not text.endswith("\\") and "\n" not in text:
        return f"r'{text}'"
    return repr(text)


def refuse_options(*options: Any) -> None:
    """ValueError for options that do not go together (:func:`option_problem`'s
    positional options, then fold, runs, kind and nan_policy)."""
    *first, fold, runs, kind, nan_policy = options
    problem = option_problem(
        *first, fold=fold, runs=runs, kind=kind, nan_policy=nan_policy
    )
    if problem is not None:
        raise ValueError(f"{problem[0]}: {problem[1]}")

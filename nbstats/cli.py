"""Command line.

- ``nbstats demo``: the report on Demšar's Table 6, written to nbstats-demo.html
  (``--text`` prints the frequentist analysis of Tables 2 and 6 instead);
- ``nbstats report scores.csv -o report.html``: a report of any score CSV;
- ``nbstats analyze scores.csv``: the frequentist analysis as text;
- ``nbstats dashboard scores.csv``: a live dashboard served by Voilà on
  127.0.0.1 (see :mod:`nbstats.widgets.serve`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

import nbstats
from nbstats.results.render import format_value
from nbstats.widgets import serve as dashboard_server


def frequentist_analysis(
    table: pd.DataFrame,
    *,
    alpha: float = 0.05,
    control: str | None = None,
    higher_is_better: bool = True,
) -> str:
    """The complete frequentist analysis of a score table, as readable text.

    Friedman and Iman–Davenport, repeated-measures ANOVA, Nemenyi (with CD and
    groups), then comparisons against ``control`` (default: the worst-ranked
    algorithm) with Bonferroni–Dunn, Holm, Hochberg and Hommel, and all pairs
    with Shaffer and with Holm-adjusted Wilcoxon tests.
    """
    table = nbstats.score_table(table)
    hib = {"higher_is_better": higher_is_better}
    ranks = nbstats.mean_ranks(table, **hib)
    if control is None:
        control = str(ranks.idxmax())
    direction = "higher" if higher_is_better else "lower"
    out = [
        f"{table.shape[1]} algorithms on {table.shape[0]} cases "
        f"({direction} scores are better; rank 1 = best)",
        "",
        "Scores with ranks",
        "-----------------",
        _scores_with_ranks(table, higher_is_better),
        "",
        nbstats.friedman(table, **hib).summary(),
        "",
        nbstats.rm_anova(table).summary(),
        "",
    ]
    for level in sorted({alpha, 0.10}):
        out += [
            nbstats.posthoc(table, method="nemenyi", alpha=level, **hib).summary(),
            "",
        ]
    out += [
        nbstats.posthoc(
            table, method="bonferroni-dunn", control=control, alpha=alpha, **hib
        ).summary(),
        "",
    ]
    out.append(f"Step-down and step-up procedures against {control} (α = {alpha:g})")
    out.append("-" * len(out[-1]))
    decisions = {}
    for method in ("holm", "hochberg", "hommel"):
        res = nbstats.posthoc(table, method=method, control=control, alpha=alpha, **hib)
        decisions[method] = res.adjusted.map(format_value) + res.reject.map(
            {True: " *", False: ""}
        )
    first = nbstats.posthoc(table, method="holm", control=control, alpha=alpha, **hib)
    summary = pd.DataFrame(
        {
            "z": first.statistics.map(format_value),
            "p": first.pvalues.map(format_value),
            **{f"{m} adj. p": v for m, v in decisions.items()},
        }
    )
    out += [summary.to_string(), "(* = rejected)", ""]
    out += [nbstats.posthoc(table, method="shaffer", alpha=alpha, **hib).summary(), ""]
    out += [
        nbstats.posthoc(
            table, method="wilcoxon", adjust="holm", alpha=alpha, **hib
        ).summary(),
        "",
    ]
    return "\n".join(out)


def _scores_with_ranks(table: pd.DataFrame, higher_is_better: bool) -> str:
    ranks = nbstats.ranks(table, higher_is_better=higher_is_better)
    cells = table.map(lambda v: f"{v:.4g}") + ranks.map(lambda r: f" ({r:g})")
    cells.loc["mean rank"] = nbstats.mean_ranks(
        table, higher_is_better=higher_is_better
    ).map(lambda r: f"{r:.3f}")
    return cells.to_string()


def _demo() -> str:
    table6 = nbstats.datasets.load("demsar2006")
    table2 = nbstats.datasets.load("demsar2006_table2")
    header = (
        "nbstats demo: Demšar (2006), Tables 2 and 6 — AUC of C4.5 variants on 14 "
        "UCI data sets.\n(The 'voting' tie in Table 6 is broken as in the paper: "
        "C4.5+cf = 0.97501; see nbstats.datasets.)\n"
    )
    two = [
        "Two algorithms (Table 2): C4.5 vs C4.5+m",
        "========================================",
        "",
        table2.compare.wilcoxon("C4.5", "C4.5+m").summary(),
        "",
        table2.compare.sign_test("C4.5", "C4.5+m").summary(),
        "",
        table2.compare.ttest("C4.5", "C4.5+m").summary(),
        "",
        "Several algorithms (Table 6)",
        "============================",
        "",
    ]
    return header + "\n" + "\n".join(two) + frequentist_analysis(table6, control="C4.5")


def read_scores(
    path: str,
    *,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    aggregate: str | None = None,
) -> pd.DataFrame:
    """A score table from a CSV: wide (first column = cases) or long.

    Long data needs ``case``, ``algorithm`` and ``score``; a CSV that is not a
    wide table of numbers gets an error naming its columns and the options.
    """
    raw = pd.read_csv(path)
    if any(v is not None for v in (case, algorithm, score)):
        return nbstats.score_table(
            raw, case=case, algorithm=algorithm, score=score, aggregate=aggregate
        )
    if raw.shape[1] < 3:
        raise ValueError(
            f"{path}: a wide score CSV needs a column of case names and at least "
            f"2 columns of scores, got columns {list(raw.columns)}."
        )
    labels, values = raw.columns[0], raw.columns[1:]
    text = [c for c in values if not pd.api.types.is_numeric_dtype(raw[c])]
    if text:
        raise ValueError(
            f"{path}: column(s) {text} are not numeric, so this is not a wide "
            f"score table (first column = cases, one column of scores per "
            f"algorithm). For long data (one row per case and algorithm) pass "
            f"--case COL --algorithm COL --score COL; the columns are "
            f"{list(raw.columns)}."
        )
    return nbstats.score_table(raw.set_index(labels))


def _long_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--case", help="long data: the column of case names")
    command.add_argument("--algorithm", help="long data: the column of algorithms")
    command.add_argument("--score", help="long data: the column of scores")
    command.add_argument(
        "--aggregate",
        choices=["mean", "median"],
        help="long data: combine repeated rows (e.g. folds)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``nbstats`` command."""
    parser = argparse.ArgumentParser(
        prog="nbstats",
        description="Which algorithms are really better, and how sure can we be.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser(
        "demo",
        help="write the report on Demšar's Table 6 to nbstats-demo.html "
        "(--text: print the frequentist analysis of Tables 2 and 6 instead)",
    )
    demo.add_argument("-o", "--output", default="nbstats-demo.html")
    demo.add_argument("--text", action="store_true")
    report = commands.add_parser(
        "report", help="write a report (HTML, PDF, TeX or notebook) of a score CSV"
    )
    report.add_argument("csv", help="wide (first column = cases) or long score CSV")
    report.add_argument("-o", "--output", help="default: the CSV's name, .html")
    report.add_argument("--format", choices=["html", "pdf", "tex", "ipynb"])
    report.add_argument("--lower-is-better", action="store_true")
    report.add_argument("--title")
    report.add_argument("--alpha", type=float, default=0.05)
    report.add_argument("--seed", type=int, default=0)
    _long_options(report)
    analyze = commands.add_parser(
        "analyze", help="print the frequentist analysis of a score CSV"
    )
    analyze.add_argument("csv", help="wide (first column = cases) or long score CSV")
    analyze.add_argument("--lower-is-better", action="store_true")
    analyze.add_argument("--alpha", type=float, default=0.05)
    analyze.add_argument("--control", default=None)
    _long_options(analyze)
    dashboard = commands.add_parser(
        "dashboard",
        help="serve a live dashboard of a score CSV on 127.0.0.1 with Voilà "
        "(pip install 'nbstats[dashboard]'); Ctrl-C stops it",
    )
    dashboard_server.add_arguments(dashboard)
    args = parser.parse_args(argv)
    if args.command == "dashboard":
        return dashboard_server.run(args)
    try:
        if args.command == "demo" and args.text:
            print(_demo())
        elif args.command == "demo":
            table6 = nbstats.datasets.load("demsar2006")
            path = nbstats.report(
                table6,
                args.output,
                title="nbstats demo: Demšar (2006), Table 6",
            )
            print(f"nbstats: wrote {path}")
        elif args.command == "report":
            table = _scores_from(args)
            output = args.output or str(Path(args.csv).with_suffix(".html"))
            if args.format and args.output is None:
                output = str(Path(args.csv).with_suffix(f".{args.format}"))
            path = nbstats.report(
                table,
                output,
                format=args.format,
                title=args.title,
                higher_is_better=not args.lower_is_better,
                alpha=args.alpha,
                random_state=args.seed,
            )
            print(f"nbstats: wrote {path}")
        else:
            print(
                frequentist_analysis(
                    _scores_from(args),
                    alpha=args.alpha,
                    control=args.control,
                    higher_is_better=not args.lower_is_better,
                )
            )
    except (ValueError, TypeError, OSError, RuntimeError) as error:
        print(f"nbstats: error: {error}", file=sys.stderr)
        return 2
    return 0


def _scores_from(args: argparse.Namespace) -> pd.DataFrame:
    return read_scores(
        args.csv,
        case=args.case,
        algorithm=args.algorithm,
        score=args.score,
        aggregate=args.aggregate,
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

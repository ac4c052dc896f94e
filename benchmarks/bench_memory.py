"""Time and memory of the Bayesian tests at scale (issue 17 item 4, issue 30 item 9).

Run: ``python benchmarks/bench_memory.py [--quick] [--only NAME ...]``
(``--quick`` uses 5,000 draws for the 100-algorithm pairs and skips
``bayes_posthoc`` at 200 algorithms). ``--nbstats PATH`` runs the cases
against another checkout of nbstats (e.g. a ``git worktree`` of an older
commit), to print before/after figures with the same script.

Each case runs in its own subprocess, so its peak resident memory
(``VmHWM``) is its own: the interpreter and libraries (~200 MB) plus what
the call needs. Cases:

- ``signrank``: ``bayes_signrank`` at n = 10,000 and 100,000 cases with
  default settings (``method="auto"``: the normal approximation beyond 1,000
  cases), with the reported Monte Carlo error; and at 10,000 cases the exact
  Monte Carlo with 2,000 draws, for its time per draw and its probabilities;
- ``pairs``: ``bayes_signrank_pairs`` on 200 cases × 100 algorithms (4950
  pairs), default 50,000 draws, at the default memory ceiling and at 128 MB;
- ``pairs2000``: ``bayes_signrank_pairs`` on 10 cases × 2000 algorithms
  (1,999,000 pairs), 1,000 draws, no interval (issue 30: over 1.4 GB);
- ``posthoc``: ``bayes_posthoc(test="signrank")`` on 20 cases × 50, 100 and
  200 algorithms, default 50,000 draws (issue 30: it grew as m^3.3);
- ``posthoc_scale``: ``bayes_posthoc`` on 20 cases × 100, 200, 350, 500
  and 1000 algorithms, signed-rank (without and with a rope of 0.01) and
  sign test (rope 0.01), 50,000 and 1,000 draws (``--quick``: 1,000 only);
  sizes whose working memory is over the ceiling are refused up front
  (issue 30 item 9: 1000 algorithms went over 1.2 GB), shown as
  "refused, about … MB needed";
- ``dashboard``: the Bayesian dashboard on 20 cases × 200 algorithms, default
  draws, at the default ceiling and at ``NBSTATS_MAX_MEMORY=256M`` (issue 30:
  1.1 GB whatever the ceiling);
- ``plackett_luce``: ``bayes_plackett_luce`` on 30 cases × 10 algorithms
  with 1,000,000 draws (``--quick``: 200,000), and on 30 × 4 with 2·10^7 and
  10^12 draws, which are over the default ceiling and refused up front
  (issue 34 finding 3: 1.16 GB, 9.8 GB, and numpy's "Unable to allocate
  21.8 TiB"; the last two are left out with ``--quick`` and ``--nbstats``,
  as a checkout from before the fix would try to allocate them);
- ``pairs_time`` (issue 34, finding 10): ``bayes_signrank_pairs`` and
  ``bayes_posthoc`` on 30 cases × 100 and 300 algorithms, and the explicit
  Monte Carlo of ``bayes_signrank`` over 100,000 cases;
- ``report_size`` (issue 34, finding 9): the report's text of 1000
  algorithms × 30 cases, refused before it starts;
- ``cli_large_csv`` (:func:`bench_cli_large_csv`): the command ``nbstats
  analyze big.csv --analyses frequentist`` on a CSV of 10^5 and 10^6 cases ×
  3 algorithms (issue 34 item 8: 319 s, 5.48 GB and 58 MB of output at 10^6),
  with the peak of the command and its kernel together (sampled every 0.1 s)
  and the size of what it prints. ``--before COMMIT`` also runs it on that
  commit, exported to a temporary directory (e.g. ``--before a50c0f9``).

The machine's load average is printed before and after: other work slows
everything down (memory figures are not affected). The CPU seconds (all
threads) are less sensitive to it than the wall-clock seconds.

Figures once stated in the package's comments (moved here in issue 37; recorded,
not re-measured by this script, on a 2-vCPU machine):

- ``nbstats.stats.bayes.signrank.pairs``: ranking n × block differences for
  the effects took about eight times their size (52 MB for 200 × 4096).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent(
    """
    import json, time, warnings
    import numpy as np, pandas as pd
    import nbstats

    case = json.loads(CASE)
    rng = np.random.default_rng(0)
    nbstats.bayes_signrank(rng.normal(size=30), rng.normal(size=30),
                           n_samples=1000)  # imports and compiled kernels
    out = {}
    if case["kind"] == "plackett_luce":  # its compiled kernels
        nbstats.bayes_plackett_luce(rng.normal(size=(10, 3)), n_samples=400)
    start, cpu = time.perf_counter(), time.process_time()
    if case["kind"] == "plackett_luce":
        m, n = case["m"], 30
        table = pd.DataFrame(rng.normal(size=(n, m)) + np.linspace(0, 1, m))
        try:
            res = nbstats.bayes_plackett_luce(table, random_state=0, **case["kw"])
        except (ValueError, MemoryError) as error:
            out.update(n_samples=case["kw"]["n_samples"],
                       shown="refused: " + str(error).split("; ")[-1])
        else:
            out.update(n_samples=res.n_samples,
                       shown=f"P(best) of the last {res.prob_best.iloc[-1]:.3f}")
    elif case["kind"] == "signrank":
        n = case["n"]
        a = rng.normal(0.8, 0.05, n)
        b = a + rng.normal(0.0003, 0.02, n)
        res = nbstats.bayes_signrank(a, b, rope=0.001, random_state=0,
                                     **case["kw"])
        out.update(method=res.method, n_samples=res.n_samples,
                   mc_error=res.mc_error, prob_right=res.prob_right,
                   prob_rope=res.prob_rope, ci=list(res.credible_interval))
    else:
        m, n = case["m"], case.get("n", 200)
        table = pd.DataFrame(rng.normal(0.8, 0.05, (n, m))
                             + np.linspace(0, 0.02, m),
                             columns=[f"alg{j}" for j in range(m)])
        if case["kind"] == "pairs":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = nbstats.bayes_signrank_pairs(table, random_state=0,
                                                   **case["kw"])
            out.update(pairs=len(res.pairs), n_samples=res.n_samples,
                       mc_error=res.mc_error)
        elif case["kind"] == "posthoc":
            kw = {"test": "signrank", **case["kw"]}
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    res = nbstats.bayes_posthoc(table, random_state=0, **kw)
            except ValueError as error:  # over the memory ceiling
                out.update(pairs=m * (m - 1) // 2, n_samples=kw.get("n_samples"),
                           accepted="refused, " + str(error).split(" of working")[0]
                           .split("needs ")[-1] + " needed")
            else:
                out.update(pairs=len(res.statements), n_samples=res.n_samples,
                           accepted=f"{res.statements['accepted'].sum()} "
                                    "statements accepted")
        else:
            from nbstats.widgets.bayes import BayesDashboard
            dash = BayesDashboard(table, random_state=0, **case["kw"])
            dash.controls["s"].value = 1.0
            dash.wait()
            out.update(pairs=len(dash.result.get("pairs", [])),
                       n_samples=dash.n_samples,
                       shown=dash.error or "every view")
    out["seconds"] = time.perf_counter() - start
    out["cpu"] = time.process_time() - cpu
    # VmHWM: this process's own high-water mark (ru_maxrss keeps the
    # parent's across exec)
    with open("/proc/self/status") as status:
        out["peak_mb"] = next(
            int(l.split()[1]) / 1024 for l in status if l[:6] == "VmHWM:"
        )
    print(json.dumps(out))
    """
)


def run(case: dict, ceiling: str | None = None, path: str | None = None) -> dict:
    env = dict(os.environ)
    env.pop("NBSTATS_MAX_MEMORY", None)
    if ceiling:
        env["NBSTATS_MAX_MEMORY"] = ceiling
    if path:
        env["PYTHONPATH"] = path
    code = CHILD.replace("CASE", repr(json.dumps(case)))
    # -P: not the current directory first on sys.path, or a run from a
    # checkout would import that checkout's nbstats, not PYTHONPATH's
    done = subprocess.run(
        [sys.executable, "-P", "-c", code], capture_output=True, text=True, env=env
    )
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1][:200]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def line(label: str, out: dict, detail: str) -> str:
    if "error" in out:
        return f"  {label:<38} failed: {out['error']}"
    return (
        f"  {label:<30} {out['seconds']:7.1f} s ({out.get('cpu', float('nan')):6.1f} s "
        f"CPU)  peak {out['peak_mb']:5.0f} MB  " + detail.format(**out)
    )


def signrank(args: argparse.Namespace) -> None:
    print("\nbayes_signrank, rope 0.001 (peak RSS of the whole process)")
    cases = [
        ("n = 10,000, defaults", {"kind": "signrank", "n": 10_000, "kw": {}}),
        ("n = 100,000, defaults", {"kind": "signrank", "n": 100_000, "kw": {}}),
        (
            "n = 10,000, Monte Carlo, 2,000 draws",
            {
                "kind": "signrank",
                "n": 10_000,
                "kw": {"method": "montecarlo", "n_samples": 2000},
            },
        ),
    ]
    for label, case in cases:
        out = run(case, path=args.nbstats)
        print(
            line(
                label,
                out,
                "{method}, {n_samples:,} draws, MC error {mc_error:.4f}; "
                "P(right) {prob_right:.4f}, P(rope) {prob_rope:.4f}",
            )
        )


def pairs(args: argparse.Namespace) -> None:
    draws = 5000 if args.quick else 50_000
    print(f"\nbayes_signrank_pairs, 200 cases x 100 algorithms, {draws:,} draws")
    for ceiling in (None, "128M"):
        case = {"kind": "pairs", "m": 100, "kw": {"n_samples": draws}}
        out = run(case, ceiling, args.nbstats)
        label = f"ceiling {ceiling or '512M (default)'}"
        print(line(label, out, "{pairs} pairs, MC error {mc_error:.4f}"))


def pairs2000(args: argparse.Namespace) -> None:
    print("\nbayes_signrank_pairs, 10 cases x 2000 algorithms, 1,000 draws")
    case = {
        "kind": "pairs",
        "m": 2000,
        "n": 10,
        "kw": {"n_samples": 1000, "interval": False},
    }
    out = run(case, None, args.nbstats)
    print(line("default ceiling", out, "{pairs:,} pairs"))


def posthoc(args: argparse.Namespace) -> None:
    print("\nbayes_posthoc(test='signrank'), 20 cases, 50,000 draws")
    sizes = (50, 100) if args.quick else (50, 100, 200)
    for m in sizes:
        case = {"kind": "posthoc", "m": m, "n": 20, "kw": {}}
        out = run(case, None, args.nbstats)
        print(line(f"m = {m}", out, "{pairs:,} pairs: {accepted}"))


def posthoc_scale(args: argparse.Namespace) -> None:
    sizes = (100, 200, 350, 500, 1000)
    draws = (1000,) if args.quick else (50_000, 1000)
    for test, rope in (("signrank", 0.0), ("signrank", 0.01), ("sign", 0.01)):
        print(f"\nbayes_posthoc(test={test!r}, rope={rope}), 20 cases")
        for n_samples in draws:
            for m in sizes:
                kw = {"test": test, "rope": rope, "n_samples": n_samples}
                case = {"kind": "posthoc", "m": m, "n": 20, "kw": kw}
                out = run(case, None, args.nbstats)
                print(
                    line(
                        f"m = {m}, {n_samples:,} draws",
                        out,
                        "{pairs:,} pairs: {accepted}",
                    )
                )


def dashboard(args: argparse.Namespace) -> None:
    print("\nBayesDashboard, 20 cases x 200 algorithms, default draws, s moved once")
    for ceiling in (None, "256M"):
        case = {"kind": "dashboard", "m": 200, "n": 20, "kw": {}}
        out = run(case, ceiling, args.nbstats)
        label = f"ceiling {ceiling or '512M (default)'}"
        print(line(label, out, "{pairs:,} pairs, {n_samples:,} draws; {shown}"))


def plackett_luce(args: argparse.Namespace) -> None:
    print("\nbayes_plackett_luce, 30 cases")
    sizes = [(10, 200_000 if args.quick else 1_000_000)]
    if not args.quick and not args.nbstats:
        sizes += [(4, 20_000_000), (4, 10**12)]
    for m, n_samples in sizes:
        case = {"kind": "plackett_luce", "m": m, "kw": {"n_samples": n_samples}}
        out = run(case, None, args.nbstats)
        print(line(f"m = {m}, {n_samples:,} draws", out, "{shown}"))


# -- issue 34, findings 9 and 10: the pairs' time, the report's refusal --------

CHILD_R3 = textwrap.dedent(
    """
    import json, time, warnings
    import numpy as np, pandas as pd
    import nbstats

    warnings.simplefilter("ignore")
    case = json.loads(CASE)
    rng = np.random.default_rng(0)
    small = rng.normal(size=(6, 4))
    nbstats.bayes_signrank_pairs(small, n_samples=1000)  # compiled kernels
    nbstats.bayes_posthoc(small, test="signrank", n_samples=1000)
    m, n = case["m"], case["n"]
    table = pd.DataFrame(rng.normal(size=(n, m)) + np.linspace(0, 1, m),
                         columns=[f"alg{j}" for j in range(m)])
    out = {}
    start, cpu = time.perf_counter(), time.process_time()
    try:
        if case["kind"] == "pairs":
            res = nbstats.bayes_signrank_pairs(table, random_state=0, **case["kw"])
            out["what"] = f"{len(res.pairs):,} pairs"
        elif case["kind"] == "posthoc":
            res = nbstats.bayes_posthoc(table, random_state=0, **case["kw"])
            out["what"] = (f"{len(res.statements):,} statements, "
                           f"{int(res.statements['accepted'].sum())} accepted")
        elif case["kind"] == "montecarlo":
            res = nbstats.bayes_signrank(
                rng.normal(size=n), rng.normal(size=n), method="montecarlo",
                random_state=0, **case["kw"])
            out["what"] = f"P(right) {res.prob_right:.4f}"
        else:  # the report's text, as nbstats analyze prints it
            from nbstats.reporting import report_text
            report_text(table, **case["kw"])
            out["what"] = "ran"
    except ValueError as error:
        out["what"] = "refused: " + str(error)[:90] + "..."
    out["seconds"] = time.perf_counter() - start
    out["cpu"] = time.process_time() - cpu
    # VmHWM: this process's own high-water mark (ru_maxrss keeps the
    # parent's across exec)
    with open("/proc/self/status") as status:
        out["peak_mb"] = next(
            int(l.split()[1]) / 1024 for l in status if l[:6] == "VmHWM:"
        )
    print(json.dumps(out))
    """
)


def _run_r3(case: dict, path: str | None) -> dict:
    env = dict(os.environ)
    env.pop("NBSTATS_MAX_MEMORY", None)
    if path:
        env["PYTHONPATH"] = path
    code = CHILD_R3.replace("CASE", repr(json.dumps(case)))
    done = subprocess.run(
        [sys.executable, "-P", "-c", code], capture_output=True, text=True, env=env
    )
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1][:200]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def pairs_time(args: argparse.Namespace) -> None:
    """Issue 34, finding 10: the Bayesian pairs at m = 100 and 300 (30
    cases), the joint statements and the explicit Monte Carlo at 100,000
    cases; run with ``--nbstats`` on a checkout of a50c0f9 for "before".
    ``--quick``: 5,000 draws at m = 300."""
    draws300 = 5000 if args.quick else 50_000
    cases = [
        ("pairs m = 100", {"kind": "pairs", "m": 100, "n": 30, "kw": {}}),
        ("pairs m = 300", {"kind": "pairs", "m": 300, "n": 30,
                           "kw": {"n_samples": draws300}}),
        ("posthoc signrank m = 100", {"kind": "posthoc", "m": 100, "n": 30,
                                      "kw": {"test": "signrank"}}),
        ("posthoc signrank m = 300", {"kind": "posthoc", "m": 300, "n": 30,
                                      "kw": {"test": "signrank",
                                             "n_samples": draws300}}),
        ("posthoc sign m = 300, rope", {"kind": "posthoc", "m": 300, "n": 30,
                                        "kw": {"test": "sign", "rope": 0.1,
                                               "n_samples": draws300}}),
        ("Monte Carlo n = 100,000", {"kind": "montecarlo", "m": 1, "n": 100_000,
                                     "kw": {"n_samples": 2000}}),
    ]  # fmt: skip
    print(f"\nBayesian pairs, 30 cases (m = 300: {draws300:,} draws)")
    for label, case in cases:
        print(line(label, _run_r3(case, args.nbstats), "{what}"))


def report_size(args: argparse.Namespace) -> None:
    """Issue 34, finding 9: the report's text (``nbstats analyze``) of 1000
    algorithms x 30 cases, all analyses and frequentist + ranks: refused
    before starting (after: a fraction of a second)."""
    print("\nreport_text, 1000 algorithms x 30 cases, default ceiling")
    for label, kw in (
        ("all analyses", {}),
        ("frequentist, ranks", {"analyses": ["frequentist", "ranks"]}),
    ):
        case = {"kind": "report", "m": 1000, "n": 30, "kw": kw}
        print(line(label, _run_r3(case, args.nbstats), "{what}"))


def _tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/status") as status:
                for text in status:
                    if text.startswith("VmRSS:"):
                        total += int(text.split()[1]) * 1024
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo += [int(c) for c in children.read().split()]
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
    return total


def _cli_run(
    csv: str, path: str | None, timeout: float, ceiling: str | None = None
) -> dict:
    """Wall time, peak memory (command + kernel) and output of ``analyze``."""
    import tempfile
    import time

    env = dict(os.environ)
    env.pop("NBSTATS_MAX_MEMORY", None)
    if ceiling:
        env["NBSTATS_MAX_MEMORY"] = ceiling
    if path:
        env["PYTHONPATH"] = path
    argv = [sys.executable, "-P", "-m", "nbstats.cli", "analyze", csv]
    argv += ["--analyses", "frequentist"]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        peak = 0
        while child.poll() is None:
            peak = max(peak, _tree_rss(child.pid))
            if time.perf_counter() - start > timeout:
                child.kill()  # only the command we started, by its id
                child.wait()
                return {"error": f"stopped after {timeout:.0f} s, peak {peak >> 20} MB"}
            time.sleep(0.1)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        printed, message = out.read(), err.read().decode(errors="replace")
    result = {"seconds": seconds, "peak_mb": peak / 2**20, "bytes": len(printed)}
    if child.returncode != 0:
        result["refused"] = message.strip().splitlines()[-1][:300]
    return result


def bench_cli_large_csv(args: argparse.Namespace) -> None:
    """``nbstats analyze`` on a 10^6-row CSV, before and after (issue 34 item 8)."""
    import tempfile

    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    folder = tempfile.mkdtemp(prefix="nbstats-bench-cli-")
    sizes = (10**5,) if args.quick else (10**5, 10**6)
    files = {}
    for n in sizes:
        table = pd.DataFrame(
            rng.normal(0.8, 0.05, (n, 3)).round(4),
            columns=list("ABC"),
            index=pd.Index([f"c{i}" for i in range(n)], name="case"),
        )
        files[n] = os.path.join(folder, f"scores-{n}.csv")
        table.to_csv(files[n])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    checkouts = [("this checkout", args.nbstats or root)]
    if args.before:
        old = os.path.join(folder, "before")
        os.mkdir(old)
        archive = subprocess.run(
            ["git", "-C", root, "archive", args.before, "nbstats", "report_templates"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        checkouts.insert(0, (f"before ({args.before})", old))
    try:
        _bench_cli_runs(args, files, checkouts)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _bench_cli_runs(args: argparse.Namespace, files: dict, checkouts: list) -> None:
    for label, path in checkouts:
        print(f"\nnbstats analyze CSV --analyses frequentist, 3 algorithms: {label}")
        for n, csv in files.items():
            mb = os.path.getsize(csv) / 2**20
            # the default ceiling, and at 10^6 cases one that lets it run
            # (this checkout refuses it at the default 512 MB)
            large = n >= 10**6 and label == "this checkout"
            ceilings = [None, "1G"] if large else [None]
            for ceiling in ceilings:
                out = _cli_run(csv, path, timeout=args.timeout, ceiling=ceiling)
                where = f"{n:>9,} cases ({mb:.0f} MB)" + (
                    f", NBSTATS_MAX_MEMORY={ceiling}" if ceiling else ""
                )
                if "error" in out:
                    print(f"  {where}  {out['error']}")
                    continue
                what = out.get("refused") or f"printed {out['bytes'] / 2**20:.2f} MB"
                print(
                    f"  {where}  {out['seconds']:7.1f} s  "
                    f"peak {out['peak_mb']:6.0f} MB  {what}"
                )


CASES = {
    "signrank": signrank,
    "pairs": pairs,
    "pairs2000": pairs2000,
    "posthoc": posthoc,
    "posthoc_scale": posthoc_scale,
    "dashboard": dashboard,
    "plackett_luce": plackett_luce,
    "pairs_time": pairs_time,
    "report_size": report_size,
    "cli_large_csv": bench_cli_large_csv,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", nargs="*", choices=sorted(CASES), default=None)
    parser.add_argument(
        "--nbstats", default=None, help="directory to put first on PYTHONPATH"
    )
    parser.add_argument(
        "--before",
        default=None,
        metavar="COMMIT",
        help="cli_large_csv: also run the command of this commit (git archive)",
    )
    parser.add_argument(
        "--timeout", type=float, default=900.0, help="cli_large_csv: seconds per run"
    )
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {load()} (1, 5, 15 min)")
    if args.nbstats:
        print(f"nbstats from {args.nbstats}")
    for name in args.only or list(CASES):
        CASES[name](args)
    print(f"\nload average at the end: {load()}")


if __name__ == "__main__":
    main()

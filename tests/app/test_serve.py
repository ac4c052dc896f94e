"""The notebook ``nbstats dashboard`` serves, and the serving plumbing.

The real server in a real browser is tested in ``test_browser.py``.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from nbstats.app import notebook as serve_notebook
from nbstats.app import process as serve_process
from nbstats.app import server as serve
from nbstats.app.voila import CappedKernelManager, limit_message
from nbstats.reporting.settings import escape_markdown
from nbstats.util import interrupts
from nbstats.util.malloc_arenas import ARENAS
from nbstats.widgets import dashboard as dashboard_module

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


@pytest.fixture
def wide_csv(tmp_path, table6):
    # a directory name that needs quoting in Python source
    folder = tmp_path / 'it\'s a "dir"'
    folder.mkdir()
    path = folder / "demsar 2006.csv"
    table6.to_csv(path)
    return path


@pytest.fixture
def long_csv(tmp_path, table6):
    path = tmp_path / "long.csv"
    long = (-table6).stack().rename("error").reset_index()
    long.columns = ["data", "algo", "error"]
    long.to_csv(path, index=False)
    return path


def execute(nb):
    from nbclient import NotebookClient

    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    return nb


def widget_views(nb):
    """model ids of the widgets the code cell displayed."""
    return [
        out["data"][WIDGET_VIEW]["model_id"]
        for out in nb.cells[-1].outputs
        if WIDGET_VIEW in out.get("data", {})
    ]


@pytest.fixture
def fold_csv(tmp_path):
    """3 data sets x 3 classifiers x 10 runs of 10-fold CV, in a folder whose
    name needs quoting."""
    import nbstats

    folder = tmp_path / 'it\'s "folds"'
    folder.mkdir()
    data = nbstats.datasets.load("uci_accuracy_folds")
    keep = data.dataset.isin(["iris", "wine", "glass"]) & data.classifier.isin(
        ["nbc", "aode", "hnb"]
    )
    path = folder / "uci folds.csv"
    data[keep].to_csv(path, index=False)
    return path


FOLD_OPTIONS = {"case": "dataset", "algorithm": "classifier", "score": "accuracy"}
LONG_ARGS = ["--case", "d", "--algorithm", "a", "--score", "s"]


@pytest.mark.parametrize("kind", serve.KINDS)
def test_notebook_shows_the_dashboard_widget(wide_csv, fold_csv, kind):
    if kind == "folds":
        nb = serve.build_notebook(
            fold_csv, kind=kind, fold="fold", runs=10, **FOLD_OPTIONS
        )
    else:
        nb = serve.build_notebook(wide_csv, kind=kind)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    execute(nb)
    errors = [out for out in nb.cells[-1].outputs if out.output_type == "error"]
    assert not errors, errors
    views = widget_views(nb)
    assert len(views) == 1
    # the displayed model is the dashboard, saved in the widget state with
    # its class (the hook styling and the browser test use)
    state = nb.metadata.widgets[WIDGET_STATE]["state"]
    model = state[views[0]]
    assert serve_notebook.DASHBOARD_CLASS in model["state"]["_dom_classes"]
    classes = {c for m in state.values() for c in m["state"].get("_dom_classes", ())}
    assert any(c.startswith(serve_notebook.CONTROL_CLASS) for c in classes)
    # sources are for Voilà to strip; the title says which file and direction
    name = "uci folds.csv" if kind == "folds" else "demsar 2006.csv"
    assert escape_markdown(name) in nb.cells[0].source  # shown as it is
    assert "higher scores are better" in nb.cells[0].source


def test_long_data_lower_is_better(long_csv):
    nb = serve.build_notebook(
        long_csv,
        kind="frequentist",
        case="data",
        algorithm="algo",
        score="error",
        higher_is_better=False,
    )
    assert "higher_is_better=False" in nb.cells[-1].source
    assert "lower scores are better" in nb.cells[0].source
    execute(nb)
    assert len(widget_views(nb)) == 1
    assert not [out for out in nb.cells[-1].outputs if out.output_type == "error"]


def test_kinds_match_the_dashboards():
    assert set(serve.KINDS) == set(dashboard_module.KINDS)
    with pytest.raises(ValueError, match="kind must be one of"):
        serve.build_notebook("x.csv", kind="bayesian")


def test_load_scores_validates_wide_and_long(wide_csv, long_csv, table6):
    wide = serve.load_scores(wide_csv)
    assert list(wide.columns) == list(table6.columns)
    long = serve.load_scores(long_csv, case="data", algorithm="algo", score="error")
    assert long.shape == table6.shape
    with pytest.raises(FileNotFoundError, match="no such score file"):
        serve.load_scores(wide_csv.with_name("missing.csv"))
    with pytest.raises(ValueError, match="missing: --algorithm"):
        serve.load_scores(long_csv, case="data", score="error")
    with pytest.raises(ValueError, match="--aggregate: applies to long data"):
        serve.load_scores(wide_csv, aggregate="mean")
    with pytest.raises(ValueError, match="--no-case-column: not with --case"):
        serve.load_scores(wide_csv, case="data", no_case_column=True)
    # score_table's errors name the file, as the report's do
    lines = long_csv.read_text().splitlines()
    folds = long_csv.with_name("folds.csv")
    folds.write_text("\n".join(lines + lines[1:]) + "\n")  # every row twice
    with pytest.raises(ValueError, match=r"folds\.csv: 56 duplicated \(data, algo"):
        serve.load_scores(folds, case="data", algorithm="algo", score="error")
    both = serve.load_scores(
        folds, case="data", algorithm="algo", score="error", aggregate="median"
    )
    assert both.equals(long)


def test_the_kernel_reads_the_csv_as_the_report_does(wide_csv, long_csv):
    nb = serve.build_notebook(
        wide_csv, case="case", sep=";", encoding="latin-1", no_case_column=False
    )
    code = nb.cells[-1].source
    assert "import nbstats.io.csv" in code and "pd.read_csv" not in code
    # every argument is a literal: the call reads the file with these options
    (call,) = [n for n in ast.parse(code).body if isinstance(n, ast.Assign)][:1]
    assert ast.unparse(call.value.func) == "nbstats.io.csv.read_csv"
    (path,) = (ast.literal_eval(arg) for arg in call.value.args)
    values = {k.arg: ast.literal_eval(k.value) for k in call.value.keywords}
    values["path"] = path
    assert values == {
        "path": str(wide_csv.resolve()),
        "sep": ";",
        "encoding": "latin-1",
        "case": "case",
        "no_case_column": False,
    }
    long = (
        serve.build_notebook(
            long_csv, case="data", algorithm="algo", score="error", aggregate="mean"
        )
        .cells[-1]
        .source
    )
    assert "scores = nbstats.io.csv.read_scores(" in long
    for part in ("case='data'", "algorithm='algo'", "aggregate='mean'", "sep=','"):
        assert part in long
    with pytest.raises(ValueError, match="missing: --case"):
        serve.build_notebook(long_csv, algorithm="algo", score="error")


def test_voila_command_is_local_headless_and_hides_code(tmp_path):
    command = serve.voila_command(tmp_path / "d.ipynb", port=8123, connection_dir="/c")
    assert command[:3] == [sys.executable, "-m", "voila"]
    for flag in [
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        "--port=8123",
        "--Voila.port_retries=0",
        "--strip_sources=True",
        "--Voila.connection_dir_root=/c",
    ]:
        assert flag in command


def test_free_port_is_bindable():
    import socket

    port = serve.free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


def test_bad_input_is_reported_before_starting_voila(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("case,A\nd1,0.5\nd2,0.7\n")  # a single algorithm
    assert serve.main([str(bad)]) == 2
    assert "nbstats: error:" in capsys.readouterr().err
    assert serve.main([str(tmp_path / "none.csv"), "--kind", "ranks"]) == 2
    assert "no such score file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        serve.main([str(bad), "--kind", "nope"])


def fake_voila(*lines, then="pass"):
    body = "; ".join([f"print({line!r}, flush=True)" for line in lines] + [then])
    return [sys.executable, "-c", body]


def test_url_is_printed_once_the_server_listens(tmp_path, capsys):
    command = fake_voila(
        "[Voila] Voilà is running at:", "http://127.0.0.1:8123/", "[Voila] later"
    )
    code = serve_process.run_voila(
        command, cwd=str(tmp_path), env={}, out=sys.stdout, log=sys.stderr
    )
    captured = capsys.readouterr()
    assert code == 0
    assert captured.out == "nbstats dashboard: http://127.0.0.1:8123/\n"
    assert "[Voila] later" in captured.err  # Voilà's log is relayed


def test_a_server_that_never_listens_is_an_error(tmp_path, capsys):
    command = fake_voila("[Voila] ERROR: no port", then="raise SystemExit(1)")
    code = serve_process.run_voila(
        command, cwd=str(tmp_path), env={}, out=sys.stdout, log=sys.stderr
    )
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert "stopped before serving the dashboard" in captured.err


def test_voila_starts_with_sigint_ignored(tmp_path, capsys):
    # Ctrl-C in a terminal reaches the whole group: only the server reacts
    command = fake_voila(
        "[Voila] Voilà is running at:",
        "http://127.0.0.1:8123/",
        then="import signal; print('ignored:', "
        "signal.getsignal(signal.SIGINT) == signal.SIG_IGN, flush=True)",
    )
    code = serve_process.run_voila(
        command, cwd=str(tmp_path), env={}, out=sys.stdout, log=sys.stderr
    )
    assert code == 0
    assert "ignored: True" in capsys.readouterr().err


def serve_fake_voila(tmp_path, monkeypatch, on_start):
    """run_voila on a fake Voilà that serves for a minute, ``on_start()``
    called as Popen returns; its status and the process started."""
    real = subprocess.Popen
    started = []

    def popen(*args, **kwargs):
        process = real(*args, **kwargs)
        started.append(process)
        on_start()
        return process

    monkeypatch.setattr(serve_process.subprocess, "Popen", popen)
    command = fake_voila(
        "[Voila] Voilà is running at:",
        "http://127.0.0.1:8123/",
        then="import time; time.sleep(60)",
    )
    code = serve_process.run_voila(
        command, cwd=str(tmp_path), env={}, out=sys.stdout, log=sys.stderr
    )
    return code, started[0]


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_signal_while_voila_starts_stops_it(tmp_path, capsys, monkeypatch, name):
    # the signal came while Popen ran: it was lost (SIGINT was ignored then),
    # and raised inside Popen it would have left Voilà running
    import os
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are the main thread's")
    code, process = serve_fake_voila(
        tmp_path,
        monkeypatch,
        lambda: os.kill(os.getpid(), getattr(signal, name)),  # comes in now
    )
    assert code == 0
    assert "stopping Voilà" in capsys.readouterr().err
    assert process.poll() is not None  # stopped, not left running


@pytest.fixture
def noted_interrupts():
    interrupts.clear_interrupts()
    yield
    interrupts.clear_interrupts()


def test_a_dropped_interrupt_keeps_voila_from_starting(
    tmp_path, monkeypatch, noted_interrupts
):
    # the handler noted SIGTERM, but its KeyboardInterrupt was dropped (raised
    # inside a finalizer): Voilà must not start and serve on
    import signal

    def popen(*args, **kwargs):
        raise AssertionError("Voilà was started after an interrupt")

    monkeypatch.setattr(serve_process.subprocess, "Popen", popen)
    interrupts.record_interrupt(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt) as caught:
        serve_process.run_voila(
            fake_voila("never"), cwd=str(tmp_path), env={}, out=sys.stdout,
            log=sys.stderr,
        )  # fmt: skip
    assert caught.value.signum == signal.SIGTERM  # the command's exit status


def test_a_dropped_interrupt_while_voila_runs_stops_it(
    tmp_path, capsys, monkeypatch, noted_interrupts
):
    import signal

    code, process = serve_fake_voila(
        tmp_path,
        monkeypatch,
        lambda: interrupts.record_interrupt(signal.SIGINT),  # exception lost
    )
    assert code == 0
    assert "stopping Voilà" in capsys.readouterr().err
    assert process.poll() is not None  # stopped, not left running
    # acted on: the next server in this process starts
    assert serve_process.run_voila(
        fake_voila("[Voila] Voilà is running at:", "http://127.0.0.1:8123/"),
        cwd=str(tmp_path), env={}, out=sys.stdout, log=sys.stderr,
    ) == 0  # fmt: skip


def test_top_level_import_stays_light():
    # the CLI imports this module: no widgets, Voilà or nbformat at import
    code = (
        "import sys, nbstats.app.server; "
        "bad = [m for m in ('ipywidgets', 'voila', 'nbformat', 'matplotlib') "
        "if m in sys.modules]; print(bad)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_missing_voila_says_which_extra_to_install(tmp_path, capsys, monkeypatch):
    csv = tmp_path / "scores.csv"
    csv.write_text("case,A,B\nd1,0.5,0.6\nd2,0.7,0.9\n")
    find_spec = serve.importlib.util.find_spec
    monkeypatch.setattr(
        serve.importlib.util,
        "find_spec",
        lambda name, *args: None if name == "voila" else find_spec(name, *args),
    )
    assert serve.main([str(csv)]) == 2
    assert "pip install 'nbstats[dashboard]'" in capsys.readouterr().err


def test_nan_policy_and_aliases_options(tmp_path, table6):
    import argparse

    parser = serve.add_arguments(argparse.ArgumentParser(prog="nbstats dashboard"))
    args = parser.parse_args(["x.csv", "--nan-policy", "omit", "--aliases", "off"])
    assert (args.nan_policy, args.aliases) == ("omit", "off")
    defaults = parser.parse_args(["x.csv"])
    assert (defaults.nan_policy, defaults.aliases) == ("raise", "auto")
    text = parser.format_help()
    assert "--nan-policy {raise,omit}" in text and "--aliases {auto,on,off}" in text
    assert "drops every case" in text and "longer than 20 characters" in text
    with pytest.raises(SystemExit):
        parser.parse_args(["x.csv", "--aliases", "yes"])

    holes = table6.set_axis(
        [f"{name} with a rather long configuration" for name in table6], axis=1
    )
    holes.iloc[3, 0] = float("nan")
    path = tmp_path / "holes.csv"
    holes.to_csv(path)
    nb = serve.build_notebook(path, kind="ranks", nan_policy="omit", aliases="on")
    assert "nan_policy='omit', aliases=True" in nb.cells[-1].source
    execute(nb)
    assert not [out for out in nb.cells[-1].outputs if out.output_type == "error"]
    state = nb.metadata.widgets[WIDGET_STATE]["state"]
    texts = " ".join(str(m["state"].get("value", "")) for m in state.values())
    assert "dropped 1 case" in texts and "<b>A</b> = C4.5 with a rather" in texts
    with pytest.raises(ValueError, match="--aliases must be one of"):
        serve.build_notebook(path, aliases="yes")
    with pytest.raises(ValueError, match="--nan-policy must be one of"):
        serve.build_notebook(path, nan_policy="drop")


# -- the lock: token, kernel cap, culling (real servers: tests/reliability) ----


def test_voila_command_locks_the_server(tmp_path):
    command = serve.voila_command(
        tmp_path / "d.ipynb", port=8123, max_kernels=2, cull_idle=600
    )
    for flag in [
        "--Voila.auto_token=True",
        f"--VoilaConfiguration.multi_kernel_manager_class={serve_process.KERNEL_MANAGER}",
        "--CappedKernelManager.max_kernels=2",
        "--CappedKernelManager.cull_idle_timeout=600",
        "--CappedKernelManager.cull_interval=60",
        "--CappedKernelManager.cull_connected=True",
    ]:
        assert flag in command
    assert not any(arg.startswith("--Voila.token") for arg in command)
    open_command = serve.voila_command("d.ipynb", port=1, token=False, cull_idle=2)
    assert "--Voila.auto_token=False" in open_command
    assert "--CappedKernelManager.cull_interval=1" in open_command
    # the class Voilà is told to import exists under that name
    module, name = serve_process.KERNEL_MANAGER.rsplit(".", 1)
    assert getattr(importlib.import_module(module), name) is CappedKernelManager
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="--max-kernels must be a whole number"):
            serve.voila_command("d.ipynb", port=1, max_kernels=bad)
    with pytest.raises(ValueError, match="--cull-idle must be a whole number"):
        serve.voila_command("d.ipynb", port=1, cull_idle=-5)


def test_input_options_are_the_reports(tmp_path):
    import argparse

    from nbstats.cli.options import build_parser

    parser = serve.add_arguments(argparse.ArgumentParser(prog="nbstats dashboard"))
    defaults = parser.parse_args(["x.csv"])
    assert (defaults.sep, defaults.encoding, defaults.no_case_column) == (
        ",",
        "utf-8",
        False,
    )
    args = parser.parse_args(
        ["x.csv", "--sep", "tab", "--encoding", "latin-1", "--no-case-column"]
    )
    assert (args.sep, args.encoding, args.no_case_column) == ("\t", "latin-1", True)
    for bad in (["--sep", "ab"], ["--encoding", "no-such-codec"]):
        with pytest.raises(SystemExit):
            parser.parse_args(["x.csv", *bad])
    # the same help text as the report's, option by option
    commands = build_parser()._subparsers._group_actions[0].choices
    helps = {
        name: {a.option_strings[-1]: a.help for a in c._actions if a.option_strings}
        for name, c in commands.items()
    }
    for option in ("--sep", "--encoding", "--no-case-column", "--algorithm"):
        assert helps["dashboard"][option] == helps["report"][option]
    assert helps["dashboard"]["--case"] in helps["report"]["--case"]
    text = " ".join(parser.format_help().split())
    assert "needs --case or --no-case-column" in text


def test_library_keywords_are_shown_as_options(long_csv, capsys):
    lines = long_csv.read_text().splitlines()
    folds = long_csv.with_name("folds.csv")
    folds.write_text("\n".join(lines + lines[1:]) + "\n")
    argv = [str(folds), "--case", "data", "--algorithm", "algo", "--score", "error"]
    assert serve.main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"nbstats: error: {folds}: 56 duplicated")
    assert "pass --aggregate mean or median" in line and "aggregate=" not in line


def test_long_options_are_refused_as_the_report_refuses_them(tmp_path, capsys):
    csv = tmp_path / "scores.csv"
    csv.write_text("case,A,B\nd1,0.5,0.6\nd2,0.7,0.9\n")
    refused = {
        "--case": ["--algorithm", "A"],  # the first missing one
        "--aggregate": ["--aggregate", "mean"],
        "--no-case-column": ["--case", "case", "--no-case-column"],
    }
    for option, argv in refused.items():
        with pytest.raises(SystemExit) as stop:
            serve.main([str(csv), *argv])
        assert stop.value.code == 2
        assert f"error: argument {option}:" in capsys.readouterr().err


def test_lock_options_and_their_help():
    import argparse

    parser = serve.add_arguments(argparse.ArgumentParser(prog="nbstats dashboard"))
    defaults = parser.parse_args(["x.csv"])
    assert defaults.no_token is False
    assert defaults.max_kernels == serve.DEFAULT_MAX_KERNELS == 3
    assert defaults.cull_idle == serve.DEFAULT_CULL_IDLE == 600
    args = parser.parse_args(
        ["x.csv", "--no-token", "--max-kernels", "0", "--cull-idle", "30"]
    )
    assert (args.no_token, args.max_kernels, args.cull_idle) == (True, 0, 30)
    text = " ".join(parser.format_help().split())
    assert "--max-kernels N" in text and "--cull-idle SECONDS" in text
    assert "random token" in text and "(default: 3)" in text
    assert "(default: 600)" in text
    for bad in (["--max-kernels", "-1"], ["--cull-idle", "soon"]):
        with pytest.raises(SystemExit):
            parser.parse_args(["x.csv", *bad])


@pytest.fixture
def launched(monkeypatch, tmp_path, table6):
    """serve() up to the point where Voilà would start: what it would get."""
    csv = tmp_path / "scores.csv"
    table6.to_csv(csv)
    calls = []

    def fake_run_voila(command, *, cwd, env, out, log, token):
        (notebook,) = Path(cwd).glob("*.ipynb")
        nb = nbformat.read(notebook, as_version=4)
        calls.append({"command": command, "env": env, "token": token, "nb": nb})
        return 0

    monkeypatch.setattr(serve_process, "run_voila", fake_run_voila)
    monkeypatch.setenv("JUPYTER_TOKEN", "from-the-user-environment")
    monkeypatch.setenv("JUPYTER_TOKEN_FILE", "/nonexistent")
    return csv, calls


def test_voila_and_its_kernels_get_few_malloc_arenas(launched, monkeypatch):
    """The served dashboards' processes are the command's: glibc gets
    MALLOC_ARENA_MAX (read by each process at its start) unless the user set it."""
    csv, calls = launched
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    assert serve.main([str(csv)]) == 0
    assert calls[-1]["env"]["MALLOC_ARENA_MAX"] == str(ARENAS) == "2"
    monkeypatch.setenv("MALLOC_ARENA_MAX", "6")
    assert serve.main([str(csv)]) == 0
    assert calls[-1]["env"]["MALLOC_ARENA_MAX"] == "6"


def test_serve_passes_a_fresh_random_token_by_environment(launched, capsys):
    csv, calls = launched
    assert serve.main([str(csv)]) == 0
    assert serve.main([str(csv)]) == 0
    first, second = calls
    token = first["token"]
    assert len(token) >= 40 and token != second["token"]
    assert first["env"]["JUPYTER_TOKEN"] == token  # replaces the inherited one
    assert "JUPYTER_TOKEN_FILE" not in first["env"]
    assert not any(token in arg for arg in first["command"])
    assert "--Voila.auto_token=True" in first["command"]
    assert "warning" not in capsys.readouterr().err


def test_the_served_page_reads_the_file_as_the_server_did(launched, capsys):
    csv, calls = launched
    # latin-1, ';', no case column: refused as it is, served with the options
    rows = ["Régression;Forêt;SVM"]
    rows += [
        f"{0.5 + i / 97:.3f};{0.6 + i / 53:.3f};{0.55 + i / 71:.3f}" for i in range(8)
    ]
    csv.write_bytes(("\n".join(rows) + "\n").encode("latin-1"))
    assert serve.main([str(csv), "--sep", ";"]) == 2
    assert "not utf-8 text" in capsys.readouterr().err and not calls
    argv = ["--sep", "auto", "--encoding", "latin-1", "--no-case-column"]
    assert serve.main([str(csv), *argv, "--kind", "ranks"]) == 0
    err = capsys.readouterr().err
    assert f"nbstats: note: --sep auto: the separator of {csv} is ';'." in err
    assert "3 algorithms on 8 cases" in err
    (call,) = calls
    source = call["nb"].cells[-1].source
    # the kernel gets the separator the server found, not "auto"
    for part in ("sep=';'", "encoding='latin-1'", "no_case_column=True"):
        assert part in source
    nb = execute(call["nb"])
    assert not [out for out in nb.cells[-1].outputs if out.output_type == "error"]
    state = json.dumps(nb.metadata.widgets[WIDGET_STATE], ensure_ascii=False)
    assert "Forêt" in state and "Régression" in state


def test_no_token_is_explicit_and_warned(launched, capsys):
    csv, calls = launched
    assert serve.main([str(csv), "--no-token", "--max-kernels", "5"]) == 0
    (call,) = calls
    assert call["token"] is None
    assert "JUPYTER_TOKEN" not in call["env"]
    assert "--Voila.auto_token=False" in call["command"]
    assert "--CappedKernelManager.max_kernels=5" in call["command"]
    assert serve.NO_TOKEN_WARNING in capsys.readouterr().err


def test_the_printed_url_carries_the_token(tmp_path, capsys):
    command = fake_voila(
        "[Voila] Voilà is running at:", "http://127.0.0.1:8123/?token=..."
    )
    code = serve_process.run_voila(
        command, cwd=str(tmp_path), env={}, out=sys.stdout, log=sys.stderr, token="s3"
    )
    captured = capsys.readouterr()
    assert code == 0
    assert captured.out == "nbstats dashboard: http://127.0.0.1:8123/?token=s3\n"
    assert "s3" not in captured.err  # the log shows Voilà's "?token=..."


class FakeKernels:
    """Stands in for AsyncMappingKernelManager's start/shutdown (no process)."""

    @staticmethod
    async def start_kernel(self, *args, kernel_id=None, **kwargs):
        import asyncio

        await asyncio.sleep(0.01)  # starting takes time: others may arrive
        if kernel_id not in self._kernels:
            self._kernels[kernel_id] = object()
        return kernel_id

    @staticmethod
    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        import asyncio

        await asyncio.sleep(0.01)
        del self._kernels[kernel_id]


def test_capped_kernel_manager_refuses_beyond_the_cap(monkeypatch):
    import asyncio

    from jupyter_server.services.kernels.kernelmanager import (
        AsyncMappingKernelManager,
    )
    from tornado import web

    for method in ("start_kernel", "shutdown_kernel"):
        monkeypatch.setattr(
            AsyncMappingKernelManager, method, getattr(FakeKernels, method)
        )
    manager = CappedKernelManager(max_kernels=2, cull_idle_timeout=60)

    async def scenario():
        # three page loads at once: two kernels, one refusal (the starting
        # kernels count, so concurrent loads cannot overshoot)
        results = await asyncio.gather(
            *(manager.start_kernel(kernel_name="python3") for _ in range(3)),
            return_exceptions=True,
        )
        started = [r for r in results if isinstance(r, str)]
        refused = [r for r in results if isinstance(r, web.HTTPError)]
        assert len(started) == 2 and len(refused) == 1
        assert refused[0].status_code == 503
        assert refused[0].reason == limit_message(2, 60)
        assert manager.kernels_in_use() == 2
        # an existing kernel is never refused (a restart keeps its id)
        assert await manager.start_kernel(kernel_id=started[0]) == started[0]
        # a kernel shutting down frees its place at once
        stopping = asyncio.ensure_future(manager.shutdown_kernel(started[0]))
        await asyncio.sleep(0)
        assert manager.kernels_in_use() == 1
        third = await manager.start_kernel(kernel_name="python3")
        await stopping
        assert sorted(manager.list_kernel_ids()) == sorted([started[1], third])
        # 0 means no limit
        manager.max_kernels = 0
        await asyncio.gather(*(manager.start_kernel() for _ in range(4)))
        assert manager.kernels_in_use() == 6

    asyncio.run(scenario())


def test_limit_message_says_what_to_do():
    text = limit_message(3, 600)
    assert "limit of 3 kernels" in text and "--max-kernels" in text
    assert "idle for 600 s" in text
    assert "--cull-idle" in limit_message(1, 0) and "1 kernel " in limit_message(1, 0)
    # a valid HTTP reason phrase: tornado would replace it otherwise
    from tornado import httputil

    assert httputil._ABNF.reason_phrase.fullmatch(text) and "<" not in text


def test_voila_config_installs_the_xsrf_hook(tmp_path):
    from traitlets.config.loader import PyFileConfigLoader

    from nbstats.app.voila import set_xsrf_cookie

    path = serve.write_voila_config(tmp_path / "config")
    assert path == tmp_path / "config" / "voila.py"
    config = PyFileConfigLoader(path.name, path=str(path.parent)).load_config()
    assert config.VoilaConfiguration.prelaunch_hook is set_xsrf_cookie
    # searched first, then the user's Jupyter config (as Voilà does by default)
    command = serve.voila_command("d.ipynb", port=1, config_dir=path.parent)
    paths = [a.split("=", 1)[1] for a in command if "config_file_paths" in a]
    assert paths[0] == str(path.parent) and len(paths) > 1

    class Handler:  # reading tornado's xsrf_token is what sets the cookie
        read = 0

        @property
        def xsrf_token(self):
            self.read += 1
            return b"token"

    handler = Handler()
    assert set_xsrf_cookie(handler, notebook=None, cwd=".") is None
    assert handler.read == 1


def test_fold_data_is_checked_and_its_fold_column_recognised(fold_csv):
    from nbstats.widgets.folds_data import FoldTests

    found, sep = serve.read_folds(fold_csv, runs=10, **FOLD_OPTIONS)
    assert (found.fold, found.recognised, found.runs, sep) == ("fold", True, 10, ",")
    assert found.shape == (3, 3) and found.folds_per_case == [100]
    # the page's dashboard is built from the same rows: its data sets and names
    import pandas as pd

    tests = FoldTests(
        pd.read_csv(fold_csv), fold="fold", higher_is_better=True, **FOLD_OPTIONS
    )
    assert found.shape == (len(tests.cases), len(tests.names))
    given, _ = serve.read_folds(fold_csv, fold=["fold"], runs=5, **FOLD_OPTIONS)
    assert (given.fold, given.recognised, given.runs) == ("fold", False, 5)


def test_fold_data_errors_name_the_file_and_the_option(fold_csv, tmp_path):
    with pytest.raises(
        ValueError, match=r"uci folds\.csv: --kind folds: say how .*--runs N"
    ):
        serve.read_folds(fold_csv, **FOLD_OPTIONS)
    with pytest.raises(ValueError, match="runs=3 whole runs"):
        serve.read_folds(fold_csv, runs=3, **FOLD_OPTIONS)  # 100 is not 3 runs
    with pytest.raises(ValueError, match=r"not found"):
        serve.read_folds(fold_csv, fold=["split"], runs=10, **FOLD_OPTIONS)
    renamed = tmp_path / "renamed.csv"
    renamed.write_text(fold_csv.read_text().replace(",fold,", ",split,", 1))
    with pytest.raises(ValueError, match="no fold column recognised.*--fold COLS"):
        serve.read_folds(renamed, runs=10, **FOLD_OPTIONS)
    found, _ = serve.read_folds(renamed, fold=["split"], runs=10, **FOLD_OPTIONS)
    assert found.fold == "split"
    # a missing fold score: the correlated t-test pairs the folds
    lines = fold_csv.read_text().splitlines()
    holes = tmp_path / "holes.csv"
    holes.write_text("\n".join(lines[:5] + lines[6:]) + "\n")
    with pytest.raises(ValueError, match=r"holes\.csv: "):
        serve.read_folds(holes, runs=10, **FOLD_OPTIONS)


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["--kind", "folds"], "--kind"),  # wide data
        (
            [
                "--kind",
                "folds",
                *LONG_ARGS,
                "--aggregate",
                "mean",
            ],
            "--aggregate",
        ),
        (
            [
                "--kind",
                "folds",
                *LONG_ARGS,
                "--nan-policy",
                "omit",
            ],
            "--nan-policy",
        ),
        (
            [
                "--kind",
                "folds",
                *LONG_ARGS,
                "--fold",
                "none",
            ],
            "--fold",
        ),
        (["--runs", "10", *LONG_ARGS], "--runs"),
        (["--fold", "fold"], "--fold"),  # wide data
    ],
)
def test_fold_options_that_do_not_go_together(tmp_path, capsys, argv, option):
    csv = tmp_path / "scores.csv"
    csv.write_text("case,A,B\nd1,0.5,0.6\nd2,0.7,0.9\n")
    with pytest.raises(SystemExit) as stop:
        serve.main([str(csv), *argv])
    assert stop.value.code == 2
    assert f"error: argument {option}:" in capsys.readouterr().err


def test_fold_notebook_reads_the_folds_as_they_are(fold_csv):
    nb = serve.build_notebook(
        fold_csv,
        kind="folds",
        fold=["run", "fold"],
        higher_is_better=False,
        **FOLD_OPTIONS,
    )
    code = nb.cells[-1].source
    tree = ast.parse(code)
    calls = {
        ast.unparse(node.value.func): node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
    }
    read = calls["nbstats.io.csv.read_csv"]
    values = {k.arg: ast.literal_eval(k.value) for k in read.keywords}
    assert values["long"] == FOLD_OPTIONS and values["no_case_column"] is False
    board = {
        k.arg: ast.literal_eval(k.value) for k in calls["nbstats.dashboard"].keywords
    }
    assert board == dict(
        FOLD_OPTIONS, kind="folds", fold=["run", "fold"], higher_is_better=False
    )
    assert "lower scores are better" in nb.cells[0].source
    with pytest.raises(ValueError, match="needs fold="):
        serve.build_notebook(fold_csv, kind="folds", **FOLD_OPTIONS)


def test_other_dashboards_average_the_given_fold_column(fold_csv):
    import nbstats

    table = serve.load_scores(fold_csv, fold="fold", **FOLD_OPTIONS)
    raw = nbstats.datasets.load("uci_accuracy_folds")
    mean = raw.groupby(["dataset", "classifier"]).accuracy.mean()
    for (case, name), value in table.stack().items():
        assert value == pytest.approx(mean[case, name], abs=1e-12)
    code = (
        serve.build_notebook(fold_csv, kind="ranks", fold=["fold"], **FOLD_OPTIONS)
        .cells[-1]
        .source
    )
    assert "fold='fold'" in code and "read_scores(" in code


def test_serve_announces_the_fold_data_and_the_recognised_column(
    fold_csv, capsys, monkeypatch
):
    served = {}

    def fake_serve_notebook(nb, **options):
        served.update(options, nb=nb)
        return 0

    monkeypatch.setattr(serve, "serve_notebook", fake_serve_notebook)
    argv = [str(fold_csv), "--kind", "folds", "--runs", "10"]
    argv += [f"--{key}={value}" for key, value in FOLD_OPTIONS.items()]
    assert serve.main(argv) == 0
    err = capsys.readouterr().err
    assert "taking fold as the fold column(s), as --fold fold" in err
    assert served["announce"].startswith(
        "nbstats: serving the folds dashboard of 3 algorithms on 3 data sets "
        "(100 folds each)"
    )
    assert "runs=10" in served["nb"].cells[-1].source
    capsys.readouterr()
    assert serve.main([argv[0], "--kind", "folds", *argv[5:]]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"nbstats: error: {fold_csv}: --kind folds: say how")

"""The notebook ``nbstats dashboard`` serves, and the serving plumbing.

The real server in a real browser is tested in ``test_browser.py``.
"""

from __future__ import annotations

import subprocess
import sys

import nbformat
import pytest

from nbstats.widgets import dashboard as dashboard_module
from nbstats.widgets import serve

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


@pytest.mark.parametrize("kind", serve.KINDS)
def test_notebook_shows_the_dashboard_widget(wide_csv, kind):
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
    assert serve.DASHBOARD_CLASS in model["state"]["_dom_classes"]
    classes = {c for m in state.values() for c in m["state"].get("_dom_classes", ())}
    assert any(c.startswith(serve.CONTROL_CLASS) for c in classes)
    # sources are for Voilà to strip; the title says which file and direction
    assert "demsar 2006.csv" in nb.cells[0].source
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
    with pytest.raises(ValueError, match="missing: algorithm="):
        serve.load_scores(long_csv, case="data", score="error")
    with pytest.raises(ValueError, match="aggregate combines repeated rows"):
        serve.load_scores(wide_csv, aggregate="mean")


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
    code = serve._run_voila(
        command, cwd=str(tmp_path), env={}, out=sys.stdout, log=sys.stderr
    )
    captured = capsys.readouterr()
    assert code == 0
    assert captured.out == "nbstats dashboard: http://127.0.0.1:8123/\n"
    assert "[Voila] later" in captured.err  # Voilà's log is relayed


def test_a_server_that_never_listens_is_an_error(tmp_path, capsys):
    command = fake_voila("[Voila] ERROR: no port", then="raise SystemExit(1)")
    code = serve._run_voila(
        command, cwd=str(tmp_path), env={}, out=sys.stdout, log=sys.stderr
    )
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert "stopped before serving the dashboard" in captured.err


def test_top_level_import_stays_light():
    # the CLI imports this module: no widgets, Voilà or nbformat at import
    code = (
        "import sys, nbstats.widgets.serve; "
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

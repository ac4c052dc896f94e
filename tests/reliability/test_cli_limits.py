"""What the command line reads, bounded and exact (issue 34, findings 7 and 8).

- 7: an integer beyond 2**53 in a column that also holds a decimal was read
  rounded (``9007199254740993`` became ``9007199254740992.0``: a tie, no
  word). Now a score written as an integer is read exactly or refused with
  its line and column, whatever else its column holds.
- 8: ``nbstats analyze /dev/zero`` read 19.1 GB before the NUL check. Now a
  file over the input limit (256 MiB, ``--max-input``, ``NBSTATS_MAX_INPUT``)
  is refused before it is read whole: a regular file by its size, a pipe or a
  device as it is read; the first chunk is checked for NUL, binary and
  encoding before the rest is read.
"""

# ruff: noqa: F811  (the fixtures of tests/cli_helpers.py are parameters)
from __future__ import annotations

import os
import threading
import time
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nbstats.io.csv import read_csv
from nbstats.io.text import DEFAULT_MAX_INPUT, input_limit, parse_size
from tests.cli_helpers import LONG, calls, run  # noqa: F401  (fixtures)

LIMIT = 2**53


def refused(capsys, path, argv=()):
    code, out, err = run(["analyze", path, *argv], capsys)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1, err
    return err


# -- finding 7: integers beyond 2**53 ---------------------------------------------


def test_the_issue_reproducer_is_refused_with_the_cell(tmp_path, calls, capsys):
    path = tmp_path / "big.csv"
    path.write_text(
        "case,A,B\nx,9007199254740993,0.5\ny,9007199254740992,0.7\nz,1.5,0.2\n"
    )
    err = refused(capsys, path)
    assert f"{path}, line 2: case 'x', column 'A' holds 9007199254740993" in err
    assert "float64 cannot hold exactly" in err
    assert "would be read as 9007199254740992" in err
    assert "Subtract a common offset" in err
    assert calls == []


def test_a_column_of_integers_only_is_still_refused(tmp_path, calls, capsys):
    path = tmp_path / "ints.csv"
    path.write_text("case,A,B\nx,9007199254740993,1\ny,9007199254740992,2\n")
    assert "line 2: case 'x', column 'A' holds 9007199254740993" in refused(
        capsys, path
    )


def test_a_long_score_column_is_checked_too(tmp_path, calls, capsys):
    path = tmp_path / "long.csv"
    path.write_text("data,algo,acc\nd1,A,0.5\nd1,B,-9007199254740995\nd2,A,1\nd2,B,2\n")
    err = refused(capsys, path, LONG)
    assert "line 3: case 'd1', column 'acc' holds -9007199254740995" in err


@pytest.mark.parametrize(
    "text",
    ["9007199254740992", "-9007199254740992", "9007199254740994", "2e53", "1.5e300",
     "9.007199254740993e15", "9007199254740993.5", "18014398509481984"],
)  # fmt: skip
def test_exact_integers_and_decimals_are_read(text, tmp_path):
    # exact in float64, or written as a decimal (the writer chose a rounding)
    path = tmp_path / "ok.csv"
    path.write_text(f"case,A,B\nx,{text},0.5\ny,0.25,0.7\n")
    frame, _ = read_csv(str(path))
    assert frame.loc["x", "A"] == float(text)


@pytest.mark.parametrize("other", ["5", "1.5", "-7"])
def test_integers_beyond_uint64_are_read_exactly_or_refused(other, tmp_path):
    # pandas keeps them as Python ints, or the column as text beside a decimal
    path = tmp_path / "huge.csv"
    path.write_text(f"case,A,B\nx,{2**70},0.5\ny,{other},0.7\n")
    frame, _ = read_csv(str(path))
    assert frame.loc["x", "A"] == 2.0**70
    path.write_text(f"case,A,B\nx,{other},0.5\ny,{2**64 + 1},0.7\n")
    with pytest.raises(
        ValueError, match=f"line 3: case 'y', column 'A' holds {2**64 + 1}"
    ):
        read_csv(str(path))


written_integers = st.one_of(
    st.integers(LIMIT - 50, LIMIT + 50),
    st.integers(-LIMIT - 50, -LIMIT + 50),
    st.integers(2**60 - 5, 2**60 + 5),
    st.integers(-(2**70), 2**70),
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(
        st.one_of(
            written_integers.map(str),
            written_integers.map(lambda v: f"{v}.0"),
            st.floats(-1e3, 1e3, allow_nan=False).map(repr),
        ),
        min_size=2,
        max_size=8,
    )
)
def test_an_integer_is_read_exactly_or_refused_whatever_the_column(
    tmp_path_factory, cells
):
    # the property: every cell written as an integer is read as exactly that
    # integer, or the file is refused naming the first one that is not
    path = tmp_path_factory.mktemp("p") / "s.csv"
    rows = [f"c{i},{cell},{i}.5" for i, cell in enumerate(cells)]
    path.write_text("case,A,B\n" + "\n".join(rows) + "\n")
    integers = [
        (i, int(Decimal(c))) for i, c in enumerate(cells) if "e" not in c.lower()
        and Decimal(c) == Decimal(c).to_integral_value()
    ]  # fmt: skip
    inexact = [(i, v) for i, v in integers if int(float(v)) != v]
    if inexact:
        with pytest.raises(ValueError, match="float64 cannot hold exactly") as error:
            read_csv(str(path))
        first = inexact[0]
        expected = f"line {first[0] + 2}: case 'c{first[0]}', column 'A' holds"
        assert f"{expected} {cells[first[0]]}" in str(error.value)
        return
    frame, _ = read_csv(str(path))
    values = frame["A"].to_numpy()
    for i, value in integers:
        assert int(values[i]) == value


# -- finding 8: the input limit ----------------------------------------------------


def test_dev_zero_is_refused_at_once(calls, capsys):
    start = time.perf_counter()
    err = refused(capsys, "/dev/zero")
    assert "line 1: a NUL character" in err
    assert time.perf_counter() - start < 10


def test_random_bytes_are_refused_at_once(calls, capsys):
    err = refused(capsys, "/dev/urandom")
    assert "not utf-8 text" in err or "NUL" in err


def test_a_large_regular_file_is_refused_by_its_size(
    tmp_path, calls, capsys, monkeypatch
):
    path = tmp_path / "huge.csv"
    with path.open("wb") as file:
        file.write(b"case,A,B\n")
        file.truncate(DEFAULT_MAX_INPUT + 1)  # sparse: no disk, nothing to read

    def unread(self, *args, **kwargs):
        raise AssertionError("the file was opened")

    monkeypatch.setattr(Path, "open", unread)
    err = refused(capsys, path)
    assert "the file is 256 MiB, more than the input limit of 256 MiB" in err
    assert "--max-input 512M" in err and "NBSTATS_MAX_INPUT=512M" in err


def test_a_pipe_is_read_up_to_the_limit_only(tmp_path, calls, capsys):
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    written = [0]

    def writer():
        line = b"x,0.5,0.25\n" * 1000
        try:
            with open(fifo, "wb") as out:
                out.write(b"case,A,B\n")
                while written[0] < 64 * 2**20:
                    out.write(line)
                    written[0] += len(line)
        except BrokenPipeError:
            pass

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    err = refused(capsys, fifo, ["--max-input", "1M"])
    thread.join(10)
    assert "it gave more than the input limit of 1 MiB" in err
    assert "--max-input 2M" in err
    assert written[0] < 2 * 2**20 + 2**16  # the writer was stopped at the limit


def test_the_limit_is_raised_by_the_option_or_the_environment(
    tmp_path, calls, capsys, monkeypatch
):
    path = tmp_path / "s.csv"
    rng = np.random.default_rng(0)
    path.write_text(
        "case,A,B\n" + "".join(f"c{i},{rng.uniform():.6f},0.5\n" for i in range(300))
    )
    assert path.stat().st_size > 4096
    monkeypatch.setenv("NBSTATS_MAX_INPUT", "4K")
    assert "more than the input limit of 4 KiB" in refused(capsys, path)
    code, _, err = run(["analyze", path, "--max-input", "1M"], capsys)
    assert code == 0, err
    monkeypatch.setenv("NBSTATS_MAX_INPUT", "64K")
    code, _, err = run(["analyze", path], capsys)
    assert code == 0, err
    monkeypatch.setenv("NBSTATS_MAX_INPUT", "lots")
    assert "NBSTATS_MAX_INPUT: 'lots' is not a size" in refused(capsys, path)


def test_a_bad_max_input_names_the_option(tmp_path, capsys):
    code, _, err = run(["analyze", tmp_path / "s.csv", "--max-input", "10Q"], capsys)
    assert code == 2
    assert "argument --max-input: '10Q' is not a size" in err


@pytest.mark.parametrize(
    ("text", "nbytes"),
    [("512M", 512 * 2**20), ("2G", 2**31), ("1.5k", 1536), ("300MB", 300 * 2**20),
     ("10", 10), ("1GiB", 2**30)],
)  # fmt: skip
def test_sizes(text, nbytes):
    assert parse_size(text) == nbytes


def test_the_default_limit(monkeypatch):
    monkeypatch.delenv("NBSTATS_MAX_INPUT", raising=False)
    assert input_limit() == DEFAULT_MAX_INPUT == 256 * 2**20


# -- finding 8: a large table, printed bounded, refused beyond the ceiling -----------


def many_cases(tmp_path, n, m=3, seed=0):
    rng = np.random.default_rng(seed)
    names = "ABCDEFGHIJ"[:m]
    lines = [f"c{i}," + ",".join(f"{v:.4f}" for v in row)
             for i, row in enumerate(rng.uniform(0.5, 0.9, (n, m)))]  # fmt: skip
    path = tmp_path / f"many{n}.csv"
    path.write_text("case," + ",".join(names) + "\n" + "\n".join(lines) + "\n")
    return path


def test_analyze_prints_a_bounded_preview_of_the_scores(tmp_path, capsys):
    path = many_cases(tmp_path, 1500)
    code, out, err = run(["analyze", path, "--analyses", "frequentist"], capsys)
    assert code == 0, err
    assert "Only the first 100 of the 1,500 cases are shown (1,400 left out)" in out
    # (the caption says how many are left out; the table stops at the 100th)
    assert "\nc99 " in out and "\nc100 " not in out and "\nc1499 " not in out
    assert len(out) < 40_000  # not every score (the issue: 58 MB at 10^6)


def test_detail_frequentist_prints_a_bounded_preview(tmp_path, capsys):
    path = many_cases(tmp_path, 1000)
    code, out, err = run(["analyze", path, "--detail", "frequentist"], capsys)
    assert code == 0, err
    assert "… 900 more cases" in out
    assert "\nc99 " in out and "\nc100 " not in out


def test_a_table_over_the_ceiling_is_refused_before_the_kernel(
    tmp_path, capsys, monkeypatch
):
    import nbstats.reporting
    from nbstats.stats import footprint

    started = []

    class Reached(BaseException):  # escapes the command's error handling
        pass

    def kernel(*args, **kw):  # the notebook's execution, where the kernel starts
        started.append(args)
        raise Reached

    monkeypatch.setattr(nbstats.reporting, "_executed", kernel)
    from nbstats.util.memory import memory_ceiling

    path = many_cases(tmp_path, 40_000)
    # the per-case figure, from its definition rather than the message's code
    per_case = footprint.CASE_BYTES + 3 * footprint.SCORE_BYTES
    need = 40_000 * per_case
    with memory_ceiling("16M"):
        for command in (["analyze"], ["report", "-o", tmp_path / "r.html"]):
            code, _, err = run([*command[:1], path, *command[1:]], capsys)
            assert code == 2, err
            assert "3 algorithms x 40,000 cases needs about" in err
            assert f"scores: about {need / 2**20:,.0f} MB" in err
            assert (
                f"at most {16 * 2**20 // per_case:,} cases of 3 algorithms fit" in err
            )
            assert "refused before starting" in err
            assert "NBSTATS_MAX_MEMORY" in err
    assert started == []
    assert not (tmp_path / "r.html").exists()
    with pytest.raises(Reached):  # the default ceiling: fits, the kernel starts
        run(["analyze", path], capsys)
    assert len(started) == 1

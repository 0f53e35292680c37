"""`companion solve`'s winning line as a player reads it: numbered and wrapped in a terminal,
and written with --moves-file in the form `companion check --moves-file` replays (it used to
be 116 moves on one line, unnumbered, and no file option)."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from companion.cli import solver_cmds

KEYS = {"variant", "options", "seed", "after", "verdict", "moves", "length", "nodes", "states",
        "seconds", "reason"}


def json_moves(run, *args) -> list[str]:
    code, out, _ = run("solve", *args, "--json")
    assert code == 0
    return json.loads(out)["moves"]


def test_in_a_terminal_the_line_is_numbered_and_wrapped(run, monkeypatch):
    monkeypatch.setattr(solver_cmds, "_to_terminal", lambda: True)
    monkeypatch.setenv("COLUMNS", "60")
    moves = json_moves(run, "klondike", "--seed", "6")
    code, out, err = run("solve", "klondike", "--seed", "6")
    assert code == 0 and err.startswith("# won in 116 moves")
    rows = out.splitlines()
    assert 1 < len(rows) < len(moves) and all(len(r) <= 60 for r in rows)
    cells = re.findall(r"(\d+)\. (\S+(?: \S+)?)", out)
    assert [int(n) for n, _ in cells] == list(range(1, len(moves) + 1))
    assert [m for _, m in cells] == moves
    assert rows[0].startswith("  1. t1 f ")


def test_format_chooses_numbered_or_the_line_check_reads(run, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    moves = json_moves(run, "klondike", "--seed", "6")
    code, out, _ = run("solve", "klondike", "--seed", "6", "--format", "numbered")
    assert code == 0 and out.startswith("  1. t1 f") and len(out.splitlines()) > 1
    monkeypatch.setattr(solver_cmds, "_to_terminal", lambda: True)
    code, out, _ = run("solve", "klondike", "--seed", "6", "--format", "line")
    assert code == 0 and out == ", ".join(moves) + "\n"


@pytest.mark.parametrize("extra", [[], ["--after", "s", "--option", "draw=1"]], ids=str)
def test_the_moves_file_replays_through_check_to_a_win(run, tmp_path, monkeypatch, extra):
    monkeypatch.chdir(tmp_path)
    code, out, err = run("solve", "klondike", "--seed", "6", *extra, "--moves-file", "line.txt")
    assert code == 0
    # stderr names the command that replays it; typed as it is, it wins
    replay = re.search(r"# wrote the line to line\.txt: (companion check .*) replays it", err)
    assert replay, err
    args = shlex.split(replay[1])[1:]
    assert args[:3] == ["check", "klondike", "--seed"]
    code, out, err = run(*args, "-q")
    assert code == 0 and out.rstrip().endswith("Won."), (out, err)
    text = (tmp_path / "line.txt").read_text(encoding="utf-8")
    moves = [ln for ln in text.splitlines() if not ln.startswith("#")]
    assert moves[:1] == (["s"] if extra else ["t1 f"])


def test_json_is_unchanged_and_stays_json_with_a_moves_file(run, tmp_path):
    path = tmp_path / "line.txt"
    code, out, err = run("solve", "klondike", "--seed", "6", "--json", "--moves-file", str(path))
    assert code == 0
    data = json.loads(out)
    assert set(data) == KEYS and data["length"] == len(data["moves"]) == 116
    assert [ln for ln in path.read_text().splitlines() if ln[0] != "#"] == data["moves"]


def test_a_moves_file_that_cannot_be_written_is_refused_before_the_search(run, tmp_path):
    code, _, err = run("solve", "klondike", "--seed", "6", "--moves-file",
                       str(tmp_path / "no" / "line.txt"))
    assert code == 2 and "create it first" in err
    code, _, err = run("solve", "klondike", "--seed", "6", "--moves-file", "-")
    assert code == 2 and "--format line" in err


def test_no_file_without_a_winning_line(run, tmp_path):
    path = tmp_path / "line.txt"
    code, _, err = run("solve", "streets-and-alleys", "--seed", "2", "--moves-file", str(path))
    assert code == 1 and not path.exists()
    assert f"nothing was written to {path}" in err

"""`solve --after`: the line goes on from the position after those moves, and the output says
which moves they were, so that the whole game replays from the seed."""

from __future__ import annotations

import json


def test_solve_json_names_the_after_moves_and_the_two_replay_from_the_seed(run):
    code, out, err = run("solve", "streets-and-alleys", "--seed", "3", "--after",
                         "10s t3, 2h t4", "--timeout", "5", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["seed"] == 3 and data["after"] == ["t4 t3", "t1 t4"]  # canonical
    code, out, err = run("check", "streets-and-alleys", "--seed", "3", "--json",
                         ", ".join(data["after"] + data["moves"]))
    assert code == 0, err
    assert json.loads(out)["outcome"]["result"] == "won"


def test_solve_text_says_the_line_starts_after_the_after_moves(run):
    code, _, err = run("solve", "streets-and-alleys", "--seed", "3", "--after", "10s t3",
                       "--timeout", "5")
    assert code == 0
    assert err.startswith("# won in ") and " after the 1 move of --after (" in err
    code, _, err = run("solve", "streets-and-alleys", "--seed", "3", "--timeout", "5")
    assert code == 0 and "--after" not in err


def test_hint_json_names_the_after_moves(run):
    code, out, err = run("hint", "streets-and-alleys", "--seed", "3", "--after", "10s t3",
                         "--json")
    assert code == 0, err
    assert json.loads(out)["after"] == ["t4 t3"]

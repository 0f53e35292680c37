"""A hint asked for a game already over says how it ended, in the words `check` uses."""

from __future__ import annotations

import json


def test_a_hint_after_the_last_legal_move_says_no_legal_move_is_left(run):
    # Streets and Alleys seed 3: 10c onto Jd leaves no legal move at all
    code, out, err = run("hint", "streets-and-alleys", "--seed", "3", "--after", "t6 t3")
    assert code == 0, err
    assert out.splitlines() == ["The game is over: no move can change it.",
                                "Lost: no legal move is left."]


def test_a_hint_on_a_won_game_says_won_with_golfs_score(run):
    code, out, err = run("solve", "golf", "--seed", "2", "--timeout", "5", "--json")
    assert code == 0, err
    line = ", ".join(json.loads(out)["moves"])
    code, out, err = run("hint", "golf", "--seed", "2", "--after", line, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["move"] is None and data["verdict"] == "won"
    assert data["basis"].startswith("Won: ") and "Score -1." in data["basis"]

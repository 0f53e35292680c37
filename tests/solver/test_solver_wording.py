"""What solve and hint print: no promise of a line that is not printed, and counts of one in
the singular."""

from __future__ import annotations

import json
import random

import pytest

from companion.rules import deal


def test_a_peeked_hint_says_where_the_winning_line_is_not_that_it_follows(run):
    code, out, _ = run("hint", "klondike", "--seed", "6", "--peek", "--timeout", "5")
    assert code == 0
    assert "Won: a winning line of" in out and "moves exists" in out
    assert "`companion solve` prints one." in out and "follows" not in out


def test_a_position_with_one_reachable_position_is_said_in_the_singular(run):
    pos = deal("klondike", 1, {"passes": "1"})
    rng = random.Random(3)
    while pos.raw_moves():
        pos.push_raw(rng.choice(pos.raw_moves()))
    after = ", ".join(pos.engine.text(m) for m in pos.history)
    code, out, _ = run("solve", "klondike", "--seed", "1", "-o", "passes=1", "--after", after)
    assert code == 1
    assert out.startswith("# Lost: the 1 reachable position searched")
    assert "all 1 reachable positions" not in out


def test_a_hint_with_one_unseen_card_says_card(run, tmp_path):
    data = deal("streets-and-alleys", 1).to_json()
    data["piles"]["t1"]["face_down"] = 1  # its bottom card unseen
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    code, out, err = run("hint", "streets-and-alleys", "--position", str(path), "--samples",
                         "2", "--timeout", "0.5")
    assert code == 0, err
    assert "of the 1 unseen card " in out and "unseen cards" not in out


def test_a_hint_whose_chance_is_not_known_gives_no_chance_in_json(run):
    code, out, err = run("hint", "spider", "--seed", "3", "--samples", "2", "--timeout",
                         "0.02", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["wins"] == 0 and data["undecided"] > 0  # no sample decided in 0.02 s
    assert "the chance is not known" in data["basis"]
    assert data["chance"] is None


@pytest.mark.parametrize("command", ["hint", "solve"])
def test_json_with_a_refused_after_move_answers_in_json(run, command):
    code, out, _ = run(command, "klondike", "--seed", "1", "--after", "t1 t7, zz", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["ok"] is False and data["played"] == ["t1 t7"]
    assert data["failed"]["move"] == "zz" and "no pile 'zz'" in data["failed"]["reason"]

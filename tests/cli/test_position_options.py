"""The options that name a position (--seed, --position, --after, --option) work alike in
`companion moves`, `solve` and `hint`."""

from __future__ import annotations

import json

import pytest

from companion.rules import deal, load_variant

FAST = {"moves": [], "solve": ["--nodes", "200"], "hint": ["--samples", "2", "--timeout", "0.2"]}


@pytest.mark.parametrize("command", list(FAST))
def test_a_refused_after_move_is_named_with_its_number_and_nothing_else_runs(run, command):
    code, out, err = run(command, "klondike", "--seed", "1", "--after", "s, t9 t1",
                         *FAST[command])
    assert code == 1
    assert "Move 2 (t9 t1) refused: there is no pile 't9'" in err
    assert out == ""


@pytest.mark.parametrize("command", list(FAST))
def test_seed_and_position_together_or_neither_are_usage_errors(run, command, tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(deal("klondike", 1).to_json()))
    code, _, err = run(command, "klondike", "--seed", "1", "--position", str(path),
                       *FAST[command])
    assert code == 2 and "either --seed or --position" in err
    code, _, err = run(command, "klondike", *FAST[command])
    assert code == 2 and "--seed N" in err and "--position FILE" in err


@pytest.mark.parametrize("command", list(FAST))
def test_the_position_file_options_and_after_moves_reach_the_command(run, command, tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(deal("klondike", 1).to_json()))
    code, out, _ = run(command, "klondike", "--position", str(path), "--option", "draw=1",
                       "--after", "s", "--json", *FAST[command])
    data = json.loads(out)
    expected = deal(load_variant("klondike", {"draw": 1}), 1)
    expected.play("s")  # with draw=1 the waste holds one card
    if command == "moves":
        assert data["position"] == expected.to_json()
    elif command == "solve":
        assert data["options"]["draw"] == 1
        line = expected.copy()
        for m in data["moves"]:
            line.play(m)
    else:
        assert expected.check(data["move"]).ok


def test_moves_json_reports_a_refused_after_move_with_the_position_reached(run):
    code, out, _ = run("moves", "klondike", "--seed", "1", "--after", "s, t2 t1", "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and data["played"] == ["s"]
    assert data["failed"]["index"] == 2 and data["failed"]["move"] == "t2 t1"
    assert "alternating colours" in data["failed"]["reason"]
    pos = deal("klondike", 1)
    pos.play("s")
    assert data["position"] == pos.to_json()

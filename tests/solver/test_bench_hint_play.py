"""bench/hint_play.py: games played from the deal following the hint alone, the player's view
named card by card from the seed; they end (won, lost, or the hint saying no move improves the
position), and the results file resumes."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "bench_hint_play", Path(__file__).parents[2] / "bench" / "hint_play.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def test_the_game_from_the_issue_ends_within_the_cap():
    # Klondike draw 3, seed 164761: the hint once proposed t7:3 t4, t4:3 t7, t7:3 t4 ... for
    # ever. A small budget keeps the test short; the game must end all the same.
    rec = bench.play_game("klondike", {}, 164761, samples=3, seconds=0.1, max_moves=400)
    assert rec["result"] in ("won", "lost", "gave-up"), rec["result"]
    assert rec["moves"] < 400 and len(rec["hint_seconds"]) >= rec["moves"]


def test_the_bench_resumes_and_refuses_bad_input(tmp_path, capsys):
    out = tmp_path / "golf.jsonl"
    args = ["--variant", "golf", "--seeds", "1", "--samples", "2", "--budget", "0.05",
            "--out", str(out)]
    assert bench.main(args) == 0
    first = out.read_text().splitlines()
    assert len(first) == 1 and json.loads(first[0])["seed"] == 1
    assert bench.main(args) == 0   # the seed is there already: nothing is played again
    assert out.read_text().splitlines() == first
    assert "1 game already in" in capsys.readouterr().out
    # the same file with other settings, an unknown variant, an option it lacks
    assert bench.main([*args[:-4], "--budget", "0.1", "--out", str(out)]) == 2
    assert "other settings" in capsys.readouterr().err
    assert bench.main(["--variant", "klondyke", "--games", "1"]) == 2
    assert "Did you mean: klondike" in capsys.readouterr().err
    assert bench.main(["--option", "drow=1", "--games", "1"]) == 2
    assert "no option 'drow'" in capsys.readouterr().err
    assert bench.main(["--games", "2", "--seeds", "1-2"]) == 2
    with pytest.raises(SystemExit):
        bench.main(["--games", "0"])


def test_the_players_view_names_a_card_only_once_it_is_turned_up():
    from companion.cards import UNKNOWN
    from companion.rules import Position
    real, view = Position.deal("klondike", 7), Position.deal("klondike", None)
    bench.name_turned_cards(view, real)
    for move in ("s", "s"):
        view.play(move)
        real.play(move)
        bench.name_turned_cards(view, real)
    for p, q, down in zip(view.piles, real.piles, view.down, strict=True):
        assert all(c == UNKNOWN for c in p[:down])    # face down: never named
        assert p[down:] == q[down:]                   # face up: named as the seed dealt it
    assert len(view.piles[view.engine.index["w"]]) == 6

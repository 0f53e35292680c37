"""The hint never leads round in circles (issue 50): a move back to a position already met in
the game is not proposed unless it wins more, and a lost position says "no move improves the
position: the game looks lost"."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from solverhelp import made

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
LOOKS_LOST = "No move improves the position: the game looks lost."


# Imported when a test runs, not at collection: tests/record checks the recorder without a
# solver by hiding companion.solver.hints, which an import at collection would defeat.
def hint(*args, **kwargs):
    from companion.solver.hints import hint as _hint
    return _hint(*args, **kwargs)


def suit(s: str, top: int) -> str:
    return " ".join(f"{r}{s}" for r in RANKS[:top])


def came_back_from_the_foundation(face_down: int):
    """Klondike with cards coming back from the foundations: the J♦ has just come down from
    its foundation onto the Q♣ (``f4 t2``). Sending it back up (``t2 f``), the move a hint
    with no past likes best, undoes that move; the game is won whatever is played."""
    before = made("klondike", {
        "f1": suit("s", 12), "f2": suit("h", 12), "f3": suit("c", 11), "f4": suit("d", 11),
        "t1": ("Ks Qd", face_down), "t2": ("Kh Qc", face_down), "t3": "Kc", "t4": "Kd"},
        options={"foundation_return": True})
    pos = before.copy()
    pos.play("f4 t2")
    return before, pos


def after(pos, move: str):
    q = pos.copy()
    q.play(move)
    return q


@pytest.mark.parametrize("face_down", [1, 0], ids=["samples", "exact"])
def test_the_undo_of_the_last_move_is_not_proposed(face_down):
    before, pos = came_back_from_the_foundation(face_down)
    # Without the game's past, the hint sends the J♦ straight back up.
    naive = hint(pos.copy(), samples=3, seconds=2, rng_seed=1)
    assert naive.move == "t2 f" and after(pos, naive.move).key() == before.key()
    # With it (the position was reached by playing f4 t2), a move that makes progress.
    h = hint(pos, samples=3, seconds=2, rng_seed=1)
    assert h.move is not None and not h.looks_lost
    assert after(pos, h.move).key() != before.key()
    assert h.wins == h.samples if face_down else h.verdict == "won"


def test_a_move_back_is_proposed_when_it_alone_wins():
    # Every other move is made to lead to a position met twice (never again), the undo to
    # one met once: it wins in every sample where nothing else was found to win.
    _, pos = came_back_from_the_foundation(1)
    met = Counter(pos.keys_met())
    for m in pos.raw_moves():
        q = pos.copy()
        q.push_raw(m)
        met[q.key()] += 2 if pos.engine.text(m) != "t2 f" else 0
    h = hint(pos, samples=3, seconds=2, rng_seed=1, met=met)
    assert h.move == "t2 f" and "leads back to a position already met" in h.basis


def test_every_move_back_to_a_position_met_twice_proposes_nothing():
    _, pos = came_back_from_the_foundation(1)
    met = Counter()
    for m in pos.raw_moves():
        q = pos.copy()
        q.push_raw(m)
        met[q.key()] = 2
    h = hint(pos, samples=3, seconds=2, rng_seed=1, met=met)
    assert h.move is None and h.looks_lost and h.reason == LOOKS_LOST
    assert "Every legal move" in h.basis and "leads back" in h.basis


def stranded_golf():
    """Golf whose one tableau card, the 7♥, can never go: every 6 and 8 lies in the waste
    under the K♠. The 42 other cards are in the stock, unseen."""
    waste = [f"{r}{s}" for r in ("6", "8") for s in "shcd"] + ["Ks"]
    rest = [f"{r}{s}" for r in RANKS for s in "shcd" if f"{r}{s}" not in [*waste, "7h"]]
    return made("golf", {"t1": "7h", "w": " ".join(waste), "s": (" ".join(rest), len(rest))})


def test_a_lost_position_says_the_game_looks_lost():
    h = hint(stranded_golf(), samples=4, seconds=2, rng_seed=1)
    assert h.move is None and h.looks_lost and h.reason == LOOKS_LOST
    assert h.basis.startswith("None of 4 deals of the 42 unseen cards wins.")
    assert h.chance == 0.0 and h.undecided == 0


def test_the_cli_says_the_game_looks_lost_and_exits_0(run, tmp_path):
    f = tmp_path / "lost.json"
    f.write_text(json.dumps(stranded_golf().to_json()))
    code, out, _ = run("hint", "golf", "--position", str(f), "--samples", "3")
    assert code == 0 and out.startswith(LOOKS_LOST)
    code, out, _ = run("hint", "golf", "--position", str(f), "--samples", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["move"] is None and data["looks_lost"] is True


def test_explain_says_why_the_move_beat_the_runner_up(run):
    code, out, _ = run("hint", "klondike", "--seed", "3", "--samples", "2", "--timeout", "0.5",
                       "--seed-samples", "1", "--explain")
    assert code == 0
    why = out.splitlines()[-1]
    assert why.startswith("Why: ") and ("samples" in why or "options" in why)

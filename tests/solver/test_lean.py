"""The lean look: Klondike-Solver's fast search over the engine's moves (``search._lean``)."""

from __future__ import annotations

import random

import pytest
from solverhelp import made, replays_to_a_win, run_out

from companion.rules import deal
from companion.rules.engine import MOVE, STOCK
from companion.solver import portfolio
from companion.solver.search import JUMP, _lean, _lean_moves, _talon_states, knowledge


def test_the_lean_look_wins_a_deal_the_other_looks_do_not_and_the_line_replays():
    # Klondike draw 1, seed 111: Klondike-Solver wins it within 15,000 positions; the
    # portfolio without the lean look had not won it in 60 s. The lean look alone wins it
    # within 2,000 positions, its line replayed move by move as `companion check` would.
    pos = deal("klondike", 111, {"draw": 1})
    r = run_out(_lean(pos, False, None))
    assert r.verdict == "won" and r.nodes < 2_500
    assert replays_to_a_win(pos, r.moves)


def test_the_lean_look_keeps_its_first_run_going_rather_than_begin_again_small():
    # Klondike draw 3 with foundation returns, seed 62: Klondike-Solver wins it in one run.
    # Begun with 10,000 positions and doubled, the lean look won it after 92,379 positions
    # (each run redoing the last's work); one run of LEAN_BASE wins it within 21,000.
    pos = deal("klondike", 62, {"draw": 3, "foundation_return": True})
    r = run_out(_lean(pos, False, None))
    assert r.verdict == "won" and r.nodes < 25_000
    assert replays_to_a_win(pos, r.moves)


def _cycle(q, kn):
    """The talon's states after each turn of one cycle (as the solver keeps them)."""
    return _talon_states(q, (STOCK, kn.S, 0, -1))


@pytest.mark.parametrize("options", [{"draw": 1}, {"draw": 3},
                                     {"draw": 1, "foundation_return": True},
                                     {"draw": 3, "foundation_return": True}])
def test_lean_moves_are_legal_and_move_whole_runs_or_free_a_card(options):
    # Along random games: every move the lean look offers is legal where it is played (the
    # stock turned one card at a time first, for a card from the talon); a run moved onto
    # another pile is the pile's whole face-up part, or uncovers a card a foundation takes;
    # a card comes back from a foundation only where the engine allows it.
    rng = random.Random(5)
    kn = knowledge(deal("klondike", 1, options).variant)

    def cycle(q):
        return _cycle(q, kn)
    offered = 0
    for seed in range(1, 13):
        pos = deal("klondike", seed, options)
        for _ in range(50):
            for seq in _lean_moves(kn, pos, None, cycle):
                q = pos.copy()
                for m in seq:
                    if m[0] == JUMP:
                        for _ in range(m[1]):
                            assert m[2] in q.raw_moves()
                            q.push_raw(m[2])
                        continue
                    assert m in q.raw_moves(), (seed, m)
                    if m[0] == MOVE and m[1] in kn.Tset and m[3] in kn.Tset and q.piles[m[3]]:
                        p, n = q.piles[m[1]], m[2]
                        up = len(p) - q.down[m[1]]
                        assert n == up or p[-n - 1] in q.engine._foundation_map(q.piles)
                    q.push_raw(m)
                    offered += 1
            ms = pos.raw_moves()
            if not ms:
                break
            pos.push_raw(rng.choice(ms))
    assert offered > 500


def test_the_only_move_or_a_low_card_up_is_offered_alone():
    # The foundations are empty: a card of a rank below 2 + the lowest foundation's height
    # (an ace) goes up at once, the only move offered (Klondike-Solver's rule), though the
    # stock could be turned and the 5♦ would then be free.
    pos = made("klondike", {"t1": ("5d ah", 1), "t2": "9c", "s": ("kd qs", 2)},
               options={"draw": 1})
    kn = knowledge(pos.variant)
    ms = _lean_moves(kn, pos, None, lambda q: _cycle(q, kn))
    assert len(ms) == 1 and ms[0][0][0] == MOVE and ms[0][0][1] == 0 and ms[0][0][3] in kn.Fset


def test_moves_left_counts_the_talon_the_tableau_and_the_digging():
    # stock 3 cards, draw 1: 3 cards + 3 turns; waste 6♣ 7♣ (7♣ above a lower club): 2 + 1;
    # t1 3♠ 2♠ (face down) K♥: 3 cards + 2 face down, and 3♠ lies beneath the lower 2♠: + 1.
    pos = made("klondike", {"t1": ("3s 2s kh", 2), "s": ("4d 5d 6d", 3), "w": "6c 7c"},
               options={"draw": 1})
    kn = knowledge(pos.variant)
    assert kn.moves_left(pos) == 6 + 3 + 6
    pos3 = made("klondike", {"t1": ("3s 2s kh", 2), "s": ("4d 5d 6d", 3), "w": "6c 7c"},
                options={"draw": 3})
    assert knowledge(pos3.variant).moves_left(pos3) == 4 + 3 + 6  # one turn of three


def test_the_lean_look_runs_only_where_its_rules_hold():
    assert knowledge(deal("klondike", 1).variant).lean
    for key in ("spider", "golf", "streets-and-alleys", "pyramid", "forty-thieves"):
        assert not knowledge(deal(key, 1).variant).lean, key


def test_the_lean_look_joins_only_once_the_others_have_had_their_positions(monkeypatch):
    # A hint's samples are solved in hundredths of a second: the lean look, which costs the
    # most a position, joins only after LEAN_AFTER positions of the others.
    from companion.solver import Limits, search
    joined = []

    def fake_lean(pos, short, max_states):
        joined.append(True)
        while True:
            yield 0, 0

    monkeypatch.setattr(portfolio, "_lean", fake_lean)
    monkeypatch.setattr(portfolio, "LEAN_AFTER", 2_000)
    pos = deal("klondike", 62, {"draw": 1})  # (not won within these budgets)
    r = search.solve(pos, Limits(seconds=None, nodes=1_500), short=False)
    assert r.verdict == "unknown" and not joined
    search.solve(pos, Limits(seconds=None, nodes=3_000), short=False)
    assert joined


def test_the_lean_look_on_bytes_is_the_same_search_as_through_the_engine():
    # Where the fast whole search's rules hold (Klondike), the lean look plays on the piles'
    # bytes (``_lean_bytes``): the same moves in the same order, the same priorities and
    # keys, so the same positions, the same verdicts and the same lines, on deals and on
    # positions along random games (the stock turned part way, passes begun, idle ones).
    from companion.solver.search import _lean_bytes, _lean_engine

    def run(search, pos, most=2_000):
        gen, n = search(pos, False, None), 0
        try:
            while n < most:
                n = next(gen)[0]
        except StopIteration as done:
            r = done.value
            return r.verdict, r.nodes, r.states, r.raw
        return "unknown", n

    rng = random.Random(3)
    compared = won = 0
    for k in range(36):
        options = {"draw": (1, 3)[k % 2], "foundation_return": k % 4 >= 2}
        pos = deal("klondike", 1 + k, options)
        for _ in range(rng.randrange(0, 60) if k >= 12 else 0):
            ms = pos.raw_moves()
            if not ms or pos.is_blocked():
                break
            pos.push_raw(rng.choice(ms))
        if pos.is_won() or pos.is_blocked():
            continue
        a, b = run(_lean_engine, pos), run(_lean_bytes, pos)
        assert a == b, (k, a[:3], b[:3])
        compared += 1
        won += a[0] == "won"
    assert compared >= 30 and won >= 10

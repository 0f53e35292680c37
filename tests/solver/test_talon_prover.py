"""Klondike's fast prover (``search._exhaust_talon``): the whole search played on the piles'
bytes and the talon as one sequence with a pointer, not through the engine."""

from __future__ import annotations

import random

import pytest
from solverhelp import agrees_with_naive, made, naive, replays_to_a_win, run_out, small_klondike

from companion.rules import deal
from companion.rules.engine import STOCK
from companion.solver import Limits, portfolio, solve
from companion.solver.search import _exhaust_talon, _steps, knowledge

OPTIONS = [{"draw": 1}, {"draw": 3}, {"draw": 1, "foundation_return": True},
           {"draw": 3, "foundation_return": True}]


def late_klondike(rng: random.Random, options: dict, low: int, stock: int):
    """A small late Klondike position (see ``small_klondike``) with the stock turned a few
    times: a waste, and the pointer part way through the stock."""
    pos = small_klondike(rng, options, low=low, stock=stock)
    for _ in range(rng.choice([0, 1, 2, 3, 5])):
        if not pos.piles[pos.engine.groups.stock]:
            break  # (turning the waste over would leave the position idle)
        pos.push_raw((STOCK, pos.engine.groups.stock, 0, -1))
    return pos


@pytest.mark.parametrize("options", OPTIONS[:2])
def test_klondike_fast_prover_agrees_with_the_exhaustive_search(options):
    # Its verdicts are those of the plain exhaustive search over exact positions (no
    # symmetry, no safe moves, every stock action a move of its own), and its won lines
    # replay move by move, each stock turn of its jumps through the talon included. (With
    # foundation returns the plain search's space is too large for a test: see the next.)
    rng = random.Random(23)
    verdicts = []
    for _ in range(60):
        pos = late_klondike(rng, options, low=rng.choice([3, 4, 5]), stock=7)
        assert knowledge(pos.variant).talon_exhaustible(pos)
        truth = agrees_with_naive(pos, _exhaust_talon, 5000)
        if truth is not None:
            verdicts.append(truth)
    assert verdicts.count("won") >= 30 and verdicts.count("lost") >= 5


@pytest.mark.parametrize("options", OPTIONS)
def test_klondike_fast_prover_agrees_with_the_search_it_replaces(options):
    # Positions too large for the plain search: the verdicts of the depth-first search of
    # ``_steps`` (through the engine), which the fast prover replaces in the portfolio.
    rng = random.Random(31)
    verdicts = []
    for _ in range(25):
        pos = late_klondike(rng, options, low=rng.choice([3, 5]), stock=20)
        fast = run_out(_exhaust_talon(pos, False, 40_000))
        slow = run_out(_steps(pos, None, False, "depth", False, 80_000))
        if "unknown" in (fast.verdict, slow.verdict):
            continue
        assert fast.verdict == slow.verdict, pos.text(False)
        verdicts.append(fast.verdict)
    assert len(verdicts) >= 20 and "won" in verdicts


def test_a_card_back_from_the_foundations_wins_what_is_lost_without_it():
    # 4♥ lies face down under 5♥, which only a black 6 takes: 6♠ is face down beneath 4♥,
    # 6♣ is on the clubs' foundation. With foundation returns, 6♣ comes back onto 7♥,
    # 5♥ goes onto it, and 4♥ is turned: won. Without, lost.
    for draw in (1, 3):
        piles = {"f1": "As 2s 3s 4s", "f2": "Ah 2h 3h",
                 "f3": "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd", "f4": "Ac 2c 3c 4c 5c 6c",
                 "t1": "7h", "t2": ("6s 4h 5h", 2), "t3": ("Kc Qc Jc 10c 9c 8c 7c", 6),
                 "t4": ("Kh Qh Jh 10h 9h 8h 6h", 6), "t5": ("Ks Qs Js 10s 9s 8s 7s", 6),
                 "t6": "5s"}
        lost = made("klondike", piles, options={"draw": draw})
        assert naive(lost) == "lost"
        assert run_out(_exhaust_talon(lost, False, None)).verdict == "lost"
        back = made("klondike", piles, options={"draw": draw, "foundation_return": True})
        r = run_out(_exhaust_talon(back, False, None))
        assert r.verdict == "won" and replays_to_a_win(back, r.moves)
        assert any(m.startswith("f") for m in r.moves)  # (a card comes back)


def test_klondike_fast_prover_proves_a_deal_lost():
    # Draw 3 with foundation returns, seed 150: Klondike-Solver says lost (within its own
    # pruning of the moves); the fast prover searches all of some 16,000 positions (0.5 s
    # here; the search of ``_steps`` took 2.3 s for 34,475 keys), and proves it.
    pos = deal("klondike", 150, {"draw": 3, "foundation_return": True})
    r = run_out(_exhaust_talon(pos, False, None))
    assert r.verdict == "lost" and r.states > 10_000
    assert run_out(_steps(pos, None, False, "depth", False, None)).verdict == "lost"


def test_klondike_fast_prover_wins_a_deal_and_the_line_replays():
    pos = deal("klondike", 3, {"draw": 3})
    r = run_out(_exhaust_talon(pos, True, None))
    assert r.verdict == "won" and replays_to_a_win(pos, r.moves)


def test_klondike_portfolio_proves_losses_with_the_fast_prover(monkeypatch):
    calls = []
    real = portfolio._exhaust_talon

    def spy(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(portfolio, "_exhaust_talon", spy)
    pos = deal("klondike", 150, {"draw": 3, "foundation_return": True})
    r = solve(pos, Limits(seconds=None, nodes=200_000))
    assert calls and r.verdict == "lost"


def test_the_fast_talon_prover_is_only_for_games_whose_rules_it_plays():
    def able(key, options=None, seed=1) -> bool:
        pos = deal(key, seed, options or {})
        return knowledge(pos.variant).talon_exhaustible(pos)

    for options in OPTIONS:
        assert able("klondike", options)
    assert able("solitaire")
    assert not able("klondike", {"passes": 3})  # (a pass count in the position)
    assert not able("klondike", {"face_up_block_only": True})  # (whole blocks only)
    for key in ("spider", "golf", "streets-and-alleys", "pyramid", "forty-thieves"):
        assert not able(key), key
    # idle: the last pass changed nothing, and the stock's end would block the game
    idle = made("klondike", {"t1": "Ks", "w": "5h 7c"}, idle=True)
    assert not knowledge(idle.variant).talon_exhaustible(idle)


def test_klondike_fast_prover_tries_the_preferred_moves_first():
    # The hints' samples agree on their first move where they can: the moves preferred
    # come first at the root, in the order given.
    # Seed 27 (draw 3): four moves between the piles at the start, no card to send up.
    pos = deal("klondike", 27, {"draw": 3})
    legal = [m for m in pos.raw_moves() if m[0] != STOCK]
    assert len(legal) == 4
    for m in legal:
        r = run_out(_exhaust_talon(pos, False, None, prefer=[m]))
        assert r.verdict == "won" and r.raw[0] == m and replays_to_a_win(pos, r.moves)

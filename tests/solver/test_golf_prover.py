"""Golf's fast whole search (``search._exhaust_sink``): positions as numbers (the piles'
heights, the stock's, the waste top's rank), one bit each, not through the engine."""

from __future__ import annotations

import random

import pytest
from solverhelp import agrees_with_naive, made, replays_to_a_win, run_out, small_golf, switched

from companion.cards import CARDS, Card
from companion.rules import deal
from companion.rules.engine import MOVE, STOCK
from companion.solver import Limits, solve
from companion.solver.search import _exhaust_sink, _sink_classes, _steps, knowledge


def _golf(piles: dict, **kw):
    return made("golf", piles, **kw)


@pytest.mark.parametrize("options", [{}, {"kings_block": True}])
def test_golf_fast_search_agrees_with_the_exhaustive_search(options):
    # Its verdicts are those of the plain exhaustive search over exact positions (no
    # symmetry, no cut), on random late positions, some with cards that can no longer
    # leave; its won lines replay move by move.
    rng = random.Random(41)
    verdicts = []
    for n in range(120):
        pos = small_golf(rng, most=rng.choice([2, 3]), stock=(1, 8), buried=n % 2 == 0,
                         options=options)
        assert knowledge(pos.variant).sink_exhaustible(pos)
        truth = agrees_with_naive(pos, _exhaust_sink, 20_000)
        if truth is not None:
            verdicts.append(truth)
    assert verdicts.count("won") >= 10 and verdicts.count("lost") >= 40


def test_golf_fast_search_agrees_with_the_search_it_replaces():
    # Positions too large for the plain search: the verdicts of the best-first search
    # through the engine, which it replaces in the portfolio.
    rng = random.Random(8)
    verdicts = []
    for _ in range(25):
        pos = small_golf(rng, most=4, stock=(6, 12))
        fast = run_out(_exhaust_sink(pos, False, None))
        slow = run_out(_steps(pos, None, False, "best", False, 60_000))
        if "unknown" in (fast.verdict, slow.verdict):
            continue
        assert fast.verdict == slow.verdict, pos.text(False)
        verdicts.append(fast.verdict)
    assert len(verdicts) >= 15 and {"won", "lost"} <= set(verdicts)


@pytest.mark.parametrize("seed, verdict", [(1, "lost"), (2, "won"), (5, "lost"), (13, "won"),
                                           (16, "lost")])
def test_golf_deals_get_the_engine_searchs_verdicts(seed, verdict, monkeypatch):
    # Whole deals the search through the engine settles within seconds (its verdicts
    # before this search existed): the same verdicts, the won lines replay.
    pos = deal("golf", seed)
    r = solve(pos, Limits(seconds=60))
    assert r.verdict == verdict and "positions" in r.reason
    if verdict == "won":
        assert replays_to_a_win(pos, r.moves)
    switched(monkeypatch, fast_sink=False)
    assert solve(pos, Limits(seconds=60)).verdict == verdict


def test_golf_deal_the_engine_search_leaves_unknown_is_settled():
    # Golf seed 10: the best-first search through the engine searched 1.5 million
    # positions in 30 s without a verdict. The fast search searches every reachable
    # position (1.6 million once the cards that can no longer leave are cut short).
    pos = deal("golf", 10)
    r = solve(pos, Limits(seconds=120))
    assert r.verdict == "lost" and r.states > 1_000_000
    assert r.reason.startswith("all ") and "none is won" in r.reason


def test_golf_ranks_are_its_classes():
    # Suits are ignored: the waste is named by its top card's rank. With the dead king
    # nothing goes on a king, but a king still goes on a queen.
    cls, ok = _sink_classes(deal("golf", 1).engine)
    assert len(ok) == 13 and all(cls[c] == cls[c % 13] for c in range(52))
    seven, eight, queen, king, ace, two = (cls[Card.parse(t).code]
                                           for t in ("7c", "8h", "qd", "ks", "ah", "2s"))
    assert ok[seven][eight] and ok[eight][seven] and not ok[seven][seven]
    assert ok[king][queen] and ok[ace][two] and not ok[king][ace] and not ok[ace][king]
    pos = _golf({"t1": "qd", "s": ("2c", 1), "w": "ks"}, options={"kings_block": True})
    cls, ok = _sink_classes(pos.engine)
    assert not any(ok[cls[Card.parse("ks").code]]) and ok[queen][king]


def test_golf_dead_king_is_respected():
    # Q♦ onto K♠ wins, unless nothing may go on a king.
    piles = {"t1": "qd", "s": ("2c", 1), "w": "ks"}
    assert solve(_golf(piles)).verdict == "won"
    assert solve(_golf(piles, options={"kings_block": True})).verdict == "lost"


def test_golf_fast_search_tries_the_preferred_first_move_first():
    # Three first moves win from 5♠: 4♦ 5♣ 6♥, 6♥ 5♣ 4♦, and the stock's 7♠ then 6♥ 5♣ 4♦.
    # The line starts with the one preferred (the hints' vote); unpreferred, pile by pile.
    used = {Card.parse(t).code for t in ("4d", "6h", "5c", "5s", "7s")}
    rest = " ".join(CARDS[c].text(False) for c in range(52) if c not in used)
    pos = _golf({"t1": "4d", "t2": "6h", "t3": "5c", "s": ("7s", 1), "w": f"{rest} 5s"})
    W, S = pos.engine.groups.waste, pos.engine.groups.stock
    t1, t2, turn = (MOVE, 0, 1, W), (MOVE, 1, 1, W), (STOCK, S, 0, -1)
    assert solve(pos, short=False).raw[0] == t1
    for m in (t2, turn):
        r = solve(pos, prefer=[m], short=False)
        assert r.verdict == "won" and r.raw[0] == m and replays_to_a_win(pos, r.moves)


def test_golf_card_with_nothing_left_to_go_on_is_lost_at_the_root():
    # Every 6 and 8 is on the waste, under a king: the 7♣ can never leave.
    pos = _golf({"t1": "7c 10h", "t2": "9h", "s": ("10s", 1),
                 "w": "6s 6h 6d 6c 8s 8h 8d 8c Ks"})
    r = run_out(_exhaust_sink(pos, False, None))
    assert r.verdict == "lost" and r.nodes == 0 and "can never leave" in r.reason
    # The only 8 left lies beneath the 7♣: it is no way out.
    pos = _golf({"t1": "8c 7c", "t2": "9h", "s": ("10s", 1),
                 "w": "6s 6h 6d 6c 8s 8h 8d Ks"})
    r = run_out(_exhaust_sink(pos, False, None))
    assert r.verdict == "lost" and r.nodes == 0


def test_golf_fast_search_applies_only_where_its_rules_hold():
    # A face-down tableau card (a position typed in with one unknown to the search's
    # rules), an empty waste, a memory budget smaller than its table, or another game:
    # the search through the engine runs instead.
    golf = deal("golf", 3)
    kn = knowledge(golf.variant)
    assert kn.sink_exhaustible(golf)
    assert not kn.sink_exhaustible(golf, max_bytes=1_000_000)  # its table: 7.7 MB
    down = _golf({"t1": ("7c 8h", 1), "s": ("2c", 1), "w": "ks"})
    assert not knowledge(down.variant).sink_exhaustible(down)
    empty = _golf({"t1": "7c 8h", "s": ("2c", 1)})
    assert not knowledge(empty.variant).sink_exhaustible(empty)
    for key in ("klondike", "pyramid", "streets-and-alleys", "accordion", "gaps"):
        pos = deal(key, 1)
        assert not knowledge(pos.variant).sink_exhaustible(pos), key

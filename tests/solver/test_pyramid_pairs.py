"""Pyramid's search of the pyramid and the talon (``search._exhaust_pairs``): the pyramid's
cards left as a bit mask and the talon as one sequence, its pointer left out (turning the
stock over without end reaches every pointer); won lines played out in the engine."""

from __future__ import annotations

import random

import pytest
from solverhelp import agrees_with_naive, pyramid_removals, replays_to_a_win, run_out, switched

from companion.rules import deal
from companion.rules.engine import STOCK
from companion.solver import Limits, solve
from companion.solver.search import _exhaust_pairs, knowledge


def late_pyramid(rng: random.Random, low: int, high: int):
    """A Pyramid deal after ``low``-``high`` random legal moves, most of them removals (the
    stock turned now and then), as a fresh position; None where it is idle (a pass with
    nothing removed since the last turn-over) or over."""
    pos = deal("pyramid", rng.randrange(1, 10_000))
    return pyramid_removals(pos, rng, rng.randint(low, high), 0.8)


def test_pyramid_search_agrees_with_the_exhaustive_search():
    # The verdicts of the plain exhaustive search through the engine (every turn of the
    # stock a move, the pointer part of the position), won and lost; won lines replay.
    rng = random.Random(12)
    verdicts = []
    for _ in range(150):
        pos = late_pyramid(rng, 25, 70)
        if pos is None:
            continue
        assert knowledge(pos.variant).pairs_exhaustible(pos)
        truth = agrees_with_naive(pos, _exhaust_pairs, 20_000)
        if truth is not None:
            verdicts.append(truth)
    assert verdicts.count("won") >= 15 and verdicts.count("lost") >= 15


@pytest.mark.parametrize("seed", [1, 2, 5, 10])
def test_pyramid_deals_won_by_it_replay(seed):
    # Its own lines (the stock turned and turned over between removals), from the deal.
    pos = deal("pyramid", seed)
    r = run_out(_exhaust_pairs(pos, True, None))
    assert r.verdict == "won" and replays_to_a_win(pos, r.moves)
    assert "s" in r.moves


def test_pyramid_deal_the_engine_search_leaves_unknown_is_proved_lost(monkeypatch):
    # Seed 3: the depth-first search through the engine searches 5,000 positions (and
    # 50,000) without a verdict; this search proves the loss (all 338 positions of its own).
    pos = deal("pyramid", 3)
    r = solve(pos, Limits(seconds=60))
    assert r.verdict == "lost" and "every one within reach" in r.reason
    switched(monkeypatch, fast_pairs=False)
    assert solve(pos, Limits(seconds=None, nodes=5_000)).verdict == "unknown"


def test_pyramid_search_applies_only_where_its_rules_hold():
    # Limited passes (the pointer no longer reaches every card), the goal of clearing all 52
    # cards (both searched by ``_exhaust_pyramid``: see test_pyramid_passes.py), an idle
    # position, another game: not this search.
    pos = deal("pyramid", 4)
    assert knowledge(pos.variant).pairs_exhaustible(pos)
    for options in ({"passes": 3}, {"goal": "clear-all"}):
        other = deal("pyramid", 4, options=options)
        assert not knowledge(other.variant).pairs_exhaustible(other), options
    idle = pos.copy()
    while idle.piles[idle.engine.groups.stock]:
        idle.push_raw((STOCK, idle.engine.groups.stock, 0, -1))
    idle.push_raw((STOCK, idle.engine.groups.stock, 0, -1))  # turned over: nothing removed yet
    assert idle.idle and not knowledge(idle.variant).pairs_exhaustible(idle)
    for key in ("klondike", "golf", "accordion", "gaps"):
        other = deal(key, 1)
        assert not knowledge(other.variant).pairs_exhaustible(other), key

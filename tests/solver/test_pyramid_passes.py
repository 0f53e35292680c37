"""Pyramid's search with the passes limited, or all 52 cards to clear (``search._exhaust_pyramid``):
the pyramid's cards left as a bit mask, the talon as one sequence with a pointer, whether the
stock's top card is up, and the pass; positions whose pyramid cannot be cleared even with the
passes unlimited are not searched further. Its verdicts are checked against the plain exhaustive
search through the engine; its won lines replay there."""

from __future__ import annotations

import random

import pytest
from solverhelp import agrees_with_naive, pyramid_removals, replays_to_a_win, run_out, switched

from companion.rules import deal
from companion.solver import Limits, solve
from companion.solver.search import _exhaust_pyramid, knowledge


def late_pyramid(rng: random.Random, options: dict):
    """A Pyramid deal with ``options`` near its end, as a fresh position (None where the deal
    is not won within a second, or the position is over or idle): most of the way along a
    winning line, then up to three random moves, most of them removals (which lose some)."""
    pos = deal("pyramid", rng.randrange(1, 10_000), options=options)
    r = solve(pos, Limits(seconds=1), short=False)
    if r.verdict != "won":
        return None
    for m in r.moves[:rng.randint(len(r.moves) * 4 // 5, len(r.moves) - 1)]:
        pos.play(m)
    return pyramid_removals(pos, rng, rng.randint(0, 3), 0.7)


@pytest.mark.parametrize("options", [{"passes": 3}, {"passes": 3, "goal": "clear-all"}])
def test_search_agrees_with_the_exhaustive_search_near_the_end(options):
    # Positions near the end of won deals, some spoilt by random moves: the plain search
    # through the engine (every turn of the stock a move) settles them; this one agrees.
    rng = random.Random(sum(map(ord, repr(options))))
    verdicts = []
    for _ in range(60):
        pos = late_pyramid(rng, options)
        if pos is None:
            continue
        assert knowledge(pos.variant).pyramid_talon_exhaustible(pos)
        truth = agrees_with_naive(pos, _exhaust_pyramid, 20_000)
        if truth is not None:
            verdicts.append(truth)
    assert verdicts.count("won") >= 10, verdicts


def test_cleared_pyramid_with_talon_left_is_not_cut(monkeypatch):
    # Seed 32, one pass, all 52 cards to clear, is won. Its winning line clears the pyramid
    # with talon cards left; the bound (the pyramid cleared with the passes unlimited) must
    # count a cleared pyramid as cleared, or the search would call the deal lost.
    pos = deal("pyramid", 32, options={"passes": 1, "goal": "clear-all"})
    r = run_out(_exhaust_pyramid(pos, False, None))
    assert r.verdict == "won" and replays_to_a_win(pos, r.moves)


@pytest.mark.parametrize("options", [{"passes": 3}, {"passes": 1, "goal": "clear-all"},
                                     {"goal": "clear-all"}])
@pytest.mark.parametrize("seed", [1, 5, 12])
def test_deals_won_by_it_replay(options, seed):
    pos = deal("pyramid", seed, options=options)
    r = run_out(_exhaust_pyramid(pos, True, None))
    if r.verdict == "won":
        assert replays_to_a_win(pos, r.moves)
    else:
        assert r.verdict == "lost"


def test_three_passes_deal_left_unknown_by_the_engine_is_proved_lost(monkeypatch):
    # Seed 3 with three passes: the depth-first search through the engine has no verdict
    # after 10,000 positions (nor in 10 s); this search proves the loss at once.
    pos = deal("pyramid", 3, options={"passes": 3})
    r = solve(pos, Limits(seconds=60))
    assert r.verdict == "lost" and "later pass" in r.reason
    switched(monkeypatch, fast_pyramid=False)
    assert solve(pos, Limits(seconds=None, nodes=10_000)).verdict == "unknown"


def test_the_unlimited_passes_bound_is_what_settles_it(monkeypatch):
    # Seed 7 with three passes is lost: without the bound (the pyramid that cannot be
    # cleared even with the passes unlimited), its own search has no verdict after 200,000
    # positions; with it, a few hundred.
    pos = deal("pyramid", 7, options={"passes": 3})
    r = run_out(_exhaust_pyramid(pos, False, None))
    assert r.verdict == "lost" and r.nodes < 5_000
    switched(monkeypatch, relaxed=False)
    gen = _exhaust_pyramid(pos, False, 200_000)
    assert run_out(gen).verdict == "unknown"


def test_won_three_pass_deal_matches_the_winning_line_played_in_the_engine():
    # Seed 1 with three passes is won; the line's every move is legal in turn and ends with
    # the pyramid cleared (no card of the pyramid left).
    pos = deal("pyramid", 1, options={"passes": 3})
    r = solve(pos, Limits(seconds=30), short=False)
    assert r.verdict == "won"
    q = pos.copy()
    for m in r.moves:
        q.play(m)
    assert q.is_won() and not any(q.piles[i] for i in q.engine.groups.pyramid)


def test_applies_only_where_its_rules_hold():
    # Passes limited (any goal), or all 52 cards to clear: this search; the default rules
    # (unlimited passes, the pyramid to clear) keep the search by rank classes; other games
    # neither.
    for options in ({"passes": 1}, {"passes": 3}, {"passes": 3, "goal": "clear-all"},
                    {"goal": "clear-all"}):
        pos = deal("pyramid", 4, options=options)
        kn = knowledge(pos.variant)
        assert kn.pyramid_talon_exhaustible(pos) and not kn.pairs_exhaustible(pos), options
    pos = deal("pyramid", 4)
    assert not knowledge(pos.variant).pyramid_talon_exhaustible(pos)
    for key in ("klondike", "golf", "accordion", "gaps"):
        other = deal(key, 1)
        assert not knowledge(other.variant).pyramid_talon_exhaustible(other), key

"""Engine.gen_talon: exactly the stock and waste moves of the full generator, in its order."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import deal, variant_keys
from companion.rules.engine import STOCK


def _talon_of_full_gen(pos):
    eng = pos.engine
    S, W = eng.S, eng.W
    return [m for m in pos.raw_moves() if m[0] == STOCK or m[1] in (S, W) or m[3] in (S, W)]


@pytest.mark.parametrize("key", [k for k in variant_keys() if deal(k, 1).engine.S >= 0])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False))
def test_talon_moves_match_the_full_generator(key, seed, rng):
    pos = deal(key, seed)
    for _ in range(120):
        assert pos.engine.gen_talon(pos) == _talon_of_full_gen(pos)
        moves = pos.raw_moves()
        if not moves or pos.is_won():
            break
        # lean on the stock so that many positions have a waste to look at
        stock = [m for m in moves if m[0] == STOCK]
        pos.push_raw(stock[0] if stock and rng.random() < 0.5 else rng.choice(moves))


@pytest.mark.parametrize("key", [k for k in variant_keys() if deal(k, 1).engine.S >= 0])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False))
def test_waste_mover_matches_the_talon_moves_through_a_stock_cycle(key, seed, rng):
    # The solver's scan through the stock asks the tableau and foundations once, then only
    # the waste's top card at each turn: the same moves as the talon generator at each turn.
    pos = deal(key, seed)
    checked = 0
    for _ in range(60):
        moves = pos.raw_moves()
        if not moves or pos.is_won():
            break
        mover = pos.engine.waste_mover(pos)
        if mover is not None:
            q = pos.copy()
            for _ in range(30):
                assert mover(q) == [m for m in q.engine.gen_talon(q) if m[0] != STOCK]
                checked += 1
                stock = [m for m in q.raw_moves() if m[0] == STOCK]
                if not stock:
                    break
                q.push_raw(stock[0])
        pos.push_raw(rng.choice(moves))
    if key in ("klondike", "solitaire"):
        assert checked

"""Engine.gen_talon: exactly the stock and waste moves of the full generator, in its order."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import deal, variant_keys
from companion.rules.engine import STOCK


def _talon_of_full_gen(pos):
    eng = pos.engine
    S, W = eng.groups.stock, eng.groups.waste
    return [m for m in pos.raw_moves() if m[0] == STOCK or m[1] in (S, W) or m[3] in (S, W)]


@pytest.mark.parametrize("key", [k for k in variant_keys() if deal(k, 1).engine.groups.stock >= 0])
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


@pytest.mark.parametrize("key", [k for k in variant_keys() if deal(k, 1).engine.groups.stock >= 0])
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
                want = [m for m in q.engine.gen_talon(q) if m[0] != STOCK]
                assert mover(q) == want
                # where the moves are the top card's alone: the same by the card, and the
                # card is among the live ones (the scan looks no further at the others)
                w = q.piles[q.engine.groups.waste]
                if mover.of_top is not None and w:
                    assert mover.of_top(w[-1]) == want
                    assert bool(mover.live >> w[-1] & 1) == bool(want)
                checked += 1
                stock = [m for m in q.raw_moves() if m[0] == STOCK]
                if not stock:
                    break
                q.push_raw(stock[0])
        pos.push_raw(rng.choice(moves))
    if key in ("klondike", "solitaire"):
        assert checked


def _jumping_variants():
    from companion.solver.search import knowledge
    return [k for k in variant_keys() if knowledge(deal(k, 1).variant).probe]


@pytest.mark.parametrize("key", _jumping_variants())
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False))
def test_push_turns_is_k_turns_of_the_stock_undone_by_one_pop(key, seed, rng):
    # The solver jumps through the stock to a talon state it has seen (Position.push_turns):
    # the position, its history and its undo must be those of k single turns.
    pos = deal(key, seed)
    eng = pos.engine
    S, W = eng.groups.stock, eng.groups.waste
    for _ in range(40):
        moves = pos.raw_moves()
        if not moves or pos.is_won():
            break
        stock = [m for m in moves if m[0] == STOCK]
        if stock:
            turned = pos.copy(stack=True)
            k, want = 0, rng.randint(1, 30)
            while k < want:
                more = [m for m in turned.raw_moves() if m[0] == STOCK]
                if not more:
                    break
                turned.push_raw(more[0])
                k += 1
            if k:
                jumped = pos.copy(stack=True)
                jumped.push_turns(stock[0], k, (turned.piles[S], turned.piles[W],
                                                turned.down[S], turned.pass_no, turned.idle))
                assert jumped.key() == turned.key()
                assert jumped.history == turned.history
                jumped.pop()
                assert jumped.key() == pos.key() and jumped.history == pos.history
        pos.push_raw(rng.choice(moves))


def test_the_solver_jumps_through_klondikes_stock():
    assert "klondike" in _jumping_variants()

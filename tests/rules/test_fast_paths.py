"""The engine's fast paths give what the plain generator gives, on random positions of every
variant: the same moves in the same order (the solver's node counts depend on that order)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import deal, variant_keys
from companion.rules.engine import MOVE


def _walk(pos, rng, steps=120):
    """The positions of a random game from ``pos`` (each with its legal moves), till it is
    won or blocked."""
    for _ in range(steps):
        moves = pos.raw_moves()
        yield pos, moves
        if not moves or pos.is_won():
            return
        pos.push_raw(rng.choice(moves))


@pytest.mark.parametrize("key", variant_keys())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False))
def test_moves_from_one_pile_match_the_full_generator(key, seed, rng):
    for pos, moves in _walk(deal(key, seed), rng):
        for i in pos.engine.groups.tableau:
            assert pos.engine.gen_from(pos, i) == [m for m in moves
                                                   if m[0] == MOVE and m[1] == i]


@pytest.mark.parametrize("key", variant_keys())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False))
def test_tableau_moves_lift_the_units_the_engine_names(key, seed, rng):
    # The generator finds the run on top of a pile by itself (no call per pile); the units it
    # moves are the ones Engine.units names, which the refusal reasons rely on.
    for pos, moves in _walk(deal(key, seed), rng):
        eng = pos.engine
        for kind, a, n, b in moves:
            if kind == MOVE and a in eng.groups.tableau_set and b in eng.groups.tableau_set:
                sizes = eng.space_units(pos, a) if not pos.piles[b] else eng.units(pos, a)
                assert n in tuple(sizes)


@pytest.mark.parametrize("key", variant_keys())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False))
def test_moves_up_match_the_full_generator(key, seed, rng):
    # What the solver's safe moves look at, generated alone (Engine.gen_up).
    for pos, moves in _walk(deal(key, seed), rng):
        F = pos.engine.groups.foundation_set
        assert pos.engine.gen_up(pos) == [m for m in moves
                                          if m[0] == MOVE and m[3] in F and m[1] not in F]

"""An independent oracle for the solver's proofs: a deal that random play can win is never
"lost". (This would have caught the stock scan that proved every Pyramid deal lost.)"""

from __future__ import annotations

import random

import pytest

from companion.rules import deal, variant_keys
from companion.solver.search import Limits, solve


def _random_win(key: str, seed: int, tries: int = 12, length: int = 300) -> bool:
    rng = random.Random(seed)
    for _ in range(tries):
        pos = deal(key, seed)
        for _ in range(length):
            if pos.is_won():
                return True
            moves = pos.raw_moves()
            if not moves or pos.is_blocked():
                break
            pos.push_raw(rng.choice(moves))
        if pos.is_won():
            return True
    return False


@pytest.mark.parametrize("key", variant_keys())
def test_a_deal_random_play_wins_is_never_proved_lost(key):
    for seed in range(1, 7):
        if _random_win(key, seed):
            verdict = solve(deal(key, seed), Limits(seconds=None, nodes=3_000)).verdict
            assert verdict != "lost", f"{key} seed {seed}: random play wins it"

"""The documented shuffle: SplitMix64 and a Fisher-Yates pass (what every seeded deal and
every shuffled redeal uses)."""

from __future__ import annotations

from ..errors import VariantError

MASK = (1 << 64) - 1
MAX_SEED = (1 << 32) - 1


class SplitMix64:
    def __init__(self, state: int):
        self.state = state & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            r = self.next()
            if r < limit:
                return r % n


def shuffled(cards: list[int] | tuple[int, ...], seed: int, stream: int = 0) -> list[int]:
    """A copy of ``cards`` shuffled by the documented algorithm."""
    if not 0 <= seed <= MAX_SEED:
        raise VariantError(f"seed {seed} is out of range: use a whole number from 0 to {MAX_SEED}")
    rng = SplitMix64(seed + (stream << 32))
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out

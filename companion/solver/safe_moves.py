"""Safe moves, played at once (the :class:`SafeMoves` part of :class:`~.knowledge.Knowledge`):
a card sent up to its foundation when nothing can still need it, a card that pairs with none
(Pyramid's kings) removed as soon as it is free, Accordion's next card dealt; and the same test
written for the fast searches (:func:`_safe_test`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..cards import UNKNOWN
from ..rules.engine import MOVE, STOCK, Raw
from ..rules.position import Position
from .derived import Derived

# :func:`_safe_test`'s test: (a card a foundation takes, the foundation that takes each card
# or -1, how many of each card the foundations hold) -> whether nothing can still need it.
SafeTest = Callable[[int, Sequence[int], Sequence[int]], bool]


class SafeMoves(Derived):
    """Safe automatic moves, from the tables :class:`~.knowledge.Knowledge` derives."""

    def safe_move(self, pos: Position, moves: Iterable[Raw]) -> Raw | None:
        """A move of ``moves`` that sends a card up which nothing can still need (or, in
        Accordion, deals the next card), or None."""
        if self.deal_first:
            for m in moves:
                if m[0] == STOCK:
                    return m
        if self.lone:
            for m in moves:
                if m[0] == MOVE and m[3] in self.Fset and pos.piles[m[1]][-1] in self.lone:
                    return m
        if not self.auto:
            return None
        piles = pos.piles
        onf = takes = None
        Fset, sources = self.Fset, self.auto_sources
        for m in moves:
            if m[0] != MOVE or m[3] not in Fset or m[1] not in sources:
                continue
            src = piles[m[1]]
            c = src[-1]
            need = self.needers.get(c, (UNKNOWN,))
            if need:
                if UNKNOWN in need:
                    continue
                if onf is None:
                    onf = bytearray(53)
                    for f in self.F:
                        for x in piles[f]:
                            onf[x] += 1
                if any(onf[u] < self.decks for u in need):
                    if not self.harmless_needers:
                        continue
                    if takes is None:
                        takes = self.needed(pos)
                    needers = self.needers
                    if any(not onf[u] and (u not in takes or any(not onf[x] for x in needers[u]))
                           for u in need):
                        continue
            if self.keep_piles_filled and len(src) == 1 and m[1] in self.Tset:
                continue
            return m
        return None


def _safe_test(kn: Derived) -> SafeTest:
    """:meth:`Knowledge.safe_move`'s test, written for the fast whole searches: a function
    of (a card a foundation takes, the foundation that takes each card or -1, how many of
    each card the foundations hold) saying whether nothing can still need the card."""
    needers = [kn.needers.get(c, (UNKNOWN,)) for c in range(53)]
    harmless, decks = kn.harmless_needers, kn.decks

    def safe(c: int, up: Sequence[int], onf: Sequence[int]) -> bool:
        need = needers[c]
        if not need:
            return True
        if UNKNOWN in need:
            return False
        if all(onf[u] >= decks for u in need):
            return True
        return harmless and not any(not onf[u] and (up[u] < 0 or
                                                    any(not onf[x] for x in needers[u]))
                                    for u in need)

    return safe

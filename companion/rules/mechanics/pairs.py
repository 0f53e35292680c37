"""Pairs (the TOML's ``[pairs]``, with ``[pyramid]``): two available cards removed together,
or one alone (Pyramid's kings); which cards a pyramid leaves available.

Its words (refusals and the rules text) are in the functions below the mixin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import RANK_OF, RANK_TEXT, UNKNOWN
from ...cards import code_text as _c
from .base import MOVE, PAIR, Mechanic, Raw, Rules, makes

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position
    from ..variant import Variant

WORD = "pairs"
MECHANICS = (Mechanic.PAIRS,)


class PairRules(Rules):
    """The engine's pair removals (a mixin of :class:`~..engine.Engine`); a PAIR is applied in
    ``Engine.apply``, written out there for speed."""

    def _init_pairs(self, v: Variant) -> None:
        self.pairs = v.pairs  # type: ignore[assignment]  # see Rules
        self.pyramid_slots = ()
        if v.pyramid:
            rows = v.pyramid.rows
            self.cover = []
            k = 0
            for r in range(rows):
                for c in range(r + 1):
                    if r + 1 < rows:
                        below = (r + 1) * (r + 2) // 2 + c
                        self.cover.append((self.P[below], self.P[below + 1]))
                    else:
                        self.cover.append(())
                    k += 1
            self.pyramid_slots = tuple(zip(self.P, self.cover, strict=True))
        if self.pairs:
            # Precomputed for generation: which codes go alone, which pairs match.
            singles = {r for r in range(1, 14) if RANK_TEXT[r] in self.pairs.singles}
            self.single_codes = frozenset(c for c in range(52) if RANK_OF[c] in singles)
            self.match_table = tuple(frozenset(b for b in range(52) if self.pairs.matches(a, b))
                                     for a in range(53))

    def available(self, pos: Position) -> list[tuple[int, int]]:
        """Pair games: the (pile, code) of every card that may be removed now."""
        piles, down = pos.piles, pos.down
        av = []
        if self.pyramid_slots:
            for i, cv in self.pyramid_slots:
                if piles[i] and (not cv or not (piles[cv[0]] or piles[cv[1]])):
                    av.append((i, piles[i][-1]))
        for i in self.T:
            p = piles[i]
            if p and down[i] < len(p):
                av.append((i, p[-1]))
        s = self.S
        if s >= 0 and piles[s] and down[s] < len(piles[s]):
            av.append((s, piles[s][-1]))
        w = self.W
        if w >= 0 and piles[w]:
            av.append((w, piles[w][-1]))
        return [(i, c) for i, c in av if c != UNKNOWN]

    @makes(Mechanic.PAIRS)
    def _gen_pairs(self, pos: Position, out: list[Raw]) -> None:
        av = self.available(pos)
        singles, table = self.single_codes, self.match_table
        f = self.F[0]
        for x, (i, a) in enumerate(av):
            if a in singles:
                out.append((MOVE, i, 1, f))
            match = table[a]
            for j, b in av[x + 1:]:
                if b in match:
                    out.append((PAIR, min(i, j), 0, max(i, j)))


# ---------------------------------------------------------------- words
def explain_pair(pos: Position, move: Move) -> str:
    eng = pos.engine
    v = eng.variant
    avail = dict(eng.available(pos))
    a = eng.index[move.src]
    if a not in avail:
        return _not_available(pos, move.src)
    if move.dst is None or move.dst == "f":
        card = avail[a]
        return f"{_c(card)} cannot be removed on its own in {v.name}: {eng.pairs.phrase()}"
    b = eng.index.get(move.dst, -1)
    if b < 0:
        return f"there is no pile {move.dst!r} in {v.name}"
    if b == a:
        return f"a card cannot be paired with itself: name two different cards " \
               f"({eng.pairs.phrase()})"
    if b not in avail:
        return _not_available(pos, move.dst)
    x, y = avail[a], avail[b]
    if eng.pairs.match == "sum":
        total = RANK_OF[x] + RANK_OF[y]
        return f"{_c(x)} and {_c(y)} add up to {total}, not {eng.pairs.total}"
    return f"{_c(x)} and {_c(y)} are not the same rank"


def _not_available(pos: Position, name: str) -> str:
    """Why the card at pile ``name`` cannot be paired: an empty stock or waste, a place
    already cleared, or cards still lying on it."""
    eng = pos.engine
    groups = eng.groups
    i = eng.index[name]
    if not pos.piles[i]:
        if i == groups.waste:
            return "the waste is empty" + (": type s to turn a card from the stock"
                                           if groups.stock >= 0 and pos.piles[groups.stock] else "")
        if i == groups.stock:
            return "the stock is empty"
        return f"{name} is empty: its card is already removed"
    if i == groups.stock and pos.down[i] >= len(pos.piles[i]):
        return "the stock's card is face down: type s to turn it onto the waste"
    if pos.piles[i][-1] == UNKNOWN:
        return f"the top card of {name} has not been named yet: type {name}=CARD first"
    return f"the card at {name} is not available yet" + (
        ": the cards below it must go first" if groups.pyramid else "")


def rules_text(v: Variant) -> list[str]:
    """The rules text's sentences on pairs, and on the pyramid's available cards."""
    lines = []
    if v.pairs:
        p = v.pairs
        lines.append(p.phrase()[0].upper() + p.phrase()[1:] + ".")
    if v.pyramid:
        lines.append("A pyramid card is available when both cards covering it have gone; the "
                     "card turned up on the stock and the top card of the waste are available "
                     "too. A card covered only by its partner cannot pair with it.")
    return lines

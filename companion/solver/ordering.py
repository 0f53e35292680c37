"""Move ordering (the :class:`Ordering` part of :class:`~.knowledge.Knowledge`): how advanced
a position is (:meth:`Ordering.progress`), the lean look's estimate of the moves left, the cards
the foundations take now, and each move's score (:meth:`Ordering.rank`, the hottest code of the
search); with the sort keys of scored children."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from functools import lru_cache
from operator import itemgetter
from typing import TypeVar

from ..rules.engine import FOLD, MOVE, PAIR, STOCK, Raw
from ..rules.position import Position
from .derived import Derived

_Seq = TypeVar("_Seq")  # what a scored child plays (passed through)


class Ordering(Derived):
    """Scores and measures, from the tables :class:`~.knowledge.Knowledge` derives."""

    def progress(self, pos: Position, measure: str = "plain") -> int:
        """Lower is more advanced: cards not on the foundations, face-down cards (twice), and
        for a game won by clearing the tableau, the cards left on it. Where foundations
        build up in suit, two measures of the work left can be added:

        * ``dig`` (the beam's and the dive's): each card of a pile with face-down cards
          that lies under a lower card of its own suit counts once more: the digging left.
          (The best-first look using it won more.)
        * ``order``: each card lying on a lower card of its own suit (which must leave
          before that one can go up) counts once more, and each empty tableau pile counts
          two less. (The best-first search using it won more.)
        """
        piles, down = pos.piles, pos.down
        p = -sum(len(piles[f]) for f in self.F)
        if not self.dig:
            measure = "plain"
        for i in self.T:
            d = down[i]
            if d:
                p += 2 * d
                if measure == "dig":
                    low = [13, 13, 13, 13]
                    for c in reversed(piles[i]):
                        s, r = c // 13, c % 13
                        if r > low[s]:
                            p += 1
                        else:
                            low[s] = r
            if measure == "order":
                if not piles[i]:
                    p -= 2
                    continue
                p += _disorder(piles[i])
        if self.clear_tableau:
            p += sum(len(piles[i]) for i in self.T)
        return p

    def moves_left(self, pos: Position) -> int:
        """The lean look's estimate of the moves a win still takes (Klondike-Solver's
        ``MinimumMovesLeft``, in outline): each card in the stock, each turn of the stock
        left in this pass, each card in the waste, each tableau card and face-down card (a
        face-down card twice: turned, then moved), and once more each card of the waste
        lying above a lower card of its own suit, and each card of a pile with face-down
        cards lying beneath a lower card of its own suit (the digging of :meth:`progress`)."""
        piles, down = pos.piles, pos.down
        st = len(piles[self.S])
        draw = self.variant.stock.draw  # type: ignore[union-attr]  # (the lean look: a stock)
        left = st + (st + draw - 1) // draw
        w = piles[self.W]
        left += len(w) + _disorder(w)
        for i in self.T:
            p = piles[i]
            d = down[i]
            left += len(p) + d
            if d:
                left += _disorder(p[::-1])
        return left

    def needed(self, pos: Position) -> frozenset[int]:
        """The cards the foundations would take now (a heuristic, for ordering only), kept
        for each state of the foundations met (they change far less often than the rest)."""
        piles = pos.piles
        state = pos.engine.f_state(piles)
        out = self._needed.get(state)
        if out is not None:
            return out
        found: set[int] = set()
        for f, (base, on_top, most) in self.f_accepts.items():
            p = piles[f]
            if not p:
                found.update(base)
            elif len(p) < most:
                found.update(on_top[p[-1]])
        if len(self._needed) >= NEEDED_KEPT:
            self._needed.clear()
        out = self._needed[state] = frozenset(found)
        return out

    def rank(self, pos: Position, units: Iterable[tuple[Raw, _Seq]], need: Collection[int],
             narrow: bool, out: list[tuple[int, int, _Seq]], bonus: int = 0,
             turns: int = 0) -> None:
        """For each (move, seq) of ``units``, append (-(its :meth:`score`) - ``bonus``,
        ``turns``, seq) to ``out``: the children's sort key, then what they play. With
        ``narrow`` (the first, narrow pass), the unlikely moves are left out: a card back
        from the foundations, or a unit lifted off a card it is built on (a run split) when
        that card is not wanted on the foundations (not in ``need``). The moves' scores are
        worked out here, the hottest code of the search (written out for speed)."""
        Fset, Tset, tb, piles, down = self.Fset, self.Tset, self.tb, pos.piles, pos.down
        for m, seq in units:
            kind, a, n, b = m
            if kind != MOVE:  # (never unlikely)
                out.append((-self.score(pos, m, need) - bonus, turns, seq))
                continue
            if a in Fset:
                if narrow:
                    continue  # unlikely: a card back from the foundations
                out.append(((-100 if b in Fset else 20) - bonus, turns, seq))
                continue
            from_t, to_t = a in Tset, b in Tset
            if from_t:
                p = piles[a]
                da = down[a]
                left = len(p) - n
                if narrow and to_t and left > da and tb[p[left - 1]][p[left]] \
                        and p[left - 1] not in need:
                    continue  # unlikely: a run split, the card under it not wanted up
            if b in Fset:
                s = 100
            elif to_t and not piles[b] and n == len(piles[a]) and down[a] == 0:
                out.append((30 - bonus, turns, seq))  # a whole pile into a space: a mirror
                continue
            else:
                s = 10 if from_t else 30
            if from_t:
                if left and left == da:
                    s += 50 + da
                elif not left:
                    s += 25
                elif to_t and n < len(p) - da:
                    s -= 5  # splitting a run
                if need and left:  # uncovering a card the foundations want
                    if p[left - 1] in need:
                        s += 16
                    elif left > 1 and p[left - 2] in need:
                        s += 12
                    elif left > 2 and p[left - 3] in need:
                        s += 8
                    elif left > 3 and p[left - 4] in need:
                        s += 4
            if need and to_t:  # burying one
                q = piles[b]
                if q:
                    if q[-1] in need:
                        s -= 12
                    elif len(q) > 1 and q[-2] in need:
                        s -= 8
                    elif len(q) > 2 and q[-3] in need:
                        s -= 4
            out.append((-s - bonus, turns, seq))

    def score(self, pos: Position, m: Raw, need: Collection[int] = frozenset()) -> int:
        """How good a move looks (higher is better; for ordering only). ``need``: the cards
        the foundations take now (:meth:`needed`), where the ordering looks at them."""
        kind = m[0]
        if kind == MOVE:
            out: list[tuple[int, int, None]] = []
            self.rank(pos, ((m, None),), need, False, out)
            return -out[0][0]
        if kind == STOCK:
            return 0
        if kind == PAIR:
            return 40
        if kind == FOLD:
            # Every fold takes one pile away: prefer the one that leaves the most folds
            # (it won more than the order generated).
            pos.push_raw(m)
            n = len(pos.raw_moves())
            pos.pop()
            return 20 + 3 * n
        return 20


NEEDED_KEPT = 20_000  # the most foundation states whose wanted cards are kept (``needed``)


_SCORE_AND_TURNS = itemgetter(0, 1)  # a scored child's sort key: its score, then its turns
_SCORE = itemgetter(0)


@lru_cache(maxsize=1 << 16)
def _disorder(pile: tuple[int, ...]) -> int:
    """How many cards of ``pile`` (bottom to top) lie on a lower card of their own suit (see
    ``progress``), kept for the piles met: most positions share most of their piles."""
    n = 0
    low = [13, 13, 13, 13]
    for c in pile:
        s, r = c // 13, c % 13
        if r > low[s]:
            n += 1
        else:
            low[s] = r
    return n

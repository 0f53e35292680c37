"""Stuck-card proofs: positions lost before any search, because cards can never move (the
:class:`StuckCards` part of :class:`~.knowledge.Knowledge`): where tableau cards wait for a
parent or their foundation (Klondike, :meth:`StuckCards.stuck`), where a tableau card has no
card still to come that it could go on (Golf, :meth:`StuckCards.strander`), where a pyramid
card has no partner left (Pyramid); and the reason in words (:func:`stuck_reason`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import code_text
from ..rules.engine import Piles, engine_for
from ..rules.position import Position
from ..rules.variant import Variant
from .codes import _rank
from .derived import Derived, PositionTest


class StuckCards(Derived):
    """Provable losses, from the tables :class:`~.knowledge.Knowledge` derives."""

    def _partnerless_test(self, v: Variant, codes: list[int]) -> PositionTest:
        eng = engine_for(v)
        P = eng.groups.pyramid
        slot = {i: k for k, i in enumerate(P)}
        blockers: list[set[int]] = [set() for _ in P]  # piles that must go before slot k is free
        for k in reversed(range(len(P))):
            for j in eng.cover[k]:
                blockers[k].add(j)
                blockers[k] |= blockers[slot[j]]
        tied = {i: frozenset(blockers[k]) | frozenset(P[x] for x in range(len(P))
                                                     if P[k] in blockers[x])
                for k, i in enumerate(P)}
        partners = {c: tuple(d for d in codes if eng.pairs.matches(c, d)) for c in codes}
        lone = self.lone
        F = self.F

        def partnerless(pos: Position, everything: bool = False) -> bool:
            """Whether a pyramid card has no partner left; after the start, only the
            partners of the last pair removed (the last two cards on the foundations that
            are not lone cards) are looked at: only a removal takes a partner away."""
            piles = pos.piles
            gone: set[int] = set()
            for f in F:
                gone.update(piles[f])
            if everything:
                look = None
            else:
                last = [c for c in reversed(piles[F[-1]]) if c not in lone][:2] if F else []
                look = {d for c in last for d in partners[c]}
                if not look:
                    return False
            where = {piles[i][0]: i for i in P if piles[i]}
            for c, i in where.items():
                if c in lone or (look is not None and c not in look):
                    continue
                near = tied[i]
                for d in partners[c]:
                    if d in gone:
                        continue
                    j = where.get(d)
                    if j not in near or not (chained(piles, i, j) or chained(piles, j, i)):
                        break
                else:
                    return True
            return False

        def chained(piles: Piles, i: int, j: int | None) -> bool:
            # Whether j lies on i through cards still there, each covering the one before:
            # then i is free only once j has gone. (In a position reached by play from a
            # whole pyramid, every card that ``tied`` names is so; a position typed in may
            # have gaps that play could not make.)
            todo, met = [i], set()
            while todo:
                for x in eng.cover[slot[todo.pop()]]:
                    if piles[x] and x not in met:
                        if x == j:
                            return True
                        met.add(x)
                        todo.append(x)
            return False

        return partnerless

    def stuck(self, pos: Position) -> list[tuple[int, int]]:
        """Cards of the tableau, the stock or the waste that can never move (the game is
        lost while one is left), as (pile, height) places; [] where none is found or the
        test does not apply.

        A card moves onto a parent (a card that takes it) lying uncovered, or to its
        foundation once every card below it there has gone up, or along with the card it
        lies on, when the move rule carries it (a run moved from beneath it). Take a set of
        cards that never move: a card beneath one of them is never uncovered (it could move
        only with the cards on it), and never goes up. A parent in the stock or the waste
        comes to the tableau only onto a parent of its own (or, a king, into a space), and
        one up on a foundation never comes back (where none returns). So a card of the set
        can never move when each of its parents lies beneath one of the set, or is up, or
        is off the tableau with each of its own so (and no space for it), or is of the set;
        some card below it on its foundation is of the set or lies beneath one of it; and
        the card it lies on is of the set or would not carry it. (A card of the stock or the
        waste may be of the set: it never leaves them. A king, where a space takes one, may
        be of the set while every tableau pile holds a card of the set: no pile can then be
        emptied.) The largest such set is found by dropping, from all the cards that wait
        (see ``parents``), each one with a way out, until none is left to drop; if any card
        is left, none of them ever moves (the lowest of them to move first would have had a
        way out), and the game is lost. The simplest case: Klondike's 10♥ dealt above 9♥, J♠ and J♣ in its own pile."""
        parents = self.parents
        if parents is None:
            return []
        piles = pos.piles
        where = {}
        for i in self.T:
            for h, c in enumerate(piles[i]):
                where[c] = (i, h)
        held = {c for c in where if c in parents}
        off = self.off_parents
        up: set[int] = set()
        talon = {}
        if off is not None:
            for f in self.F:
                up.update(piles[f])
            # the stock's and the waste's cards too: one leaves only onto a parent or up
            for i in self.talon:
                if i >= 0:
                    for h, c in enumerate(piles[i]):
                        talon[c] = (i, h)
            held.update(c for c in talon if c in parents)

        def buried(e: int) -> bool:  # on the tableau, beneath a card of ``held``
            w = where.get(e)
            return w is not None and not held.isdisjoint(piles[w[0]][w[1] + 1:])

        def closed(p: int) -> bool:  # a parent no card will ever be put on
            if p in where:
                return buried(p)
            if off is None:
                return False
            if p in up or p in held:
                return True
            # in the stock or the waste: it may come to the tableau
            return not (space and _rank(p) == 13) and all(q in up or buried(q) for q in off[p])

        below, carried, face_up, down = self.below, self.carried, self.face_up_units, pos.down
        T = self.T
        changed = True
        while changed and held:
            changed = False
            # a space may come only where no pile holds a card of the set
            space = self.space_king and any(held.isdisjoint(piles[i]) for i in T)
            for c in list(held):
                z = None
                if c in where:
                    i, h = where[c]
                    if h and (h > down[i] or not face_up):
                        z = piles[i][h - 1]
                if (space and _rank(c) == 13) or not all(map(closed, parents[c])) or not any(
                        d in held or buried(d) for d in below[c] if d in where or d in talon) \
                        or (z is not None and z not in held
                            and carried(z, c)):  # type: ignore[misc]  # (set with parents)
                    held.discard(c)
                    changed = True
        return sorted(where.get(c) or talon[c] for c in held)

    def strander(self, root: Position) -> PositionTest | None:
        """For a search from ``root``: a test of whether the position it is given (reached
        from an earlier one that passed it, by one move) has a tableau card that can never
        leave (see ``before``), which makes it lost; None where the test does not apply.

        Cards never move between the piles here (no building, no spaces), so each tableau
        card keeps its pile and height from ``root``, and each stock card its place: whether
        a card is still there is a length comparison. A card's chances only shrink when a
        waste card is covered or a card is played, so only the cards that could go on
        those two are looked at (all of them at the start)."""
        if self.partnerless is not None:
            return self.partnerless
        before = self.before
        if before is None or self.macro or self.auto:
            return None
        S, W = self.S, self.W
        loc = {c: (i, h) for i in self.T for h, c in enumerate(root.piles[i])}
        in_stock = {c: h for h, c in enumerate(root.piles[S])} if S >= 0 else {}
        after: dict[int, list[int]] = {}
        for c in loc:
            for d in before[c]:
                after.setdefault(d, []).append(c)

        def lost_card(piles: Piles, c: int, top: int | None) -> bool:
            # When c leaves, the waste's top is: the card that was on c (played last from
            # c's pile), or a card played after it from another pile or the stock; or, if c
            # is uncovered now, the waste's top card now.
            i, h = loc[c]
            n = len(piles[i])
            if n <= h:
                return False  # gone already
            for d in before[c]:
                if d == top and n == h + 1:
                    return False
                k = in_stock.get(d)
                if k is not None and k < len(piles[S]):
                    return False
                w = loc.get(d)
                if w is not None and len(piles[w[0]]) > w[1] and (w[0] != i or w[1] == h + 1):
                    return False
            return True

        def stranded(pos: Position, everything: bool = False) -> bool:
            piles = pos.piles
            waste = piles[W]
            top = waste[-1] if waste else None
            if everything:
                return any(lost_card(piles, c, top) for c in loc)
            # The card just covered is no longer a top to play onto; the card just played
            # has left its pile (or the stock), where it was one to come.
            if len(waste) >= 2 and any(lost_card(piles, c, top) for c in after.get(waste[-2], ())):
                return True
            return top is not None and any(lost_card(piles, c, top) for c in after.get(top, ()))

        return stranded


def stuck_reason(pos: Position, held: Sequence[tuple[int, int]], symbols: bool = True) -> str:
    """Why the cards at ``held`` (places, see :meth:`Knowledge.stuck`) can never move."""
    names = pos.variant.pile_names
    cards = [f"{code_text(pos.piles[i][h], symbols)} in {names[i]}" for i, h in held]
    king = any(_rank(pos.piles[i][h]) == 13 for i, h in held)
    if len(cards) > 4:
        cards = cards[:3] + [f"{len(cards) - 3} other cards"]
    if len(cards) == 1:
        return (f"{cards[0]} can never move: every card it could go on lies beneath it (or "
                "can never come to the tableau), and so does a card its foundation needs first")
    return (f"{', '.join(cards[:-1])} and {cards[-1]} can never move: every card each could "
            "go on lies beneath one of them (or can never come to the tableau), and so does a "
            "card its foundation needs first, or that card is one of them"
            + ("; no pile can be emptied for a king, each holding one of them" if king else ""))

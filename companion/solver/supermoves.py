"""Supermoves (the :class:`Supermoves` part of :class:`~.knowledge.Knowledge`): a run moved
as a unit through the spaces, as the chain of single legal moves that parks part of it in the
spaces and puts it back (as Freecell Solver's meta-moves do)."""

from __future__ import annotations

from functools import cache

from ..cards import UNKNOWN
from ..rules.engine import MOVE, Raw
from ..rules.position import Position
from .derived import Derived


class Supermoves(Derived):
    """Runs moved as units, where :class:`~.knowledge.Knowledge` finds them sound."""

    def supermoves(self, pos: Position,
                   first_space_only: bool) -> list[tuple[Raw, tuple[Raw, ...]]]:
        """The runs of two cards or more that may move as a unit through the spaces (see
        ``supermoves_ok``): each as (the unit move, for scoring; the single raw moves that
        make it, each legal where it is played). Into a space, one of them (the first)
        when ``first_space_only``; never a whole pile into a space (nothing changes)."""
        piles, down, tb, T = pos.piles, pos.down, self.tb, self.T
        onto = pos.engine.onto_mask  # each card's mask of the codes it may go on
        if all(map(piles.__getitem__, T)):
            return []  # no space
        empties = [j for j in T if not piles[j]]
        # The tops as a bit mask of their codes, and each top card's pile: one deck
        # (``dig``), so the tops are distinct.
        tops, at = 0, [0] * 53
        for j in T:
            q = piles[j]
            if q and q[-1] != UNKNOWN:  # (nothing is built on an unnamed card)
                tops |= 1 << q[-1]
                at[q[-1]] = j
        out = []
        all_free = tuple(empties)
        most = 1 << len(empties)  # the most cards a run may move onto a card
        # Each space a run may go into, with the other spaces (it moves through them).
        spaces = [(j, tuple([x for x in empties if x != j]))
                  for j in (empties[:1] if first_space_only else empties)]
        for i in T:
            p = piles[i]
            n = len(p)
            r, lowest = 1, n - down[i]
            while r < lowest and tb[p[-r - 1]][p[-r]]:
                r += 1
            if r < 2:
                continue
            # (target, cards, spaces to move them through): each unit's card looked up
            # among the tops it may go on, then sorted to the order of the targets.
            units = []
            for k in range(2, min(r, most) + 1):
                hit = onto[p[-k]] & tops
                while hit:  # each top it may go on
                    j = at[(hit & -hit).bit_length() - 1]
                    hit &= hit - 1
                    if j != i:
                        units.append((j, k, all_free))
            for j, free in spaces:
                for k in range(2, min(r, 1 << len(free), n - 1) + 1):
                    units.append((j, k, free))
            if len(units) > 1:
                units.sort()  # (no two alike in target and size: the spaces never compared)
            for j, k, free in units:
                out.append(((MOVE, i, k, j), _chain(i, k, j, free)))
        return out


def _through(i: int, k: int, j: int, free: tuple[int, ...], out: list[Raw]) -> None:
    """The single moves that take the top ``k`` cards of pile ``i`` (a run) to pile ``j``
    using the empty piles ``free`` (k <= 2^len(free)): the top part to a space (through the
    other spaces), the rest through the other spaces, the top part back onto it. The top
    part is as small as the other spaces allow, so with a space for each card but one the
    chain is the 2k - 1 moves of parking them one by one."""
    if k == 1:
        out.append((MOVE, i, 1, j))
        return
    t, rest = free[0], free[1:]
    a = max(1, k - (1 << len(rest)))
    _through(i, a, t, rest, out)
    _through(i, k - a, j, rest, out)
    _through(t, a, j, rest, out)


@cache
def _chain(i: int, k: int, j: int, free: tuple[int, ...]) -> tuple[Raw, ...]:
    """The single moves of a supermove (see :func:`_through`), kept: they depend on the
    piles' indices alone."""
    out: list[Raw] = []
    _through(i, k, j, free, out)
    return tuple(out)

"""Golf's fast whole search (:func:`_exhaust_sink`, where
:meth:`~.exhaustible.Exhaustible.sink_exhaustible` holds): a waste nothing leaves, a position
one number (the piles' heights, the stock's, the class of the waste's top card) kept as one
bit of a table."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.engine import MOVE, STOCK, Raw
from ..rules.position import Position
from .exhaust import Exhaustive
from .exhaustible import _sink_classes
from .knowledge import knowledge
from .results import LOST, SLICE, WON, Search


def _exhaust_sink(pos: Position, short: bool, max_states: int | None,
                  prefer: Sequence[Raw] | None = None) -> Search:
    """The whole depth-first search where :meth:`Knowledge.sink_exhaustible` holds (Golf),
    written for speed as :func:`_exhaust` is: a position is named by the tableau piles'
    heights, the stock's and the class of the waste's top card (:func:`_sink_classes`),
    one number, kept as one bit of a table; the piles are never copied (a move lowers a
    height, undone on the way back). The moves: each pile's top card onto the waste where
    its build table takes it, pile by pile, then the stock's turn.

    A position where some tableau card can no longer leave is not searched further: a card
    leaves only onto a waste top its class may go on, and each such card still to come (on
    the waste's top, in the stock, on the tableau but not beneath it in its own pile) is
    counted by class; only the covering of the waste's top lowers those counts, so that is
    where it is checked, and at the root for every card (a root so is lost at once).

    The same generator protocol as the other searches; it searches every position reachable
    from ``pos`` (but those cut short so) before saying ``lost``. ``prefer``: raw moves to try
    first at the root, in order (the hints' vote). A won line is replayed in the engine
    before it is given."""
    kn = knowledge(pos.variant)
    eng = pos.engine
    T, S, W = kn.T, kn.S, kn.W
    cls, ok = _sink_classes(eng)
    K = len(ok)
    piles = pos.piles
    cols = [[cls[c] for c in piles[i]] for i in T]
    nT = len(cols)
    stock = [cls[c] for c in reversed(piles[S])]  # in the order turned
    ns = len(stock)
    h = [len(p) for p in cols]
    base = max(h) + 1
    place = [0] * nT  # what a pile's height counts for in a position's number
    mul = (ns + 1) * K
    for i in reversed(range(nT)):
        place[i] = mul
        mul *= base
    seen = bytearray(mul // 8 + 1)
    hk = sum(h[i] * place[i] for i in range(nT))
    onto = [[b for b in range(K) if ok[b][a]] for a in range(K)]  # the classes a goes on
    takes = [[b for b in range(K) if ok[a][b]] for a in range(K)]  # the classes going on a
    supply = [0] * K  # the cards of each class still to come (waste top, stock, tableau)
    on_tableau = [0] * K
    for p in cols:
        for a in p:
            supply[a] += 1
            on_tableau[a] += 1
    for a in stock:
        supply[a] += 1
    top0 = cls[piles[W][-1]]
    supply[top0] += 1
    # For each class, its tableau cards: (pile, place in the pile, how many of the cards
    # beneath it it may go on: they are still there while it is)
    where: list[list[tuple[int, int, int]]] = [[] for _ in range(K)]
    for i, p in enumerate(cols):
        for j, a in enumerate(p):
            where[a].append((i, j, sum(1 for b in p[:j] if ok[b][a])))

    def lost(a: int) -> bool:  # a tableau card of class a can never leave
        s = sum(supply[b] for b in onto[a])
        return any(j < h[p] and s <= under for p, j, under in where[a])

    left = sum(h)
    nodes = 0

    def raw(path: Sequence[int]) -> list[Raw]:
        return [(MOVE, T[i], 1, W) if i >= 0 else (STOCK, S, 0, -1) for i in path]

    # The skeleton's result; its loop is written out below (a call a position costs here).
    run = Exhaustive(pos, short, "the fast whole search", raw, lambda: run.nodes + 1)
    if not left:
        return run.finish(WON, "won", [])
    if any(on_tableau[a] and lost(a) for a in range(K)):
        return run.finish(LOST, "a tableau card can never leave: every card it may go on is "
                                "beneath it or covered on the waste")
    k0 = hk + top0
    seen[k0 >> 3] |= 1 << (k0 & 7)
    # The root's moves, in the order preferred; below it each position's moves are found
    # as the search comes to them: ``nxt``, the next pile to look at (nT: the stock's turn).
    firsts = [i for i in range(nT) if h[i] and ok[top0][cols[i][-1]]]
    if ns:
        firsts.append(-1)
    if prefer:
        order = {m: k for k, m in enumerate(prefer)}
        firsts.sort(key=lambda i: order.get(raw([i])[0], len(order)))
    path: list[int] = []
    for first in firsts:
        # the frames below the root: the next move to try, the waste's top, the stock's height
        nxt, tops, sps = [first], [top0], [0]
        while nxt:
            i, top, sp = nxt[-1], tops[-1], sps[-1]
            if len(nxt) > 1:
                okt = ok[top]
                while i < nT:
                    hi = h[i]
                    if hi and okt[cols[i][hi - 1]]:
                        break
                    i += 1
                nxt[-1] = i + 1
            else:
                nxt[-1] = nT + 1  # the root's move, then back to the next first move
                if i < 0:
                    i = nT
            if i < nT:
                hi = h[i] - 1
                ntop, nsp = cols[i][hi], sp
                k = hk - place[i] + sp * K + ntop
            elif i == nT and sp < ns:
                ntop, nsp = stock[sp], sp + 1
                k = hk + nsp * K + ntop
            else:  # every move tried: back to the position before
                nxt.pop()
                tops.pop()
                sps.pop()
                if path:
                    m = path.pop()
                    if m >= 0:
                        on_tableau[cols[m][h[m]]] += 1
                        h[m] += 1
                        hk += place[m]
                        left += 1
                    supply[tops[-1]] += 1
                continue
            b = seen[k >> 3]
            bit = 1 << (k & 7)
            if b & bit:
                continue
            seen[k >> 3] = b | bit
            nodes += 1
            if i < nT:
                h[i] = hi
                hk -= place[i]
                left -= 1
                on_tableau[ntop] -= 1
                path.append(i)
                if not left:
                    run.nodes = nodes
                    return run.finish(WON, f"won after searching {nodes} positions", path)
            else:
                path.append(-1)
            supply[top] -= 1  # covered for good
            nxt.append(0)
            tops.append(ntop)
            sps.append(nsp)
            # A card of a class that went on the covered one: where it can no longer leave,
            # nothing below is worth searching (:func:`lost`, inline).
            for a in takes[top]:
                if on_tableau[a]:
                    s = 0
                    for b in onto[a]:
                        s += supply[b]
                    for pile, j, under in where[a]:
                        if j < h[pile] and s <= under:
                            break
                    else:
                        continue
                    nxt[-1] = nT + 1
                    break
            if not nodes & SLICE:
                yield nodes, nodes + 1
    run.nodes = nodes
    return run.finish(LOST, f"all {nodes + 1} reachable positions searched (those where a card "
                        f"can no longer leave cut short), none is won")

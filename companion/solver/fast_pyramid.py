"""Pyramid's fast whole searches: of the pyramid and the talon's cards counted by class with
the passes unlimited (:func:`_exhaust_pairs`, where
:meth:`~.exhaustible.Exhaustible.pairs_exhaustible` holds), and with the talon's order and the
passes (:func:`_exhaust_pyramid`, where
:meth:`~.exhaustible.Exhaustible.pyramid_talon_exhaustible` holds); the pyramid as they read it
(:class:`_PairView`), and a won line of removals played out in the engine
(:func:`_played_out`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from ..rules.engine import MOVE, PAIR, STOCK, Raw
from ..rules.position import Position
from ..rules.wins import ALL_TO_FOUNDATIONS
from . import config
from .codes import _BYTE
from .exhaust import Exhaustive, Mark, Step
from .results import WON, Search, SolverError

# A removal as :class:`_PairView` counts it: (a card, its partner: a card, -1 - a talon class,
# or None for a card removed alone).
Removal = tuple[int, int | None]
# A child of a position in :func:`_exhaust_pairs`: (its removals, the pyramid's mask, the
# talon's counts by class).
PairsChild = tuple[list[Removal], int, bytes]
# A child in :func:`_exhaust_pyramid`: (its moves, mask, talon, pointer, stock top up, pass).
PyramidChild = tuple[list[Raw], int, bytes, int, bool, int]


class _PairView:
    """A Pyramid position as the searches of the pyramid read it: the pyramid's places
    (``slots``, their piles), each one's card (-1 gone) and the places covering it (a bit
    mask), and the classes of the cards (cards that take the same partners, from the match
    table: a rank where pairs add up to 13), each card's partners' classes; with the moves of
    the pyramid and the talon counted by class (:func:`_exhaust_pairs`' view)."""

    def __init__(self, pos: Position) -> None:
        eng = pos.engine
        piles = pos.piles
        self.slots = [i for i, _ in eng.pyramid_slots]
        at = {i: k for k, i in enumerate(self.slots)}
        self.n = len(self.slots)
        self.card = [piles[i][-1] if piles[i] else -1 for i in self.slots]
        self.cover = [sum(1 << at[j] for j in cv) for _, cv in eng.pyramid_slots]
        self.alone, self.match = eng.single_codes, eng.match_table
        first: dict[frozenset[int], int] = {}
        self.cls = [first.setdefault(self.match[c], len(first)) for c in range(52)]
        self.K = len(first)
        self.takes = [sorted({self.cls[d] for d in self.match[c]}) for c in range(52)]

    def mask(self) -> int:
        """The pyramid's cards left, as a bit mask."""
        return sum(1 << k for k in range(self.n) if self.card[k] >= 0)

    def free(self, m: int) -> list[tuple[int, int]]:
        """The pyramid's cards left in ``m`` that nothing covers: (place, card) each."""
        card, cover = self.card, self.cover
        return [(k, card[k]) for k in range(self.n) if m >> k & 1 and not m & cover[k]]

    def classes(self, talon: Iterable[int]) -> bytes:
        """How many of ``talon``'s cards (the kings left out) fall in each class."""
        counts = [0] * self.K
        for c in talon:
            if c not in self.alone:
                counts[self.cls[c]] += 1
        return bytes(counts)

    def settle(self, m: int, out: list[Removal]) -> int:
        """``m`` with the cards removed alone (kings) removed at once: each appended to
        ``out`` as (card, None)."""
        again = True
        while again:
            again = False
            for k, c in self.free(m):
                if c in self.alone:
                    m &= ~(1 << k)
                    out.append((c, None))
                    again = True
        return m

    def children(self, m: int, t: bytes) -> list[PairsChild]:
        """(removals, mask, talon counts) after each removal from the pyramid ``m`` and
        the talon counted by class ``t``: two free pyramid cards paired, or a free pyramid
        card with a talon card of a class it takes (the removal (card, -1 - class)); the
        kings it frees removed too."""
        out: list[PairsChild] = []
        fr = self.free(m)
        match, takes, settle = self.match, self.takes, self.settle
        for x, (a, ca) in enumerate(fr):
            partners = match[ca]
            for b, cb in fr[x + 1:]:
                if cb in partners:
                    steps: list[Removal] = [(ca, cb)]
                    out.append((steps, settle(m & ~(1 << a) & ~(1 << b), steps), t))
            for k in takes[ca]:
                if t[k]:
                    steps = [(ca, -1 - k)]
                    out.append((steps, settle(m & ~(1 << a), steps),
                                t[:k] + _BYTE[t[k] - 1] + t[k + 1:]))
        return out


def _exhaust_pairs(pos: Position, short: bool, max_states: int | None,
                   prefer: Sequence[Raw] | None = None) -> Search:
    """The whole depth-first search where :meth:`Knowledge.pairs_exhaustible` holds
    (Pyramid, passes unlimited), on the pyramid's cards left (a bit mask) and the talon's
    cards (the waste and the stock), counted by class.

    The stock turned over and over reaches every pointer once a card has been removed (and
    from the deal), so any talon card may come to the waste's top: a pyramid card that
    nothing covers pairs with any talon card its match table takes, whatever the talon's
    order. Two talon cards paired together (side by side there) are never needed: the
    talon's cards cover no pyramid card, so a win that removes them wins without doing so.
    So the talon counts only as how many cards of each class it holds (cards that take the
    same partners, a rank where pairs add up to 13), and a card removed alone (a king) is
    removed at once: it frees cards and takes no partner. A won line is played out in the
    engine (:func:`_played_out`), the stock turned between removals. ``prefer`` is not used
    (the line's first move may be a turn of the stock)."""
    eng = pos.engine
    S, W = eng.groups.stock, eng.groups.waste
    piles = pos.piles
    view = _PairView(pos)
    cls, K, children = view.cls, view.K, view.children
    talon = [c for c in piles[W] + piles[S] if c not in view.alone]
    root: list[Removal] = []
    mask = view.settle(view.mask(), root)
    t0 = view.classes(talon)
    seen = {(mask, t0)}

    def line(path: Sequence[PairsChild]) -> list[Raw]:
        left = {k: [c for c in talon if cls[c] == k] for k in range(K)}
        removals: list[tuple[int, ...]] = []
        for a, b in root + [s for steps, *_ in path for s in steps]:
            # a talon class named: the first card of it left there
            removals.append((a,) if b is None else (a, left[-1 - b].pop(0)) if b < 0
                            else (a, b))
        return _played_out(pos, removals)  # (the talon's kings may stay there)

    run = Exhaustive(pos, short, "the search of the pyramid and talon", line, seen.__len__)
    if not mask:
        return run.finish(WON, "won", [])

    def step(todo: Iterator[PairsChild]) -> Step[PairsChild]:
        for child in todo:
            _, m, t = child
            if (m, t) in seen:
                continue
            seen.add((m, t))
            return child, children(m, t) if m else Mark.WON
        return None

    return (yield from run.run(children(mask, t0), step, None, max_states, lambda: (
        f"all {len(seen)} reachable positions searched (the talon by its "
        f"cards' classes, every one within reach), none is won")))


def _exhaust_pyramid(pos: Position, short: bool, max_states: int | None,
                     prefer: Sequence[Raw] | None = None) -> Search:
    """The whole depth-first search where :meth:`Knowledge.pyramid_talon_exhaustible` holds
    (Pyramid with its passes limited), on the pyramid's cards left (a bit mask), the talon as
    one sequence (the waste bottom to top, then the stock top to bottom) with a pointer (the
    waste's size), whether the stock's top card is turned up (it is available there), and
    the pass under way.

    A king nothing covers goes at once (it frees cards and takes no partner), and so does a
    king on top of the waste or turned up on the stock (its going uncovers a card and takes
    nothing away). The other moves: two available cards paired (free pyramid cards, the
    waste's top, the stock's turned-up top), the stock turned (its top card up in place, or
    that card onto the waste and the next one up; empty, the waste turned over while passes
    are left). A position met again in a later pass is not searched again: everything the
    later one may do, the earlier one may too. It searches every reachable position before
    saying ``lost``; a won line is replayed in the engine before it is given. ``prefer``: raw
    moves to try first at the root."""
    eng = pos.engine
    S, W, f = eng.groups.stock, eng.groups.waste, eng.groups.foundations[0]
    piles = pos.piles
    view = _PairView(pos)
    slots, n, card, cover = view.slots, view.n, view.card, view.cover
    alone, match = view.alone, view.match
    passes = eng.stock.passes
    clear_all = eng.win_rule is ALL_TO_FOUNDATIONS
    turn = (STOCK, S, 0, -1)
    pair_ws = (PAIR, min(S, W), 0, max(S, W))
    met: dict[tuple[int, bytes, int, bool], int] = {}  # (mask, talon, pointer, stock top up) -> the earliest pass it was met in

    def settle(m: int, tal: bytes, ptr: int, up: bool,
               out: list[Raw]) -> tuple[int, bytes, int, bool]:
        """Kings nothing covers, on the waste, or up on the stock, removed (the moves
        appended to ``out``)."""
        again = True
        while again:
            again = False
            for k in range(n):
                if m >> k & 1 and not m & cover[k] and card[k] in alone:
                    m &= ~(1 << k)
                    out.append((MOVE, slots[k], 1, f))
                    again = True
            while ptr and tal[ptr - 1] in alone:
                tal, ptr = tal[:ptr - 1] + tal[ptr:], ptr - 1
                out.append((MOVE, W, 1, f))
            if not up and ptr < len(tal):  # (turned up at once: it only adds a card)
                up = True
                out.append(turn)
            if tal[ptr:ptr + 1] and tal[ptr] in alone:
                tal, up = tal[:ptr] + tal[ptr + 1:], False
                out.append((MOVE, S, 1, f))
                again = True
        return m, tal, ptr, up

    def children(m: int, tal: bytes, ptr: int, up: bool,
                 pno: int) -> list[PyramidChild]:
        """(moves, mask, talon, pointer, stock top up, pass) after each move, pairs first."""
        out: list[PyramidChild] = []
        fr = [k for k in range(n) if m >> k & 1 and not m & cover[k]]
        wtop = tal[ptr - 1] if ptr else -1
        stop = tal[ptr] if up else -1
        for x, a in enumerate(fr):
            partners = match[card[a]]
            for b in fr[x + 1:]:
                if card[b] in partners:
                    i, j = sorted((slots[a], slots[b]))
                    mv: list[Raw] = [(PAIR, i, 0, j)]
                    out.append((mv, *settle(m & ~(1 << a) & ~(1 << b), tal, ptr, up, mv), pno))
            if wtop in partners:
                i, j = sorted((slots[a], W))
                mv = [(PAIR, i, 0, j)]
                out.append((mv, *settle(m & ~(1 << a), tal[:ptr - 1] + tal[ptr:], ptr - 1, up,
                                        mv), pno))
            if stop in partners:
                i, j = sorted((slots[a], S))
                mv = [(PAIR, i, 0, j)]
                out.append((mv, *settle(m & ~(1 << a), tal[:ptr] + tal[ptr + 1:], ptr, False,
                                        mv), pno))
        if wtop >= 0 and stop in match[wtop]:
            mv = [pair_ws]
            out.append((mv, *settle(m, tal[:ptr - 1] + tal[ptr + 1:], ptr - 1, False, mv), pno))
        if ptr < len(tal):
            mv = [turn]
            # (the engine turns the next card up as the last goes to the waste)
            out.append((mv, *settle(m, tal, ptr + 1, ptr + 1 < len(tal), mv), pno))
        elif tal and (pno < passes or not passes):
            mv = [turn]
            out.append((mv, *settle(m, tal, 0, False, mv), pno + 1))
        return out

    def won(m: int, tal: bytes) -> bool:
        return not m and not (clear_all and tal)

    # The same position with the passes unlimited (:func:`_exhaust_pairs`' view: the pyramid's
    # mask and how many talon cards of each class): a position that cannot clear the pyramid
    # there cannot here either, where the talon's cards come within reach less often.
    known: dict[tuple[int, bytes], bool] = {}  # (mask, talon classes) -> whether the pyramid can still be cleared

    def clearable(m: int, t: bytes) -> bool:
        if not m:  # (cleared: what is left is the talon's, for the goal of all 52 cards)
            return True
        got = known.get((m, t))
        if got is not None:
            return got
        # depth-first, every position it meets lost unless a win is found through it
        line = [(m, t)]
        stack = [iter(view.children(m, t))]
        while stack:
            for _, m2, t2 in stack[-1]:
                got = known.get((m2, t2))
                if got is False:
                    continue
                if got or not m2:
                    for x in line:
                        known[x] = True
                    return True
                known[(m2, t2)] = False  # (until a win through it is found)
                line.append((m2, t2))
                stack.append(iter(view.children(m2, t2)))
                break
            else:
                stack.pop()
                known[line.pop()] = False
        return False

    root: list[Raw] = []

    def line(path: Sequence[PyramidChild]) -> list[Raw]:
        return root + [x for ch in path for x in ch[0]]

    run = Exhaustive(pos, short, "the search of the pyramid and the talon", line, met.__len__)
    cut = 0
    m0 = view.mask()
    tal0 = bytes(piles[W]) + bytes(piles[S][::-1])
    up0 = pos.down[S] < len(piles[S])
    m0, tal0, ptr0, up0 = settle(m0, tal0, len(piles[W]), up0, root)
    if won(m0, tal0):
        return run.finish(WON, "won", [])
    met[(m0, tal0, ptr0, up0)] = pos.pass_no
    first = children(m0, tal0, ptr0, up0, pos.pass_no)
    if prefer:
        order = {x: k for k, x in enumerate(prefer)}
        first.sort(key=lambda ch: order.get(ch[0][0], len(order)))
    relaxed = config.CONFIG.relaxed

    def step(todo: Iterator[PyramidChild]) -> Step[PyramidChild]:
        nonlocal cut
        for child in todo:
            _, m, tal, ptr, up, pno = child
            key = (m, tal, ptr, up)
            old = met.get(key)
            if old is not None and old <= pno:
                continue
            met[key] = pno
            if won(m, tal):
                return child, Mark.WON
            if relaxed and not clearable(m, view.classes(tal)):
                cut += 1
                return child, Mark.CUT
            return child, children(m, tal, ptr, up, pno)
        return None

    return (yield from run.run(first, step, None, max_states, lambda: (
        f"all {len(met)} reachable positions searched (a position met again "
        f"in a later pass left out; {cut} whose pyramid could not be cleared "
        f"even with the passes unlimited not searched further), none is won")))


def _played_out(pos: Position, removals: Iterable[tuple[int, ...]]) -> list[Raw]:
    """The engine's moves that make ``removals`` (each the cards one move removes, a pair or
    one alone) from ``pos``: before each, the stock turned (and turned over) until a legal
    move removes those cards (see :func:`_exhaust_pairs`)."""
    eng = pos.engine
    S, W = eng.groups.stock, eng.groups.waste
    q = pos.copy()
    line: list[Raw] = []
    turn = (STOCK, S, 0, -1)
    for cards in removals:
        want = frozenset(cards)
        for _ in range(2 * (len(q.piles[S]) + len(q.piles[W])) + 4):
            ms = q.raw_moves()
            hit = [m for m in ms if m[0] != STOCK and frozenset(
                (q.piles[m[1]][-1], q.piles[m[3]][-1]) if m[0] == PAIR
                else (q.piles[m[1]][-1],)) == want]
            if hit:
                break
            if turn not in ms:
                hit = []
                break
            q.push_raw(turn)
            line.append(turn)
        if not hit:
            raise SolverError("the search of the pyramid and talon found a removal the engine "
                              "does not reach; please report this deal")
        q.push_raw(hit[0])
        line.append(hit[0])
    return line

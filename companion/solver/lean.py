"""The lean look: Klondike-Solver's fast search over this engine's moves (see
:data:`LEAN_WIDTH`), on the engine's positions (:func:`_lean_engine`) or, where Klondike's
searches on bytes may run, on the piles' bytes and the talon's sequence (:func:`_lean_bytes`),
the same search."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from operator import add
from typing import Any, TypeVar

from ..cards import UNKNOWN
from ..rules.engine import MOVE, STOCK, Raw
from ..rules.position import Position
from .codes import _BYTE, _ENDS, _rank
from .engine_search import _talon_states
from .fast_talon import BMove, _bytes_game, _pointer_cycle, _raw_of, _run_start, _taker
from .knowledge import Knowledge, knowledge
from .lines import JUMP, Child, Talon, _replayed
from .ordering import _SCORE, _disorder
from .results import SLICE, UNKNOWN_VERDICT, WON, Search, SolveResult

_St = TypeVar("_St")  # a position, as :func:`_lean_loop` is given it
_M = TypeVar("_M")  # a move, likewise
# :func:`_lean_bytes`' position: (the tableau piles, their face-down counts, the foundations,
# the talon, its pointer, the pass, idle, the cards up, the tableau's moves left).
LeanState = tuple[Any, ...]
# What a tableau pile's moves need (see ``info_of`` in :func:`_lean_bytes`).
PileInfo = tuple[int, int, int, bool, int, tuple[tuple[int, int, int], ...]]

# The lean look (``Knowledge.lean``): Klondike-Solver's fast search, as its source describes it
# (ShootMe/Klondike-Solver, ``SolveFast``), over this engine's moves. Best-first by the moves a
# line has taken (a card from the talon costs the turns of the stock before it) plus an estimate
# of the moves left (:meth:`Knowledge.moves_left`) plus the cards not yet up and the passes
# begun; positions of one priority last in, first out (it dives). Only the best LEAN_WIDTH
# children of each position are kept, one less as each quarter of its budget of positions is
# spent (3, then 2 from a quarter, 1 from a half), and a position is met again only by a
# shorter line. Its moves are fewer than the narrow looks' (:meth:`_lean_moves`): a pile's face-up
# cards move whole, or in part only to free a card the foundations take; a king's run goes
# into the first space only, and only off face-down cards; a card the foundations take whose
# rank is at most one above every foundation goes up at once, and so does the only move there
# is. Run with a budget of LEAN_BASE positions, then again with twice as many whenever it
# ran out of them or of positions to try (a longer budget keeps more children for longer),
# unless it had kept every child to the end. It wins deals the other looks do not, so it
# runs after them in the round.
LEAN_WIDTH = 3
# Its first budget: begun small and doubled, the lean look did much of its work again. Within
# the default memory budget (1 GB) its first run ends before the look's share of it is spent.
LEAN_BASE = 250_000


def _lean_loop(root: _St, moves: Callable[[_St, Any], Sequence[_M]],
               step: Callable[[_St, _M], tuple[_St, Any]], cost: Callable[[_M], int],
               left: Callable[[_St], int], rest: Callable[[_St], int],
               key: Callable[[_St], bytes], won: Callable[[_St], bool],
               max_states: int | None,
               count: list[int]) -> Generator[tuple[int, int], None, tuple[str, Any, str]]:
    """The lean look's search (see :data:`LEAN_WIDTH`) over positions it knows only through
    these functions: ``moves(position, last)`` (:func:`_lean_moves`' moves, a list of one
    where one is to be played at once), ``step(position, move)`` (the position after it,
    and what becomes ``last``), ``cost(move)`` (the moves it counts), ``left(position)``
    (:meth:`Knowledge.moves_left`), ``rest(position)`` (the cards not up and the passes
    begun), ``key(position)`` and ``won(position)``. A generator as :func:`_steps` is; it
    returns (verdict, the node of the win: (node, move) back to the root's None, why it
    stopped). ``count``: [positions expanded, positions stored], kept up to date."""
    budget = LEAN_BASE
    while True:
        closed: dict[bytes, int] = {}
        buckets: dict[int, list[tuple[_St, int, Any, Any]]] = {
            left(root): [(root, 0, None, None)]}
        while buckets and len(closed) < budget:
            lo = min(buckets)
            stack = buckets[lo]
            st, g, last, node = stack.pop()
            if not stack:
                del buckets[lo]
            while True:  # the only move there is, or a card up at once
                ms = moves(st, last)
                if len(ms) != 1:
                    break
                st, last = step(st, ms[0])
                g += cost(ms[0])
                node = (node, ms[0])
            count[0] += 1
            if won(st):
                count[1] = len(closed)
                return WON, node, f"won after searching {count[0]} positions"
            n = len(closed)
            width = LEAN_WIDTH if n < budget >> 2 else LEAN_WIDTH - 1 if n < budget >> 1 \
                else LEAN_WIDTH - 2
            kids: list[tuple[int, int, _M, _St, Any]] = []
            for m in ms:
                st2, last2 = step(st, m)
                added = g + cost(m) + left(st2)
                kids.append((added + rest(st2), added, m, st2, last2))
            kids.sort(key=_SCORE)  # (stable: the first generated of equal priority first)
            for pri, added, m, st2, last2 in kids[:max(1, width)]:
                k = key(st2)
                old = closed.get(k)
                if old is None or old > added:
                    closed[k] = added
                    got = buckets.get(pri)
                    entry = (st2, g + cost(m), last2, (node, m))
                    if got is None:
                        buckets[pri] = [entry]
                    else:
                        got.append(entry)
            if not count[0] & SLICE:
                count[1] = len(closed)
                # (each position kept whole, not as a key alone: some four times the room)
                if max_states is not None and 4 * count[1] > max_states:
                    return UNKNOWN_VERDICT, None, "memory budget spent"
                yield count[0], count[1]
        count[1] = len(closed)
        if count[1] < budget >> 2:  # nothing left to try, every child kept: it stops
            return UNKNOWN_VERDICT, None, "the lean look found nothing more to try"
        budget *= 2  # (out of positions to try or of its budget: again, wider for longer)


def _lean_path(node: Any) -> list[Any]:
    """The moves from the root to ``node`` (see :func:`_lean_loop`)."""
    out: list[Any] = []
    while node is not None:
        node, m = node
        out.append(m)
    return out[::-1]


def _lean(pos: Position, short: bool, max_states: int | None) -> Search:
    """The lean look (see :data:`LEAN_WIDTH`), a generator as :func:`_steps` is: it yields
    (positions expanded, positions stored) every few hundred positions, and returns a
    :class:`SolveResult`: ``won`` with a line the engine replays, else ``unknown`` (a
    narrow look proves nothing). Where :meth:`Knowledge.talon_exhaustible` holds it plays
    on the piles' bytes and the talon's sequence (:func:`_lean_bytes`), the same search."""
    if knowledge(pos.variant).talon_exhaustible(pos):
        return _lean_bytes(pos, short, max_states)
    return _lean_engine(pos, short, max_states)


def _lean_bytes(pos: Position, short: bool, max_states: int | None) -> Search:
    """:func:`_lean_engine` written for speed as :func:`_exhaust_talon` is: the same moves
    (those of :func:`_lean_moves`, in the same order), priorities, keys and budgets, on a
    position held as the tableau piles' bytes, their face-down counts, the foundations'
    bytes, the talon (one sequence) with its pointer, the pass, whether it is idle, the
    foundations' count of cards and the tableau's count of moves left."""
    start = time.perf_counter()
    kn, eng, T, S, W, d, tb, onto, space_card, frules, Fp = _bytes_game(pos)
    nT, returns, draw1 = len(T), eng.f_returns, d == 1
    ends, one = _ENDS, _BYTE
    size = eng.deck_size
    takes, run_start, cycle = _taker(frules), _run_start(tb), _pointer_cycle(d)

    def piles_of(hit: int, at: Sequence[int]) -> list[int]:
        """The tableau piles whose top cards are in the bit mask ``hit`` (not 0), in pile
        order (``at``: a top card's pile)."""
        if not hit & (hit - 1):
            return [at[hit.bit_length() - 1]]
        js = []
        while hit:
            h = hit & -hit
            hit ^= h
            js.append(at[h.bit_length() - 1])
        js.sort()
        return js

    accepts = [0] * 53  # a card -> the bit mask of the cards that go on it
    for u in range(53):
        hit = onto[u]
        while hit:
            h = hit & -hit
            hit ^= h
            accepts[h.bit_length() - 1] |= 1 << u
    kings = sum(1 << c for c in range(53) if space_card[c])
    pile_info: dict[tuple[bytes, int], PileInfo] = {}  # (a pile, its face-down count) -> what its moves need (see below)
    talon_cards: dict[bytes, int] = {}  # the talon -> the bit mask of its cards
    cycle_at: dict[tuple[int, int, bool], dict[int, list[tuple[int, int]]]] = {}  # (the talon's size, pointer, idle) -> {pointer: [(turns, passes)]}

    def info_of(p: bytes, lo: int) -> PileInfo:
        """For a tableau pile: (its top card; the length of its face-up run where that run
        is every face-up card, else 0; that run's lowest card (or 0); whether a space takes
        that run (a king's run off face-down cards); the bit mask of the face-up cards a
        part of the run would uncover; and the parts of the run, longest first: (cards,
        the lowest card moving, the card uncovered or -1 where none is face up))."""
        n = len(p)
        x = run_start(p, lo)
        face = n - lo
        parts: list[tuple[int, int, int]] = []
        under = 0
        for kk in range(n - x, 0, -1):
            if kk == face:
                parts.append((kk, p[-kk], -1))
            else:
                parts.append((kk, p[-kk], p[-kk - 1]))
                under |= 1 << p[-kk - 1]
        whole = face if n - x == face else 0
        info = (p[-1], whole, p[lo] if whole else 0, bool(lo and whole and space_card[p[lo]]),
                under, tuple(parts))
        if len(pile_info) > 50_000:  # (a bound on the memory it takes)
            pile_info.clear()
        pile_info[(p, lo)] = info
        return info

    def cycle_of(n: int, ptr: int, idle: bool) -> dict[int, list[tuple[int, int]]]:
        """The steps of ``cycle`` (and the pointer's own, no turn), by pointer."""
        got = cycle_at.get((n, ptr, idle))
        if got is None:
            got = {}
            for t, q, wraps in ([(0, ptr, 0)] if ptr else []) + cycle(n, ptr, idle):
                got.setdefault(q, []).append((t, wraps))
            if len(cycle_at) > 20_000:
                cycle_at.clear()
            cycle_at[(n, ptr, idle)] = got
        return got

    def moves(st: LeanState, last: tuple[int, int] | None) -> list[BMove]:
        """:func:`_lean_moves` on ``st``: each (kind, ...) as ``play`` takes it."""
        cols, downs, fp, tal, ptr, pas, idle = st[:7]
        low = 2 + min(map(len, fp))
        acc, amask = takes(fp)
        spaces: list[int] = []
        tops, dest, at = 0, amask, [0] * 53
        infos: list[tuple[int, PileInfo]] = []
        for j in range(nT):
            q = cols[j]
            if q:
                info = pile_info.get((q, downs[j])) or info_of(q, downs[j])
                c = info[0]
                tops |= 1 << c
                dest |= accepts[c]
                at[c] = j
                infos.append((j, info))
            else:
                spaces.append(j)
        if spaces:
            dest |= kings

        out: list[BMove] = []
        for i, (c, whole, foot, king, under, parts) in infos:
            k = acc[c]
            if k >= 0:
                if c % 13 + 1 < low:
                    return [(1, i, k)]
                out.append((1, i, k))
            if under & amask:  # a part of the run that frees a card for the foundations
                for kk, mc, below in parts:
                    if below >= 0 and acc[below] < 0:
                        continue
                    hit = onto[mc] & tops
                    if hit:
                        for j in piles_of(hit, at):
                            if j != i:
                                out.append((0, i, kk, j))
            elif whole:
                hit = onto[foot] & tops
                if hit:
                    for j in piles_of(hit, at):
                        if j != i:
                            out.append((0, i, whole, j))
            # a king's run, off face-down cards, into the first space
            if king and spaces:
                out.append((0, i, whole, spaces[0]))
        if tal:
            tm = talon_cards.get(tal)
            if tm is None:
                tm = 0
                for c in tal:
                    tm |= 1 << c
                if len(talon_cards) > 50_000:
                    talon_cards.clear()
                talon_cards[tal] = tm
            hits = tm & dest
            if hits:
                at_q = cycle_of(len(tal), ptr, idle)
                steps: list[tuple[int, int, int, int]] = []
                while hits:
                    h = hits & -hits
                    hits ^= h
                    c = h.bit_length() - 1
                    q = tal.index(c) + 1
                    for t, wraps in at_q.get(q, ()):
                        steps.append((t, q, wraps, c))
                steps.sort()
                for t, q, wraps, c in steps:
                    k = acc[c]
                    if k >= 0 and c % 13 + 1 <= low:
                        mv = (2, t, q, -1 - k, wraps)
                        if draw1:
                            if not t or not out:
                                return [mv]
                            out.append(mv)
                            break
                        out.append(mv)
                        continue
                    if k >= 0:
                        out.append((2, t, q, -1 - k, wraps))
                    hit = onto[c] & tops
                    js = piles_of(hit, at) if hit else []
                    if spaces and space_card[c]:  # (the first space only)
                        js = sorted(js + spaces[:1])
                    for j in js:
                        out.append((2, t, q, j, wraps))
        if returns and max(map(len, fp)) > low:  # cards back, above the lowest
            for k in range(len(fp)):
                f = fp[k]
                if len(f) <= low:
                    continue
                c = f[-1]
                hit = onto[c] & tops
                js = piles_of(hit, at) if hit else []
                if spaces and space_card[c]:  # (the first space only)
                    js = sorted(js + spaces[:1])
                for j in js:
                    if last is None or (last[0] != T[j] and last[1] != Fp[k]):
                        out.append((3, k, j))
        return out

    parts_left: dict[tuple[bytes, int], int] = {}  # (the talon, its pointer) or (a pile, face down) -> its count

    def part(p: bytes, dn: int) -> int:
        """A tableau pile's count of moves left (see :meth:`Knowledge.moves_left`)."""
        if not dn:
            return len(p)
        n = parts_left.get((p, dn))
        if n is None:
            if len(parts_left) > 50_000:
                parts_left.clear()
            n = parts_left[(p, dn)] = len(p) + dn + _disorder(p[::-1])
        return n

    def play(st: LeanState, m: BMove) -> tuple[LeanState, tuple[int, int]]:
        """The position after ``m``, and (the pile it came from, the pile it went to)."""
        cols, downs, fp, tal, ptr, pas, idle, nf, tab = st
        kind = m[0]
        if kind == 2:
            _, _, q, b, wraps = m
            c = tal[q - 1]
            tal, ptr, pas = tal[:q - 1] + tal[q:], q - 1, pas + wraps
            if b >= 0:
                old = cols[b]
                new = old + one[c]
                dn = downs[b]
                tab += part(new, dn) - part(old, dn)
                cols = cols[:b] + (new,) + cols[b + 1:]
                return (cols, downs, fp, tal, ptr, pas, False, nf, tab), (W, T[b])
            k = -1 - b
            fp = fp[:k] + (fp[k] + one[c],) + fp[k + 1:]
            return (cols, downs, fp, tal, ptr, pas, False, nf + 1, tab), (W, Fp[k])
        if kind == 3:
            _, k, b = m
            f = fp[k]
            fp = fp[:k] + (f[:-1],) + fp[k + 1:]
            old = cols[b]
            new = old + f[-1:]
            dn = downs[b]
            tab += part(new, dn) - part(old, dn)
            cols = cols[:b] + (new,) + cols[b + 1:]
            return (cols, downs, fp, tal, ptr, pas, False, nf - 1, tab), (Fp[k], T[b])
        cols, downs = list(cols), list(downs)
        a = m[1]
        p = cols[a]
        dn = downs[a]
        tab -= part(p, dn)
        if kind == 0:
            _, _, n, b = m
            old = cols[b]
            new = cols[b] = old + p[-n:]
            dn2 = downs[b]
            tab += part(new, dn2) - part(old, dn2)
            to = T[b]
        else:
            n, k = 1, m[2]
            fp = fp[:k] + (fp[k] + p[-1:],) + fp[k + 1:]
            to = Fp[k]
        rest = cols[a] = p[:-n]
        if dn >= len(rest):
            dn = downs[a] = len(rest) - 1 if rest else 0
        tab += part(rest, dn)
        return (tuple(cols), tuple(downs), fp, tal, ptr, pas, False, nf + kind, tab), (T[a], to)

    def cost(m: BMove) -> int:
        return m[1] + 1 if m[0] == 2 else 1

    talon_left: dict[tuple[bytes, int], int] = {}  # (the talon, its pointer) -> its count

    def moves_left(st: LeanState) -> int:  # Knowledge.moves_left: the talon's count, kept for those met, and
        tal, ptr = st[3], st[4]  # the tableau's, kept in the position
        left = talon_left.get((tal, ptr))
        if left is None:
            if len(talon_left) > 50_000:
                talon_left.clear()
            st_n = len(tal) - ptr
            left = talon_left[(tal, ptr)] = \
                st_n + (st_n + d - 1) // d + ptr + _disorder(tal[:ptr])
        return left + st[8]  # type: ignore[no-any-return]  # (LeanState: Any fields)

    end_of = ends.__getitem__

    def key(st: LeanState) -> bytes:  # Knowledge.lean_key
        cols, downs, fp = st[:3]
        return (b"".join(sorted(map(add, cols, map(end_of, downs))))  # type: ignore[no-any-return]
                + bytes(map(len, fp)) + one[min(st[5], 255)])

    raw = _raw_of(T, Fp, S, W)

    piles, down = pos.piles, pos.down
    root: LeanState = (tuple(bytes(piles[i]) for i in T), tuple(down[i] for i in T),
            tuple(bytes(piles[f]) for f in Fp), bytes(piles[W]) + bytes(piles[S][::-1]),
            len(piles[W]), pos.pass_no, pos.idle, sum(len(piles[f]) for f in Fp))
    root += (sum(part(p, dn) for p, dn in zip(*root[:2], strict=True)),)
    count = [0, 0]
    verdict, node, reason = yield from _lean_loop(
        root, moves, play, cost, moves_left, lambda st: size - st[7] + st[5],
        key, lambda st: st[7] == size, max_states, count)
    line = _replayed(pos, [x for m in _lean_path(node) for x in raw(m)], short,
                     "the lean look")
    return SolveResult(verdict, [eng.text(m) for m in line], count[0], count[1],
                       time.perf_counter() - start, reason, line)


def _lean_engine(pos: Position, short: bool, max_states: int | None) -> Search:
    """The lean look (see :data:`LEAN_WIDTH`), a generator as :func:`_steps` is: it yields
    (positions expanded, positions stored) every few hundred positions, and returns a
    :class:`SolveResult`: ``won`` with a line the engine replays, else ``unknown`` (a
    narrow look proves nothing)."""
    kn = knowledge(pos.variant)
    eng = pos.engine
    start = time.perf_counter()
    F, S, W = kn.F, kn.S, kn.W
    size = eng.deck_size
    stock = (STOCK, S, 0, -1)
    cycles: dict[Talon, list[Talon]] = {}

    def fcount(q: Position) -> int:
        return sum(len(q.piles[f]) for f in F)

    def cycle(q: Position) -> list[Talon]:
        """:func:`_talon_states` from ``q``, kept for each talon met."""
        at = (q.piles[S], q.piles[W], q.down[S], q.pass_no, q.idle)
        got = cycles.get(at)
        if got is None:
            got = _talon_states(q, stock)
            if len(cycles) > 20_000:
                cycles.clear()
            cycles[at] = got
        return got

    def play(q: Position, seq: Child) -> None:
        for m in seq:
            if m[0] == JUMP:
                q.push_turns(m[2], m[1], m[3])
            else:
                q.push_raw(m)

    def cost(seq: Child) -> int:
        return seq[0][1] + 1 if seq[0][0] == JUMP else len(seq)

    def line_of(node: Any) -> list[Raw]:
        line: list[Raw] = []
        for seq in _lean_path(node):
            for m in seq:
                line.extend((m[2],) * m[1] if m[0] == JUMP else (m,))
        return line

    def step(q: Position, seq: Child) -> tuple[Position, Raw]:
        q2 = q.copy()
        play(q2, seq)
        return q2, seq[-1]

    count = [0, 0]
    verdict, node, reason = yield from _lean_loop(
        pos.copy(), lambda q, last: _lean_moves(kn, q, last, cycle), step, cost,
        kn.moves_left, lambda q: size - fcount(q) + q.pass_no, kn.lean_key,
        lambda q: fcount(q) == size, max_states, count)
    line = _replayed(pos, line_of(node), short, "the lean look")
    return SolveResult(verdict, [eng.text(m) for m in line], count[0], count[1],
                       time.perf_counter() - start, reason, line)


def _lean_moves(kn: Knowledge, q: Position, last: Raw | None,
                cycle: Callable[[Position], list[Talon]]) -> list[Child]:
    """The lean look's moves from ``q`` (see :data:`LEAN_WIDTH`), each a sequence of raw
    moves (a jump through the stock first for a card from the talon); a list of one where
    one move is to be played at once. ``last``: the raw move that led here."""
    eng = q.engine
    piles, down = q.piles, q.down
    F, T, W, Fset, Tset = kn.F, kn.T, kn.W, kn.Fset, kn.Tset
    low = 2 + min(len(piles[f]) for f in F)  # a card of a lower rank goes up at once
    legal = eng.gen(q)
    acc = eng._foundation_map(piles)
    out: list[Child] = []
    spaces = [j for j in T if not piles[j]]
    # the tableau's moves, pile by pile, each pile's move up first
    mine = sorted((m for m in legal if m[0] == MOVE and m[1] in Tset),
                  key=lambda m: (m[1], m[3] not in Fset))
    for m in mine:
        _, a, n, b = m
        p = piles[a]
        if b in Fset:
            if _rank(p[-1]) < low:
                return [(m,)]
            out.append((m,))
            continue
        up = len(p) - down[a]
        if not piles[b]:
            # a king's run, off face-down cards, into the first space
            if n == up and down[a] and b == spaces[0]:
                out.append((m,))
        elif n == up or p[-n - 1] in acc:
            out.append((m,))
    mover = eng.waste_mover(q)
    of_top = mover.of_top if mover is not None else None
    w = piles[W]
    steps = ([(0, None, w[-1])] if w else []) + \
        [(k, st, st[1][-1]) for k, st in enumerate(cycle(q), 1) if st[1]]
    draw1 = eng.stock.draw == 1
    for k, st, c in steps:
        if c == UNKNOWN:
            continue
        jump = () if not k else ((JUMP, k, (STOCK, kn.S, 0, -1), st),)
        if of_top is not None:
            ms = of_top(c)
        else:  # (the moves depend on more than the card: asked at that turn)
            r = q.copy()
            if jump:
                r.push_turns(jump[0][2], jump[0][1], jump[0][3])  # type: ignore[arg-type]  # (k > 0)
            ms = [m for m in eng.gen_talon(r) if m[0] == MOVE and m[1] == W]
        ups = [m for m in ms if m[3] in Fset]
        if ups and _rank(c) <= low:
            if draw1:
                if not k or not out:
                    return [jump + (ups[0],)]
                out.append(jump + (ups[0],))
                break
            out.append(jump + (ups[0],))
            continue
        space = False
        for m in ms:
            if m[3] in Tset and not piles[m[3]]:
                if space:
                    continue
                space = True
            out.append(jump + (m,))
    if kn.returns and any(len(piles[f]) > low for f in F):  # cards back, above the lowest
        for m in legal:
            if m[0] != MOVE or m[1] not in Fset or m[3] not in Tset:
                continue
            if len(piles[m[1]]) <= low or (last is not None and
                                           (last[1] == m[3] or last[3] == m[1])):
                continue
            if not piles[m[3]] and m[3] != (spaces[0] if spaces else -1):
                continue
            out.append((m,))
    return out

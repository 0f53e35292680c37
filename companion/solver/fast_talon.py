"""Klondike's fast whole search (:func:`_exhaust_talon`, where
:meth:`~.exhaustible.Exhaustible.talon_exhaustible` holds): the piles as byte strings played on
directly, the talon as one sequence and a pointer, a move from the talon a jump of the pointer
through the stock's cycle. And what Klondike's searches on bytes share (this one and the lean
look's :func:`~.lean._lean_bytes`): the game read once, the pointer's cycle, where a pile's run
starts, which foundation takes each card, and the engine's raw moves for a move."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ..rules.engine import MOVE, STOCK, Engine, Raw, Table
from ..rules.position import Position
from .codes import _BYTE, _ENDS
from .exhaust import Exhaustive, Mark, Step
from .knowledge import Knowledge, knowledge
from .results import WON, Search
from .safe_moves import _safe_test

# The engine's foundation rules (``Engine.f_rules``): (pile, codes on an empty pile, codes on
# each top card, most cards) each.
FRules = tuple[tuple[int, tuple[int, ...], list[tuple[int, ...]], int], ...]
# A move of the searches on bytes (see :func:`_raw_of`).
BMove = tuple[int, ...]
# The foundations' piles as bytes, in the order of ``FRules``.
Founds = tuple[bytes, ...]


def _bytes_game(pos: Position) -> tuple[Knowledge, Engine, tuple[int, ...], int, int, int, Table,
                                         list[int], tuple[bool, ...], FRules, tuple[int, ...]]:
    """What the searches on bytes (Klondike's, see :meth:`Knowledge.talon_exhaustible`) read
    of the game once: its knowledge, its engine, the tableau's, stock's and waste's piles, the
    draw, the engine's build table, its masks of the cards each card goes on, which cards a
    space takes, its foundations' rules and their piles."""
    kn = knowledge(pos.variant)
    eng = pos.engine
    frules = eng.f_rules
    return (kn, eng, kn.T, kn.S, kn.W, kn.talon_draw, eng.tbuild,  # type: ignore[return-value]
            eng.onto_mask, eng.space_card, frules,  # (space_card: set, see talon_exhaustible)
            tuple(f for f, *_ in frules))


def _pointer_cycle(d: int) -> Callable[[int, int, bool], list[tuple[int, int, int]]]:
    """For the searches on bytes, where the talon is one sequence and a pointer (the waste's
    size) and the stock deals ``d`` cards: a function of (the talon's size, the pointer,
    whether the position is idle) giving (turns, pointer, passes begun) after each turn of
    the stock (the waste turned over is a turn), as :func:`_talon_states` goes: up to a pass
    that ends the game (the stock spent on a pass that changed nothing) or back to the
    pointer it started from; only those where the waste has a card. Kept for each met."""
    cycles: dict[tuple[int, int, bool], list[tuple[int, int, int]]] = {}

    def cycle(n: int, p: int, idle: bool) -> list[tuple[int, int, int]]:
        got: list[tuple[int, int, int]] | None = cycles.get((n, p, idle))
        if got is None:
            got, q, t, wraps = [], p, 0, 0
            while n:
                if q < n:
                    q = min(q + d, n)
                else:
                    q, wraps = 0, 1
                t += 1
                if (idle or wraps) and q == n:
                    break
                if q:
                    got.append((t, q, wraps))
                if q == p:
                    break
            cycles[(n, p, idle)] = got
        return got

    return cycle


def _run_start(tb: Table) -> Callable[[bytes, int], int]:
    """For the searches on bytes: a function of (a tableau pile's bytes, its face-down
    count) giving where the run on top of it starts (the index of its lowest card: each card
    above it builds on the one below, as the build table ``tb`` says), kept for the face-up
    parts met."""
    runs: dict[bytes, int] = {}

    def start(p: bytes, lo: int) -> int:
        up = p[lo:]
        x = runs.get(up)
        if x is None:
            x = len(p) - 1
            while x > lo and tb[p[x - 1]][p[x]]:
                x -= 1
            x -= lo
            if len(runs) > 20_000:  # (a bound on the memory it takes)
                runs.clear()
            runs[up] = x
        return x + lo

    return start


def _taker(frules: FRules) -> Callable[[Founds], tuple[list[int], int]]:
    """For the searches on bytes: a function of the foundations' bytes (in the order of
    ``frules``, the engine's) giving, for each card, the foundation (its number there) that
    takes it now, or -1 (the first that does, as the engine's moves go), kept for the
    foundations met."""
    met: dict[Founds, tuple[list[int], int]] = {}

    def takes(fp: Founds) -> tuple[list[int], int]:
        got = met.get(fp)
        if got is None:
            acc, mask = [-1] * 53, 0
            for k, (_, base, on_top, most) in enumerate(frules):
                p = fp[k]
                if len(p) < most:
                    for c in (on_top[p[-1]] if p else base):
                        if acc[c] < 0:
                            acc[c] = k
                            mask |= 1 << c
            if len(met) > 5_000:  # (a bound on the memory it takes)
                met.clear()
            got = met[fp] = (acc, mask)
        return got

    return takes


def _raw_of(T: Sequence[int], Fp: Sequence[int], S: int, W: int) -> Callable[[BMove], list[Raw]]:
    """For the searches on bytes: a function of one of their moves giving the engine's raw
    moves that play it. Their moves: (0, pile, cards, pile) between tableau piles (numbered
    from 0 in ``T``), (1, pile, foundation) up (numbered in ``Fp``), (2, turns, pointer,
    where, ...) from the talon after the stock's turns (``where`` a tableau pile, or
    -1 - a foundation), (3, foundation, pile) back to the tableau."""
    stock = (STOCK, S, 0, -1)

    def raw(m: BMove) -> list[Raw]:
        kind = m[0]
        if kind == 0:
            return [(MOVE, T[m[1]], m[2], T[m[3]])]
        if kind == 1:
            return [(MOVE, T[m[1]], 1, Fp[m[2]])]
        if kind == 2:
            dest = m[3]
            return [stock] * m[1] + [(MOVE, W, 1, T[dest] if dest >= 0 else Fp[-1 - dest])]
        return [(MOVE, Fp[m[1]], 1, T[m[2]])]

    return raw


def _exhaust_talon(pos: Position, short: bool, max_states: int | None,
                   prefer: Sequence[Raw] | None = None) -> Search:
    """The whole depth-first search of :func:`_steps` where
    :meth:`Knowledge.talon_exhaustible` holds (Klondike), written for speed as
    :func:`_exhaust` is: the piles as byte strings played on directly, the talon as one
    sequence (the waste bottom to top, then the stock top to bottom) and a pointer (the
    waste's size), a move from the talon a jump of the pointer through the stock's cycle
    (each turn of it a stock action) and then the move; the safe moves of
    :meth:`Knowledge.safe_move` played at once. The key names the tableau (piles
    interchangeable), the foundations (interchangeable) and the talon, its pointer left out
    where the stock's turns reach the same pointers (a multiple of the draw, or the end),
    else the least pointer met of its class kept (see ``Knowledge.dominance``). It searches
    every reachable position before saying ``lost``. A won line is replayed in the engine
    before it is given. ``prefer``: raw moves to try first at the root, in order, as in
    :func:`solve`."""
    kn, eng, T, S, W, d, tb, onto, space_card, frules, Fp = _bytes_game(pos)
    nT, returns, auto = len(T), eng.f_returns, kn.auto
    waste_auto = W in kn.auto_sources
    dominance = kn.dominance
    ends, one = _ENDS, _BYTE
    visited: set[bytes] = set()
    dom: dict[bytes, int] = {}
    fcache: dict[Founds, tuple[list[int], bytearray, bytes, int]] = {}

    def fstate(fp: Founds) -> tuple[list[int], bytearray, bytes, int]:
        """The foundations' state: what they take (card -> foundation, or -1), the cards on
        them, and their part of the key (the piles interchangeable)."""
        got = fcache.get(fp)
        if got is None:
            up = foundation_takes(fp)[0]
            onf = bytearray(53)
            for p in fp:
                for x in p:
                    onf[x] = 1
            takes = 0
            for c in range(52):
                if up[c] >= 0:
                    takes |= 1 << c
            got = (up, onf, b"".join(sorted(p + ends[0] for p in fp)), takes)
            if len(fcache) > 5_000:  # (a bound on the memory it takes: some 4 MB)
                fcache.clear()
            fcache[fp] = got
        return got

    safe = _safe_test(kn)

    foundation_takes, run_start = _taker(frules), _run_start(tb)
    cycle = _pointer_cycle(d)  # (no position here is idle: see talon_exhaustible)
    tacc_mask = eng.tacc_mask
    space_mask = sum(1 << c for c in range(52) if space_card[c])

    def flip(cols: list[bytes], downs: list[int], i: int) -> None:
        n = len(cols[i])
        if downs[i] >= n:
            downs[i] = n - 1 if n else 0

    def settle(cols: list[bytes], downs: list[int], parts: list[bytes], fp: Founds, tal: bytes,
               ptr: int, raw: list[Raw], changed: Sequence[int] | None = None
               ) -> tuple[Founds, bytes, int]:
        """Play the safe moves (appended to ``raw``); give the foundations, talon, pointer.
        ``changed``: where the foundations are as in a settled position, the tableau piles
        whose top card is new (the other tops are not safe, and the waste's top is not
        unless it is new too, ``changed`` then ending with -1)."""
        if changed is not None:
            up, onf = fstate(fp)[:2]
            for i in changed:
                if i < 0:
                    if not waste_auto or not ptr:
                        continue
                    c = tal[ptr - 1]
                elif cols[i]:
                    c = cols[i][-1]
                else:
                    continue
                if up[c] >= 0 and safe(c, up, onf):
                    break
            else:
                return fp, tal, ptr
        while True:
            up, onf = fstate(fp)[:2]
            for i in range(nT):
                p = cols[i]
                if p:
                    c = p[-1]
                    k = up[c]
                    if k >= 0 and safe(c, up, onf):
                        cols[i] = p[:-1]
                        flip(cols, downs, i)
                        parts[i] = cols[i] + ends[downs[i]]
                        fp = fp[:k] + (fp[k] + one[c],) + fp[k + 1:]
                        raw.append((MOVE, T[i], 1, Fp[k]))
                        break
            else:
                if waste_auto and ptr:
                    c = tal[ptr - 1]
                    k = up[c]
                    if k >= 0 and safe(c, up, onf):
                        tal = tal[:ptr - 1] + tal[ptr:]
                        ptr -= 1
                        fp = fp[:k] + (fp[k] + one[c],) + fp[k + 1:]
                        raw.append((MOVE, W, 1, Fp[k]))
                        continue
                return fp, tal, ptr

    def moves(cols: list[bytes], downs: list[int], fp: Founds, tal: bytes,
              ptr: int) -> list[BMove]:
        """The moves, likeliest first: cards up, runs that turn a card or empty a pile,
        the talon's cards, the other runs, cards back from the foundations."""
        up, _, _, takes = fstate(fp)
        tops, space, at, live = 0, -1, [0] * 53, takes
        for j in range(nT):
            p = cols[j]
            if p:
                t = p[-1]
                tops |= 1 << t
                at[t] = j
                live |= tacc_mask[t]
            elif space < 0:
                space = j   # (the spaces are alike: one is tried)
        if space >= 0:
            live |= space_mask
        first: list[BMove] = []
        turn: list[BMove] = []
        talon: list[BMove] = []
        rest: list[BMove] = []
        for i in range(nT):
            p = cols[i]
            if not p:
                continue
            n = len(p)
            k = up[p[-1]]
            if k >= 0:
                first.append((1, i, k))
            low = downs[i]
            x = run_start(p, low)
            for b in range(x, n):
                out = turn if b == low else rest  # (a card turned, or a pile emptied)
                c = p[b]
                hit = onto[c] & tops
                while hit:
                    h = hit & -hit
                    hit ^= h
                    j = at[h.bit_length() - 1]
                    if j != i:
                        out.append((0, i, n - b, j))
                if space >= 0 and b and space_card[c]:
                    out.append((0, i, n - b, space))
        if tal:
            for t, q, _ in ([(0, ptr, 0)] if ptr else []) + cycle(len(tal), ptr, False):
                if t and q == ptr:
                    continue  # (the waste's top card again, a pass later: the same position)
                c = tal[q - 1]
                if not live >> c & 1:
                    continue  # (no move for it)
                k = up[c]
                if k >= 0:
                    first.append((2, t, q, -1 - k))
                hit = onto[c] & tops
                while hit:
                    h = hit & -hit
                    hit ^= h
                    talon.append((2, t, q, at[h.bit_length() - 1]))
                if space >= 0 and space_card[c]:
                    talon.append((2, t, q, space))
        out = first + turn + talon + rest
        if returns:
            for k in range(len(fp)):
                p = fp[k]
                if p:
                    c = p[-1]
                    hit = onto[c] & tops
                    while hit:
                        h = hit & -hit
                        hit ^= h
                        out.append((3, k, at[h.bit_length() - 1]))
                    if space >= 0 and space_card[c]:
                        out.append((3, k, space))
        return out

    raw_of = _raw_of(T, Fp, S, W)

    def fresh(parts: list[bytes], fp: Founds, tal: bytes, ptr: int) -> bool:
        key = b"".join(sorted(parts)) + fstate(fp)[2] + tal
        n = len(tal)
        if d == 1 or not ptr % d or ptr == n:
            key += b"\xff\x00"
        elif not dominance:
            key += bytes((254, ptr))
        else:  # a class of a dominance: new only with a pointer less than any met in it
            key += bytes((255, ptr % d))
            old = dom.get(key)
            if old is not None and old <= ptr:
                return False
            dom[key] = ptr
            return True
        if key in visited:
            return False
        visited.add(key)
        return True

    piles, down = pos.piles, pos.down
    cols = [bytes(piles[i]) for i in T]
    downs = [down[i] for i in T]
    parts = [cols[i] + ends[downs[i]] for i in range(nT)]
    fp = tuple(bytes(piles[f]) for f in Fp)
    tal, ptr = bytes(piles[W]) + bytes(piles[S][::-1]), len(piles[W])
    size = eng.deck_size
    raw0: list[Raw] = []
    if auto:
        fp, tal, ptr = settle(cols, downs, parts, fp, tal, ptr, raw0)
    # the safe moves played after each move of the path
    trail: list[list[Raw]] = []

    def line(path: Sequence[BMove]) -> list[Raw]:
        out = list(raw0)
        for m, raw in zip(path, trail, strict=True):
            out += raw_of(m)
            out += raw
        return out

    run = Exhaustive(pos, short, "the fast whole search", line,
                     lambda: len(visited) + len(dom))
    if sum(map(len, fp)) == size:
        return run.finish(WON, "won", [])
    fresh(parts, fp, tal, ptr)
    ms = moves(cols, downs, fp, tal, ptr)
    if prefer:  # (the first raw move of each: the stock action, for a jump)
        order = {m: k for k, m in enumerate(prefer)}
        ms.sort(key=lambda m: order.get(raw_of(m)[0], len(order)))
    # the positions on the path: their piles as lists, foundations, talon, pointer
    states = [(cols, downs, parts, fp, tal, ptr)]

    def step(todo: Iterator[BMove]) -> Step[BMove]:
        fr = states[-1]
        for m in todo:
            cols, downs, parts, fp, tal, ptr = fr[0][:], fr[1], fr[2][:], fr[3], fr[4], fr[5]
            kind = m[0]
            changed: tuple[int, ...] | None = None
            if kind == 0:
                _, a, n, b = m
                p = cols[a]
                rest = cols[a] = p[:-n]
                cols[b] += p[-n:]
                if downs[a] >= len(rest):
                    downs = downs[:]
                    downs[a] = len(rest) - 1 if rest else 0
                parts[a] = rest + ends[downs[a]]
                parts[b] = cols[b] + ends[downs[b]]
                changed = (a,)  # (the top of b was the top of a)
            elif kind == 1:
                _, a, k = m
                p = cols[a]
                rest = cols[a] = p[:-1]
                if downs[a] >= len(rest):
                    downs = downs[:]
                    downs[a] = len(rest) - 1 if rest else 0
                parts[a] = rest + ends[downs[a]]
                fp = fp[:k] + (fp[k] + p[-1:],) + fp[k + 1:]
            elif kind == 2:
                _, _, q, b = m
                c = tal[q - 1]
                tal, ptr = tal[:q - 1] + tal[q:], q - 1
                if b >= 0:
                    cols[b] += one[c]
                    parts[b] = cols[b] + ends[downs[b]]
                    changed = (b, -1)
                else:
                    k = -1 - b
                    fp = fp[:k] + (fp[k] + one[c],) + fp[k + 1:]
            else:
                _, k, b = m
                f = fp[k]
                fp = fp[:k] + (f[:-1],) + fp[k + 1:]
                cols[b] += f[-1:]
                parts[b] = cols[b] + ends[downs[b]]
            raw: list[Raw] = []
            if auto:
                if downs is fr[1]:
                    downs = downs[:]  # (settle may turn a card)
                fp, tal, ptr = settle(cols, downs, parts, fp, tal, ptr, raw, changed)
            if fp is not fr[3] and sum(map(len, fp)) == size:
                trail.append(raw)
                return m, Mark.WON_UNCOUNTED
            if not fresh(parts, fp, tal, ptr):
                continue
            trail.append(raw)
            states.append((cols, downs, parts, fp, tal, ptr))
            return m, moves(cols, downs, fp, tal, ptr)
        return None

    def undo(m: BMove) -> None:
        states.pop()
        trail.pop()

    return (yield from run.run(ms, step, undo, max_states, lambda: (
        f"all {len(visited) + len(dom)} reachable positions searched "
        f"(up to symmetry and safe moves), none is won")))

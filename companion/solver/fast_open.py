"""The fast whole search of an open tableau (Streets and Alleys; :func:`_exhaust`, where
:meth:`~.exhaustible.Exhaustible.exhaustible` holds): the general search's depth-first search
written for speed, the tableau piles as byte strings played on directly."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from ..rules.engine import MOVE, Raw
from ..rules.position import Position
from .codes import _BYTE, _ENDS
from .exhaust import Exhaustive, Mark, Step
from .knowledge import knowledge
from .results import WON, Search
from .safe_moves import _safe_test


def _exhaust(pos: Position, short: bool, max_states: int | None,
             visited: set[bytes] | None = None, line: set[bytes] | None = None,
             jitter: random.Random | None = None) -> Search:
    """The whole depth-first search of :func:`_steps` where :meth:`Knowledge.exhaustible`
    holds, written for speed: the tableau piles as byte strings played on directly (no
    position, no move objects), the foundations as their top cards, the safe moves of
    :meth:`Knowledge.safe_move` (a card up that nothing can still need) played at once, the
    other moves in a fixed order: pile by pile, those of the piles whose next card a
    foundation takes first (a top card up, onto another, into a space). The same generator
    protocol, the same keys (``visited`` and ``line`` as there), and it searches every
    reachable position before saying ``lost``; it does not rank each position's moves, as
    :func:`_steps` does. A won line
    is replayed in the engine before it is given. ``jitter`` (a random.Random): each
    position's piles are tried in an order of chance, those whose next card a foundation
    takes still first."""
    kn = knowledge(pos.variant)
    eng = pos.engine
    if visited is None:
        visited = set()
    T = kn.T
    space_card = eng.space_card
    onto = eng.onto_mask  # for each card, the cards it may go on (a bit mask)
    frules = eng.f_rules
    auto = kn.auto
    one = _BYTE
    piles = pos.piles
    cols = [bytes(piles[i]) for i in T]
    ftop = [piles[f][-1] if piles[f] else -1 for f, *_ in frules]
    flen = [len(piles[f]) for f, *_ in frules]
    onf = bytearray(53)
    for f, *_ in frules:
        for x in piles[f]:
            onf[x] += 1
    sep = _ENDS[0]

    def takes() -> list[int]:  # card -> the foundation (its number in frules) that takes it now, or -1
        m = [-1] * 53
        for k, (_, base, on_top, most) in enumerate(frules):
            if flen[k] < most:
                for c in (base if ftop[k] < 0 else on_top[ftop[k]]):
                    if m[c] < 0:
                        m[c] = k
        return m

    safe = _safe_test(kn)

    at = [0] * 53  # the pile a top card tops (one deck: no two tops alike)
    bit = [1 << c for c in range(53)]
    n_cols = range(len(cols))

    def moves(up: list[int]) -> list[tuple[int, int]]:
        # The piles whose next card a foundation takes come first (``first``), then the rest
        # in pile order; a safe move up is the only move offered.
        tops, space = 0, -1
        first: list[int] = []
        rest: list[int] = []
        for i in n_cols:
            p = cols[i]
            if p:
                tops |= bit[p[-1]]
                at[p[-1]] = i
                (first if len(p) > 1 and up[p[-2]] >= 0 else rest).append(i)
            elif space < 0:
                space = i   # (the spaces are alike: one is tried)
        out = []
        if jitter is not None:  # (each group's piles in an order of chance)
            jitter.shuffle(first)
            jitter.shuffle(rest)
        for i in (first + rest if first else rest):
            p = cols[i]
            c = p[-1]
            k = up[c]
            if k >= 0:
                if auto and safe(c, up, onf):
                    return [(i, -1 - k)]
                out.append((i, -1 - k))
            hit = onto[c] & tops
            while hit:
                b = hit & -hit
                out.append((i, at[b.bit_length() - 1]))
                hit ^= b
            if space >= 0 and len(p) > 1 and space_card[c]:  # type: ignore[index]  # (set, by exhaustible)
                out.append((i, space))
        return out

    def raw(steps: Sequence[tuple[int, int]]) -> list[Raw]:
        return [(MOVE, T[i], 1, T[j] if j >= 0 else frules[-1 - j][0]) for i, j in steps]

    run = Exhaustive(pos, short, "the fast whole search", raw, visited.__len__)
    key = sep.join(sorted(cols))
    visited.add(key)
    keep_line = line is not None
    if keep_line:
        line.add(key)  # type: ignore[union-attr]  # (keep_line)
    size = eng.deck_size  # the game is won when the foundations hold it all
    if sum(flen) == size:
        return run.finish(WON, "won", [])
    up = takes()
    # what a move changed, to undo it: (pile i before, pile j or the foundation before,
    # takes, key)
    trail: list[tuple[bytes, Any, list[int], bytes]] = []

    def step(todo: Iterator[tuple[int, int]]) -> Step[tuple[int, int]]:
        nonlocal up
        for m in todo:
            i, j = m
            src = cols[i]
            c = src[-1]
            cols[i] = src[:-1]
            if j >= 0:
                dst = cols[j]
                cols[j] = dst + one[c]
                key = sep.join(sorted(cols))
                if key in visited:
                    cols[i], cols[j] = src, dst
                    continue
                visited.add(key)
                trail.append((src, dst, up, key))
            else:
                key = sep.join(sorted(cols))
                if key in visited:
                    cols[i] = src
                    continue
                visited.add(key)
                k = -1 - j
                trail.append((src, (ftop[k], flen[k]), up, key))
                ftop[k] = c
                flen[k] += 1
                onf[c] += 1
                up = takes()
                if sum(flen) == size:
                    return m, Mark.WON_UNCOUNTED
            if keep_line:
                line.add(key)  # type: ignore[union-attr]  # (keep_line)
            return m, moves(up)
        return None

    def undo(m: tuple[int, int]) -> None:
        nonlocal up
        i, j = m
        src, old, up, key = trail.pop()
        if j >= 0:
            cols[j] = old
        else:
            k = -1 - j
            onf[src[-1]] -= 1
            ftop[k], flen[k] = old
        cols[i] = src
        if keep_line:
            line.discard(key)  # type: ignore[union-attr]  # (keep_line)

    return (yield from run.run(moves(up), step, undo, max_states, lambda: (
        f"all {len(visited)} reachable positions searched "
        f"(up to symmetry and safe moves), none is won")))

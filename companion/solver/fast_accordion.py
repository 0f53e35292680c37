"""Accordion's fast whole searches (:func:`_exhaust_line`, where
:meth:`~.exhaustible.Exhaustible.line_exhaustible` holds): the line as a string of its piles'
top cards, searched from both ends interleaved (:data:`LINE_ORDERS`)."""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from typing import Any

from ..rules.engine import FOLD, STOCK, Raw
from ..rules.position import Position
from .codes import _BYTE
from .knowledge import knowledge
from .lines import _replayed
from .results import LOST, SLICE, UNKNOWN_VERDICT, WON, Search, SolveResult

# The orders of Accordion's searches on the line (:func:`_exhaust_line`): each searches the
# whole space, interleaved, a slice each in turn; together they win deals neither wins alone.
LINE_ORDERS = ("left", "right")


def _exhaust_line(pos: Position, short: bool, max_states: int | None,
                  prefer: Sequence[Raw] | None = None) -> Search:
    """The whole depth-first search where :meth:`Knowledge.line_exhaustible` holds
    (Accordion): the line as a string of its piles' top cards (a pile moves whole, and only
    its top card is ever matched again), the cards still in the stock dealt onto its end
    first (dealing and folding commute: see ``Knowledge.deal_first``). A fold of the pile at
    k onto the one d places to its left (as the engine's fold table takes it) makes the
    string ``s[:k-d] + s[k] + s[k-d+1:k] + s[k+1:]``; the game is won at one pile.

    The searches of :data:`LINE_ORDERS` run interleaved, a slice each, each with its table of
    strings met: the deals one order wins in a second another may not win in minutes. Any
    win is a win, and any one that ends having searched its whole space proves a loss.
    ``prefer``: raw moves to try
    first at the root (the hints' vote), where there is nothing to deal. A won line is
    replayed in the engine before it is given."""
    eng = pos.engine
    start = time.perf_counter()
    P, S = eng.groups.pyramid, knowledge(pos.variant).S
    piles = pos.piles
    n = eng.line_length(piles)
    deals = len(piles[S]) if S >= 0 else 0
    line = bytes(piles[P[k]][-1] for k in range(n)) + \
        (bytes(reversed(piles[S])) if deals else b"")
    table = eng.fold_table
    reach = sorted(eng.accordion.reach)
    one = _BYTE
    counts = [0] * len(LINE_ORDERS)
    sizes = [0] * len(LINE_ORDERS)

    def raw(path: Sequence[tuple[int, int]]) -> list[Raw]:
        return [(STOCK, S, 0, -1)] * deals + [(FOLD, P[k], 0, P[k - d]) for k, d in path]

    def result(verdict: str, reason: str,
               path: Sequence[tuple[int, int]] | None = None) -> SolveResult:
        moves_ = _replayed(pos, raw(path), short, "the search on the line") \
            if path is not None else []
        return SolveResult(verdict, [eng.text(m) for m in moves_], sum(counts), sum(sizes),
                           time.perf_counter() - start, reason, moves_)

    def folds(s: bytes, reverse: bool) -> list[tuple[int, int, bytes]]:  # (k, d, the line after the fold)
        out: list[tuple[int, int, bytes]] = []
        for k in range(1, len(s)):
            c = s[k]
            for d in reach:
                if k >= d and table[s[k - d]][c]:
                    out.append((k, d, s[:k - d] + one[c] + s[k - d + 1:k] + s[k + 1:]))
        if reverse:
            out.reverse()
        return out

    if len(line) <= 1:
        return result(WON, "won", [])

    def search(number: int, reverse: bool, cap: int | None
               ) -> Generator[None, None, tuple[str, list[tuple[int, int]] | None, int]]:
        seen = {line}
        kids = folds(line, reverse)
        if prefer and not deals and number == 0:  # (the first search tries them first)
            order = {m: j for j, m in enumerate(prefer)}
            kids.sort(key=lambda f: order.get(raw([f[:2]])[0], len(order)))
        frames: list[list[Any]] = [[kids, 0]]  # (the children, the next one to try)
        path: list[tuple[int, int]] = []
        nodes = 0
        while frames:
            fr = frames[-1]
            kids, i = fr
            while i < len(kids) and kids[i][2] in seen:
                i += 1
            if i == len(kids):
                frames.pop()
                if path:
                    path.pop()
                continue
            fr[1] = i + 1
            k, d, s = kids[i]
            seen.add(s)
            nodes += 1
            path.append((k, d))
            if len(s) == 1:
                counts[number], sizes[number] = nodes, len(seen)
                return WON, path, number
            frames.append([folds(s, reverse), 0])
            if not nodes & SLICE:
                counts[number], sizes[number] = nodes, len(seen)
                if cap is not None and len(seen) > cap:
                    return UNKNOWN_VERDICT, None, number
                yield
        counts[number], sizes[number] = nodes, len(seen)
        return LOST, None, number

    cap = max_states // len(LINE_ORDERS) if max_states is not None else None
    runs = [search(j, how == "right", cap) for j, how in enumerate(LINE_ORDERS)]
    while runs:
        for run in list(runs):
            try:
                next(run)
            except StopIteration as done:
                verdict, path, number = done.value
                if verdict == WON:
                    return result(WON, f"won after searching {sum(counts)} lines", path)
                if verdict == LOST:
                    return result(LOST, f"all {sizes[number]} lines that folds reach searched "
                                        "(every card dealt first), none is won")
                runs.remove(run)
        yield sum(counts), sum(sizes)
    return result(UNKNOWN_VERDICT, "memory budget spent")

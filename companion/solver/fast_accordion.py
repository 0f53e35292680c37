"""Accordion's fast whole searches (:func:`_exhaust_line`, where
:meth:`~.exhaustible.Exhaustible.line_exhaustible` holds): the line as a string of its piles'
top cards, searched from both ends interleaved (:data:`LINE_ORDERS`)."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import replace

from ..rules.engine import FOLD, STOCK, Raw
from ..rules.position import Position
from .codes import _BYTE
from .exhaust import Exhaustive, Mark, Step
from .knowledge import knowledge
from .results import UNKNOWN_VERDICT, WON, Search, SolveResult

# The orders of Accordion's searches on the line (:func:`_exhaust_line`): each searches the
# whole space, interleaved, a slice each in turn; together they win deals neither wins alone.
LINE_ORDERS = ("left", "right")
# A fold: (the pile's place k in the line, how far left it goes d, the line after it).
Fold = tuple[int, int, bytes]
WHO = "the search on the line"


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

    def raw(path: Sequence[Fold]) -> list[Raw]:
        return [(STOCK, S, 0, -1)] * deals + [(FOLD, P[k], 0, P[k - d]) for k, d, _ in path]

    def folds(s: bytes, reverse: bool) -> list[Fold]:  # (k, d, the line after the fold)
        out: list[Fold] = []
        for k in range(1, len(s)):
            c = s[k]
            for d in reach:
                if k >= d and table[s[k - d]][c]:
                    out.append((k, d, s[:k - d] + one[c] + s[k - d + 1:k] + s[k + 1:]))
        if reverse:
            out.reverse()
        return out

    if len(line) <= 1:
        return Exhaustive(pos, short, WHO, raw, lambda: 0).finish(WON, "won", [])

    def search(number: int, reverse: bool, cap: int | None) -> Search:
        seen = {line}
        kids = folds(line, reverse)
        if prefer and not deals and number == 0:  # (the first search tries them first)
            order = {m: j for j, m in enumerate(prefer)}
            kids.sort(key=lambda f: order.get(raw([f])[0], len(order)))

        def step(todo: Iterator[Fold]) -> Step[Fold]:
            for f in todo:
                s = f[2]
                if s in seen:
                    continue
                seen.add(s)
                return f, folds(s, reverse) if len(s) > 1 else Mark.WON
            return None

        run = Exhaustive(pos, short, WHO, raw, seen.__len__)
        return run.run(kids, step, None, cap, str)

    cap = max_states // len(LINE_ORDERS) if max_states is not None else None
    runs = [search(j, how == "right", cap) for j, how in enumerate(LINE_ORDERS)]
    counts = [0] * len(LINE_ORDERS)
    sizes = [0] * len(LINE_ORDERS)
    live = list(enumerate(runs))
    while live:
        for number, run in list(live):
            try:
                counts[number], sizes[number] = next(run)
            except StopIteration as done:
                got: SolveResult = done.value
                counts[number], sizes[number] = got.nodes, got.states
                if got.verdict != UNKNOWN_VERDICT:  # (any order's win or loss settles it)
                    reason = (f"won after searching {sum(counts)} lines" if got.verdict == WON
                              else f"all {sizes[number]} lines that folds reach searched "
                                   "(every card dealt first), none is won")
                    return replace(got, nodes=sum(counts), states=sum(sizes),
                                   seconds=time.perf_counter() - start, reason=reason)
                live.remove((number, run))
        yield sum(counts), sum(sizes)
    return SolveResult(UNKNOWN_VERDICT, [], sum(counts), sum(sizes),
                       time.perf_counter() - start, "memory budget spent")

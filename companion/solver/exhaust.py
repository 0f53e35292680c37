"""The skeleton the fast whole searches share (:class:`Exhaustive`): the depth-first loop over
a stack of children, the line to the current position, the count of positions searched, the
memory budget, handing control back to the portfolio every :data:`~.results.SLICE` + 1
positions, and the result with its won line replayed in the engine. A fast search keeps only
its encoding of a position and its moves: ``step`` (the next move from the current position to
a new one: its children, or a :class:`Mark`), ``undo`` and the raw moves of a line.

The protocol: where a search applies (the tests of :class:`~.exhaustible.Exhaustible`),
:meth:`Exhaustive.run` and :meth:`Exhaustive.finish`. Golf's search keeps its inner loop written
out (a call a position costs it measurably) and shares the rest: :meth:`Exhaustive.finish`."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import Enum
from typing import Generic, TypeVar

from ..rules.engine import Raw
from ..rules.position import Position
from .lines import _replayed
from .results import LOST, SLICE, UNKNOWN_VERDICT, WON, Search, SolveResult

M = TypeVar("M")


class Mark(Enum):
    """What ``step`` says of a move's position instead of its children."""

    WON = "won"
    """Won: counted as searched, the move the line's last."""
    WON_UNCOUNTED = "won uncounted"
    """Won, not counted as searched (as the open tableau's and the talon's searches count)."""
    CUT = "cut"
    """New, counted as searched, but not searched through (a bound says it cannot win;
    ``step`` undoes its change)."""


# ``step``'s answer for a position's moves not yet tried: the next that reaches a new position
# (``step`` undoes the others), with that position's children or a Mark; None once none does.
Step = tuple[M, Iterable[M] | Mark] | None


class Exhaustive(Generic[M]):
    """One run of a fast whole search from ``pos``: ``who`` names it where its won line fails
    to replay, ``line`` gives the raw moves of a path of its moves (the root's own moves
    first), ``states`` how many positions it keeps; ``short``: the won line's detours cut."""

    def __init__(self, pos: Position, short: bool, who: str,
                 line: Callable[[Sequence[M]], list[Raw]], states: Callable[[], int]) -> None:
        self.pos, self.short, self.who = pos, short, who
        self.line, self.states = line, states
        self.start = time.perf_counter()
        self.nodes = 0

    def finish(self, verdict: str, reason: str, path: Sequence[M] | None = None) -> SolveResult:
        """The result: ``path`` (won only) replayed in the engine, as the raw moves and the
        engine's notation."""
        moves = (_replayed(self.pos, self.line(path), self.short, self.who)
                 if path is not None else [])
        text = self.pos.engine.text
        return SolveResult(verdict, [text(m) for m in moves], self.nodes, self.states(),
                           time.perf_counter() - self.start, reason, moves)

    def spent(self, max_states: int | None) -> bool:
        """Whether the positions kept are over the memory budget."""
        return max_states is not None and self.states() > max_states

    def run(self, first: Iterable[M], step: Callable[[Iterator[M]], Step[M]],
            undo: Callable[[M], None] | None, max_states: int | None,
            lost: Callable[[], str]) -> Search:
        """The depth-first search from the root's moves ``first``: each position's moves
        ``step``-ped through (see :data:`Step`: one call a new position, the loop over the
        moves met already is the search's own), ``undo``-ne on the way back (None: nothing to
        undo); won at the first win, ``lost`` (its reason) once every move is tried, unknown
        where the positions kept pass ``max_states``."""
        stack: list[Iterator[M]] = [iter(first)]
        path: list[M] = []
        nodes = 0
        while stack:
            got = step(stack[-1])
            if got is None:
                stack.pop()
                if path:
                    m = path.pop()
                    if undo is not None:
                        undo(m)
                continue
            m, kids = got
            if kids.__class__ is Mark:
                if kids is Mark.CUT:
                    nodes += 1
                    continue
                path.append(m)
                if kids is Mark.WON:
                    nodes += 1
                    self.nodes = nodes
                else:
                    self.nodes = nodes
                    nodes += 1
                return self.finish(WON, f"won after searching {nodes} positions", path)
            nodes += 1
            path.append(m)
            stack.append(iter(kids))  # type: ignore[arg-type]  # (not a Mark)
            if not nodes & SLICE:
                self.nodes = nodes
                if self.spent(max_states):
                    return self.finish(UNKNOWN_VERDICT, "memory budget spent")
                yield nodes, self.states()
        self.nodes = nodes
        return self.finish(LOST, lost())

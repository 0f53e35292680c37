"""Winning lines: the raw moves from a search's start to a node, the children a search plays
(a move, or a jump through the stock and a move: :data:`JUMP`), cutting the detours out of a
won line (:func:`shorten`, mirrors of a position included), and replaying in the engine a line
a search found outside it (:func:`_replayed`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..rules.engine import Raw
from ..rules.position import Position
from .knowledge import knowledge
from .results import SolverError

# A node of a search's tree: (its parent's node, or None at the start; the raw moves from the
# parent to it).
Node = tuple[Any, Sequence[Raw]]
# A child of a position: raw moves, or a jump (see :data:`JUMP`) and then a move.
Child = Sequence[Any]
# The talon's state: (stock, waste, the stock's face-down count, pass, idle).
Talon = tuple[tuple[int, ...], tuple[int, ...], int, int, bool]


def _line(root_line: Sequence[Raw], node: Node | None) -> list[Raw]:
    """The raw moves from the search's start to ``node`` (a chain of (parent, moves))."""
    parts = []
    while node is not None:
        node, moves = node
        parts.append(moves)
    out = list(root_line)
    for moves in reversed(parts):
        out.extend(moves)
    return out


# A child of a position is a sequence of raw moves, or a jump through the stock and a move:
# (JUMP, k, stock action, the talon after k turns) first, played by ``Position.push_turns``
# as one step (its history lists the k turns).
JUMP = -1


def _first(seq: Child) -> Raw:
    """The first raw move of a child (the stock action, for a jump)."""
    first: Raw = seq[0][2] if seq[0][0] == JUMP else seq[0]
    return first


def shorten(pos: Position, line: list[Raw]) -> list[Raw]:
    """A winning ``line`` from ``pos`` with detours cut out: wherever a legal move leads
    straight to a position the line reaches later, take it.

    Where the rules make piles interchangeable (:meth:`Knowledge.mirror_groups`), a move
    may also lead to a mirror of a later position (the same with such piles renamed): the
    line goes on from there with its piles renamed, each move as the engine names it. The
    line returned is never longer than ``line``, nor than the one cut at exact positions
    alone (that one where the mirrors save nothing)."""
    exact: list[Raw] = _cut(pos, line, _exact_key)  # type: ignore[assignment]  # (None: mirrors)
    kn = knowledge(pos.variant)
    if not kn.has_mirrors or len(exact) <= 1:
        return exact
    mirrored = _cut(pos, line, kn.mirror_key_for(pos), mirrors=True)
    return mirrored if mirrored is not None and len(mirrored) < len(exact) else exact


def _exact_key(q: Position) -> bytes:
    return q.key()


def _cut(pos: Position, line: list[Raw], key: Callable[[Position], bytes],
         mirrors: bool = False) -> list[Raw] | None:
    """:func:`shorten`'s cut of ``line`` by ``key`` (:func:`_exact_key`, or with ``mirrors``
    :meth:`Knowledge.mirror_key`), greedily: from each position, the move to the latest
    position of the line with the same key. None where, with ``mirrors``, some position
    has no move to one later on the line, or the last is not won: the rules do not treat
    the piles alike after all (the cut is then left to exact positions)."""
    q = pos.copy()
    keys = [key(q)]
    for m in line:
        q.push_raw(m)
        keys.append(key(q))
    last = {k: i for i, k in enumerate(keys)}
    q = pos.copy()
    out, i, n = [], 0, len(line)
    while i < n:
        # With exact keys, the line's own move is there to take; with mirrors, the move
        # renamed is one of the legal moves, and the loop finds it (or a move as good).
        best_j, best_m = (i, None) if mirrors else (i + 1, line[i])
        for m in q.raw_moves():
            q.push_raw(m)
            j = last.get(key(q), -1)
            q.pop()
            if j > best_j:
                best_j, best_m = j, m
        if best_m is None:
            return None
        q.push_raw(best_m)
        out.append(best_m)
        i = best_j
    if mirrors and not q.is_won():
        return None
    return out


def _replayed(pos: Position, line: list[Raw], short: bool, who: str) -> list[Raw]:
    """A winning ``line`` found by a search that plays outside the engine (``who``),
    replayed in the engine from ``pos`` (a line it does not win is a bug: an error, never a
    wrong verdict), with its detours cut out where ``short``."""
    if not line:
        return line
    q = pos.copy()
    for m in line:
        q.push_raw(m)
    if not q.is_won():
        raise SolverError(f"{who} found a line the engine does not win; please report this "
                          "deal")
    return shorten(pos, line) if short else line

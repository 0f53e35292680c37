"""Why a move is refused, in words a player understands.

The engine decides legality; this module only puts a refused move into words, using the same
pieces (so the sentence comes from the rule's own parameters). It is off the hot path. The
refusals of one mechanic are in its module (:mod:`.mechanics`); this one sorts a move to the
mechanic it concerns and says what spans them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import UNKNOWN, code_text
from .mechanics import accordion, foundations, gaps, pairs, reserve, stock, tableau, waste
from .moves import Move

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .engine import Engine
    from .position import Position

    # A token of card notation: ("pile", name) or ("card", code) (see Position.parse_move).
    CardSpec = tuple[str, Any]


def _c(code: int) -> str:
    return code_text(code)


def explain(pos: Position, move: Move) -> str:
    if move.src == "s" and move.dst is None:
        return _explain_stock(pos)
    eng = pos.engine
    groups = eng.groups
    v = eng.variant
    a = eng.index.get(move.src, -1)
    why = _source_refusal(pos, move, a)
    if why is not None:
        return why
    if v.pairs:
        return pairs.explain_pair(pos, move)
    if v.accordion:
        return accordion.explain_fold(pos, move)
    if v.gaps:
        return gaps.explain_gap(pos, move)
    b = eng.index.get(move.dst or "", -1)
    why = _constraint(pos, a, b, to_foundation=move.dst == "f" or b in groups.foundation_set)
    if why:
        return why
    n = move.count or 1
    why = _count_refusal(pos, move, a, n)
    if why is not None:
        return why
    return _destination_refusal(pos, move, a, n)


def _source_refusal(pos: Position, move: Move, a: int) -> str | None:
    """What is wrong with the pile ``move`` takes from (index ``a``, -1 for none), or with
    naming it alone; None when nothing is."""
    eng = pos.engine
    groups = eng.groups
    v = eng.variant
    name = v.name
    piles = pos.piles
    src = move.src
    if a in groups.foundation_set and eng.f_transfer and piles[a] and not eng.f_returns:
        return foundations.explain_transfer(pos, a, eng.index.get(move.dst or "", -1))
    if (a in groups.foundation_set or src == "f") and not eng.f_returns and groups.foundations:
        return f"cards on the foundations stay there in {name}"
    if a < 0 and src == "f":
        return "name the foundation the card comes from, e.g. f1 t3"
    p = piles[a] if a >= 0 else ()
    if move.dst is None and not v.pairs:
        return _say_where(pos, src)
    if a == groups.stock and not (v.stock and v.stock.turn_up):
        if eng.space == "any-or-stock" and p:
            return f"in {name} the stock's top card may only fill a space (an empty pile); " \
                   f"type s to deal a new row"
        return "stock cards come into play only through the stock action: type s"
    if not p:
        return f"{src} is empty"
    if a == groups.aside:
        return f"cards put aside in x are out of play in {name}"
    top = p[-1]
    if top == UNKNOWN and a not in groups.grid:
        return f"the top card of {src} has not been named yet: type {src}=CARD first"
    if a in groups.grid and not p:
        return f"{src} is a gap"
    return None


def _count_refusal(pos: Position, move: Move, a: int, n: int) -> str | None:
    """Why the ``n`` cards ``move`` takes from pile ``a`` cannot move together; None when
    they can."""
    eng = pos.engine
    groups = eng.groups
    piles = pos.piles
    src = move.src
    p = piles[a]
    if a in groups.tableau_set:
        b = eng.index.get(move.dst or "", -1)
        into_space = eng.space_unit and b in groups.tableau_set and not piles[b]
        units = tuple(eng.space_units(pos, a) if into_space else eng.units(pos, a))
        if n not in units or n > len(p):
            up = len(p) - pos.down[a]
            if n > up:
                return f"{src} has only {up} face-up card{'s' if up != 1 else ''}"
            to_f = move.dst == "f" or eng.index.get(move.dst or "", -1) in groups.foundation_set
            if to_f and not eng.complete_runs:
                return "only one card at a time goes to a foundation"
            return f"{n} card{'s' if n != 1 else ''} of {src} cannot move as one unit: " \
                   f"in {eng.variant.name} {eng.tab.move_phrase()}"
    elif n > 1 and a in groups.reserve_set and eng.reserve.move == "run":
        k = 1
        while k < len(p) and eng.tbuild[p[-k - 1]][p[-k]]:
            k += 1
        if n > k:
            return f"the top {n} cards of {src} are not a run in sequence"
    elif n > 1:
        return f"only one card at a time leaves {src}"
    return None


def _destination_refusal(pos: Position, move: Move, a: int, n: int) -> str:
    """Why the ``n`` cards from pile ``a`` cannot go where ``move`` puts them."""
    eng = pos.engine
    groups = eng.groups
    v = eng.variant
    name = v.name
    src = move.src
    card = pos.piles[a][-n]
    dst = move.dst or ""
    b = eng.index.get(dst, -1)
    if dst == "f" or b in groups.foundation_set:
        return foundations.explain_foundation(pos, card, b, src, n)
    if b < 0:
        return f"there is no pile {dst!r} in {name}"
    if b == a:
        return f"{src} cannot move onto itself"
    if b in groups.tableau_set:
        return tableau.explain_onto_tableau(pos, a, b, n)
    if b == groups.waste and v.waste and v.waste.build:
        return waste.explain_onto_waste(pos, card, b)
    if b in groups.reserve_set:
        return reserve.explain_reserve(pos, a, b, n)
    if b == groups.waste or b == groups.stock:
        return f"cards cannot be put on the {'waste' if b == groups.waste else 'stock'}"
    return f"{move} is not a legal move here"


def _constraint(pos: Position, a: int, b: int, to_foundation: bool) -> str:
    """Rules that bar every move but a few: Octave's turned card in the last pass, Gate's
    spaces filled first, aces up first (``force_aces``). Empty when none applies to the move
    from pile ``a`` to pile ``b``."""
    return stock.explain_last_pass(pos, a) or tableau.explain_spaces_first(pos, b) \
        or foundations.explain_aces_first(pos, a, to_foundation)


def _explain_stock(pos: Position) -> str:
    eng = pos.engine
    v = eng.variant
    if v.gaps:
        return gaps.explain_redeal(pos)
    if eng.groups.stock < 0:
        return f"{v.name} has no stock"
    why = _constraint(pos, eng.groups.stock, -1, to_foundation=False)
    return why or stock.explain_stock(pos)


def _say_where(pos: Position, src: str) -> str:
    """A pile named alone: the legal moves from it, or if there are none, some legal moves."""
    eng = pos.engine
    legal = [eng.text(m) for m in pos.raw_moves()]
    own = [t for t in legal if t.split(" ")[0].split(":")[0] == src and " " in t]
    i = eng.index.get(src, -1)
    if i >= 0 and not pos.piles[i]:
        shown = ", ".join(legal[:6]) + (", ..." if len(legal) > 6 else "")
        return f"{src} is empty" + (f" (legal moves: {shown})" if legal else "")
    if len(own) == 1:
        return f"say where {src} goes: `{own[0]}` is its only legal move here"
    if own:
        shown = ", ".join(own[:8]) + (", ..." if len(own) > 8 else "")
        return f"say where {src} goes: its legal moves here are {shown}"
    if not legal:
        return f"say where {src} goes; no move is legal here"
    shown = ", ".join(legal[:6]) + (", ..." if len(legal) > 6 else "")
    return f"say where {src} goes; no move from {src} is legal here (legal moves: {shown})"


def explain_cards(pos: Position, specs: Sequence[CardSpec]) -> str:
    """A refusal for card notation (``7h``, ``7h t4``): say what the card could not do."""
    eng = pos.engine
    cards = [s[1] for s in specs if s[0] == "card"]
    spots: dict[int, list[tuple[int, int]]] = {}
    for i, p in enumerate(pos.piles):
        for k, c in enumerate(p):
            if c in cards and (k >= pos.down[i] or i == eng.groups.waste):  # the waste is face up
                spots.setdefault(c, []).append((i, k))
    # a copy on top of its pile first (two decks)
    at = {c: min(ss, key=lambda s: len(pos.piles[s[0]]) - s[1]) for c, ss in spots.items()}
    where = {c: eng.names[i] for c, (i, _) in at.items()}
    missing = [c for c in cards if c not in where]
    if missing:
        return f"{_c(missing[0])} is not face up anywhere in the layout"
    covered = _covered(pos, specs, at)
    if covered:
        return covered
    first = specs[0]
    src = where[first[1]] if first[0] == "card" else first[1]
    if len(specs) == 2:
        second = specs[1]
        dst = second[1] if second[0] == "pile" else where.get(second[1], "?")
        try:
            p = pos.piles[eng.index[src]]
            count = len(p) - at[first[1]][1] if first[0] == "card" else 0
            return explain(pos, Move(src, dst, count if count > 1 else 0))
        except (KeyError, ValueError, IndexError):
            pass
    # the stock counts: "no move at all" read as a lost game while `s` was legal
    legal = list(dict.fromkeys(eng.text(m) for m in pos.raw_moves()))
    shown = ", ".join(legal[:6]) + (", ..." if len(legal) > 6 else "")
    return f"{_c(first[1]) if first[0] == 'card' else src} has no legal move here" + (
        f" (legal moves: {shown})" if legal else " (no move at all is left)")


def _pile_words(eng: Engine, i: int) -> str:
    return {eng.groups.waste: "the waste", eng.groups.stock: "the stock"}.get(i, eng.names[i])


def _covered(pos: Position, specs: Sequence[CardSpec], at: dict[int, tuple[int, int]]) -> str:
    """Where a card the player typed lies under others and that is why the move is refused:
    said of that card (K♦ under 3 cards of the waste), not of the top card; "" otherwise."""
    eng = pos.engine
    groups = eng.groups
    v = eng.variant
    if v.accordion:  # whole piles move there: a covered card names its pile
        return ""
    first = specs[0]
    if first[0] == "card":
        i, k = at[first[1]]
        p = pos.piles[i]
        under = len(p) - 1 - k
        run_reserve = i in groups.reserve_set and eng.reserve.move == "run"
        if under and i not in groups.foundation_set and not run_reserve:
            units = {*eng.units(pos, i), *eng.space_units(pos, i)} \
                if i in groups.tableau_set else ()
            n = f"{under} card{'s' if under != 1 else ''}"
            lies = f"{_c(first[1])} is in {_pile_words(eng, i)} under {n}"
            if i in groups.tableau_set and under + 1 in units:
                pass  # it may move with them: the target says why not
            elif i in groups.tableau_set and eng.unit != "single":
                return f"{lies}, which cannot move with it as one unit: in {v.name} " \
                       f"{eng.tab.move_phrase()}"
            else:
                return f"{lies}; only the top card ({_c(p[-1])}) can be played from there"
    if len(specs) == 2 and specs[1][0] == "card":
        j, h = at[specs[1][1]]
        q = pos.piles[j]
        src = eng.names[at[first[1]][0]] if first[0] == "card" else first[1]
        if h < len(q) - 1 and eng.names[j] != src:
            over = q[h + 1:]
            return f"{_c(specs[1][1])} is not the top card of {_pile_words(eng, j)}: " \
                   + " ".join(_c(c) for c in over) + (" lie" if len(over) > 1 else " lies") \
                   + " on it"
    return ""

"""Why a move is refused, in words a player understands, and when a game is won.

The engine decides legality; this module only puts a refused move into words, using the same
pieces (so the sentence comes from the rule's own parameters). It is off the hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import CARDS, KING, RANK_OF, RANK_TEXT, UNKNOWN, code_text
from .moves import Move

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from . import pieces as P
    from .engine import Engine
    from .position import Position

    # A token of card notation: ("pile", name) or ("card", code) (see Position.parse_move).
    CardSpec = tuple[str, Any]


def _c(code: int) -> str:
    return code_text(code)


def explain(pos: Position, move: Move) -> str:
    eng = pos.engine
    groups = eng.groups
    v = eng.variant
    name = v.name
    piles = pos.piles
    if move.src == "s" and move.dst is None:
        return _explain_stock(pos)
    a = eng.index.get(move.src, -1)
    src = move.src
    if a in groups.foundation_set and eng.f_transfer and piles[a] and not eng.f_returns:
        return _explain_transfer(pos, a, eng.index.get(move.dst or "", -1))
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
    if v.pairs:
        return _explain_pair(pos, move)
    if v.accordion:
        return _explain_fold(pos, move)
    if v.gaps:
        return _explain_gap(pos, move)
    b = eng.index.get(move.dst or "", -1)
    why = _constraint(pos, a, b, to_foundation=move.dst == "f" or b in groups.foundation_set)
    if why:
        return why
    n = move.count or 1
    if a in groups.tableau_set:
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
                   f"in {name} {eng.tab.move_phrase()}"
    elif n > 1 and a in groups.reserve_set and eng.reserve.move == "run":
        k = 1
        while k < len(p) and eng.tbuild[p[-k - 1]][p[-k]]:
            k += 1
        if n > k:
            return f"the top {n} cards of {src} are not a run in sequence"
    elif n > 1:
        return f"only one card at a time leaves {src}"
    card = p[-n]
    dst = move.dst or ""
    b = eng.index.get(dst, -1)
    if dst == "f" or b in groups.foundation_set:
        return _explain_foundation(pos, card, b, src, n)
    if b < 0:
        return f"there is no pile {dst!r} in {name}"
    if b == a:
        return f"{src} cannot move onto itself"
    q = piles[b]
    if b in groups.tableau_set:
        tab = eng.tab
        if not q:
            if tab.space == "kings" and RANK_OF[card] != KING:
                return f"{_c(card)} cannot fill the space in {dst}: in {name} {tab.space_phrase()}"
            if tab.space == "none" and tab.refill and groups.stock >= 0 and not piles[groups.stock]:
                return f"{dst} is empty and stays empty: in {name} an emptied pile is refilled " \
                       f"only from the stock, and the stock is used up"
            if tab.space == "none":
                return f"{dst} is empty and in {name} {tab.space_phrase()}"
            if n == len(p) and a in groups.tableau_set:
                return f"moving all of {src} into the empty {dst} changes nothing"
            return f"{_c(card)} cannot fill the space in {dst}: in {name} {tab.space_phrase()}"
        t = q[-1]
        if t == UNKNOWN:
            return f"the top card of {dst} has not been named yet"
        if tab.build.direction == "none":
            return f"{name} has no building on the tableau"
        if eng.tmax and len(q) + n > eng.tmax:
            return f"a pile holds at most {eng.tmax} cards in {name}"
        why = f"{_c(card)} cannot go on {_c(t)}: {name} {tab.build.phrase()}"
        if not tab.build.wrap and {RANK_OF[card], RANK_OF[t]} == {1, KING}:
            why += " (a king and an ace are not neighbours)"
        return why
    if b == groups.waste and v.waste and v.waste.build:
        if not q:
            return "the waste is empty"
        t = q[-1]
        wb = v.waste.build
        if wb.closed and RANK_TEXT[RANK_OF[t]] in wb.closed:
            return f"nothing goes on a {RANK_TEXT[RANK_OF[t]]} in {name} (kings_block is on)"
        return f"{_c(card)} cannot go on {_c(t)}: in {name} the waste takes a card one rank " \
               f"up or down, suits ignored, no turning the corner between K and A"
    if b in groups.reserve_set:
        return _explain_reserve(pos, a, b, n)
    if b == groups.waste or b == groups.stock:
        return f"cards cannot be put on the {'waste' if b == groups.waste else 'stock'}"
    return f"{move} is not a legal move here"


def _constraint(pos: Position, a: int, b: int, to_foundation: bool) -> str:
    """Rules that bar every move but a few: Octave's turned card in the last pass, Gate's
    spaces filled first, aces up first (``force_aces``). Empty when none applies to the move
    from pile ``a`` to pile ``b``."""
    eng = pos.engine
    groups = eng.groups
    piles = pos.piles
    name = eng.variant.name
    if eng.strict_last and pos.pass_no >= eng.passes and piles[groups.waste] and a != groups.waste:
        return f"in {name}'s last pass the turned card ({_c(piles[groups.waste][-1])}) must be " \
               f"played at once, to a foundation, the tableau or an empty reserve place, " \
               f"before any other move (if it fits nowhere, the game is lost)"
    if eng.fill_first:
        spaces = [eng.names[i] for i in groups.tableau if not piles[i]]
        if spaces and not (b in groups.tableau_set and not piles[b]):
            posts = [eng.names[r] for r in groups.reserve if piles[r]]
            if posts:
                where = "from a reserve pile (" + " or ".join(posts) + ")"
            elif groups.waste >= 0 and piles[groups.waste]:
                where = "from the waste (w)"
            elif groups.stock >= 0 and piles[groups.stock]:
                where = "from the stock: type s, then play the card from w"
            else:
                where = ""
            if where:
                return f"{name}: fill the space in {spaces[0]} first, {where}; a space is " \
                       f"filled before any other move"
    if eng.force_aces and not to_foundation and a not in groups.foundation_set:
        up = groups.foundation_set
        aces = [m for m in pos.raw_moves() if m[3] in up and m[1] not in up
                and RANK_OF[piles[m[1]][-1]] == 1]
        if aces:
            return f"an ace that can go up must go up first in {name} (force_aces is on): " \
                   f"{eng.text(aces[0])}"
    return ""


def _span(eng: Engine, group: Iterable[int]) -> str:
    names = [eng.names[i] for i in group]
    return names[0] if len(names) == 1 else f"{names[0]}-{names[-1]}"


def _explain_reserve(pos: Position, a: int, b: int, n: int) -> str:
    """A card or unit refused by a reserve pile (Gate's posts, Tournament's kibitzers, Miss
    Milligan's weaving cell, Octave's reserve)."""
    eng = pos.engine
    groups = eng.groups
    v = eng.variant
    name = v.name
    res = eng.reserve
    dst = eng.names[b]
    if res.accepts == "none":
        return f"nothing is put on the reserve piles ({_span(eng, groups.reserve)}) in " \
               f"{name}: their cards only leave them"
    if pos.piles[b]:
        held = "one card or run" if res.accepts == "unit" else "one card"
        return f"{dst} is not empty: a reserve place holds {held} at a time in {name}"
    if res.when == "stock-empty" and pos.piles[groups.stock]:
        left = len(pos.piles[groups.stock])
        return f"in {name} {dst} takes a card only after the whole pack is dealt " \
               f"(the stock still has {left} card{'s' if left != 1 else ''})"
    if res.when == "last-pass" and pos.pass_no < eng.passes:
        return f"in {name} an empty reserve place takes a card only in the last pass through " \
               f"the stock"
    kind = "t" if a in groups.tableau_set else "w" if a == groups.waste else ""
    if kind not in res.sources:
        allowed = " or ".join({"t": "a top card of the tableau",
                               "w": "the card turned from the stock (w)"}[s]
                              for s in res.sources)
        return f"in {name} an empty reserve place takes only {allowed}"
    if n > 1 and res.accepts != "unit":
        single = dict(v.options).get("weave_single_card")
        return f"only one card at a time goes to {dst} in {name}" + (
            " (weave_single_card is on)" if single else "")
    return f"{eng.names[a]} {dst} is not a legal move here"


def _explain_transfer(pos: Position, a: int, b: int) -> str:
    """Tournament: foundation cards move only between the two foundations of one suit."""
    eng = pos.engine
    name = eng.variant.name
    rule = f"in {name} a foundation's top card moves only onto the other foundation of its " \
           f"suit (ace-pile to king-pile or back), when their top cards are in sequence"
    card = pos.piles[a][-1]
    if b not in eng.groups.foundation_set:
        return f"{_c(card)} stays on the foundations: {rule}"
    q = pos.piles[b]
    if not q:
        return f"{_c(card)} cannot start {eng.names[b]}: {rule}"
    return f"{_c(card)} cannot go on {_c(q[-1])}: {rule}"


def _explain_stock(pos: Position) -> str:
    eng = pos.engine
    groups = eng.groups
    v = eng.variant
    name = v.name
    if v.gaps:
        if pos.pass_no > v.gaps.redeals:
            return f"no redeals left: {name} allows {v.gaps.redeals}"
        return f"{name} redeals only when no gap can be filled; a gap can still be filled"
    if groups.stock < 0:
        return f"{name} has no stock"
    st = eng.stock
    s = pos.piles[groups.stock]
    why = _constraint(pos, groups.stock, -1, to_foundation=False)
    if why:
        return why
    if st.redeal in ("shuffle", "gather") and eng.passes and pos.pass_no >= eng.passes \
            and (st.redeal == "shuffle" or not s):
        redeals = eng.passes - 1
        return ("the stock is empty and " if not s else "") + \
            f"no redeal is left: {name} allows {redeals} redeal{'s' if redeals != 1 else ''}"
    if s:
        if st.no_empty_tableau and any(not pos.piles[i] for i in groups.tableau):
            return f"{name} deals only when no pile is empty: fill every space first"
        if st.deal == "line":
            return "the line is full"
        return f"the stock cannot be dealt now in {name}"
    if st.deal != "waste" or not pos.piles[groups.waste]:
        return "the stock is empty"
    if pos.is_blocked():
        return "the last pass through the stock changed nothing and no other move is left: " \
               "the game is lost"
    if pos.pass_was_idle():
        return "the last pass through the stock changed nothing: make another move before " \
               "turning the waste over again"
    passes = eng.passes
    return f"the stock is empty and {name} allows {passes} pass{'es' if passes != 1 else ''} " \
           f"through it" + (" (no redeal)" if passes == 1 else "")


def _explain_foundation(pos: Position, card: int, b: int, src: str, n: int) -> str:
    eng = pos.engine
    foundations = eng.groups.foundations
    v = eng.variant
    name = v.name
    if not foundations:
        return f"{name} has no foundations"
    if eng.complete_runs:
        return f"only a complete suit from K down to A, all face up on top of {src}, can be " \
               f"lifted off in {name}"
    if n > 1:
        return "only one card at a time goes to a foundation"
    c = CARDS[card]
    pieces = list(dict.fromkeys(eng.f_piece[f] for f in foundations))
    if not any(_reaches(g, c.rank) for g in pieces):
        g = pieces[0]
        last = g.base_rank + g.max_cards - 1 if g.build.direction == "up" else \
            g.base_rank - g.max_cards + 1
        return f"{_c(card)} never goes to a foundation in {name}: the foundations are built " \
               f"from {RANK_TEXT[g.base_rank]} to {RANK_TEXT[last]} only"
    if b >= 0:
        return _explain_one_foundation(pos, card, b)
    if len(pieces) == 1:
        group = pieces[0]
        if c.rank == group.base_rank:
            return f"no foundation here can take {_c(card)}"
        need = c.rank - 1 if group.build.direction == "up" else c.rank + 1
        if group.build.suits == "same-suit" and 1 <= need <= 13:
            wanted = f"the {RANK_TEXT[need]}{'♠♥♦♣'[c.suit]}"
            return f"{_c(card)} cannot go to a foundation yet: {wanted} is not on one " \
                   f"({group.phrase()})"
        return f"{_c(card)} cannot go to a foundation yet: {group.phrase()}"
    # Ace-piles and king-piles, one of each per suit (Tournament, House on the Hill): say where
    # this suit's piles stand.
    states = []
    for f in foundations:
        if len(eng.f_base[f]) == 1 and CARDS[eng.f_base[f][0]].suit == c.suit:
            q = pos.piles[f]
            state = "is empty" if not q else "is complete" if len(q) >= eng.f_max[f] else \
                f"shows {_c(q[-1])}"
            states.append(f"{eng.names[f]} (the {_pile_kind(eng, f)}) {state}")
    if states:
        return f"{_c(card)} cannot go to a foundation now: " + " and ".join(states)
    phrases = "; ".join(f"{_span(eng, [f for f in foundations if eng.f_piece[f] == g])} "
                        f"{g.phrase().removeprefix('each ')}" for g in pieces)
    return f"{_c(card)} cannot go to a foundation yet ({phrases})"


def _pile_kind(eng: Engine, f: int) -> str:
    """``♥ ace-pile``: the suit and base of a one-suit foundation."""
    group = eng.f_piece[f]
    kind = "ace" if group.base == "A" else "king" if group.base == "K" else group.base
    return f"{'♠♥♦♣'[CARDS[eng.f_base[f][0]].suit]} {kind}-pile"


def _reaches(group: P.Foundations, rank: int) -> bool:
    """Whether a foundation of ``group`` can ever hold a card of ``rank`` (Octave: A to 10)."""
    d = group.build.direction
    base = group.base_rank
    if d == "up" and not group.build.wrap:
        return base <= rank <= base + group.max_cards - 1
    if d == "down" and not group.build.wrap:
        return base - group.max_cards + 1 <= rank <= base
    return True


def _explain_one_foundation(pos: Position, card: int, b: int) -> str:
    """Why the named foundation ``b`` does not take ``card``."""
    eng = pos.engine
    name = eng.variant.name
    group = eng.f_piece[b]
    fname = eng.names[b]
    rule = f"{name}: each foundation {group.phrase().removeprefix('each ')}"
    q = pos.piles[b]
    base = eng.f_base[b]
    if len(base) == 1 and CARDS[base[0]].suit != CARDS[card].suit:
        return f"{fname} is the {_pile_kind(eng, b)} in {name} (one per suit): " \
               f"{_c(card)} does not go there"
    if not q:
        return f"{fname} is empty and starts only with {' or '.join(map(_c, base))} ({rule})"
    if len(q) >= eng.f_max[b]:
        return f"{fname} is complete: it holds {eng.f_max[b]} cards in {name}"
    return f"{_c(card)} cannot go on {_c(q[-1])} in {fname} ({rule})"


def _explain_pair(pos: Position, move: Move) -> str:
    eng = pos.engine
    v = eng.variant
    avail = dict(eng.available(pos))
    a = eng.index[move.src]
    if a not in avail:
        return _not_available(pos, move.src)
    if move.dst is None or move.dst == "f":
        card = avail[a]
        return f"{_c(card)} cannot be removed on its own in {v.name}: {eng.pairs.phrase()}"
    b = eng.index.get(move.dst, -1)
    if b < 0:
        return f"there is no pile {move.dst!r} in {v.name}"
    if b == a:
        return f"a card cannot be paired with itself: name two different cards " \
               f"({eng.pairs.phrase()})"
    if b not in avail:
        return _not_available(pos, move.dst)
    x, y = avail[a], avail[b]
    if eng.pairs.match == "sum":
        total = RANK_OF[x] + RANK_OF[y]
        return f"{_c(x)} and {_c(y)} add up to {total}, not {eng.pairs.total}"
    return f"{_c(x)} and {_c(y)} are not the same rank"


def _not_available(pos: Position, name: str) -> str:
    """Why the card at pile ``name`` cannot be paired: an empty stock or waste, a place
    already cleared, or cards still lying on it."""
    eng = pos.engine
    groups = eng.groups
    i = eng.index[name]
    if not pos.piles[i]:
        if i == groups.waste:
            return "the waste is empty" + (": type s to turn a card from the stock"
                                           if groups.stock >= 0 and pos.piles[groups.stock] else "")
        if i == groups.stock:
            return "the stock is empty"
        return f"{name} is empty: its card is already removed"
    if i == groups.stock and pos.down[i] >= len(pos.piles[i]):
        return "the stock's card is face down: type s to turn it onto the waste"
    if pos.piles[i][-1] == UNKNOWN:
        return f"the top card of {name} has not been named yet: type {name}=CARD first"
    return f"the card at {name} is not available yet" + (
        ": the cards below it must go first" if groups.pyramid else "")


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


def _explain_fold(pos: Position, move: Move) -> str:
    eng = pos.engine
    groups = eng.groups
    P = list(groups.pyramid)
    a = eng.index[move.src]
    b = eng.index.get(move.dst or "", -1)
    if b not in groups.pyramid:
        return "a pile goes onto another pile of the line (p1, p2 ...)"
    d = P.index(a) - P.index(b)
    if d not in eng.accordion.reach:
        k = P.index(a) + 1
        to = [f"p{k - r}" for r in eng.accordion.reach if k - r >= 1]
        return "a pile goes onto the pile next to it on the left or third to its left " + \
            (f"(p{k} may go to " + " or ".join(to) + ")" if to
             else f"(p{k} is the first pile: nothing lies to its left)")
    x, y = pos.piles[a][-1], pos.piles[b][-1] if pos.piles[b] else UNKNOWN
    if y == UNKNOWN:
        return f"{move.dst} is empty"
    return f"{_c(x)} cannot go on {_c(y)}: they share neither suit nor rank"


def _explain_gap(pos: Position, move: Move) -> str:
    eng = pos.engine
    groups = eng.groups
    b = eng.index.get(move.dst or "", -1)
    if b not in groups.grid:
        return "a card goes into a gap: name its cell, e.g. b7 b2"
    if pos.piles[b]:
        return f"{move.dst} is not a gap"
    k = groups.grid.index(b)
    cols = eng.gaps.columns
    card = pos.piles[eng.index[move.src]][0]
    if k % cols == 0:
        return f"a gap at the start of a row takes a 2; {_c(card)} is not a 2"
    left = pos.piles[groups.grid[k - 1]]
    if not left:
        return f"the gap {move.dst} is dead: the cell to its left is a gap too"
    if RANK_OF[left[0]] == KING:
        return f"the gap {move.dst} is dead: a king stands to its left"
    want = CARDS[left[0] + 1]
    return f"only {want} can fill {move.dst} (one above {_c(left[0])} in suit), " \
           f"not {_c(card)}"


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


def is_won(pos: Position) -> bool:
    """Whether ``pos`` is won, by its variant's win rule (:mod:`.wins`)."""
    return pos.engine.won(pos)

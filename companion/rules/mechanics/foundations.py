"""The foundations (the TOML's ``[[foundations]]``): cards up to a foundation that takes them,
Spider's complete suits lifted off, Tournament's transfers, cards back to the tableau.

Its words (refusals and the rules text) are in the functions below the mixin."""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING

from ...cards import CARDS, RANK_OF, RANK_TEXT, SUIT_OF, UNKNOWN
from ...cards import code_text as _c
from .base import MOVE, Mechanic, Piles, Raw, RawMove, Rules, makes, span, where
from .base import number_word as _n

if TYPE_CHECKING:
    from .. import pieces as P
    from ..engine import Engine
    from ..position import Position
    from ..variant import Variant

WORD = "foundations"
MECHANICS = (Mechanic.TO_FOUNDATIONS, Mechanic.DISCARD_SUITS, Mechanic.FOUNDATION_TRANSFERS,
             Mechanic.FROM_FOUNDATIONS)
# The most foundation maps an engine keeps (see :meth:`FoundationRules._foundation_map`).
F_MAPS_KEPT = 20_000


class FoundationRules(Rules):
    """The engine's foundation moves (a mixin of :class:`~..engine.Engine`)."""

    _f_maps: dict[tuple[object, ...], dict[int, int]]

    def _init_foundations(self, v: Variant) -> None:
        # Foundations: per pile, the codes accepted on an empty pile and on each top card.
        self.f_base = {}
        self.f_on = {}
        self.f_max = {}
        self.f_piece = {}
        self.complete_runs = False
        self.auto_discard = False
        self.f_returns = False
        self.f_transfer = False
        self.force_aces = False
        fi = iter(self.F)
        for group in v.foundations:
            table = group.build.table()
            base = group.base_rank
            on_empty = tuple(c for c in range(52) if RANK_OF[c] == base)
            on_top = [tuple(u for u in range(52) if table[t][u]) for t in range(53)]
            # Tournament, House on the Hill: one ace-pile and one king-pile per suit, so a
            # second A♥ never starts a second hearts ace-pile.
            per_suit = group.per_suit
            for k in range(group.count):
                f = next(fi)
                self.f_base[f] = tuple(c for c in on_empty if SUIT_OF[c] == k) \
                    if per_suit else on_empty
                self.f_on[f] = on_top
                self.f_max[f] = group.max_cards
                self.f_piece[f] = group
            self.complete_runs |= group.complete_runs
            self.auto_discard |= group.complete_runs and group.auto
            self.f_returns |= group.returns
            self.f_transfer |= group.transfer
            self.force_aces |= group.force_aces
        # (pile, on empty, on each top, most cards) of each foundation, for movegen
        self.f_rules = tuple((f, self.f_base[f], self.f_on[f], self.f_max[f]) for f in self.F)
        self._f_maps = {}  # see :meth:`_foundation_map`
        # The foundations' piles of a position's piles, as one key (see :meth:`_foundation_map`).
        self.f_state = itemgetter(*self.F) if self.F else lambda piles: ()

    def _aces_first(self, pos: Position, out: list[Raw]) -> list[Raw] | None:
        """``force_aces``: an ace that can go up goes up before any other move."""
        piles = pos.piles
        aces = [m for m in out if m[0] == MOVE and m[3] in self.Fset and m[1] not in self.Fset
                and RANK_OF[piles[m[1]][-1]] == 1]
        return aces or None

    def _foundation_map(self, piles: Piles) -> dict[int, int]:
        """Each code a foundation takes now -> the first such foundation. Kept for each state
        of the foundations met (they change far less often than the tableau): the dict
        returned is shared, read it only."""
        state = self.f_state(piles)
        acc = self._f_maps.get(state)
        if acc is not None:
            return acc
        acc = {}
        for f, base, on, most in self.f_rules:
            p = piles[f]
            if not p:
                codes = base
            elif len(p) >= most:
                continue
            else:
                codes = on[p[-1]]
            for c in codes:
                if c not in acc:
                    acc[c] = f
        if len(self._f_maps) >= F_MAPS_KEPT:
            self._f_maps.clear()
        self._f_maps[state] = acc
        return acc

    @makes(Mechanic.TO_FOUNDATIONS)
    def _gen_to_foundations(self, pos: Position, out: list[Raw]) -> None:
        piles = pos.piles
        acc = self._foundation_map(piles)
        if not acc:
            return
        for i in self.TR:
            p = piles[i]
            if p and p[-1] in acc:
                out.append((MOVE, i, 1, acc[p[-1]]))
        w = self.W
        if w >= 0 and piles[w] and piles[w][-1] in acc:
            out.append((MOVE, w, 1, acc[piles[w][-1]]))

    @makes(Mechanic.DISCARD_SUITS)
    def _gen_discards(self, pos: Position, out: list[Raw]) -> None:
        piles, down = pos.piles, pos.down
        free = next((f for f in self.F if not piles[f]), -1)
        if free < 0:
            return
        for i in self.T:
            p = piles[i]
            if len(p) - down[i] >= 13 and self._complete_run(p):
                out.append((MOVE, i, 13, free))

    @staticmethod
    def _complete_run(p: tuple[int, ...]) -> bool:
        top = p[-1]
        if top == UNKNOWN or RANK_OF[top] != 1:
            return False
        # codes of one suit run K..A: bottom code = top + 12, each next one less.
        return all(p[-1 - k] == top + k for k in range(13))

    def _auto_discard(self, pos: Position, i: int) -> None:
        p = pos.piles[i]
        if len(p) - pos.down[i] >= 13 and self._complete_run(p):
            free = next((f for f in self.F if not pos.piles[f]), -1)
            if free >= 0:
                self.apply(pos, RawMove(MOVE, i, 13, free))

    @makes(Mechanic.FOUNDATION_TRANSFERS)
    def _gen_transfers(self, pos: Position, out: list[Raw]) -> None:
        piles = pos.piles
        for f in self.F:
            p = piles[f]
            if not p:
                continue
            c = p[-1]
            for g in self.F:
                if g == f:
                    continue
                q = piles[g]
                if (c in self.f_base[g]) if not q else (
                        len(q) < self.f_max[g] and c in self.f_on[g][q[-1]]):
                    out.append((MOVE, f, 1, g))

    @makes(Mechanic.FROM_FOUNDATIONS)
    def _gen_from_foundations(self, pos: Position, out: list[Raw]) -> None:
        for f in self.F:
            p = pos.piles[f]
            if p:
                self._to_tableau(pos, f, p[-1], out)


# ---------------------------------------------------------------- words
def explain_foundation(pos: Position, card: int, b: int, src: str, n: int) -> str:
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
    phrases = "; ".join(f"{span(eng, [f for f in foundations if eng.f_piece[f] == g])} "
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


def explain_transfer(pos: Position, a: int, b: int) -> str:
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


def rules_text(v: Variant) -> list[str]:
    """The rules text's sentences on the foundations (a pairs game's discard pile)."""
    lines = []
    eng = v.engine()
    groups = eng.groups
    for f in v.foundations:
        if v.pairs:
            discard = eng.names[groups.foundations[0]]
            lines.append(f"Removed cards go to the discard pile {discard}.")
            continue
        first = groups.foundations[sum(g.count for g in v.foundations[:v.foundations.index(f)])]
        piles = where(eng.names, list(range(first, first + f.count)))
        text = f"Foundations ({_n(f.count)}, {piles}): {f.phrase()}"
        if f.max_cards < 13:
            text += f", up to the {RANK_TEXT[f.max_cards]}"
        if f.transfer:
            text += "; when the two foundations of a suit meet, cards may pass from one to " \
                    "the other, one at a time"
        if not f.complete_runs:
            text += "; " + ("the top card may come back to the tableau" if f.returns
                            else "cards never come back to the tableau")
        elif f.auto:
            text += " as soon as it is complete"
        else:
            text += " when the player chooses (type the pile then f)"
        lines.append(text + ".")
    return lines


def explain_aces_first(pos: Position, a: int, to_foundation: bool) -> str:
    """``force_aces``, where the move from pile ``a`` sends no ace up ("" when the rule does
    not bar it)."""
    eng = pos.engine
    up = eng.groups.foundation_set
    if eng.force_aces and not to_foundation and a not in up:
        piles = pos.piles
        aces = [m for m in pos.raw_moves() if m[3] in up and m[1] not in up
                and RANK_OF[piles[m[1]][-1]] == 1]
        if aces:
            return f"an ace that can go up must go up first in {eng.variant.name} " \
                   f"(force_aces is on): {eng.text(aces[0])}"
    return ""

"""Where each fast search may run (the :class:`Exhaustible` part of
:class:`~.knowledge.Knowledge`): the tests on a variant's engine and a root position that let
the whole search run as :func:`~.fast_open._exhaust` (an open tableau),
:func:`~.fast_talon._exhaust_talon` (Klondike's talon), :func:`~.fast_golf._exhaust_sink`
(Golf's waste), :func:`~.fast_accordion._exhaust_line` (Accordion's line),
:func:`~.fast_pyramid._exhaust_pairs` or :func:`~.fast_pyramid._exhaust_pyramid` (Pyramid);
with the size of Golf's table of positions met, which its test checks."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ..rules.engine import Engine, Mechanic, Table
from ..rules.pieces import Stock
from ..rules.position import Position
from ..rules.wins import ALL_TO_FOUNDATIONS, ONE_PILE, PYRAMID_EMPTY, win_rule
from .codes import has_unknown_cards
from .derived import Derived


class Exhaustible(Derived):
    """Whether a fast whole search may run from a root, from what
    :class:`~.knowledge.Knowledge` derives and the engine's mechanics."""

    def exhaustible(self, root: Position) -> bool:
        """Whether a whole search from ``root`` may run as :func:`_exhaust`: the tableau
        alone names the position (:meth:`key_for`), and the engine's legal moves are exactly
        a top card of a tableau pile onto another (one card at a time, as its build table
        says, any number of cards high), into a space (as its space table says; a lone card
        never), or up to a foundation that takes it; the game is won when every card is up."""
        eng = root.engine
        return (self._tableau_keyed(root) and eng.plain_move and eng.gens_only
                and eng.mechanics == {Mechanic.TO_FOUNDATIONS, Mechanic.TABLEAU}
                and eng.unit == "single" and not eng.space_unit
                and not eng.groups.reserve and eng.groups.waste < 0
                and not eng.tmax and eng.space_card is not None
                and not eng.may_block and not self.lone and not self.deal_first
                and win_rule(self.variant) is ALL_TO_FOUNDATIONS and self.decks == 1
                and len(eng.names) == len(self.T) + len(self.F))

    def talon_exhaustible(self, root: Position) -> bool:
        """Whether a whole search from ``root`` may run as :func:`_exhaust_talon`: a
        Klondike-like game whose engine moves are exactly a top card up to a foundation that
        takes it, a run of face-up cards (any part of it, from the top) onto a pile that
        takes its lowest card or into a space as the space table says, the waste's top card
        up or onto the tableau, and (if the rules allow) a foundation's top card back onto
        the tableau; a stock dealt to the waste a few cards at a time, the waste turned over
        as the new stock, passes unlimited (``talon_draw``); one deck, foundations building
        up in suit, won when they hold every card. ``root``: not idle, its stock face down
        and its waste face up."""
        eng = root.engine
        v = self.variant
        st: Stock = v.stock  # type: ignore[assignment]  # (read only where there is one)
        allowed = {Mechanic.TO_FOUNDATIONS, Mechanic.TABLEAU, Mechanic.WASTE_TO_TABLEAU}
        if eng.f_returns:
            allowed.add(Mechanic.FROM_FOUNDATIONS)
        S, W = self.S, self.W
        return (bool(self.talon_draw) and self.dig and self.decks == 1
                and eng.mechanics == allowed
                and eng.unit == "run" and not eng.space_unit and eng.space_card is not None
                and not eng.tmax and eng.plain_move and not eng.groups.reserve
                and not eng.refill_aces
                and not (eng.fill_first or eng.strict_last or eng.force_aces)
                and st.deal == "waste" and st.redeal == "waste"
                and not st.no_empty_tableau and st.draw == self.talon_draw
                and win_rule(v) is ALL_TO_FOUNDATIONS and not self.lone and not self.deal_first
                and len(eng.names) == len(self.T) + len(self.F) + 2
                and not root.idle and root.down[S] == len(root.piles[S]) and not root.down[W])

    def sink_exhaustible(self, root: Position, max_bytes: float | None = None) -> bool:
        """Whether a whole search from ``root`` may run as :func:`_exhaust_sink`: a Golf-like
        game (``static``: a waste nothing leaves, fed by a stock turned one card at a time in
        a single pass; won when the tableau is cleared) whose engine moves are exactly a
        tableau pile's top card onto the waste where the waste's build table takes it, and
        the stock's turn; every tableau card face up, a card on the waste, and the search's
        table of positions met (one bit each, :func:`_sink_size`) within ``max_bytes``."""
        eng = root.engine
        v = self.variant
        st: Stock = v.stock  # type: ignore[assignment]  # (read only where there is one)
        S, W = self.S, self.W
        if not (self.static and self.before is not None and eng.plain_move
                and eng.mechanics == {Mechanic.ONTO_WASTE}
                and not (eng.fill_first or eng.strict_last or eng.force_aces)
                and len(eng.names) == len(self.T) + 2
                and st.draw == 1 and st.per_pile == 1 and st.passes == 1
                and not st.turn_up and not st.no_empty_tableau
                and root.pass_no >= 1 and not root.idle
                and root.piles[W] and not root.down[W]
                and not any(root.down[i] for i in self.T)):
            return False
        bits = _sink_size([len(root.piles[i]) for i in self.T], len(root.piles[S]),
                          len(_sink_classes(eng)[1]))
        return bits <= SINK_MAX_BITS and (max_bytes is None or bits / 8 <= max_bytes)

    def line_exhaustible(self, root: Position) -> bool:
        """Whether a whole search from ``root`` may run as :func:`_exhaust_line`: an
        Accordion-like game won at one pile, whose engine moves are exactly a pile of the line
        onto one a reach to its left (as its fold table says) and, where cards are dealt
        one at a time onto the line's end in a single pass, the deal (``deal_first``); no
        card unknown, and the whole deck there."""
        eng = root.engine
        v = self.variant
        return (v.accordion is not None and win_rule(v) is ONE_PILE and eng.fold_table is not None
                and eng.mechanics == {Mechanic.FOLDS}
                and not (eng.fill_first or eng.strict_last or eng.force_aces)
                and len(eng.names) == len(eng.groups.pyramid) + (self.S >= 0)
                and (self.deal_first or self.S < 0 or not root.piles[self.S])
                and not has_unknown_cards(root)
                and sum(len(p) for p in root.piles) == eng.deck_size)  # (won: all in one)

    def pairs_exhaustible(self, root: Position) -> bool:
        """Whether a whole search from ``root`` may run as :func:`_exhaust_pairs`: a
        Pyramid-like game won when the pyramid is cleared, whose engine moves are exactly the
        removals of free cards (a pair its match table takes, or one card alone) and the
        stock's turn, the stock turned up one card at a time onto a waste and turned over
        without end (the pointer then reaches every card); no card unknown, and not idle (a
        pass under way with nothing removed since the last turn-over)."""
        eng = root.engine
        groups = eng.groups
        v = self.variant
        st: Stock = v.stock  # type: ignore[assignment]  # (read only where there is one)
        return (bool(v.pairs) and bool(v.pyramid) and win_rule(v) is PYRAMID_EMPTY
                and eng.mechanics == {Mechanic.PAIRS}
                and not groups.tableau and not groups.reserve and len(groups.foundations) == 1
                and len(eng.names) == len(groups.pyramid) + 3 and self.S >= 0 and self.W >= 0
                and st.deal == "waste" and st.draw == 1 and st.turn_up and st.passes == 0
                and st.redeal == "waste" and st.reserve_on_redeal == 0
                and not (eng.fill_first or eng.strict_last or eng.force_aces)
                and not root.idle and not has_unknown_cards(root))

    def pyramid_talon_exhaustible(self, root: Position) -> bool:
        """Whether a whole search from ``root`` may run as :func:`_exhaust_pyramid`: the
        Pyramid of :meth:`pairs_exhaustible` with its passes through the stock limited (the
        talon's order matters there), won when the pyramid is cleared or when every card is
        removed, or with its passes unlimited and won when every card is removed (not idle
        then, as there); no card unknown."""
        eng = root.engine
        groups = eng.groups
        v = self.variant
        st: Stock = v.stock  # type: ignore[assignment]  # (read only where there is one)
        return (bool(v.pairs) and bool(v.pyramid) and win_rule(v) in (PYRAMID_EMPTY, ALL_TO_FOUNDATIONS)
                and eng.mechanics == {Mechanic.PAIRS}
                and not groups.tableau and not groups.reserve and len(groups.foundations) == 1
                and len(eng.names) == len(groups.pyramid) + 3 and self.S >= 0 and self.W >= 0
                and st.deal == "waste" and st.draw == 1 and st.turn_up
                and (st.passes > 0 or (win_rule(v) is ALL_TO_FOUNDATIONS and not root.idle))
                and st.redeal == "waste" and st.reserve_on_redeal == 0
                and not (eng.fill_first or eng.strict_last or eng.force_aces)
                and all(len(root.piles[i]) <= 1 for i in groups.pyramid)
                and not root.down[self.W] and not has_unknown_cards(root))


# The largest table of positions met that :func:`_exhaust_sink` keeps (one bit a position: 32
# MB). A Golf deal needs 6^7 x 17 x 13 bits, 7.7 MB.
SINK_MAX_BITS = 1 << 28


@cache
def _sink_classes(eng: Engine) -> tuple[tuple[int, ...], tuple[tuple[bool, ...], ...]]:
    """The cards of a Golf-like game's deck grouped as the waste's build table sees them:
    ``cls[c]``, the class of card c, and ``ok[a][b]``, whether a card of class b may go on
    one of class a. Cards of a class take the same cards and go on the same cards (Golf's
    rule ignores suits: a class a rank), so the search names the waste by its top card's
    class."""
    table: Table = eng.wbuild  # type: ignore[assignment]  # (a waste that takes cards)
    codes = range(52)
    sig = {c: (tuple(table[c][d] for d in codes), tuple(table[d][c] for d in codes))
           for c in codes}
    first: dict[tuple[tuple[bool, ...], tuple[bool, ...]], int] = {}
    cls = tuple(first.setdefault(sig[c], len(first)) for c in codes)
    rep = {k: c for c, k in reversed(list(enumerate(cls)))}
    ok = tuple(tuple(bool(table[rep[a]][rep[b]]) for b in range(len(first)))
               for a in range(len(first)))
    return cls, ok


def _sink_size(heights: Sequence[int], stock: int, classes: int) -> int:
    """Positions :func:`_exhaust_sink` numbers from a root whose tableau piles have
    ``heights``: each pile's height, the stock's height and the waste's top class."""
    return (max(heights) + 1) ** len(heights) * (stock + 1) * classes  # type: ignore[no-any-return]

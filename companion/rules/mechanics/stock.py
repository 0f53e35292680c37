"""The stock (the TOML's ``[stock]``): when it may be dealt, and what a deal does: to the
waste, to the tableau, to Accordion's line, Tournament's gathered piles, Intelligence's
shuffled redeal, Octave's reserve at the redeal.

Its words (refusals and the rules text) are in the functions below the mixin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import RANK_OF, UNKNOWN
from ...cards import code_text as _c
from ..shuffle import shuffled
from .base import MOVE, Raw, Rules
from .base import number_word as _n

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..pieces import Stock
    from ..position import Position
    from ..variant import Variant

WORD = "stock"
MECHANICS = ()  # the stock action (STOCK) is no generator's: the engine adds it last


class StockRules(Rules):
    """The engine's stock action (a mixin of :class:`~..engine.Engine`)."""

    def _init_stock(self, v: Variant) -> None:
        self.stock = v.stock  # type: ignore[assignment]  # see Rules
        self.passes = v.stock.passes if v.stock else 1
        # Whether a position can be blocked (see ``Position.is_blocked``): unlimited passes
        # through a stock, where a pass that changes nothing is not turned over again.
        self.may_block = self.passes == 0 and self.S >= 0
        self.strict_last = bool(v.stock) and self.stock.strict_last_pass
        self.refill_aces = any(step.aces_up for step in v.deal)

    def _last_pass_narrows(self, pos: Position, out: list[Raw]) -> list[Raw] | None:
        """Octave's last pass: the turned card must be played before anything else."""
        if pos.pass_no >= self.passes and pos.piles[self.W]:
            return [m for m in out if m[0] == MOVE and m[1] == self.W]
        return None

    def can_stock(self, pos: Position) -> bool:
        st = self.stock
        piles = pos.piles
        s = piles[self.S]
        more = self.passes == 0 or pos.pass_no < self.passes
        if st.redeal == "shuffle":  # Intelligence: the stock is only used by redeals
            return more
        if s:
            if st.deal == "none":
                return False
            if st.no_empty_tableau and any(not piles[i] for i in self.T):
                return False
            if st.deal == "line":
                return self.line_length(piles) < len(self.P)
            # Octave's last pass: the turned card must be played before the next is turned.
            return not (self.strict_last and pos.pass_no >= self.passes and piles[self.W])
        if not more:
            return False
        if self.may_block and pos.idle:
            # Unlimited passes: a whole pass that changed nothing is not turned over again
            # until another move is made (RULES.md 0.4; lost when none is left).
            return False
        if st.redeal == "waste":
            return st.deal == "waste" and bool(piles[self.W])
        if st.redeal == "gather":
            return any(piles[i] for i in self.T)
        return False

    def _stock(self, pos: Position) -> None:
        st, piles, down = self.stock, pos.piles, pos.down
        S, W = self.S, self.W
        s = piles[S]
        if st.redeal == "shuffle":
            self._shuffle_redeal(pos)
            return
        if s and st.deal == "waste":
            if st.turn_up:
                if down[S] < len(s):  # the turned card goes to the waste
                    piles[W] = piles[W] + s[-1:]
                    s = s[:-1]
                    piles[S] = s
                    down[S] = len(s) - 1 if s else 0
                else:
                    down[S] = len(s) - 1
                return
            n = min(st.draw, len(s))
            piles[W] = piles[W] + s[:-n - 1:-1]
            piles[S] = s[:-n]
            down[S] = len(s) - n
            return
        if s and st.deal == "tableau":
            self._deal_to_tableau(pos)
            return
        if s and st.deal == "line":
            m = self.line_length(piles)
            piles[self.P[m]] = s[-1:]
            piles[S] = s[:-1]
            down[S] = len(s) - 1
            return
        # The stock is empty: a new pass.
        pos.pass_no += 1
        pos.idle = True
        if st.redeal == "gather":
            packet: tuple[int, ...] = ()
            for i in self.T:
                packet += piles[i]
                piles[i] = ()
                down[i] = 0
            piles[S] = packet[::-1]
            down[S] = len(packet)
            self._deal_to_tableau(pos)
            return
        piles[S] = piles[W][::-1]
        down[S] = len(piles[S])
        piles[W] = ()
        for r in self.R[:st.reserve_on_redeal]:
            if piles[S] and not piles[r]:
                piles[r] = piles[S][-1:]
                piles[S] = piles[S][:-1]
                down[S] = len(piles[S])

    def _deal_to_tableau(self, pos: Position) -> None:
        piles, S = pos.piles, self.S
        per = self.stock.per_pile
        for i in self.T:
            for _ in range(per):
                s = piles[S]
                if not s:
                    break
                piles[i] = piles[i] + s[-1:]
                piles[S] = s[:-1]
        pos.down[S] = len(piles[S])
        if self.auto_discard:
            for i in self.T:
                self._auto_discard(pos, i)

    def _shuffle_redeal(self, pos: Position) -> None:
        """Intelligence: gather the tableau and the stock, shuffle, deal the fans again."""
        piles, S = pos.piles, self.S
        gathered: list[int] = []
        for i in self.T:
            gathered.extend(piles[i])
            piles[i] = ()
            pos.down[i] = 0
        gathered.extend(piles[S][::-1])
        if pos.seed is None or UNKNOWN in gathered:
            cards = [UNKNOWN] * len(gathered)
        else:
            cards = shuffled(gathered, pos.seed, stream=pos.pass_no)
        piles[S] = tuple(cards[::-1])
        pos.down[S] = len(cards)
        size = max((st.size for st in self.variant.deal if st.step == "packets"), default=1)
        for i in self.T:
            for _ in range(size):
                card = self._draw(pos)
                if card is None:
                    break
                piles[i] = piles[i] + (card,)
        pos.pass_no += 1
        pos.idle = False

    def _draw(self, pos: Position) -> int | None:
        """The top stock card, face up; with ``aces_up`` an ace goes to a foundation and the
        next card is drawn instead."""
        piles, S = pos.piles, self.S
        while piles[S]:
            card = piles[S][-1]
            piles[S] = piles[S][:-1]
            pos.down[S] = len(piles[S])
            if self.refill_aces and card != UNKNOWN and RANK_OF[card] == 1:
                f = self._foundation_map(piles).get(card)
                if f is not None:
                    piles[f] = piles[f] + (card,)
                    continue
            return card
        return None


# ---------------------------------------------------------------- words
def rules_text(v: Variant, last_deal: Callable[[Variant], str]) -> list[str]:
    """The rules text's sentence on the stock; ``last_deal`` says where a last short deal
    to the tableau goes (see describe's ``_last_deal``)."""
    return [_sentence(v, last_deal)] if v.stock else []


def _sentence(v: Variant, last_deal: Callable[[Variant], str]) -> str:
    st: Stock = v.stock  # type: ignore[assignment]  # (only where there is one)
    if st.redeal == "shuffle":
        return f"Stock: never played from directly; it refills emptied piles. Redeal (type s, " \
               f"{_n(st.passes - 1)} times): gather the tableau and the stock, shuffle, and " \
               f"deal again as at the start."
    passes = ("unlimited passes: turn the waste over as the new stock when the stock is empty"
              if st.passes == 0 else "one pass, no redeal" if st.passes == 1
              else f"{_n(st.passes)} passes in all")
    if st.redeal == "gather":
        passes = f"{_n(st.passes)} passes in all: when the stock is empty, type s to put each " \
                 f"tableau pile on the one to its left, turn the packet over as the new stock " \
                 f"and deal again"
    if st.reserve_on_redeal:
        passes += f"; at the redeal {_n(st.reserve_on_redeal)} cards go face up to the reserve"
    if st.strict_last_pass:
        passes += "; in the last pass every card turned must be played at once, or the game " \
                  "is lost"
    if st.deal == "waste":
        if st.turn_up:
            return f"Stock (type s): turn up the top stock card in place; the next s moves it " \
                   f"to the waste and turns up the next; {passes}."
        n = "one card" if st.draw == 1 else f"{_n(st.draw)} cards"
        extra = "; only the top card of the waste is playable" if st.draw > 1 else \
            "; the top card of the waste is playable"
        return f"Stock (type s): turn {n} onto the waste{extra}; {passes}."
    if st.deal == "tableau":
        cond = ", only when no tableau pile is empty" if st.no_empty_tableau else \
            ", empty piles included"
        n = "one card" if st.per_pile == 1 else f"{_n(st.per_pile)} cards"
        more = f"; {passes}" if st.passes != 1 else ""
        return f"Stock (type s): deal {n} face up onto every tableau pile{cond}" \
               f"{last_deal(v)}{more}."
    if st.deal == "line":
        return "Stock (type s): deal the next card face up at the right end of the line; " \
               "play may stop for moves at any time."
    return "No stock."


def explain_stock(pos: Position) -> str:
    """Why the stock action is refused (the rules that narrow every move asked first)."""
    eng = pos.engine
    groups = eng.groups
    name = eng.variant.name
    st = eng.stock
    s = pos.piles[groups.stock]
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


def explain_last_pass(pos: Position, a: int) -> str:
    """Octave's last pass, where a move from pile ``a`` is not the turned card's ("" when
    the rule does not bar it)."""
    eng = pos.engine
    w, piles = eng.groups.waste, pos.piles
    if eng.strict_last and pos.pass_no >= eng.passes and piles[w] and a != w:
        return f"in {eng.variant.name}'s last pass the turned card ({_c(piles[w][-1])}) must " \
               f"be played at once, to a foundation, the tableau or an empty reserve place, " \
               f"before any other move (if it fits nowhere, the game is lost)"
    return ""

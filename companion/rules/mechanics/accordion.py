"""Accordion's line (the TOML's ``[accordion]``): a pile onto one a reach to its left when
their top cards share a suit or a rank; the whole pile moves and the line closes up.

Its words (refusals and the rules text) are in the functions below the mixin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import RANK_OF, SUIT_OF, UNKNOWN
from ...cards import code_text as _c
from .base import FOLD, Mechanic, Piles, Raw, Rules, makes
from .base import number_word as _n

if TYPE_CHECKING:
    from ..moves import Move
    from ..position import Position
    from ..variant import Variant

WORD = "accordion"
MECHANICS = (Mechanic.FOLDS,)


class AccordionRules(Rules):
    """The engine's folds (a mixin of :class:`~..engine.Engine`); a FOLD is applied in
    ``Engine.apply``, written out there for speed."""

    def _init_accordion(self, v: Variant) -> None:
        self.accordion = v.accordion  # type: ignore[assignment]  # see Rules
        # Accordion's fold rule: ``fold_table[t][c]``, whether a pile whose top card is c may
        # go onto one whose top card is t (suit or rank alike; an unknown card takes nothing).
        self.fold_table = tuple(  # type: ignore[assignment]
            tuple(t != UNKNOWN and c != UNKNOWN
                  and (SUIT_OF[t] == SUIT_OF[c] or RANK_OF[t] == RANK_OF[c]) for c in range(53))
            for t in range(53)) if v.accordion else None

    def line_length(self, piles: Piles) -> int:
        n = 0
        for i in self.P:
            if not piles[i]:
                break
            n += 1
        return n

    @makes(Mechanic.FOLDS)
    def _gen_folds(self, pos: Position, out: list[Raw]) -> None:
        piles, P = pos.piles, self.P
        m = self.line_length(piles)
        table = self.fold_table
        for k in range(1, m):
            c = piles[P[k]][-1]
            for d in self.accordion.reach:
                if k - d >= 0 and table[piles[P[k - d]][-1]][c]:
                    out.append((FOLD, P[k], 0, P[k - d]))


# ---------------------------------------------------------------- words
def explain_fold(pos: Position, move: Move) -> str:
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


def rules_text(v: Variant) -> list[str]:
    """The rules text's sentence on folds."""
    if not v.accordion:
        return []
    reach = " or ".join(("next to it" if r == 1 else f"{_n(r)} to its left")
                        for r in v.accordion.reach)
    return [f"A pile goes onto the pile {reach} (only leftwards) when their top cards "
            f"share a suit or a rank; the whole pile moves and the gap closes."]

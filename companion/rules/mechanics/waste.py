"""Building on the waste (the TOML's ``[waste] build``): Golf's tableau cards onto the waste.

Its words (refusals and the rules text) are in the functions below the mixin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import RANK_OF, RANK_TEXT
from ...cards import code_text as _c
from .base import MOVE, Mechanic, Raw, Rules, makes

if TYPE_CHECKING:
    from ..pieces import Build
    from ..position import Position
    from ..variant import Variant

WORD = "waste"
MECHANICS = (Mechanic.ONTO_WASTE,)


class WasteRules(Rules):
    """The engine's moves onto the waste (a mixin of :class:`~..engine.Engine`)."""

    def _init_waste(self, v: Variant) -> None:
        self.wbuild = v.waste.build.table() if v.waste and v.waste.build else None

    @makes(Mechanic.ONTO_WASTE)
    def _gen_onto_waste(self, pos: Position, out: list[Raw]) -> None:
        piles = pos.piles
        w = piles[self.W]
        if not w:
            return
        row = self.wbuild[w[-1]]  # type: ignore[index]  # a generator only where it is set
        for i in self.T:
            p = piles[i]
            if p and row[p[-1]]:
                out.append((MOVE, i, 1, self.W))


# ---------------------------------------------------------------- words
def build_phrase(b: Build, corner: str = "") -> str:
    """What the waste takes (Golf: ``one rank up or down, suits ignored, no turning the
    corner``), ``corner`` added after "no turning the corner"."""
    steps = {"up-or-down": "one rank up or down", "up": "one rank up",
             "down": "one rank down"}.get(b.direction, b.phrase())
    suits = "suits ignored" if b.suits == "any-suit" else b.suit_phrase()
    turn = "turning the corner from K to A" if b.wrap else "no turning the corner" + corner
    return f"{steps}, {suits}, {turn}"


def explain_onto_waste(pos: Position, card: int, b: int) -> str:
    """Why ``card`` may not go onto the waste ``b``."""
    eng = pos.engine
    name = eng.variant.name
    q = pos.piles[b]
    if not q:
        return "the waste is empty"
    t = q[-1]
    wb: Build = eng.variant.waste.build  # type: ignore[union-attr,assignment]  # (Golf)
    if wb.closed and RANK_TEXT[RANK_OF[t]] in wb.closed:
        return f"nothing goes on a {RANK_TEXT[RANK_OF[t]]} in {name} (kings_block is on)"
    return f"{_c(card)} cannot go on {_c(t)}: in {name} the waste takes a card " \
           f"{build_phrase(wb, ' between K and A')}"


def rules_text(v: Variant) -> list[str]:
    """The rules text's sentence on building on the waste."""
    if not (v.waste and v.waste.build):
        return []
    b = v.waste.build
    text = f"Tableau cards go one at a time onto the waste, {build_phrase(b)}"
    if b.closed:
        text += f"; nothing goes on a {' or '.join(b.closed)}"
    return [text + "."]

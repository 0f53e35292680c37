"""The reserve (the TOML's ``[reserve]``): piles whose top card (or run) plays to the tableau,
and empty reserve places that take a card (free cells, Gate's posts, Octave's reserve).

Its words (refusals and the rules text) are in the functions below the mixin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import UNKNOWN
from .base import MOVE, Mechanic, Raw, Rules, makes, span

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant

WORD = "reserve"
MECHANICS = (Mechanic.RESERVE_TO_TABLEAU, Mechanic.TO_RESERVE)


class ReserveRules(Rules):
    """The engine's reserve moves (a mixin of :class:`~..engine.Engine`)."""

    def _init_reserve(self, v: Variant) -> None:
        self.reserve = v.reserve  # type: ignore[assignment]  # see Rules

    @makes(Mechanic.RESERVE_TO_TABLEAU)
    def _gen_reserve_to_tableau(self, pos: Position, out: list[Raw]) -> None:
        piles = pos.piles
        runs = self.reserve.move == "run"
        tb = self.tbuild
        for r in self.R:
            p = piles[r]
            if not p or p[-1] == UNKNOWN:
                continue
            k = 1
            if runs:
                while k < len(p) and tb[p[-k - 1]][p[-k]]:
                    k += 1
            for n in range(k, 0, -1):
                self._to_tableau(pos, r, p[-n], out, n)

    @makes(Mechanic.TO_RESERVE)
    def _gen_to_reserve(self, pos: Position, out: list[Raw]) -> None:
        piles = pos.piles
        res = self.reserve
        if res.when == "stock-empty" and piles[self.S]:
            return
        if res.when == "last-pass" and pos.pass_no < self.passes:
            return
        empty = [r for r in self.R if not piles[r]]
        if not empty:
            return
        sources = []
        if "t" in res.sources:
            for i in self.T:
                p = piles[i]
                if p and p[-1] != UNKNOWN:
                    sizes = self.units(pos, i) if res.accepts == "unit" else (1,)
                    sources += [(i, k) for k in sizes]
        if "w" in res.sources and self.W >= 0 and piles[self.W] and \
                piles[self.W][-1] != UNKNOWN:
            sources.append((self.W, 1))
        for i, k in sources:
            for r in empty:
                out.append((MOVE, i, k, r))


# ---------------------------------------------------------------- words
def explain_reserve(pos: Position, a: int, b: int, n: int) -> str:
    """A card or unit refused by a reserve pile (Gate's posts, Tournament's kibitzers, Miss
    Milligan's weaving cell, Octave's reserve)."""
    eng = pos.engine
    groups = eng.groups
    v = eng.variant
    name = v.name
    res = eng.reserve
    dst = eng.names[b]
    if res.accepts == "none":
        return f"nothing is put on the reserve piles ({span(eng, groups.reserve)}) in " \
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


def rules_text(v: Variant) -> list[str]:
    """The rules text's sentence on the reserve."""
    r = v.reserve
    if r is None:
        return []
    names = f"r1-r{r.count}" if r.count > 1 else "r1"
    text = f"Reserve ({names}): the top card of each is available to the foundations" + (
        " and the tableau" if v.tableau and v.tableau.build.direction != "none" else "")
    text += "; nothing is built on it"
    if r.accepts != "none":
        what = "a card" if r.accepts == "card" else "a card or a run"
        src = " or ".join({"t": "the top of a tableau pile", "w": "the waste"}[x]
                          for x in r.sources)
        when = {"always": "", "stock-empty": ", once the whole stock has been dealt",
                "last-pass": ", in the last pass"}[r.when]
        text += f"; an empty place takes {what} from {src}{when}"
    return [text + "."]

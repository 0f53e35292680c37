"""The tableau (the TOML's ``[tableau]``): its builds, the units that move, what fills a space
(Blockade's stock card included), and the piles refilled by rule (Tournament, Congress).

Its words (refusals and the rules text) are in the functions below the mixin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import KING, RANK_OF, SUIT_OF, UNKNOWN
from ...cards import code_text as _c
from .base import BIT, MOVE, STOCK, Mechanic, Raw, Rules, makes
from .base import number_word as _n

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .. import pieces as P
    from ..position import Position
    from ..variant import Variant

WORD = "tableau"
MECHANICS = (Mechanic.TABLEAU, Mechanic.WASTE_TO_TABLEAU, Mechanic.STOCK_TO_SPACE)


class TableauRules(Rules):
    """The engine's tableau moves (a mixin of :class:`~..engine.Engine`)."""

    def _init_tableau(self, v: Variant) -> None:
        nm = self.names
        tab: P.Tableau = v.tableau  # type: ignore[assignment]  # see Rules
        self.tab = tab
        self.tbuild = tab.build.table() if tab else None  # type: ignore[assignment]
        # For each top card, the codes that may be built on it (a target index for movegen).
        self.tacc = [  # type: ignore[assignment]
            tuple(u for u in range(52) if self.tbuild[t][u]) for t in range(53)] \
            if tab else None
        # And for each card, the bit mask (see ``BIT``) of the codes it may be built on.
        self.onto_mask = [  # type: ignore[assignment]
            sum(BIT[t] for t in range(53) if self.tbuild[t][u]) for u in range(53)] \
            if tab else None
        # And for each top card, the bit mask of the codes that may be built on it.
        self.tacc_mask = [  # type: ignore[assignment]
            sum(BIT[u] for u in self.tacc[t]) for t in range(53)] \
            if tab else None
        self.tmax = tab.max_cards if tab else 0
        self.unit = tab.move if tab else "none"
        self.space = tab.space if tab else "none"
        self.space_unit = tab.space_unit if tab else ""
        # Where the space rule asks only the card (any card, or kings), whether each code
        # may go into a space; None where it asks more (see :meth:`space_takes`), as where
        # it names the piles a card may come from (the solver's fast searches need None).
        self.space_card = tuple(self.space == "any" or RANK_OF[c] == KING for c in range(53)) \
            if self.space in ("any", "kings") and not tab.space_from else None
        # Where a card that fills a space may come from (pile indices), or None: anywhere.
        self.space_src = frozenset(i for i, n in enumerate(nm) if n[0] in tab.space_from) \
            if tab and tab.space_from else None
        self.refill = tab.refill if tab else 0
        self.autofill = self.space in ("auto-waste-stock", "auto-stock")
        self.fill_first = bool(tab) and self.space == "reserve-then-waste" and tab.fill_first

    def _spaces_first(self, pos: Position, out: list[Raw]) -> list[Raw] | None:
        """Gate: a space is filled (from a reserve, then the waste) before any other move."""
        piles = pos.piles
        if any(not piles[i] for i in self.T):
            fills = [m for m in out if m[0] == MOVE and m[3] in self.Tset and not piles[m[3]]]
            if fills:
                return fills
            if not any(piles[r] for r in self.R) and not piles[self.W]:
                # Posts and waste are empty: the space's card comes from the stock, so the
                # stock is turned before anything else.
                turns = [m for m in out if m[0] == STOCK]
                if turns:
                    return turns
        return None

    def units(self, pos: Position, i: int) -> range | tuple[int, ...]:
        """The unit sizes that may lift off tableau pile ``i``."""
        p = pos.piles[i]
        n = len(p)
        if not n or p[-1] == UNKNOWN:
            return ()
        unit = self.unit
        if unit == "single":
            return (1,)
        if unit == "run" or unit == "same-suit-run":
            tb = self.tbuild
            same = unit == "same-suit-run"
            j, lowest = n - 1, pos.down[i]  # p[j]: the run's lowest card so far
            while j > lowest:
                lower, upper = p[j - 1], p[j]
                if not tb[lower][upper] or (same and SUIT_OF[lower] != SUIT_OF[upper]):
                    break
                j -= 1
            return range(n - j, 0, -1)
        up = n - pos.down[i]
        if unit == "face-up-block":
            return (up, 1) if up > 1 else (1,)
        if unit == "face-up-block-only":
            return (up,)
        if unit == "single-or-whole-pile":
            return (n, 1) if n > 1 and up == n else (1,)
        return ()

    def space_units(self, pos: Position, i: int) -> range | tuple[int, ...]:
        """Unit sizes of pile ``i`` that may move into a space (Harp: K-headed runs too)."""
        if self.space_unit != "run":
            return self.units(pos, i)
        p = pos.piles[i]
        if not p or p[-1] == UNKNOWN:
            return ()
        up, tb, k = len(p) - pos.down[i], self.tbuild, 1
        while k < up and tb[p[-k - 1]][p[-k]]:
            k += 1
        return range(k, 0, -1)

    def space_takes(self, pos: Position, src: int, card: int) -> bool:
        """Whether ``card`` from pile ``src`` may fill an empty tableau pile."""
        sp = self.space
        if self.refill and pos.piles[self.S]:
            return False
        if self.space_src is not None and src not in self.space_src:
            return False
        if sp == "any" or sp == "any-or-stock":
            return True
        if sp == "kings":
            return RANK_OF[card] == KING
        if sp == "waste":
            return src == self.W
        piles = pos.piles
        if sp == "auto-stock":
            return not piles[self.S]
        if sp == "auto-waste-stock":
            return not piles[self.S] and not piles[self.W]
        if sp == "reserve-then-waste":
            if any(piles[r] for r in self.R):
                return src in self.Rset
            return src == self.W
        return False

    @makes(Mechanic.TABLEAU)
    def _gen_tableau(self, pos: Position, out: list[Raw],
                     sources: Iterable[int] | None = None) -> None:
        """Moves between tableau piles, lifting off the piles ``sources`` (all by default)."""
        piles, down = pos.piles, pos.down
        tmax, T, tb = self.tmax, self.T, self.tbuild
        unit = self.unit
        single = unit == "single"
        runs = unit == "run" or unit == "same-suit-run"
        same_suit = unit == "same-suit-run"
        if single:
            # One card at a time: a pile's top card is looked up in each target's row of
            # the build table.
            rows = [(j, tb[q[-1]]) for j in T if (q := piles[j])]
        else:
            # card code -> piles whose top card takes it
            wants: dict[int, list[int]] = {}
            tacc = self.tacc
            for j in T:
                q = piles[j]
                if q:
                    for c in tacc[q[-1]]:
                        if c in wants:
                            wants[c].append(j)
                        else:
                            wants[c] = [j]
        empties = [j for j in T if not piles[j]]
        space_card = self.space_card
        for i in T if sources is None else sources:
            p = piles[i]
            if not p or p[-1] == UNKNOWN:
                continue  # no unit lifts off an unnamed card
            n = len(p)
            if single:
                units: range | tuple[int, ...] = (1,)
                c = p[-1]
                for j, row in rows:
                    if row[c] and j != i and (not tmax or len(piles[j]) < tmax):
                        out.append((MOVE, i, 1, j))
            else:
                if runs:  # the run on top, as :meth:`units` finds it (here without a call)
                    x, lowest = n - 1, down[i]
                    while x > lowest:
                        lower, upper = p[x - 1], p[x]
                        if not tb[lower][upper] or (same_suit and SUIT_OF[lower] != SUIT_OF[upper]):
                            break
                        x -= 1
                    units = range(n - x, 0, -1)
                else:
                    units = self.units(pos, i)
                for k in units:
                    targets = wants.get(p[-k])
                    if targets:
                        for j in targets:
                            if j != i and (not tmax or len(piles[j]) + k <= tmax):
                                out.append((MOVE, i, k, j))
            if not empties:
                continue
            for k in (self.space_units(pos, i) if self.space_unit else units):
                base = p[-k]
                # (a whole pile into a space changes nothing)
                if (space_card[base] if space_card else self.space_takes(pos, i, base)) \
                        and k != n:
                    for j in empties:
                        out.append((MOVE, i, k, j))

    @makes(Mechanic.TABLEAU)
    def _gen_single(self, pos: Position, out: list[Raw],
                     sources: Iterable[int] | None = None) -> None:
        """:meth:`_gen_tableau` where one card moves at a time, the same moves in the same
        order (the hottest generation of the solver, written out for speed): the tops as
        one bit mask of their codes, each source's top card's mask of the cards it may go
        on (``onto_mask``) matched against it; then the spaces."""
        piles, T, tb, tmax = pos.piles, self.T, self.tbuild, self.tmax
        if sources is None:
            sources = T
        tops, alike, at, empties = 0, False, [0] * 53, []
        for j in T:
            q = piles[j]
            if q:
                b = BIT[q[-1]]  # (none for UNKNOWN: nothing is built on it)
                if tops & b:
                    alike = True  # two tops alike (several decks)
                tops |= b
                at[q[-1]] = j  # the pile a top card tops
            else:
                empties.append(j)
        onto, space_card = self.onto_mask, self.space_card
        for i in sources:
            p = piles[i]
            if not p or p[-1] == UNKNOWN:
                continue  # no card lifts off an unnamed card
            c = p[-1]
            hit = onto[c] & tops
            if hit:
                if alike or hit & (hit - 1):  # several targets: each pile asked in turn
                    for j in T:
                        q = piles[j]
                        if q and tb[q[-1]][c] and j != i and (not tmax or len(q) < tmax):
                            out.append((MOVE, i, 1, j))
                else:
                    j = at[hit.bit_length() - 1]
                    if j != i and (not tmax or len(piles[j]) < tmax):
                        out.append((MOVE, i, 1, j))
            # (a whole pile into a space changes nothing)
            if empties and len(p) > 1 and (space_card[c] if space_card
                                           else self.space_takes(pos, i, c)):
                for j in empties:
                    out.append((MOVE, i, 1, j))

    @makes(Mechanic.WASTE_TO_TABLEAU)
    def _gen_waste_to_tableau(self, pos: Position, out: list[Raw]) -> None:
        piles = pos.piles
        w = piles[self.W]
        if not w or w[-1] == UNKNOWN:
            return
        self._to_tableau(pos, self.W, w[-1], out)

    @makes(Mechanic.STOCK_TO_SPACE)
    def _gen_stock_to_space(self, pos: Position, out: list[Raw]) -> None:
        """Blockade (S4): the top card of the stock ("a card from the hand") may fill a space."""
        piles = pos.piles
        if piles[self.S]:
            for j in self.T:
                if not piles[j]:
                    out.append((MOVE, self.S, 1, j))

    def _to_tableau(self, pos: Position, src: int, c: int, out: list[Raw], n: int = 1) -> None:
        piles, tb, tmax = pos.piles, self.tbuild, self.tmax
        space_ok = None
        for j in self.T:
            q = piles[j]
            if q:
                if tb[q[-1]][c] and (not tmax or len(q) + n <= tmax):
                    out.append((MOVE, src, n, j))
            else:
                if space_ok is None:
                    space_ok = self.space_takes(pos, src, c)
                if space_ok:
                    out.append((MOVE, src, n, j))

    def _after(self, pos: Position) -> None:
        """What the rules do by themselves once a move is made: refill emptied piles from the
        stock (Tournament, Intelligence), fill spaces at once (Congress, Blockade's option)."""
        piles, down = pos.piles, pos.down
        S, W = self.S, self.W
        for i in self.T:
            if piles[i]:
                continue
            if self.refill:
                for _ in range(self.refill):
                    card = self._draw(pos)
                    if card is None:
                        break
                    piles[i] = piles[i] + (card,)
            elif self.space == "auto-waste-stock" and W >= 0 and piles[W]:
                piles[i] = piles[W][-1:]
                piles[W] = piles[W][:-1]
            elif piles[S]:
                piles[i] = piles[S][-1:]
                piles[S] = piles[S][:-1]
                down[S] = len(piles[S])
            down[i] = 0


# ---------------------------------------------------------------- words
def explain_onto_tableau(pos: Position, a: int, b: int, n: int) -> str:
    """Why ``n`` cards of pile ``a`` may not go to tableau pile ``b``."""
    eng = pos.engine
    groups, piles, name = eng.groups, pos.piles, eng.variant.name
    src, dst = eng.names[a], eng.names[b]
    p, q = piles[a], piles[b]
    card = p[-n]
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


def rules_text(v: Variant) -> list[str]:
    """The rules text's sentences on the tableau."""
    lines = []
    if v.tableau and v.tableau.move != "none":
        t = v.tableau
        lines.append(f"Tableau ({_n(t.count)} piles): {t.build.phrase()}; {t.move_phrase()}; "
                     f"{t.space_phrase()}" + (f"; at most {t.max_cards} cards a pile"
                                              if t.max_cards else "") + ".")
    if v.tableau and any(s.face == "down" for s in v.deal):
        lines.append("A face-down card is turned up as soon as it is uncovered.")
    return lines


def explain_spaces_first(pos: Position, b: int) -> str:
    """Gate's spaces, where a move to pile ``b`` fills none ("" when the rule does not bar
    it)."""
    eng = pos.engine
    groups, piles = eng.groups, pos.piles
    if not eng.fill_first:
        return ""
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
            return f"{eng.variant.name}: fill the space in {spaces[0]} first, {where}; a " \
                   f"space is filled before any other move"
    return ""

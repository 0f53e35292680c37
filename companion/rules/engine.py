"""The one authority on legality: move generation, application and the reasons for refusals.

An :class:`Engine` is compiled once per variant (with its options) from the variant's pieces:
pile indices, and lookup tables for every build rule. Positions hold plain data (tuples of card
codes); the engine reads and changes them. Moves on the hot path are *raw* tuples
``(kind, a, n, b)``; :class:`~.moves.Move` is their text form.

Generation order (documented, stable, so listings and solver traces are reproducible):
foundation moves from the tableau, waste, stock and reserves; tableau-to-tableau moves (longest
unit first); waste-to-tableau; the stock's top card to a space (Blockade); foundation-to-tableau
(when allowed); pair removals; Accordion folds; Gaps fills; and last the stock action.
"""

from __future__ import annotations

from functools import cache
from operator import itemgetter

from ..cards import KING, RANK_OF, RANK_TEXT, SUIT_OF, UNKNOWN, code_text
from .moves import Move
from .variant import Variant

MOVE, STOCK, PAIR, FOLD, REVEAL = range(5)
KIND_NAMES = ("move", "stock", "pair", "fold", "reveal")

Raw = tuple[int, int, int, int]

# The most foundation maps an engine keeps (see :meth:`Engine._foundation_map`).
F_MAPS_KEPT = 20_000
# Each code's bit in a mask of codes (:meth:`Engine._gen_single`); none for UNKNOWN.
_BIT = tuple(1 << c for c in range(52)) + (0,)
_ALL_MASK = (1 << 52) - 1
_KINGS_MASK = sum(_BIT[c] for c in range(52) if RANK_OF[c] == KING)


@cache
def engine_for(variant: Variant) -> Engine:
    return Engine(variant)


class Engine:
    def __init__(self, v: Variant):
        self.variant = v
        self.names = v.pile_names
        self.index = {n: i for i, n in enumerate(self.names)}
        idx = self.index
        nm = self.names
        self.T = tuple(i for i, n in enumerate(nm) if n[0] == "t")
        self.R = tuple(i for i, n in enumerate(nm) if n[0] == "r")
        self.Rset = frozenset(self.R)
        self.TR = self.T + self.R
        self.reserve = v.reserve
        self.F = tuple(i for i, n in enumerate(nm) if n[0] == "f")
        self.Fset = frozenset(self.F)
        self.Tset = frozenset(self.T)
        self.P = tuple(i for i, n in enumerate(nm) if n[0] == "p")
        self.G = tuple(i for i, n in enumerate(nm) if n[0] in "abcdefgh" and n[1:].isdigit())
        self.gpos = {g: k for k, g in enumerate(self.G)}
        self.S = idx.get("s", -1)
        self.W = idx.get("w", -1)
        self.X = idx.get("x", -1)
        self.stock = v.stock
        self.deck_size = v.deck_size
        self.passes = v.stock.passes if v.stock else 1
        # Whether a position can be blocked (see ``Position.is_blocked``): unlimited passes
        # through a stock, where a pass that changes nothing is not turned over again.
        self.may_block = self.passes == 0 and self.S >= 0

        tab = v.tableau
        self.tab = tab
        self.tbuild = tab.build.table() if tab else None
        # For each top card, the codes that may be built on it (a target index for movegen).
        self.tacc = [tuple(u for u in range(52) if self.tbuild[t][u]) for t in range(53)] \
            if tab else None
        # And for each card, the bit mask (see ``_BIT``) of the codes it may be built on.
        self.onto_mask = [sum(_BIT[t] for t in range(53) if self.tbuild[t][u]) for u in range(53)] \
            if tab else None
        # And for each top card, the bit mask of the codes that may be built on it.
        self.tacc_mask = [sum(_BIT[u] for u in self.tacc[t]) for t in range(53)] \
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
        self.strict_last = bool(v.stock) and v.stock.strict_last_pass
        self.refill_aces = any(step.aces_up for step in v.deal)

        # Foundations: per pile, the codes accepted on an empty pile and on each top card.
        self.f_base: dict[int, tuple[int, ...]] = {}
        self.f_on: dict[int, list[tuple[int, ...]]] = {}
        self.f_max: dict[int, int] = {}
        self.f_piece: dict[int, object] = {}
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
        self._f_maps: dict[tuple, dict[int, int]] = {}  # see :meth:`_foundation_map`
        # The foundations' piles of a position's piles, as one key (see :meth:`_foundation_map`).
        self.f_state = itemgetter(*self.F) if self.F else lambda piles: ()
        self.wbuild = v.waste.build.table() if v.waste and v.waste.build else None
        self.pairs = v.pairs
        self.pyramid_slots: tuple = ()
        if v.pyramid:
            rows = v.pyramid.rows
            self.cover: list[tuple[int, ...]] = []
            k = 0
            for r in range(rows):
                for c in range(r + 1):
                    if r + 1 < rows:
                        below = (r + 1) * (r + 2) // 2 + c
                        self.cover.append((self.P[below], self.P[below + 1]))
                    else:
                        self.cover.append(())
                    k += 1
            self.pyramid_slots = tuple(zip(self.P, self.cover, strict=True))
        if self.pairs:
            # Precomputed for generation: which codes go alone, which pairs match.
            singles = {r for r in range(1, 14) if RANK_TEXT[r] in self.pairs.singles}
            self.single_codes = frozenset(c for c in range(52) if RANK_OF[c] in singles)
            self.match_table = tuple(frozenset(b for b in range(52) if self.pairs.matches(a, b))
                                     for a in range(53))
        self.accordion = v.accordion
        # Accordion's fold rule: ``fold_table[t][c]``, whether a pile whose top card is c may
        # go onto one whose top card is t (suit or rank alike; an unknown card takes nothing).
        self.fold_table = tuple(
            tuple(t != UNKNOWN and c != UNKNOWN
                  and (SUIT_OF[t] == SUIT_OF[c] or RANK_OF[t] == RANK_OF[c]) for c in range(53))
            for t in range(53)) if v.accordion else None
        self.gaps = v.gaps
        self.flip_piles = frozenset(self.T)
        self.last_t = self.T[-1] if self.T else -1

        gens = []
        if self.F and not self.complete_runs and not self.pairs:
            gens.append(self._gen_to_foundations)
        if self.complete_runs:
            gens.append(self._gen_discards)
        builds = bool(tab) and (tab.build.direction != "none" or tab.space != "none")
        # The moves between tableau piles: one card at a time (and no rule of its own for
        # spaces) by the faster generator written for it.
        self._tableau_moves = self._gen_single if self.unit == "single" \
            and not self.space_unit else self._gen_tableau
        if builds and self.unit != "none":
            gens.append(self._tableau_moves)
        if self.W >= 0 and builds:
            gens.append(self._gen_waste_to_tableau)
        if self.space == "any-or-stock" and self.S >= 0:
            gens.append(self._gen_stock_to_space)
        if self.R and builds:
            gens.append(self._gen_reserve_to_tableau)
        if self.R and self.reserve.accepts != "none":
            gens.append(self._gen_to_reserve)
        if self.f_returns:
            gens.append(self._gen_from_foundations)
        if self.f_transfer:
            gens.append(self._gen_transfers)
        if self.wbuild is not None:
            gens.append(self._gen_onto_waste)
        if self.pairs:
            gens.append(self._gen_pairs)
        if self.accordion:
            gens.append(self._gen_folds)
        if self.gaps:
            gens.append(self._gen_gaps)
        self.gens = tuple(gens)
        # Whether only the foundation and tableau moves lift cards off a tableau pile, and no
        # rule narrows the choice: then :meth:`gen_from` asks just those.
        names = {g.__name__ for g in gens}
        self.plain_lifts = not (self.fill_first or self.strict_last or self.force_aces) \
            and names <= {"_gen_to_foundations", "_gen_tableau", "_gen_single",
                          "_gen_waste_to_tableau",
                          "_gen_stock_to_space", "_gen_reserve_to_tableau",
                          "_gen_from_foundations", "_gen_transfers"}
        self.lifts_to_f = "_gen_to_foundations" in names
        self.lifts_to_t = bool(names & {"_gen_tableau", "_gen_single"})
        # Whether the generators' moves are all the legal moves: no stock action to add, no
        # rule to narrow them (gen's fast path).
        self.gens_only = self.S < 0 and not self.gaps \
            and not (self.fill_first or self.strict_last or self.force_aces)
        # Whether a move between piles changes nothing but them, their face-down counts and
        # the idle flag (apply's fast path).
        self.plain_move = not (self.auto_discard or self.refill or self.autofill)
        # Whether the moves up to the foundations (from anywhere but a foundation) are just
        # :meth:`_gen_to_foundations`' (gen_up's fast path).
        self.plain_up = names >= {"_gen_to_foundations"} and not (
            self.fill_first or self.strict_last or self.force_aces) \
            and not names & {"_gen_discards", "_gen_pairs", "_gen_folds", "_gen_gaps"}

    # ------------------------------------------------------------------ generation
    def gen(self, pos) -> list[Raw]:
        out: list[Raw] = []
        for g in self.gens:
            g(pos, out)
        if self.gens_only:
            return out
        if self.S >= 0 and self.can_stock(pos):
            out.append((STOCK, self.S, 0, -1))
        elif self.gaps and (not out or self.gaps.anytime) \
                and pos.pass_no <= self.gaps.redeals \
                and not all(k == self.gaps.columns - 1 for k in self.kept_runs(pos.piles)):
            out.append((STOCK, -1, 0, -1))
        if self.fill_first or self.strict_last or self.force_aces:
            out = self._constrain(pos, out)
        return out

    def gen_talon(self, pos) -> list[Raw]:
        """Only the legal moves that use the stock or the waste, and the stock action: what a
        scan through the stock needs (the solver's), without generating every tableau move.
        The same moves, in the same order, as filtering :meth:`gen`."""
        S, W = self.S, self.W
        if self.pairs or self.gaps or self.accordion or self.fill_first or self.strict_last \
                or self.force_aces or self.autofill or S < 0:
            return [m for m in self.gen(pos) if m[0] == STOCK or m[1] in (S, W)
                    or m[3] in (S, W)]
        out: list[Raw] = []
        piles = pos.piles
        w = piles[W] if W >= 0 else ()
        top = w[-1] if w else UNKNOWN
        if top != UNKNOWN:
            if self.F and not self.complete_runs:
                acc = self._foundation_map(piles)
                if top in acc:
                    out.append((MOVE, W, 1, acc[top]))
            if self._gen_waste_to_tableau in self.gens:
                self._gen_waste_to_tableau(pos, out)
        if self._gen_stock_to_space in self.gens:
            self._gen_stock_to_space(pos, out)
        if top != UNKNOWN and self._gen_to_reserve in self.gens and "w" in self.reserve.sources:
            res = self.reserve
            if not (res.when == "stock-empty" and piles[S]) and \
                    not (res.when == "last-pass" and pos.pass_no < self.passes):
                out.extend((MOVE, W, 1, r) for r in self.R if not piles[r])
        if self.wbuild is not None and w:
            self._gen_onto_waste(pos, out)
        if self.can_stock(pos):
            out.append((STOCK, S, 0, -1))
        return out

    def gen_up(self, pos) -> list[Raw]:
        """Only the legal moves that send a card up to a foundation from another pile: the
        same moves, in the same order, as filtering :meth:`gen`, without generating the rest
        (what the solver's safe moves look at)."""
        if not self.plain_up:
            F = self.Fset
            return [m for m in self.gen(pos) if m[0] == MOVE and m[3] in F and m[1] not in F]
        out: list[Raw] = []
        self._gen_to_foundations(pos, out)
        return out

    def gen_from(self, pos, i: int) -> list[Raw]:
        """The legal moves that lift cards off tableau pile ``i``: the same moves, in the same
        order, as filtering :meth:`gen`, without generating the other piles' moves (what
        the solver's composite moves, which follow one pile, look at)."""
        if not self.plain_lifts:
            return [m for m in self.gen(pos) if m[0] == MOVE and m[1] == i]
        out: list[Raw] = []
        piles = pos.piles
        p = piles[i]
        if p and self.lifts_to_f:
            f = self._foundation_map(piles).get(p[-1])
            if f is not None:
                out.append((MOVE, i, 1, f))
        if self.lifts_to_t:
            self._tableau_moves(pos, out, (i,))
        return out

    def waste_mover(self, pos):
        """For a scan through the stock from ``pos``: a function of the position that gives
        the same moves as :meth:`gen_talon` less the stock action, valid while only the stock,
        the waste and the pass state change (the tableau and foundations stay as in ``pos``),
        or None where the moves depend on more than the waste's top card. The foundations'
        and the tableau's tops are looked at once, not at every turn."""
        S, W = self.S, self.W
        if self.pairs or self.gaps or self.accordion or self.fill_first or self.strict_last \
                or self.force_aces or self.autofill or S < 0 or W < 0 \
                or self._gen_stock_to_space in self.gens or self.wbuild is not None \
                or (self._gen_to_reserve in self.gens and "w" in self.reserve.sources):
            return None
        piles = pos.piles
        acc = self._foundation_map(piles) if self.F and not self.complete_runs else {}
        to_tableau = self._gen_waste_to_tableau in self.gens
        tb, tmax = self.tbuild, self.tmax
        tops = []  # (pile, its top card, or -1 for a space), in pile order
        for j in self.T:
            q = piles[j]
            if not tmax or len(q) < tmax:
                tops.append((j, q[-1] if q else -1))
        space_takes = self.space_takes
        # Where filling a space looks at the card alone (not at the stock), the moves are
        # a function of the waste's top card alone: ``moves.of_top`` gives them, and only
        # looks further at a card that has some (``live``, a bit mask of the codes).
        pure = not self.refill and self.space in ("any", "any-or-stock", "kings", "waste")
        live = 0
        if pure:
            for c in acc:
                live |= _BIT[c]
            if to_tableau:
                tacc_mask = self.tacc_mask
                for _, t in tops:
                    if t >= 0:
                        live |= tacc_mask[t]
                    elif self.space == "kings":
                        live |= _KINGS_MASK
                    else:
                        live |= _ALL_MASK

        def moves(q) -> list[Raw]:
            w = q.piles[W]
            if not w or w[-1] == UNKNOWN:
                return []
            return of(q, w[-1])

        def of_top(top) -> list[Raw]:
            return of(None, top) if live >> top & 1 else []

        def of(q, top) -> list[Raw]:
            out: list[Raw] = []
            f = acc.get(top)
            if f is not None:
                out.append((MOVE, W, 1, f))
            if to_tableau:
                space_ok = None
                for j, t in tops:
                    if t >= 0:
                        if tb[t][top]:
                            out.append((MOVE, W, 1, j))
                    else:
                        if space_ok is None:
                            space_ok = space_takes(q, W, top)
                        if space_ok:
                            out.append((MOVE, W, 1, j))
            return out

        moves.of_top = of_top if pure else None
        moves.live = live if pure else None
        return moves

    def _constrain(self, pos, out: list[Raw]) -> list[Raw]:
        """Rules that narrow the choice: Gate's spaces first, Octave's turned card."""
        piles = pos.piles
        if self.strict_last and pos.pass_no >= self.passes and piles[self.W]:
            return [m for m in out if m[0] == MOVE and m[1] == self.W]
        if self.fill_first and any(not piles[i] for i in self.T):
            fills = [m for m in out if m[0] == MOVE and m[3] in self.Tset and not piles[m[3]]]
            if fills:
                return fills
            if not any(piles[r] for r in self.R) and not piles[self.W]:
                # Posts and waste are empty: the space's card comes from the stock, so the
                # stock is turned before anything else.
                turns = [m for m in out if m[0] == STOCK]
                if turns:
                    return turns
        if self.force_aces:
            aces = [m for m in out if m[0] == MOVE and m[3] in self.Fset and m[1] not in self.Fset
                    and RANK_OF[piles[m[1]][-1]] == 1]
            if aces:
                return aces
        return out

    def _foundation_map(self, piles) -> dict[int, int]:
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

    def _gen_to_foundations(self, pos, out) -> None:
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

    def _gen_discards(self, pos, out) -> None:
        piles, down = pos.piles, pos.down
        free = next((f for f in self.F if not piles[f]), -1)
        if free < 0:
            return
        for i in self.T:
            p = piles[i]
            if len(p) - down[i] >= 13 and self._complete_run(p):
                out.append((MOVE, i, 13, free))

    @staticmethod
    def _complete_run(p) -> bool:
        top = p[-1]
        if top == UNKNOWN or RANK_OF[top] != 1:
            return False
        # codes of one suit run K..A: bottom code = top + 12, each next one less.
        return all(p[-1 - k] == top + k for k in range(13))

    def units(self, pos, i) -> range | tuple[int, ...]:
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

    def space_units(self, pos, i):
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

    def space_takes(self, pos, src: int, card: int) -> bool:
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

    def _gen_tableau(self, pos, out, sources=None) -> None:
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

    def _gen_single(self, pos, out, sources=None) -> None:
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
                b = _BIT[q[-1]]  # (none for UNKNOWN: nothing is built on it)
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

    def _gen_waste_to_tableau(self, pos, out) -> None:
        piles = pos.piles
        w = piles[self.W]
        if not w or w[-1] == UNKNOWN:
            return
        self._to_tableau(pos, self.W, w[-1], out)

    def _gen_stock_to_space(self, pos, out) -> None:
        """Blockade (S4): the top card of the stock ("a card from the hand") may fill a space."""
        piles = pos.piles
        if piles[self.S]:
            for j in self.T:
                if not piles[j]:
                    out.append((MOVE, self.S, 1, j))

    def _to_tableau(self, pos, src, c, out, n: int = 1) -> None:
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

    def _gen_reserve_to_tableau(self, pos, out) -> None:
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

    def _gen_to_reserve(self, pos, out) -> None:
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

    def _gen_transfers(self, pos, out) -> None:
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

    def _gen_from_foundations(self, pos, out) -> None:
        for f in self.F:
            p = pos.piles[f]
            if p:
                self._to_tableau(pos, f, p[-1], out)

    def _gen_onto_waste(self, pos, out) -> None:
        piles = pos.piles
        w = piles[self.W]
        if not w:
            return
        row = self.wbuild[w[-1]]
        for i in self.T:
            p = piles[i]
            if p and row[p[-1]]:
                out.append((MOVE, i, 1, self.W))

    def available(self, pos) -> list[tuple[int, int]]:
        """Pair games: the (pile, code) of every card that may be removed now."""
        piles, down = pos.piles, pos.down
        av = []
        if self.pyramid_slots:
            for i, cv in self.pyramid_slots:
                if piles[i] and (not cv or not (piles[cv[0]] or piles[cv[1]])):
                    av.append((i, piles[i][-1]))
        for i in self.T:
            p = piles[i]
            if p and down[i] < len(p):
                av.append((i, p[-1]))
        s = self.S
        if s >= 0 and piles[s] and down[s] < len(piles[s]):
            av.append((s, piles[s][-1]))
        w = self.W
        if w >= 0 and piles[w]:
            av.append((w, piles[w][-1]))
        return [(i, c) for i, c in av if c != UNKNOWN]

    def _gen_pairs(self, pos, out) -> None:
        av = self.available(pos)
        singles, table = self.single_codes, self.match_table
        f = self.F[0]
        for x, (i, a) in enumerate(av):
            if a in singles:
                out.append((MOVE, i, 1, f))
            match = table[a]
            for j, b in av[x + 1:]:
                if b in match:
                    out.append((PAIR, min(i, j), 0, max(i, j)))

    def line_length(self, piles) -> int:
        n = 0
        for i in self.P:
            if not piles[i]:
                break
            n += 1
        return n

    def _gen_folds(self, pos, out) -> None:
        piles, P = pos.piles, self.P
        m = self.line_length(piles)
        table = self.fold_table
        for k in range(1, m):
            c = piles[P[k]][-1]
            for d in self.accordion.reach:
                if k - d >= 0 and table[piles[P[k - d]][-1]][c]:
                    out.append((FOLD, P[k], 0, P[k - d]))

    def _gen_gaps(self, pos, out) -> None:
        piles, G = pos.piles, self.G
        cols = self.gaps.columns
        where = {}
        for g in G:
            if piles[g]:
                where[piles[g][0]] = g
        for k, g in enumerate(G):
            if piles[g]:
                continue
            if k % cols == 0:  # a gap at the start of a row takes any 2 not already there
                for code in range(1, 52, 13):
                    if code in where and self.gpos[where[code]] % cols != 0:
                        out.append((MOVE, where[code], 1, g))
                continue
            left = piles[G[k - 1]]
            if not left or left[0] == UNKNOWN or RANK_OF[left[0]] == KING:
                continue
            need = left[0] + 1
            if need in where:
                out.append((MOVE, where[need], 1, g))

    def can_stock(self, pos) -> bool:
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

    # ------------------------------------------------------------------ application
    def apply(self, pos, m: Raw) -> None:
        kind, a, n, b = m
        piles, down = pos.piles, pos.down
        if kind == MOVE:
            src = piles[a]
            rest = piles[a] = src[:-n]
            piles[b] = piles[b] + src[-n:]
            if a in self.flip_piles:
                if down[a] >= len(rest):
                    down[a] = len(rest) - 1 if rest else 0
            elif a == self.S:
                down[a] = len(rest)
            pos.idle = False
            if not self.plain_move:
                if self.auto_discard:
                    # A suit completed on the pile the unit went to, or uncovered on the
                    # pile it left: each pile a move changes is looked at.
                    if b in self.Tset:
                        self._auto_discard(pos, b)
                    if a in self.Tset and pos.piles[a]:
                        self._auto_discard(pos, a)
                if self.refill or self.autofill:
                    self._after(pos)
        elif kind == STOCK:
            if self.gaps:
                self._gaps_redeal(pos)
            else:
                self._stock(pos)
            if self.refill or self.autofill:
                self._after(pos)
        elif kind == PAIR:
            f = self.F[0]
            for i in (a, b):
                p = piles[i]
                piles[i] = p[:-1]
                piles[f] = piles[f] + p[-1:]
                if i in self.flip_piles and down[i] >= len(p) - 1:
                    down[i] = max(len(p) - 2, 0)
                elif i == self.S:
                    down[i] = len(p) - 1
            pos.idle = False
        elif kind == FOLD:
            P = self.P
            piles[b] = piles[b] + piles[a]
            k = P.index(a)
            last = self.line_length(piles)
            for x in range(k, last - 1):
                piles[P[x]] = piles[P[x + 1]]
            piles[P[last - 1]] = ()
            pos.idle = False
        elif kind == REVEAL:
            p = piles[a]
            k = p.index(UNKNOWN, down[a])
            piles[a] = p[:k] + (n,) + p[k + 1:]
            if self.gaps and a in self.G and RANK_OF[n] == self._gap_rank():
                piles[self.X] = piles[self.X] + (n,)
                piles[a] = ()

    def _auto_discard(self, pos, i) -> None:
        p = pos.piles[i]
        if len(p) - pos.down[i] >= 13 and self._complete_run(p):
            free = next((f for f in self.F if not pos.piles[f]), -1)
            if free >= 0:
                self.apply(pos, (MOVE, i, 13, free))

    def _after(self, pos) -> None:
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

    def _draw(self, pos) -> int | None:
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

    def _stock(self, pos) -> None:
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

    def _deal_to_tableau(self, pos) -> None:
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

    def _shuffle_redeal(self, pos) -> None:
        """Intelligence: gather the tableau and the stock, shuffle, deal the fans again."""
        from .deal import shuffled
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

    def _gap_rank(self) -> int:
        from ..cards import rank_from_text
        return rank_from_text(self.gaps.gap_rank)

    def kept_runs(self, piles) -> list[int]:
        """Gaps: per row, how many cells from the left hold 2, 3, 4 ... of one suit."""
        cols, G = self.gaps.columns, self.G
        out = []
        for r in range(self.gaps.rows):
            row = G[r * cols:(r + 1) * cols]
            k = 0
            first = piles[row[0]]
            if first and first[0] != UNKNOWN and RANK_OF[first[0]] == 2:
                k = 1
                while k < cols and piles[row[k]] and piles[row[k]][0] == first[0] + k:
                    k += 1
            out.append(k)
        return out

    def _gaps_redeal(self, pos) -> None:
        from .deal import shuffled
        piles, G, cols = pos.piles, self.G, self.gaps.columns
        kept = self.kept_runs(piles)
        free, gathered = [], []
        for r, k in enumerate(kept):
            for g in G[r * cols + k:(r + 1) * cols]:
                free.append(g)
                gathered.extend(piles[g])
        gathered.extend(piles[self.X])
        if pos.seed is None or UNKNOWN in gathered:
            cards = [UNKNOWN] * len(gathered)
        elif self.gaps.shuffle:
            cards = shuffled(gathered, pos.seed, stream=pos.pass_no)
        else:
            cards = gathered
        aside = []
        gap_rank = self._gap_rank()
        if self.gaps.gaps_after == "sequence" and UNKNOWN not in cards:
            # Montana: each row's gap right after its kept run; the aces go straight aside.
            firsts = {G[r * cols + k] for r, k in enumerate(kept) if k < cols}
            aside = [c for c in cards if RANK_OF[c] == gap_rank]
            rest = iter(c for c in cards if RANK_OF[c] != gap_rank)
            for g in free:
                piles[g] = () if g in firsts else (next(rest),)
        else:
            for g, c in zip(free, cards, strict=True):
                if c != UNKNOWN and RANK_OF[c] == gap_rank:
                    aside.append(c)
                    piles[g] = ()
                else:
                    piles[g] = (c,)
        piles[self.X] = tuple(aside)
        pos.pass_no += 1
        pos.idle = False

    # ------------------------------------------------------------------ text
    def move_of(self, m: Raw) -> Move:
        kind, a, n, b = m
        nm = self.names
        if kind == STOCK:
            return Move("s")
        if kind == REVEAL:
            return Move(nm[a], None, 0, n)
        if kind == MOVE:
            if b in self.Fset and a not in self.Fset:
                return Move(nm[a], "f")
            return Move(nm[a], nm[b], n if n > 1 else 0)
        return Move(nm[a], nm[b])

    def text(self, m: Raw) -> str:
        return str(self.move_of(m))

    def card_of(self, pos, m: Raw) -> int:
        """The card a move lifts (the bottom card of its unit); UNKNOWN for the stock."""
        kind, a, n, _ = m
        if kind in (MOVE, FOLD, PAIR) and a >= 0 and pos.piles[a]:
            return pos.piles[a][-n] if kind == MOVE else pos.piles[a][-1]
        return UNKNOWN

    def describe_card(self, code: int, symbols: bool = True) -> str:
        return code_text(code, symbols)

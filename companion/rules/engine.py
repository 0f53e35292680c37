"""The one authority on legality: move generation and application.

An :class:`Engine` is compiled once per variant (with its options) from the variant's pieces:
pile indices, and lookup tables for every build rule. Each mechanic's generators, tables and
application live in its module under :mod:`.mechanics` (a mixin of the engine); the engine
composes them, and keeps what spans them: the order of generation, the rules that narrow the
choice, the moves of one pile or of the talon (the solver's), and applying a move. Positions hold plain data (tuples of card
codes); the engine reads and changes them. Moves on the hot path are *raw* tuples
``(kind, src, n, dst)`` (:class:`RawMove`); :class:`~.moves.Move` is their text form.

Generation order (documented, stable, so listings and solver traces are reproducible):
foundation moves from the tableau, waste, stock and reserves; tableau-to-tableau moves (longest
unit first); waste-to-tableau; the stock's top card to a space (Blockade); foundation-to-tableau
(when allowed); pair removals; Accordion folds; Gaps fills; and last the stock action.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Protocol

from ..cards import RANK_OF, UNKNOWN, code_text
from .mechanics.accordion import AccordionRules
from .mechanics.base import (
    ALL_MASK,
    BIT,
    FOLD,
    KIND_NAMES,
    KINGS_MASK,
    MOVE,
    PAIR,
    REVEAL,
    STOCK,
    Mechanic,
    Piles,
    Raw,
    RawMove,
    Table,
)
from .mechanics.foundations import FoundationRules
from .mechanics.gaps import GapsRules
from .mechanics.pairs import PairRules
from .mechanics.reserve import ReserveRules
from .mechanics.stock import StockRules
from .mechanics.tableau import TableauRules
from .mechanics.waste import WasteRules
from .moves import Move
from .variant import Variant
from .wins import win_rule

if TYPE_CHECKING:
    from collections.abc import Callable

    from .mechanics.base import Gen
    from .position import Position

# The kinds of raw move and the mechanics, defined in .mechanics.base, as the engine's
# consumers import them.
__all__ = ["FOLD", "KIND_NAMES", "MOVE", "PAIR", "REVEAL", "STOCK", "Engine", "Mechanic",
           "PileGroups", "Piles", "Raw", "RawMove", "Table", "WasteMover", "engine_for"]


class WasteMover(Protocol):
    """What :meth:`Engine.waste_mover` gives: the moves of a position, and (where they are a
    function of the waste's top card alone) ``of_top`` and ``live``, else None."""

    of_top: Callable[[int], list[Raw]] | None
    live: int | None

    def __call__(self, q: Position) -> list[Raw]: ...


@dataclass(frozen=True, slots=True)
class PileGroups:
    """A variant's piles by group, as indices into a position's ``piles`` (in pile order);
    a single pile that is not there is -1. What the engine's consumers read (the engine's
    own loops use its short names for them: ``T``, ``R``, ``F`` ...)."""

    tableau: tuple[int, ...]
    reserve: tuple[int, ...]
    foundations: tuple[int, ...]
    pyramid: tuple[int, ...]
    """The pyramid's places, row by row (Pyramid), or the line's (Accordion)."""
    grid: tuple[int, ...]
    """The cells of Gaps' grid, row by row."""
    stock: int
    waste: int
    aside: int
    """Where Gaps puts its aces aside."""
    tableau_set: frozenset[int]
    reserve_set: frozenset[int]
    foundation_set: frozenset[int]

    @classmethod
    def of(cls, names: tuple[str, ...] | list[str]) -> PileGroups:
        """The groups of the piles named ``names`` (a variant's ``pile_names``)."""
        def group(first: str) -> tuple[int, ...]:
            return tuple(i for i, n in enumerate(names) if n[0] == first)

        def single(name: str) -> int:
            return names.index(name) if name in names else -1

        tableau, reserve, foundations = group("t"), group("r"), group("f")
        return cls(tableau=tableau, reserve=reserve, foundations=foundations,
                   pyramid=group("p"),
                   grid=tuple(i for i, n in enumerate(names)
                              if n[0] in "abcdefgh" and n[1:].isdigit()),
                   stock=single("s"), waste=single("w"), aside=single("x"),
                   tableau_set=frozenset(tableau), reserve_set=frozenset(reserve),
                   foundation_set=frozenset(foundations))


@cache
def engine_for(variant: Variant) -> Engine:
    return Engine(variant)


class Engine(TableauRules, FoundationRules, ReserveRules, StockRules, WasteRules, PairRules,
             AccordionRules, GapsRules):
    """A variant's rules, compiled: the mechanics' mixins (:mod:`.mechanics`, one module
    each) over the fields they share (:class:`~.mechanics.base.Rules`). The pieces and
    tables of a piece the variant lacks (``stock``, ``reserve``, ``tbuild``, ``gaps`` ...)
    are None, typed as present: each is read only where the variant has the piece."""

    def __init__(self, v: Variant) -> None:
        self.variant = v
        self.names = v.pile_names
        self.index = {n: i for i, n in enumerate(self.names)}
        self.groups = groups = PileGroups.of(self.names)
        # The groups' short names, for the engine's own loops.
        self.T, self.R, self.F = groups.tableau, groups.reserve, groups.foundations
        self.P, self.G = groups.pyramid, groups.grid
        self.S, self.W, self.X = groups.stock, groups.waste, groups.aside
        self.Tset, self.Rset, self.Fset = groups.tableau_set, groups.reserve_set, \
            groups.foundation_set
        self.TR = self.T + self.R
        self.deck_size = v.deck_size
        self.flip_piles = frozenset(self.T)
        self.last_t = self.T[-1] if self.T else -1
        # Each mechanic's pieces and tables (see its module).
        self._init_reserve(v)
        self._init_gaps(v)
        self._init_stock(v)
        self._init_tableau(v)
        self._init_foundations(v)
        self._init_waste(v)
        self._init_pairs(v)
        self._init_accordion(v)

        gens: list[Gen] = []
        if self.F and not self.complete_runs and not self.pairs:
            gens.append(self._gen_to_foundations)
        if self.complete_runs:
            gens.append(self._gen_discards)
        tab = self.tab
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
        # The kinds of move this variant's rules make, one per generator.
        self.mechanics: frozenset[Mechanic] = frozenset(
            g.mechanic for g in gens)  # type: ignore[attr-defined]  # set by _makes
        M = Mechanic
        mech = self.mechanics
        # Whether only the foundation and tableau moves lift cards off a tableau pile, and no
        # rule narrows the choice: then :meth:`gen_from` asks just those.
        self.plain_lifts = not (self.fill_first or self.strict_last or self.force_aces) \
            and mech <= {M.TO_FOUNDATIONS, M.TABLEAU, M.WASTE_TO_TABLEAU, M.STOCK_TO_SPACE,
                         M.RESERVE_TO_TABLEAU, M.FROM_FOUNDATIONS, M.FOUNDATION_TRANSFERS}
        self.lifts_to_f = M.TO_FOUNDATIONS in mech
        self.lifts_to_t = M.TABLEAU in mech
        # Whether the generators' moves are all the legal moves: no stock action to add, no
        # rule to narrow them (gen's fast path).
        self.gens_only = self.S < 0 and not self.gaps \
            and not (self.fill_first or self.strict_last or self.force_aces)
        # Whether a move between piles changes nothing but them, their face-down counts and
        # the idle flag (apply's fast path).
        self.plain_move = not (self.auto_discard or self.refill or self.autofill)
        # Whether the moves up to the foundations (from anywhere but a foundation) are just
        # :meth:`_gen_to_foundations`' (gen_up's fast path).
        self.plain_up = M.TO_FOUNDATIONS in mech and not (
            self.fill_first or self.strict_last or self.force_aces) \
            and not mech & {M.DISCARD_SUITS, M.PAIRS, M.FOLDS, M.GAPS}
        # The rules that narrow the choice, in the order they are asked (see _constrain).
        self._narrowers = tuple(narrow for on, narrow in (
            (self.strict_last, self._last_pass_narrows), (self.fill_first, self._spaces_first),
            (self.force_aces, self._aces_first)) if on)
        # The win rule (:mod:`.wins`) and its test, compiled for this engine.
        self.win_rule = win_rule(v)
        self.won = self.win_rule.compile(self)

    # ------------------------------------------------------------------ generation
    def gen(self, pos: Position) -> list[Raw]:
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

    def gen_talon(self, pos: Position) -> list[Raw]:
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
            if Mechanic.WASTE_TO_TABLEAU in self.mechanics:
                self._gen_waste_to_tableau(pos, out)
        if Mechanic.STOCK_TO_SPACE in self.mechanics:
            self._gen_stock_to_space(pos, out)
        if top != UNKNOWN and Mechanic.TO_RESERVE in self.mechanics \
                and "w" in self.reserve.sources:
            res = self.reserve
            if not (res.when == "stock-empty" and piles[S]) and \
                    not (res.when == "last-pass" and pos.pass_no < self.passes):
                out.extend((MOVE, W, 1, r) for r in self.R if not piles[r])
        if self.wbuild is not None and w:
            self._gen_onto_waste(pos, out)
        if self.can_stock(pos):
            out.append((STOCK, S, 0, -1))
        return out

    def gen_up(self, pos: Position) -> list[Raw]:
        """Only the legal moves that send a card up to a foundation from another pile: the
        same moves, in the same order, as filtering :meth:`gen`, without generating the rest
        (what the solver's safe moves look at)."""
        if not self.plain_up:
            F = self.Fset
            return [m for m in self.gen(pos) if m[0] == MOVE and m[3] in F and m[1] not in F]
        out: list[Raw] = []
        self._gen_to_foundations(pos, out)
        return out

    def gen_from(self, pos: Position, i: int) -> list[Raw]:
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

    def waste_mover(self, pos: Position) -> WasteMover | None:
        """For a scan through the stock from ``pos``: a function of the position that gives
        the same moves as :meth:`gen_talon` less the stock action, valid while only the stock,
        the waste and the pass state change (the tableau and foundations stay as in ``pos``),
        or None where the moves depend on more than the waste's top card. The foundations'
        and the tableau's tops are looked at once, not at every turn."""
        S, W = self.S, self.W
        if self.pairs or self.gaps or self.accordion or self.fill_first or self.strict_last \
                or self.force_aces or self.autofill or S < 0 or W < 0 \
                or Mechanic.STOCK_TO_SPACE in self.mechanics or self.wbuild is not None \
                or (Mechanic.TO_RESERVE in self.mechanics and "w" in self.reserve.sources):
            return None
        piles = pos.piles
        acc = self._foundation_map(piles) if self.F and not self.complete_runs else {}
        to_tableau = Mechanic.WASTE_TO_TABLEAU in self.mechanics
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
                live |= BIT[c]
            if to_tableau:
                tacc_mask = self.tacc_mask
                for _, t in tops:
                    if t >= 0:
                        live |= tacc_mask[t]
                    elif self.space == "kings":
                        live |= KINGS_MASK
                    else:
                        live |= ALL_MASK

        def moves(q: Position) -> list[Raw]:
            w = q.piles[W]
            if not w or w[-1] == UNKNOWN:
                return []
            return of(q, w[-1])

        def of_top(top: int) -> list[Raw]:
            return of(None, top) if live >> top & 1 else []

        def of(q: Position | None, top: int) -> list[Raw]:
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
                            # (q is None only where the space rule asks the card alone)
                            space_ok = space_takes(q, W, top)  # type: ignore[arg-type]
                        if space_ok:
                            out.append((MOVE, W, 1, j))
            return out

        mover: WasteMover = moves  # type: ignore[assignment]  # given its attributes here
        mover.of_top = of_top if pure else None
        mover.live = live if pure else None
        return mover

    def _constrain(self, pos: Position, out: list[Raw]) -> list[Raw]:
        """Rules that narrow the choice (each in its mechanic's module): Octave's turned
        card in the last pass, Gate's spaces first, aces up first."""
        for narrow in self._narrowers:
            moves = narrow(pos, out)
            if moves is not None:
                return moves
        return out

    def apply(self, pos: Position, m: Raw) -> None:
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
            # (pairs and folds applied here, not by a call into their modules: the call
            # costs ~50 ns a move, some 3% of a copy and apply in Wish)
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

    def card_of(self, pos: Position, m: Raw) -> int:
        """The card a move lifts (the bottom card of its unit); UNKNOWN for the stock."""
        kind, a, n, _ = m
        if kind in (MOVE, FOLD, PAIR) and a >= 0 and pos.piles[a]:
            return pos.piles[a][-n] if kind == MOVE else pos.piles[a][-1]
        return UNKNOWN

    def describe_card(self, code: int, symbols: bool = True) -> str:
        return code_text(code, symbols)

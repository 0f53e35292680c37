"""What the search derives once per variant from its pieces (:class:`Knowledge`, one per
variant through :func:`knowledge`): the pile groups, which shortcuts are sound, the tables the
other parts read. Its methods live with what they do: position keys and symmetry
(:mod:`.keys`), stuck cards (:mod:`.stuck`), safe moves (:mod:`.safe_moves`), supermoves
(:mod:`.supermoves`), move ordering (:mod:`.ordering`) and where the fast searches may run
(:mod:`.exhaustible`); its fields, with their types, are declared for them in :mod:`.derived`.

A variant piece this module does not know (a rule added later) switches the symmetries and the
automatic moves off for that variant: the search stays exact, only slower."""

from __future__ import annotations

from dataclasses import MISSING, fields
from functools import cache

from ..cards import RANK_TEXT
from ..rules.pieces import Stock
from ..rules.variant import Variant
from ..rules.wins import (
    ALL_TO_FOUNDATIONS,
    GAPS_ROWS,
    ONE_PILE,
    PYRAMID_EMPTY,
    TABLEAU_EMPTY,
    win_rule,
)
from .codes import _rank
from .exhaustible import Exhaustible
from .keys import Keys
from .ordering import Ordering
from .safe_moves import SafeMoves
from .stuck import StuckCards
from .supermoves import Supermoves

# Fields of the pieces whose meaning this module knows; any other field with a non-default value
# (a rule added later) turns the symmetries and the automatic moves off for that variant.
_KNOWN = {
    "Variant": {"key", "name", "summary", "decks", "ranks", "aliases", "source", "tableau",
                "foundations", "stock", "waste", "pairs", "pyramid", "accordion", "gaps",
                "aside", "deal", "win", "option_specs", "options", "notes", "reserve"},
    "Tableau": {"count", "build", "move", "space", "max_cards", "layout"},
    "Foundations": {"count", "base", "build", "max_cards", "returns", "complete_runs", "auto"},
    "Stock": {"deal", "draw", "passes", "no_empty_tableau", "turn_up"},
    "Reserve": {"count", "accepts", "sources", "move"},
    "Waste": {"build"},
    "Pairs": {"match", "total", "singles"},
    "Pyramid": {"rows"},
    "Accordion": {"reach"},
    "Gaps": {"rows", "columns", "redeals", "shuffle", "gap_rank"},
}
_KNOWN_SPACES = ("any", "kings", "none")
_KNOWN_WINS = (ALL_TO_FOUNDATIONS, TABLEAU_EMPTY, PYRAMID_EMPTY, ONE_PILE, GAPS_ROWS)


def _only_known(obj: object) -> bool:
    """Whether every field of ``obj`` outside the known set still has its default."""
    if obj is None:
        return True
    known = _KNOWN.get(type(obj).__name__)
    if known is None:
        return False
    for f in fields(obj):  # type: ignore[arg-type]  # (a piece: a dataclass)
        if f.name in known:
            continue
        if f.default is not MISSING:
            default = f.default
        elif f.default_factory is not MISSING:
            default = f.default_factory()
        else:
            return False
        if getattr(obj, f.name) != default:
            return False
    return True


class Knowledge(Keys, StuckCards, SafeMoves, Supermoves, Ordering, Exhaustible):
    """What the search derives once per variant from its pieces: pile groups, safe moves (the
    methods from the parts named in the bases)."""

    def __init__(self, variant: Variant) -> None:
        v = variant
        self.variant = v
        names = v.pile_names
        self.T = tuple(i for i, n in enumerate(names) if n[0] == "t")
        self.F = tuple(i for i, n in enumerate(names) if n[0] == "f")
        self.Tset = frozenset(self.T)
        self.Fset = frozenset(self.F)
        self.S = names.index("s") if "s" in names else -1
        self.W = names.index("w") if "w" in names else -1
        st: Stock = v.stock  # type: ignore[assignment]  # (read only where v.stock is set)
        self.unlimited = bool(v.stock) and st.passes == 0
        self.decks = v.decks

        known = (all(_only_known(x) for x in (v, v.tableau, v.stock, v.reserve, v.waste,
                                               v.pairs, v.pyramid, v.accordion, v.gaps))
                 and all(_only_known(f) for f in v.foundations) and win_rule(v) in _KNOWN_WINS)
        tab = v.tableau
        # Spaces filled from the stock or the waste (or at once, by rule) tie the tableau to
        # the stock: none of the shortcuts below is made for them.
        known = known and (tab is None or tab.space in _KNOWN_SPACES)
        positional = bool(v.pyramid or v.accordion or v.gaps)
        symmetric = known and tab is not None and not positional and tab.space in _KNOWN_SPACES
        stock_deals = bool(v.stock) and st.deal == "tableau"
        # The tableau piles are interchangeable when one rule governs them all; a stock that
        # deals one card to each pile in order breaks that while it has cards.
        self.sort_tableau = symmetric and not stock_deals
        self.sort_tableau_when_stock_empty = symmetric and stock_deals
        groups, k = [], 0
        for g in v.foundations:
            groups.append(self.F[k:k + g.count])
            k += g.count
        self.f_groups = tuple(grp for grp in groups if len(grp) > 1) if known else ()
        grouped = set(self.T) | {i for grp in self.f_groups for i in grp}
        self.fixed = tuple(i for i in range(len(names)) if i not in grouped)
        self.fixed_all = tuple(i for i in range(len(names)) if i not in
                               {j for grp in self.f_groups for j in grp})

        # Safe automatic moves to the foundations.
        self.auto = (known and tab is not None and bool(v.foundations) and not v.pairs
                     and not any(f.complete_runs for f in v.foundations) and not positional)
        self.returns = returns = any(f.returns for f in v.foundations)
        codes = [c for c in range(52) if _rank(c) in v.rank_values]
        self.needers: dict[int, tuple[int, ...]] = {}
        on = {c: tuple(u for u in codes if tab is not None and tab.build.allows(c, u))
              for c in codes}
        for c in codes:
            if not returns:
                self.needers[c] = on[c]
                continue
            # With cards coming back from the foundations, a card kept on the tableau may
            # be the base of a chain of returned cards that ends with a card from the
            # tableau: it is safe to send up only when every card that could be in such a
            # chain (what goes on it, what goes on those, ...) is on the foundations
            # already, for then anything built on it could only come from there.
            chain, todo = set(), list(on[c])
            while todo:
                u = todo.pop()
                if u not in chain:
                    chain.add(u)
                    todo.extend(on[u])
            self.needers[c] = tuple(sorted(chain))
        # Without returns, one deck: a card u that could be built on c does not hold c back
        # when nothing can be built on u any more (its own needers are up) and a foundation
        # takes u now: wherever a line would put u on c, u can go up instead, for then u
        # holds nothing, and the foundation keeps taking it (it only grows).
        self.harmless_needers = not returns and v.decks == 1
        sources = set(self.T)
        if self.auto and v.stock and st.deal == "waste" and st.draw == 1 \
                and st.passes == 0 and not st.turn_up and self.W >= 0:
            sources.add(self.W)
        self.auto_sources = frozenset(sources)
        # Pair games: a card removed on its own that pairs with no card (Pyramid's kings)
        # is removed as soon as it is free: it only ever covers cards.
        self.lone = frozenset()
        if known and v.pairs:
            singles = [c for c in codes if RANK_TEXT[_rank(c)] in v.pairs.singles]
            self.lone = frozenset(c for c in singles
                                  if not any(v.pairs.matches(c, x) for x in codes))
        # A pyramid to clear by pairs: a pyramid card whose every partner is gone, or is a
        # card that covers it or that it covers (they can never both be free), can never
        # leave, and the game is lost.
        self.partnerless = None
        if known and v.pairs and v.pyramid and win_rule(v) is PYRAMID_EMPTY:
            self.partnerless = self._partnerless_test(v, codes)
        # Accordion dealt card by card: dealing the next card to the end of the line changes
        # no pile a fold uses, and folding changes nothing the deal does, so any winning line
        # can deal every card first: dealing is a safe move.
        self.deal_first = known and v.accordion is not None and bool(v.stock) \
            and st.deal == "line" and st.passes == 1
        # Whether the safe moves (:meth:`safe_move`) are all moves up to the foundations, so
        # that the engine's moves up alone find them (``gen_up``).
        self.safe_up = not self.deal_first
        self.keep_piles_filled = bool(v.stock) and st.no_empty_tableau
        self.clear_tableau = win_rule(v) is TABLEAU_EMPTY
        self.narrowable = known and tab is not None and bool(self.F) and not v.pairs \
            and not any(f.complete_runs for f in v.foundations)
        self.tb = tab.build.table() if tab is not None else None  # type: ignore[assignment]
        # Supermoves: where one card moves at a time and any card may fill a space (no pile
        # limit, no rule that fills or empties piles by itself), a run of k cards (each
        # buildable on the one below) moves onto a pile that takes its lowest card through
        # e spaces as a chain of single legal moves whenever k <= 2^e (part of it parked
        # in a space through the other spaces, the rest moved through those, the parked
        # part put back on it): see :meth:`supermoves`.
        self.supermoves_ok = known and tab is not None and tab.move == "single" \
            and tab.space == "any" and not tab.max_cards
        self.dig = self.narrowable and v.decks == 1 and all(
            g.build.direction == "up" and g.build.suits == "same-suit" for g in v.foundations)
        # Only tableau piles (interchangeable, side by side) and one group of foundations
        # building up in suit from a base, one deck (Streets and Alleys): the tableau names
        # the foundations (see :meth:`key_for`).
        T = self.T
        self.tableau_names_all = self.dig and self.sort_tableau and len(v.foundations) == 1 \
            and len(T) + len(self.F) == len(names) and T[-1] - T[0] == len(T) - 1
        # What each foundation takes, from its piece (for move ordering only).
        self.f_accepts = {}
        if not v.pairs and not any(f.complete_runs for f in v.foundations):
            k = 0
            for g in v.foundations:
                base = tuple(c for c in codes if _rank(c) == g.base_rank)
                on_top = [tuple(u for u in codes if g.build.allows(t, u)) for t in range(53)]
                for f in self.F[k:k + g.count]:
                    self.f_accepts[f] = (base, on_top, g.max_cards)
                k += g.count
        self._needed = {}  # see :meth:`needed`
        # Turning the stock touches only the stock and the waste, and a move that touches
        # neither does not depend on them: such moves commute with the stock action. So the
        # search turns the stock only on the way to a move that uses the stock or the waste
        # (Klondike-Solver's talon moves), never to play a tableau move it could play first.
        self.talon = (self.S, self.W)
        talon_free = bool(v.foundations or v.pairs or v.reserve) or (
            tab is not None and (tab.build.direction != "none" or tab.space != "none"))
        self.macro = known and bool(v.stock) and st.deal == "waste" and self.S >= 0 \
            and talon_free
        # While scanning the stock, a move from the stock or waste depends on the tableau
        # only through each pile's top card (no pile limit, a plain space rule): the scan
        # runs on a probe whose tableau piles keep just their top card, which is cheaper.
        self.probe = self.macro and tab is not None and not tab.max_cards \
            and tab.space in _KNOWN_SPACES and not v.reserve
        # With unlimited passes and the waste turned over at each new pass, the talon is one
        # sequence (the waste bottom to top, then the stock top to bottom) and a pointer (the
        # waste's size); turning the stock moves only the pointer. From a position not idle,
        # the stock moves alone reach every pointer that is a multiple of the draw, or the end
        # (and from pointer p, p + draw, ...): positions that differ only in such a pointer
        # have the same moves after turning, so the key names them once (``talon_draw``).
        # Not from an idle position (the pass that would come back round ends the game).
        self.talon_draw = 0
        if self.macro and self.unlimited and self.W >= 0 and not v.pairs \
                and (v.waste is None or v.waste.build is None) and not st.turn_up:
            self.talon_draw = st.draw
        # Other pointers (p not a multiple of the draw, the stock not spent) reach p + draw,
        # p + 2 draw, ..., the end, then the multiples of the draw: everything the same
        # position with pointer p + draw reaches, and more. Such a position *dominates* the
        # one whose pointer is p + draw: the key names their class (the talon and p modulo
        # the draw) and the search keeps the least pointer met in each class
        # (:meth:`pointer`), skipping a position whose class was met with a pointer no
        # greater than its own.
        self.dominance = self.talon_draw > 1
        # A waste nothing ever leaves (Golf: no foundations, no building on the tableau, one
        # pass) matters only by its top card: the cards under it are out of play.
        self.sink = -1
        if known and self.W >= 0 and not v.foundations and not v.pairs and not v.reserve \
                and v.stock and st.passes == 1 and tab is not None \
                and tab.build.direction == "none" and tab.space == "none":
            self.sink = self.W
        # With such a sink and a stock that deals to it, cards only ever leave the tableau
        # and the stock, from the top: within one search a position is named by the piles'
        # heights (and face-down counts), the stock's height and the waste's top card.
        self.static = self.sink >= 0 and st.deal == "waste" and self.S >= 0
        self.heights = tuple(self.T) + (self.S,)

        # Where the waste is such a sink and the game is won by clearing the tableau (Golf),
        # a tableau card can leave only onto a waste card its rule accepts: a card left with
        # no such card still to come (in the stock, the waste's top, or on the tableau but
        # not beneath it) can never leave, and the game is lost. ``before[c]``: the cards
        # that ``c`` may be played onto.
        self.before: dict[int, tuple[int, ...]] | None = None
        if self.sink >= 0 and self.clear_tableau and v.waste is not None:
            wb = v.waste.build
            self.before = {c: tuple(d for d in codes if wb.allows(d, c))  # type: ignore[union-attr]
                           for c in codes}
        # Where a tableau card leaves only onto a card its build rule accepts (a parent), or
        # to its foundation once every card below it there has gone up (one deck, no cells,
        # a space only for a king or for nothing): ``parents[c]`` and ``below[c]`` for each
        # card that waits so (the foundation's base cards do not; a king waits for a space
        # too, where one may take it), for :meth:`stuck`.
        self.parents: dict[int, tuple[int, ...]] | None = None
        self.below: dict[int, tuple[int, ...]] = {}
        self.carried, self.face_up_units = None, False
        self.off_parents, self.space_king = None, False
        if self.dig and tab is not None and tab.space in ("kings", "none") and not v.reserve and not v.aside \
                and (not v.stock or st.redeal == "waste"):
            bases = {g.base_rank for g in v.foundations}
            takes = {c: tuple(d for d in codes if tab.build.allows(d, c)) for c in codes}
            self.parents = {c: takes[c] for c in codes if _rank(c) not in bases}
            # A card off the tableau that is one's parent is one only if it can come to lie
            # on the tableau: onto a parent of its own, or a king into a space. Up on a
            # foundation it never comes back where none returns (``off_parents``, else None:
            # such a parent is taken as one).
            if not any(f.returns for f in v.foundations):
                self.off_parents = takes
            self.space_king = tab.space == "kings"
            # ``carried(z, c)``: whether c, lying on z, may move along when z moves (a unit
            # of the move rule). A face-down card stays so while a card lies on it (only a
            # pile's top card is turned up), and units of these rules hold none:
            # ``face_up_units``.
            move, allows = tab.move, tab.build.allows
            self.face_up_units = move in ("run", "same-suit-run", "face-up-block",
                                          "face-up-block-only")
            if move == "single":
                self.carried = lambda z, c: False
            elif move == "run":
                self.carried = allows
            elif move == "same-suit-run":
                self.carried = lambda z, c: allows(z, c) and z // 13 == c // 13
            else:
                self.carried = lambda z, c: True
            for c in self.parents:
                chain, todo = set(), [c]
                while todo:
                    u = todo.pop()
                    if u != c and _rank(u) in bases:
                        continue
                    for d in codes:
                        if d not in chain and any(g.build.allows(d, u) for g in v.foundations):
                            chain.add(d)
                            todo.append(d)
                self.below[c] = tuple(sorted(chain))

        # The lean look (see :func:`_lean`): where foundations build up in suit from the
        # aces, one deck, a stock dealt to a waste, tableau piles building down.
        self.lean = self.dig and self.probe and self.W >= 0 and st.deal == "waste" \
            and not v.reserve and tab is not None and tab.build.direction == "down" \
            and all(g.base_rank == 1 for g in v.foundations) and bool(self.F)


@cache
def knowledge(variant: Variant) -> Knowledge:
    return Knowledge(variant)

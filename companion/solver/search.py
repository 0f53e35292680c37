"""The one solver: a depth-first search over the rules engine's positions and raw moves.

Nothing here knows a game's rules. Moves come from ``pos.raw_moves()``, are applied with
``pos.push_raw`` and taken back with ``pos.pop``; the goal is ``pos.is_won()``. Around that the
search adds the following, each derived from the variant's *data* (its pieces), never per game:

* a **transposition table** of canonical keys: interchangeable piles (the tableau piles when the
  rules treat them alike, the foundations of one group, so a two-deck game's equal foundations
  too) are sorted in the key, so mirror-image positions are searched once. With unlimited passes
  the key omits the pass count (as ``pos.key()`` does), so cycling the stock cannot loop;
  and where the waste is turned over at each pass, positions that differ only by turning
  the stock (from which the stock's moves reach the same cards) share one key;
* **safe automatic moves**: a card goes to its foundation at once when no card that could still
  be built on it remains outside the foundations (from the build rule), or (one deck, no
  returns) each such card would go up itself the moment it is free and holds nothing, so
  keeping it back can never help (where cards come back from the foundations: no card that
  could be built on it, or on those, and so on). From the waste only when turning one card
  with unlimited passes (otherwise taking a card out of the waste changes which cards later
  passes show). Accordion's next card is dealt at once (dealing and folding commute);
* **talon moves**: turning the stock touches only the stock and the waste, so it commutes with
  every move that touches neither; the search turns the stock only on the way to a move that
  uses the stock or the waste (as Klondike-Solver does), scanning a whole cycle at once. (A
  pass through the stock that changes nothing can be cut out of any line, so the rule that
  such a pass ends the game loses no win by this reordering.) The talon's states through a
  cycle depend on the talon alone, and are kept for each talon met;
* **move ordering**: foundation moves, moves that turn up a face-down card, uncover a card the
  foundations want, empty a pile or bring a card into play first; foundation-to-tableau moves
  last;
* a **portfolio**: narrow looks leave out moves that split a run without freeing a wanted card
  and cards coming back from the foundations: a depth-first one, a best-first one, a beam
  (best-first keeping the three most advanced children of each position, weighing the moves
  of the step that reached it and, where foundations build up in suit, the digging left)
  and a dive (the beam weighing every move played from the start instead); and where
  foundations build up in suit from the aces and a stock is dealt to a waste (Klondike),
  a **lean** look, Klondike-Solver's fast search (see :data:`LEAN_WIDTH`). They run
  interleaved with the full search, a slice of positions each in turn: each look finds wins
  the others need a hundred times longer for. A win any of them finds is a win; a narrow
  look's "lost" is not trusted (that look just stops), only the full search proves a loss;
* in an open game where foundations build up in suit, a second **whole search**, best-first by
  the cards' order (cards lying on a lower card of their suit, spaces), runs beside the
  depth-first one (only the depth-first one's "lost" is a proof); besides every single
  move it tries composite ones (as Freecell Solver's meta-moves do): the few cards above a
  card the foundations want moved off one by one onto piles that take them, then that card
  sent up; and the depth-first whole search runs a second time, restarted with its move
  order shaken on Luby's budgets (a **shaken** look: a win one order finds at once another
  may not find in minutes; a restart that ends within its budget has searched the whole
  space, so its "lost" is a proof too);
* **supermoves**: in such a game, where one card moves at a time and any card may fill a
  space, the depth-first searches (the whole one, and a narrow look beside it) also move
  a run as a unit (as Freecell Solver does): k cards through e spaces when k <= 2^e, as
  the chain of single legal moves that parks part of the run in the spaces and puts it
  back (every single move is still tried, so a loss stays proved);
* **stranded cards**: where tableau cards can only leave onto a waste nothing leaves (Golf), a
  card with no card still to come that it could be played onto makes the position lost;
* **moves that lead nowhere new** are left out before they are played: the reverse of the
  tableau move just made (when it turned nothing up), and a move into a second space when
  the spaces are interchangeable. The stock scan's result is kept for each probe (talon,
  top cards, foundations), so a probe seen before is not scanned again;
* **budgets** of time, nodes and memory (an estimate of the table's size).

The full search is depth-first by default; ``strategy="best"`` expands the most advanced
position first, ``strategy="beam"`` the same, weighing the moves of the step that reached a
position and the digging left, ``strategy="dive"`` the same weighing every move played from the
start (as whole searches they keep every child: only the narrow looks drop children).

Verdicts: ``won`` with the winning line (canonical texts that ``companion check`` replays),
``lost`` only with a proof (every reachable position searched, or cards that can never move:
``Knowledge.stuck``, looked at before any search), ``unknown`` when a budget ran out.
A variant piece this module does not know (a rule added later) switches the symmetries and the
automatic moves off for that variant: the search stays exact, only slower.
"""

from __future__ import annotations

import random
import time
from dataclasses import MISSING, dataclass, field, fields
from functools import cache, lru_cache
from operator import add, itemgetter

from ..cards import RANK_TEXT, UNKNOWN, code_text
from ..errors import CompanionError
from ..rules.engine import FOLD, MOVE, PAIR, STOCK, Mechanic
from ..rules.explain import win_test

WON, LOST, UNKNOWN_VERDICT = "won", "lost", "unknown"
VERDICTS = (WON, LOST, UNKNOWN_VERDICT)


class SolverError(CompanionError):
    """A position the solver cannot work on (say, cards not seen yet)."""


@dataclass(frozen=True)
class Limits:
    """Budgets of one search; ``None`` means no limit of that kind."""

    seconds: float | None = 10.0
    nodes: int | None = None
    memory_mb: float | None = 1024.0


@dataclass
class SolveResult:
    verdict: str
    """``won``, ``lost`` (proved) or ``unknown`` (a budget ran out)."""
    moves: list[str] = field(default_factory=list)
    """The winning line from the position given, in canonical notation (``won`` only)."""
    nodes: int = 0
    """Positions expanded."""
    states: int = 0
    """Distinct positions (canonical keys) stored."""
    seconds: float = 0.0
    reason: str = ""
    """Why the search stopped, in words."""
    raw: list = field(default_factory=list, repr=False)
    stuck: list = field(default_factory=list, repr=False)
    """``lost`` by cards that can never move: their places (see ``Knowledge.stuck``)."""

    @property
    def resolved(self) -> bool:
        return self.verdict in (WON, LOST)

    def to_json(self) -> dict:
        return {"verdict": self.verdict, "moves": self.moves, "length": len(self.moves),
                "nodes": self.nodes, "states": self.states,
                "seconds": round(self.seconds, 4), "reason": self.reason}


# -- what the search may assume about a variant --------------------------------------------------

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
_KNOWN_WINS = ("foundations", "tableau-empty", "pyramid-empty", "one-pile", "gaps-rows")


def _only_known(obj) -> bool:
    """Whether every field of ``obj`` outside the known set still has its default."""
    if obj is None:
        return True
    known = _KNOWN.get(type(obj).__name__)
    if known is None:
        return False
    for f in fields(obj):
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


class Knowledge:
    """What the search derives once per variant from its pieces: pile groups, safe moves."""

    def __init__(self, variant):
        v = variant
        self.variant = v
        names = v.pile_names
        self.T = tuple(i for i, n in enumerate(names) if n[0] == "t")
        self.F = tuple(i for i, n in enumerate(names) if n[0] == "f")
        self.Tset = frozenset(self.T)
        self.Fset = frozenset(self.F)
        self.S = names.index("s") if "s" in names else -1
        self.W = names.index("w") if "w" in names else -1
        self.unlimited = bool(v.stock) and v.stock.passes == 0
        self.decks = v.decks

        known = (all(_only_known(x) for x in (v, v.tableau, v.stock, v.reserve, v.waste,
                                               v.pairs, v.pyramid, v.accordion, v.gaps))
                 and all(_only_known(f) for f in v.foundations) and v.win in _KNOWN_WINS)
        tab = v.tableau
        # Spaces filled from the stock or the waste (or at once, by rule) tie the tableau to
        # the stock: none of the shortcuts below is made for them.
        known = known and (tab is None or tab.space in _KNOWN_SPACES)
        positional = bool(v.pyramid or v.accordion or v.gaps)
        symmetric = known and tab is not None and not positional and tab.space in _KNOWN_SPACES
        stock_deals = bool(v.stock) and v.stock.deal == "tableau"
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
        if self.auto and v.stock and v.stock.deal == "waste" and v.stock.draw == 1 \
                and v.stock.passes == 0 and not v.stock.turn_up and self.W >= 0:
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
        if known and v.pairs and v.pyramid and v.win == "pyramid-empty":
            self.partnerless = self._partnerless_test(v, codes)
        # Accordion dealt card by card: dealing the next card to the end of the line changes
        # no pile a fold uses, and folding changes nothing the deal does, so any winning line
        # can deal every card first: dealing is a safe move.
        self.deal_first = known and v.accordion is not None and bool(v.stock) \
            and v.stock.deal == "line" and v.stock.passes == 1
        # Whether the safe moves (:meth:`safe_move`) are all moves up to the foundations, so
        # that the engine's moves up alone find them (``gen_up``).
        self.safe_up = not self.deal_first
        self.keep_piles_filled = bool(v.stock) and v.stock.no_empty_tableau
        self.clear_tableau = v.win == "tableau-empty"
        self.narrowable = known and tab is not None and bool(self.F) and not v.pairs \
            and not any(f.complete_runs for f in v.foundations)
        self.tb = tab.build.table() if tab is not None else None
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
        self.f_accepts: dict[int, tuple] = {}
        if not v.pairs and not any(f.complete_runs for f in v.foundations):
            k = 0
            for g in v.foundations:
                base = tuple(c for c in codes if _rank(c) == g.base_rank)
                on_top = [tuple(u for u in codes if g.build.allows(t, u)) for t in range(53)]
                for f in self.F[k:k + g.count]:
                    self.f_accepts[f] = (base, on_top, g.max_cards)
                k += g.count
        self._needed: dict[tuple, frozenset[int]] = {}  # see :meth:`needed`
        # Turning the stock touches only the stock and the waste, and a move that touches
        # neither does not depend on them: such moves commute with the stock action. So the
        # search turns the stock only on the way to a move that uses the stock or the waste
        # (Klondike-Solver's talon moves), never to play a tableau move it could play first.
        self.talon = (self.S, self.W)
        talon_free = bool(v.foundations or v.pairs or v.reserve) or (
            tab is not None and (tab.build.direction != "none" or tab.space != "none"))
        self.macro = known and bool(v.stock) and v.stock.deal == "waste" and self.S >= 0 \
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
                and (v.waste is None or v.waste.build is None) and not v.stock.turn_up:
            self.talon_draw = v.stock.draw
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
                and v.stock and v.stock.passes == 1 and tab is not None \
                and tab.build.direction == "none" and tab.space == "none":
            self.sink = self.W
        # With such a sink and a stock that deals to it, cards only ever leave the tableau
        # and the stock, from the top: within one search a position is named by the piles'
        # heights (and face-down counts), the stock's height and the waste's top card.
        self.static = self.sink >= 0 and v.stock.deal == "waste" and self.S >= 0
        self.heights = tuple(self.T) + (self.S,)

        # Where the waste is such a sink and the game is won by clearing the tableau (Golf),
        # a tableau card can leave only onto a waste card its rule accepts: a card left with
        # no such card still to come (in the stock, the waste's top, or on the tableau but
        # not beneath it) can never leave, and the game is lost. ``before[c]``: the cards
        # that ``c`` may be played onto.
        self.before: dict[int, tuple[int, ...]] | None = None
        if self.sink >= 0 and self.clear_tableau and v.waste is not None:
            wb = v.waste.build
            self.before = {c: tuple(d for d in codes if wb.allows(d, c)) for c in codes}
        # Where a tableau card leaves only onto a card its build rule accepts (a parent), or
        # to its foundation once every card below it there has gone up (one deck, no cells,
        # a space only for a king or for nothing): ``parents[c]`` and ``below[c]`` for each
        # card that waits so (the foundation's base cards do not; a king waits for a space
        # too, where one may take it), for :meth:`stuck`.
        self.parents: dict[int, tuple[int, ...]] | None = None
        self.below: dict[int, tuple[int, ...]] = {}
        self.carried, self.face_up_units = None, False
        self.off_parents, self.space_king = None, False
        if self.dig and tab.space in ("kings", "none") and not v.reserve and not v.aside \
                and (not v.stock or v.stock.redeal == "waste"):
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
        self.lean = self.dig and self.probe and self.W >= 0 and v.stock.deal == "waste" \
            and not v.reserve and tab.build.direction == "down" \
            and all(g.base_rank == 1 for g in v.foundations) and bool(self.F)

    def _partnerless_test(self, v, codes):
        from ..rules.engine import engine_for
        eng = engine_for(v)
        P = eng.groups.pyramid
        slot = {i: k for k, i in enumerate(P)}
        blockers: list[set[int]] = [set() for _ in P]  # piles that must go before slot k is free
        for k in reversed(range(len(P))):
            for j in eng.cover[k]:
                blockers[k].add(j)
                blockers[k] |= blockers[slot[j]]
        tied = {i: frozenset(blockers[k]) | frozenset(P[x] for x in range(len(P))
                                                     if P[k] in blockers[x])
                for k, i in enumerate(P)}
        partners = {c: tuple(d for d in codes if v.pairs.matches(c, d)) for c in codes}
        lone = self.lone
        F = self.F

        def partnerless(pos, everything=False) -> bool:
            """Whether a pyramid card has no partner left; after the start, only the
            partners of the last pair removed (the last two cards on the foundations that
            are not lone cards) are looked at: only a removal takes a partner away."""
            piles = pos.piles
            gone = set()
            for f in F:
                gone.update(piles[f])
            if everything:
                look = None
            else:
                last = [c for c in reversed(piles[F[-1]]) if c not in lone][:2] if F else []
                look = {d for c in last for d in partners[c]}
                if not look:
                    return False
            where = {piles[i][0]: i for i in P if piles[i]}
            for c, i in where.items():
                if c in lone or (look is not None and c not in look):
                    continue
                near = tied[i]
                for d in partners[c]:
                    if d in gone:
                        continue
                    j = where.get(d)
                    if j not in near or not (chained(piles, i, j) or chained(piles, j, i)):
                        break
                else:
                    return True
            return False

        def chained(piles, i, j) -> bool:
            # Whether j lies on i through cards still there, each covering the one before:
            # then i is free only once j has gone. (In a position reached by play from a
            # whole pyramid, every card that ``tied`` names is so; a position typed in may
            # have gaps that play could not make.)
            todo, met = [i], set()
            while todo:
                for x in eng.cover[slot[todo.pop()]]:
                    if piles[x] and x not in met:
                        if x == j:
                            return True
                        met.add(x)
                        todo.append(x)
            return False

        return partnerless

    # -- provable losses --------------------------------------------------------------------------
    def stuck(self, pos) -> list[tuple[int, int]]:
        """Cards of the tableau, the stock or the waste that can never move (the game is
        lost while one is left), as (pile, height) places; [] where none is found or the
        test does not apply.

        A card moves onto a parent (a card that takes it) lying uncovered, or to its
        foundation once every card below it there has gone up, or along with the card it
        lies on, when the move rule carries it (a run moved from beneath it). Take a set of
        cards that never move: a card beneath one of them is never uncovered (it could move
        only with the cards on it), and never goes up. A parent in the stock or the waste
        comes to the tableau only onto a parent of its own (or, a king, into a space), and
        one up on a foundation never comes back (where none returns). So a card of the set
        can never move when each of its parents lies beneath one of the set, or is up, or
        is off the tableau with each of its own so (and no space for it), or is of the set;
        some card below it on its foundation is of the set or lies beneath one of it; and
        the card it lies on is of the set or would not carry it. (A card of the stock or the
        waste may be of the set: it never leaves them. A king, where a space takes one, may
        be of the set while every tableau pile holds a card of the set: no pile can then be
        emptied.) The largest such set is found by dropping, from all the cards that wait
        (see ``parents``), each one with a way out, until none is left to drop; if any card
        is left, none of them ever moves (the lowest of them to move first would have had a
        way out), and the game is lost. The simplest case: Klondike's 10♥ dealt above 9♥, J♠ and J♣ in its own pile. Klondike
        deals 1-1000: 37 found so (the same with draw 1 and 3), among them 39, 166, 167 and
        183, which with draw 1 our searches do not settle at 5 s (nor Klondike-Solver the
        first three)."""
        parents = self.parents
        if parents is None:
            return []
        piles = pos.piles
        where = {}
        for i in self.T:
            for h, c in enumerate(piles[i]):
                where[c] = (i, h)
        held = {c for c in where if c in parents}
        off = self.off_parents
        up = set()
        talon = {}
        if off is not None:
            for f in self.F:
                up.update(piles[f])
            # the stock's and the waste's cards too: one leaves only onto a parent or up
            for i in self.talon:
                if i >= 0:
                    for h, c in enumerate(piles[i]):
                        talon[c] = (i, h)
            held.update(c for c in talon if c in parents)

        def buried(e) -> bool:  # on the tableau, beneath a card of ``held``
            w = where.get(e)
            return w is not None and not held.isdisjoint(piles[w[0]][w[1] + 1:])

        def closed(p) -> bool:  # a parent no card will ever be put on
            if p in where:
                return buried(p)
            if off is None:
                return False
            if p in up or p in held:
                return True
            # in the stock or the waste: it may come to the tableau
            return not (space and _rank(p) == 13) and all(q in up or buried(q) for q in off[p])

        below, carried, face_up, down = self.below, self.carried, self.face_up_units, pos.down
        T = self.T
        changed = True
        while changed and held:
            changed = False
            # a space may come only where no pile holds a card of the set
            space = self.space_king and any(held.isdisjoint(piles[i]) for i in T)
            for c in list(held):
                z = None
                if c in where:
                    i, h = where[c]
                    if h and (h > down[i] or not face_up):
                        z = piles[i][h - 1]
                if (space and _rank(c) == 13) or not all(map(closed, parents[c])) or not any(
                        d in held or buried(d) for d in below[c] if d in where or d in talon) \
                        or (z is not None and z not in held and carried(z, c)):
                    held.discard(c)
                    changed = True
        return sorted(where.get(c) or talon[c] for c in held)

    def strander(self, root):
        """For a search from ``root``: a test of whether the position it is given (reached
        from an earlier one that passed it, by one move) has a tableau card that can never
        leave (see ``before``), which makes it lost; None where the test does not apply.

        Cards never move between the piles here (no building, no spaces), so each tableau
        card keeps its pile and height from ``root``, and each stock card its place: whether
        a card is still there is a length comparison. A card's chances only shrink when a
        waste card is covered or a card is played, so only the cards that could go on
        those two are looked at (all of them at the start)."""
        if self.partnerless is not None:
            return self.partnerless
        before = self.before
        if before is None or self.macro or self.auto:
            return None
        S, W = self.S, self.W
        loc = {c: (i, h) for i in self.T for h, c in enumerate(root.piles[i])}
        in_stock = {c: h for h, c in enumerate(root.piles[S])} if S >= 0 else {}
        after: dict[int, list[int]] = {}
        for c in loc:
            for d in before[c]:
                after.setdefault(d, []).append(c)

        def lost_card(piles, c, top) -> bool:
            # When c leaves, the waste's top is: the card that was on c (played last from
            # c's pile), or a card played after it from another pile or the stock; or, if c
            # is uncovered now, the waste's top card now.
            i, h = loc[c]
            n = len(piles[i])
            if n <= h:
                return False  # gone already
            for d in before[c]:
                if d == top and n == h + 1:
                    return False
                k = in_stock.get(d)
                if k is not None and k < len(piles[S]):
                    return False
                w = loc.get(d)
                if w is not None and len(piles[w[0]]) > w[1] and (w[0] != i or w[1] == h + 1):
                    return False
            return True

        def stranded(pos, everything=False) -> bool:
            piles = pos.piles
            waste = piles[W]
            top = waste[-1] if waste else None
            if everything:
                return any(lost_card(piles, c, top) for c in loc)
            # The card just covered is no longer a top to play onto; the card just played
            # has left its pile (or the stock), where it was one to come.
            if len(waste) >= 2 and any(lost_card(piles, c, top) for c in after.get(waste[-2], ())):
                return True
            return top is not None and any(lost_card(piles, c, top) for c in after.get(top, ()))

        return stranded

    # -- canonical key --------------------------------------------------------------------------
    def key(self, pos) -> bytes:
        # Each pile is its card codes (all below 128) and then one byte of 128 + its
        # face-down count, which ends it; the number of piles is fixed, so the joined
        # bytes name one position (up to the symmetries) and are cheap to build.
        piles, down, ends = pos.piles, pos.down, _ENDS
        if self.static:
            return bytes([len(piles[i]) for i in self.heights]) + \
                bytes([down[i] for i in self.heights]) + bytes(piles[self.W][-1:]) + \
                bytes((min(pos.pass_no, 255), pos.idle))
        sort_t = self.sort_tableau or (self.sort_tableau_when_stock_empty and not piles[self.S])
        if sort_t:
            parts = [bytes(piles[i]) + ends[down[i]] for i in self.T]
            parts.sort()
            rest = self.fixed
        else:
            parts = []
            rest = self.fixed_all
        for grp in self.f_groups:
            group = [bytes(piles[i]) + ends[down[i]] for i in grp]
            group.sort()
            parts += group
        sink = self.sink
        # The talon as one sequence, its pointer left out (see ``talon_draw``), where the
        # stock's moves reach the same cards; 255 ends it (no pile's end byte is that high),
        # where a stock and a waste would end twice.
        S, W = self.S, self.W
        one_talon = False
        if self.talon_draw and not pos.idle:
            stock, waste = piles[S], piles[W]
            one_talon = down[S] == len(stock) and not down[W]
            if one_talon and stock:
                r = len(waste) % self.talon_draw
                one_talon = 255 - r if not r or self.dominance else 0
            elif one_talon:
                one_talon = 255
        for i in rest:
            if one_talon and i in (S, W):
                if i == S:  # the class of a dominance (see ``dominance``) ends 255 - p % draw
                    parts.append(bytes(piles[W]) + bytes(piles[S][::-1]) + _ENDS[one_talon - 128])
                continue
            p = piles[i] if i != sink else piles[i][-1:]
            parts.append(bytes(p) + ends[down[i]])
        # The last byte: idle (1) or not (0), or 2 for the class of a dominance.
        parts.append(bytes((0 if self.unlimited else min(pos.pass_no, 255),
                            2 if 252 < one_talon < 255 else pos.idle)))
        return b"".join(parts)

    # -- mirrors --------------------------------------------------------------------------------
    @property
    def has_mirrors(self) -> bool:
        """Whether some piles are ever interchangeable (see :meth:`mirror_groups`)."""
        return self.sort_tableau or self.sort_tableau_when_stock_empty or bool(self.f_groups)

    def mirror_groups(self, pos) -> tuple:
        """The groups of interchangeable piles of ``pos``, as :meth:`key` sorts them: the
        tableau where one rule governs all its piles (and no stock still deals to them in
        order), and each group of foundations with more than one pile."""
        return self._mirrors(pos)[0]

    def _mirrors(self, pos) -> tuple:
        """:meth:`mirror_groups` and the piles outside them."""
        piles = pos.piles
        if self.sort_tableau or (self.sort_tableau_when_stock_empty and not piles[self.S]):
            return ((self.T,) + self.f_groups, self.fixed)
        return (self.f_groups, self.fixed_all)

    def mirror_key(self, pos) -> bytes:
        """``pos`` up to a renaming of the piles within each of its :meth:`mirror_groups`,
        exact in all else: two positions have the same mirror key exactly when such a renaming
        turns one into the other (the same moves then win both, their piles renamed).
        :meth:`key` names the same positions alike, and may name more alike (a talon's
        pointer, a sink's buried cards), which no renaming of piles gives."""
        piles, down, ends = pos.piles, pos.down, _ENDS
        groups, rest = self._mirrors(pos)
        parts = [_BYTE[len(groups)]]  # (whether the tableau is a group: the parts' order)
        for grp in groups:
            parts += sorted([bytes(piles[i]) + ends[down[i]] for i in grp])
        parts += [bytes(piles[i]) + ends[down[i]] for i in rest]
        parts.append(bytes((0 if self.unlimited else min(pos.pass_no, 255), pos.idle)))
        return b"".join(parts)

    def mirror_key_for(self, root):
        """:meth:`mirror_key` for the positions reached from ``root``, or where the tableau
        names them (:meth:`key_for`), the cheaper key of the tableau alone: there it names
        the same positions alike (no face-down card, no stock, foundations interchangeable)."""
        return self.key_for(root) if self._tableau_keyed(root) else self.mirror_key

    def key_for(self, root):
        """The canonical key for the positions of a search from ``root``: :meth:`key`, or
        where the tableau names the whole position, a cheaper key of the tableau alone.

        That is where the piles are the tableau and one group of foundations building up in
        suit from a base card, one deck (``tableau_names_all``), and ``root`` has no face-down
        card, is not idle and each foundation holds a chain from its base as its rule builds
        it. Then so does every position reached from it, with the same cards: those not on
        the tableau are on the foundations, each suit's in one pile (one base card per suit),
        in the one order the chain allows; with the foundations interchangeable in the key,
        their piles are named by the tableau. No stock, so nothing else changes."""
        if not self._tableau_keyed(root):
            return self.key
        lo, hi = self.T[0], self.T[-1] + 1
        end = _ENDS[0]

        def key(pos) -> bytes:
            # Each pile's codes (below 128), sorted, joined by a byte of 128.
            return end.join(sorted(map(bytes, pos.piles[lo:hi])))

        return key

    def child_key_for(self, root):
        """Where :meth:`key_for` keys the tableau alone and a move between piles changes
        nothing but them: a function of (position, move between two tableau piles) giving the
        key of the position the move leads to, without playing it (the search skips a move
        to a position met before at that cost alone). Else None."""
        if not self._tableau_keyed(root) or not root.engine.plain_move:
            return None
        lo, hi = self.T[0], self.T[-1] + 1
        end = _ENDS[0]

        def child_key(pos, m) -> bytes:
            _, a, n, b = m
            piles = pos.piles
            tab = piles[lo:hi]
            src = piles[a]
            tab[a - lo] = src[:-n]
            tab[b - lo] = piles[b] + src[-n:]
            return end.join(sorted(map(bytes, tab)))

        return child_key

    def _tableau_keyed(self, root) -> bool:
        """Whether the tableau alone names the positions of a search from ``root`` (see
        :meth:`key_for`)."""
        if not self.tableau_names_all or root.idle or any(root.down):
            return False
        piles = root.piles
        for f, (base, on_top, most) in self.f_accepts.items():
            p = piles[f]
            if len(p) > most or (p and p[0] not in base) \
                    or any(p[k + 1] not in on_top[p[k]] for k in range(len(p) - 1)):
                return False
        return True

    def exhaustible(self, root) -> bool:
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
                and self.variant.win == "foundations" and self.decks == 1
                and len(eng.names) == len(self.T) + len(self.F))

    def talon_exhaustible(self, root) -> bool:
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
                and v.stock.deal == "waste" and v.stock.redeal == "waste"
                and not v.stock.no_empty_tableau and v.stock.draw == self.talon_draw
                and v.win == "foundations" and not self.lone and not self.deal_first
                and len(eng.names) == len(self.T) + len(self.F) + 2
                and not root.idle and root.down[S] == len(root.piles[S]) and not root.down[W])

    def sink_exhaustible(self, root, max_bytes: float | None = None) -> bool:
        """Whether a whole search from ``root`` may run as :func:`_exhaust_sink`: a Golf-like
        game (``static``: a waste nothing leaves, fed by a stock turned one card at a time in
        a single pass; won when the tableau is cleared) whose engine moves are exactly a
        tableau pile's top card onto the waste where the waste's build table takes it, and
        the stock's turn; every tableau card face up, a card on the waste, and the search's
        table of positions met (one bit each, :func:`_sink_size`) within ``max_bytes``."""
        eng = root.engine
        v = self.variant
        S, W = self.S, self.W
        if not (self.static and self.before is not None and eng.plain_move
                and eng.mechanics == {Mechanic.ONTO_WASTE}
                and not (eng.fill_first or eng.strict_last or eng.force_aces)
                and len(eng.names) == len(self.T) + 2
                and v.stock.draw == 1 and v.stock.per_pile == 1 and v.stock.passes == 1
                and not v.stock.turn_up and not v.stock.no_empty_tableau
                and root.pass_no >= 1 and not root.idle
                and root.piles[W] and not root.down[W]
                and not any(root.down[i] for i in self.T)):
            return False
        bits = _sink_size([len(root.piles[i]) for i in self.T], len(root.piles[S]),
                          len(_sink_classes(eng)[1]))
        return bits <= SINK_MAX_BITS and (max_bytes is None or bits / 8 <= max_bytes)

    def line_exhaustible(self, root) -> bool:
        """Whether a whole search from ``root`` may run as :func:`_exhaust_line`: an
        Accordion-like game won at one pile, whose engine moves are exactly a pile of the line
        onto one a reach to its left (as its fold table says) and, where cards are dealt
        one at a time onto the line's end in a single pass, the deal (``deal_first``); no
        card unknown, and the whole deck there."""
        eng = root.engine
        v = self.variant
        return (v.accordion is not None and v.win == "one-pile" and eng.fold_table is not None
                and eng.mechanics == {Mechanic.FOLDS}
                and not (eng.fill_first or eng.strict_last or eng.force_aces)
                and len(eng.names) == len(eng.groups.pyramid) + (self.S >= 0)
                and (self.deal_first or self.S < 0 or not root.piles[self.S])
                and not has_unknown_cards(root)
                and sum(len(p) for p in root.piles) == eng.deck_size)  # (won: all in one)

    def pairs_exhaustible(self, root) -> bool:
        """Whether a whole search from ``root`` may run as :func:`_exhaust_pairs`: a
        Pyramid-like game won when the pyramid is cleared, whose engine moves are exactly the
        removals of free cards (a pair its match table takes, or one card alone) and the
        stock's turn, the stock turned up one card at a time onto a waste and turned over
        without end (the pointer then reaches every card); no card unknown, and not idle (a
        pass under way with nothing removed since the last turn-over)."""
        eng = root.engine
        groups = eng.groups
        v = self.variant
        st = v.stock
        return (bool(v.pairs) and bool(v.pyramid) and v.win == "pyramid-empty"
                and eng.mechanics == {Mechanic.PAIRS}
                and not groups.tableau and not groups.reserve and len(groups.foundations) == 1
                and len(eng.names) == len(groups.pyramid) + 3 and self.S >= 0 and self.W >= 0
                and st.deal == "waste" and st.draw == 1 and st.turn_up and st.passes == 0
                and st.redeal == "waste" and st.reserve_on_redeal == 0
                and not (eng.fill_first or eng.strict_last or eng.force_aces)
                and not root.idle and not has_unknown_cards(root))

    def pyramid_talon_exhaustible(self, root) -> bool:
        """Whether a whole search from ``root`` may run as :func:`_exhaust_pyramid`: the
        Pyramid of :meth:`pairs_exhaustible` with its passes through the stock limited (the
        talon's order matters there), won when the pyramid is cleared or when every card is
        removed, or with its passes unlimited and won when every card is removed (not idle
        then, as there); no card unknown."""
        eng = root.engine
        groups = eng.groups
        v = self.variant
        st = v.stock
        return (bool(v.pairs) and bool(v.pyramid) and v.win in ("pyramid-empty", "foundations")
                and eng.mechanics == {Mechanic.PAIRS}
                and not groups.tableau and not groups.reserve and len(groups.foundations) == 1
                and len(eng.names) == len(groups.pyramid) + 3 and self.S >= 0 and self.W >= 0
                and st.deal == "waste" and st.draw == 1 and st.turn_up
                and (st.passes > 0 or (v.win == "foundations" and not root.idle))
                and st.redeal == "waste" and st.reserve_on_redeal == 0
                and not (eng.fill_first or eng.strict_last or eng.force_aces)
                and all(len(root.piles[i]) <= 1 for i in groups.pyramid)
                and not root.down[self.W] and not has_unknown_cards(root))

    def pointer(self, pos) -> int:
        """The talon's pointer (the waste's size) of a position whose key names a class of
        a dominance (see ``dominance``; such a key ends with 2), else -1."""
        return len(pos.piles[self.W]) if self.key(pos)[-1] == 2 else -1

    # -- safe moves -------------------------------------------------------------------------------
    def safe_move(self, pos, moves):
        """A move of ``moves`` that sends a card up which nothing can still need (or, in
        Accordion, deals the next card), or None."""
        if self.deal_first:
            for m in moves:
                if m[0] == STOCK:
                    return m
        if self.lone:
            for m in moves:
                if m[0] == MOVE and m[3] in self.Fset and pos.piles[m[1]][-1] in self.lone:
                    return m
        if not self.auto:
            return None
        piles = pos.piles
        onf = takes = None
        Fset, sources = self.Fset, self.auto_sources
        for m in moves:
            if m[0] != MOVE or m[3] not in Fset or m[1] not in sources:
                continue
            src = piles[m[1]]
            c = src[-1]
            need = self.needers.get(c, (UNKNOWN,))
            if need:
                if UNKNOWN in need:
                    continue
                if onf is None:
                    onf = bytearray(53)
                    for f in self.F:
                        for x in piles[f]:
                            onf[x] += 1
                if any(onf[u] < self.decks for u in need):
                    if not self.harmless_needers:
                        continue
                    if takes is None:
                        takes = self.needed(pos)
                    needers = self.needers
                    if any(not onf[u] and (u not in takes or any(not onf[x] for x in needers[u]))
                           for u in need):
                        continue
            if self.keep_piles_filled and len(src) == 1 and m[1] in self.Tset:
                continue
            return m
        return None

    # -- supermoves -------------------------------------------------------------------------------
    def supermoves(self, pos, first_space_only: bool) -> list[tuple[tuple, tuple]]:
        """The runs of two cards or more that may move as a unit through the spaces (see
        ``supermoves_ok``): each as (the unit move, for scoring; the single raw moves that
        make it, each legal where it is played). Into a space, one of them (the first)
        when ``first_space_only``; never a whole pile into a space (nothing changes)."""
        piles, down, tb, T = pos.piles, pos.down, self.tb, self.T
        onto = pos.engine.onto_mask  # each card's mask of the codes it may go on
        if all(map(piles.__getitem__, T)):
            return []  # no space
        empties = [j for j in T if not piles[j]]
        # The tops as a bit mask of their codes, and each top card's pile: one deck
        # (``dig``), so the tops are distinct.
        tops, at = 0, [0] * 53
        for j in T:
            q = piles[j]
            if q and q[-1] != UNKNOWN:  # (nothing is built on an unnamed card)
                tops |= 1 << q[-1]
                at[q[-1]] = j
        out = []
        all_free = tuple(empties)
        most = 1 << len(empties)  # the most cards a run may move onto a card
        # Each space a run may go into, with the other spaces (it moves through them).
        spaces = [(j, tuple([x for x in empties if x != j]))
                  for j in (empties[:1] if first_space_only else empties)]
        for i in T:
            p = piles[i]
            n = len(p)
            r, lowest = 1, n - down[i]
            while r < lowest and tb[p[-r - 1]][p[-r]]:
                r += 1
            if r < 2:
                continue
            # (target, cards, spaces to move them through): each unit's card looked up
            # among the tops it may go on, then sorted to the order of the targets.
            units = []
            for k in range(2, min(r, most) + 1):
                hit = onto[p[-k]] & tops
                while hit:  # each top it may go on
                    j = at[(hit & -hit).bit_length() - 1]
                    hit &= hit - 1
                    if j != i:
                        units.append((j, k, all_free))
            for j, free in spaces:
                for k in range(2, min(r, 1 << len(free), n - 1) + 1):
                    units.append((j, k, free))
            if len(units) > 1:
                units.sort()  # (no two alike in target and size: the spaces never compared)
            for j, k, free in units:
                out.append(((MOVE, i, k, j), _chain(i, k, j, free)))
        return out

    # -- ordering ---------------------------------------------------------------------------------
    def progress(self, pos, measure: str = "plain") -> int:
        """Lower is more advanced: cards not on the foundations, face-down cards (twice), and
        for a game won by clearing the tableau, the cards left on it. Where foundations
        build up in suit, two measures of the work left can be added:

        * ``dig`` (the beam's and the dive's): each card of a pile with face-down cards
          that lies under a lower card of its own suit counts once more: the digging left.
          (On 40 Klondike deals each of draw 1 and 3, a best-first look using it won 63
          within 20,000 positions against 53 without.)
        * ``order``: each card lying on a lower card of its own suit (which must leave
          before that one can go up) counts once more, and each empty tableau pile counts
          two less. (On Streets and Alleys deals 1-20, a best-first search using it won 7
          within 20,000 positions, against 1 without.)
        """
        piles, down = pos.piles, pos.down
        p = -sum(len(piles[f]) for f in self.F)
        if not self.dig:
            measure = "plain"
        for i in self.T:
            d = down[i]
            if d:
                p += 2 * d
                if measure == "dig":
                    low = [13, 13, 13, 13]
                    for c in reversed(piles[i]):
                        s, r = c // 13, c % 13
                        if r > low[s]:
                            p += 1
                        else:
                            low[s] = r
            if measure == "order":
                if not piles[i]:
                    p -= 2
                    continue
                p += _disorder(piles[i])
        if self.clear_tableau:
            p += sum(len(piles[i]) for i in self.T)
        return p

    def moves_left(self, pos) -> int:
        """The lean look's estimate of the moves a win still takes (Klondike-Solver's
        ``MinimumMovesLeft``, in outline): each card in the stock, each turn of the stock
        left in this pass, each card in the waste, each tableau card and face-down card (a
        face-down card twice: turned, then moved), and once more each card of the waste
        lying above a lower card of its own suit, and each card of a pile with face-down
        cards lying beneath a lower card of its own suit (the digging of :meth:`progress`)."""
        piles, down = pos.piles, pos.down
        st = len(piles[self.S])
        draw = self.variant.stock.draw
        left = st + (st + draw - 1) // draw
        w = piles[self.W]
        left += len(w) + _disorder(w)
        for i in self.T:
            p = piles[i]
            d = down[i]
            left += len(p) + d
            if d:
                left += _disorder(p[::-1])
        return left

    def lean_key(self, pos) -> bytes:
        """The lean look's key: the tableau (piles interchangeable), the foundations'
        heights and the pass; not the talon (as Klondike-Solver's: a position met again
        with its talon turned otherwise is met again, unless by a shorter line)."""
        piles, down, ends = pos.piles, pos.down, _ENDS
        parts = sorted([bytes(piles[i]) + ends[down[i]] for i in self.T])
        parts.append(bytes([len(piles[f]) for f in self.F] + [min(pos.pass_no, 255)]))
        return b"".join(parts)

    def needed(self, pos) -> frozenset[int]:
        """The cards the foundations would take now (a heuristic, for ordering only), kept
        for each state of the foundations met (they change far less often than the rest)."""
        piles = pos.piles
        state = pos.engine.f_state(piles)
        out = self._needed.get(state)
        if out is not None:
            return out
        found: set[int] = set()
        for f, (base, on_top, most) in self.f_accepts.items():
            p = piles[f]
            if not p:
                found.update(base)
            elif len(p) < most:
                found.update(on_top[p[-1]])
        if len(self._needed) >= NEEDED_KEPT:
            self._needed.clear()
        out = self._needed[state] = frozenset(found)
        return out

    def rank(self, pos, units, need, narrow, out, bonus=0, turns=0) -> None:
        """For each (move, seq) of ``units``, append (-(its :meth:`score`) - ``bonus``,
        ``turns``, seq) to ``out``: the children's sort key, then what they play. With
        ``narrow`` (the first, narrow pass), the unlikely moves are left out: a card back
        from the foundations, or a unit lifted off a card it is built on (a run split) when
        that card is not wanted on the foundations (not in ``need``). The moves' scores are
        worked out here, the hottest code of the search (written out for speed)."""
        Fset, Tset, tb, piles, down = self.Fset, self.Tset, self.tb, pos.piles, pos.down
        for m, seq in units:
            kind, a, n, b = m
            if kind != MOVE:  # (never unlikely)
                out.append((-self.score(pos, m, need) - bonus, turns, seq))
                continue
            if a in Fset:
                if narrow:
                    continue  # unlikely: a card back from the foundations
                out.append(((-100 if b in Fset else 20) - bonus, turns, seq))
                continue
            from_t, to_t = a in Tset, b in Tset
            if from_t:
                p = piles[a]
                da = down[a]
                left = len(p) - n
                if narrow and to_t and left > da and tb[p[left - 1]][p[left]] \
                        and p[left - 1] not in need:
                    continue  # unlikely: a run split, the card under it not wanted up
            if b in Fset:
                s = 100
            elif to_t and not piles[b] and n == len(piles[a]) and down[a] == 0:
                out.append((30 - bonus, turns, seq))  # a whole pile into a space: a mirror
                continue
            else:
                s = 10 if from_t else 30
            if from_t:
                if left and left == da:
                    s += 50 + da
                elif not left:
                    s += 25
                elif to_t and n < len(p) - da:
                    s -= 5  # splitting a run
                if need and left:  # uncovering a card the foundations want
                    if p[left - 1] in need:
                        s += 16
                    elif left > 1 and p[left - 2] in need:
                        s += 12
                    elif left > 2 and p[left - 3] in need:
                        s += 8
                    elif left > 3 and p[left - 4] in need:
                        s += 4
            if need and to_t:  # burying one
                q = piles[b]
                if q:
                    if q[-1] in need:
                        s -= 12
                    elif len(q) > 1 and q[-2] in need:
                        s -= 8
                    elif len(q) > 2 and q[-3] in need:
                        s -= 4
            out.append((-s - bonus, turns, seq))

    def score(self, pos, m, need=frozenset()) -> int:
        """How good a move looks (higher is better; for ordering only). ``need``: the cards
        the foundations take now (:meth:`needed`), where the ordering looks at them."""
        kind = m[0]
        if kind == MOVE:
            out: list = []
            self.rank(pos, ((m, None),), need, False, out)
            return -out[0][0]
        if kind == STOCK:
            return 0
        if kind == PAIR:
            return 40
        if kind == FOLD:
            # Every fold takes one pile away: prefer the one that leaves the most folds
            # (on Accordion deals 1-20, 9 won within 20,000 positions against 4 in the
            # order generated).
            pos.push_raw(m)
            n = len(pos.raw_moves())
            pos.pop()
            return 20 + 3 * n
        return 20


NEEDED_KEPT = 20_000  # the most foundation states whose wanted cards are kept (``needed``)
_ENDS = tuple(bytes((128 + d,)) for d in range(128))  # no pile has 128 face-down cards
_BYTE = tuple(bytes((k,)) for k in range(256))  # each byte value as a string of one
_SCORE_AND_TURNS = itemgetter(0, 1)  # a scored child's sort key: its score, then its turns
_SCORE = itemgetter(0)
LATER = (None,)  # a stored position's legal moves, not generated yet (see ``settle``)


@lru_cache(maxsize=1 << 16)
def _disorder(pile) -> int:
    """How many cards of ``pile`` (bottom to top) lie on a lower card of their own suit (see
    ``progress``), kept for the piles met: most positions share most of their piles."""
    n = 0
    low = [13, 13, 13, 13]
    for c in pile:
        s, r = c // 13, c % 13
        if r > low[s]:
            n += 1
        else:
            low[s] = r
    return n


def _through(i, k, j, free, out) -> None:
    """The single moves that take the top ``k`` cards of pile ``i`` (a run) to pile ``j``
    using the empty piles ``free`` (k <= 2^len(free)): the top part to a space (through the
    other spaces), the rest through the other spaces, the top part back onto it. The top
    part is as small as the other spaces allow, so with a space for each card but one the
    chain is the 2k - 1 moves of parking them one by one."""
    if k == 1:
        out.append((MOVE, i, 1, j))
        return
    t, rest = free[0], free[1:]
    a = max(1, k - (1 << len(rest)))
    _through(i, a, t, rest, out)
    _through(i, k - a, j, rest, out)
    _through(t, a, j, rest, out)


@cache
def _chain(i, k, j, free) -> tuple:
    """The single moves of a supermove (see :func:`_through`), kept: they depend on the
    piles' indices alone."""
    out: list = []
    _through(i, k, j, free, out)
    return tuple(out)


@cache
def knowledge(variant) -> Knowledge:
    return Knowledge(variant)


def _rank(code: int) -> int:
    return code % 13 + 1


# -- the search -----------------------------------------------------------------------------------

def _line(root_line, node) -> list:
    """The raw moves from the search's start to ``node`` (a chain of (parent, moves))."""
    parts = []
    while node is not None:
        node, moves = node
        parts.append(moves)
    out = list(root_line)
    for moves in reversed(parts):
        out.extend(moves)
    return out


# A child of a position is a sequence of raw moves, or a jump through the stock and a move:
# (JUMP, k, stock action, the talon after k turns) first, played by ``Position.push_turns``
# as one step (its history lists the k turns).
JUMP = -1


def _first(seq):
    """The first raw move of a child (the stock action, for a jump)."""
    return seq[0][2] if seq[0][0] == JUMP else seq[0]


def has_unknown_cards(pos) -> bool:
    return any(UNKNOWN in p for p in pos.piles)


def shorten(pos, line: list) -> list:
    """A winning ``line`` from ``pos`` with detours cut out: wherever a legal move leads
    straight to a position the line reaches later, take it.

    Where the rules make piles interchangeable (:meth:`Knowledge.mirror_groups`), a move
    may also lead to a mirror of a later position (the same with such piles renamed): the
    line goes on from there with its piles renamed, each move as the engine names it. The
    line returned is never longer than ``line``, nor than the one cut at exact positions
    alone (that one where the mirrors save nothing)."""
    exact = _cut(pos, line, _exact_key)
    kn = knowledge(pos.variant)
    if not kn.has_mirrors or len(exact) <= 1:
        return exact
    mirrored = _cut(pos, line, kn.mirror_key_for(pos), mirrors=True)
    return mirrored if mirrored is not None and len(mirrored) < len(exact) else exact


def _exact_key(q) -> bytes:
    return q.key()


def _cut(pos, line: list, key, mirrors: bool = False) -> list | None:
    """:func:`shorten`'s cut of ``line`` by ``key`` (:func:`_exact_key`, or with ``mirrors``
    :meth:`Knowledge.mirror_key`), greedily: from each position, the move to the latest
    position of the line with the same key. None where, with ``mirrors``, some position
    has no move to one later on the line, or the last is not won: the rules do not treat
    the piles alike after all (the cut is then left to exact positions)."""
    q = pos.copy()
    keys = [key(q)]
    for m in line:
        q.push_raw(m)
        keys.append(key(q))
    last = {k: i for i, k in enumerate(keys)}
    q = pos.copy()
    out, i, n = [], 0, len(line)
    while i < n:
        # With exact keys, the line's own move is there to take; with mirrors, the move
        # renamed is one of the legal moves, and the loop finds it (or a move as good).
        best_j, best_m = (i, None) if mirrors else (i + 1, line[i])
        for m in q.raw_moves():
            q.push_raw(m)
            j = last.get(key(q), -1)
            q.pop()
            if j > best_j:
                best_j, best_m = j, m
        if best_m is None:
            return None
        q.push_raw(best_m)
        out.append(best_m)
        i = best_j
    if mirrors and not q.is_won():
        return None
    return out


def _talon_states(q, stock, root_pass=None) -> list:
    """The talon's states (stock, waste, the stock's face-down count, pass, idle) after each
    turn (``stock``, the stock action) of one cycle from ``q``, left unchanged: up to the end
    of the stock's use, or back to where it started. The end of a pass that changed nothing
    (``Position.pass_was_idle``) is left out where its pass began after ``root_pass`` (by
    default, always): its piles are those met at the redeal that began it, in the search."""
    eng = q.engine
    S, W = eng.groups.stock, eng.groups.waste
    at = (q.piles[S], q.piles[W], q.down[S])
    r = q.copy()
    out = []
    while eng.can_stock(r):
        r.push_raw(stock)
        if r.pass_was_idle() and (root_pass is None or r.pass_no > root_pass):
            break
        state = (r.piles[S], r.piles[W], r.down[S], r.pass_no, r.idle)
        out.append(state)
        # The talon's state counts its face-down cards too: Pyramid's first `s` only
        # turns the top stock card up in place, leaving the stock and waste as they were.
        if state[:3] == at:
            break
    return out


def _replayed(pos, line: list, short: bool, who: str) -> list:
    """A winning ``line`` found by a search that plays outside the engine (``who``),
    replayed in the engine from ``pos`` (a line it does not win is a bug: an error, never a
    wrong verdict), with its detours cut out where ``short``."""
    if not line:
        return line
    q = pos.copy()
    for m in line:
        q.push_raw(m)
    if not q.is_won():
        raise SolverError(f"{who} found a line the engine does not win; please report this "
                          "deal")
    return shorten(pos, line) if short else line


def stuck_reason(pos, held, symbols: bool = True) -> str:
    """Why the cards at ``held`` (places, see :meth:`Knowledge.stuck`) can never move."""
    names = pos.variant.pile_names
    cards = [f"{code_text(pos.piles[i][h], symbols)} in {names[i]}" for i, h in held]
    king = any(_rank(pos.piles[i][h]) == 13 for i, h in held)
    if len(cards) > 4:
        cards = cards[:3] + [f"{len(cards) - 3} other cards"]
    if len(cards) == 1:
        return (f"{cards[0]} can never move: every card it could go on lies beneath it (or "
                "can never come to the tableau), and so does a card its foundation needs first")
    return (f"{', '.join(cards[:-1])} and {cards[-1]} can never move: every card each could "
            "go on lies beneath one of them (or can never come to the tableau), and so does a "
            "card its foundation needs first, or that card is one of them"
            + ("; no pile can be emptied for a king, each holding one of them" if king else ""))


def solve(pos, limits: Limits | None = None, *, prefer=None, stop=None,
          short: bool = True, strategy: str = "depth") -> SolveResult:
    """Search ``pos`` (left unchanged) for a win within ``limits``.

    ``prefer``: raw moves to try first at the root, in order (the hints' vote). ``stop``: a
    callable returning True to abandon the search (a shared deadline). ``short``: cut the
    detours out of a winning line (:func:`shorten`). ``strategy``: ``best`` expands the most
    advanced position first (cards on the foundations, face-down cards left), ``beam``
    the same weighing the moves of the last step and the digging left, ``dive`` weighing
    every move from the start; ``depth`` is plain depth-first. Each searches every
    reachable position before saying ``lost``; a position with cards that can never move
    (:meth:`Knowledge.stuck`) is ``lost`` before any search, its reason naming them.
    """
    limits = limits or Limits()
    if has_unknown_cards(pos):
        raise SolverError("the position has cards not seen yet (??): the solver needs every "
                          "card; use `companion hint`, which samples the unseen cards")
    kn = knowledge(pos.variant)
    held = kn.stuck(pos)
    if held:
        return SolveResult(LOST, reason=stuck_reason(pos, held), stuck=held)
    # Where moves can be narrowed, a portfolio of searches runs interleaved, a slice each in
    # turn: depth-first, best-first, beam and dive looks among the likelier moves (no run is
    # split unless that frees a card for the foundations, no card comes back from them), and the
    # whole search. The narrow looks find most wins quickly, and each finds wins the others
    # need a hundred times longer for (and where its rules hold, the lean look: see
    # :data:`LEAN_WIDTH`); a win any of them finds is a win. Their "lost"
    # proves nothing (that look simply stops); only a search of the whole space proves a
    # loss. In an open game (nothing face down) where foundations build up in suit, a second
    # whole search runs beside the first, best-first by the cards' order (``order``), and
    # skips what the first has met (see :func:`_drive`).
    # There the narrow looks of other games are left out: a card lying on a card it could be
    # built on there lies on it by the deal's chance, and moving it is no run split (on
    # Streets and Alleys deals 1-40, no narrow look won a deal within 100,000 positions).
    # Where runs move as units through the spaces (supermoves, see
    # ``Knowledge.supermoves``), a narrow depth-first look that moves them so, and splits
    # no run, runs beside the two (restarted as the other narrow looks are). On Streets and
    # Alleys seeds 1-60 it won 11 within 15,000 positions, 6 of them within 1,000, among
    # them seed 58, which neither whole search won within 40,000. Last, the whole
    # depth-first search again, restarted with its move order shaken on Luby's budgets
    # (``shaken``, see :data:`OPEN_SHARES`): the deals it wins soon under one order it may
    # not win for minutes under another; beside it the same restarts of the fast whole search
    # (``quick``, see :data:`OPEN_SHARES`).
    plan = [(strategy, False)]
    if kn.dig and strategy != "order" and not any(pos.down[i] for i in kn.T):
        plan.insert(0, ("order", False))
        if kn.supermoves_ok:
            plan.insert(1, ("depth", True))
        plan.append(("shaken", False))
        if FAST_SHAKEN and kn.exhaustible(pos):
            plan.append(("quick", False))   # (the shaken look on :func:`_exhaust`)
    elif kn.static and strategy == "depth":
        # Golf-like games (a waste nothing leaves, a tableau to clear): best-first, fewest
        # cards left first (on deals 1-40 with 100,000 positions: 9 won and 8 lost, against
        # 6 and 8 depth-first; 7 and 6 with both interleaved). Where it may, the whole
        # search runs on numbers, not positions (:func:`_exhaust_sink`): it settles the
        # deals that one leaves unknown.
        memory = limits.memory_mb * 2**20 if limits.memory_mb is not None else None
        plan = [("sink" if FAST_SINK and kn.sink_exhaustible(pos, memory) else "best", False)]
    elif strategy == "depth" and FAST_LINE and kn.line_exhaustible(pos):
        plan = [("line", False)]  # (Accordion: see :func:`_exhaust_line`)
    elif strategy == "depth" and FAST_PAIRS and kn.pairs_exhaustible(pos):
        plan = [("pairs", False)]  # (Pyramid: see :func:`_exhaust_pairs`)
    elif strategy == "depth" and FAST_PYRAMID and kn.pyramid_talon_exhaustible(pos):
        plan = [("pyramid", False)]  # (Pyramid, passes limited: :func:`_exhaust_pyramid`)
    elif kn.narrowable:
        plan = [(how, True) for how in NARROW_LOOKS] + plan
        if kn.lean and LEAN:
            plan.insert(LEAN_AT, ("lean", True))

    return _drive(pos, limits, stop, short, prefer, plan)


# The narrow looks of the portfolio (see :func:`solve`).
NARROW_LOOKS = ("depth", "best", "beam", "dive")
# The narrow looks run again and again with their move order shaken a little, each run
# stopped after a budget of positions growing along Luby's sequence (RESTART_BASE times 1, 1,
# 2, 1, 1, 2, 4, ...): a search stuck below a bad early move gets a fresh start. On Klondike
# deals 1-160 with 20,000 positions: draw 1, 146 won against 142 without; draw 3, 130 won and
# 12 lost against 127 and 13.
RESTARTED = frozenset({"depth", "best"})
RESTART_BASE = 2000
JITTER = 15  # the most a move's score is shaken by (a foundation move scores 100)
# The beam's width, and the weight of the moves that reached a position beside its progress.
# Chosen on Klondike deals 1-40 (draw 1 and 3, 10,000 positions a look): 65 of 80 won by the
# beam alone, against 53 by the best-first look with twice the positions.
BEAM_WIDTH = 3
BEAM_G = 0.5
# The beam's weight is of the moves of the step that reached a position (a move, the safe
# moves after it, the stock turns before a talon move), not of its depth, which the beam was
# meant to weigh. The dive is that beam: its width, its measure, DIVE_G times every move
# played from the start. On Klondike deals 1-200 at 5 s a deal, as a fourth narrow look:
# draw 1, 186 resolved against 180-183 without it (three runs); draw 3, 188 against 187.
# In place of the beam (its depth weighed at 0.3, 0.5, 0.7): 183, 184, 184 on draw 1; the
# two win different deals (the dive alone wins seed 50 within 7,500 positions, seed 108
# within 5,700, where the beam had not in 360,000 and 220,000; the beam wins 62, 137, 153).
# Klondike-Solver's count of the moves left (the digging, the talon's turns, its weights)
# as the dive's measure: 185 and 190, the same within the runs' spread.
DIVE_G = 0.5
# The narrow looks' and the whole search's slices a round, where they run side by side (see
# :func:`_drive`). A round gives each its slices of positions, and their positions do not cost
# the same: in Klondike the dive's cost some three times the depth-first look's, the beam's
# twice (the children of a position are all played and settled to weigh them, and few are
# kept). With a slice each, the dive took some 40 % of the time, the whole search 13 %.
# Fitted on each search's time to a verdict alone (Klondike seeds 1-200, draw 1 and 3, at most
# 5 s each), replayed as the portfolio shares the time (``bench/looks.py``): 191 and 192
# resolved with a slice each (the portfolio's own runs: 191 and 193), 192 and 193 with these
# (and some twenty settings near them); the best of the grid 1-4, each draw fitted alone: 192
# and 194. Seeds 201-300, not fitted on: draw 1, 92 -> 93; draw 3, 90 either way (the
# portfolio's own runs there: 93 and 90, before and after). Other games with narrow looks,
# seeds 1-60 at 5 s: Forty Thieves 1 won either way, Indian 15 against 14.
NARROW_SHARES = {"depth": 2, "best": 2, "beam": 1, "dive": 1, "prover": 2, "lean": 4}


def _drive(pos, limits, stop, short, prefer, plan) -> SolveResult:
    """Run the searches of ``plan`` ((strategy, narrow) each) interleaved, within the
    budgets, and give the first verdict that settles the deal: a win from any of them, a
    loss only from a search of the whole space."""
    start = time.perf_counter()
    deadline = start + limits.seconds if limits.seconds is not None else None
    max_states = None  # for each search
    if limits.memory_mb is not None:
        max_states = int(limits.memory_mb * 2**20 / (_BYTES_PER_STATE * len(plan)))
    # A best-first search of the whole space beside the depth-first one (``order``) skips
    # the positions the depth-first search has met: those it has searched already, or is
    # searching, and it will not have to search them twice. Only the depth-first search's
    # "lost" is then a proof (the other's ran out only of positions the first had not met),
    # and the shaken look's (a restart of it that ended within its budget searched the whole
    # space on its own; it shares no positions with the others, so it is not counted here).
    whole = [not narrow and how not in ("shaken", "quick") for how, narrow in plan]
    prover = max(i for i, w in enumerate(whole) if w) if any(whole) else -1
    proof_set: set[bytes] = set()
    # The positions on the depth-first search's current line: met, but not searched through
    # yet; the best-first search skips only the others (searched through by the first), so
    # a line the first is still on does not block it.
    proof_line: set[bytes] | None = set() if sum(whole) > 1 else None

    open_game = ("order", False) in plan and len(plan) > 1   # see :func:`solve`
    fast_prover = FAST_PROVER and open_game and knowledge(pos.variant).exhaustible(pos)
    # (the search of the whole space alone: no other whole search shares its positions)
    on_bytes = knowledge(pos.variant).talon_exhaustible(pos)  # (Klondike's searches on bytes)
    fast_talon = FAST_TALON and sum(whole) == 1 and on_bytes

    def run(i, how, narrow):
        if how == "sink":
            return _exhaust_sink(pos, short, max_states, prefer)
        if how == "line":
            return _exhaust_line(pos, short, max_states, prefer)
        if how == "pairs":
            return _exhaust_pairs(pos, short, max_states, prefer)
        if how == "pyramid":
            return _exhaust_pyramid(pos, short, max_states, prefer)
        if how == "shaken":
            return _restarting(pos, prefer, short, "depth", False, max_states, True)
        if how == "quick":
            return _restarting(pos, prefer, short, "depth", False, max_states, True, fast=True)
        if narrow:
            if how == "lean":
                return _lean(pos, short, max_states)
            if how in RESTARTED:
                return _restarting(pos, prefer, short, how, narrow, max_states)
            return _steps(pos, prefer, short, how, narrow, max_states)
        if i == prover and fast_prover:
            return _exhaust(pos, short, max_states, visited=proof_set, line=proof_line)
        if i == prover and fast_talon:
            return _exhaust_talon(pos, short, max_states, prefer)
        if i == prover:
            # An open game's prover has its move order shaken as the shaken look's first
            # run has it (the same seed): it goes on where that run's budget stopped it,
            # having redone its 2,000 positions (seeds 1-400 at 5 s: 366 resolved; with a
            # seed of its own, 0 or 1,000: 360 and 363).
            return _steps(pos, prefer, short, how, narrow, max_states, visited=proof_set,
                          line=proof_line, jitter=random.Random(1) if open_game else None)
        return _steps(pos, prefer, short, how, narrow, max_states, skip=proof_set,
                      line=proof_line)

    runs = [run(i, how, narrow) for i, (how, narrow) in enumerate(plan)]
    seen = [(0, 0)] * len(runs)
    # In an open game, the searches that settle most deals soon (the narrow look and the
    # shaken one) run alone, a slice each in turn, until they have expanded ORDER_AFTER
    # positions; the whole searches join then (the best-first one costs the most per
    # position; its line kept, the depth-first search ahead of it does not block it: see
    # ``proof_line``), and each search gets its share of slices (OPEN_SHARES).
    roles = [_role(how, narrow, i == prover) for i, (how, narrow) in enumerate(plan)]
    waiting = [i for i, r in enumerate(roles)
               if open_game and ORDER_AFTER and r in ("order", "prover", "quick")]
    # The lean look joins once the others have expanded LEAN_AFTER positions: it costs the
    # most a position, and most deals are settled before that (see LEAN_AFTER).
    late = [i for i, (how, _) in enumerate(plan) if how == "lean" and LEAN_AFTER]
    active = [i for i in range(len(runs)) if i not in waiting and i not in late]
    if not active:  # nothing runs before them
        active, waiting, late = waiting + late, [], []
    shares = [FAST_SHARES.get(how, 1) for how, _ in plan]
    if not open_game and len(plan) > 1:  # the narrow looks and the whole search
        shares = [NARROW_SHARES["prover" if r == "prover" else how]
                  for r, (how, _) in zip(roles, plan, strict=True)]
        if fast_talon:
            shares[prover] = TALON_SHARE
        if on_bytes:  # (the lean look on bytes)
            for i, (how, _) in enumerate(plan):
                if how == "lean":
                    shares[i] = LEAN_BYTES_SHARE
    # Where both Klondike searches on bytes run, the shares from LATE_AFTER positions on
    later = None
    if LATE_AFTER and fast_talon and any(how == "lean" for how, _ in plan):
        later = [LATE_SHARES["prover" if r == "prover" else how]
                 for r, (how, _) in zip(roles, plan, strict=True)]
    spent_memory = False

    def finish(r: SolveResult, reason: str | None = None) -> SolveResult:
        r.nodes = sum(n for n, _ in seen)
        r.states = sum(k for _, k in seen)
        r.seconds = time.perf_counter() - start
        if reason:
            r.reason = reason
        if r.verdict == WON and len(runs) > 1 and (r.reason or "").startswith("won after"):
            # (the search that won counts its own positions; ``nodes`` counts them all)
            r.reason = f"won after searching {r.nodes} positions, all the searches together"
        return r

    while active:
        for i in list(active):
            try:
                for _ in range(shares[i]):
                    seen[i] = next(runs[i])
            except StopIteration as done:
                r = done.value
                seen[i] = (r.nodes, r.states)
                if r.verdict == WON or (r.verdict == LOST
                                        and roles[i] in ("prover", "shaken", "quick")):
                    for j in active:
                        if j != i:
                            runs[j].close()
                    return finish(r, r.reason)
                if r.verdict == UNKNOWN_VERDICT:  # its share of the memory is spent
                    spent_memory = True
                active.remove(i)
        nodes = sum(n for n, _ in seen)
        if late and (nodes >= LEAN_AFTER or not active):
            active += late
            late = []
        if later and nodes >= LATE_AFTER:
            shares, later = later, None
        if waiting and (nodes >= ORDER_AFTER or not active):
            active += waiting
            waiting = []
            shares = [OPEN_SHARES.get(r, 1) for r in roles]
            if fast_prover:
                shares[prover] = EXHAUST_SHARE
        if not active:
            break
        why = None
        if limits.nodes is not None and nodes >= limits.nodes:
            why = f"node budget of {limits.nodes} spent"
        elif deadline is not None and time.perf_counter() > deadline:
            why = f"time budget of {limits.seconds:g} s spent"
        elif stop is not None and stop():
            why = "stopped"
        if why:
            for j in active:
                runs[j].close()
            return finish(SolveResult(UNKNOWN_VERDICT), why)
    why = (f"memory budget of {limits.memory_mb:g} MB spent" if spent_memory
           else "the searches stopped without a verdict")
    return finish(SolveResult(UNKNOWN_VERDICT), why)


# Each search hands control back to the driver every SLICE + 1 positions expanded, where the
# budgets are checked: with four searches interleaved, a round is about 256 positions (some
# 40 ms in Klondike), so a search stops within that of its time budget. (Every 256 positions,
# as before, a round took 0.15 s or more: a hint's samples of 0.06 s each ran two or three
# times over theirs.)
SLICE = 63
# The best-first whole search of an open game (``order``) also offers composite children that
# dig out a card the foundations want (see ``dig_children`` in :func:`_steps`). Streets and
# Alleys, seeds 1-120: with them at 16,000 positions a deal, 32 won and 53 proved lost in 101
# CPU seconds; without them at 20,000, 26 won and 54 lost in 111 s.
DIGS = True

# The depth-first searches of an open game whose foundations build up in suit also offer
# supermoves (see ``Knowledge.supermoves``) where the rules allow them, scored as the unit
# move plus SUPER_BONUS. Streets and Alleys seeds 1-60, the whole depth-first search alone
# at 15,000 positions a deal: 7 won without them; with them 10 (bonus 0), 15 (25), 14 (50),
# 13 (100).
SUPERMOVES = True
SUPER_BONUS = 25
# Whether the whole depth-first search (not only the narrow look) offers them. Seeds 1-200,
# 5 s a deal: 166 resolved either way, but not the same deals (with them 18, 33 and 151
# are won; without, 107, 115 and 138).
SUPER_WHOLE = True

# The best-first whole search of an open game joins the others once they have expanded
# ORDER_AFTER positions (see :func:`_drive`). Streets and Alleys seeds 1-60 at 60,000
# positions a deal: the same 51 resolved, median CPU time per deal 0.057 -> 0.033 s with
# 1,000 against 0. With cheaper positions since, seeds 1-200 at 20,000 positions: the same
# 150 resolved with 1,000, 2,000 or 3,000; median CPU time per deal 0.028-0.029 s with
# 1,000, 0.026-0.027 s with 2,000 or 3,000 (two runs each).
ORDER_AFTER = 2000

# The whole searches of an open game (the depth-first prover and the best-first ``order``)
# join the narrow look and the shaken one (a slice each a round till then) once ORDER_AFTER
# positions are expanded (see :func:`_drive`); from then on each gets OPEN_SHARES slices a
# round. A depth-first search's time to a win is heavy-tailed in its move order: Streets
# and Alleys seeds 1-400, each search alone for 10 s a deal, the whole depth-first search
# won 137 (189 proved lost), with its order shaken once 150, and restarted with it shaken
# on Luby's budgets (``shaken``) 183 (182 lost: a restart that ends within its budget has
# searched the whole space); the narrow look 102, the best-first whole search 151 (187
# lost). Shares fitted to those times (about 10 % of the time to the narrow look, 35 % to
# the prover, 10 % to the best-first search, which costs twice as much a position, and 45 %
# to the shaken look), the prover's order shaken too; seeds 1-400 at 5 s a deal (two
# workers): 182 won, 184 lost, 34 unknown, median 0.026 s a deal, against 168 / 185 / 47
# and 0.029 s with the narrow look, the prover and the best-first search alone (2, 1 and 1
# slices a round). With all four searches from the start: 182 / 184 / 34, median 0.041 s.
# A second shaken look (``quick``) restarts the fast whole search (:func:`_exhaust`, its piles
# in an order of chance) on the same budgets: four times as many positions for the time, no
# supermoves, no ranked moves, so it wins other deals than the shaken look (alone at 2.5 s a
# deal, Streets and Alleys seeds 1-100: 41 won, 47 lost, against 39 and 44); a run that ends
# within its budget proves a loss as the shaken look's does. Seeds 1-200 at 5 s a deal (two
# runs side by side on a loaded machine): 178 resolved with either shaken look alone, 185
# with both (shaken / quick slices 10 / 20 and 5 / 20; 10 / 10: 186, 10 / 40: 185); seeds
# 201-400, not fitted on: 182 -> 184. It joins with the whole searches (after ORDER_AFTER
# positions), so the easy deals' times are as before: median CPU time a deal, seeds 1-200
# side by side in one process, 0.0226 s without it, 0.0218 s with it joining late (from the
# start, the bench's median ratio to Freecell Solver went from 2.9 to 3.0); 186 resolved.
OPEN_SHARES = {"narrow": 2, "prover": 7, "order": 1, "shaken": 10, "quick": 20}

# Where the tableau alone names the position and the moves are single cards (Streets and
# Alleys; see ``Knowledge.exhaustible``), the prover is :func:`_exhaust`, some four times
# cheaper a position than :func:`_steps` (Streets and Alleys seed 34, lost: 286,590
# positions in 1.4 s against 5.7 s), with EXHAUST_SHARE slices a round in place of the
# prover's 7: about the same share of the time. Seeds 1-200 at 5 s a deal (two workers):
# 186 resolved (85 won, 101 lost), against 181 (83 / 98) with the prover of ``_steps``;
# seeds 201-400: 188 (101 / 87) against 185. With 7 slices: 182 on 1-200; with 18: 185
# (before the fast prover's digging order), with 40: 184.
FAST_PROVER = True
# Whether the quick shaken look (see OPEN_SHARES) runs beside the shaken one where the fast
# whole search may run.
FAST_SHAKEN = True
EXHAUST_SHARE = 28

# Where a stock is dealt to a waste (Klondike; see ``Knowledge.talon_exhaustible``), the
# prover is :func:`_exhaust_talon`, with TALON_SHARE slices a round in place of the prover's
# NARROW_SHARES. A slice is a number of positions, and its positions cost the least: with 2
# slices it had some 10 % of the time. Klondike with foundation returns, the prover alone:
# draw 3 seed 150 (lost) 2.3 -> 0.6 s (34,475 keys for 18,344 positions -> 16,039 for
# 18,345), seed 183 3.5 -> 1.3 s; draw 1 seed 21 5.3 -> 2.0 s, 183 10.9 -> 3.9 s. Seeds
# 1-200 at 5 s a deal (two workers), resolved with draw 3 / draw 1: 187 / 191 with the
# prover of ``_steps``; with this one and 2 slices 187 / 190, 12 slices 190 / 191, 16
# 189 / 191, 24 188 / 190, 32 186 / 189. Default rules (no returns): 191 / 190 before,
# 191 / 191 with 8 or 12 slices.
FAST_TALON = True
# Golf's whole search on numbers (:func:`_exhaust_sink`) where it may run (False: through
# the engine, best-first).
FAST_SINK = True
# Accordion's searches on the line (:func:`_exhaust_line`) where they may run (False: the
# depth-first search through the engine).
FAST_LINE = True
# Pyramid's search of the pyramid and the talon's cards (:func:`_exhaust_pairs`) where it may
# run (False: the depth-first search through the engine).
FAST_PAIRS = True
# Pyramid's search with its passes limited (:func:`_exhaust_pyramid`), where it may run
# (False: the depth-first search through the engine).
FAST_PYRAMID = True
RELAXED = True
TALON_SHARE = 12

# Whether the safe moves are looked for among the moves up alone (where they are all moves
# up, ``Knowledge.safe_up``), all the legal moves generated only once none is safe: the same
# searches, position for position. Klondike draw 3 seed 150 with foundation returns, the
# whole search alone: 59,924 calls of the engine's generator for 38,726 positions settled
# before, 18,345 after. Only where units of several cards move (their moves cost the most to
# generate): callgrind, the portfolio at 2,000 positions on six Klondike deals, 8.53 -> 7.97
# G instructions; at 4,000 positions on four Streets and Alleys deals (one card at a time),
# 2.45 -> 2.48 G (with the interpreter's start, some 1.6 G, in each).
SETTLE_UP_FIRST = True

# Whether a best-first search generates a stored position's legal moves only when it expands
# it (see ``settle`` in :func:`_steps`), the safe moves played before from the moves up alone.
DEFER_MOVES = True

# About how many bytes one stored position takes (its key, and the set's slot).
_BYTES_PER_STATE = 150


def _role(how: str, narrow: bool, prover: bool) -> str:
    """A search's part in a portfolio (the key of :data:`OPEN_SHARES`)."""
    if narrow:
        return "narrow"
    return "prover" if prover else how


def _search(pos, limits, prefer, stop, short, strategy, narrow) -> SolveResult:
    """One search alone (the benchmarks' and tests' view of a single strategy)."""
    return _drive(pos, limits, stop, short, prefer, [(strategy, narrow)])


def _luby(i: int) -> int:
    """The i-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1


def _restarting(pos, prefer, short, strategy, narrow, max_states, shake_first=False,
                fast=False):
    """A look run again and again with its move order shaken a little (the first run too
    with ``shake_first``), each run stopped after a budget of positions that grows along
    Luby's sequence. A run that ends within its budget ends the look: with a win, or, when
    the look is not narrow, with a proved loss (that run searched the whole space). With
    ``fast``, the runs are of :func:`_exhaust` (the whole search, its piles shaken)."""
    total, i = 0, 0
    while True:
        i += 1
        budget = RESTART_BASE * _luby(i)
        jitter = random.Random(i) if i > 1 or shake_first else None
        run = (_exhaust(pos, short, max_states, jitter=jitter) if fast else
               _steps(pos, prefer, short, strategy, narrow, max_states, jitter=jitter))
        n = 0
        try:
            while n < budget:
                n, k = next(run)
                yield total + n, k
            run.close()
        except StopIteration as done:
            r = done.value
            r.nodes += total
            return r
        total += n


# The lean look (``Knowledge.lean``): Klondike-Solver's fast search, as its source describes it
# (ShootMe/Klondike-Solver, ``SolveFast``), over this engine's moves. Best-first by the moves a
# line has taken (a card from the talon costs the turns of the stock before it) plus an estimate
# of the moves left (:meth:`Knowledge.moves_left`) plus the cards not yet up and the passes
# begun; positions of one priority last in, first out (it dives). Only the best LEAN_WIDTH
# children of each position are kept, one less as each quarter of its budget of positions is
# spent (3, then 2 from a quarter, 1 from a half), and a position is met again only by a
# shorter line. Its moves are fewer than the narrow looks' (:meth:`_lean_moves`): a pile's face-up
# cards move whole, or in part only to free a card the foundations take; a king's run goes
# into the first space only, and only off face-down cards; a card the foundations take whose
# rank is at most one above every foundation goes up at once, and so does the only move there
# is. Run with a budget of LEAN_BASE positions, then again with twice as many whenever it
# ran out of them or of positions to try (a longer budget keeps more children for longer),
# unless it had kept every child to the end. Klondike deals 1-200 at 5 s a deal, the
# portfolio with the lean look (4 slices a round, after the other narrow looks) against
# without: draw 1, 191 resolved against 190 (seed 111 won, which the portfolio had not won
# within 60 s; the lean look alone wins it within 2,000 positions); draw 3, 191 either way.
# With foundation returns (as Klondike-Solver plays): 191 against 187, 188 against 184
# (seeds 176 and 174 won, with 115 and 186 the lean look alone wins within 7 s). With 2
# slices a round: 191 and 187 (foundation returns). First in the round (4 slices, and a look
# that stopped at its first budget): 186 and 186 without returns, the median time a deal
# 0.02 -> 0.14 s (most deals are won by the other looks at once).
LEAN = True
LEAN_AT = 4  # its place in the portfolio's plan (the first slices of a round go first)
# The positions the other searches expand before the lean look joins them. A hint solves each
# of its samples within some 0.06 s: there the lean look took a share of time the other looks
# would have settled the sample in. 200 mid-game Klondike positions (`bench/solver.py
# --hints 200`): median 0.32 s a hint without the lean look, 0.41 s with it from the start,
# 0.30 s with it joining after 2,000 positions (p95 0.64, 0.81 and 0.65 s).
LEAN_AFTER = 2_000
LEAN_WIDTH = 3
# Its first budget. Klondike-Solver searches once, with 1,000,000 positions; begun with 10,000
# and doubled, the lean look did much of its work again. The 33 hardest of Klondike seeds
# 1-200 each draw (foundation returns; the lean look alone, 5 s a deal): draw 1, 22 won with
# 10,000, 23 with 40,000 and 100,000, 26 with 250,000, 24 with 1,000,000; draw 3, 23 won with
# each, the wins' times summed 19.6 s with 10,000 and 13.7-15.5 s with the larger ones (seed
# 62 in 0.7 s with 250,000 against 2.6 s). The portfolio on seeds 1-200 at 5 s a deal:
# 192 / 191 resolved (draw 3 / draw 1) with 10,000; 193 / 192 with 100,000, 250,000 and
# 1,000,000. Within the default memory budget (1 GB) its first run ends before the look's
# share of the memory is spent.
LEAN_BASE = 250_000
# Where it plays on bytes (:func:`_lean_bytes`, about twice as fast a position), its slices a
# round in place of NARROW_SHARES': seeds 1-200 at 5 s a deal (two workers), resolved with
# draw 3 / draw 1. With the first budget of 10,000, foundation returns: 4 slices 190 / 191,
# 8 191 / 191, 12 190 / 191, 16 191 / 191; default rules: 4 slices 191 / 192, 8 194 / 191.
# With 250,000 (a first run that goes on longer is worth more of the time), foundation
# returns: 8 slices 193 / 192, 16 193 / 193, 24 194 / 193, 32 194 / 193; default rules:
# 16 194 / 194, 24 194 / 194.
LEAN_BYTES_SHARE = 24
# Where Klondike's whole search and lean look both run on bytes, the narrow looks win most
# of the deals they win within the first positions; after LATE_AFTER positions (some 0.7 s)
# their slices go to the lean look and the whole search (LATE_SHARES, slices a round).
# Replayed from the searches' runs alone (``bench/looks.py``'s runs, draw 1 with foundation
# returns, seeds 1-200), switching at 0.5-1 s: 192 -> 194 resolved at 5 s, 194 -> 197 at
# 10 s, 191 -> 192 at 3 s; keeping a slice for the beam and dive, or two for the other narrow
# looks, 192-193. The portfolio's own runs at 5 s a deal (two side by side), against the
# shares kept throughout: draw 1 with returns, seeds 1-200 192 -> 194 (21 proved lost, 62
# won), seeds 201-400 (not fitted on) 186 -> 188 (248, 332 won); without returns 194 ->
# 195; draw 3 with and without returns 194 either way; no deal lost.
LATE_AFTER = 20_000
LATE_SHARES = {"depth": 0, "best": 0, "beam": 0, "dive": 0, "prover": 6, "lean": 48}


def _bytes_game(pos) -> tuple:
    """What the searches on bytes (Klondike's, see :meth:`Knowledge.talon_exhaustible`) read
    of the game once: its knowledge, its engine, the tableau's, stock's and waste's piles, the
    draw, the engine's build table, its masks of the cards each card goes on, which cards a
    space takes, its foundations' rules and their piles."""
    kn = knowledge(pos.variant)
    eng = pos.engine
    frules = eng.f_rules
    return (kn, eng, kn.T, kn.S, kn.W, kn.talon_draw, eng.tbuild, eng.onto_mask,
            eng.space_card, frules, tuple(f for f, *_ in frules))


def _pointer_cycle(d):
    """For the searches on bytes, where the talon is one sequence and a pointer (the waste's
    size) and the stock deals ``d`` cards: a function of (the talon's size, the pointer,
    whether the position is idle) giving (turns, pointer, passes begun) after each turn of
    the stock (the waste turned over is a turn), as :func:`_talon_states` goes: up to a pass
    that ends the game (the stock spent on a pass that changed nothing) or back to the
    pointer it started from; only those where the waste has a card. Kept for each met."""
    cycles: dict = {}

    def cycle(n, p, idle) -> list:
        got = cycles.get((n, p, idle))
        if got is None:
            got, q, t, wraps = [], p, 0, 0
            while n:
                if q < n:
                    q = min(q + d, n)
                else:
                    q, wraps = 0, 1
                t += 1
                if (idle or wraps) and q == n:
                    break
                if q:
                    got.append((t, q, wraps))
                if q == p:
                    break
            cycles[(n, p, idle)] = got
        return got

    return cycle


def _run_start(tb):
    """For the searches on bytes: a function of (a tableau pile's bytes, its face-down
    count) giving where the run on top of it starts (the index of its lowest card: each card
    above it builds on the one below, as the build table ``tb`` says), kept for the face-up
    parts met."""
    runs: dict = {}

    def start(p, lo) -> int:
        up = p[lo:]
        x = runs.get(up)
        if x is None:
            x = len(p) - 1
            while x > lo and tb[p[x - 1]][p[x]]:
                x -= 1
            x -= lo
            if len(runs) > 20_000:  # (a bound on the memory it takes)
                runs.clear()
            runs[up] = x
        return x + lo

    return start


def _taker(frules):
    """For the searches on bytes: a function of the foundations' bytes (in the order of
    ``frules``, the engine's) giving, for each card, the foundation (its number there) that
    takes it now, or -1 (the first that does, as the engine's moves go), kept for the
    foundations met."""
    met: dict = {}

    def takes(fp) -> tuple[list, int]:
        got = met.get(fp)
        if got is None:
            acc, mask = [-1] * 53, 0
            for k, (_, base, on_top, most) in enumerate(frules):
                p = fp[k]
                if len(p) < most:
                    for c in (on_top[p[-1]] if p else base):
                        if acc[c] < 0:
                            acc[c] = k
                            mask |= 1 << c
            if len(met) > 5_000:  # (a bound on the memory it takes)
                met.clear()
            got = met[fp] = (acc, mask)
        return got

    return takes


def _raw_of(T, Fp, S, W):
    """For the searches on bytes: a function of one of their moves giving the engine's raw
    moves that play it. Their moves: (0, pile, cards, pile) between tableau piles (numbered
    from 0 in ``T``), (1, pile, foundation) up (numbered in ``Fp``), (2, turns, pointer,
    where, ...) from the talon after the stock's turns (``where`` a tableau pile, or
    -1 - a foundation), (3, foundation, pile) back to the tableau."""
    stock = (STOCK, S, 0, -1)

    def raw(m) -> list:
        kind = m[0]
        if kind == 0:
            return [(MOVE, T[m[1]], m[2], T[m[3]])]
        if kind == 1:
            return [(MOVE, T[m[1]], 1, Fp[m[2]])]
        if kind == 2:
            dest = m[3]
            return [stock] * m[1] + [(MOVE, W, 1, T[dest] if dest >= 0 else Fp[-1 - dest])]
        return [(MOVE, Fp[m[1]], 1, T[m[2]])]

    return raw


def _lean_loop(root, moves, step, cost, left, rest, key, won, max_states, count):
    """The lean look's search (see :data:`LEAN_WIDTH`) over positions it knows only through
    these functions: ``moves(position, last)`` (:func:`_lean_moves`' moves, a list of one
    where one is to be played at once), ``step(position, move)`` (the position after it,
    and what becomes ``last``), ``cost(move)`` (the moves it counts), ``left(position)``
    (:meth:`Knowledge.moves_left`), ``rest(position)`` (the cards not up and the passes
    begun), ``key(position)`` and ``won(position)``. A generator as :func:`_steps` is; it
    returns (verdict, the node of the win: (node, move) back to the root's None, why it
    stopped). ``count``: [positions expanded, positions stored], kept up to date."""
    budget = LEAN_BASE
    while True:
        closed: dict[bytes, int] = {}
        buckets: dict[int, list] = {left(root): [(root, 0, None, None)]}
        while buckets and len(closed) < budget:
            lo = min(buckets)
            stack = buckets[lo]
            st, g, last, node = stack.pop()
            if not stack:
                del buckets[lo]
            while True:  # the only move there is, or a card up at once
                ms = moves(st, last)
                if len(ms) != 1:
                    break
                st, last = step(st, ms[0])
                g += cost(ms[0])
                node = (node, ms[0])
            count[0] += 1
            if won(st):
                count[1] = len(closed)
                return WON, node, f"won after searching {count[0]} positions"
            n = len(closed)
            width = LEAN_WIDTH if n < budget >> 2 else LEAN_WIDTH - 1 if n < budget >> 1 \
                else LEAN_WIDTH - 2
            kids = []
            for m in ms:
                st2, last2 = step(st, m)
                added = g + cost(m) + left(st2)
                kids.append((added + rest(st2), added, m, st2, last2))
            kids.sort(key=_SCORE)  # (stable: the first generated of equal priority first)
            for pri, added, m, st2, last2 in kids[:max(1, width)]:
                k = key(st2)
                old = closed.get(k)
                if old is None or old > added:
                    closed[k] = added
                    got = buckets.get(pri)
                    entry = (st2, g + cost(m), last2, (node, m))
                    if got is None:
                        buckets[pri] = [entry]
                    else:
                        got.append(entry)
            if not count[0] & SLICE:
                count[1] = len(closed)
                # (each position kept whole, not as a key alone: some four times the room)
                if max_states is not None and 4 * count[1] > max_states:
                    return UNKNOWN_VERDICT, None, "memory budget spent"
                yield count[0], count[1]
        count[1] = len(closed)
        if count[1] < budget >> 2:  # nothing left to try, every child kept: it stops
            return UNKNOWN_VERDICT, None, "the lean look found nothing more to try"
        budget *= 2  # (out of positions to try or of its budget: again, wider for longer)


def _lean_path(node) -> list:
    """The moves from the root to ``node`` (see :func:`_lean_loop`)."""
    out = []
    while node is not None:
        node, m = node
        out.append(m)
    return out[::-1]


def _lean(pos, short, max_states):
    """The lean look (see :data:`LEAN_WIDTH`), a generator as :func:`_steps` is: it yields
    (positions expanded, positions stored) every few hundred positions, and returns a
    :class:`SolveResult`: ``won`` with a line the engine replays, else ``unknown`` (a
    narrow look proves nothing). Where :meth:`Knowledge.talon_exhaustible` holds it plays
    on the piles' bytes and the talon's sequence (:func:`_lean_bytes`), the same search."""
    if knowledge(pos.variant).talon_exhaustible(pos):
        return _lean_bytes(pos, short, max_states)
    return _lean_engine(pos, short, max_states)


def _lean_bytes(pos, short, max_states):
    """:func:`_lean_engine` written for speed as :func:`_exhaust_talon` is: the same moves
    (those of :func:`_lean_moves`, in the same order), priorities, keys and budgets, on a
    position held as the tableau piles' bytes, their face-down counts, the foundations'
    bytes, the talon (one sequence) with its pointer, the pass, whether it is idle, the
    foundations' count of cards and the tableau's count of moves left."""
    start = time.perf_counter()
    kn, eng, T, S, W, d, tb, onto, space_card, frules, Fp = _bytes_game(pos)
    nT, returns, draw1 = len(T), eng.f_returns, d == 1
    ends, one = _ENDS, _BYTE
    size = eng.deck_size
    takes, run_start, cycle = _taker(frules), _run_start(tb), _pointer_cycle(d)

    def piles_of(hit, at) -> list:
        """The tableau piles whose top cards are in the bit mask ``hit`` (not 0), in pile
        order (``at``: a top card's pile)."""
        if not hit & (hit - 1):
            return [at[hit.bit_length() - 1]]
        js = []
        while hit:
            h = hit & -hit
            hit ^= h
            js.append(at[h.bit_length() - 1])
        js.sort()
        return js

    accepts = [0] * 53  # a card -> the bit mask of the cards that go on it
    for u in range(53):
        hit = onto[u]
        while hit:
            h = hit & -hit
            hit ^= h
            accepts[h.bit_length() - 1] |= 1 << u
    kings = sum(1 << c for c in range(53) if space_card[c])
    pile_info: dict = {}  # (a pile, its face-down count) -> what its moves need (see below)
    talon_cards: dict = {}  # the talon -> the bit mask of its cards
    cycle_at: dict = {}  # (the talon's size, pointer, idle) -> {pointer: [(turns, passes)]}

    def info_of(p, lo):
        """For a tableau pile: (its top card; the length of its face-up run where that run
        is every face-up card, else 0; that run's lowest card (or 0); whether a space takes
        that run (a king's run off face-down cards); the bit mask of the face-up cards a
        part of the run would uncover; and the parts of the run, longest first: (cards,
        the lowest card moving, the card uncovered or -1 where none is face up))."""
        n = len(p)
        x = run_start(p, lo)
        face = n - lo
        parts, under = [], 0
        for kk in range(n - x, 0, -1):
            if kk == face:
                parts.append((kk, p[-kk], -1))
            else:
                parts.append((kk, p[-kk], p[-kk - 1]))
                under |= 1 << p[-kk - 1]
        whole = face if n - x == face else 0
        info = (p[-1], whole, p[lo] if whole else 0, bool(lo and whole and space_card[p[lo]]),
                under, tuple(parts))
        if len(pile_info) > 50_000:  # (a bound on the memory it takes)
            pile_info.clear()
        pile_info[(p, lo)] = info
        return info

    def cycle_of(n, ptr, idle):
        """The steps of ``cycle`` (and the pointer's own, no turn), by pointer."""
        got = cycle_at.get((n, ptr, idle))
        if got is None:
            got = {}
            for t, q, wraps in ([(0, ptr, 0)] if ptr else []) + cycle(n, ptr, idle):
                got.setdefault(q, []).append((t, wraps))
            if len(cycle_at) > 20_000:
                cycle_at.clear()
            cycle_at[(n, ptr, idle)] = got
        return got

    def moves(st, last):
        """:func:`_lean_moves` on ``st``: each (kind, ...) as ``play`` takes it."""
        cols, downs, fp, tal, ptr, pas, idle = st[:7]
        low = 2 + min(map(len, fp))
        acc, amask = takes(fp)
        spaces, tops, dest, at = [], 0, amask, [0] * 53
        infos = []
        for j in range(nT):
            q = cols[j]
            if q:
                info = pile_info.get((q, downs[j])) or info_of(q, downs[j])
                c = info[0]
                tops |= 1 << c
                dest |= accepts[c]
                at[c] = j
                infos.append((j, info))
            else:
                spaces.append(j)
        if spaces:
            dest |= kings

        out = []
        for i, (c, whole, foot, king, under, parts) in infos:
            k = acc[c]
            if k >= 0:
                if c % 13 + 1 < low:
                    return [(1, i, k)]
                out.append((1, i, k))
            if under & amask:  # a part of the run that frees a card for the foundations
                for kk, mc, below in parts:
                    if below >= 0 and acc[below] < 0:
                        continue
                    hit = onto[mc] & tops
                    if hit:
                        for j in piles_of(hit, at):
                            if j != i:
                                out.append((0, i, kk, j))
            elif whole:
                hit = onto[foot] & tops
                if hit:
                    for j in piles_of(hit, at):
                        if j != i:
                            out.append((0, i, whole, j))
            # a king's run, off face-down cards, into the first space
            if king and spaces:
                out.append((0, i, whole, spaces[0]))
        if tal:
            tm = talon_cards.get(tal)
            if tm is None:
                tm = 0
                for c in tal:
                    tm |= 1 << c
                if len(talon_cards) > 50_000:
                    talon_cards.clear()
                talon_cards[tal] = tm
            hits = tm & dest
            if hits:
                at_q = cycle_of(len(tal), ptr, idle)
                steps = []
                while hits:
                    h = hits & -hits
                    hits ^= h
                    c = h.bit_length() - 1
                    q = tal.index(c) + 1
                    for t, wraps in at_q.get(q, ()):
                        steps.append((t, q, wraps, c))
                steps.sort()
                for t, q, wraps, c in steps:
                    k = acc[c]
                    if k >= 0 and c % 13 + 1 <= low:
                        mv = (2, t, q, -1 - k, wraps)
                        if draw1:
                            if not t or not out:
                                return [mv]
                            out.append(mv)
                            break
                        out.append(mv)
                        continue
                    if k >= 0:
                        out.append((2, t, q, -1 - k, wraps))
                    hit = onto[c] & tops
                    js = piles_of(hit, at) if hit else []
                    if spaces and space_card[c]:  # (the first space only)
                        js = sorted(js + spaces[:1])
                    for j in js:
                        out.append((2, t, q, j, wraps))
        if returns and max(map(len, fp)) > low:  # cards back, above the lowest
            for k in range(len(fp)):
                f = fp[k]
                if len(f) <= low:
                    continue
                c = f[-1]
                hit = onto[c] & tops
                js = piles_of(hit, at) if hit else []
                if spaces and space_card[c]:  # (the first space only)
                    js = sorted(js + spaces[:1])
                for j in js:
                    if last is None or (last[0] != T[j] and last[1] != Fp[k]):
                        out.append((3, k, j))
        return out

    parts_left: dict = {}  # (the talon, its pointer) or (a pile, face down) -> its count

    def part(p, dn) -> int:
        """A tableau pile's count of moves left (see :meth:`Knowledge.moves_left`)."""
        if not dn:
            return len(p)
        n = parts_left.get((p, dn))
        if n is None:
            if len(parts_left) > 50_000:
                parts_left.clear()
            n = parts_left[(p, dn)] = len(p) + dn + _disorder(p[::-1])
        return n

    def play(st, m):
        """The position after ``m``, and (the pile it came from, the pile it went to)."""
        cols, downs, fp, tal, ptr, pas, idle, nf, tab = st
        kind = m[0]
        if kind == 2:
            _, _, q, b, wraps = m
            c = tal[q - 1]
            tal, ptr, pas = tal[:q - 1] + tal[q:], q - 1, pas + wraps
            if b >= 0:
                old = cols[b]
                new = old + one[c]
                dn = downs[b]
                tab += part(new, dn) - part(old, dn)
                cols = cols[:b] + (new,) + cols[b + 1:]
                return (cols, downs, fp, tal, ptr, pas, False, nf, tab), (W, T[b])
            k = -1 - b
            fp = fp[:k] + (fp[k] + one[c],) + fp[k + 1:]
            return (cols, downs, fp, tal, ptr, pas, False, nf + 1, tab), (W, Fp[k])
        if kind == 3:
            _, k, b = m
            f = fp[k]
            fp = fp[:k] + (f[:-1],) + fp[k + 1:]
            old = cols[b]
            new = old + f[-1:]
            dn = downs[b]
            tab += part(new, dn) - part(old, dn)
            cols = cols[:b] + (new,) + cols[b + 1:]
            return (cols, downs, fp, tal, ptr, pas, False, nf - 1, tab), (Fp[k], T[b])
        cols, downs = list(cols), list(downs)
        a = m[1]
        p = cols[a]
        dn = downs[a]
        tab -= part(p, dn)
        if kind == 0:
            _, _, n, b = m
            old = cols[b]
            new = cols[b] = old + p[-n:]
            dn2 = downs[b]
            tab += part(new, dn2) - part(old, dn2)
            to = T[b]
        else:
            n, k = 1, m[2]
            fp = fp[:k] + (fp[k] + p[-1:],) + fp[k + 1:]
            to = Fp[k]
        rest = cols[a] = p[:-n]
        if dn >= len(rest):
            dn = downs[a] = len(rest) - 1 if rest else 0
        tab += part(rest, dn)
        return (tuple(cols), tuple(downs), fp, tal, ptr, pas, False, nf + kind, tab), (T[a], to)

    def cost(m):
        return m[1] + 1 if m[0] == 2 else 1

    talon_left: dict = {}  # (the talon, its pointer) -> its count

    def moves_left(st):  # Knowledge.moves_left: the talon's count, kept for those met, and
        tal, ptr = st[3], st[4]  # the tableau's, kept in the position
        left = talon_left.get((tal, ptr))
        if left is None:
            if len(talon_left) > 50_000:
                talon_left.clear()
            st_n = len(tal) - ptr
            left = talon_left[(tal, ptr)] = \
                st_n + (st_n + d - 1) // d + ptr + _disorder(tal[:ptr])
        return left + st[8]

    end_of = ends.__getitem__

    def key(st):  # Knowledge.lean_key
        cols, downs, fp = st[:3]
        return b"".join(sorted(map(add, cols, map(end_of, downs)))) + \
            bytes(map(len, fp)) + one[min(st[5], 255)]

    raw = _raw_of(T, Fp, S, W)

    piles, down = pos.piles, pos.down
    root = (tuple(bytes(piles[i]) for i in T), tuple(down[i] for i in T),
            tuple(bytes(piles[f]) for f in Fp), bytes(piles[W]) + bytes(piles[S][::-1]),
            len(piles[W]), pos.pass_no, pos.idle, sum(len(piles[f]) for f in Fp))
    root += (sum(part(p, dn) for p, dn in zip(*root[:2], strict=True)),)
    count = [0, 0]
    verdict, node, reason = yield from _lean_loop(
        root, moves, play, cost, moves_left, lambda st: size - st[7] + st[5],
        key, lambda st: st[7] == size, max_states, count)
    line = _replayed(pos, [x for m in _lean_path(node) for x in raw(m)], short,
                     "the lean look")
    return SolveResult(verdict, [eng.text(m) for m in line], count[0], count[1],
                       time.perf_counter() - start, reason, line)


def _lean_engine(pos, short, max_states):
    """The lean look (see :data:`LEAN_WIDTH`), a generator as :func:`_steps` is: it yields
    (positions expanded, positions stored) every few hundred positions, and returns a
    :class:`SolveResult`: ``won`` with a line the engine replays, else ``unknown`` (a
    narrow look proves nothing)."""
    kn = knowledge(pos.variant)
    eng = pos.engine
    start = time.perf_counter()
    F, S, W = kn.F, kn.S, kn.W
    size = eng.deck_size
    stock = (STOCK, S, 0, -1)
    cycles: dict = {}

    def fcount(q):
        return sum(len(q.piles[f]) for f in F)

    def cycle(q):
        """:func:`_talon_states` from ``q``, kept for each talon met."""
        at = (q.piles[S], q.piles[W], q.down[S], q.pass_no, q.idle)
        got = cycles.get(at)
        if got is None:
            got = _talon_states(q, stock)
            if len(cycles) > 20_000:
                cycles.clear()
            cycles[at] = got
        return got

    def play(q, seq):
        for m in seq:
            if m[0] == JUMP:
                q.push_turns(m[2], m[1], m[3])
            else:
                q.push_raw(m)

    def cost(seq):
        return seq[0][1] + 1 if seq[0][0] == JUMP else len(seq)

    def line_of(node):
        line = []
        for seq in _lean_path(node):
            for m in seq:
                line.extend((m[2],) * m[1] if m[0] == JUMP else (m,))
        return line

    def step(q, seq):
        q2 = q.copy()
        play(q2, seq)
        return q2, seq[-1]

    count = [0, 0]
    verdict, node, reason = yield from _lean_loop(
        pos.copy(), lambda q, last: _lean_moves(kn, q, last, cycle), step, cost,
        kn.moves_left, lambda q: size - fcount(q) + q.pass_no, kn.lean_key,
        lambda q: fcount(q) == size, max_states, count)
    line = _replayed(pos, line_of(node), short, "the lean look")
    return SolveResult(verdict, [eng.text(m) for m in line], count[0], count[1],
                       time.perf_counter() - start, reason, line)


def _lean_moves(kn, q, last, cycle):
    """The lean look's moves from ``q`` (see :data:`LEAN_WIDTH`), each a sequence of raw
    moves (a jump through the stock first for a card from the talon); a list of one where
    one move is to be played at once. ``last``: the raw move that led here."""
    eng = q.engine
    piles, down = q.piles, q.down
    F, T, W, Fset, Tset = kn.F, kn.T, kn.W, kn.Fset, kn.Tset
    low = 2 + min(len(piles[f]) for f in F)  # a card of a lower rank goes up at once
    legal = eng.gen(q)
    acc = eng._foundation_map(piles)
    out: list = []
    spaces = [j for j in T if not piles[j]]
    # the tableau's moves, pile by pile, each pile's move up first
    mine = sorted((m for m in legal if m[0] == MOVE and m[1] in Tset),
                  key=lambda m: (m[1], m[3] not in Fset))
    for m in mine:
        _, a, n, b = m
        p = piles[a]
        if b in Fset:
            if _rank(p[-1]) < low:
                return [(m,)]
            out.append((m,))
            continue
        up = len(p) - down[a]
        if not piles[b]:
            # a king's run, off face-down cards, into the first space
            if n == up and down[a] and b == spaces[0]:
                out.append((m,))
        elif n == up or p[-n - 1] in acc:
            out.append((m,))
    mover = eng.waste_mover(q)
    of_top = mover.of_top if mover is not None else None
    w = piles[W]
    steps = ([(0, None, w[-1])] if w else []) + \
        [(k, st, st[1][-1]) for k, st in enumerate(cycle(q), 1) if st[1]]
    draw1 = q.variant.stock.draw == 1
    for k, st, c in steps:
        if c == UNKNOWN:
            continue
        jump = () if not k else ((JUMP, k, (STOCK, kn.S, 0, -1), st),)
        if of_top is not None:
            ms = of_top(c)
        else:  # (the moves depend on more than the card: asked at that turn)
            r = q.copy()
            if jump:
                r.push_turns(jump[0][2], jump[0][1], jump[0][3])
            ms = [m for m in eng.gen_talon(r) if m[0] == MOVE and m[1] == W]
        ups = [m for m in ms if m[3] in Fset]
        if ups and _rank(c) <= low:
            if draw1:
                if not k or not out:
                    return [jump + (ups[0],)]
                out.append(jump + (ups[0],))
                break
            out.append(jump + (ups[0],))
            continue
        space = False
        for m in ms:
            if m[3] in Tset and not piles[m[3]]:
                if space:
                    continue
                space = True
            out.append(jump + (m,))
    if kn.returns and any(len(piles[f]) > low for f in F):  # cards back, above the lowest
        for m in legal:
            if m[0] != MOVE or m[1] not in Fset or m[3] not in Tset:
                continue
            if len(piles[m[1]]) <= low or (last is not None and
                                           (last[1] == m[3] or last[3] == m[1])):
                continue
            if not piles[m[3]] and m[3] != (spaces[0] if spaces else -1):
                continue
            out.append((m,))
    return out


def _safe_test(kn):
    """:meth:`Knowledge.safe_move`'s test, written for the fast whole searches: a function
    of (a card a foundation takes, the foundation that takes each card or -1, how many of
    each card the foundations hold) saying whether nothing can still need the card."""
    needers = [kn.needers.get(c, (UNKNOWN,)) for c in range(53)]
    harmless, decks = kn.harmless_needers, kn.decks

    def safe(c, up, onf) -> bool:
        need = needers[c]
        if not need:
            return True
        if UNKNOWN in need:
            return False
        if all(onf[u] >= decks for u in need):
            return True
        return harmless and not any(not onf[u] and (up[u] < 0 or
                                                    any(not onf[x] for x in needers[u]))
                                    for u in need)

    return safe


def _exhaust(pos, short, max_states, visited=None, line=None, jitter=None):
    """The whole depth-first search of :func:`_steps` where :meth:`Knowledge.exhaustible`
    holds, written for speed: the tableau piles as byte strings played on directly (no
    position, no move objects), the foundations as their top cards, the safe moves of
    :meth:`Knowledge.safe_move` (a card up that nothing can still need) played at once, the
    other moves in a fixed order: pile by pile, those of the piles whose next card a
    foundation takes first (a top card up, onto another, into a space). Alone at 300,000
    positions a deal, Streets and Alleys seeds 1-200: 50 won, 101 lost (47 won in plain pile
    order, 43 with every move up first). The same generator protocol, the same
    keys (``visited`` and ``line`` as there), and it searches every reachable position
    before saying ``lost``. Streets and Alleys seed 34 (lost): all 286,590 positions in
    1.4 s, against 5.7 s for :func:`_steps`, which ranks each position's moves. A won line
    is replayed in the engine before it is given. ``jitter`` (a random.Random): each
    position's piles are tried in an order of chance, those whose next card a foundation
    takes still first."""
    kn = knowledge(pos.variant)
    eng = pos.engine
    start = time.perf_counter()
    if visited is None:
        visited = set()
    T = kn.T
    space_card = eng.space_card
    onto = eng.onto_mask  # for each card, the cards it may go on (a bit mask)
    frules = eng.f_rules
    auto = kn.auto
    one = _BYTE
    piles = pos.piles
    cols = [bytes(piles[i]) for i in T]
    ftop = [piles[f][-1] if piles[f] else -1 for f, *_ in frules]
    flen = [len(piles[f]) for f, *_ in frules]
    onf = bytearray(53)
    for f, *_ in frules:
        for x in piles[f]:
            onf[x] += 1
    sep = _ENDS[0]
    nodes = 0

    def takes():  # card -> the foundation (its number in frules) that takes it now, or -1
        m = [-1] * 53
        for k, (_, base, on_top, most) in enumerate(frules):
            if flen[k] < most:
                for c in (base if ftop[k] < 0 else on_top[ftop[k]]):
                    if m[c] < 0:
                        m[c] = k
        return m

    safe = _safe_test(kn)

    at = [0] * 53  # the pile a top card tops (one deck: no two tops alike)
    bit = [1 << c for c in range(53)]
    n_cols = range(len(cols))

    def moves(up):
        # The piles whose next card a foundation takes come first (``first``), then the rest
        # in pile order; a safe move up is the only move offered.
        tops, space, first, rest = 0, -1, [], []
        for i in n_cols:
            p = cols[i]
            if p:
                tops |= bit[p[-1]]
                at[p[-1]] = i
                (first if len(p) > 1 and up[p[-2]] >= 0 else rest).append(i)
            elif space < 0:
                space = i   # (the spaces are alike: one is tried)
        out = []
        if jitter is not None:  # (each group's piles in an order of chance)
            jitter.shuffle(first)
            jitter.shuffle(rest)
        for i in (first + rest if first else rest):
            p = cols[i]
            c = p[-1]
            k = up[c]
            if k >= 0:
                if auto and safe(c, up, onf):
                    return [(i, -1 - k)]
                out.append((i, -1 - k))
            hit = onto[c] & tops
            while hit:
                b = hit & -hit
                out.append((i, at[b.bit_length() - 1]))
                hit ^= b
            if space >= 0 and len(p) > 1 and space_card[c]:
                out.append((i, space))
        return out

    def raw(steps):
        return [(MOVE, T[i], 1, T[j] if j >= 0 else frules[-1 - j][0]) for i, j in steps]

    def result(verdict, reason, steps=()):
        moves_ = _replayed(pos, raw(steps), short, "the fast whole search")
        return SolveResult(verdict, [eng.text(m) for m in moves_], nodes, len(visited),
                           time.perf_counter() - start, reason, moves_)

    key = sep.join(sorted(cols))
    visited.add(key)
    keep_line = line is not None
    if keep_line:
        line.add(key)
    size = eng.deck_size  # the game is won when the foundations hold it all
    if sum(flen) == size:
        return result(WON, "won")
    up = takes()
    stack = [iter(moves(up))]
    path: list = []   # (i, j, pile i before, pile j or the foundation before, takes, key)
    while stack:
        for i, j in stack[-1]:
            src = cols[i]
            c = src[-1]
            cols[i] = src[:-1]
            if j >= 0:
                dst = cols[j]
                cols[j] = dst + one[c]
                key = sep.join(sorted(cols))
                if key in visited:
                    cols[i], cols[j] = src, dst
                    continue
                visited.add(key)
                path.append((i, j, src, dst, up, key))
            else:
                key = sep.join(sorted(cols))
                if key in visited:
                    cols[i] = src
                    continue
                visited.add(key)
                k = -1 - j
                path.append((i, j, src, (ftop[k], flen[k]), up, key))
                ftop[k] = c
                flen[k] += 1
                onf[c] += 1
                up = takes()
                if sum(flen) == size:
                    return result(WON, f"won after searching {nodes + 1} positions",
                                  [(a, b) for a, b, *_ in path])
            nodes += 1
            if keep_line:
                line.add(key)
            stack.append(iter(moves(up)))
            if not nodes & SLICE:
                if max_states is not None and len(visited) > max_states:
                    return result(UNKNOWN_VERDICT, "memory budget spent")
                yield nodes, len(visited)
            break
        else:
            stack.pop()
            if path:
                i, j, src, old, up, key = path.pop()
                if j >= 0:
                    cols[j] = old
                else:
                    k = -1 - j
                    onf[src[-1]] -= 1
                    ftop[k], flen[k] = old
                cols[i] = src
                if keep_line:
                    line.discard(key)
    return result(LOST, f"all {len(visited)} reachable positions searched "
                        f"(up to symmetry and safe moves), none is won")


# The largest table of positions met that :func:`_exhaust_sink` keeps (one bit a position: 32
# MB). A Golf deal needs 6^7 x 17 x 13 bits, 7.7 MB.
SINK_MAX_BITS = 1 << 28
# Slices a round the driver gives the searches that run alone (Golf's, Accordion's and
# Pyramid's): the budgets are checked every 1,024 positions (Golf, some 2 ms; Pyramid, some
# 15 ms) or 8 rounds of two slices (Accordion, some 3 ms).
FAST_SHARES = {"sink": 16, "line": 8, "pairs": 16, "pyramid": 16}


@cache
def _sink_classes(eng) -> tuple[tuple[int, ...], tuple[tuple[bool, ...], ...]]:
    """The cards of a Golf-like game's deck grouped as the waste's build table sees them:
    ``cls[c]``, the class of card c, and ``ok[a][b]``, whether a card of class b may go on
    one of class a. Cards of a class take the same cards and go on the same cards (Golf's
    rule ignores suits: a class a rank), so the search names the waste by its top card's
    class."""
    table = eng.wbuild
    codes = range(52)
    sig = {c: (tuple(table[c][d] for d in codes), tuple(table[d][c] for d in codes))
           for c in codes}
    first: dict = {}
    cls = tuple(first.setdefault(sig[c], len(first)) for c in codes)
    rep = {k: c for c, k in reversed(list(enumerate(cls)))}
    ok = tuple(tuple(bool(table[rep[a]][rep[b]]) for b in range(len(first)))
               for a in range(len(first)))
    return cls, ok


def _sink_size(heights, stock: int, classes: int) -> int:
    """Positions :func:`_exhaust_sink` numbers from a root whose tableau piles have
    ``heights``: each pile's height, the stock's height and the waste's top class."""
    return (max(heights) + 1) ** len(heights) * (stock + 1) * classes


def _exhaust_sink(pos, short, max_states, prefer=None):
    """The whole depth-first search where :meth:`Knowledge.sink_exhaustible` holds (Golf),
    written for speed as :func:`_exhaust` is: a position is named by the tableau piles'
    heights, the stock's and the class of the waste's top card (:func:`_sink_classes`),
    one number, kept as one bit of a table; the piles are never copied (a move lowers a
    height, undone on the way back). The moves: each pile's top card onto the waste where
    its build table takes it, pile by pile, then the stock's turn.

    A position where some tableau card can no longer leave is not searched further: a card
    leaves only onto a waste top its class may go on, and each such card still to come (on
    the waste's top, in the stock, on the tableau but not beneath it in its own pile) is
    counted by class; only the covering of the waste's top lowers those counts, so that is
    where it is checked, and at the root for every card (a root so is lost at once).

    Golf seeds 1-200, this machine: all resolved (93 won, 107 lost), the slowest in 2.4 s,
    median 0.26 s; through the engine, best-first, 71 of them were unknown at 5 s. The same
    generator protocol as the other searches; it searches every position reachable from
    ``pos`` (but those cut short so) before saying ``lost``. ``prefer``: raw moves to try
    first at the root, in order (the hints' vote). A won line is replayed in the engine
    before it is given."""
    kn = knowledge(pos.variant)
    eng = pos.engine
    start = time.perf_counter()
    T, S, W = kn.T, kn.S, kn.W
    cls, ok = _sink_classes(eng)
    K = len(ok)
    piles = pos.piles
    cols = [[cls[c] for c in piles[i]] for i in T]
    nT = len(cols)
    stock = [cls[c] for c in reversed(piles[S])]  # in the order turned
    ns = len(stock)
    h = [len(p) for p in cols]
    base = max(h) + 1
    place = [0] * nT  # what a pile's height counts for in a position's number
    mul = (ns + 1) * K
    for i in reversed(range(nT)):
        place[i] = mul
        mul *= base
    seen = bytearray(mul // 8 + 1)
    hk = sum(h[i] * place[i] for i in range(nT))
    onto = [[b for b in range(K) if ok[b][a]] for a in range(K)]  # the classes a goes on
    takes = [[b for b in range(K) if ok[a][b]] for a in range(K)]  # the classes going on a
    supply = [0] * K  # the cards of each class still to come (waste top, stock, tableau)
    on_tableau = [0] * K
    for p in cols:
        for a in p:
            supply[a] += 1
            on_tableau[a] += 1
    for a in stock:
        supply[a] += 1
    top0 = cls[piles[W][-1]]
    supply[top0] += 1
    # For each class, its tableau cards: (pile, place in the pile, how many of the cards
    # beneath it it may go on: they are still there while it is)
    where: list[list[tuple[int, int, int]]] = [[] for _ in range(K)]
    for i, p in enumerate(cols):
        for j, a in enumerate(p):
            where[a].append((i, j, sum(1 for b in p[:j] if ok[b][a])))

    def lost(a) -> bool:  # a tableau card of class a can never leave
        s = sum(supply[b] for b in onto[a])
        return any(j < h[p] and s <= under for p, j, under in where[a])

    left = sum(h)
    nodes = 0

    def raw(path):
        return [(MOVE, T[i], 1, W) if i >= 0 else (STOCK, S, 0, -1) for i in path]

    def result(verdict, reason, path=()):
        moves_ = _replayed(pos, raw(path), short, "the fast whole search")
        return SolveResult(verdict, [eng.text(m) for m in moves_], nodes, nodes + 1,
                           time.perf_counter() - start, reason, moves_)

    if not left:
        return result(WON, "won")
    if any(on_tableau[a] and lost(a) for a in range(K)):
        return result(LOST, "a tableau card can never leave: every card it may go on is "
                            "beneath it or covered on the waste")
    k0 = hk + top0
    seen[k0 >> 3] |= 1 << (k0 & 7)
    # The root's moves, in the order preferred; below it each position's moves are found
    # as the search comes to them: ``nxt``, the next pile to look at (nT: the stock's turn).
    firsts = [i for i in range(nT) if h[i] and ok[top0][cols[i][-1]]]
    if ns:
        firsts.append(-1)
    if prefer:
        order = {m: k for k, m in enumerate(prefer)}
        firsts.sort(key=lambda i: order.get(raw([i])[0], len(order)))
    path: list[int] = []
    for first in firsts:
        # the frames below the root: the next move to try, the waste's top, the stock's height
        nxt, tops, sps = [first], [top0], [0]
        while nxt:
            i, top, sp = nxt[-1], tops[-1], sps[-1]
            if len(nxt) > 1:
                okt = ok[top]
                while i < nT:
                    hi = h[i]
                    if hi and okt[cols[i][hi - 1]]:
                        break
                    i += 1
                nxt[-1] = i + 1
            else:
                nxt[-1] = nT + 1  # the root's move, then back to the next first move
                if i < 0:
                    i = nT
            if i < nT:
                hi = h[i] - 1
                ntop, nsp = cols[i][hi], sp
                k = hk - place[i] + sp * K + ntop
            elif i == nT and sp < ns:
                ntop, nsp = stock[sp], sp + 1
                k = hk + nsp * K + ntop
            else:  # every move tried: back to the position before
                nxt.pop()
                tops.pop()
                sps.pop()
                if path:
                    m = path.pop()
                    if m >= 0:
                        on_tableau[cols[m][h[m]]] += 1
                        h[m] += 1
                        hk += place[m]
                        left += 1
                    supply[tops[-1]] += 1
                continue
            b = seen[k >> 3]
            bit = 1 << (k & 7)
            if b & bit:
                continue
            seen[k >> 3] = b | bit
            nodes += 1
            if i < nT:
                h[i] = hi
                hk -= place[i]
                left -= 1
                on_tableau[ntop] -= 1
                path.append(i)
                if not left:
                    return result(WON, f"won after searching {nodes} positions", path)
            else:
                path.append(-1)
            supply[top] -= 1  # covered for good
            nxt.append(0)
            tops.append(ntop)
            sps.append(nsp)
            # A card of a class that went on the covered one: where it can no longer leave,
            # nothing below is worth searching (:func:`lost`, inline).
            for a in takes[top]:
                if on_tableau[a]:
                    s = 0
                    for b in onto[a]:
                        s += supply[b]
                    for p, j, under in where[a]:
                        if j < h[p] and s <= under:
                            break
                    else:
                        continue
                    nxt[-1] = nT + 1
                    break
            if not nodes & SLICE:
                yield nodes, nodes + 1
    return result(LOST, f"all {nodes + 1} reachable positions searched (those where a card "
                        f"can no longer leave cut short), none is won")


# The orders of Accordion's searches on the line (:func:`_exhaust_line`): each searches the
# whole space, interleaved, a slice each in turn. On seeds 1-200, each alone at 5 s: folds
# from the left, 195 won (a fold onto the pile next to it before one three piles to the left;
# the other way round, 198); from the right, 185; the two together, all 200. Seeds 1-1000
# at 10 s: 998 won, 2 unknown (754, which folding from the right alone wins in 7 s, and 912,
# which the left order with the longer fold first wins in 0.2 s; a third search would
# settle 912 and leave 754 at some 21 s).
LINE_ORDERS = ("left", "right")


def _exhaust_line(pos, short, max_states, prefer=None):
    """The whole depth-first search where :meth:`Knowledge.line_exhaustible` holds
    (Accordion): the line as a string of its piles' top cards (a pile moves whole, and only
    its top card is ever matched again), the cards still in the stock dealt onto its end
    first (dealing and folding commute: see ``Knowledge.deal_first``). A fold of the pile at
    k onto the one d places to its left (as the engine's fold table takes it) makes the
    string ``s[:k-d] + s[k] + s[k-d+1:k] + s[k+1:]``; the game is won at one pile.

    The searches of :data:`LINE_ORDERS` run interleaved, a slice each, each with its table of
    strings met: the deals one order wins in a second another may not win in minutes. Any
    win is a win, and any one that ends having searched its whole space proves a loss. Accordion
    seeds 1-1000 at 10 s a deal, this machine (two workers): 998 won, 2 unknown, median 0.08
    s, p90 0.68 s (seeds 1-200 all won, the slowest in 4.6 s); through the engine, at 10 s,
    27 of seeds 1-40 won and 13 unknown. ``prefer``: raw moves to try
    first at the root (the hints' vote), where there is nothing to deal. A won line is
    replayed in the engine before it is given."""
    eng = pos.engine
    start = time.perf_counter()
    P, S = eng.groups.pyramid, knowledge(pos.variant).S
    piles = pos.piles
    n = eng.line_length(piles)
    deals = len(piles[S]) if S >= 0 else 0
    line = bytes(piles[P[k]][-1] for k in range(n)) + \
        (bytes(reversed(piles[S])) if deals else b"")
    table = eng.fold_table
    reach = sorted(eng.accordion.reach)
    one = _BYTE
    counts = [0] * len(LINE_ORDERS)
    sizes = [0] * len(LINE_ORDERS)

    def raw(path):
        return [(STOCK, S, 0, -1)] * deals + [(FOLD, P[k], 0, P[k - d]) for k, d in path]

    def result(verdict, reason, path=None):
        moves_ = _replayed(pos, raw(path), short, "the search on the line") \
            if path is not None else []
        return SolveResult(verdict, [eng.text(m) for m in moves_], sum(counts), sum(sizes),
                           time.perf_counter() - start, reason, moves_)

    def folds(s, reverse):  # (k, d, the line after the fold)
        out = []
        for k in range(1, len(s)):
            c = s[k]
            for d in reach:
                if k >= d and table[s[k - d]][c]:
                    out.append((k, d, s[:k - d] + one[c] + s[k - d + 1:k] + s[k + 1:]))
        if reverse:
            out.reverse()
        return out

    if len(line) <= 1:
        return result(WON, "won", [])

    def search(number, reverse, cap):
        seen = {line}
        kids = folds(line, reverse)
        if prefer and not deals and number == 0:  # (the first search tries them first)
            order = {m: j for j, m in enumerate(prefer)}
            kids.sort(key=lambda f: order.get(raw([f[:2]])[0], len(order)))
        frames = [[kids, 0]]
        path: list[tuple[int, int]] = []
        nodes = 0
        while frames:
            fr = frames[-1]
            kids, i = fr
            while i < len(kids) and kids[i][2] in seen:
                i += 1
            if i == len(kids):
                frames.pop()
                if path:
                    path.pop()
                continue
            fr[1] = i + 1
            k, d, s = kids[i]
            seen.add(s)
            nodes += 1
            path.append((k, d))
            if len(s) == 1:
                counts[number], sizes[number] = nodes, len(seen)
                return WON, path, number
            frames.append([folds(s, reverse), 0])
            if not nodes & SLICE:
                counts[number], sizes[number] = nodes, len(seen)
                if cap is not None and len(seen) > cap:
                    return UNKNOWN_VERDICT, None, number
                yield
        counts[number], sizes[number] = nodes, len(seen)
        return LOST, None, number

    cap = max_states // len(LINE_ORDERS) if max_states is not None else None
    runs = [search(j, how == "right", cap) for j, how in enumerate(LINE_ORDERS)]
    while runs:
        for run in list(runs):
            try:
                next(run)
            except StopIteration as done:
                verdict, path, number = done.value
                if verdict == WON:
                    return result(WON, f"won after searching {sum(counts)} lines", path)
                if verdict == LOST:
                    return result(LOST, f"all {sizes[number]} lines that folds reach searched "
                                        "(every card dealt first), none is won")
                runs.remove(run)
        yield sum(counts), sum(sizes)
    return result(UNKNOWN_VERDICT, "memory budget spent")


class _PairView:
    """A Pyramid position as the searches of the pyramid read it: the pyramid's places
    (``slots``, their piles), each one's card (-1 gone) and the places covering it (a bit
    mask), and the classes of the cards (cards that take the same partners, from the match
    table: a rank where pairs add up to 13), each card's partners' classes; with the moves of
    the pyramid and the talon counted by class (:func:`_exhaust_pairs`' view)."""

    def __init__(self, pos):
        eng = pos.engine
        piles = pos.piles
        self.slots = [i for i, _ in eng.pyramid_slots]
        at = {i: k for k, i in enumerate(self.slots)}
        self.n = len(self.slots)
        self.card = [piles[i][-1] if piles[i] else -1 for i in self.slots]
        self.cover = [sum(1 << at[j] for j in cv) for _, cv in eng.pyramid_slots]
        self.alone, self.match = eng.single_codes, eng.match_table
        first: dict = {}
        self.cls = [first.setdefault(self.match[c], len(first)) for c in range(52)]
        self.K = len(first)
        self.takes = [sorted({self.cls[d] for d in self.match[c]}) for c in range(52)]

    def mask(self) -> int:
        """The pyramid's cards left, as a bit mask."""
        return sum(1 << k for k in range(self.n) if self.card[k] >= 0)

    def free(self, m) -> list:
        """The pyramid's cards left in ``m`` that nothing covers: (place, card) each."""
        card, cover = self.card, self.cover
        return [(k, card[k]) for k in range(self.n) if m >> k & 1 and not m & cover[k]]

    def classes(self, talon) -> bytes:
        """How many of ``talon``'s cards (the kings left out) fall in each class."""
        counts = [0] * self.K
        for c in talon:
            if c not in self.alone:
                counts[self.cls[c]] += 1
        return bytes(counts)

    def settle(self, m, out) -> int:
        """``m`` with the cards removed alone (kings) removed at once: each appended to
        ``out`` as (card, None)."""
        again = True
        while again:
            again = False
            for k, c in self.free(m):
                if c in self.alone:
                    m &= ~(1 << k)
                    out.append((c, None))
                    again = True
        return m

    def children(self, m, t) -> list:
        """(removals, mask, talon counts) after each removal from the pyramid ``m`` and
        the talon counted by class ``t``: two free pyramid cards paired, or a free pyramid
        card with a talon card of a class it takes (the removal (card, -1 - class)); the
        kings it frees removed too."""
        out = []
        fr = self.free(m)
        match, takes, settle = self.match, self.takes, self.settle
        for x, (a, ca) in enumerate(fr):
            partners = match[ca]
            for b, cb in fr[x + 1:]:
                if cb in partners:
                    steps = [(ca, cb)]
                    out.append((steps, settle(m & ~(1 << a) & ~(1 << b), steps), t))
            for k in takes[ca]:
                if t[k]:
                    steps = [(ca, -1 - k)]
                    out.append((steps, settle(m & ~(1 << a), steps),
                                t[:k] + _BYTE[t[k] - 1] + t[k + 1:]))
        return out


def _exhaust_pairs(pos, short, max_states, prefer=None):
    """The whole depth-first search where :meth:`Knowledge.pairs_exhaustible` holds
    (Pyramid, passes unlimited), on the pyramid's cards left (a bit mask) and the talon's
    cards (the waste and the stock), counted by class.

    The stock turned over and over reaches every pointer once a card has been removed (and
    from the deal), so any talon card may come to the waste's top: a pyramid card that
    nothing covers pairs with any talon card its match table takes, whatever the talon's
    order. Two talon cards paired together (side by side there) are never needed: the
    talon's cards cover no pyramid card, so a win that removes them wins without doing so.
    So the talon counts only as how many cards of each class it holds (cards that take the
    same partners, a rank where pairs add up to 13), and a card removed alone (a king) is
    removed at once: it frees cards and takes no partner. A won line is played out in the
    engine (:func:`_played_out`), the stock turned between removals. ``prefer`` is not used
    (the line's first move may be a turn of the stock)."""
    eng = pos.engine
    start = time.perf_counter()
    S, W = eng.groups.stock, eng.groups.waste
    piles = pos.piles
    view = _PairView(pos)
    cls, K, children = view.cls, view.K, view.children
    talon = [c for c in piles[W] + piles[S] if c not in view.alone]
    nodes = 0

    def result(verdict, reason, steps=None):
        moves_: list = []
        if steps is not None:
            left = {k: [c for c in talon if cls[c] == k] for k in range(K)}
            removals = []
            for a, b in steps:  # a talon class named: the first card of it left there
                removals.append((a,) if b is None else (a, left[-1 - b].pop(0)) if b < 0
                                else (a, b))
            moves_ = _played_out(pos, removals)  # (the talon's kings may stay there)
            moves_ = _replayed(pos, moves_, short, "the search of the pyramid and talon")
        return SolveResult(verdict, [eng.text(m) for m in moves_], nodes, len(seen),
                           time.perf_counter() - start, reason, moves_)

    root: list = []
    mask = view.settle(view.mask(), root)
    t0 = view.classes(talon)
    seen = {(mask, t0)}
    if not mask:
        return result(WON, "won", root)
    stack = [iter(children(mask, t0))]
    path = [root]
    while stack:
        for steps, m, t in stack[-1]:
            if (m, t) in seen:
                continue
            seen.add((m, t))
            nodes += 1
            path.append(steps)
            if not m:
                return result(WON, f"won after searching {nodes} positions",
                              [s for p in path for s in p])
            stack.append(iter(children(m, t)))
            if not nodes & SLICE:
                if max_states is not None and len(seen) > max_states:
                    return result(UNKNOWN_VERDICT, "memory budget spent")
                yield nodes, len(seen)
            break
        else:
            stack.pop()
            path.pop()
    return result(LOST, f"all {len(seen)} reachable positions searched (the talon by its "
                        f"cards' classes, every one within reach), none is won")


def _exhaust_pyramid(pos, short, max_states, prefer=None):
    """The whole depth-first search where :meth:`Knowledge.pyramid_talon_exhaustible` holds
    (Pyramid with its passes limited), on the pyramid's cards left (a bit mask), the talon as
    one sequence (the waste bottom to top, then the stock top to bottom) with a pointer (the
    waste's size), whether the stock's top card is turned up (it is available there), and
    the pass under way.

    A king nothing covers goes at once (it frees cards and takes no partner), and so does a
    king on top of the waste or turned up on the stock (its going uncovers a card and takes
    nothing away). The other moves: two available cards paired (free pyramid cards, the
    waste's top, the stock's turned-up top), the stock turned (its top card up in place, or
    that card onto the waste and the next one up; empty, the waste turned over while passes
    are left). A position met again in a later pass is not searched again: everything the
    later one may do, the earlier one may too. It searches every reachable position before
    saying ``lost``; a won line is replayed in the engine before it is given. ``prefer``: raw
    moves to try first at the root."""
    eng = pos.engine
    start = time.perf_counter()
    S, W, f = eng.groups.stock, eng.groups.waste, eng.groups.foundations[0]
    piles = pos.piles
    view = _PairView(pos)
    slots, n, card, cover = view.slots, view.n, view.card, view.cover
    alone, match = view.alone, view.match
    passes = eng.stock.passes
    clear_all = eng.variant.win == "foundations"
    turn = (STOCK, S, 0, -1)
    pair_ws = (PAIR, min(S, W), 0, max(S, W))
    nodes = 0
    met: dict = {}  # (mask, talon, pointer, stock top up) -> the earliest pass it was met in

    def settle(m, tal, ptr, up, out):
        """Kings nothing covers, on the waste, or up on the stock, removed (the moves
        appended to ``out``)."""
        again = True
        while again:
            again = False
            for k in range(n):
                if m >> k & 1 and not m & cover[k] and card[k] in alone:
                    m &= ~(1 << k)
                    out.append((MOVE, slots[k], 1, f))
                    again = True
            while ptr and tal[ptr - 1] in alone:
                tal, ptr = tal[:ptr - 1] + tal[ptr:], ptr - 1
                out.append((MOVE, W, 1, f))
            if not up and ptr < len(tal):  # (turned up at once: it only adds a card)
                up = True
                out.append(turn)
            if tal[ptr:ptr + 1] and tal[ptr] in alone:
                tal, up = tal[:ptr] + tal[ptr + 1:], False
                out.append((MOVE, S, 1, f))
                again = True
        return m, tal, ptr, up

    def children(m, tal, ptr, up, pno):
        """(moves, mask, talon, pointer, stock top up, pass) after each move, pairs first."""
        out = []
        fr = [k for k in range(n) if m >> k & 1 and not m & cover[k]]
        wtop = tal[ptr - 1] if ptr else -1
        stop = tal[ptr] if up else -1
        for x, a in enumerate(fr):
            partners = match[card[a]]
            for b in fr[x + 1:]:
                if card[b] in partners:
                    i, j = sorted((slots[a], slots[b]))
                    mv = [(PAIR, i, 0, j)]
                    out.append((mv, *settle(m & ~(1 << a) & ~(1 << b), tal, ptr, up, mv), pno))
            if wtop in partners:
                i, j = sorted((slots[a], W))
                mv = [(PAIR, i, 0, j)]
                out.append((mv, *settle(m & ~(1 << a), tal[:ptr - 1] + tal[ptr:], ptr - 1, up,
                                        mv), pno))
            if stop in partners:
                i, j = sorted((slots[a], S))
                mv = [(PAIR, i, 0, j)]
                out.append((mv, *settle(m & ~(1 << a), tal[:ptr] + tal[ptr + 1:], ptr, False,
                                        mv), pno))
        if wtop >= 0 and stop in match[wtop]:
            mv = [pair_ws]
            out.append((mv, *settle(m, tal[:ptr - 1] + tal[ptr + 1:], ptr - 1, False, mv), pno))
        if ptr < len(tal):
            mv = [turn]
            # (the engine turns the next card up as the last goes to the waste)
            out.append((mv, *settle(m, tal, ptr + 1, ptr + 1 < len(tal), mv), pno))
        elif tal and (pno < passes or not passes):
            mv = [turn]
            out.append((mv, *settle(m, tal, 0, False, mv), pno + 1))
        return out

    def won(m, tal) -> bool:
        return not m and not (clear_all and tal)

    # The same position with the passes unlimited (:func:`_exhaust_pairs`' view: the pyramid's
    # mask and how many talon cards of each class): a position that cannot clear the pyramid
    # there cannot here either, where the talon's cards come within reach less often.
    known: dict = {}  # (mask, talon classes) -> whether the pyramid can still be cleared

    def clearable(m, t) -> bool:
        if not m:  # (cleared: what is left is the talon's, for the goal of all 52 cards)
            return True
        got = known.get((m, t))
        if got is not None:
            return got
        # depth-first, every position it meets lost unless a win is found through it
        line = [(m, t)]
        stack = [iter(view.children(m, t))]
        while stack:
            for _, m2, t2 in stack[-1]:
                got = known.get((m2, t2))
                if got is False:
                    continue
                if got or not m2:
                    for x in line:
                        known[x] = True
                    return True
                known[(m2, t2)] = False  # (until a win through it is found)
                line.append((m2, t2))
                stack.append(iter(view.children(m2, t2)))
                break
            else:
                stack.pop()
                known[line.pop()] = False
        return False

    def result(verdict, reason, path=()):
        line = _replayed(pos, [x for mv in path for x in mv], short,
                         "the search of the pyramid and the talon")
        return SolveResult(verdict, [eng.text(x) for x in line], nodes, len(met),
                           time.perf_counter() - start, reason, line)

    root: list = []
    cut = 0
    m0 = view.mask()
    tal0 = bytes(piles[W]) + bytes(piles[S][::-1])
    up0 = pos.down[S] < len(piles[S])
    m0, tal0, ptr0, up0 = settle(m0, tal0, len(piles[W]), up0, root)
    if won(m0, tal0):
        return result(WON, "won", [root])
    met[(m0, tal0, ptr0, up0)] = pos.pass_no
    first = children(m0, tal0, ptr0, up0, pos.pass_no)
    if prefer:
        order = {x: k for k, x in enumerate(prefer)}
        first.sort(key=lambda ch: order.get(ch[0][0], len(order)))
    stack = [iter(first)]
    path = [root]
    while stack:
        for mv, m, tal, ptr, up, pno in stack[-1]:
            key = (m, tal, ptr, up)
            old = met.get(key)
            if old is not None and old <= pno:
                continue
            met[key] = pno
            nodes += 1
            path.append(mv)
            if won(m, tal):
                return result(WON, f"won after searching {nodes} positions", path)
            if RELAXED and not clearable(m, view.classes(tal)):
                path.pop()
                cut += 1
                continue
            stack.append(iter(children(m, tal, ptr, up, pno)))
            if not nodes & SLICE:
                if max_states is not None and len(met) > max_states:
                    return result(UNKNOWN_VERDICT, "memory budget spent")
                yield nodes, len(met)
            break
        else:
            stack.pop()
            path.pop()
    return result(LOST, f"all {len(met)} reachable positions searched (a position met again "
                        f"in a later pass left out; {cut} whose pyramid could not be cleared "
                        f"even with the passes unlimited not searched further), none is won")


def _played_out(pos, removals) -> list:
    """The engine's moves that make ``removals`` (each the cards one move removes, a pair or
    one alone) from ``pos``: before each, the stock turned (and turned over) until a legal
    move removes those cards (see :func:`_exhaust_pairs`)."""
    eng = pos.engine
    S, W = eng.groups.stock, eng.groups.waste
    q = pos.copy()
    line: list = []
    turn = (STOCK, S, 0, -1)
    for cards in removals:
        want = frozenset(cards)
        for _ in range(2 * (len(q.piles[S]) + len(q.piles[W])) + 4):
            ms = q.raw_moves()
            hit = [m for m in ms if m[0] != STOCK and frozenset(
                (q.piles[m[1]][-1], q.piles[m[3]][-1]) if m[0] == PAIR
                else (q.piles[m[1]][-1],)) == want]
            if hit:
                break
            if turn not in ms:
                hit = []
                break
            q.push_raw(turn)
            line.append(turn)
        if not hit:
            raise SolverError("the search of the pyramid and talon found a removal the engine "
                              "does not reach; please report this deal")
        q.push_raw(hit[0])
        line.append(hit[0])
    return line


def _exhaust_talon(pos, short, max_states, prefer=None):
    """The whole depth-first search of :func:`_steps` where
    :meth:`Knowledge.talon_exhaustible` holds (Klondike), written for speed as
    :func:`_exhaust` is: the piles as byte strings played on directly, the talon as one
    sequence (the waste bottom to top, then the stock top to bottom) and a pointer (the
    waste's size), a move from the talon a jump of the pointer through the stock's cycle
    (each turn of it a stock action) and then the move; the safe moves of
    :meth:`Knowledge.safe_move` played at once. The key names the tableau (piles
    interchangeable), the foundations (interchangeable) and the talon, its pointer left out
    where the stock's turns reach the same pointers (a multiple of the draw, or the end),
    else the least pointer met of its class kept (see ``Knowledge.dominance``). It searches
    every reachable position before saying ``lost``. A won line is replayed in the engine
    before it is given. ``prefer``: raw moves to try first at the root, in order, as in
    :func:`solve`."""
    start = time.perf_counter()
    kn, eng, T, S, W, d, tb, onto, space_card, frules, Fp = _bytes_game(pos)
    nT, returns, auto = len(T), eng.f_returns, kn.auto
    waste_auto = W in kn.auto_sources
    dominance = kn.dominance
    ends, one = _ENDS, _BYTE
    visited: set[bytes] = set()
    dom: dict[bytes, int] = {}
    nodes = 0
    fcache: dict = {}

    def fstate(fp):
        """The foundations' state: what they take (card -> foundation, or -1), the cards on
        them, and their part of the key (the piles interchangeable)."""
        got = fcache.get(fp)
        if got is None:
            up = foundation_takes(fp)[0]
            onf = bytearray(53)
            for p in fp:
                for x in p:
                    onf[x] = 1
            takes = 0
            for c in range(52):
                if up[c] >= 0:
                    takes |= 1 << c
            got = (up, onf, b"".join(sorted(p + ends[0] for p in fp)), takes)
            if len(fcache) > 5_000:  # (a bound on the memory it takes: some 4 MB)
                fcache.clear()
            fcache[fp] = got
        return got

    safe = _safe_test(kn)

    foundation_takes, run_start = _taker(frules), _run_start(tb)
    cycle = _pointer_cycle(d)  # (no position here is idle: see talon_exhaustible)
    tacc_mask = eng.tacc_mask
    space_mask = sum(1 << c for c in range(52) if space_card[c])

    def flip(cols, downs, i):
        n = len(cols[i])
        if downs[i] >= n:
            downs[i] = n - 1 if n else 0

    def settle(cols, downs, parts, fp, tal, ptr, raw, changed=None):
        """Play the safe moves (appended to ``raw``); give the foundations, talon, pointer.
        ``changed``: where the foundations are as in a settled position, the tableau piles
        whose top card is new (the other tops are not safe, and the waste's top is not
        unless it is new too, ``changed`` then ending with -1)."""
        if changed is not None:
            up, onf = fstate(fp)[:2]
            for i in changed:
                if i < 0:
                    if not waste_auto or not ptr:
                        continue
                    c = tal[ptr - 1]
                elif cols[i]:
                    c = cols[i][-1]
                else:
                    continue
                if up[c] >= 0 and safe(c, up, onf):
                    break
            else:
                return fp, tal, ptr
        while True:
            up, onf = fstate(fp)[:2]
            for i in range(nT):
                p = cols[i]
                if p:
                    c = p[-1]
                    k = up[c]
                    if k >= 0 and safe(c, up, onf):
                        cols[i] = p[:-1]
                        flip(cols, downs, i)
                        parts[i] = cols[i] + ends[downs[i]]
                        fp = fp[:k] + (fp[k] + one[c],) + fp[k + 1:]
                        raw.append((MOVE, T[i], 1, Fp[k]))
                        break
            else:
                if waste_auto and ptr:
                    c = tal[ptr - 1]
                    k = up[c]
                    if k >= 0 and safe(c, up, onf):
                        tal = tal[:ptr - 1] + tal[ptr:]
                        ptr -= 1
                        fp = fp[:k] + (fp[k] + one[c],) + fp[k + 1:]
                        raw.append((MOVE, W, 1, Fp[k]))
                        continue
                return fp, tal, ptr

    def moves(cols, downs, fp, tal, ptr):
        """The moves, likeliest first: cards up, runs that turn a card or empty a pile,
        the talon's cards, the other runs, cards back from the foundations."""
        up, _, _, takes = fstate(fp)
        tops, space, at, live = 0, -1, [0] * 53, takes
        for j in range(nT):
            p = cols[j]
            if p:
                t = p[-1]
                tops |= 1 << t
                at[t] = j
                live |= tacc_mask[t]
            elif space < 0:
                space = j   # (the spaces are alike: one is tried)
        if space >= 0:
            live |= space_mask
        first, turn, talon, rest = [], [], [], []
        for i in range(nT):
            p = cols[i]
            if not p:
                continue
            n = len(p)
            k = up[p[-1]]
            if k >= 0:
                first.append((1, i, k))
            low = downs[i]
            x = run_start(p, low)
            for b in range(x, n):
                out = turn if b == low else rest  # (a card turned, or a pile emptied)
                c = p[b]
                hit = onto[c] & tops
                while hit:
                    h = hit & -hit
                    hit ^= h
                    j = at[h.bit_length() - 1]
                    if j != i:
                        out.append((0, i, n - b, j))
                if space >= 0 and b and space_card[c]:
                    out.append((0, i, n - b, space))
        if tal:
            for t, q, _ in ([(0, ptr, 0)] if ptr else []) + cycle(len(tal), ptr, False):
                if t and q == ptr:
                    continue  # (the waste's top card again, a pass later: the same position)
                c = tal[q - 1]
                if not live >> c & 1:
                    continue  # (no move for it)
                k = up[c]
                if k >= 0:
                    first.append((2, t, q, -1 - k))
                hit = onto[c] & tops
                while hit:
                    h = hit & -hit
                    hit ^= h
                    talon.append((2, t, q, at[h.bit_length() - 1]))
                if space >= 0 and space_card[c]:
                    talon.append((2, t, q, space))
        out = first + turn + talon + rest
        if returns:
            for k in range(len(fp)):
                p = fp[k]
                if p:
                    c = p[-1]
                    hit = onto[c] & tops
                    while hit:
                        h = hit & -hit
                        hit ^= h
                        out.append((3, k, at[h.bit_length() - 1]))
                    if space >= 0 and space_card[c]:
                        out.append((3, k, space))
        return out

    raw_of = _raw_of(T, Fp, S, W)

    def result(verdict, reason, path=()):
        line = []
        for m, raw in path:
            if m is not None:
                line += raw_of(m)
            line += raw
        line = _replayed(pos, line, short, "the fast whole search")
        return SolveResult(verdict, [eng.text(m) for m in line], nodes, len(visited) + len(dom),
                           time.perf_counter() - start, reason, line)

    def fresh(parts, fp, tal, ptr) -> bool:
        key = b"".join(sorted(parts)) + fstate(fp)[2] + tal
        n = len(tal)
        if d == 1 or not ptr % d or ptr == n:
            key += b"\xff\x00"
        elif not dominance:
            key += bytes((254, ptr))
        else:  # a class of a dominance: new only with a pointer less than any met in it
            key += bytes((255, ptr % d))
            old = dom.get(key)
            if old is not None and old <= ptr:
                return False
            dom[key] = ptr
            return True
        if key in visited:
            return False
        visited.add(key)
        return True

    piles, down = pos.piles, pos.down
    cols = [bytes(piles[i]) for i in T]
    downs = [down[i] for i in T]
    parts = [cols[i] + ends[downs[i]] for i in range(nT)]
    fp = tuple(bytes(piles[f]) for f in Fp)
    tal, ptr = bytes(piles[W]) + bytes(piles[S][::-1]), len(piles[W])
    size = eng.deck_size
    raw0: list = []
    if auto:
        fp, tal, ptr = settle(cols, downs, parts, fp, tal, ptr, raw0)
    path = [(None, raw0)]
    if sum(map(len, fp)) == size:
        return result(WON, "won", path)
    fresh(parts, fp, tal, ptr)
    # each frame: the position (its piles as lists, foundations, talon, pointer) and its
    # moves not yet tried
    ms = moves(cols, downs, fp, tal, ptr)
    if prefer:  # (the first raw move of each: the stock action, for a jump)
        order = {m: k for k, m in enumerate(prefer)}
        ms.sort(key=lambda m: order.get(raw_of(m)[0], len(order)))
    frames = [(cols, downs, parts, fp, tal, ptr, iter(ms))]
    while frames:
        fr = frames[-1]
        m = next(fr[6], None)
        if m is None:
            frames.pop()
            path.pop()
            continue
        cols, downs, parts, fp, tal, ptr = fr[0][:], fr[1], fr[2][:], fr[3], fr[4], fr[5]
        kind = m[0]
        changed = None
        if kind == 0:
            _, a, n, b = m
            p = cols[a]
            rest = cols[a] = p[:-n]
            cols[b] += p[-n:]
            if downs[a] >= len(rest):
                downs = downs[:]
                downs[a] = len(rest) - 1 if rest else 0
            parts[a] = rest + ends[downs[a]]
            parts[b] = cols[b] + ends[downs[b]]
            changed = (a,)  # (the top of b was the top of a)
        elif kind == 1:
            _, a, k = m
            p = cols[a]
            rest = cols[a] = p[:-1]
            if downs[a] >= len(rest):
                downs = downs[:]
                downs[a] = len(rest) - 1 if rest else 0
            parts[a] = rest + ends[downs[a]]
            fp = fp[:k] + (fp[k] + p[-1:],) + fp[k + 1:]
        elif kind == 2:
            _, _, q, b = m
            c = tal[q - 1]
            tal, ptr = tal[:q - 1] + tal[q:], q - 1
            if b >= 0:
                cols[b] += one[c]
                parts[b] = cols[b] + ends[downs[b]]
                changed = (b, -1)
            else:
                k = -1 - b
                fp = fp[:k] + (fp[k] + one[c],) + fp[k + 1:]
        else:
            _, k, b = m
            f = fp[k]
            fp = fp[:k] + (f[:-1],) + fp[k + 1:]
            cols[b] += f[-1:]
            parts[b] = cols[b] + ends[downs[b]]
        raw: list = []
        if auto:
            if downs is fr[1]:
                downs = downs[:]  # (settle may turn a card)
            fp, tal, ptr = settle(cols, downs, parts, fp, tal, ptr, raw, changed)
        if fp is not fr[3] and sum(map(len, fp)) == size:
            path.append((m, raw))
            return result(WON, f"won after searching {nodes + 1} positions", path)
        if not fresh(parts, fp, tal, ptr):
            continue
        nodes += 1
        path.append((m, raw))
        frames.append((cols, downs, parts, fp, tal, ptr, iter(moves(cols, downs, fp, tal, ptr))))
        if not nodes & SLICE:
            if max_states is not None and len(visited) + len(dom) > max_states:
                return result(UNKNOWN_VERDICT, "memory budget spent")
            yield nodes, len(visited) + len(dom)
    return result(LOST, f"all {len(visited) + len(dom)} reachable positions searched "
                        f"(up to symmetry and safe moves), none is won")


def _steps(pos, prefer, short, strategy, narrow, max_states, visited=None, skip=None,
           jitter=None, line=None):
    """One search, as a generator: it yields (positions expanded, positions stored) every
    few hundred positions, so that a driver can interleave searches and keep the budgets,
    and returns its :class:`SolveResult` (``unknown`` only when ``max_states`` is reached).
    ``visited``: the set of positions met (a set another search reads); ``skip``: the
    positions another search has met, which this one skips, and then its ``lost`` only
    says it has nothing left (see :func:`_drive`). ``line``: with ``visited``, the set this
    depth-first search keeps of the positions on its current line; with ``skip``, the
    positions of ``skip`` in it are not skipped."""
    kn = knowledge(pos.variant)
    work = pos.copy()
    start = time.perf_counter()
    if visited is None:
        visited = set()
    if skip is None:
        skip = frozenset()
    nodes = 0
    eng = pos.engine

    def result(verdict, reason, line=()):
        if line and short:
            line = shorten(pos, list(line))
        return SolveResult(verdict, [eng.text(m) for m in line], nodes, len(visited),
                           time.perf_counter() - start, reason, list(line))

    stranded = kn.strander(pos)
    won, may_block = win_test(eng), eng.may_block  # (work.is_won(), one call less)
    root_pass = pos.pass_no  # (a pass begun after it began in the search: see settle)

    gen_up = eng.gen_up
    up_first = kn.safe_up and SETTLE_UP_FIRST and pos.variant.tableau is not None \
        and pos.variant.tableau.move != "single"

    def settle(root=False, defer=False):
        """Play safe moves; return (pushes, legal moves), moves None when the game is over.
        With ``defer``, only the moves up to the foundations are generated (all the safe
        moves need), and the legal moves are returned as LATER: left for when the position
        is expanded, which most positions a best-first search stores never are."""
        k = 0
        while True:
            if won(work):
                return k, None
            # A whole pass that changed nothing: where the search made the redeal that began
            # it, the piles are those met there, whose moves are searched there; so the
            # search goes no further (nor where no move is left: ``Position.is_blocked``).
            if may_block and work.pass_was_idle() and (work.pass_no > root_pass
                                                       or work.is_blocked()):
                return k, []
            # (where the safe moves are moves up, the moves up alone are generated until
            # none is safe; then, unless deferred, all the legal moves, once)
            ms = gen_up(work) if defer or up_first else eng.gen(work)
            sm = kn.safe_move(work, ms)
            if sm is None:
                if stranded is not None and stranded(work, root):
                    return k, []
                if defer:
                    return k, LATER
                return k, eng.gen(work) if up_first else ms
            work.push_raw(sm)
            k += 1

    base = len(work.history)
    k0, ms = settle(root=True)
    if ms is None:
        return result(WON, "won", work.history[base:])
    S, W = kn.talon
    dom: dict[bytes, int] | None = {} if kn.dominance else None

    def fresh(key, q) -> bool:
        """Whether ``q`` (whose key is ``key``) is new to this search; if so it is noted.
        A class of a dominance (see ``Knowledge.dominance``) is new only with a pointer
        less than any met in it before."""
        if key in skip and (line is None or key not in line):
            return False
        if dom is not None and key[-1] == 2:  # a class: the pointer is the waste's size
            p = len(q.piles[W])
            old = dom.get(key)
            if old is not None and old <= p:
                return False
            dom[key] = p
            visited.add(key)
            return True
        if key in visited:
            return False
        visited.add(key)
        return True

    key = kn.key_for(pos)
    fresh(key(work), work)

    won_line = None
    T = kn.T

    def probe_of(p):
        q = p.copy()
        piles, down = q.piles, q.down
        for i in T:
            if len(piles[i]) > 1:
                down[i] = 1 if down[i] >= len(piles[i]) else 0  # the top card's face
                piles[i] = piles[i][-1:]
        return q

    others = tuple(i for i in range(len(work.piles)) if i not in kn.Tset)
    scans: dict = {}

    cycles: dict = {}
    cache_cycles = not kn.keep_piles_filled  # else turning the stock depends on the tableau

    def talon_cycle(scan, stock):
        """The talon's states (stock, waste, its face-down count, pass, idle) after each
        turn of one cycle from ``scan`` (left unchanged), up to the end of the stock's use
        or back to where it started; with them, where each card tops the waste (card ->
        the turns, from 1, after which it does) and the bit mask of those cards. Turning
        the stock touches only the talon, so the cycle is a function of the talon alone,
        and is kept for every talon met."""
        start = (scan.piles[S], scan.piles[W], scan.down[S], scan.pass_no, scan.idle)
        got = cycles.get(start) if cache_cycles else None
        if got is not None:
            return got
        steps, where, mask = _talon_states(scan, stock, root_pass), {}, 0
        for k, state in enumerate(steps, 1):
            w = state[1]
            if w and w[-1] != UNKNOWN:
                where.setdefault(w[-1], []).append(k)
                mask |= 1 << w[-1]
        got = (steps, where, mask)
        if cache_cycles:
            if len(cycles) > 20_000:  # a bound on the memory it takes
                cycles.clear()
            cycles[start] = got
        return got

    def scan_talon(scan, stock, gen):
        """Turn the stock of ``scan`` through one cycle (its talon is put back at the end):
        the moves that use the stock or the waste on the way (``gen``: the engine's talon
        moves, or its waste mover for ``scan``), scored, each with the turns before it."""
        out = []
        piles, down = scan.piles, scan.down
        was = (piles[S], piles[W], down[S], scan.pass_no, scan.idle)
        steps, where, mask = talon_cycle(scan, stock)
        live = getattr(gen, "live", None)
        if live is not None:
            # The waste mover's moves look at the waste's top card alone, and ``live``
            # names the cards that have some: only the turns that show one are looked at.
            hits, turns = live & mask, []
            while hits:
                b = hits & -hits
                hits ^= b
                turns += where[b.bit_length() - 1]
            turns.sort()
            of_top = gen.of_top
            visits = [(k, steps[k - 1]) for k in turns]
        else:
            visits = enumerate(steps, 1)
        for k, state in visits:
            piles[S], piles[W], down[S], scan.pass_no, scan.idle = state
            if live is not None:
                ms = of_top(state[1][-1])
            else:
                ms = [m for m in gen(scan) if m[0] != STOCK]  # only the stock and waste moves
            if ms:
                jump = (JUMP, k, stock, state)
                kn.rank(scan, [(m, (jump, m)) for m in ms], frozenset(), False, out, turns=k)
        piles[S], piles[W], down[S], scan.pass_no, scan.idle = was
        return out

    Tset = kn.Tset
    spaces_alike = kn.sort_tableau
    rank = kn.rank

    digs = strategy == "order" and DIGS
    supers = SUPERMOVES and strategy == "depth" and kn.supermoves_ok and kn.dig \
        and (narrow or SUPER_WHOLE)

    def dig_children(ms, need):
        """Composite children: the cards above a card the foundations want (at most three)
        moved off one by one, each onto the first tableau pile that takes it, then that card
        sent up: one step where single moves need several positions."""
        out = []
        gen_from = work.engine.gen_from  # the moves off pile i, all that is looked at
        for i in T:
            p = work.piles[i]   # (as it is here: a push and its pop leave a new list)
            # the shallowest wanted card of the pile, under d cards
            d = 0
            for x in range(1, min(4, len(p) - work.down[i])):
                if p[-1 - x] in need:
                    d = x
                    break
            if not d:
                continue
            seq, moves = [], ms
            for _ in range(d):
                m = next((x for x in moves if x[0] == MOVE and x[1] == i and x[2] == 1
                          and x[3] in Tset), None)
                if m is None:
                    break
                work.push_raw(m)
                seq.append(m)
                moves = gen_from(work, i)
            else:
                m = next((x for x in moves if x[0] == MOVE and x[1] == i
                          and x[3] in kn.Fset), None)
                if m is not None:
                    out.append((-(100 + 10 * d), 0, (*seq, m)))
            for _ in seq:
                work.pop()
        return out

    def children(ms, root=False, back=None):
        """The moves to try here, best first, each a sequence of raw moves: a move, or the
        stock turned k times and then a move that uses the stock or the waste. ``back``: a
        move that leads straight back to a position already searched (the reverse of the
        move that led here), left out; so is a move into a second space when the spaces
        are interchangeable (it leads to a mirror of the move into the first)."""
        nonlocal won_line
        scored, plain = [], []
        stock = None
        need = kn.needed(work) if kn.f_accepts else frozenset()
        piles = work.piles
        space = None
        for m in ms:
            if m[0] == STOCK:
                stock = m
                continue
            if m == back:
                continue
            if spaces_alike and m[0] == MOVE and m[3] in Tset and not piles[m[3]]:
                if space is None:
                    space = m[3]
                elif m[3] != space:
                    continue
            plain.append((m, (m,)))
        rank(work, plain, need, narrow, scored)
        if stock is not None:
            if not kn.macro:
                scored.append((-kn.score(work, stock), 0, (stock,)))
            elif kn.probe and (mover := work.engine.waste_mover(work)) is not None:
                # The waste's moves depend on its top card alone, the rest asked once:
                # scanning here is cheaper than looking the scan up (rarely met twice).
                scored.extend(scan_talon(work, stock, mover))
            elif kn.probe:
                # The scan's result is a function of the probe (the talon, the top cards,
                # the foundations): look it up before turning the stock again.
                piles, down = work.piles, work.down
                ck = (tuple([(p[-1], down[i] >= len(p)) if p else None for i in T for p in
                             (piles[i],)]),
                      tuple([piles[i] for i in others]), tuple([down[i] for i in others]),
                      work.pass_no, work.idle)
                got = scans.get(ck)
                if got is None:
                    got = scan_talon(probe_of(work), stock, work.engine.gen_talon)
                    if len(scans) > 50_000:  # a bound on the memory it takes
                        scans.clear()
                    scans[ck] = got
                scored.extend(got)
            else:
                scan = work
                start_talon = (scan.piles[S], scan.piles[W], scan.down[S])
                k = 0
                while True:
                    scan.push_raw(stock)
                    k += 1
                    if scan is work and work.is_won():  # a stock action cannot win; be safe
                        won_line = list(work.history)
                        break
                    if scan.pass_was_idle() and scan.pass_no > root_pass:
                        break  # (see settle)
                    ms2 = scan.raw_moves()
                    nxt = None
                    for m in ms2:
                        if m[0] == STOCK:
                            nxt = m
                        elif m[1] in (S, W) or m[3] in (S, W):
                            scored.append((-kn.score(scan, m), k, (stock,) * k + (m,)))
                    if nxt is None or (scan.piles[S], scan.piles[W], scan.down[S]) == start_talon:
                        break
                    stock = nxt
                if scan is work:
                    for _ in range(k):
                        work.pop()
        if digs:
            scored.extend(dig_children(ms, need))
        if supers and not all(map(work.piles.__getitem__, T)):  # (they need a space)
            rank(work, kn.supermoves(work, spaces_alike), need, narrow, scored, SUPER_BONUS)
        if jitter is not None:
            rnd = jitter.random
            scored = [(sc + JITTER * rnd(), k, seq) for sc, k, seq in scored]
        # (no stock action here: every child's turns are 0, and the score alone sorts them)
        scored.sort(key=_SCORE if stock is None else _SCORE_AND_TURNS)
        ranked = [t[2] for t in scored]
        if root and prefer:
            first = [seq for m in prefer for seq in ranked if _first(seq) == m]
            ranked = list(dict.fromkeys(first + ranked))
        return ranked

    kids = children(ms, root=True)
    if won_line is not None:
        return result(WON, "won", won_line)
    if strategy in ("best", "beam", "dive", "order"):
        import heapq
        measure = {"beam": "dig", "dive": "dig", "order": "order"}.get(strategy, "plain")
        # A beam keeps only the few most advanced children of each position: it dives
        # deep fast but is not exhaustive, so it runs only as a narrow look.
        width = BEAM_WIDTH if strategy in ("beam", "dive") and narrow else None
        gw = {"beam": BEAM_G, "dive": DIVE_G}.get(strategy, 0)
        deep = strategy == "dive"  # (weighs the depth, not the last step; see DIVE_G)
        root_line = tuple(work.history[base:])
        counter = 0
        # With ``prefer``, the positions below each preferred first move come before the
        # rest, in the order preferred (best-first within each): the hints' samples then
        # agree on their first move where they can.
        first = {m: k for k, m in enumerate(prefer or ())}
        # A position's children are worked out when it is taken from the heap (most
        # positions put on it never are; the heap holds its legal moves till then), except
        # where working them out may find a win (a scan through the stock played on the
        # position itself) or draws the jitter's random numbers, whose order must not
        # change: there as soon as the position is met. (Drawn as the positions are
        # expanded, Klondike's restarted best-first look took 7-10 % less time a position
        # but won no more: seeds 1-200 at 5 s, 169 and 165 won with draw 1 and 3, against
        # 170 and 165, in more time.)
        lazy = jitter is None and (kn.probe or not kn.macro)
        # Lazier still where the safe moves need only the moves up (see ``settle``): a
        # position's legal moves too are generated only when it is expanded. (A position
        # with no legal move is then stored, and found to have none when expanded.)
        defer = lazy and DEFER_MOVES and kn.safe_up
        heap = [(0, kn.progress(work, measure), 0, work, None, kids, 0)]
        root_pos = work
        while heap:
            group, _, _, node_pos, node, kids, depth = heapq.heappop(heap)
            if node_pos is not root_pos:
                nodes += 1
                if lazy:
                    work = node_pos
                    kids = children(eng.gen(work) if kids is LATER else kids)
            kept = []
            for seq in kids:
                q = node_pos.copy()
                for m in seq:
                    if m[0] == JUMP:
                        q.push_turns(m[2], m[1], m[3])
                    else:
                        q.push_raw(m)
                if not fresh(key(q), q):
                    continue
                work = q
                k, ms = settle(defer=defer)
                if ms is None:
                    return result(WON, f"won after searching {nodes} positions",
                                  _line(root_line, node) + q.history)
                if k and not fresh(key(q), q):
                    continue
                if not ms:
                    continue
                child = (node, tuple(q.history))
                grand = ms if lazy else children(ms)
                if won_line is not None:
                    return result(WON, f"won after searching {nodes} positions",
                                  _line(root_line, node) + won_line)
                counter += 1
                if node_pos is root_pos and first:
                    group = first.get(_first(seq), len(first))
                d = depth + len(child[1]) if deep else len(child[1])
                kept.append((group, kn.progress(q, measure) + gw * d, -counter,
                             q.copy(), child, grand, d))
            if width is not None and len(kept) > width:
                kept.sort(key=lambda e: e[:3])
                del kept[width:]
            for e in kept:
                heapq.heappush(heap, e)
            if not nodes & SLICE:
                if max_states is not None and len(visited) + 6 * len(heap) > max_states:
                    return result(UNKNOWN_VERDICT, "memory budget spent")
                yield nodes, len(visited)
        return result(LOST, f"all {len(visited)} reachable positions searched "
                            f"(up to symmetry and safe moves), none is won")
    keep_line = line is not None  # (only the whole depth-first search keeps a line)
    plain_set = not skip and dom is None  # then fresh(key, q) is: key not in visited, added
    child_key = kn.child_key_for(pos)
    frames = [[kids, 0, k0, ()]]
    if keep_line:
        frames[0][3] = (key(work),)
        line.update(frames[0][3])
    while frames:
        fr = frames[-1]
        moves, i = fr[0], fr[1]
        if i >= len(moves):
            frames.pop()
            for _ in range(fr[2]):
                work.pop()
            if keep_line:
                line.difference_update(fr[3])
            continue
        fr[1] = i + 1
        seq = moves[i]
        m = seq[0]
        flat = (len(seq) == 1 and m[0] == MOVE and m[1] in Tset and m[3] in Tset)
        ahead = flat and plain_set and child_key is not None
        if ahead:
            # Seen before: skipped without playing the move.
            key1 = child_key(work, m)
            if key1 in visited:
                continue
            visited.add(key1)
        if flat:
            state = (work.down[m[1]], work.pass_no, work.idle)
        for m in seq:
            if m[0] == JUMP:
                work.push_turns(m[2], m[1], m[3])
            else:
                work.push_raw(m)
        # Seen before (the safe moves from here are the same as last time): skip at once,
        # before generating any move.
        if not ahead:  # (else met and noted above)
            key1 = key(work)
            if plain_set:  # (fresh, written out: the common case)
                met = key1 in visited
                if not met:
                    visited.add(key1)
            else:
                met = not fresh(key1, work)
            if met:
                for _ in range(len(seq)):
                    work.pop()
                continue
        k, ms = settle(defer=up_first)  # (with up_first, the legal moves once new)
        if ms is None:
            return result(WON, f"won after searching {nodes + 1} positions",
                          work.history[base:])
        key2 = key(work) if k else key1
        if k and not fresh(key2, work):
            ms = []
        elif ms is LATER:
            ms = eng.gen(work)
        k += len(seq)
        if not ms:
            for _ in range(k):
                work.pop()
            continue
        nodes += 1
        # The reverse of a move between two tableau piles that turned nothing up and
        # changed no pass state (and no safe move followed) leads back to the position
        # before it, which is searched already.
        back = None
        if flat and k == 1 and state == (work.down[m[1]], work.pass_no, work.idle):
            back = (MOVE, m[3], m[2], m[1])
        kids = children(ms, back=back)
        if won_line is not None:
            return result(WON, f"won after searching {nodes} positions", won_line)
        frames.append([kids, 0, k, (key1, key2)])
        if keep_line:
            line.add(key1)
            line.add(key2)
        if not nodes & SLICE:
            if max_states is not None and len(visited) > max_states:
                return result(UNKNOWN_VERDICT, "memory budget spent")
            yield nodes, len(visited)
    return result(LOST, f"all {len(visited)} reachable positions searched "
                        f"(up to symmetry and safe moves), none is won")

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

Where each part lives (this module only re-exports their names, for the callers and tests that
import them from here): the verdicts, budgets and results in :mod:`.results`; what the search
derives per variant in :mod:`.knowledge`, its methods by concern in :mod:`.keys` (position keys
and symmetry), :mod:`.stuck` (stuck-card proofs), :mod:`.safe_moves`, :mod:`.supermoves`,
:mod:`.ordering` (move ordering) and :mod:`.exhaustible` (where the fast searches may run);
winning lines in :mod:`.lines`; the portfolio (:func:`solve` and its scheduler) in
:mod:`.portfolio`; the general search through the engine in :mod:`.engine_search`; the lean
look in :mod:`.lean`; the fast whole searches in :mod:`.fast_open` (an open tableau),
:mod:`.fast_talon` (Klondike's talon), :mod:`.fast_golf` (Golf's waste),
:mod:`.fast_accordion` (Accordion's line) and :mod:`.fast_pyramid` (pairs and the pyramid), on
the skeleton they share in :mod:`.exhaust`.
"""

from __future__ import annotations

from .codes import has_unknown_cards
from .engine_search import _steps, _talon_states
from .exhaustible import _sink_classes
from .fast_accordion import _exhaust_line
from .fast_golf import _exhaust_sink
from .fast_open import _exhaust
from .fast_pyramid import _exhaust_pairs, _exhaust_pyramid
from .fast_talon import _exhaust_talon
from .knowledge import _KNOWN, Knowledge, knowledge
from .lean import _lean, _lean_bytes, _lean_engine, _lean_moves
from .lines import JUMP, _cut, shorten
from .portfolio import (
    LEAN_BYTES_SHARE,
    NARROW_SHARES,
    TALON_SHARE,
    _luby,
    _restarting,
    _search,
    solve,
)
from .results import LOST, UNKNOWN_VERDICT, VERDICTS, WON, Limits, SolverError, SolveResult
from .stuck import stuck_reason
from .supermoves import _chain

__all__ = [
    "JUMP",
    "LEAN_BYTES_SHARE",
    "LOST",
    "NARROW_SHARES",
    "TALON_SHARE",
    "UNKNOWN_VERDICT",
    "VERDICTS",
    "WON",
    "_KNOWN",
    "Knowledge",
    "Limits",
    "SolveResult",
    "SolverError",
    "_chain",
    "_cut",
    "_exhaust",
    "_exhaust_line",
    "_exhaust_pairs",
    "_exhaust_pyramid",
    "_exhaust_sink",
    "_exhaust_talon",
    "_lean",
    "_lean_bytes",
    "_lean_engine",
    "_lean_moves",
    "_luby",
    "_restarting",
    "_search",
    "_sink_classes",
    "_steps",
    "_talon_states",
    "has_unknown_cards",
    "knowledge",
    "shorten",
    "solve",
    "stuck_reason",
]

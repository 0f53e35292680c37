"""The solver's switches: which of its shortcuts and fast searches run. All are on; a test turns
one off to show what it is for. One frozen :class:`SearchConfig`, :data:`CONFIG`, read where a
search starts (never inside its loops), and replaced whole to change a switch::

    monkeypatch.setattr(config, "CONFIG", dataclasses.replace(config.CONFIG, fast_line=False))
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SearchConfig:
    supermoves: bool = True
    """The depth-first searches of an open game whose foundations build up in suit also offer
    supermoves (see ``Knowledge.supermoves``) where the rules allow them, scored as the unit
    move plus :data:`~.engine_search.SUPER_BONUS`. Streets and Alleys seeds 1-60, the whole
    depth-first search alone at 15,000 positions a deal: 7 won without them; with them 10
    (bonus 0), 15 (25), 14 (50), 13 (100)."""

    settle_up_first: bool = True
    """Whether the safe moves are looked for among the moves up alone (where they are all moves
    up, ``Knowledge.safe_up``), all the legal moves generated only once none is safe: the same
    searches, position for position. Klondike draw 3 seed 150 with foundation returns, the
    whole search alone: 59,924 calls of the engine's generator for 38,726 positions settled
    before, 18,345 after. Only where units of several cards move (their moves cost the most to
    generate): callgrind, the portfolio at 2,000 positions on six Klondike deals, 8.53 -> 7.97
    G instructions; at 4,000 positions on four Streets and Alleys deals (one card at a time),
    2.45 -> 2.48 G (with the interpreter's start, some 1.6 G, in each)."""

    fast_shaken: bool = True
    """Whether the quick shaken look (see :data:`~.portfolio.OPEN_SHARES`) runs beside the
    shaken one where the fast whole search may run."""

    fast_sink: bool = True
    """Golf's whole search on numbers (:func:`~.fast_golf._exhaust_sink`) where it may run
    (False: through the engine, best-first)."""

    fast_line: bool = True
    """Accordion's searches on the line (:func:`~.fast_accordion._exhaust_line`) where they
    may run (False: the depth-first search through the engine)."""

    fast_pairs: bool = True
    """Pyramid's search of the pyramid and the talon's cards
    (:func:`~.fast_pyramid._exhaust_pairs`) where it may run (False: the depth-first search
    through the engine)."""

    fast_pyramid: bool = True
    """Pyramid's search with its passes limited (:func:`~.fast_pyramid._exhaust_pyramid`),
    where it may run (False: the depth-first search through the engine)."""

    relaxed: bool = True
    """Whether that search leaves out a position whose pyramid could not be cleared even with
    the passes unlimited (its ``clearable``): Pyramid seed 7 with three passes, proved lost
    within a few hundred positions, has no verdict after 200,000 without it."""


CONFIG = SearchConfig()

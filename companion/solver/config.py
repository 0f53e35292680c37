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
    move plus :data:`~.engine_search.SUPER_BONUS`."""

    settle_up_first: bool = True
    """Whether the safe moves are looked for among the moves up alone (where they are all moves
    up, ``Knowledge.safe_up``), all the legal moves generated only once none is safe: the same
    searches, position for position, with fewer calls of the engine's generator. It pays only
    where units of several cards move (their moves cost the most to generate)."""

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
    the passes unlimited (its ``clearable``): it settles lost deals far sooner."""


CONFIG = SearchConfig()

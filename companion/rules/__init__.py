"""The rules engine: the only place that decides what is legal.

Nothing here imports the CLI, rendering, records or vision.
"""

from .deal import deck_order, fingerprint, shuffled
from .engine import Engine, Mechanic, PileGroups, RawMove
from .moves import Move
from .position import LegalMoves, Outcome, Position, Status, Termination, Verdict
from .variant import DEAL_VERSION, Variant, find_variant, load_variant, variant_keys

__all__ = [
    "DEAL_VERSION", "Engine", "LegalMoves", "Mechanic", "Move", "Outcome", "PileGroups",
    "Position", "RawMove", "Status", "Termination", "Variant", "Verdict", "deal", "deck_order", "face_up_runs_are_builds",
    "find_variant", "fingerprint", "load_variant", "shuffled", "start_deck_order",
    "variant_keys",
]


def deal(variant: str | Variant, seed: int | None = None,
         options: dict[str, object] | None = None) -> Position:
    """The layout of ``variant`` for ``seed`` (the same forever), or a physical deal."""
    return Position.deal(variant, seed, options)


def start_deck_order(pos: Position) -> list[int]:
    """The whole deck, top card first, that the variant's deal plan turns into the deal
    ``pos`` was played from: the seed's shuffle, or for a PySolFC game the order that gives
    PySolFC's layout (:func:`companion.pysolfc.deck_order`)."""
    if pos.pysol is not None:
        # lazy: pysolfc deals through the rules (the cycle in tests/test_layers.py)
        from ..pysolfc import deck_order as pysol_order
        return pysol_order(pos.variant, pos.pysol)
    if pos.seed is None:
        raise ValueError("a physical deal has no known deck order")
    return deck_order(pos.variant, pos.seed)


def face_up_runs_are_builds(variant: Variant) -> bool:
    """Whether the face-up cards of every tableau pile always form a build of ``variant``
    (each card allowed on the one under it), so that a card's neighbours there say what it
    can be: at most one card is dealt face up on each pile, cards come there only by
    building (no stock dealt onto the piles, no refills), and the units that move are single
    cards or builds. Klondike: yes; Forty Thieves (four cards dealt face up on a pile),
    Spider (the stock deals onto the piles), block moves of any face-up cards: no."""
    t = variant.tableau
    if t is None or t.build.direction == "none" or t.refill:
        return False
    if t.move not in ("single", "run", "same-suit-run") or t.space_unit not in ("", "run"):
        return False
    if variant.stock is not None and variant.stock.deal == "tableau":
        return False
    start = Position.deal(variant, None)
    names = start.engine.names
    return all(len(p) - d <= 1 for n, p, d in zip(names, start.piles, start.down, strict=True)
               if n[0] == "t" and n[1:].isdigit())

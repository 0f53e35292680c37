"""The rules engine: the only place that decides what is legal.

Nothing here imports the CLI, rendering, records or vision.
"""

from .deal import deck_order, fingerprint, shuffled
from .engine import Engine
from .moves import Move
from .position import LegalMoves, Outcome, Position, Status, Termination, Verdict
from .variant import DEAL_VERSION, Variant, find_variant, load_variant, variant_keys

__all__ = [
    "DEAL_VERSION", "Engine", "LegalMoves", "Move", "Outcome", "Position", "Status",
    "Termination", "Variant", "Verdict", "deal", "deck_order", "find_variant", "fingerprint",
    "load_variant", "shuffled", "variant_keys",
]


def deal(variant: str | Variant, seed: int | None = None,
         options: dict | None = None) -> Position:
    """The layout of ``variant`` for ``seed`` (the same forever), or a physical deal."""
    return Position.deal(variant, seed, options)

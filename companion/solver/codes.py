"""Card codes and the bytes positions are written in, as every part of the solver reads them."""

from __future__ import annotations

from ..cards import UNKNOWN
from ..rules.position import Position

_ENDS = tuple(bytes((128 + d,)) for d in range(128))  # no pile has 128 face-down cards
_BYTE = tuple(bytes((k,)) for k in range(256))  # each byte value as a string of one


def _rank(code: int) -> int:
    return code % 13 + 1


def has_unknown_cards(pos: Position) -> bool:
    return any(UNKNOWN in p for p in pos.piles)

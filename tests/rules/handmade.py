"""Shared helpers: hand-made positions in a compact, readable form."""

from __future__ import annotations

from collections import Counter

from companion.cards import CARDS, Card
from companion.rules import Position, load_variant


def codes(text: str) -> list[str]:
    """``"7h 10♠ ??"`` → JSON codes ``["7H", "TS", "??"]`` (lenient card input)."""
    return [tok if tok == "??" else Card.parse(tok).json() for tok in text.split()]


def position(variant: str, piles: dict[str, str | tuple[str, int]], *,
             options: dict | None = None, seed: int | None = None,
             pass_no: int = 1, idle: bool = False) -> Position:
    """A hand-made position. ``piles`` maps a pile name to its cards, bottom to top, as text
    (``"7h 6s"``), or to ``(text, face_down)``; piles not named are empty."""
    out = {}
    for name, spec in piles.items():
        text, down = spec if isinstance(spec, tuple) else (spec, 0)
        out[name] = {"cards": codes(text), "face_down": down}
    return Position.from_json({
        "variant": variant, "options": options or {}, "seed": seed, "deal_version": 1,
        "piles": out, "state": {"pass": pass_no, "idle": idle},
    })


def deck_counter(variant: str, options: dict | None = None) -> Counter:
    """The variant's deck as a multiset of card codes."""
    v = load_variant(variant, options)
    return Counter({c.code: v.decks for c in CARDS if c.rank in v.rank_values})


def all_cards(pos: Position) -> Counter:
    return Counter(c for p in pos.piles for c in p)


def texts(pos: Position) -> set[str]:
    """The canonical texts of the legal moves."""
    return {str(m) for m in pos.legal_moves}

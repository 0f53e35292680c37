"""One reading of an index corner (:class:`Detection`), and what the readings of
:mod:`.read`, :mod:`.ink`, :mod:`.lone` and :mod:`.resolve` share."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import code_text


@dataclass
class Detection:
    code: int                 # suit * 13 + rank - 1 (best reading)
    confidence: float
    x: float                  # place: midpoint of rank and pip, working-image pixels
    y: float
    up: tuple                 # unit vector pip -> rank (the card's "up")
    size: float               # pip-rank distance, pixels
    uncertain: bool = False
    note: str = ""
    alternatives: list = field(default_factory=list)   # [(code, p), ...] next readings
    corners: int = 1
    other: tuple | None = None  # the other corner's (x, y, up) when both were read
    given_ink: list = field(default_factory=list)
    """[(code, p), ...]: where the pip's ink ruled out the model's best suit, the readings
    given the ink (:func:`.ink._reads_of`): evidence the rules may choose from
    (:func:`companion.vision.piles.infer_from_build`), never a reading taken alone."""
    pip_at: tuple = (0.0, 0.0)   # the index's pip and rank glyph centres (working pixels)
    rank_at: tuple = (0.0, 0.0)
    ink: tuple | None = None     # the pip's ink tint (:func:`.ink._ink_tint`), None: not judged
    suits: tuple | None = None
    """The suit head's odds of ♠ ♥ ♦ ♣ (summing to 1, the suits the pip's ink rules out at
    0), where the reading is the model's own: a copy too many of a card may be its twin in
    colour (:func:`.resolve._swap_twins`). None: not known."""
    inferred: tuple | None = None
    """(code read best, its probability, why): the card was read below the threshold and
    its reading taken from the rules, the only one the pile's build allows
    (:func:`companion.vision.piles.infer_from_build`), or it was not taken for an index at
    first and found where the pile's build says a card lies
    (:func:`companion.vision.piles.fill_gaps`)."""

    @property
    def rank(self) -> int:
        return self.code % 13 + 1

    @property
    def suit(self) -> int:
        return self.code // 13


def _sharpen(clf, deck, rgb, pips, ranks, pr, ps):
    """The heads' outputs ``pr``, ``ps`` of the candidate indices at ``pips``, ``ranks``,
    sharpened by the refiner (where the model has one) and the deck's calibration (if any)."""
    if getattr(clf, "refiner", None) is not None:
        pr, ps = clf.refiner.sharpen(rgb, pips, ranks, pr, ps)
    if deck is not None:
        pr, ps = deck.sharpen(clf, rgb, pips, ranks, pr, ps)
    return pr, ps


def _name(code):
    """A card in a note (``10♥``): as the rest of the output writes it (the commands show
    notes through their display, letters under ``--ascii``)."""
    return code_text(code)

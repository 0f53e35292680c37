"""Gaps: both corners of every card are read (and a court's figure may be taken for an index
too), so two readings often fall on one place. A corner misread as a card read surely
elsewhere (a copy too many, left unsure) must not take the place before the same card's
other reading, of a card read nowhere else, which would then be left in no place
(`ReadConfig.copies_placed_last`; seen on Kennard's four-colour design: a J♦'s corner read Q♦, the
Q♦ read surely in another row, and the J♦ left out)."""

from __future__ import annotations

from dataclasses import replace

from companion.vision import piles
from companion.vision.config import DEFAULT
from companion.vision.read import COPY_TOO_MANY, Detection

PITCH_X, PITCH_Y, SIZE = 80.0, 120.0, 10.0


def _layout():
    """A photo's readings of a Gaps deal laid square (up the photo's up), the four gaps in
    a5, b9, c2 and d13, every card read sure at its upper corner; the cards by place."""
    cards = [r * 13 + k for r in range(4) for k in range(1, 13)]   # no aces
    dets, at = [], {}
    for row, gaps in zip("abcd", (5, 9, 2, 13), strict=True):
        for col in range(1, 14):
            if col == gaps:
                continue
            code = cards.pop(0)
            d = Detection(code, 0.999, 100 + col * PITCH_X, 100 + "abcd".index(row) * PITCH_Y,
                          (0.0, -1.0), SIZE)
            dets.append(d)
            at[f"{row}{col}"] = d
    return dets, at


def _copy_in(at, place, of):
    """A reading in ``place``, just beside its card's, of the card that lies in ``of``: a
    copy too many, read surely (above the threshold) but left unsure."""
    d = at[place]
    return Detection(at[of].code, 0.96, d.x + 6, d.y - 4, (0.0, -1.0), SIZE, uncertain=True,
                     note=f"that card {COPY_TOO_MANY}")


def _read(dets, config=DEFAULT):
    reading = piles.map_piles(dets, "gaps", flip=False, config=config)
    return {k: [d.code for d in ds] for k, ds in reading.piles.items() if ds}, reading


def _with_copy():
    dets, at = _layout()
    # (a row's cards are taken top to bottom: the copy, a little higher, comes first)
    dets.insert(0, _copy_in(at, "b4", of="c7"))
    return dets, at


def test_a_copy_too_many_does_not_push_a_card_read_nowhere_else_out_of_its_place():
    dets, at = _with_copy()
    got, reading = _read(dets)
    assert got["b4"] == [at["b4"].code]
    assert [d.code for d in reading.unplaced] == [at["c7"].code]

    dets, at = _with_copy()
    got, reading = _read(dets, replace(DEFAULT, copies_placed_last=False))
    assert got["b4"] == [at["c7"].code]       # before: the copy took the place
    assert at["b4"].code in [d.code for d in reading.unplaced]


def test_a_copy_alone_in_its_place_still_takes_it():
    """A copy too many is unsure, not wrong (the other copy may be the misreading): with no
    other reading there, it is placed."""
    dets, at = _layout()
    lone = _copy_in(at, "b4", of="c7")
    dets.remove(at["b4"])
    dets.insert(0, lone)
    got, _ = _read(dets)
    assert got["b4"] == [at["c7"].code]

"""Gaps: every card but the aces lies in the rows, once, whatever the moves, so a card read
uncertain is named by elimination when the cards read sure leave exactly one of its readings
unread (`companion.vision.piles.infer_by_elimination`).

The readings are made by hand (what the model and the pile mapping give), so the tests exercise
the inference and its output, not the model."""

from __future__ import annotations

import pytest

from companion.cards import Card
from companion.rules import load_variant
from companion.vision.piles import PileReading, build_position, infer_by_elimination
from companion.vision.read import Detection

GAPS = load_variant("gaps")
CELLS = [f"{row}{col}" for row in "abcd" for col in range(1, 14)]
DECK = [code for code in range(52) if code % 13 != 0]   # no aces: they make the gaps


def _c(text):
    return Card.parse(text).code


def _reading(unsure: dict, missing=()):
    """The 48 cards laid out in order (aces taken out, a gap at the end of each row), each
    read sure, but ``unsure``'s (card -> (read as, p, alternatives)) read uncertain, and
    ``missing``'s not read at all."""
    piles, dets = {}, []
    for i, code in enumerate(DECK):
        cell = CELLS[i // 12 * 13 + i % 12]
        text = next((t for t in unsure if _c(t) == code), None)
        if code in [_c(t) for t in missing]:
            piles[cell] = []
            continue
        if text is None:
            d = Detection(code, 0.99, 10.0 * i, 0.0, (0.0, -1.0), 20.0)
        else:
            read_as, p, alts = unsure[text]
            d = Detection(_c(read_as), p, 10.0 * i, 0.0, (0.0, -1.0), 20.0, uncertain=True,
                          note="low confidence", alternatives=[(_c(t), q) for t, q in alts])
        piles[cell] = [d]
        dets.append(d)
    return PileReading("gaps", piles), dets


def _at(out, card):
    return next(d for ds in out.piles.values() for d in ds
                if d.inferred is not None and d.code == _c(card))


def test_a_copy_too_many_is_the_one_card_not_read_elsewhere():
    # held-out Gaps scene 6: the 10♣ read 10♠ (96 %, a copy too many), 10♣ next at 1 %
    out, _ = _reading({"10c": ("10s", 0.96, [("10c", 0.01), ("Ks", 0.0)])})
    assert [d.code for d in infer_by_elimination(out, GAPS)] == [_c("10c")]
    d = _at(out, "10c")
    assert not d.uncertain and d.inferred[:2] == (_c("10s"), 0.96)
    assert "the only card not read elsewhere" in d.note
    build_position(out, GAPS)
    assert out.position is not None and not any("uncertain" in p for p in out.problems)


def test_two_uncertain_cards_are_named_one_after_the_other():
    # the 5♥ could be 5♥ or 3♥ (both unread); the 3♥ read as 3♦ could only be 3♥
    out, _ = _reading({"5h": ("9h", 0.4, [("5h", 0.3), ("3h", 0.2)]),
                       "3h": ("3d", 0.5, [("3h", 0.4)])})
    assert {d.code for d in infer_by_elimination(out, GAPS)} == {_c("5h"), _c("3h")}


def test_the_named_cards_other_corner_read_alone_joins_it():
    # held-out Gaps scene 6 again: the 10♣'s other corner, across the card, was read 10♣
    # sure but left out of the rows (its two corners disagreed); it is that card's
    out, dets = _reading({"10c": ("10s", 0.96, [("10c", 0.01)])})
    d = next(d for ds in out.piles.values() for d in ds if d.uncertain)
    twin = Detection(_c("10c"), 0.99, d.x, d.y + 100, (0.0, 1.0), 20.0)
    out.unplaced.append(twin)
    dets.append(twin)
    assert infer_by_elimination(out, GAPS, dets) == [d]
    assert d.corners == 2 and d.other[:2] == (twin.x, twin.y)
    assert twin not in out.unplaced and twin not in dets


@pytest.mark.parametrize("unsure, missing", [
    # the unread card is not among its readings: a reading of something else, left alone
    ({"7d": ("8c", 0.5, [("6c", 0.2)])}, ()),
    # a card missed too: two cards unread for one uncertain reading
    ({"7d": ("8c", 0.5, [("7d", 0.2)])}, ("Qs",)),
])
def test_no_elimination_unless_the_counts_and_the_readings_settle_it(unsure, missing):
    out, _ = _reading(unsure, missing)
    assert infer_by_elimination(out, GAPS) == []
    assert all(d.inferred is None for ds in out.piles.values() for d in ds)


def test_no_elimination_where_a_card_is_read_sure_twice_or_in_another_game():
    out, dets = _reading({"7d": ("8c", 0.5, [("7d", 0.2)])})
    twice = next(d for d in dets if d.code == _c("9s"))
    twice.code = _c("2h")     # 2♥ read sure twice: some sure reading is wrong
    assert infer_by_elimination(out, GAPS) == []
    out, _ = _reading({"7d": ("8c", 0.5, [("7d", 0.2)])})
    assert infer_by_elimination(out, load_variant("klondike")) == []

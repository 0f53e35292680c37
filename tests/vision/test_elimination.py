"""Gaps: every card but the aces lies in the rows, once, whatever the moves, so a card read
uncertain is named by elimination when the cards read sure leave exactly one of its readings
unread (`companion.vision.piles.infer_by_elimination`), and a card read nowhere is looked for
among the photo's candidate indices not read (`find_unread`).

The readings are made by hand (what the model and the pile mapping give), so the tests exercise
the inference and its output, not the model."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.cards import Card
from companion.rules import load_variant
from companion.vision.piles import PileReading, build_position, find_unread, infer_by_elimination
from companion.vision.read import Detection, Reading

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


# --- a card read nowhere, found among the photo's candidate indices (`find_unread`)


class _Latent:
    """The photo's candidate indices as `read.Latent` keeps them: one candidate, its pip at
    (100, 1010) and its rank glyph 20 pixels above, which the recognizer reads ``best`` and
    takes for an index ``obj``; given that it is one, the heads read it ``reads``."""

    def __init__(self, best, reads, obj=0.9):
        import numpy as np
        code = _c(best)
        self.c = SimpleNamespace(pip=np.array([[100.0, 1010.0]]), rank=np.array([[100.0, 990.0]]))
        self.scale = 1.0
        self.pr = np.zeros((1, 14))
        self.pr[0, code % 13] = 1.0
        self.ps = np.zeros((1, 5))
        self.ps[0, code // 13] = 1.0
        self.obj = np.array([obj])
        self.reads = [(_c(t), p) for t, p in reads]

    def near(self, x, y, size, up):
        if abs(x - 100) < size / 2 and abs(y - 1000) < size / 2:
            return [(float(self.obj[0]), self.reads, (100.0, 1010.0), (100.0, 990.0))]
        return []


def _photo(latent, missing=("2h",), at=None):
    """Gaps' 48 cards read sure but ``missing``'s; a reading of the 9♠ at ``at`` if given."""
    dets = Reading(Detection(code, 0.99, 10.0 * i, 0.0, (0.0, -1.0), 20.0)
                   for i, code in enumerate(DECK) if code not in [_c(t) for t in missing])
    if at is not None:
        dets.append(Detection(_c("9s"), 0.99, *at, (0.0, -1.0), 20.0))
    dets.latent = latent
    return dets


def test_a_card_read_nowhere_is_found_where_a_candidate_reads_it_surely():
    # held-out Gaps scene 25: the 2♥'s rank glyph and pip blurred into one blob; its waist
    # cut reads 2♥ at 100 %, but a waist cut is read only where the layout asks
    dets = _photo(_Latent("2h", [("2h", 0.99), ("7h", 0.01)]))
    found = find_unread(dets, GAPS)
    assert [d.code for d in found] == [_c("2h")] and found[0] in dets
    d = found[0]
    assert (d.x, d.y) == (100.0, 1000.0) and not d.uncertain
    assert "not read elsewhere" in d.inferred[2]


@pytest.mark.parametrize("latent, missing, at, variant", [
    (_Latent("2h", [("2h", 0.9), ("7h", 0.1)]), ("2h",), None, GAPS),     # not sure enough
    (_Latent("2h", [("2h", 0.99)], obj=0.3), ("2h",), None, GAPS),        # no index
    (_Latent("7h", [("7h", 0.99)]), ("2h",), None, GAPS),                 # a card read already
    (_Latent("2h", [("2h", 0.99)]), ("2h",), (100.0, 1000.0), GAPS),      # a card read there
    (_Latent("2h", [("2h", 0.99)]), ("2h", "3h", "4h", "5h", "6h", "7h", "8h"), None, GAPS),
    (_Latent("2h", [("2h", 0.99)]), ("2h",), None, load_variant("klondike")),
])
def test_nothing_is_found_unless_it_is_a_card_read_nowhere_read_surely(latent, missing, at,
                                                                       variant):
    assert find_unread(_photo(latent, missing, at), variant) == []


def test_an_ace_read_sure_in_the_rows_is_read_wrong_and_can_be_named():
    # Gaps' rows hold no aces (check scene 18 of `bench/vision.py --base 7600000` has an A♣
    # read 78 %, sure, in a row): such a reading is uncertain, and then named as the one
    # unread card among its readings, if one is
    out, _ = _reading({"7c": ("Ac", 0.78, [("7c", 0.15), ("4c", 0.05)])})
    d = next(d for ds in out.piles.values() for d in ds if d.code == _c("Ac"))
    d.uncertain, d.note = False, ""
    assert infer_by_elimination(out, GAPS) == [d]
    assert d.code == _c("7c") and not d.uncertain
    out, _ = _reading({"7c": ("Ac", 0.78, [("9c", 0.15)])})
    d = next(d for ds in out.piles.values() for d in ds if d.code == _c("Ac"))
    d.uncertain, d.note = False, ""
    assert infer_by_elimination(out, GAPS) == []
    assert d.uncertain and "the rows hold no A" in d.note

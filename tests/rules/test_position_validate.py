"""A position from outside the rules (a file, typed in) is checked by the rules: every card as
often as the decks hold it, every card accounted for, piles and foundations that can be."""

from __future__ import annotations

import random

import pytest

from companion.errors import PositionError
from companion.rules import Position, deal, variant_keys


@pytest.mark.parametrize("key", variant_keys())
def test_deals_and_positions_reached_by_legal_moves_are_possible(key):
    rng = random.Random(key)
    for seed in (1, 2):
        pos = deal(key, seed)
        for _ in range(200):
            assert pos.problems() == [], (key, seed, pos.history)
            moves = pos.raw_moves()
            if not moves:
                break
            pos.push_raw(rng.choice(moves))
    assert deal(key, None).problems() == []


def test_a_card_twice_and_the_card_it_replaced_are_named():
    data = deal("klondike", 1).to_json()
    data["piles"]["t1"]["cards"] = ["6H"]
    pos = Position.from_json(data)  # loads: the rules can still say what is wrong
    assert pos.problems() == ["6♥ is there twice (in t1, t2), but the deck holds only one",
                              "1 card of the deck is in no pile: 7♥"]
    with pytest.raises(PositionError, match="this Klondike position cannot be: 6♥ is there"):
        Position.from_json(data, validate=True)


def test_two_decks_hold_two_of_each():
    data = deal("spider", 1).to_json()
    t1 = data["piles"]["t1"]["cards"]
    data["piles"]["t2"]["cards"][-1] = t1[-1]
    data["piles"]["t3"]["cards"][-1] = t1[-1]
    problems = Position.from_json(data).problems()
    assert any(" times (in t1, t2, t3" in p and "the two decks hold only two" in p
               for p in problems), problems


def test_a_card_outside_a_short_deck_is_named():
    data = deal("wish", 1).to_json()
    data["piles"]["t1"]["cards"][-1] = "2H"
    problems = Position.from_json(data).problems()
    assert problems[0].startswith("2♥ (in t1) is not in Wish's deck (32 cards: A, 7, 8")


def test_unseen_cards_must_make_up_the_deck():
    data = deal("klondike", None).to_json()
    assert Position.from_json(data, validate=True).problems() == []
    data["piles"]["w"] = {"cards": ["??"], "face_down": 0}
    with pytest.raises(PositionError, match="the piles hold 53 cards .53 not seen yet, as "
                                            r"\?\?.*played with 52"):
        Position.from_json(data, validate=True)


def test_a_foundation_out_of_order_and_a_pass_too_many_are_named():
    data = deal("klondike", 1, {"passes": "2"}).to_json()
    for pile in data["piles"].values():
        kept = [c for c in pile["cards"] if c not in ("AH", "3H")]
        pile["face_down"] -= sum(1 for c in pile["cards"][:pile["face_down"]]
                                 if c in ("AH", "3H"))
        pile["cards"] = kept
    data["piles"]["f1"]["cards"] = ["AH", "3H"]
    data["state"]["pass"] = 3
    problems = Position.from_json(data).problems()
    assert problems == ["3♥ cannot go on A♥ in foundation f1",
                        "state.pass is 3, but this Klondike allows 2 passes through the stock"]

"""`foundation_cards`: which cards a foundation holds when only its top card is seen (a photo
of the table shows no more), where the rules fix them."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.cards import Card
from companion.rules import deal, load_variant
from companion.rules.describe import foundation_cards, tableau_cards
from companion.rules.pieces import Build, Foundations


def _codes(text):
    return [Card.parse(t).code for t in text.split()]


@pytest.mark.parametrize("top, held", [("4h", "Ah 2h 3h 4h"), ("Ac", "Ac"),
                                       ("Ks", "As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks")])
def test_klondike_foundation_holds_its_suit_from_the_ace(top, held):
    assert foundation_cards(load_variant("klondike"), Card.parse(top).code) == _codes(held)


def test_what_the_rules_say_is_what_play_builds():
    # the foundations the engine builds in random Klondike play hold what the function says
    rng = random.Random(6)
    seen = 0
    for seed in range(1, 6):
        pos = deal("klondike", seed)
        for _ in range(300):
            moves = list(pos.legal_moves)
            if not moves:
                break
            up = [m for m in moves if str(m).split()[-1].startswith("f")]
            pos.play(rng.choice(up or moves))
        for i in pos.engine.groups.foundation_set:
            pile = pos.piles[i]
            for k in range(1, len(pile) + 1):
                assert foundation_cards(pos.variant, pile[k - 1]) == list(pile[:k])
                seen += 1
    assert seen >= 10


def test_a_foundation_building_down_from_kings():
    v = load_variant("klondike")
    down = dataclasses.replace(v, foundations=(Foundations(4, base="K",
                                                           build=Build("down", "same-suit")),))
    assert foundation_cards(down, Card.parse("Jd").code) == _codes("Kd Qd Jd")


def test_a_card_no_foundation_can_show():
    v = load_variant("klondike")
    odd = dataclasses.replace(v, foundations=(Foundations(4, base="7",
                                                          build=Build("up", "same-suit")),))
    assert foundation_cards(odd, Card.parse("5s").code) == []


@pytest.mark.parametrize("key", ["spider", "house-on-the-hill", "golf"])
def test_none_where_the_rules_do_not_fix_the_cards(key):
    # Spider lifts complete runs off; House on the Hill has ace and king piles; Golf has none
    assert foundation_cards(load_variant(key), Card.parse("5s").code) is None


def test_gaps_rows_hold_every_card_but_the_gap_ranks_whatever_the_moves():
    # `tableau_cards`: what a photo of Gaps' rows must show, read or not
    v = load_variant("gaps")
    cards = tableau_cards(v)
    assert len(cards) == 48 and not any(c % 13 == 0 for c in cards)   # no aces
    pos = deal(v, 7)
    rows = [i for i, n in enumerate(pos.engine.names) if n[1:].isdigit()]
    played = 0
    for _ in range(30):   # the rows' cards, at the deal and after moves
        assert {c for i in rows for c in pos.piles[i]} == cards
        moves = list(pos.legal_moves)
        if not moves:
            break
        pos.play(str(moves[0]))
        played += 1
    assert played > 5
    assert tableau_cards(load_variant("klondike")) is None

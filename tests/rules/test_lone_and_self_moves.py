"""Moves typed short or wrong: a pile alone, a card paired with itself, a count given with a
complete suit, a card typed badly. Each is played when the engine can tell what is meant, and
otherwise refused with a reason that suggests what it would accept."""

from __future__ import annotations

import pytest
from handmade import position

from companion.errors import IllegalMoveError, InvalidMoveError
from companion.rules import deal


def test_a_king_named_by_its_place_alone_is_removed_as_its_card_is():
    pos = deal("pyramid", 1)
    assert str(pos.play("p22")) == "p22 f"  # K♠, as `Ks` or `p22 f`
    assert pos.pile("p22") == ()


def test_a_card_other_than_a_king_named_alone_still_says_why():
    pos = deal("pyramid", 5)
    assert "cannot be removed on its own in Pyramid" in pos.check("p28").reason


@pytest.mark.parametrize(("variant", "seed", "text"), [
    ("wish", 3, "t7 t7"), ("pyramid", 5, "p28 p28"), ("pyramid", 5, "8d 8d")])
def test_a_card_paired_with_itself_is_refused_as_such(variant, seed, text):
    reason = deal(variant, seed).check(text).reason
    assert reason.startswith("a card cannot be paired with itself: name two different cards")


def test_pairing_with_an_empty_waste_says_the_waste_is_empty():
    reason = deal("pyramid", 1).check("p22 w").reason
    assert reason == "the waste is empty: type s to turn a card from the stock"


@pytest.mark.parametrize(("variant", "text", "reason"), [
    ("klondike", "t1", "say where t1 goes: `t1 t7` is its only legal move here"),
    ("golf", "t1", "say where t1 goes: `t1 w` is its only legal move here"),
    ("klondike", "t2", "say where t2 goes; no move from t2 is legal here (legal moves: "
                       "t1 t7, s)"),
    ("klondike", "w", "w is empty (legal moves: t1 t7, s)"),
])
def test_a_pile_alone_suggests_the_moves_the_engine_accepts(variant, text, reason):
    pos = deal(variant, 1)
    assert pos.check(text).reason == reason
    for move in reason.split("`")[1::2]:
        assert pos.check(move).ok


def test_a_complete_suit_lifted_with_its_count():
    suit = "Ks Qs Js 10s 9s 8s 7s 6s 5s 4s 3s 2s As"
    pos = position("spider", {"t1": "2h " + suit, "t2": "3h"})
    assert pos.check("t1:13 f").ok
    assert str(pos.copy().play("t1:13 f")) == "t1 f"  # canonical
    assert "only a complete suit from K down to A" in pos.check("t1:12 f").reason


@pytest.mark.parametrize(("text", "words"), [
    ("11h", "'11h' is neither a pile of Klondike (t1-t7, f1-f4, s, w) nor a card: '11' is "
            "not a rank; type a rank (A, 2-9, 10 or T, J, Q, K)"),
    ("1s", "'1' is not a rank"),
    ("Kx", "'Kx' is neither a pile of Klondike (t1-t7, f1-f4, s, w) nor a card: 'x' is not a "
           "suit; type a rank (A, 2-9, 10 or T, J, Q, K) then a suit (s h d c or ♠ ♥ ♦ ♣)"),
    ("7x t4", "'7x' in '7x t4' is neither"),
    ("t9", "there is no pile 't9' in Klondike"),
    ("t3=11h", "'11h' is not a card: '11' is not a rank"),
])
def test_a_bad_card_says_which_half_is_wrong(text, words):
    pos = deal("klondike", 1)
    with pytest.raises((InvalidMoveError, IllegalMoveError)) as info:
        pos.play(text)
    message = getattr(info.value, "reason", None) or str(info.value)
    assert words in message
    assert f"{text!r} in {text!r}" not in message

"""Card notation: lenient input, canonical output, fixed JSON codes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import (
    CARDS,
    CLUBS,
    HEARTS,
    SPADES,
    UNKNOWN,
    Card,
    code_from_json,
    code_json,
    code_text,
    parse_card,
    rank_from_text,
)
from companion.errors import InvalidCardError, NotationError


@pytest.mark.parametrize("text", ["7h", "7H", "7♥", " 7 h ", "7♡"])
def test_seven_of_hearts_in_every_spelling(text):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (7, HEARTS)
    assert card is CARDS[HEARTS * 13 + 6]


@pytest.mark.parametrize("text", ["10h", "Th", "th", "10♥", "TH", "10H"])
def test_ten_as_10_or_t(text):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (10, HEARTS)


@pytest.mark.parametrize("text", ["qs", "Q♠", "QS", "qS", "q♤"])
def test_queen_of_spades(text):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (12, SPADES)


def test_output_uses_10_and_symbols():
    assert Card.parse("th").text() == "10♥"
    assert str(Card.parse("th")) == "10♥"
    assert Card.parse("ac").text() == "A♣"
    assert Card.parse("kd").text() == "K♦"


def test_output_with_letters():
    assert Card.parse("10♥").text(symbols=False) == "10h"
    assert Card.parse("Q♠").text(symbols=False) == "Qs"
    assert code_text(UNKNOWN) == "??"
    assert code_text(UNKNOWN, symbols=False) == "??"


@pytest.mark.parametrize("code", ["AS", "TH", "7C", "KD", "2S"])
def test_json_codes_round_trip(code):
    card = Card.from_json(code)
    assert card.json() == code
    assert code_json(code_from_json(code)) == code


def test_json_unknown_card():
    assert code_from_json("??") == UNKNOWN
    assert code_json(UNKNOWN) == "??"


def test_json_codes_are_strict():
    # JSON is a fixed format: no 10, no symbols, no lower case.
    for bad in ("10H", "7♥", "th", "T", "THX", ""):
        with pytest.raises(InvalidCardError):
            Card.from_json(bad)


def test_json_code_values():
    assert Card.parse("10♥").json() == "TH"
    assert Card.parse("a♠").json() == "AS"
    assert Card.parse("7c").json() == "7C"


@pytest.mark.parametrize("token", ["1h", "11s", "7x", "zz", "", "7", "h7", "10", "♥", "7hh"])
def test_bad_token_names_itself_and_what_is_accepted(token):
    with pytest.raises(InvalidCardError) as info:
        Card.parse(token)
    message = str(info.value)
    assert repr(token) in message
    # says what would be accepted: the ranks, the suits, an example
    assert "10 or T" in message
    assert "s h d c" in message and "♠ ♥ ♦ ♣" in message
    assert isinstance(info.value, NotationError) and isinstance(info.value, ValueError)


def test_bad_rank_alone():
    with pytest.raises(InvalidCardError) as info:
        rank_from_text("1")
    assert "'1'" in str(info.value) and "A, 2-9, 10 (or T), J, Q or K" in str(info.value)
    assert rank_from_text("t") == rank_from_text("10") == 10


def test_cards_are_flyweights():
    assert Card.parse("7h") is Card.parse("7♥") is parse_card("7H")
    assert len(set(CARDS)) == 52
    assert [c.code for c in CARDS] == list(range(52))


def test_colours():
    assert Card.parse("7h").is_red and Card.parse("7d").is_red
    assert not Card.parse("7s").is_red and not Card.parse("7c").is_red
    assert Card.parse("kc").suit == CLUBS
    assert Card.parse("qh").name() == "queen of hearts"


@given(st.sampled_from(CARDS), st.booleans())
def test_text_round_trip(card, symbols):
    text = card.text(symbols=symbols)
    assert Card.parse(text) is card
    assert Card.parse(text.upper()) is card
    assert Card.parse(text.lower()) is card


@given(st.sampled_from(CARDS))
def test_json_round_trip(card):
    assert Card.from_json(card.json()) is card
    assert code_from_json(code_json(card.code)) == card.code
    assert len(card.json()) == 2

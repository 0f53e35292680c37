"""Move notation: parse and format are symmetric; lenient card notation is resolved against a
position and refuses to guess."""

from __future__ import annotations

import pytest
from handmade import position
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import UNKNOWN, Card
from companion.errors import (
    AmbiguousMoveError,
    CompanionError,
    IllegalMoveError,
    InvalidMoveError,
)
from companion.rules import Move, deal

FORMS = {
    "t3 t5": Move("t3", "t5"),
    "t3:4 t5": Move("t3", "t5", 4),
    "t3 f": Move("t3", "f"),
    "t3 f2": Move("t3", "f2"),
    "w t2": Move("w", "t2"),
    "s": Move("s"),
    "p12 p20": Move("p12", "p20"),
    "p7 f": Move("p7", "f"),
    "p7 p6": Move("p7", "p6"),
    "b7 b2": Move("b7", "b2"),
    "t3=9c": Move("t3", None, 0, Card.parse("9c").code),
    "w=10h": Move("w", None, 0, Card.parse("10h").code),
}


@pytest.mark.parametrize("text", list(FORMS))
def test_every_form_parses_and_formats_back(text):
    move = Move.parse(text)
    assert move == FORMS[text]
    assert str(move) == text
    assert Move.parse(str(move)) == move


@pytest.mark.parametrize(("typed", "canonical"), [
    ("T3 T5", "t3 t5"),
    ("  t3   t5 ", "t3 t5"),
    ("t3:1 t5", "t3 t5"),       # a unit of one is the plain move
    ("t3=9♣", "t3=9c"),
    ("t3=9C", "t3=9c"),
    ("W T2", "w t2"),
    ("S", "s"),
])
def test_lenient_spellings_normalise(typed, canonical):
    assert str(Move.parse(typed)) == canonical


def test_reveal_move_properties():
    move = Move.parse("t3=9c")
    assert move.is_reveal and move.card == Card.parse("9c").code
    assert move.text(symbols=True) == "t3=9♣"
    assert not Move.parse("t3 t5").is_reveal
    assert Move.parse("t3=??").card == UNKNOWN


@pytest.mark.parametrize("text", [
    "", "   ", "t3 t5 t7", "t3:0 t5", "3t t5", "t3 5t", "t3=zz", "t3-t5", "t3:x t5",
    "=9c", "t123 t5", "abc t5", "t3 t5:2", "t3,t5",
])
def test_malformed_texts_are_refused(text):
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(text)
    assert repr(text) in str(info.value)


def test_malformed_message_says_what_is_accepted():
    with pytest.raises(InvalidMoveError) as info:
        Move.parse("t3-t5")
    message = str(info.value)
    assert "t3 t5" in message and "t3:4 t5" in message and "s for the stock" in message


PILE = st.from_regex(r"\A[a-z]{1,2}[0-9]{0,2}\Z")
COUNT = st.one_of(st.just(0), st.integers(2, 999))
MOVES = st.one_of(
    st.builds(Move, PILE, st.none(), COUNT),
    st.builds(Move, PILE, PILE, COUNT),
    st.builds(lambda src, code: Move(src, None, 0, code), PILE, st.integers(0, UNKNOWN)),
)


@given(MOVES)
def test_generated_moves_round_trip(move):
    text = str(move)
    assert Move.parse(text) == move
    assert Move.parse(text.upper()) == move
    assert str(Move.parse(text)) == text


@given(st.text(max_size=12))
def test_parse_never_fails_unexpectedly(text):
    # Any text is either a move that formats back to a parseable text, or an InvalidMoveError.
    try:
        move = Move.parse(text)
    except InvalidMoveError:
        return
    assert Move.parse(str(move)) == move


# -- card notation, resolved against a position -------------------------------------------

@pytest.fixture
def two_sixes():
    """Klondike: 5♣ can go on either red six."""
    return position("klondike", {"t1": "5c", "t2": "6h", "t3": "6d", "t4": "kd"})


def test_ambiguous_card_lists_candidates(two_sixes):
    with pytest.raises(AmbiguousMoveError) as info:
        two_sixes.play("5c")
    assert info.value.candidates == ["t1 t2", "t1 t3"]
    assert "t1 t2" in str(info.value) and "t1 t3" in str(info.value)
    assert not two_sixes.history


def test_ambiguous_refusal_leaves_position_unchanged(two_sixes):
    before = two_sixes.key()
    with pytest.raises(AmbiguousMoveError):
        two_sixes.play("5♣")
    assert two_sixes.key() == before


@pytest.mark.parametrize(("typed", "canonical"), [
    ("5c t2", "t1 t2"),
    ("5♣ t3", "t1 t3"),
    ("t1 6h", "t1 t2"),
    ("5c 6d", "t1 t3"),
    ("t1 t3", "t1 t3"),
])
def test_card_notation_resolves_to_canonical(two_sixes, typed, canonical):
    move = two_sixes.play(typed)
    assert str(move) == canonical
    assert two_sixes.pile("t1") == ()


def test_card_notation_for_a_run():
    # 9♠ 8♥ 7♣ face up on t1: naming the 8♥ moves two cards onto the black nine.
    pos = position("klondike", {"t1": "9s 8h 7c", "t2": "9c"})
    assert str(pos.play("8h t2")) == "t1:2 t2"
    assert [Card.parse(c).code for c in ("9c", "8h", "7c")] == list(pos.pile("t2"))


def test_card_not_in_layout_is_refused_with_reason(two_sixes):
    with pytest.raises(IllegalMoveError) as info:
        two_sixes.play("9s")
    assert "9♠ is not face up anywhere" in info.value.reason


def test_card_with_no_move_is_refused(two_sixes):
    with pytest.raises(IllegalMoveError) as info:
        two_sixes.play("6h")
    assert "6♥" in info.value.reason


def test_neither_pile_nor_card_is_invalid(two_sixes):
    with pytest.raises(InvalidMoveError) as info:
        two_sixes.play("zz t2")
    assert "'zz'" in str(info.value) and "t1-t7" in str(info.value)


def test_unknown_pile_is_refused(two_sixes):
    verdict = two_sixes.check("t9 t1")
    assert not verdict.ok and "no pile 't9'" in verdict.reason
    with pytest.raises(IllegalMoveError):
        two_sixes.to_raw(Move.parse("t9 t1"))


def test_stock_action_in_a_variant_without_a_stock_is_refused_with_a_reason():
    pos = position("streets-and-alleys", {"t1": "5h", "t2": "6s"})
    with pytest.raises(IllegalMoveError) as info:
        pos.play("s")
    assert info.value.reason == "Streets and Alleys has no stock"


def test_foundation_shorthand_with_a_card_target_is_refused_not_crashing(two_sixes):
    # "f" names no single pile in Klondike; as a source with a card target it must be refused.
    with pytest.raises(IllegalMoveError) as info:
        two_sixes.play("f 6h")
    assert info.value.reason
    assert not two_sixes.history


# -- lenient input never escapes as anything but a companion error ---------------------------

TOKENS = ["t1", "t2", "t7", "t9", "f", "f1", "s", "w", "x", "p1", "a2", "5c", "6h", "kd", "??",
          "zz", "t1:2", "s:3", "t1=as", "w=??", "10♠", "f:2", "t1:0"]


@given(st.lists(st.sampled_from(TOKENS), min_size=0, max_size=3), st.sampled_from(
    ["klondike", "gaps", "pyramid", "accordion", "spider", "golf", "wish"]))
def test_any_typed_text_is_played_or_refused_cleanly(tokens, key):
    pos = deal(key, 11)
    for raw in pos.raw_moves()[:1]:
        pos.push_raw(raw)
    text = " ".join(tokens)
    before, depth = pos.key(), len(pos.history)
    try:
        move = pos.play(text)
    except CompanionError as exc:
        assert str(exc)
        assert pos.key() == before and len(pos.history) == depth
        return
    assert len(pos.history) == depth + 1
    assert isinstance(move, Move)


def test_push_applies_a_move_and_push_raw_a_raw_move():
    # push takes a Move (checked: found among the legal moves), push_raw the engine's raw
    # move as it is; the two leave the same position.
    pos = deal("klondike", 1)
    raw = pos.raw_moves()[0]
    move = pos.engine.move_of(raw)
    by_move, by_raw = pos.copy(), pos.copy()
    by_move.push(move)
    by_raw.push_raw(raw)
    assert by_move == by_raw and by_move.history == [raw]
    with pytest.raises(IllegalMoveError):
        pos.push(Move("t1", "t1"))


def test_a_raw_move_is_the_plain_tuple_with_names():
    # The generators build plain tuples (for speed), the rest RawMoves: the two are one move.
    from companion.rules import RawMove
    from companion.rules.engine import MOVE, REVEAL
    m = RawMove(MOVE, 3, 2, 5)
    assert m == (MOVE, 3, 2, 5) and hash(m) == hash((MOVE, 3, 2, 5))
    kind, src, n, dst = m
    assert (kind, src, n, dst) == (m.kind, m.src, m.n, m.dst) == (MOVE, 3, 2, 5)
    pos = deal("klondike", None)
    reveal = pos.to_raw(Move.parse("t7=9c"))
    assert isinstance(reveal, RawMove) and reveal.kind == REVEAL and reveal.n == Card.parse("9c").code

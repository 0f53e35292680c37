"""Physical deals: cards are ``??`` until the player names them; the engine never guesses."""

from __future__ import annotations

import pytest
from handmade import all_cards, position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cards import UNKNOWN, Card
from companion.errors import IllegalMoveError, PositionError
from companion.rules import Move, Position, Status, deal, variant_keys
from companion.rules.engine import FOLD, MOVE, PAIR


def _code(text: str) -> int:
    return Card.parse(text).code


@pytest.fixture
def klondike():
    """A physical Klondike deal with the seven face-up cards named."""
    pos = deal("klondike", None)
    for k, card in enumerate(["ah", "kd", "2s", "qc", "3d", "4c", "5h"], 1):
        pos.reveal(f"t{k}", card)
    return pos


def test_physical_deal_is_all_unknown():
    pos = deal("klondike", None)
    assert set(all_cards(pos)) == {UNKNOWN}
    assert sum(all_cards(pos).values()) == 52
    assert pos.seed is None
    assert [pos.face_down(f"t{k}") for k in range(1, 8)] == list(range(7))
    assert pos.face_down("s") == 24
    # the seven face-up cards wait to be named, bottom to top
    assert pos.pending_reveals() == [(pos.engine.index[f"t{k}"], k - 1) for k in range(1, 8)]
    assert pos.text().splitlines()[2] == "t3: ## ## ??"
    assert pos.is_valid()


def test_unnamed_cards_are_not_played(klondike):
    fresh = deal("klondike", None)
    assert {str(m) for m in fresh.legal_moves} == {"s"}
    verdict = fresh.check("t1 f")
    assert not verdict.ok and "has not been named yet" in verdict.reason
    assert "t1=CARD" in verdict.reason


def test_reveal_names_the_card(klondike):
    assert klondike.pending_reveals() == []
    assert klondike.pile("t1") == (_code("ah"),)
    assert klondike.pile("t7")[-1] == _code("5h") and klondike.face_down("t7") == 6
    assert "t1 f" in {str(m) for m in klondike.legal_moves}


def test_a_move_that_uncovers_a_card_leaves_a_pending_reveal(klondike):
    klondike.play("t4 t2")  # Q♣ on K♦ uncovers a face-down card of t4
    t4 = klondike.engine.index["t4"]
    assert klondike.pending_reveals() == [(t4, 2)]
    assert klondike.pile("t4") == (UNKNOWN,) * 3 and klondike.face_down("t4") == 2
    # nothing moves off or onto the unnamed card
    assert not any(m.src == "t4" or m.dst == "t4" for m in klondike.legal_moves)
    verdict = klondike.check("t3 t4")
    assert not verdict.ok and "not been named" in verdict.reason
    klondike.play("t4=js")
    assert klondike.pending_reveals() == []
    assert klondike.pile("t4")[-1] == _code("js")


def test_reveal_of_a_card_already_seen_is_refused(klondike):
    klondike.play("t4 t2")
    before = klondike.key()
    verdict = klondike.check("t4=ah")
    assert not verdict.ok
    assert verdict.reason == "A♥ has already been seen; the card turned up must be one still unseen"
    with pytest.raises(IllegalMoveError):
        klondike.reveal("t4", "ah")
    with pytest.raises(IllegalMoveError):
        klondike.play("t4=5h")
    assert klondike.key() == before


def test_reveal_where_nothing_waits_is_refused(klondike):
    verdict = klondike.check("t3=9c")
    assert not verdict.ok and "no turned-up card waiting" in verdict.reason
    klondike.play("t4 t2")
    assert "name the card" in klondike.check("t4=??").reason
    assert not klondike.check("t9=9c").ok


def test_reveal_can_be_undone(klondike):
    klondike.play("t4 t2")
    key = klondike.key()
    klondike.play("t4=js")
    klondike.pop()
    assert klondike.key() == key


def test_stock_cards_are_named_when_turned(klondike):
    klondike.play("s")
    w = klondike.engine.index["w"]
    assert klondike.pile("w") == (UNKNOWN,) * 3
    assert [i for i, _ in klondike.pending_reveals()] == [w, w, w]
    assert not any(m.src == "w" for m in klondike.legal_moves)
    for card in ("9s", "8d", "7c"):
        klondike.play(f"w={card}")
    assert klondike.pile("w") == tuple(_code(c) for c in ("9s", "8d", "7c"))


def test_two_decks_allow_a_second_copy_not_a_third():
    pos = deal("forty-thieves", None)
    pos.reveal("t1", "7c")  # lowest unnamed card of t1 first
    pos.reveal("t1", "7c")
    verdict = pos.check("t1=7c")
    assert not verdict.ok and "both decks' copies" in verdict.reason


def test_a_card_outside_the_variant_deck_is_refused():
    pos = deal("wish", None)
    verdict = pos.check("t1=5h")
    assert not verdict.ok and "not in this variant's deck" in verdict.reason
    assert pos.check("t1=7h").ok


def test_gaps_reveal_of_an_ace_makes_a_gap():
    pos = deal("gaps", None)
    pos.reveal("a1", "2s")
    pos.reveal("a2", "ah")
    assert pos.pile("a2") == () and pos.pile("x") == (_code("ah"),)


# -------------------------------------------------------------------------- status()

def test_status_of_a_deal_is_valid():
    assert deal("klondike", 5).status() == Status.VALID
    assert deal("spider", 5).is_valid()


def test_status_flags_duplicates_and_wrong_counts():
    pos = position("klondike", {"t1": "ah ah", "t2": "kd"})
    st_ = pos.status()
    assert Status.TOO_MANY_COPIES in st_
    assert Status.WRONG_CARD_COUNT in st_
    assert not pos.is_valid()


def test_status_flags_a_missing_card():
    data = deal("klondike", 5).to_json()
    data["piles"]["s"]["cards"].pop()
    data["piles"]["s"]["face_down"] -= 1
    pos = Position.from_json(data)
    assert pos.status() == Status.WRONG_CARD_COUNT


def test_status_flags_a_duplicate_in_a_full_count():
    data = deal("klondike", 5).to_json()
    data["piles"]["s"]["cards"][0] = data["piles"]["s"]["cards"][1]
    pos = Position.from_json(data)
    assert pos.status() == Status.TOO_MANY_COPIES


def test_status_flags_a_card_the_variant_does_not_use():
    data = deal("wish", 5).to_json()
    data["piles"]["t1"]["cards"][0] = "5H"
    assert Status.UNKNOWN_CARD_FOR_VARIANT in Position.from_json(data).status()


def test_status_counts_unknown_cards():
    data = deal("klondike", None).to_json()
    data["piles"]["w"] = {"cards": ["??"], "face_down": 0}
    assert Position.from_json(data).status() == Status.WRONG_CARD_COUNT


@pytest.mark.parametrize(("mangle", "words"), [
    (lambda d: d["piles"].update({"t1": {"cards": ["AS"], "face_down": 2}}), "face_down"),
    (lambda d: d["piles"].update({"t9": {"cards": ["AS"], "face_down": 0}}), "no pile 't9'"),
    (lambda d: d["piles"].update({"t1": {"cards": ["ZZ"], "face_down": 0}}), "pile t1: 'ZZ' is not a card code"),
    (lambda d: d.pop("piles"), "'piles'"),
    (lambda d: d.update({"seed": "x"}), "seed"),
    (lambda d: d.update({"deal_version": 99}), "deal version 99"),
])
def test_bad_json_is_refused_with_a_reason(mangle, words):
    data = deal("klondike", 5).to_json()
    mangle(data)
    with pytest.raises(PositionError) as info:
        Position.from_json(data)
    assert words in str(info.value)


# -------------------------------------------------------------------------- never on ??

def _lifts_or_lands_on_unknown(pos: Position, raw) -> bool:
    kind, a, n, b = raw
    piles = pos.piles
    if kind == MOVE:
        if a == pos.engine.groups.stock and pos.down[a] >= len(piles[a]):
            # A face-down stock card played straight into a space (Blockade) is turned up as
            # it is played: like a deal, it becomes a reveal, never a guess.
            return bool(piles[b])
        if UNKNOWN in piles[a][-n:]:
            return True
        return bool(piles[b]) and piles[b][-1] == UNKNOWN \
            and b not in pos.engine.groups.foundation_set
    if kind in (PAIR, FOLD):
        return piles[a][-1] == UNKNOWN or piles[b][-1] == UNKNOWN
    return False


@pytest.mark.parametrize("key", variant_keys())
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False))
def test_unknown_cards_are_never_built_on_or_moved(key, rng):
    pos = deal(key, None)
    size = pos.variant.deck_size
    for _ in range(120):
        pending = pos.pending_reveals()
        if pending:
            i, _ = pending[0]
            card = rng.choice(sorted(pos.unseen().elements()))
            pos.play(str(Move(pos.engine.names[i], None, 0, card)))
        else:
            legal = pos.raw_moves()
            if not legal:
                break
            for raw in legal:
                assert not _lifts_or_lands_on_unknown(pos, raw), pos.engine.text(raw)
            pos.push_raw(rng.choice(legal))
        assert sum(all_cards(pos).values()) == size
        assert pos.is_valid(), pos.status()

"""Refusals carry the reason a player understands, whichever way the move was typed."""

from __future__ import annotations

from handmade import position

from companion.rules import Position, deal


def test_check_reads_card_notation_like_play():
    pos = position("klondike", {"t1": "6h", "t2": "5c", "t3": "5s"})
    assert pos.check("5c t1").ok
    assert pos.check("5c 6h").ok
    refused = pos.check("5c t3")
    assert not refused.ok and "5♣ cannot go on 5♠" in refused.reason
    ambiguous = pos.check("6h")  # the 6♥ has no legal move at all here
    assert not ambiguous.ok


def test_check_refuses_ambiguous_text_with_candidates():
    pos = position("klondike", {"t1": "5c", "t2": "6h", "t3": "6d"})
    verdict = pos.check("5c")
    assert not verdict.ok and "t1 t2" in verdict.reason and "t1 t3" in verdict.reason


def test_foundation_cards_stay_put_reason():
    pos = position("klondike", {"f1": "ah", "t1": "2s"})
    for text in ("f1 t1", "f t1"):
        verdict = pos.check(text)
        assert not verdict.ok
        assert "cards on the foundations stay there in Klondike" in verdict.reason
    back = position("klondike", {"f1": "ah 2h", "t1": "3s"}, options={"foundation_return": "true"})
    assert back.check("f1 t1").ok


def test_won_gaps_offers_no_redeal():
    rows = {}
    for r, suit in zip("abcd", "shdc", strict=True):
        for c, rank in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]):
            rows[f"{r}{c + 1}"] = rank + suit
    rows["x"] = "as ah ad ac"
    pos = position("gaps", rows)
    assert pos.is_won()
    assert pos.outcome().won
    assert not pos.raw_moves()
    assert not pos.check("s").ok


def test_seeded_deal_is_the_same_object_graph_as_its_json():
    pos = deal("gaps", 11)
    assert Position.from_json(pos.to_json()) == pos

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


# twenty moves of Klondike seed 7 after which only the stock moves (issue 49)
ONLY_STOCK_LEFT = ["t7 f", "t2 t4", "t1 t2", "t5 t2", "t2:3 t4", "s", "s", "t4:5 t6"] + ["s"] * 12


def test_a_card_with_no_move_does_not_say_the_game_is_lost_while_the_stock_moves():
    pos = deal("klondike", 7)
    for m in ONLY_STOCK_LEFT:
        pos.play(m)
    assert [str(m) for m in pos.legal_moves] == ["s"]
    refused = pos.check("4h")
    assert not refused.ok and "4♥ has no legal move here (legal moves: s)" in refused.reason
    assert "no move at all" not in refused.reason


def test_a_card_with_no_move_says_so_when_no_move_is_left():
    pos = position("klondike", {"t1": "6h", "t2": "6d"})
    assert not pos.raw_moves()
    refused = pos.check("6h")
    assert not refused.ok and "(no move at all is left)" in refused.reason

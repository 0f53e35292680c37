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


def test_a_card_covered_in_the_waste_is_said_to_be_there_not_missing():
    pos = deal("klondike", 7)
    for m in ONLY_STOCK_LEFT:
        pos.play(m)                        # the waste: ... Ad K♦ 6s Ac 7h 5d 9d 5c Q♣
    for typed in ("kd", "kd t1"):
        refused = pos.check(typed)
        assert not refused.ok
        assert refused.reason == ("K♦ is in the waste under 7 cards; only the top card (Q♣) "
                                  "can be played from there")
    # a waste held face down in the position's JSON is still the waste the player turned
    held = position("klondike", {"t1": "3s", "w": ("kd 2c 5d 9d", 1), "s": "4d"})
    refused = held.check("kd")
    assert not refused.ok and "K♦ is in the waste under 3 cards" in refused.reason


def test_a_covered_target_card_is_named_not_the_top_card_on_it():
    pos = position("klondike", {"t1": "3s", "t5": "9c 8h 7c 6h", "s": "4d"})
    for typed in ("t1 8h", "3s 8h"):
        refused = pos.check(typed)
        assert not refused.ok and refused.reason == "8♥ is not the top card of t5: 7♣ 6♥ lie on it"


def test_a_covered_card_that_cannot_lift_says_why_of_that_card():
    golf = position("golf", {"t1": "2s jd 4d as 9s", "t2": "5h", "w": "8d", "s": "4c"})
    refused = golf.check("4d")
    assert not refused.ok
    assert refused.reason == "4♦ is in t1 under 2 cards; only the top card (9♠) can be played " \
                             "from there"
    klondike = position("klondike", {"t1": "9c 8h 7h", "t2": "9s", "s": "4d"})
    refused = klondike.check("8h t2")        # 7♥ on 8♥ is no run
    assert not refused.ok and refused.reason.startswith(
        "8♥ is in t1 under 1 card, which cannot move with it as one unit")
    run = position("klondike", {"t1": "9c 8h 7s", "t2": "9d", "s": "4d"})
    refused = run.check("8h t2")             # a run that may move: the target says why not
    assert not refused.ok and "8♥ cannot go on 9♦" in refused.reason

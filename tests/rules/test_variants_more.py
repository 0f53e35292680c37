"""The 25 variants of issue 3: for each rule special to a game, a hand-made position with a legal
move and an illegal one refused with the reason a player reads (RULES.md §2.6-2.34), plus every
worked example the seeds give for these games (S0, S4; §3 where a seed is wrong).

Deal shapes, card conservation, undo and JSON are the property tests' job (test_properties.py).
Foundations in a group of four in a two-deck game hold one suit each, in the order ♠ ♥ ♦ ♣:
Tournament's and House on the Hill's f1-f4 are the ♠ ♥ ♦ ♣ ace-piles, f5-f8 the king-piles.
"""

from __future__ import annotations

import dataclasses

import pytest
from handmade import all_cards, position, texts

from companion.cards import RANK_OF, Card
from companion.errors import IllegalMoveError
from companion.rules import Position, Termination, deal, load_variant
from companion.rules.deal import dealt, fresh_deck, shuffled
from companion.rules.describe import describe


def cards(text: str) -> tuple[int, ...]:
    """``"7h 6s"`` → the card codes, bottom to top."""
    return tuple(Card.parse(t).code for t in text.split())


def legal(pos: Position, *moves: str) -> None:
    """Each (canonical) move is offered and checks out."""
    offered = texts(pos)
    for move in moves:
        verdict = pos.check(move)
        assert verdict.ok, (move, verdict.reason)
        assert move in offered, (move, sorted(offered))


def refused(pos: Position, move: str, *words: str) -> str:
    """The move is refused with a reason containing ``words``; playing it changes nothing."""
    verdict = pos.check(move)
    assert not verdict.ok, f"{move} should be refused"
    for w in words:
        assert w in verdict.reason, verdict.reason
    before, depth = pos.key(), len(pos.history)
    with pytest.raises(IllegalMoveError) as info:
        pos.play(move)
    assert info.value.reason == verdict.reason
    assert pos.key() == before and len(pos.history) == depth
    return verdict.reason


def piles_of(prefix: str, count: int, text: str) -> dict[str, str]:
    """``t1..tN`` each holding ``text`` (filler piles that take part in nothing)."""
    return {f"{prefix}{k}": text for k in range(1, count + 1)}


# ============================================================================== Emperor (S0, S4)

def test_emperor_s0_example_corrected_six_of_hearts_goes_on_seven_of_clubs():
    # S0: "A 7 of Clubs may be placed only on 6 of Hearts" builds up, against its own "a king may
    # not be built on an ace" and S4; RULES.md §2.6 / §3 #7: build down, so 6♥ goes on 7♣.
    pos = position("emperor", {"t1": "7c", "t2": "6h", "t3": "6d", "t4": "7s"})
    legal(pos, "t2 t1", "t3 t1", "t2 t4")
    assert str(pos.play("6h 7c")) == "t2 t1"
    pos.pop()
    refused(pos, "t1 t2", "7♣ cannot go on 6♥", "Emperor builds down in alternating colours")
    same = position("emperor", {"t1": "7c", "t2": "6s"})
    refused(same, "t2 t1", "6♠ cannot go on 7♣", "alternating colours")


def test_emperor_a_king_may_not_be_built_on_an_ace():
    pos = position("emperor", {"t1": "2d ac", "t2": "kh"})
    refused(pos, "t2 t1", "K♥ cannot go on A♣", "a king and an ace are not neighbours")


def test_emperor_moves_single_cards_only():
    pos = position("emperor", {"t1": ("ks 9d 8s 7h", 1), "t2": "tc"})
    refused(pos, "t1:3 t2", "only the top card of a pile moves")
    legal(pos, "t1 t3")  # any movable card to a space


def test_emperor_any_card_to_a_space_and_one_pass():
    pos = position("emperor", {"t1": "kd 5h", "w": "9c"})
    legal(pos, "t1 t2", "w t2")
    refused(pos, "s", "no redeal")


def test_emperor_force_aces_option_names_the_rule():
    piles = {"t1": "9d ah", "t2": "8c", "t3": "7h"}
    assert "t3 t2" in texts(position("emperor", piles))
    forced = position("emperor", piles, options={"force_aces": True})
    assert texts(forced) == {"t1 f"}
    refused(forced, "t3 t2", "ace", "must go up first", "t1 f")


@pytest.mark.parametrize("key", ["emperor-mm", "midshipman-emperor"])
def test_emperor_mm_face_up_cards_move_together_and_foundations_give_back(key):
    pos = position(key, {"t1": ("ks 9d 8s 7h", 1), "t2": "tc", "f1": "as 2s", "f2": "ah 2h 3h",
                         "t3": "4s"})
    legal(pos, "t1:3 t2", "t1 t4", "f2 t3")
    refused(pos, "f1 t3", "2♠ cannot go on 4♠")
    pos.play("t1:3 t2")
    assert pos.pile("t2") == cards("tc 9d 8s 7h") and pos.face_down("t1") == 0
    pos.play("f2 t3")
    assert pos.pile("t3") == cards("4s 3h") and pos.pile("f2") == cards("ah 2h")


@pytest.mark.parametrize("key", ["emperor-mm", "midshipman-emperor"])
def test_emperor_mm_a_space_is_filled_from_the_tableau_or_the_waste_never_a_foundation(key):
    # RULES.md 2.7: a foundation card comes back "when it fits the AC build"; a space takes
    # "any movable card (from the tableau, the waste top, or the turned stock card)".
    pos = position(key, {"t1": "9d 8s", "t2": "4s", "f1": "ah 2h 3h", "w": "6c"})
    legal(pos, "f1 t2", "t1 t3", "w t3")
    refused(pos, "f1 t3", "3♥ cannot fill the space in t3", "only from the tableau or the waste")
    assert "only from the tableau or the waste" in " ".join(describe(load_variant(key)))


def test_klondike_foundation_return_may_fill_a_space_with_a_king():
    # RULES.md 2.4: spaces take kings, whatever pile they come from; foundation_return lets a
    # foundation's top card come back.
    pos = position("klondike", {"f1": "ac 2c 3c 4c 5c 6c 7c 8c 9c tc jc qc kc", "t1": "5h 4s"},
                   options={"foundation_return": True})
    legal(pos, "f1 t2")


def test_emperor_s0_keeps_foundation_cards_where_emperor_mm_gives_them_back():
    piles = {"f1": "ah 2h 3h", "t1": "4s"}
    refused(position("emperor", piles), "f1 t1", "cards on the foundations stay there in Emperor")
    legal(position("emperor-mm", piles), "f1 t1")


# ============================================================================== Spider 10 x 5 (S0)

def _spider50(**piles):
    base = piles_of("t", 10, "2d")
    base.update(piles)
    return position("spider-50", {k: v for k, v in base.items() if v})


def test_spider50_s0_a_jack_unit_goes_on_any_queen():
    # S0: "If the bottom card of a unit is the J, it may be moved onto any one of the four queens."
    pos = _spider50(t1=("2h jc", 1), t2="qs", t3="qh", t4="qd", t5="qc", t6="kd")
    legal(pos, "t1 t2", "t1 t3", "t1 t4", "t1 t5")
    refused(pos, "t1 t6", "J♣ cannot go on K♦")


def test_spider50_s0_run_is_cut_anywhere_and_the_seven_waits_for_the_cards_above():
    # S0: a pile showing (from the top) 4, 5, 6, 7: one, two or three cards may move, or all
    # four; the 7 may not move alone.
    pos = _spider50(t1=("kd 7s 6s 5s 4s", 1), t2="5h", t3="6d", t4="7c", t5="8h")
    legal(pos, "t1 t2", "t1:2 t3", "t1:3 t4", "t1:4 t5")
    assert str(pos.play("7s t5")) == "t1:4 t5"  # the 7♠ lifts the three cards above it too
    refused(_spider50(t1="7s 6h 5s", t2="8d"), "t1:3 t2", "one suit")


def test_spider50_final_deal_is_four_cards_onto_piles_one_to_four():
    pos = _spider50(s=("9c 8c 7c 6c", 4))
    legal(pos, "s")
    pos.play("s")
    assert [pos.pile(f"t{k}")[-1] for k in range(1, 5)] == list(cards("6c 7c 8c 9c"))
    assert all(pos.pile(f"t{k}") == cards("2d") for k in range(5, 11))
    assert pos.pile("s") == ()
    refused(pos, "s", "the stock is empty")


def test_spider50_rules_text_names_the_final_deal_of_four():
    # RULES.md 2.9: "Stock 54 = 5 deals of 10, then a final deal of 4 cards onto piles 1-4".
    text = " ".join(describe(load_variant("spider-50")))
    assert "five such deals, then a last deal of four cards onto t1-t4" in text
    assert "last deal" not in " ".join(describe(load_variant("spider")))  # 50 = 5 x 10
    assert "then a last deal of eight cards onto t1-t8" in " ".join(
        describe(load_variant("blockade")))  # RULES.md 2.18: 92 = 7 rows + 8 cards


@pytest.mark.parametrize("key", ["spider", "spider-50"])
def test_spider_auto_discard_lifts_a_suit_uncovered_by_a_move(key):
    suit = "kc qc jc tc 9c 8c 7c 6c 5c 4c 3c 2c ac"
    pos = position(key, {"t1": f"{suit} 5h", "t2": "6s", "t3": "9d"}, options={"discard": "auto"})
    pos.play("t1 t2")  # 5♥ leaves t1, whose K♣-A♣ then lies complete on top
    assert pos.pile("t1") == () and pos.pile("f1") == cards(suit)
    pos = position(key, {"t1": suit[:-3], "t2": "ac"}, options={"discard": "auto"})
    pos.play("t2 t1")  # (the pile a card goes to, as before)
    assert pos.pile("t1") == () and pos.pile("f1") == cards(suit)


def test_spider50_no_deal_while_a_pile_is_empty_even_the_last_one():
    pos = _spider50(t10="", s=("9c 8c 7c 6c", 4))
    refused(pos, "s", "only when no pile is empty")


def test_spider50_stock_is_five_rows_of_ten_then_four():
    pos = deal("spider-50", 5)
    deals = 0
    while "s" in texts(pos):
        pos.play("s")
        deals += 1
    assert deals == 6 and pos.pile("s") == ()
    assert [len(pos.pile(f"t{k}")) for k in range(1, 11)] == [11] * 4 + [10] * 6


# ============================================================================== Gate

RAILS = {"t1": "9s", "t2": "8h", "t3": "kd", "t4": "qc", "t5": "5d", "t6": "4c", "t7": "",
         "t8": "jh 10s"}


def test_gate_a_space_is_filled_from_a_post_before_any_other_move():
    pos = position("gate", RAILS | {"r1": "3h 2c 7d", "r2": "6s 6h", "w": "th", "s": ("2s", 1)})
    assert texts(pos) == {"r1 t7", "r2 t7"}  # the player chooses the post
    why = "Gate: fill the space in t7 first, from a reserve pile (r1 or r2)"
    refused(pos, "t2 t1", why)  # 8♥ on 9♠ would be a good build
    refused(pos, "s", why)
    refused(pos, "t8 t7", "10♠ cannot fill the space in t7", "from a reserve pile")
    refused(pos, "w t7", "10♥ cannot fill the space in t7", "from a reserve pile")
    pos.play("r2 t7")
    assert pos.pile("t7") == cards("6h") and pos.pile("r2") == cards("6s")
    legal(pos, "t2 t1")


def test_gate_then_from_the_waste():
    pos = position("gate", RAILS | {"w": "2s th", "s": ("3s", 1)})
    assert texts(pos) == {"w t7"}
    refused(pos, "t2 t1", "fill the space in t7 first, from the waste (w)")
    pos.play("w t7")
    legal(pos, "t2 t1", "s")


def test_gate_then_from_the_stock_when_the_waste_is_empty():
    # RULES.md §2.12: posts empty, waste empty: the stock gives the card (turn it, play it).
    pos = position("gate", RAILS | {"s": ("3s", 1)})
    assert texts(pos) == {"s"}
    refused(pos, "t2 t1", "fill the space in t7 first, from the stock")
    pos.play("s")
    assert texts(pos) == {"w t7"}


def test_gate_delay_fill_lets_the_space_wait_but_still_only_for_a_post():
    pos = position("gate", RAILS | {"r1": "3h 2c 7d", "r2": "6s 6h"}, options={"delay_fill": True})
    legal(pos, "t2 t1", "r1 t7", "r2 t7", "t8:2 t4")
    refused(pos, "t8 t7", "10♠ cannot fill the space in t7", "from a reserve pile")


def test_gate_posts_are_never_built_on_and_only_their_outer_card_plays():
    rails = RAILS | {"t7": "5s"}
    pos = position("gate", rails | {"r1": "3h 2c ah", "r2": "6s 6h"})
    legal(pos, "r1 f", "t8:2 t4")  # S3: groups move on the rails
    refused(pos, "t6 r2", "nothing is put on the reserve piles (r1-r2) in Gate")
    refused(pos, "r1:2 t1", "only one card at a time leaves r1")
    refused(pos, "r2 t6", "6♥ cannot go on 4♣", "Gate builds down in alternating colours")


def test_gate_one_pass():
    pos = position("gate", RAILS | {"t7": "2d", "w": "3s 4s"})
    refused(pos, "s", "no redeal")


# ============================================================================== German Patience

def test_german_patience_builds_up_regardless_of_suit_round_the_corner():
    pos = position("german-patience", {"t1": "qs kd", "t2": "ac", "t3": "2h", "w": "ah"})
    legal(pos, "w t1", "t2 t1", "t3 t2")  # A on K: the corner is turned
    refused(pos, "t2 t3", "A♣ cannot go on 2♥", "builds up regardless of suit, turning the "
            "corner from K to A")
    refused(pos, "t1 t2", "K♦ cannot go on A♣")  # up, not down


def test_german_patience_a_pile_holds_thirteen_cards_at_most():
    full = "5s 6s 7s 8s 9s 10s js qs ks as 2s 3s 4s"
    pos = position("german-patience", {"t1": full, "t2": "4h", "w": "5h"})
    legal(pos, "w t2")
    refused(pos, "w t1", "a pile holds at most 13 cards in German Patience")


def test_german_patience_single_cards_and_any_card_to_a_space():
    pos = position("german-patience", {"t1": "9c 10h", "t2": "9d", "w": "2c"})
    legal(pos, "t1 t2", "t1 t3", "w t3")
    refused(pos, "t1:2 t2", "only the top card of a pile moves")


def test_german_patience_won_when_all_eight_piles_hold_thirteen():
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    piles = {}
    for k in range(8):  # pile k: 13 ranks in a row round the corner, all of suit k % 4
        start = 3 * k
        piles[f"t{k + 1}"] = " ".join(ranks[(start + i) % 13] + "shdc"[k % 4] for i in range(13))
    won = position("german-patience", piles)
    assert won.is_valid()
    assert won.outcome().termination is Termination.WON
    last = piles["t8"].split()
    almost = position("german-patience", piles | {"t8": " ".join(last[:-1]), "w": last[-1]})
    assert almost.outcome() is None
    almost.play("w t8")
    assert almost.outcome().won


# ============================================================================== Tournament, La Nivernaise

LINE = {"t1": "2c 3c 4c 5c", "t2": "6c 7c 8c 9c", "t3": "10c", "t4": "jc", "t5": "qc", "t6": "5d"}
TOURNAMENTS = ["tournament", "la-nivernaise"]


@pytest.mark.parametrize("key", TOURNAMENTS)
def test_tournament_kibitzers_take_line_tops_only(key):
    pos = position(key, LINE | {"r1": "ah", "r2": "kh", "r3": "9s", "s": ("2s 3s 4s 5s 6s", 5)})
    legal(pos, "t1 r4", "t6 r8", "r1 f", "r2 f")
    refused(pos, "r3 r4", "an empty reserve place takes only a top card of the tableau")
    refused(pos, "t1 r1", "r1 is not empty")
    refused(pos, "t1 t2", "no building on the tableau")
    refused(pos, "r3 t2", "no building on the tableau")
    pos.play("r1 f")
    assert pos.pile("f2") == cards("ah")  # the ♥ ace-pile
    pos.play("r2 f")
    assert pos.pile("f6") == cards("kh")  # the ♥ king-pile


@pytest.mark.parametrize("key", TOURNAMENTS)
def test_tournament_an_emptied_line_pile_gets_four_cards_at_once(key):
    pos = position(key, LINE | {"s": ("2s 3s 4s 5s 6s", 5)})
    pos.play("t3 r1")
    assert pos.pile("t3") == cards("6s 5s 4s 3s")  # the stock's top card first
    assert pos.pile("s") == cards("2s")
    pos.play("t4 r2")
    assert pos.pile("t4") == cards("2s")  # what is left


@pytest.mark.parametrize("key", TOURNAMENTS)
def test_tournament_deal_puts_four_cards_on_each_line_pile(key):
    pos = position(key, LINE | {"s": ("2s 3s 4s 5s 6s 7s 8s 9s 10s", 9)})
    pos.play("s")
    assert pos.pile("t1") == cards("2c 3c 4c 5c 10s 9s 8s 7s")
    assert pos.pile("t2") == cards("6c 7c 8c 9c 6s 5s 4s 3s")
    assert pos.pile("t3") == cards("10c 2s")
    assert pos.pile("t4") == cards("jc") and pos.pile("s") == ()


@pytest.mark.parametrize("key", TOURNAMENTS)
@pytest.mark.parametrize("seed", [None, 5])
def test_tournament_redeal_gathers_right_to_left_turns_over_and_does_not_shuffle(key, seed):
    # RULES.md §2.16: the rightmost line pile goes on its left neighbour, that on the next, ...;
    # the packet is turned over (its bottom card, t1's first, is the new stock's top) and six
    # piles of four are dealt again. So the line comes back in its old order.
    line = {"t1": "2c 3c", "t2": "4c", "t3": "5c 6c 7c", "t4": "8c", "t5": "9c 10c",
            "t6": "jc qc kc"}
    pos = position(key, line | {"r1": "9h"}, seed=seed)
    assert texts(pos) >= {"s"}
    pos.play("s")
    assert pos.pass_no == 2
    assert pos.pile("t1") == cards("2c 3c 4c 5c")
    assert pos.pile("t2") == cards("6c 7c 8c 9c")
    assert pos.pile("t3") == cards("10c jc qc kc")
    assert all(pos.pile(f"t{k}") == () for k in (4, 5, 6)) and pos.pile("s") == ()
    assert pos.pile("r1") == cards("9h")  # the kibitzers stay


def test_tournament_two_redeals_only():
    pos = position("tournament", {"t1": "2c", "r1": "9h"}, pass_no=3)
    refused(pos, "s", "the stock is empty and no redeal is left: Tournament allows 2 redeals")
    assert "s" in texts(position("tournament", {"t1": "2c", "r1": "9h"}, pass_no=2))


@pytest.mark.parametrize("key", TOURNAMENTS)
def test_tournament_foundation_reversal_down_to_the_bottom_ace(key):
    # S4: two foundations of one suit built to cards in sequence: any or all of one pile may be
    # reversed upon the other, including the bottom cards.
    pos = position(key, {"t1": "5d", "f2": "ah 2h 3h 4h", "f6": "kh qh jh 10h 9h 8h 7h 6h 5h"})
    legal(pos, "f2 f6", "f6 f2")
    for _ in range(4):
        pos.play("f2 f6")
    assert pos.pile("f2") == () and len(pos.pile("f6")) == 13
    assert pos.pile("f6")[-1] == Card.parse("ah").code  # the ace at the bottom moved too
    refused(pos, "f6 t1", "A♥ stays on the foundations", "other foundation of its suit")
    refused(pos, "f6 f3", "A♥ cannot start f3", "other foundation of its suit")
    legal(pos, "f6 f2")  # and back again


def test_tournament_foundation_reversal_moves_the_bottom_king():
    pos = position("tournament", {"t1": "5d", "f2": "ah 2h 3h 4h 5h 6h 7h 8h 9h 10h jh qh",
                                  "f6": "kh"})
    legal(pos, "f6 f2")
    pos.play("f6 f2")
    assert pos.pile("f6") == () and len(pos.pile("f2")) == 13
    refused(position("tournament", {"f2": "ah 2h", "f6": "kh qh"}), "f2 f6",
            "2♥ cannot go on Q♥", "when their top cards are in sequence")


def test_tournament_one_ace_pile_and_one_king_pile_per_suit():
    pos = position("tournament", {"t1": "ah", "t2": "5d", "f2": "ah"})
    refused(pos, "t1 f", "f2 (the ♥ ace-pile) shows A♥", "f6 (the ♥ king-pile) is empty")
    refused(pos, "t1 f3", "f3 is the ♦ ace-pile in Tournament")
    refused(pos, "t2 f", "f3 (the ♦ ace-pile) is empty", "f7 (the ♦ king-pile) is empty")
    # the second A♥ ends on the ♥ king-pile, built down from the other deck's K♥
    down = position("tournament", {"t1": "ah", "f2": "ah",
                                   "f6": "kh qh jh 10h 9h 8h 7h 6h 5h 4h 3h 2h"})
    legal(down, "t1 f")
    down.play("t1 f")
    assert len(down.pile("f6")) == 13


@pytest.mark.parametrize("key", TOURNAMENTS)
def test_tournament_kibitzers_always_hold_an_ace_or_a_king(key):
    v = load_variant(key)
    reshuffled = 0
    for seed in range(40):
        pos = deal(key, seed)
        kibitzers = [pos.pile(f"r{k}")[0] for k in range(1, 9)]
        assert {RANK_OF[c] for c in kibitzers} & {1, 13}, seed
        first = shuffled(fresh_deck(v), seed)
        if dealt(v, seed)[0] != first:
            reshuffled += 1
            # the plain shuffle would have dealt eight kibitzers without an ace or a king
            assert not {RANK_OF[c] for c in first[:8]} & {1, 13}
    assert reshuffled  # the rule did act on some of these seeds


# ============================================================================== Blockade

def _blockade(**piles):
    base = piles_of("t", 12, "kd")
    base.update(piles)
    return position("blockade", {k: v for k, v in base.items() if v})


def test_blockade_builds_down_in_suit_and_moves_suit_runs():
    pos = _blockade(t1="9s 8s 7s", t2="10h", t3="9h", t4="10s", s=("2c", 1))
    legal(pos, "t1:3 t4", "t3 t2")
    refused(pos, "t1:2 t3", "8♠ cannot go on 9♥", "Blockade builds down in suit")
    refused(pos, "t3 t4", "9♥ cannot go on 10♠", "in suit")


def test_blockade_no_new_row_while_a_pile_is_empty_and_any_unit_fills_a_space():
    pos = _blockade(t1="9s 8s 7s", t12="", s=("2c 3c", 2))
    refused(pos, "s", "Blockade deals only when no pile is empty")
    legal(pos, "t1 t12", "t1:2 t12")
    pos.play("t1:2 t12")
    legal(pos, "s")


def test_blockade_last_row_covers_piles_one_to_eight():
    # 92 = 7 rows of 12 + 8 (RULES.md §2.18, §3 #22).
    pos = _blockade(s=("2c 3c 4c 5c 6c 7c 8c 9c", 8))
    pos.play("s")
    assert [len(pos.pile(f"t{k}")) for k in range(1, 13)] == [2] * 8 + [1] * 4
    assert pos.pile("t1")[-1] == Card.parse("9c").code and pos.pile("s") == ()
    refused(pos, "s", "the stock is empty")


def test_blockade_auto_stock_option_fills_a_space_at_once():
    tab = piles_of("t", 12, "kd") | {"t1": "9s 8s 7s", "t2": "ac"}
    pos = position("blockade", tab | {"s": ("2c 3c", 2)}, options={"space_fill": "auto-stock"})
    pos.play("t2 f")
    assert pos.pile("t2") == cards("3c") and pos.pile("s") == cards("2c")
    # once the stock is gone, any card or run may go into a space
    out = position("blockade", tab, options={"space_fill": "auto-stock"})
    out.play("t2 f")
    assert out.pile("t2") == ()
    legal(out, "t1 t2", "t1:2 t2")


def test_blockade_the_stock_card_may_fill_a_space():
    # S4: a space may be filled "by a card from the hand" too.
    pos = _blockade(t12="", s=("2c 3c", 2))
    legal(pos, "s t12")


def test_space_rule_any_or_stock_lets_the_stock_top_fill_a_space():
    # The piece itself, on a variant built directly from Blockade's data.
    plain = _blockade(t1="9s 8s", t12="", s=("2c 3c", 2))
    v = plain.variant
    v = dataclasses.replace(v, tableau=dataclasses.replace(v.tableau, space="any-or-stock"))
    pos = Position(v.engine(), plain.piles, plain.down)
    legal(pos, "s t12", "t1 t12")
    refused(pos, "s t1", "the stock's top card may only fill a space")
    before = all_cards(pos)
    pos.play("s t12")
    assert pos.pile("t12") == cards("3c") and pos.face_down("t12") == 0
    assert pos.pile("s") == cards("2c") and pos.face_down("s") == 1
    assert all_cards(pos) == before


# ============================================================================== Miss Milligan

def _milligan(options=None, **piles):
    base = piles_of("t", 8, "2d")
    base.update(piles)
    return position("miss-milligan", {k: v for k, v in base.items() if v}, options=options)


STOCK8 = ("3c 4c 5c 6c 7c 8c 9c 10c", 8)


def test_miss_milligan_a_deal_covers_empty_columns_too():
    pos = _milligan(t3="", s=STOCK8)
    legal(pos, "s")  # no rule against dealing with a space
    pos.play("s")
    assert pos.pile("t3") == cards("8c")
    assert all(len(pos.pile(f"t{k}")) == 2 for k in (1, 2, 4, 5, 6, 7, 8))


def test_miss_milligan_only_a_king_or_a_king_headed_run_fills_a_space():
    pos = _milligan(t1="9s 8h 7c", t2=("5d ks qh", 1), t3="", t4="10d", s=STOCK8)
    legal(pos, "t2:2 t3", "t1:3 t4")  # runs in alternating colours move whole or in part
    refused(pos, "t1 t3", "7♣ cannot fill the space in t3", "only a king, or a run headed by "
            "a king")
    refused(pos, "t2 t3", "Q♥ cannot fill the space")


def test_miss_milligan_weaving_only_after_the_whole_pack_is_dealt():
    piles = {"t1": "9s 8h 7c", "t2": "ks qh", "t4": "10d"}
    pos = _milligan(**piles, s=STOCK8)
    refused(pos, "t1:2 r1", "in Miss Milligan r1 takes a card only after the whole pack is "
            "dealt (the stock still has 8 cards)")
    woven = _milligan(**piles)
    legal(woven, "t1 r1", "t1:2 r1", "t1:3 r1", "t2:2 r1")
    woven.play("t1:3 r1")
    refused(woven, "t2 r1", "r1 is not empty")


def test_miss_milligan_a_woven_run_goes_back_as_a_unit():
    pos = _milligan(r1="9s 8h 7c", t4="10d", t5="8d")
    legal(pos, "r1:3 t4", "r1 t5")
    refused(pos, "r1:2 t4", "8♥ cannot go on 10♦")
    pos.play("r1:3 t4")
    assert pos.pile("t4") == cards("10d 9s 8h 7c") and pos.pile("r1") == ()
    kings = _milligan(r1="ks qh jc", t3="")
    legal(kings, "r1:3 t3")
    refused(kings, "r1:2 t3", "Q♥ cannot fill the space in t3")
    legal(_milligan(r1="ah"), "r1 f")


def test_miss_milligan_weave_single_card_option():
    pos = _milligan({"weave_single_card": True}, t1="9s 8h 7c")
    legal(pos, "t1 r1")
    refused(pos, "t1:2 r1", "only one card at a time goes to r1",
            "weave_single_card is on")


def test_miss_milligan_no_redeal():
    pos = _milligan()
    refused(pos, "s", "the stock is empty")


# ============================================================================== Forty Thieves family

@pytest.mark.parametrize("key", ["forty-thieves", "limited", "lucas", "busy-aces"])
def test_in_suit_family_seven_of_clubs_only_on_eight_of_clubs(key):
    # S1/S4 Forty Thieves' in-suit building, inherited by Limited, Lucas and Busy Aces.
    pos = position(key, {"t1": "7c", "t2": "8s", "t3": "8h", "t4": "8d", "t5": "8c",
                         "t6": "10d 9d 8d", "t7": "9d"})
    assert {m for m in texts(pos) if m.startswith("t1 ")} == {"t1 t5"}
    refused(pos, "t1 t2", "7♣ cannot go on 8♠", "builds down in suit")
    refused(pos, "t6:2 t7", "only the top card of a pile moves")


def test_lucas_puts_the_eight_aces_up_before_the_deal():
    pos = deal("lucas", 17)
    assert sorted(RANK_OF[pos.pile(f"f{k}")[0]] for k in range(1, 9)) == [1] * 8
    assert not any(RANK_OF[c] == 1 for k in range(1, 14) for c in pos.pile(f"t{k}"))
    assert not any(RANK_OF[c] == 1 for c in pos.pile("s"))
    two = position("lucas", {"t1": "2s", "f1": "as"})
    legal(two, "t1 f")


@pytest.mark.parametrize("key", ["maria", "number-ten", "rank-and-file", "midshipman-emperor"])
def test_alternate_colour_family(key):
    pos = position(key, {"t1": "7c", "t2": "8s", "t3": "8h", "t4": "8d"})
    legal(pos, "t1 t3", "t1 t4")
    refused(pos, "t1 t2", "7♣ cannot go on 8♠", "builds down in alternating colours")


def test_maria_moves_single_cards():
    pos = position("maria", {"t1": "9d 8s 7d", "t2": "10c"})
    refused(pos, "t1:3 t2", "only the top card of a pile moves")


@pytest.mark.parametrize("key", ["number-ten", "rank-and-file"])
def test_number_ten_and_rank_and_file_move_runs_in_sequence(key):
    pos = position(key, {"t1": ("qc 9d 8s 7d", 1), "t2": "10c", "t3": "10d", "t4": "9h"})
    legal(pos, "t1:3 t2", "t1:2 t4")
    refused(pos, "t1:3 t3", "9♦ cannot go on 10♦")
    pos.play("t1:3 t2")
    assert pos.face_down("t1") == 0  # the Q♣ is turned up


def test_number_ten_dealt_face_up_cards_out_of_sequence_are_not_a_run():
    pos = position("number-ten", {"t1": ("2c 3c 9h 4s", 2), "t2": "5h", "t3": "10s"})
    legal(pos, "t1 t2")
    refused(pos, "t1:2 t3", "2 cards of t1 cannot move as one unit",
            "any run of face-up cards in sequence moves as a unit")


def test_number_ten_move_unit_single_option():
    pos = position("number-ten", {"t1": ("qc 9d 8s 7d", 1), "t2": "10c"},
                   options={"move_unit": "single"})
    refused(pos, "t1:3 t2", "only the top card of a pile moves")


@pytest.mark.parametrize("key", ["indian", "midshipman"])
def test_indian_builds_down_in_any_suit_but_its_own(key):
    # RULES.md §2.25: a 6♦ goes on a 7♠, 7♣ or 7♥, not on a 7♦.
    pos = position(key, {"t1": "6d", "t2": "7s", "t3": "7c", "t4": "7h", "t5": "7d",
                         "t6": "9c 8h", "t7": "9d"})
    assert {m for m in texts(pos) if m.startswith("t1 ")} == {"t1 t2", "t1 t3", "t1 t4"}
    name = load_variant(key).name
    refused(pos, "t1 t5", f"6♦ cannot go on 7♦: {name} builds down in any suit but its own")
    refused(pos, "t6:2 t7", "only the top card of a pile moves")


def test_midshipman_keeps_foundation_cards_its_emperor_reading_gives_them_back():
    piles = {"f1": "as 2s 3s", "t1": "4h"}
    refused(position("midshipman", piles), "f1 t1", "stay there")
    legal(position("midshipman-emperor", piles), "f1 t1")


def test_midshipman_emperor_all_face_up_cards_move_as_a_unit():
    # S4's literal reading moves all face-up cards as a unit, in sequence or not.
    pos = position("midshipman-emperor", {"t1": ("2c 3c 9h 4s", 2), "t2": "10s"})
    legal(pos, "t1:2 t2")


# ============================================================================== Octave

OCTAVE = piles_of("t", 8, "kd") | {"t1": "9s", "t2": "4c"}


def test_octave_first_pass_reserve_is_closed_and_play_is_free():
    pos = position("octave", OCTAVE | {"w": "8h", "s": ("2c 3c", 2)})
    legal(pos, "w t1", "s")
    refused(pos, "w r1", "in Octave an empty reserve place takes a card only in the last pass")


def test_octave_redeal_lays_eight_reserve_cards_from_the_turned_over_waste():
    waste = "2h 3h 4h 5h 6h 7h 8h 9h 10h jh"  # turned in this order in the first pass
    pos = position("octave", OCTAVE | {"w": waste})
    legal(pos, "s")
    pos.play("s")
    assert pos.pass_no == 2 and pos.pile("w") == ()
    assert [pos.pile(f"r{k}") for k in range(1, 9)] == [cards(c) for c in waste.split()[:8]]
    pos.play("s")
    assert pos.pile("w") == cards("10h")  # the ninth card of the first pass comes next
    refused(pos, "s", "turned card (10♥) must be played at once")


def test_octave_reserve_cards_go_to_tableau_and_foundations():
    pos = position("octave", OCTAVE | {"r1": "8h", "r2": "ac", "s": ("3c", 1)}, pass_no=2)
    legal(pos, "r1 t1", "r2 f", "s")
    refused(pos, "t2 r3", "in Octave an empty reserve place takes only the card turned from "
            "the stock (w)")
    refused(pos, "t2 r1", "r1 is not empty")


def test_octave_last_pass_the_turned_card_must_be_played_at_once():
    pos = position("octave", OCTAVE | {"r1": "8h", "w": "3d", "s": ("qc", 1)}, pass_no=2)
    legal(pos, "w t2", "w r2")
    assert all(m.startswith("w ") for m in texts(pos))
    why = "in Octave's last pass the turned card (3♦) must be played at once"
    refused(pos, "r1 t1", why)  # a good move, but not now
    refused(pos, "s", why)
    pos.play("w r2")
    legal(pos, "r1 t1", "s")


def test_octave_a_turned_card_that_can_go_nowhere_loses_the_game():
    full = {f"r{k}": "9c" for k in range(1, 9)} | {"r1": "5c"}
    pos = position("octave", OCTAVE | full | {"s": ("2c 3c 5s", 3)}, pass_no=2)
    pos.play("s")
    assert pos.pile("w") == cards("5s")
    assert texts(pos) == set()
    refused(pos, "w t1", "5♠ cannot go on 9♠")
    out = pos.outcome()
    assert out.termination is Termination.NO_MOVES and not out.won


def test_octave_foundations_go_from_ace_to_ten_only():
    pos = position("octave", OCTAVE | {"f1": "as 2s 3s 4s 5s 6s 7s 8s 9s 10s", "t3": "js",
                                       "t4": "jh"})
    assert "t3 f" not in texts(pos)
    refused(pos, "t3 f", "J♠ never goes to a foundation in Octave: the foundations are built "
            "from A to 10 only")
    refused(pos, "t3 f1", "never goes to a foundation")


def test_octave_won_with_ace_to_ten_up_and_eight_king_queen_jack_columns():
    tens = " ".join(["a", "2", "3", "4", "5", "6", "7", "8", "9", "10"])
    piles = {}
    for k in range(8):
        suit = "shdc"[k % 4]
        piles[f"f{k + 1}"] = " ".join(r + suit for r in tens.split())
        red = suit in "hd"
        piles[f"t{k + 1}"] = f"k{suit} q{'s' if red else 'h'} j{suit}" if k < 4 else \
            f"k{suit} q{'c' if red else 'd'} j{suit}"
    won = position("octave", piles, pass_no=2)
    assert won.is_valid()
    assert won.outcome().won
    wrong = piles | {"t1": "ks qs js", "t3": "kd qh jd"}  # same colours: not the goal
    assert not position("octave", wrong, pass_no=2).is_won()


# ============================================================================== Busy Aces

BUSY = piles_of("t", 12, "kd") | {"t1": "9s 5h", "t2": "6h", "t3": "6s", "t12": ""}


def test_busy_aces_spaces_only_from_the_waste():
    pos = position("busy-aces", BUSY | {"w": "3c", "s": ("2c", 1)})
    legal(pos, "w t12", "t1 t2")
    refused(pos, "t1 t12", "5♥ cannot fill the space in t12",
            "in Busy Aces a space is filled only from the waste")
    refused(pos, "t1 t3", "5♥ cannot go on 6♠", "builds down in suit")


def test_busy_aces_space_fill_any_option():
    pos = position("busy-aces", BUSY | {"w": "3c"}, options={"space_fill": "any"})
    legal(pos, "w t12", "t1 t12")


def test_busy_aces_one_pass():
    refused(position("busy-aces", BUSY | {"w": "3c"}), "s", "no redeal")


# ============================================================================== Rouge et Noir

def _rouge(options=None, **piles):
    base = piles_of("t", 8, "kd")
    base.update(piles)
    return position("rouge-et-noir", {k: v for k, v in base.items() if v}, options=options)


def test_rouge_et_noir_the_eight_aces_come_out_before_the_deal():
    pos = deal("rouge-et-noir", 8)
    assert sorted(RANK_OF[pos.pile(f"f{k}")[0]] for k in range(1, 9)) == [1] * 8
    assert not any(RANK_OF[c] == 1 for k in range(1, 9) for c in pos.pile(f"t{k}"))


def test_rouge_et_noir_foundations_build_up_in_alternating_colours():
    # RULES.md §2.29: on A♥ any black 2, then any red 3 ...
    for two in ("2c", "2s"):
        pos = _rouge(f1="ah", f2="as", w=f"3c {two}")
        legal(pos, "w f")
        pos.play("w f1")
        assert pos.pile("f1") == cards(f"ah {two}")
    pos = _rouge(f1="ah", f2="as", f3="ad 2s", w="3c 2c")
    refused(pos, "w f2", "2♣ cannot go on A♠ in f2", "builds up in alternating colours")
    red = _rouge(f1="ah", w="2d")
    refused(red, "w f", "2♦ cannot go to a foundation yet", "alternating colours")
    legal(_rouge(f3="ad 2s", t1="3h"), "t1 f")  # suits are ignored after the ace


def test_rouge_et_noir_tableau_single_cards_in_alternating_colours():
    pos = _rouge(t1="9s 8h", t2="7c", t3="9d 8s 7h", t4="10c")
    legal(pos, "t2 t1")
    refused(pos, "t3:3 t4", "only the top card of a pile moves")
    refused(pos, "t3 t1", "7♥ cannot go on 8♥", "alternating colours")


def test_rouge_et_noir_spaces_only_from_the_waste():
    pos = _rouge(t1="9s 8h", t8="", w="3c")
    legal(pos, "w t8")
    refused(pos, "t1 t8", "8♥ cannot fill the space in t8", "filled only from the waste")


def test_rouge_et_noir_one_redeal():
    pos = _rouge(w="2h 3c 2d")
    legal(pos, "s")
    pos.play("s")
    assert pos.pass_no == 2 and pos.pile("s") == cards("2d 3c 2h")  # 2♥ turns first again
    for _ in range(3):
        pos.play("s")
    refused(pos, "s", "Rouge et Noir allows 2 passes")


def test_rouge_et_noir_whole_piles_mode():
    # S4's alternative: no redeal, but a whole pile moves onto a pile where its bottom card fits.
    piles = {"t1": "9s 8h 7c", "t2": "10c 9h", "t3": "10d", "t8": ""}
    pos = _rouge({"mode": "whole-piles"}, **piles, w="3c")
    legal(pos, "t1:3 t3")
    refused(pos, "t1:2 t3", "only the top card moves, or a whole pile as one unit")
    refused(pos, "t1:3 t2", "9♠ cannot go on 9♥")
    refused(pos, "t2:2 t1", "10♣ cannot go on 7♣")
    pos.play("t1:3 t3")
    assert pos.pile("t3") == cards("10d 9s 8h 7c") and pos.pile("t1") == ()
    refused(_rouge({"mode": "whole-piles"}, w="3c 4c"), "s", "no redeal")
    refused(_rouge(**piles, w="3c"), "t1:3 t3", "only the top card of a pile moves")


def test_rouge_et_noir_auto_space_fill_option():
    pos = _rouge({"space_fill": "auto"}, t3="2c", f1="ah", w="3c 4c", s=("2h 5d", 2))
    pos.play("t3 f")
    assert pos.pile("t3") == cards("4c") and pos.pile("w") == cards("3c")
    empty_waste = _rouge({"space_fill": "auto"}, t3="2c", f1="ah", s=("2h 5d", 2))
    empty_waste.play("t3 f")
    assert empty_waste.pile("t3") == cards("5d") and empty_waste.pile("s") == cards("2h")


# ============================================================================== Congress

def test_congress_a_space_fills_at_once_from_the_waste_then_the_stock():
    tab = piles_of("t", 8, "kd") | {"t1": "ac", "t2": "9s", "t3": "8h", "t4": "8s 7d"}
    pos = position("congress", tab | {"w": "3c 4c", "s": ("2h 5d", 2)})
    pos.play("t1 f")
    assert pos.pile("t1") == cards("4c") and pos.pile("w") == cards("3c")
    pos.play("t3 t2")
    assert pos.pile("t3") == cards("3c") and pos.pile("w") == ()
    stock = position("congress", tab | {"s": ("2h 5d", 2)})
    stock.play("t1 f")
    assert stock.pile("t1") == cards("5d") and stock.pile("s") == cards("2h")


def test_congress_builds_down_regardless_of_suit_one_card_at_a_time():
    tab = piles_of("t", 8, "kd") | {"t2": "9s", "t3": "8h", "t4": "8s 7d", "t5": "9c 8c"}
    pos = position("congress", tab | {"s": ("2h", 1)})
    legal(pos, "t3 t2", "t4 t3")
    refused(pos, "t2 t3", "9♠ cannot go on 8♥", "builds down regardless of suit")
    refused(pos, "t4:2 t2", "only the top card of a pile moves")


def test_congress_once_waste_and_stock_are_gone_any_card_fills_a_space():
    tab = piles_of("t", 8, "kd") | {"t1": "ac", "t2": "9s", "t4": "8s 7d"}
    pos = position("congress", tab)
    pos.play("t1 f")
    assert pos.pile("t1") == ()
    legal(pos, "t4 t1")


# ============================================================================== Harp

HARP = piles_of("t", 9, "qs") | {"t1": ("2d ks qh jc", 1), "t2": "8h", "t3": "",
                                 "t4": ("3c 9c 8d", 1), "t5": "10h"}


def test_harp_single_cards_but_a_king_headed_run_may_enter_a_space():
    pos = position("harp", HARP | {"w": "kh"})
    legal(pos, "t1:3 t3", "w t3", "t5 t1")
    refused(pos, "t1:2 t3", "Q♥ cannot fill the space in t3", "only a king")
    refused(pos, "t4 t3", "8♦ cannot fill the space in t3")
    refused(pos, "t4:2 t5", "only the top card of a pile moves",
            "a run headed by a king may move into a space")
    pos.play("t1:3 t3")
    assert pos.pile("t3") == cards("ks qh jc") and pos.face_down("t1") == 0


def test_harp_unlimited_redeals_until_blocked():
    pos = position("harp", {"t1": "kd qs", "t2": "kh", "s": ("3c", 1)})
    for move in ("t1 t2", "t2 t1", "t1 t2"):
        pos.play("s")
        pos.play(move)  # (a pass that changes something may be followed by another)
        legal(pos, "s")
        pos.play("s")
    assert pos.pass_no == 4
    stuck = position("harp", {"t1": "kd", "w": "3c 4c"})
    stuck.play("s")  # turn the waste over: a new pass that changes nothing
    stuck.play("s")
    stuck.play("s")
    assert stuck.outcome().termination is Termination.BLOCKED
    refused(position("harp", {"t1": "kd", "w": "3c"}, options={"passes": 2}, pass_no=2), "s",
            "Harp allows 2 passes")


@pytest.mark.parametrize("key", ["klondike", "solitaire", "harp"])
def test_an_idle_pass_ends_the_game_only_when_no_other_move_is_left(key):
    # RULES.md 0.4: lost when no legal move is left and no redeal remains. A whole pass that
    # changes nothing is not turned over again, but a move still playable keeps the game on.
    pos = position(key, {"t1": ("9h 2d", 1), "f1": "ad", "s": ("3d 4d 5d", 3)})
    while pos.piles[pos.engine.groups.stock]:
        pos.play("s")
    pos.play("s")  # turn the waste over: a new pass
    while pos.piles[pos.engine.groups.stock]:
        pos.play("s")  # ... that changes nothing
    assert pos.outcome() is None
    assert texts(pos) == {"t1 f"}
    refused(pos, "s", "the last pass through the stock changed nothing",
            "make another move before turning the waste over again")
    pos.play("t1 f")  # 2♦ up: something changed, so the waste may be turned over again
    legal(pos, "s")
    pos.play("s")
    while pos.piles[pos.engine.groups.stock]:
        pos.play("s")
    assert pos.outcome() is None  # 3♦ goes up from the waste
    assert "w f" in texts(pos)


def test_pyramid_an_idle_pass_with_a_pair_left_is_not_lost():
    pos = position("pyramid", {"p28": "6h", "p27": "7c", "s": ("2d", 1)})
    pos.play("s")  # turned up in place
    pos.play("s")  # onto the waste
    pos.play("s")  # a new pass
    pos.play("s")
    pos.play("s")  # ... that removes nothing
    assert pos.outcome() is None and "p27 p28" in texts(pos)
    pos.play("p27 p28")  # ... and removing it clears the pyramid
    assert pos.outcome().termination is Termination.WON


def test_an_idle_pass_with_no_other_move_left_is_lost():
    pos = position("solitaire", {"t1": ("9h 2d", 1), "s": ("3d 4d", 2)})
    for _ in range(5):
        pos.play("s")
    assert pos.outcome().termination is Termination.BLOCKED
    assert not texts(pos)
    refused(pos, "s", "no other move is left: the game is lost")


# ============================================================================== House in the Wood, House on the Hill

HOUSES = ["house-in-the-wood", "house-on-the-hill"]
FANS = {"t1": "7h", "t2": "8h", "t3": "6h 8h", "t4": "8d", "t5": "kc", "t6": "ac", "t7": "qc",
        "t8": "2c", "t9": "ks"}


@pytest.mark.parametrize("key", HOUSES)
def test_houses_build_up_or_down_in_suit_and_the_direction_may_change(key):
    pos = position(key, FANS)
    legal(pos, "t1 t2", "t2 t1")
    pos.play("t1 t2")  # 7♥ down on 8♥
    legal(pos, "t3 t2")
    pos.play("t3 t2")  # 8♥ up on 7♥
    assert pos.pile("t2") == cards("8h 7h 8h")
    name = load_variant(key).name
    refused(position(key, FANS), "t1 t4", f"7♥ cannot go on 8♦: {name} builds up or down in suit")


@pytest.mark.parametrize("key", HOUSES)
def test_houses_no_wrap_only_a_queen_on_a_king_only_a_two_on_an_ace(key):
    pos = position(key, FANS)
    legal(pos, "t7 t5", "t8 t6")
    refused(pos, "t6 t5", "A♣ cannot go on K♣", "a king and an ace are not neighbours")
    refused(pos, "t5 t6", "K♣ cannot go on A♣", "a king and an ace are not neighbours")


@pytest.mark.parametrize("key", HOUSES)
def test_houses_an_emptied_fan_is_never_refilled_and_single_cards_move(key):
    pos = position(key, FANS)
    name = load_variant(key).name
    refused(pos, "t1 t10", f"t10 is empty and in {name} an empty pile is never filled again")
    refused(position(key, {"t1": "6h 7h", "t2": "8h"}), "t1:2 t2",
            "only the top card of a pile moves")


def test_house_in_the_wood_has_eight_ace_foundations():
    pos = position("house-in-the-wood", {"t1": "ah", "f1": "ah", "t2": "2h"})
    legal(pos, "t1 f", "t2 f")
    pos.play("t1 f")
    assert sorted(len(pos.pile(f"f{k}")) for k in range(1, 9)) == [0] * 6 + [1, 1]


def test_house_on_the_hill_king_foundations_build_down_in_suit():
    pos = position("house-on-the-hill", {"t1": "kh", "t2": "qh", "t3": "ah", "t4": "jd",
                                         "f7": "kd"})
    legal(pos, "t1 f", "t3 f")
    pos.play("t1 f")
    assert pos.pile("f6") == cards("kh")  # the ♥ king-pile
    legal(pos, "t2 f")
    pos.play("t2 f")
    assert pos.pile("f6") == cards("kh qh")
    pos.play("t3 f")
    assert pos.pile("f2") == cards("ah")  # the ♥ ace-pile
    refused(pos, "t4 f", "J♦ cannot go to a foundation now", "f7 (the ♦ king-pile) shows K♦")
    refused(pos, "t4 f6", "f6 is the ♥ king-pile in House on the Hill")


def test_house_on_the_hill_one_king_pile_per_suit_and_no_reversal():
    pos = position("house-on-the-hill", {"t1": "kh", "f6": "kh qh"})
    refused(pos, "t1 f", "f2 (the ♥ ace-pile) is empty", "f6 (the ♥ king-pile) shows Q♥")
    meet = position("house-on-the-hill", {"t1": "9c", "f2": "ah 2h 3h",
                                          "f6": "kh qh jh 10h 9h 8h 7h 6h 5h 4h"})
    refused(meet, "f2 f6", "cards on the foundations stay there in House on the Hill")


# ============================================================================== Intelligence

FAN18 = piles_of("t", 18, "kd kd kd") | {"t1": "7h", "t2": "8h", "t3": "6d 9d 9h", "t4": "ks"}


def test_intelligence_builds_up_or_down_in_suit_one_card_at_a_time():
    pos = position("intelligence", FAN18 | {"s": ("2c", 1)})
    legal(pos, "t1 t2", "t2 t1", "t3 t2")
    refused(pos, "t1 t4", "7♥ cannot go on K♠", "Intelligence builds up or down in suit")
    wrap = position("intelligence", {"t1": "ac", "t2": "kc", "s": ("2c", 1)})
    refused(wrap, "t1 t2", "a king and an ace are not neighbours")
    refused(position("intelligence", {"t1": "6h 7h", "t2": "8h"}), "t1:2 t2",
            "only the top card of a pile moves")


def test_intelligence_an_emptied_fan_gets_three_stock_cards_aces_going_up():
    pos = position("intelligence", FAN18 | {"s": ("2c 3c 4c ac 5c", 5)})
    pos.play("t1 t2")
    # drawn from the top: 5♣, then the A♣ goes up and is replaced, 4♣, 3♣
    assert pos.pile("t1") == cards("5c 4c 3c")
    assert pos.pile("f1") == cards("ac") and pos.pile("s") == cards("2c")
    short = position("intelligence", FAN18 | {"s": ("2c", 1)})
    short.play("t1 t2")
    assert short.pile("t1") == cards("2c") and short.pile("s") == ()
    spent = position("intelligence", FAN18)
    spent.play("t1 t2")
    assert spent.pile("t1") == ()
    refused(spent, "t3 t1", "t1 is empty and stays empty", "refilled only from the stock")


def test_intelligence_stock_is_never_played_from_directly():
    pos = deal("intelligence", 3)
    refused(pos, "s t1", "stock cards come into play only through the stock action")


def test_intelligence_redeal_shuffles_deterministically_per_seed():
    one, two, other = deal("intelligence", 3), deal("intelligence", 3), deal("intelligence", 4)
    before = all_cards(one)
    for pos in (one, two, other):
        legal(pos, "s")
        pos.play("s")
    assert one.key() == two.key() and one.pass_no == 2
    assert all_cards(one) == before
    fans = [one.pile(f"t{k}") for k in range(1, 19)]
    assert all(len(f) == 3 for f in fans)
    assert not any(RANK_OF[c] == 1 for f in fans for c in f)  # aces met in the deal went up
    up = sum(len(one.pile(f"f{k}")) for k in range(1, 9))
    assert len(one.pile("s")) == 104 - 54 - up
    # a redeal shuffles: seed 3 does not just deal its gathered cards back in order
    again = deal("intelligence", 3)
    gathered = [c for k in range(1, 19) for c in again.pile(f"t{k}")] + \
        list(again.pile("s")[::-1])
    assert [c for f in fans for c in f] != [c for c in gathered if RANK_OF[c] != 1][:54]


def test_intelligence_two_redeals_only():
    pos = deal("intelligence", 3)
    pos.play("s")
    pos.play("s")
    assert pos.pass_no == 3
    refused(pos, "s", "no redeal is left: Intelligence allows 2 redeals")

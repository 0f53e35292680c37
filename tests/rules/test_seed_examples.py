"""Every worked example in the seed texts, as a named test (RULES.md §2; seed tags as in §0.2).

Where a seed sentence is wrong, the test follows the resolution in RULES.md §3 and says so.
"""

from __future__ import annotations

from collections import Counter

import pytest
from handmade import all_cards, position, texts

from companion.cards import RANK_OF, Card
from companion.errors import AmbiguousMoveError, IllegalMoveError
from companion.rules import Termination, deal

# ============================================================================== Accordion

ACCORDION_S0 = {"p1": "6h", "p2": "jh", "p3": "9c", "p4": "9h"}


@pytest.fixture(params=["all", "progressive"])
def accordion_s0(request):
    """S0: four cards, left to right, 6♥ J♥ 9♣ 9♥ (laid out, or dealt one by one)."""
    if request.param == "all":
        return position("accordion", ACCORDION_S0, options={"deal": "all"})
    # The progressive deal: the stock (top card last) turns 6♥, J♥, 9♣, 9♥ onto the line.
    pos = position("accordion", {"s": ("9h 9c jh 6h", 4)})
    for _ in range(4):
        pos.play("s")
    assert [Card.parse(t).code for t in ["6h", "jh", "9c", "9h"]] == \
        [pos.pile(f"p{k}")[-1] for k in range(1, 5)]
    return pos


def test_accordion_s0_nine_of_hearts_on_nine_of_clubs_or_six_of_hearts(accordion_s0):
    assert accordion_s0.check("p4 p3").ok    # same rank, next to it
    assert accordion_s0.check("p4 p1").ok    # same suit, third to the left
    assert {"p4 p3", "p4 p1"} <= texts(accordion_s0)


def test_accordion_s0_not_on_the_jack_two_to_the_left(accordion_s0):
    verdict = accordion_s0.check("p4 p2")
    assert not verdict.ok
    assert "next to it on the left or third to its left" in verdict.reason
    assert "p3 or p1" in verdict.reason
    assert "p4 p2" not in texts(accordion_s0)
    with pytest.raises(IllegalMoveError):
        accordion_s0.play("p4 p2")


def test_accordion_s0_the_pile_moves_with_its_top_card(accordion_s0):
    # 9♥ on 9♣; the two on J♥; all of these on the 6♥ (the seed's "6 clubs" is a slip, §3 #2).
    accordion_s0.play("p4 p3")
    assert accordion_s0.pile("p3") == tuple(Card.parse(c).code for c in ("9c", "9h"))
    assert accordion_s0.pile("p4") == ()
    accordion_s0.play("p3 p2")
    accordion_s0.play("p2 p1")
    assert accordion_s0.pile("p1") == tuple(Card.parse(c).code for c in ("6h", "jh", "9c", "9h"))
    assert accordion_s0.pile("p2") == ()
    assert accordion_s0.engine.line_length(accordion_s0.piles) == 1


def test_accordion_closes_the_gap():
    pos = position("accordion", {"p1": "6h", "p2": "jh", "p3": "9c", "p4": "9h", "p5": "2d"},
                   options={"deal": "all"})
    pos.play("p4 p1")
    assert pos.pile("p2")[-1] == Card.parse("jh").code
    assert pos.pile("p3")[-1] == Card.parse("9c").code
    assert pos.pile("p4")[-1] == Card.parse("2d").code
    assert pos.pile("p5") == ()


def test_accordion_s1_reach_runs_on_across_the_row_break():
    # Rows of ten: row 1 is p1-p10, row 2 starts at p11. The 9♣ that is the first card of row 2
    # goes onto the 9♥ third from the right end of row 1 (p8).
    row1 = ["3s", "4d", "5c", "6h", "7s", "8d", "jd", "9h", "qs", "kd"]
    piles = {f"p{k}": c for k, c in enumerate(row1, 1)} | {"p11": "9c"}
    pos = position("accordion", piles, options={"deal": "all"})
    assert pos.check("p11 p8").ok
    assert not pos.check("p11 p10").ok   # K♦ shares neither suit nor rank
    assert "neither suit nor rank" in pos.check("p11 p10").reason
    pos.play("p11 p8")
    assert pos.pile("p8")[-1] == Card.parse("9c").code


def test_accordion_moves_only_to_the_left():
    pos = position("accordion", {"p1": "6h", "p2": "6c"}, options={"deal": "all"})
    assert texts(pos) == {"p2 p1"}
    assert not pos.check("p1 p2").ok


# ============================================================================== Gaps

def _gaps(rows: dict[str, str], aside: str = "as ah ad ac", **kw):
    piles = {}
    for r, text in rows.items():
        for c, tok in enumerate(text.split(), 1):
            if tok != "-":
                piles[f"{r}{c}"] = tok
    if aside:
        piles["x"] = aside
    return position("gaps", piles, **kw)


# S3's sample layout. The seed lists J♦ twice and no J♥ (RULES.md §2.13 contradiction 3): the
# second J♦ (row 4) is read as J♥.
GAPS_S3 = {
    "a": "2h 4h 8d 9c jc 6h qs qd kd 3c 7c 6d ks",
    "b": "2s -  4d 8h 5c 7s 3s js 6s 9s 5s 9d qh",
    "c": "2c th 4s td 3d 8s kh 7d 5d jd 9h -  tc",
    "d": "2d 8c 4c 5h -  3h -  jh 6c ts kc 7h qc",
}


def test_gaps_s3_sample_layout_is_a_whole_deck():
    pos = _gaps(GAPS_S3)
    assert pos.is_valid()
    assert sum(1 for g in pos.engine.groups.grid if not pos.piles[g]) == 4


def test_gaps_s3_the_four_fills_are_exactly_the_legal_moves():
    pos = _gaps(GAPS_S3)
    # 3♠ next to 2♠, 10♥ next to 9♥, 6♥ next to 5♥, 4♥ next to 3♥.
    assert texts(pos) == {"b7 b2", "c2 c12", "a6 d5", "a2 d7"}
    assert str(pos.play("3s b2")) == "b7 b2"
    assert str(pos.play("10h c12")) == "c2 c12"
    assert str(pos.play("6h d5")) == "a6 d5"
    assert str(pos.play("4h d7")) == "a2 d7"


def test_gaps_wrong_card_in_a_gap_is_refused_with_reason():
    pos = _gaps(GAPS_S3)
    verdict = pos.check("b7 d5")
    assert not verdict.ok
    assert verdict.reason == "only 6♥ can fill d5 (one above 5♥ in suit), not 3♠"


def test_gaps_a_gap_right_of_a_king_is_dead():
    pos = _gaps({"a": "2s ks -", "b": "2h qs 3h"}, aside="")
    assert texts(pos) == {"s"}  # no fill at all: only the redeal is left
    verdict = pos.check("b2 a3")
    assert not verdict.ok and "a king stands to its left" in verdict.reason


def test_gaps_a_king_to_the_right_of_a_gap_does_not_block_it():
    # S3's literal sentence (king to the right) contradicts its own fill rule (§3 #14).
    pos = _gaps({"a": "2s - ks", "b": "2h 3s"}, aside="")
    assert texts(pos) == {"b2 a2"}


def test_gaps_a_gap_right_of_a_gap_is_dead():
    pos = _gaps({"a": "2s 3s - -", "b": "2h 4s 5s"}, aside="")
    assert texts(pos) == {"b2 a3"}
    assert "to its left is a gap" in pos.check("b3 a4").reason


REDEAL_EXAMPLE = "2h 3h 8d 9c jc 6h 7h qd kd jd qh - ks"


def test_gaps_s3_redeal_example_keeps_only_the_run_from_the_two():
    # S3 keeps "2♥, 3♥, J♦, Q♥"; only 2♥ 3♥ are in sequence (§2.13 contradiction 2).
    pos = _gaps({"a": REDEAL_EXAMPLE}, aside="")
    assert pos.engine.kept_runs(pos.piles)[0] == 2


# A stuck layout whose first row is the example row, with the trailing K♠ swapped for K♥ so that
# every gap is dead (a gap after Q♥ could still take K♥, so the literal row is never stuck).
STUCK = {
    "a": "2h 3h 8d 9c jc 6h 7h qd kd jd qh kh -",
    "b": "2s 3s 4s 5s 9h th jh 3d 4d 5d 6d ks -",
    "c": "2c 3c 4c 6s 7s 8s 9s ts js qs kc -  -",
    "d": "2d 4h 5h 8h 7d 9d td 5c 6c 7c 8c tc qc",
}
STUCK_KEPT = [2, 4, 3, 1]


def _cells(pos, row: str, kept: int):
    cols = pos.engine.gaps.columns
    return [f"{row}{c}" for c in range(kept + 1, cols + 1)]


def test_gaps_stuck_layout_offers_only_the_redeal():
    pos = _gaps(STUCK, seed=11)
    assert pos.is_valid()
    assert texts(pos) == {"s"}
    assert pos.engine.kept_runs(pos.piles) == STUCK_KEPT
    assert "s" in pos.legal_moves


def test_gaps_redeal_keeps_the_runs_and_redeals_the_rest():
    pos = _gaps(STUCK, seed=11)
    before = pos.copy()
    pos.play("s")
    free = [c for r, k in zip("abcd", STUCK_KEPT, strict=True) for c in _cells(pos, r, k)]
    kept = [n for n in pos.engine.groups.grid if pos.engine.names[n] not in free]
    for i in kept:
        assert pos.piles[i] == before.piles[i]
    # J♦ and Q♥ of the example row were picked up, like every card outside the kept runs.
    gathered = Counter(c for name in free for c in before.pile(name)) + Counter(before.pile("x"))
    after = Counter(c for name in free for c in pos.pile(name)) + Counter(pos.pile("x"))
    assert gathered == after
    assert sorted(pos.pile("x")) == sorted(Card.parse(a).code for a in ("as", "ah", "ad", "ac"))
    assert sum(1 for name in free if not pos.pile(name)) == 4
    assert all(RANK_OF[c] != 1 for name in free for c in pos.pile(name))
    assert all_cards(pos) == all_cards(before)
    assert pos.pass_no == 2
    assert pos.is_valid()


def test_gaps_seeded_redeal_is_deterministic():
    one, two = _gaps(STUCK, seed=11), _gaps(STUCK, seed=11)
    one.play("s")
    two.play("s")
    assert one.key() == two.key()
    three = _gaps(STUCK, seed=11)
    three.push_raw(three.raw_moves()[0])
    assert three.key() == one.key()


def test_gaps_redeal_can_be_undone():
    pos = _gaps(STUCK, seed=11)
    key = pos.key()
    pos.play("s")
    assert pos.key() != key
    pos.pop()
    assert pos.key() == key


def test_gaps_redeal_without_shuffle_deals_back_in_order():
    pos = _gaps(STUCK, seed=11, options={"redeal_shuffle": False})
    before = pos.copy()
    pos.play("s")
    free = [c for r, k in zip("abcd", STUCK_KEPT, strict=True) for c in _cells(pos, r, k)]
    picked = [c for name in free for c in before.pile(name)]
    dealt = [c for name in free for c in pos.pile(name)]
    assert dealt == picked


def test_gaps_only_two_redeals():
    pos = _gaps(STUCK, seed=11, pass_no=3)
    assert texts(pos) == set()
    verdict = pos.check("s")
    assert not verdict.ok and "no redeals left" in verdict.reason
    assert pos.outcome().termination is Termination.NO_MOVES


def test_gaps_redeal_only_when_stuck():
    pos = _gaps(GAPS_S3, seed=3)
    verdict = pos.check("s")
    assert not verdict.ok and "a gap can still be filled" in verdict.reason


# ============================================================================== Spider

def _spider(**piles):
    """Ten piles, each a lone 2♦ unless told otherwise (an empty text leaves a space)."""
    base = {f"t{k}": "2d" for k in range(1, 11)}
    base.update(piles)
    return position("spider", {k: v for k, v in base.items() if v})


@pytest.fixture
def spider_run():
    # t1, bottom to top: a face-down card, then 7♠ 6♠ 5♠ 4♠ (S0: "from top down 4, 5, 6, 7").
    return _spider(t1=("kd 7s 6s 5s 4s", 1), t2="5h", t3="6d", t4="7c", t5="8h")


def test_spider_units_of_one_two_three_and_four_cards(spider_run):
    legal = texts(spider_run)
    assert {"t1 t2", "t1:2 t3", "t1:3 t4", "t1:4 t5"} <= legal
    for text in ("t1 t2", "t1:2 t3", "t1:3 t4", "t1:4 t5"):
        assert spider_run.check(text).ok


def test_spider_the_seven_moves_only_with_the_cards_above_it(spider_run):
    seven = Card.parse("7s").code
    lifts_seven = [m for m in spider_run.raw_moves()
                   if m[0] == 0 and m[1] == spider_run.engine.index["t1"]
                   and spider_run.piles[m[1]][-m[2]] == seven]
    assert lifts_seven and all(m[2] == 4 for m in lifts_seven)
    assert str(spider_run.play("7s t5")) == "t1:4 t5"
    # the card below is turned up when uncovered
    assert spider_run.face_down("t1") == 0


def test_spider_a_unit_goes_only_on_the_next_rank(spider_run):
    assert not spider_run.check("t1:2 t2").ok
    assert not spider_run.check("t1:3 t5").ok
    assert "cannot go on" in spider_run.check("t1:2 t5").reason


def test_spider_mixed_suits_do_not_move_as_a_unit():
    pos = _spider(t1="7s 6h 5s", t2="8d", t3="7c")
    verdict = pos.check("t1:3 t2")
    assert not verdict.ok and "one suit" in verdict.reason
    assert not pos.check("t1:2 t3").ok
    assert all(m[2] == 1 for m in pos.raw_moves() if m[0] == 0 and m[1] == 0)


def test_spider_builds_regardless_of_suit():
    pos = _spider(t1="5s", t2="6h", t3="6c", t4="6d", t5="6s")
    assert {"t1 t2", "t1 t3", "t1 t4", "t1 t5"} <= texts(pos)


def test_spider_a_king_moves_only_into_a_space():
    pos = _spider(t1="ks", t2="qh", t3="ac")
    assert not any(m.src == "t1" for m in pos.legal_moves)
    pos = _spider(t1=("5d ks", 1), t10="")
    assert "t1 t10" in texts(pos)


def test_spider_a_space_takes_any_unit():
    pos = _spider(t1=("9d 8c 7c", 1), t10="")
    assert {"t1 t10", "t1:2 t10"} <= texts(pos)


def test_spider_no_deal_while_a_pile_is_empty():
    pos = _spider(t10="", s=("9c 8c 7c 6c 5c 4c 3c 2c ac kc", 10))
    assert "s" not in texts(pos)
    verdict = pos.check("s")
    assert not verdict.ok
    assert "only when no pile is empty" in verdict.reason
    full = _spider(s=("9c 8c 7c 6c 5c 4c 3c 2c ac kc", 10))
    full.play("s")
    assert all(len(full.pile(f"t{k}")) == 2 for k in range(1, 11))
    assert full.pile("t1")[-1] == Card.parse("kc").code  # one card to each pile, from the top


def test_spider_complete_suit_is_lifted_off():
    suit = "ks qs js ts 9s 8s 7s 6s 5s 4s 3s 2s as"
    pos = _spider(t1=("3d " + suit, 1))
    assert "t1 f" in texts(pos)
    pos.play("t1 f")
    assert pos.pile("t1") == (Card.parse("3d").code,) and pos.face_down("t1") == 0
    assert len(pos.pile("f1")) == 13


# ============================================================================== Klondike

def test_klondike_a_black_five_goes_on_a_red_six():
    for five in ("5s", "5c"):
        for six in ("6h", "6d"):
            pos = position("klondike", {"t1": five, "t2": six})
            assert "t1 t2" in texts(pos)
    pos = position("klondike", {"t1": "5s", "t2": "6s", "t3": "6c"})
    assert not pos.check("t1 t2").ok and not pos.check("t1 t3").ok


def test_klondike_eight_of_clubs_on_nine_of_clubs_is_refused_with_the_reason():
    pos = position("klondike", {"t1": "8c", "t2": "9c"})
    verdict = pos.check("t1 t2")
    assert not verdict.ok
    assert "8♣ cannot go on 9♣: Klondike builds down in alternating colours" in verdict.reason
    with pytest.raises(IllegalMoveError) as info:
        pos.play("8c 9c")
    assert "8♣ cannot go on 9♣: Klondike builds down in alternating colours" in info.value.reason


def test_klondike_only_a_king_fills_a_space():
    pos = position("klondike", {"t1": ("2d qh", 1), "t2": ("3d kc qh", 1), "t3": "4c"})
    assert "t1 t4" not in texts(pos)
    verdict = pos.check("t1 t4")
    assert not verdict.ok and "only a king" in verdict.reason
    assert "t2:2 t4" in texts(pos)
    assert not pos.check("t2 t4").ok  # the Q♥ alone is not a king
    pos.play("t2:2 t4")
    assert pos.face_down("t2") == 0  # the uncovered card is turned up


def test_klondike_draw_three_only_top_card_playable():
    pos = position("klondike", {"t1": "6c", "t2": "6s", "s": ("9c 8c 7c 5h 4s 5d", 6)})
    pos.play("s")
    assert pos.pile("w") == tuple(Card.parse(c).code for c in ("5d", "4s", "5h"))
    assert pos.pile("s") == tuple(Card.parse(c).code for c in ("9c", "8c", "7c"))
    assert {m for m in texts(pos) if m.startswith("w")} == {"w t1", "w t2"}  # 5♥, the top
    pos.play("w t1")
    assert pos.pile("w")[-1] == Card.parse("4s").code  # the next one down is playable now
    assert not pos.check("w t2").ok


def test_klondike_draw_three_turns_the_last_one_or_two():
    pos = position("klondike", {"s": ("9c 8c", 2), "w": "kd"})
    pos.play("s")
    assert pos.pile("s") == () and len(pos.pile("w")) == 3


def test_klondike_recycles_with_unlimited_passes():
    pos = position("klondike", {"t1": "kd qs", "t2": "kh", "s": ("9c 8c 7c 6c", 4)})
    for pass_no in range(1, 6):
        pos.play("s")
        pos.play("s")
        assert pos.pile("s") == () and len(pos.pile("w")) == 4
        assert pos.pass_no == pass_no
        # (a pass that changes nothing is not turned over again: RULES.md 0.4)
        pos.play(("t2 t1", "t1 t2")[pass_no % 2])
        pos.play("s")  # turn the waste over
        assert pos.pile("w") == () and pos.pile("s") == tuple(
            Card.parse(c).code for c in ("9c", "8c", "7c", "6c"))
        assert pos.pass_no == pass_no + 1


def test_klondike_passes_one_forbids_the_recycle():
    pos = position("klondike", {"w": "9c 8c"}, options={"passes": 1})
    verdict = pos.check("s")
    assert not verdict.ok
    assert "1 pass" in verdict.reason and "no redeal" in verdict.reason
    assert position("klondike", {"w": "9c 8c"}).check("s").ok


def test_klondike_passes_three_allows_two_recycles():
    pos = position("klondike", {"s": ("9c", 1)}, options={"passes": 3})
    pos.play("s")
    pos.play("s")
    pos.play("s")
    pos.play("s")
    assert pos.pass_no == 3
    pos.play("s")
    assert not pos.check("s").ok and "3 passes" in pos.check("s").reason


def test_klondike_foundation_return_only_when_on():
    piles = {"f1": "ah 2h 3h", "t1": "4s"}
    off = position("klondike", piles)
    assert "f1 t1" not in texts(off)
    verdict = off.check("f1 t1")
    assert not verdict.ok and "stay there" in verdict.reason
    on = position("klondike", piles, options={"foundation_return": True})
    assert "f1 t1" in texts(on)
    on.play("f1 t1")
    assert on.pile("t1")[-1] == Card.parse("3h").code
    assert len(on.pile("f1")) == 2


def test_klondike_face_up_block_only():
    piles = {"t1": ("2d 9s 8h 7c", 1), "t2": "8d", "t3": "th"}
    default = position("klondike", piles)
    assert {"t1 t2", "t1:3 t3"} <= texts(default)
    strict = position("klondike", piles, options={"face_up_block_only": True})
    legal = texts(strict)
    assert "t1:3 t3" in legal
    assert "t1 t2" not in legal and "t1:2 t2" not in legal
    verdict = strict.check("t1 t2")
    assert not verdict.ok and "all face-up cards of a pile move together" in verdict.reason
    assert verdict.reason.startswith("1 card of t1 cannot move as one unit")
    assert strict.check("t1:2 t2").reason.startswith("2 cards of t1 cannot")


def test_accordion_the_first_pile_has_nowhere_to_go():
    pos = position("accordion", {"p1": "9h", "p2": "9c", "p3": "2d"}, options={"deal": "all"})
    verdict = pos.check("p1 p2")
    assert not verdict.ok and "p1 is the first pile: nothing lies to its left" in verdict.reason
    assert "p3 may go to p2" in pos.check("p3 p1").reason


def test_klondike_to_foundation():
    pos = position("klondike", {"t1": "ac", "f1": "ah", "t2": "2h"})
    assert {"t1 f", "t2 f"} <= texts(pos)
    pos.play("t2 f")
    assert pos.pile("f1")[-1] == Card.parse("2h").code
    verdict = pos.check("t1 f1")
    assert not verdict.ok


# ============================================================================== Golf

@pytest.fixture
def golf():
    return position("golf", {"t1": "kc 6s", "t2": "8c", "t3": "9h", "t4": "5d", "t5": "kc",
                             "t6": "7h", "t7": "2c 6h", "w": "7d", "s": ("4c 3c", 2)})


def test_golf_on_seven_any_six_or_eight(golf):
    assert texts(golf) == {"t1 w", "t2 w", "t7 w", "s"}
    verdict = golf.check("t3 w")
    assert not verdict.ok and "one rank up or down" in verdict.reason
    golf.play("t2 w")
    assert golf.pile("w")[-1] == Card.parse("8c").code


def test_golf_no_building_on_the_tableau(golf):
    assert not golf.check("t4 t1").ok


def test_golf_queen_on_king_by_default():
    piles = {"t1": "qs", "t2": "ah", "w": "kd"}
    pos = position("golf", piles)
    assert texts(pos) == {"t1 w"}  # no A on K: no turning the corner
    strict = position("golf", piles, options={"kings_block": True})
    assert texts(strict) == set()
    verdict = strict.check("t1 w")
    assert not verdict.ok and "nothing goes on a K" in verdict.reason


def test_golf_ace_and_king_are_not_neighbours():
    pos = position("golf", {"t1": "kc", "t2": "2d", "w": "ah"})
    assert texts(pos) == {"t2 w"}


def test_golf_tee_off_at_the_deal():
    pos = deal("golf", 2024)
    assert len(pos.pile("w")) == 1 and pos.face_down("w") == 0
    assert len(pos.pile("s")) == 16


def test_golf_stock_one_pass():
    pos = position("golf", {"t1": "9c", "w": "2d 5h", "s": ("3c", 1)})
    pos.play("s")
    assert pos.pile("w")[-1] == Card.parse("3c").code
    verdict = pos.check("s")
    assert not verdict.ok and "no redeal" in verdict.reason
    out = pos.outcome()
    assert out.termination is Termination.NO_MOVES and out.score == 1 and not out.won


def test_golf_score_is_cards_left():
    pos = position("golf", {"t1": "9c kd", "t2": "jh", "w": "2d"})
    assert pos.score() == 3
    cleared = position("golf", {"w": "2d", "s": ("3c 4c 5c", 3)})
    assert cleared.score() == -3
    assert cleared.outcome().won


# ============================================================================== Forty Thieves

def test_forty_thieves_seven_of_clubs_only_on_eight_of_clubs():
    pos = position("forty-thieves", {"t1": "7c", "t2": "8s", "t3": "8h", "t4": "8d",
                                     "t5": "8c", "t6": "9c", "t7": "9c", "t8": "9c",
                                     "t9": "9c", "t10": "9c"})
    assert {m for m in texts(pos) if m.startswith("t1")} == {"t1 t5"}
    verdict = pos.check("t1 t2")
    assert not verdict.ok and "in suit" in verdict.reason


def test_forty_thieves_single_cards_only():
    pos = position("forty-thieves", {"t1": "9c 8c 7c", "t2": "tc", "t3": "8c"})
    assert not pos.check("t1:2 t2").ok
    assert "only the top card" in pos.check("t1:3 t2").reason
    assert not any(m.count > 1 for m in pos.legal_moves)


def test_forty_thieves_any_card_to_a_space():
    piles = {f"t{k}": "kd" for k in range(2, 11)} | {"t1": "9c 5h", "w": "3s"}
    pos = position("forty-thieves", piles | {"t10": ""})
    assert {"t1 t10", "w t10"} <= texts(pos)


def test_forty_thieves_one_pass():
    pos = position("forty-thieves", {"w": "3s 4s", "t1": "kd"})
    verdict = pos.check("s")
    assert not verdict.ok and "no redeal" in verdict.reason


def test_forty_thieves_two_aces_of_a_suit_both_go_up():
    pos = position("forty-thieves", {"t1": "ah", "t2": "ah", "f1": "ah 2h"})
    pos.play("t1 f")
    pos.play("t2 f")
    assert sorted(len(pos.pile(f"f{k}")) for k in range(1, 9)) == [0] * 5 + [1, 1, 2]


# ============================================================================== Streets and Alleys

def test_streets_a_five_on_any_six():
    pos = position("streets-and-alleys",
                   {"t1": "5h", "t2": "6h", "t3": "6s", "t4": "6d", "t5": "6c", "t6": "7h"})
    assert {m for m in texts(pos) if m.startswith("t1")} == {"t1 t2", "t1 t3", "t1 t4", "t1 t5"}
    assert not pos.check("t1 t6").ok


def test_streets_single_cards_and_any_card_to_a_space():
    pos = position("streets-and-alleys", {"t1": "7d 6s 5h", "t2": "7c", "t3": "kd 9c"})
    assert not pos.check("t1:2 t2").ok
    assert {"t3 t4", "t1 t4"} <= texts(pos)
    # moving a pile's only card into a space changes nothing, so it is not offered
    assert "t2 t4" not in texts(pos)


def test_streets_deal_seven_and_six():
    pos = deal("streets-and-alleys", 99)
    assert [len(pos.pile(f"t{k}")) for k in range(1, 9)] == [7] * 4 + [6] * 4
    assert all(pos.face_down(f"t{k}") == 0 for k in range(1, 9))


# ============================================================================== Pyramid

def _pyramid(**piles):
    return position("pyramid", piles)


def test_pyramid_pairs_adding_to_thirteen():
    pos = _pyramid(p16="7d", p22="6h", p23="7c", p24="8c", p25="ks", p26="qd", p27="ac")
    legal = texts(pos)
    assert {"p22 p23", "p26 p27"} <= legal
    verdict = pos.check("p22 p24")
    assert not verdict.ok and "add up to 14, not 13" in verdict.reason
    pos.play("6h 7c")
    assert pos.pile("p22") == () and pos.pile("p23") == ()
    assert len(pos.pile("f")) == 2


def test_pyramid_king_alone():
    pos = _pyramid(p25="ks", p26="qd")
    assert "p25 f" in texts(pos)
    pos.play("p25 f")
    assert pos.pile("p25") == () and pos.pile("f") == (Card.parse("ks").code,)
    verdict = pos.check("p26 f")
    assert not verdict.ok and "on its own" in verdict.reason


def test_pyramid_covered_card_is_not_available():
    pos = _pyramid(p16="7d", p22="6h", p23="3c")
    # the 7♦ is covered by the 6♥ and 3♣: not even its partner 6♥ may take it (strict rule)
    verdict = pos.check("p16 p22")
    assert not verdict.ok and "not available" in verdict.reason
    pos2 = _pyramid(p16="7d", p24="6h")
    assert "p16 p24" in texts(pos2)  # both cells below p16 (p22, p23) are gone


def test_pyramid_turned_stock_card_and_waste_top_pair():
    pos = _pyramid(p22="2c", s=("9c 5d", 1), w="3s 8h")
    assert "s w" in texts(pos)
    pos.play("s w")
    assert pos.pile("s") == (Card.parse("9c").code,) and pos.face_down("s") == 1
    assert pos.pile("w") == (Card.parse("3s").code,)


def test_pyramid_stock_turns_one_card_at_a_time():
    pos = _pyramid(p22="2c", s=("9c 4d", 2))
    pos.play("s")
    assert pos.face_down("s") == 1  # the 4♦ is turned up in place and is available
    assert "p22 s" not in texts(pos)
    assert "s" in texts(pos)
    pos.play("s")
    assert pos.pile("w") == (Card.parse("4d").code,)
    assert pos.face_down("s") == 0  # the next card is turned up


def test_pyramid_waste_top_with_a_pyramid_card():
    pos = _pyramid(p22="jc", w="2d")
    assert "p22 w" in texts(pos)


# ============================================================================== Wish

def test_wish_pairs_of_the_same_rank():
    pos = position("wish", {"t1": ("7c 9h", 1), "t2": ("8c 9s", 1), "t3": ("ac 9c", 1),
                            "t4": "kd"})
    assert texts(pos) == {"t1 t2", "t1 t3", "t2 t3"}
    with pytest.raises(AmbiguousMoveError) as info:
        pos.play("9h")
    assert info.value.candidates == ["t1 t2", "t1 t3"]
    pos.play("t1 t3")
    assert pos.face_down("t1") == 0 and pos.face_down("t3") == 0
    verdict = pos.check("t1 t4")
    assert not verdict.ok and "not the same rank" in verdict.reason


def test_wish_deck_has_no_twos_to_sixes():
    pos = deal("wish", 1)
    ranks = {RANK_OF[c] for p in pos.piles for c in p}
    assert ranks == {1, 7, 8, 9, 10, 11, 12, 13}

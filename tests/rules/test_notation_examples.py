"""The move notation `companion rules` and the sheets print: every example is one the variant,
as configured, understands (so the text cannot drift from the engine).

Each example is put to the same parser `companion check` uses (Position.check on a seeded deal):
it may be refused there for what lies on the table (7h is not on top), but never because the
variant has no such pile, no such kind of move, or cannot read it. Reveals are played for
real on a physical deal."""

from __future__ import annotations

import pytest

from companion.cards import Card
from companion.errors import InvalidCardError
from companion.rules import Position, load_variant, variant_keys
from companion.rules.describe import notation
from companion.rules.engine import STOCK

CASES = [(key, {}) for key in variant_keys()] + [
    ("klondike", {"passes": 1}), ("klondike", {"draw": 1, "passes": 3}),
    ("klondike", {"foundation_return": True, "face_up_block_only": True}),
    ("golf", {"kings_block": True}), ("pyramid", {"passes": 1, "goal": "clear-all"}),
    ("accordion", {"deal": "all"}), ("gaps", {"redeals": 0}),
    ("gaps", {"redeal_anytime": True, "deal": "standard"}),
    ("rouge-et-noir", {"mode": "whole-piles", "space_fill": "auto"}),
    ("miss-milligan", {"weave_single_card": True}), ("busy-aces", {"space_fill": "any"}),
    ("number-ten", {"move_unit": "single"}), ("spider", {"discard": "auto"}),
    ("blockade", {"space_fill": "auto-stock"}), ("gate", {"delay_fill": True}),
    ("harp", {"passes": 2}), ("german-patience", {"passes": 3}),
]
IDS = [key + "".join(f"-{k}={v}" for k, v in options.items()) for key, options in CASES]

# Refusals that say the variant itself has no such thing, whatever lies on the table.
NOT_IN_THIS_GAME = ("there is no pile", "is not a move", "neither a pile", "is not a card",
                    "cannot be put on the", "has no building", "the stock is empty")


def examples(v) -> list[str]:
    return [part.strip() for text, _ in notation(v) for part in text.split(",")]


def _is_card(token: str) -> bool:
    try:
        Card.parse(token)
    except InvalidCardError:
        return False
    return True


@pytest.mark.parametrize(("key", "options"), CASES, ids=IDS)
def test_every_example_move_is_one_the_variant_reads(key, options):
    v = load_variant(key, options)
    pos = Position.deal(v, 1)
    eng = pos.engine
    for text in examples(v):
        if "=" in text:
            continue  # reveals: below
        for token in text.split():
            pile = token.partition(":")[0]
            assert _is_card(token) or pile in eng.index \
                or (pile == "f" and eng.groups.foundations) \
                or (pile == "s" and text == "s"), f"{v.identity}: {text!r} names {pile!r}"
        verdict = pos.check(text)
        assert verdict or not any(why in verdict.reason for why in NOT_IN_THIS_GAME), \
            f"{v.identity}: {text!r} refused: {verdict.reason}"


@pytest.mark.parametrize(("key", "options"), CASES, ids=IDS)
def test_every_example_reveal_is_accepted_where_a_card_turns_up(key, options):
    v = load_variant(key, options)
    reveals = [t for t in examples(v) if "=" in t]
    assert len(reveals) <= 1
    if not reveals:
        # every card is dealt face up at the start, and no stock turns one up later
        start = Position.deal(v, None)
        assert not any(start.down[i] for i in start.engine.groups.tableau)
        return
    [text] = reveals
    pos = Position.deal(v, None)  # a physical deal: cards are named as they turn up
    pile = text.partition("=")[0]
    if pile not in {pos.engine.names[i] for i, _ in pos.pending_reveals()}:
        pos.push_raw(next(m for m in pos.raw_moves() if m[0] == STOCK))
    assert pos.check(text), f"{v.identity}: {text!r} refused: {pos.check(text).reason}"


@pytest.mark.parametrize(("key", "options", "again"), [
    ("klondike", {}, True), ("klondike", {"passes": 1}, False), ("golf", {}, False),
    ("pyramid", {}, True), ("pyramid", {"passes": 1}, False), ("forty-thieves", {}, False),
    ("octave", {}, True),
])
def test_the_stock_line_speaks_of_new_passes_only_where_there_are_some(key, options, again):
    [meaning] = [m for t, m in notation(load_variant(key, options)) if t == "s"]
    assert ("new pass" in meaning) is again


def test_no_stock_action_is_offered_where_the_deal_empties_the_stock():
    assert "s" not in [t for t, _ in notation(load_variant("accordion", {"deal": "all"}))]
    assert "s" in [t for t, _ in notation(load_variant("accordion"))]
    assert "s" not in [t for t, _ in notation(load_variant("gaps", {"redeals": 0}))]


@pytest.mark.parametrize("key", ["pyramid", "accordion", "gaps"])
def test_games_without_tableau_piles_name_none(key):
    # the defects found: Pyramid offered `w t2` and `t3=9c`, Accordion `t3=9c` and `7h t4`
    import re
    text = " ".join(t for t, _ in notation(load_variant(key)))
    assert not re.search(r"\bt[0-9]", text), text


# -- the one-line description ------------------------------------------------------------------

@pytest.mark.parametrize(("key", "options", "says", "not_says"), [
    ("klondike", {}, "three cards at a time, unlimited passes", "one card"),
    ("klondike", {"draw": 1, "passes": 1}, "one card at a time, one pass", "three"),
    ("solitaire", {"draw": 3, "passes": 2}, "three cards at a time, with two passes",
     "unlimited"),
    ("number-ten", {"move_unit": "single"}, "one card moves at a time", "runs move"),
    ("busy-aces", {"space_fill": "any"}, "any card may fill a space", "only from the waste"),
    ("rouge-et-noir", {"mode": "whole-piles"}, "no redeal", "one redeal"),
])
def test_the_summary_follows_the_options(key, options, says, not_says):
    summary = load_variant(key, options).summary
    assert says in summary and not_says not in summary


@pytest.mark.parametrize(("key", "options"), CASES, ids=IDS)
def test_every_summary_is_filled_in(key, options):
    summary = load_variant(key, options).summary
    assert summary.endswith(".") and "{" not in summary and "}" not in summary


# -- 'unlimited' is typed as such --------------------------------------------------------------

@pytest.mark.parametrize("key", ["klondike", "solitaire", "harp", "pyramid"])
def test_a_typed_zero_is_not_taken_for_unlimited(key):
    from companion.errors import VariantError
    with pytest.raises(VariantError, match=r">= 1 or 'unlimited', not '0' \(0 would allow none"):
        load_variant(key, {"passes": "0"})
    assert load_variant(key, {"passes": "unlimited"}).option_text("passes") == "unlimited"
    assert load_variant(key, {"passes": "1"}).stock.passes == 1
    # a position's JSON keeps 'unlimited' as the number 0, and reads back as it was
    pos = Position.deal(load_variant(key, {"passes": "3"}), 1)
    assert Position.from_json(pos.to_json()).variant == pos.variant
    assert load_variant(key, {"passes": 0}).option_text("passes") == "unlimited"


def test_gaps_redeals_zero_still_means_none():
    assert load_variant("gaps", {"redeals": "0"}).gaps.redeals == 0

"""Hints: never peek, legal moves, reasons that name only visible cards, exact when open."""

from __future__ import annotations

import random

from solverhelp import made

from companion.cards import CARDS
from companion.rules import deal


# Imported when a test runs, not at collection: tests/record checks the recorder without a
# solver by hiding companion.solver.hints, which an import at collection would defeat.
def hint(*args, **kwargs):
    from companion.solver.hints import hint as _hint
    return _hint(*args, **kwargs)


def hidden_slots(pos):
    from companion.solver.hints import hidden_slots as _slots
    return _slots(pos)


def mid_game(variant: str, seed: int, plies: int = 25):
    pos = deal(variant, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        ms = pos.raw_moves()
        if not ms or pos.outcome():
            break
        pos.push_raw(rng.choice(ms))
    return pos


def shuffled_hidden(pos, rng_seed: int):
    """The same position with its hidden cards dealt differently."""
    slots = hidden_slots(pos)
    cards = [pos.piles[i][k] for i, k in slots]
    random.Random(rng_seed).shuffle(cards)
    q = pos.copy()
    piles = [list(p) for p in q.piles]
    for (i, k), c in zip(slots, cards, strict=True):
        piles[i][k] = c
    q.piles = [tuple(p) for p in piles]
    return q


def test_the_hint_does_not_depend_on_the_face_down_cards():
    from companion.solver.hints import sample, unseen_cards
    pos = mid_game("klondike", 3)
    other = shuffled_hidden(pos, 99)
    assert other.piles != pos.piles
    # the deals the hint solves are the same whatever lies face down (no clock in this part:
    # how many a loaded machine solves in time varies)
    slots = hidden_slots(pos)
    assert sorted(unseen_cards(pos, slots)) == sorted(unseen_cards(other, slots))
    ra, rb = random.Random(5), random.Random(5)
    pa, pb = unseen_cards(pos, slots), unseen_cards(other, slots)
    for _ in range(4):
        assert sample(pos, slots, pa, ra).piles == sample(other, slots, pb, rb).piles
    a = hint(pos, samples=4, seconds=0.8, rng_seed=5)
    b = hint(other, samples=4, seconds=0.8, rng_seed=5)
    if a.samples == b.samples and a.undecided == 0 and b.undecided == 0:
        assert (a.move, a.wins) == (b.move, b.wins)   # a search cut by the clock may differ
    assert not a.peeked and a.verdict == "unknown"


def test_the_hint_is_a_legal_move_whose_reason_names_no_hidden_card():
    for seed in (1, 2, 4):
        pos = mid_game("klondike", seed)
        if pos.outcome():
            continue
        h = hint(pos, samples=3, seconds=0.6, rng_seed=1, symbols=False)
        assert pos.check(h.move).ok
        hidden = {CARDS[pos.piles[i][k]].text(False) for i, k in hidden_slots(pos)}
        words = set(h.reason.replace(",", " ").split())
        assert not words & hidden, h.reason


def test_peek_solves_the_real_deal_and_says_so():
    pos = deal("klondike", 3)
    h = hint(pos, peek=True, seconds=5)
    assert h.peeked and "peek" in h.basis
    if h.verdict == "won":
        q = pos.copy()
        for m in h.line:
            q.play(m)
        assert q.is_won() and h.line[0] == h.move


def test_peek_at_a_deal_with_stuck_cards_names_them_and_still_offers_a_move():
    pos = deal("klondike", 110)
    h = hint(pos, peek=True, seconds=5, symbols=False)
    assert h.verdict == "lost" and h.move in [pos.engine.text(m) for m in pos.raw_moves()]
    assert h.basis.startswith("Lost: 8c in t4, 10h in t7, 8s in s and 10d in s can never move")
    assert "--peek: every card known" in h.basis
    # without peeking, the face-down cards are not named
    h = hint(pos, seconds=1, symbols=False, rng_seed=1)
    assert h.verdict != "lost" and "10h" not in h.basis


def test_an_open_game_gets_an_exact_verdict_without_peeking():
    pos = made("streets-and-alleys", {"t1": "Ks Qs", "t2": "As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js"})
    # The proof takes about 13,000 positions (1.7 s here): the budget leaves room for a
    # loaded machine, and a proof ends the search long before it.
    h = hint(pos, seconds=30)
    assert h.verdict == "lost" and not h.samples  # J♠ is buried under the ace's pile


def test_a_card_waiting_to_be_named_comes_first():
    h = hint(deal("klondike", None))
    assert h.move is None and "t1=" in h.reason


def test_a_finished_game_says_so():
    spades = " ".join(f"{r}s" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    won = made("klondike", {"f1": spades, "f2": spades.replace("s", "h"),
                            "f3": spades.replace("s", "d"), "f4": spades.replace("s", "c")})
    h = hint(won)
    assert h.move is None and h.verdict == "won"


def test_physical_game_samples_the_unseen_cards():
    pos = deal("golf", None)
    # name the 35 tableau cards and the waste card as a player would
    for i, _k in pos.pending_reveals():
        name = pos.variant.pile_names[i]
        card = next(iter(pos.unseen()))
        pos.play(f"{name}={CARDS[card].text(False)}")
    h = hint(pos, samples=3, seconds=0.6, rng_seed=2)
    assert h.samples >= 1 and pos.check(h.move).ok
    assert f"{16} unseen cards" in h.basis


def test_a_later_shuffle_is_not_peeked_at_either():
    # Gaps is open, but its redeals shuffle by the seed: the hint samples those shuffles.
    h = hint(deal("gaps", 3), samples=2, seconds=0.4, rng_seed=1)
    assert h.samples == 2 and h.verdict == "unknown" and "shuffles" in h.basis
    exact = hint(deal("gaps", 3), peek=True, seconds=0.4)
    assert exact.peeked and exact.samples == 0


def test_a_lost_hint_quotes_the_proof_as_solve_does():
    # Streets and Alleys seed 2 is lost: the hint's basis said "85 positions searched" (every
    # search's positions summed) where solve's proof says "all 69 reachable positions".
    from companion.solver import Limits, solve
    pos = deal("streets-and-alleys", 2)
    proof = solve(pos, Limits(seconds=5)).reason
    h = hint(pos, seconds=5)
    assert h.verdict == "lost" and proof.startswith("all ")
    assert h.basis.startswith(f"Lost: {proof} (nothing is hidden)")

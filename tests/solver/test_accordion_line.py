"""Accordion's searches on the line (``search._exhaust_line``): the line as a string of its
piles' top cards, every card still in the stock dealt first, two move orders interleaved."""

from __future__ import annotations

import random

import pytest
from solverhelp import agrees_with_naive, made, replays_to_a_win, switched

from companion.cards import CARDS, Card
from companion.rules import deal
from companion.rules.engine import FOLD, STOCK
from companion.solver import Limits, solve
from companion.solver.search import _exhaust_line, knowledge


def accordion(line: str, stock: str = "", **kw):
    """A late Accordion position: ``line``, the piles' top cards (left to right), every card
    not named lying beneath the first; then ``stock`` (its top card, dealt next, last)."""
    tops = line.split()
    named = {Card.parse(t).code for t in tops + stock.split() if t != "??"}
    rest = [CARDS[c].text(False) for c in range(52) if c not in named]
    piles: dict = {f"p{k + 1}": t for k, t in enumerate(tops)}
    piles["p1"] = " ".join(rest + [tops[0]])
    if stock:
        piles["s"] = (stock, len(stock.split()))
    return made("accordion", piles, **kw)


def small_accordion(rng: random.Random):
    """A random short Accordion game: 4-9 cards on the line, 0-3 more in the stock; drawn
    from few suits and ranks, so that folds are many."""
    ranks = rng.sample(range(13), 3)
    suits = rng.sample(range(4), 2)
    pool = [s * 13 + r for s in suits for r in ranks]
    pool += rng.sample([c for c in range(52) if c not in pool], 6)
    rng.shuffle(pool)
    n, k = rng.randint(4, 9), rng.randint(0, 3)
    cards = [CARDS[c].text(False) for c in pool[:n + k]]
    return accordion(" ".join(cards[:n]), " ".join(cards[n:]))


def test_accordion_line_search_agrees_with_the_exhaustive_search():
    # The verdicts of the plain exhaustive search through the engine (every pile, every
    # deal a move of its own), won and lost; the won lines replay move by move.
    rng = random.Random(7)
    verdicts = []
    for _ in range(150):
        pos = small_accordion(rng)
        assert knowledge(pos.variant).line_exhaustible(pos)
        truth = agrees_with_naive(pos, _exhaust_line, 20_000)
        if truth is not None:
            verdicts.append(truth)
    assert verdicts.count("won") >= 20 and verdicts.count("lost") >= 40


def test_accordion_line_search_proves_a_loss():
    # 7♥ 2♣ 9♠: nothing matches, and the 5♦ dealt next matches nothing either.
    r = solve(accordion("7h 2c 9s", "5d"))
    assert r.verdict == "lost" and "none is won" in r.reason
    # The 7♣ dealt next goes onto 2♣ and then onto 7♥, but 9♠ stays: lost all the same.
    assert solve(accordion("7h 2c 9s", "7c")).verdict == "lost"
    # With 9♣ dealt after it, won: 7♣ onto 2♣, onto 7♥; 9♣ onto 9♠, onto 7♣.
    pos = accordion("7h 2c 9s", "9c 7c")
    r = solve(pos)
    assert r.verdict == "won" and replays_to_a_win(pos, r.moves)
    assert r.moves[:2] == ["s", "s"] and len(r.moves) == 2 + 4


@pytest.mark.parametrize("seed", range(1, 11))
def test_accordion_deals_are_won_and_the_lines_replay(seed):
    # Dealing every card first loses nothing (dealing and folding commute): the line deals
    # all 52 cards, then folds them into one pile; `check` replays it move by move.
    pos = deal("accordion", seed)
    r = solve(pos, Limits(seconds=60))
    assert r.verdict == "won" and replays_to_a_win(pos, r.moves)
    assert r.moves[:52] == ["s"] * 52 and len(r.moves) == 52 + 51


def test_accordion_deal_the_engine_search_leaves_unknown_is_won(monkeypatch):
    # Seed 141: the depth-first search through the engine finds no win within 30,000
    # positions (nor 200,000); the searches on the line win it (folding from the right, in
    # some 500,000 lines of the million they share).
    pos = deal("accordion", 141)
    r = solve(pos, Limits(seconds=120))
    assert r.verdict == "won" and replays_to_a_win(pos, r.moves)
    switched(monkeypatch, fast_line=False)
    assert solve(pos, Limits(seconds=None, nodes=30_000)).verdict == "unknown"


def test_accordion_line_search_tries_the_preferred_first_fold_first():
    # 5♠ 5♥ 5♦: 5♥ onto 5♠ or 5♦ onto 5♥ first, both win; the line starts with the one
    # preferred (the hints' vote), else with the leftmost fold.
    pos = accordion("5s 5h 5d", options={"deal": "all"})
    P = pos.engine.groups.pyramid
    left, right = (FOLD, P[1], 0, P[0]), (FOLD, P[2], 0, P[1])
    assert solve(pos, short=False).raw[0] == left
    r = solve(pos, prefer=[right], short=False)
    assert r.verdict == "won" and r.raw[0] == right


def test_accordion_line_search_applies_only_where_its_rules_hold():
    pos = deal("accordion", 3)
    assert knowledge(pos.variant).line_exhaustible(pos)
    laid = deal("accordion", 3, options={"deal": "all"})
    assert knowledge(laid.variant).line_exhaustible(laid)
    unknown = accordion("7h 2c 9s ??")
    assert not knowledge(unknown.variant).line_exhaustible(unknown)
    for key in ("klondike", "golf", "pyramid", "gaps"):
        other = deal(key, 1)
        assert not knowledge(other.variant).line_exhaustible(other), key
    assert STOCK  # (the deal's moves are the stock's: see the won lines above)

"""The win rules, one registry: each under the word a variant's TOML gives as ``win``, with its
test (compiled once per engine: :attr:`Engine.won`), its sentence for the rules text and, where
the rule scores a game, its score. The engine, the explainer, the rules text and the solver all
read a variant's win rule from here (:func:`win_rule`).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING

from ..cards import KING, RANK_NAMES, RANK_OF

if TYPE_CHECKING:
    from collections.abc import Callable

    from .engine import Engine
    from .position import Position
    from .variant import Variant

    Test = Callable[[Position], bool]


@dataclass(frozen=True, slots=True)
class WinRule:
    word: str
    """The word a variant's TOML names it by (``win = "foundations"``)."""
    compile: Callable[[Engine], Test]
    """The test for the positions of one engine (asked after every move by the solver)."""
    phrase: Callable[[Variant], str]
    """The rules text's sentence: ``Won when ...``."""
    score: Callable[[Position], int | None] | None = None
    """The game's score, where the rule keeps one (Golf)."""


def _all_to_foundations(eng: Engine) -> Test:
    size, F = eng.deck_size, eng.groups.foundations
    if len(F) > 1:
        heights = itemgetter(*F)

        def won(pos: Position) -> bool:
            return sum(map(len, heights(pos.piles))) == size

        return won

    def won_one(pos: Position) -> bool:
        return sum([len(pos.piles[f]) for f in F]) == size

    return won_one


def _emptied(group: str) -> Callable[[Engine], Test]:
    """The test that every pile of the engine's ``group`` (a PileGroups field) is empty."""
    def compile_(eng: Engine) -> Test:
        P = getattr(eng.groups, group)

        def won(pos: Position) -> bool:
            piles = pos.piles
            return not any(piles[i] for i in P)

        return won

    return compile_


def _golf_score(pos: Position) -> int | None:
    """Cards left in the tableau; minus the stock left when it is cleared."""
    g = pos.engine.groups
    left = sum(len(pos.piles[i]) for i in g.tableau)
    return left if left else -len(pos.piles[g.stock])


def _one_pile(eng: Engine) -> Test:
    S, first, size = eng.groups.stock, eng.groups.pyramid[0], eng.deck_size
    line_length = eng.line_length

    def won(pos: Position) -> bool:
        piles = pos.piles
        return line_length(piles) == 1 and not piles[S] and len(piles[first]) == size

    return won


def _tableau_full(eng: Engine) -> Test:
    T, most = eng.groups.tableau, eng.tmax

    def won(pos: Position) -> bool:
        piles = pos.piles
        return all(len(piles[i]) == most for i in T)

    return won


def _court_columns(eng: Engine) -> Test:
    """Every foundation complete, reserve, stock and waste empty, and each tableau pile a
    king with two cards built on it (Octave: A to 10 up, K-Q-J columns down)."""
    g = eng.groups
    tb, f_max = eng.tbuild, eng.f_max

    def won(pos: Position) -> bool:
        piles = pos.piles
        if any(len(piles[f]) != f_max[f] for f in g.foundations):
            return False
        if any(piles[r] for r in g.reserve) or piles[g.stock] or piles[g.waste]:
            return False
        return all(len(p) == 3 and RANK_OF[p[0]] == KING and tb[p[0]][p[1]] and tb[p[1]][p[2]]
                   for p in (piles[i] for i in g.tableau))

    return won


def _court_columns_phrase(v: Variant) -> str:
    f = v.foundations[0]
    top = f.base_rank + f.max_cards - 1
    suits = v.tableau.build.suit_phrase() if v.tableau else ""
    return f"Won when every foundation runs from {RANK_NAMES[f.base_rank]} to {RANK_NAMES[top]} " \
           f"and the court cards stand in the tableau as columns of K, Q, J {suits}."


def _gaps_rows(eng: Engine) -> Test:
    cols, rows, G = eng.gaps.columns, eng.gaps.rows, eng.groups.grid
    kept_runs = eng.kept_runs

    def won(pos: Position) -> bool:
        piles = pos.piles
        return all(k == cols - 1 for k in kept_runs(piles)) and \
            all(not piles[G[r * cols + cols - 1]] for r in range(rows))

    return won


ALL_TO_FOUNDATIONS = WinRule(
    "foundations", _all_to_foundations,
    lambda v: f"Won when all {v.deck_size} cards are on the foundations"
              + (" (removed)." if v.pairs else "."))
TABLEAU_EMPTY = WinRule(
    "tableau-empty", _emptied("tableau"),
    lambda v: "Won when the tableau is cleared. Score: cards left in the tableau "
              "(lower is better); minus the stock cards left when it is cleared.",
    score=_golf_score)
PYRAMID_EMPTY = WinRule(
    "pyramid-empty", _emptied("pyramid"),
    lambda v: "Won when the 28 cards of the pyramid are removed.")
ONE_PILE = WinRule("one-pile", _one_pile, lambda v: "Won when all the cards are in one pile.")
GAPS_ROWS = WinRule(
    "gaps-rows", _gaps_rows,
    lambda v: "Won when every row runs from its 2 to its king in one suit, with the gap at "
              "the end.")
TABLEAU_FULL = WinRule(
    "tableau-full", _tableau_full,
    lambda v: f"Won when every tableau pile holds {v.tableau.max_cards if v.tableau else 13} "
              f"cards.")
COURT_COLUMNS = WinRule("court-columns", _court_columns, _court_columns_phrase)

WINS: dict[str, WinRule] = {w.word: w for w in (
    ALL_TO_FOUNDATIONS, TABLEAU_EMPTY, PYRAMID_EMPTY, ONE_PILE, GAPS_ROWS, TABLEAU_FULL,
    COURT_COLUMNS)}
"""Every win rule by its TOML word."""


def win_rule(v: Variant) -> WinRule:
    """The win rule ``v`` plays by."""
    return WINS[v.win]

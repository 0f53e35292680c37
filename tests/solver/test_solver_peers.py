"""Checked against independent solvers fed the same deals: Klondike-Solver (pyksolve) for
Klondike draw 1 and 3, Freecell Solver for Streets and Alleys. A proved verdict of ours never
contradicts a proved verdict of theirs, and every line of ours replays legally in our engine.

The peers are test extras (`make peers`: pip install -e '.[solvers]' and Debian's
libfreecell-solver0); without them these tests skip with the reason."""

from __future__ import annotations

import pytest

from companion.rules import deal, load_variant
from companion.solver import Limits, solve
from companion.solver.peers import available, fcs_solve, pyksolve_solve

PEERS = available()
PROVED = ("won", "lost")


def _agree(ours, theirs) -> None:
    if ours.verdict in PROVED and theirs in PROVED:
        assert ours.verdict == theirs


def _replays(pos, moves) -> None:
    q = pos.copy()
    for m in moves:
        q.play(m)
    assert q.is_won()


@pytest.mark.skipif(PEERS["pyksolve"] is not None, reason=str(PEERS["pyksolve"]))
@pytest.mark.parametrize("draw", [1, 3])
def test_klondike_agrees_with_klondike_solver(draw):
    v = load_variant("klondike", {"draw": draw})
    compared = 0
    for seed in range(1, 7):
        pos = deal(v, seed)
        ours = solve(pos, Limits(nodes=2000))
        theirs, _ = pyksolve_solve(pos, max_closed=20_000)
        _agree(ours, theirs)
        if ours.verdict == "won":
            _replays(pos, ours.moves)
        compared += ours.verdict in PROVED and theirs in PROVED
    assert compared >= 1


@pytest.mark.skipif(PEERS["freecell-solver"] is not None, reason=str(PEERS["freecell-solver"]))
def test_streets_and_alleys_agrees_with_freecell_solver():
    compared = 0
    for seed in range(1, 13):
        pos = deal("streets-and-alleys", seed)
        ours = solve(pos, Limits(nodes=1500))
        theirs = fcs_solve(pos, iterations=20_000)
        _agree(ours, theirs)
        if ours.verdict == "won":
            _replays(pos, ours.moves)
        compared += ours.verdict in PROVED and theirs in PROVED
    assert compared >= 1


@pytest.mark.skipif(PEERS["pyksolve"] is not None, reason=str(PEERS["pyksolve"]))
def test_our_klondike_deal_reaches_the_peer_unchanged():
    from pyksolve import solver

    from companion.solver.peers import klondike_pysol, klondike_solver_deck
    pos = deal("klondike", 1)
    game = solver.Solitaire()
    assert game.load_solitaire(klondike_solver_deck(pos))
    game.reset_game()
    assert game.get_pysol() == klondike_pysol(pos)

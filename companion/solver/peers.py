"""Independent solvers, fed our deals: Klondike-Solver (PyPI ``pyksolve``) and Freecell Solver
(Debian ``libfreecell-solver0`` with PyPI ``freecell-solver``).

Test and benchmark extras only (``pip install -e '.[solvers]'``); nothing in the product
imports this module. Each function imports its peer inside, and :func:`available` says which
peers load here (or why not).

Verdict mapping. pyksolve's ``solve_fast`` is tried first (it finds wins quickly, but cannot
prove a loss), then ``solve_minimal``, which returns ``SolvedMinimal`` / ``SolvedMayNotBeMinimal``
(won), ``Impossible`` (lost: its whole search space was exhausted, under its own move pruning),
``CouldNotComplete`` (unknown). Freecell Solver returns 0 (solved), 1 (not solvable: the scan
exhausted), anything else (unknown).
"""

from __future__ import annotations

from typing import Any

from ..cards import CARDS, UNKNOWN
from ..rules.engine import Raw
from ..rules.position import Position
from .search import _chain

_RANK = "0A23456789TJQK"
_SUIT = "SHDC"  # our suit order: ♠ ♥ ♦ ♣


def _pysol_card(code: int) -> str:
    c = CARDS[code]
    return _RANK[c.rank] + _SUIT[c.suit]


def _fresh_klondike(pos: Position) -> tuple[list[int], int]:
    names = pos.variant.pile_names
    tab = [i for i, n in enumerate(names) if n[0] == "t"]
    s = names.index("s")
    if len(tab) != 7 or any(len(pos.piles[i]) != k + 1 for k, i in enumerate(tab)) or \
            len(pos.piles[s]) != 24 or any(UNKNOWN in p for p in pos.piles):
        raise ValueError("the peers take a fresh, seeded Klondike deal")
    return tab, s


def klondike_pysol(pos: Position) -> str:
    """A fresh Klondike deal in PySol's text: ``Talon:`` then the stock in the order it is
    turned, then one line per pile, bottom to top, face-down cards in ``<>`` (for reading)."""
    tab, s = _fresh_klondike(pos)
    lines = ["Talon: " + " ".join(_pysol_card(c) for c in reversed(pos.piles[s]))]
    for i in tab:
        p = pos.piles[i]
        lines.append(" ".join(f"<{_pysol_card(c)}>" if j < pos.down[i] else _pysol_card(c)
                              for j, c in enumerate(p)))
    return "\n".join(lines)


_KS_SUIT = {0: 4, 1: 3, 2: 2, 3: 1}  # ♠ ♥ ♦ ♣ → Klondike-Solver's digits (C1 D2 H3 S4)


def klondike_solver_deck(pos: Position) -> str:
    """A fresh Klondike deal in Klondike-Solver's own format: 52 cards of three digits (rank,
    two digits, then suit) in its dealing order: the tableau row by row (pile k's card at
    height j for j = 0..6, k = j..6), then the stock in the order it is turned."""
    tab, s = _fresh_klondike(pos)
    order = [pos.piles[tab[k]][j] for j in range(7) for k in range(j, 7)]
    order += list(reversed(pos.piles[s]))
    return "".join(f"{CARDS[c].rank:02d}{_KS_SUIT[CARDS[c].suit]}" for c in order)


def fcs_board(pos: Position) -> str:
    """Tableau piles, one line each, bottom to top, for Freecell Solver."""
    names = pos.variant.pile_names
    rows = []
    for i, n in enumerate(names):
        if n[0] == "t":
            rows.append(" ".join(_pysol_card(c) for c in pos.piles[i]))
    return "\n".join(rows) + "\n"


def available() -> dict[str, str | None]:
    """Peer name → None if it loads here, else the reason it does not."""
    out: dict[str, str | None] = {}
    try:
        import pyksolve.solver  # noqa: F401
        out["pyksolve"] = None
    except ImportError as exc:
        out["pyksolve"] = f"pyksolve is not installed ({exc}); pip install pyksolve==0.0.15"
    try:
        from freecell_solver import FreecellSolver
        FreecellSolver()
        out["freecell-solver"] = None
    except ImportError as exc:
        out["freecell-solver"] = (f"freecell-solver is not usable ({exc}); pip install "
                                  f"freecell-solver==0.6.0 and apt-get install "
                                  f"libfreecell-solver0")
    except OSError as exc:
        out["freecell-solver"] = (f"libfreecell-solver0 is missing ({exc}); apt-get install "
                                  f"libfreecell-solver0")
    return out


def pyksolve_solve(pos: Position, max_closed: int = 1_000_000) -> tuple[str, list[str]]:
    """(verdict, their move list) for a fresh Klondike deal of ours."""
    from pyksolve import solver
    game = solver.Solitaire()
    if not game.load_solitaire(klondike_solver_deck(pos)):
        raise ValueError("pyksolve refused the deal")
    game.draw_count = pos.engine.stock.draw
    game.reset_game()
    # Its fast (best-first) search finds wins; only the minimal one can prove a loss.
    r = game.solve_fast(max_closed_count=max_closed)
    if r.name not in ("SolvedMinimal", "SolvedMayNotBeMinimal"):
        game.reset_game()
        r = game.solve_minimal(max_closed)
    name = r.name
    if name in ("SolvedMinimal", "SolvedMayNotBeMinimal"):
        return "won", game.moves_made().split()
    if name == "Impossible":
        return "lost", []
    return "unknown", []


SINGLE_CARD_MOVES = "0AB"
"""Freecell Solver's moves (its ``--tests-order``) of one card at a time, in a game without
free cells: a top card to the foundations (0), to an empty pile (A), onto a card (B). Its
preset's moves are larger steps whose "could not solve" holds "within the limitations of the
specified moves' types" (its USAGE); with these, all moves are there, and a deal it exhausts
is proved lost, as ours are."""


def fcs_solve(pos: Position, iterations: int = 200_000, game: str = "streets_and_alleys",
              moves: str | None = None) -> str:
    """Freecell Solver's verdict on a deal of ours: its preset for ``game``, or with
    ``moves`` (a tests order, e.g. :data:`SINGLE_CARD_MOVES`) the preset's rules with those
    moves alone."""
    return _fcs(pos, iterations, game, moves)[0]


def _fcs(pos: Position, iterations: int, game: str,
         moves: str | None = None) -> tuple[str, Any]:
    from freecell_solver import FreecellSolver
    fc = FreecellSolver()
    fc.input_cmd_line(["--game", game] + (["--tests-order", moves] if moves else []))
    fc.limit_iterations(iterations)
    ret = fc.solve_board(fcs_board(pos))
    return {0: "won", 1: "lost"}.get(ret, "unknown"), fc


# Freecell Solver's move types (its fcs_move.h) met in a game without free cells.
_FCS_STACK_TO_STACK = 0
_FCS_STACK_TO_FOUNDATION = 4


def fcs_line(pos: Position, iterations: int = 200_000,
             game: str = "streets_and_alleys") -> tuple[str, list[Raw] | None]:
    """(Freecell Solver's verdict, its winning line as our engine's raw moves, played one by
    one from ``pos``; None where the verdict is not a win). Its moves of several cards become
    the single moves that make them through the empty piles (at most 2^e cards through e);
    a move of a lone card into an empty pile is left out (our engine does not offer it: it
    changes nothing but the piles' names). Raises ValueError naming the first move of theirs
    that our engine refuses: a rule the two solvers read differently."""
    verdict, fc = _fcs(pos, iterations, game)
    if verdict != "won":
        return verdict, None
    eng = pos.engine
    q = pos.copy()
    T = [i for i, n in enumerate(pos.variant.pile_names) if n[0] == "t"]
    stack = list(T)  # their stack k is our pile stack[k]
    line: list[Raw] = []
    k = 0
    while (m := fc.get_next_move()) is not None:
        k += 1
        kind, a, b, n = bytes(fc.ffi.buffer(m, 4))
        legal = q.raw_moves()
        if kind == _FCS_STACK_TO_FOUNDATION:
            steps = [x for x in legal if x[1] == stack[a] and x[2] == 1
                     and x[3] in eng.groups.foundation_set][:1]
        elif kind == _FCS_STACK_TO_STACK:
            i, j = stack[a], stack[b]
            if n == len(q.piles[i]) and not q.piles[j]:
                stack[a], stack[b] = j, i
                continue
            free = tuple(x for x in T if not q.piles[x] and x != j)
            steps = list(_chain(i, n, j, free)) if n <= 1 << len(free) else []
        else:
            steps = []
        for x in steps:
            if x not in q.raw_moves():
                steps = []
                break
            q.push_raw(x)
        if not steps:
            raise ValueError(f"Freecell Solver's move {k} (type {kind}, from {a} to {b}, "
                             f"{n} cards) has no legal counterpart here")
        line += steps
    return verdict, line

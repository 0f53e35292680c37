"""Helpers for the solver tests: hand-made positions and a naive exhaustive search (the oracle
for the solver's symmetries and automatic moves)."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.cards import CARDS, Card
from companion.rules import Position
from companion.solver import config


def made(variant: str, piles: dict, *, options: dict | None = None, seed=None,
         pass_no: int = 1, idle: bool = False) -> Position:
    """``piles``: name → "7h 6s" (bottom to top) or ("7h 6s", face_down)."""
    out = {}
    for name, spec in piles.items():
        text, down = spec if isinstance(spec, tuple) else (spec, 0)
        cards = [t if t == "??" else Card.parse(t).json() for t in text.split()]
        out[name] = {"cards": cards, "face_down": down}
    return Position.from_json({"variant": variant, "options": options or {}, "seed": seed,
                               "deal_version": 1, "piles": out,
                               "state": {"pass": pass_no, "idle": idle}})


def switched(monkeypatch, **switches) -> None:
    """Set the solver's switches (fields of :class:`~companion.solver.config.SearchConfig`)
    for one test: ``switched(monkeypatch, fast_line=False)``."""
    monkeypatch.setattr(config, "CONFIG", replace(config.CONFIG, **switches))


def naive(pos: Position, cap: int = 20_000) -> str | None:
    """'won' or 'lost' by plain exhaustive search over exact keys (no symmetry, no safe
    moves, no ordering); None when the space is larger than ``cap``."""
    q = pos.copy()
    seen = set()
    stack = [None]
    # iterative DFS: each frame is the moves still to try
    def over(p):
        if p.is_won():
            return "won"
        if p.is_blocked():
            return "lost"
        return None

    first = over(q)
    if first:
        return first
    seen.add(q.key())
    stack = [list(q.raw_moves())]
    while stack:
        if len(seen) > cap:
            return None
        if not stack[-1]:
            stack.pop()
            if stack:
                q.pop()
            continue
        m = stack[-1].pop()
        q.push_raw(m)
        o = over(q)
        if o == "won":
            return "won"
        k = q.key()
        if o == "lost" or k in seen:
            seen.add(k)
            q.pop()
            continue
        seen.add(k)
        stack.append(list(q.raw_moves()))
    return "lost"


def small_klondike(rng: random.Random, options: dict | None = None,
                   low: int = 8, stock: int = 7) -> Position:
    """A random late Klondike position: foundations partly built, the other cards spread over
    the tableau (some face down) and a short stock (at most ``stock`` cards)."""
    heights = [rng.randint(low, 13) for _ in range(4)]
    piles: dict = {}
    rest = []
    for s in range(4):
        piles[f"f{s + 1}"] = " ".join(CARDS[s * 13 + r].text(False) for r in range(heights[s]))
        rest += [s * 13 + r for r in range(heights[s], 13)]
    rng.shuffle(rest)
    stock_n = rng.randint(0, min(stock, len(rest)))
    talon, rest = rest[:stock_n], rest[stock_n:]
    cols = [[] for _ in range(7)]
    for c in rest:
        cols[rng.randrange(7)].append(c)
    for k, col in enumerate(cols):
        if col:
            down = rng.randint(0, len(col) - 1)
            piles[f"t{k + 1}"] = (" ".join(CARDS[c].text(False) for c in col), down)
    if talon:
        piles["s"] = (" ".join(CARDS[c].text(False) for c in talon), len(talon))
    return made("klondike", piles, options=options)


def small_golf(rng: random.Random, most: int = 2, stock: tuple[int, int] = (2, 8),
               buried: bool = False, options: dict | None = None) -> Position:
    """A random small Golf position: up to ``most`` cards a column, a short stock, and one
    waste card; with ``buried``, every other card lies in the waste already (a late game,
    where cards left on the tableau often have nothing left to be played onto)."""
    cards = list(range(52))
    rng.shuffle(cards)
    piles: dict = {}
    k = 0
    for t in range(7):
        n = rng.randint(0, most)
        if n:
            piles[f"t{t + 1}"] = " ".join(CARDS[c].text(False) for c in cards[k:k + n])
        k += n
    ns = rng.randint(*stock)
    piles["s"] = (" ".join(CARDS[c].text(False) for c in cards[k:k + ns]), ns)
    waste = cards[k + ns:] if buried else cards[k + ns:k + ns + 1]
    piles["w"] = " ".join(CARDS[c].text(False) for c in waste)
    return made("golf", piles, options=options)


def small_streets(rng: random.Random, low: int = 9, nrows=(6, 8)) -> Position:
    """A random late Streets and Alleys position: foundations partly built, the other cards
    spread over the eight rows, some rows empty (spaces)."""
    heights = [rng.randint(low, 13) for _ in range(4)]
    piles: dict = {}
    rest = []
    for s in range(4):
        if heights[s]:
            piles[f"f{s + 1}"] = " ".join(CARDS[s * 13 + r].text(False)
                                          for r in range(heights[s]))
        rest += [s * 13 + r for r in range(heights[s], 13)]
    rng.shuffle(rest)
    rows = rng.sample(range(8), rng.randint(nrows[0], nrows[1]))
    cols: dict[int, list[int]] = {r: [] for r in rows}
    for c in rest:
        cols[rng.choice(rows)].append(c)
    for r, col in cols.items():
        if col:
            piles[f"t{r + 1}"] = " ".join(CARDS[c].text(False) for c in col)
    return made("streets-and-alleys", piles)


def replays_to_a_win(pos, moves) -> bool:
    """Whether ``moves`` (texts) played one by one from ``pos`` win (play raises on an
    illegal move)."""
    q = pos.copy()
    for m in moves:
        q.play(m)
    return q.is_won()


def agrees_with_naive(pos, search, cap: int) -> str | None:
    """The plain exhaustive search's verdict on ``pos`` (None where its space is larger than
    ``cap``), after checking that the search generator ``search(pos, False, None)`` gives
    the same one, and that its won line replays move by move."""
    truth = naive(pos, cap=cap)
    if truth is None:
        return None
    r = run_out(search(pos, False, None))
    assert r.verdict == truth, pos.text(False)
    if truth == "won":
        assert replays_to_a_win(pos, r.moves)
    return truth


def run_out(gen):
    """Run a search generator to its end; its result."""
    try:
        while True:
            next(gen)
    except StopIteration as done:
        return done.value


def pyramid_removals(pos, rng: random.Random, moves: int, share: float):
    """``pos`` after up to ``moves`` random legal moves, removals with chance ``share`` where
    there are any (else any move, the stock turned now and then), as a fresh position; None
    where it is idle (a pass with nothing removed since the last turn-over) or over."""
    from companion.rules.engine import STOCK
    for _ in range(moves):
        ms = pos.raw_moves()
        if not ms or pos.is_won():
            break
        removing = [m for m in ms if m[0] != STOCK]
        pos.push_raw(rng.choice(removing if removing and rng.random() < share else ms))
    q = Position.from_json(pos.to_json())
    return None if q.idle or q.is_won() or not q.raw_moves() else q

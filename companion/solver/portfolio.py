"""The portfolio scheduler: :func:`solve` chooses the searches for a position (the narrow looks,
the lean look, the whole search or its fast forms, the shaken restarts) and :func:`_drive` runs
them interleaved, a slice of positions each in turn within the budgets, giving the first
verdict that settles the deal: a win from any of them, a loss only from a search of the whole
space."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..rules.engine import Raw
from ..rules.position import Position
from . import config
from .codes import has_unknown_cards
from .engine_search import _steps
from .fast_accordion import _exhaust_line
from .fast_golf import _exhaust_sink
from .fast_open import _exhaust
from .fast_pyramid import _exhaust_pairs, _exhaust_pyramid
from .fast_talon import _exhaust_talon
from .knowledge import knowledge
from .lean import _lean
from .results import LOST, UNKNOWN_VERDICT, WON, Limits, Search, SolverError, SolveResult
from .stuck import stuck_reason


def solve(pos: Position, limits: Limits | None = None, *, prefer: Sequence[Raw] | None = None,
          stop: Callable[[], bool] | None = None, short: bool = True,
          strategy: str = "depth") -> SolveResult:
    """Search ``pos`` (left unchanged) for a win within ``limits``.

    ``prefer``: raw moves to try first at the root, in order (the hints' vote). ``stop``: a
    callable returning True to abandon the search (a shared deadline). ``short``: cut the
    detours out of a winning line (:func:`shorten`). ``strategy``: ``best`` expands the most
    advanced position first (cards on the foundations, face-down cards left), ``beam``
    the same weighing the moves of the last step and the digging left, ``dive`` weighing
    every move from the start; ``depth`` is plain depth-first. Each searches every
    reachable position before saying ``lost``; a position with cards that can never move
    (:meth:`Knowledge.stuck`) is ``lost`` before any search, its reason naming them.
    """
    limits = limits or Limits()
    if has_unknown_cards(pos):
        raise SolverError("the position has cards not seen yet (??): the solver needs every "
                          "card; use `companion hint`, which samples the unseen cards")
    kn = knowledge(pos.variant)
    held = kn.stuck(pos)
    if held:
        return SolveResult(LOST, reason=stuck_reason(pos, held), stuck=held)
    # Where moves can be narrowed, a portfolio of searches runs interleaved, a slice each in
    # turn: depth-first, best-first, beam and dive looks among the likelier moves (no run is
    # split unless that frees a card for the foundations, no card comes back from them), and the
    # whole search. The narrow looks find most wins quickly, and each finds wins the others
    # need a hundred times longer for (and where its rules hold, the lean look: see
    # :data:`LEAN_WIDTH`); a win any of them finds is a win. Their "lost"
    # proves nothing (that look simply stops); only a search of the whole space proves a
    # loss. In an open game (nothing face down) where foundations build up in suit, a second
    # whole search runs beside the first, best-first by the cards' order (``order``), and
    # skips what the first has met (see :func:`_drive`).
    # There the narrow looks of other games are left out: a card lying on a card it could be
    # built on there lies on it by the deal's chance, and moving it is no run split.
    # Where runs move as units through the spaces (supermoves, see
    # ``Knowledge.supermoves``), a narrow depth-first look that moves them so, and splits
    # no run, runs beside the two (restarted as the other narrow looks are): it wins deals
    # soon that neither whole search wins. Last, the whole
    # depth-first search again, restarted with its move order shaken on Luby's budgets
    # (``shaken``, see :data:`OPEN_SHARES`): the deals it wins soon under one order it may
    # not win for minutes under another; beside it the same restarts of the fast whole search
    # (``quick``, see :data:`OPEN_SHARES`).
    cfg = config.CONFIG
    plan = [(strategy, False)]
    if kn.dig and strategy != "order" and not any(pos.down[i] for i in kn.T):
        plan.insert(0, ("order", False))
        if kn.supermoves_ok:
            plan.insert(1, ("depth", True))
        plan.append(("shaken", False))
        if cfg.fast_shaken and kn.exhaustible(pos):
            plan.append(("quick", False))   # (the shaken look on :func:`_exhaust`)
    elif kn.static and strategy == "depth":
        # Golf-like games (a waste nothing leaves, a tableau to clear): best-first, fewest
        # cards left first (it won more than depth-first). Where it may, the whole
        # search runs on numbers, not positions (:func:`_exhaust_sink`): it settles the
        # deals that one leaves unknown.
        memory = limits.memory_mb * 2**20 if limits.memory_mb is not None else None
        plan = [("sink" if cfg.fast_sink and kn.sink_exhaustible(pos, memory) else "best",
                 False)]
    elif strategy == "depth" and cfg.fast_line and kn.line_exhaustible(pos):
        plan = [("line", False)]  # (Accordion: see :func:`_exhaust_line`)
    elif strategy == "depth" and cfg.fast_pairs and kn.pairs_exhaustible(pos):
        plan = [("pairs", False)]  # (Pyramid: see :func:`_exhaust_pairs`)
    elif strategy == "depth" and cfg.fast_pyramid and kn.pyramid_talon_exhaustible(pos):
        plan = [("pyramid", False)]  # (Pyramid, passes limited: :func:`_exhaust_pyramid`)
    elif kn.narrowable:
        plan = [(how, True) for how in NARROW_LOOKS] + plan
        if kn.lean:
            plan.insert(LEAN_AT, ("lean", True))

    return _drive(pos, limits, stop, short, prefer, plan)


# The narrow looks of the portfolio (see :func:`solve`).
NARROW_LOOKS = ("depth", "best", "beam", "dive")
# The narrow looks run again and again with their move order shaken a little, each run
# stopped after a budget of positions growing along Luby's sequence (RESTART_BASE times 1, 1,
# 2, 1, 1, 2, 4, ...): a search stuck below a bad early move gets a fresh start.
RESTARTED = frozenset({"depth", "best"})
RESTART_BASE = 2000


# The narrow looks' and the whole search's slices a round, where they run side by side (see
# :func:`_drive`). Their positions do not cost the same (the beam and the dive play and settle
# every child to weigh it), so the shares are fitted on each search's time to a verdict.
NARROW_SHARES = {"depth": 2, "best": 2, "beam": 1, "dive": 1, "prover": 2, "lean": 4}


def _drive(pos: Position, limits: Limits, stop: Callable[[], bool] | None, short: bool,
           prefer: Sequence[Raw] | None, plan: list[tuple[str, bool]]) -> SolveResult:
    """Run the searches of ``plan`` ((strategy, narrow) each) interleaved, within the
    budgets, and give the first verdict that settles the deal: a win from any of them, a
    loss only from a search of the whole space."""
    start = time.perf_counter()
    deadline = start + limits.seconds if limits.seconds is not None else None
    max_states = None  # for each search
    if limits.memory_mb is not None:
        max_states = int(limits.memory_mb * 2**20 / (_BYTES_PER_STATE * len(plan)))
    # A best-first search of the whole space beside the depth-first one (``order``) skips
    # the positions the depth-first search has met: those it has searched already, or is
    # searching, and it will not have to search them twice. Only the depth-first search's
    # "lost" is then a proof (the other's ran out only of positions the first had not met),
    # and the shaken look's (a restart of it that ended within its budget searched the whole
    # space on its own; it shares no positions with the others, so it is not counted here).
    whole = [not narrow and how not in ("shaken", "quick") for how, narrow in plan]
    prover = max(i for i, w in enumerate(whole) if w) if any(whole) else -1
    # The positions on the depth-first search's current line: met, but not searched through
    # yet; the best-first search skips only the others (searched through by the first), so
    # a line the first is still on does not block it.
    proof_line: set[bytes] | None = set() if sum(whole) > 1 else None

    open_game = ("order", False) in plan and len(plan) > 1   # see :func:`solve`
    fast_prover = open_game and knowledge(pos.variant).exhaustible(pos)
    # (the search of the whole space alone: no other whole search shares its positions)
    on_bytes = knowledge(pos.variant).talon_exhaustible(pos)  # (Klondike's searches on bytes)
    fast_talon = sum(whole) == 1 and on_bytes
    setup = _Setup(pos=pos, short=short, prefer=prefer, max_states=max_states, prover=prover,
                   proof_line=proof_line, open_game=open_game, fast_prover=fast_prover,
                   fast_talon=fast_talon)

    runs = [_launch(setup, i, how, narrow) for i, (how, narrow) in enumerate(plan)]
    seen = [(0, 0)] * len(runs)
    # In an open game, the searches that settle most deals soon (the narrow look and the
    # shaken one) run alone, a slice each in turn, until they have expanded ORDER_AFTER
    # positions; the whole searches join then (the best-first one costs the most per
    # position; its line kept, the depth-first search ahead of it does not block it: see
    # ``proof_line``), and each search gets its share of slices (OPEN_SHARES).
    roles = [_role(how, narrow, i == prover) for i, (how, narrow) in enumerate(plan)]
    waiting = [i for i, r in enumerate(roles)
               if open_game and ORDER_AFTER and r in ("order", "prover", "quick")]
    # The lean look joins once the others have expanded LEAN_AFTER positions: it costs the
    # most a position, and most deals are settled before that (see LEAN_AFTER).
    late = [i for i, (how, _) in enumerate(plan) if how == "lean" and LEAN_AFTER]
    active = [i for i in range(len(runs)) if i not in waiting and i not in late]
    if not active:  # nothing runs before them
        active, waiting, late = waiting + late, [], []
    shares = _first_shares(plan, roles, setup, on_bytes)
    # Where both Klondike searches on bytes run, the shares from LATE_AFTER positions on
    later = None
    if LATE_AFTER and fast_talon and any(how == "lean" for how, _ in plan):
        later = [LATE_SHARES["prover" if r == "prover" else how]
                 for r, (how, _) in zip(roles, plan, strict=True)]
    spent_memory = False

    def finish(r: SolveResult, reason: str | None = None) -> SolveResult:
        return _finish(r, reason, seen, len(runs), start)

    while active:
        for i in list(active):
            try:
                for _ in range(shares[i]):
                    seen[i] = next(runs[i])
            except StopIteration as done:
                r = done.value
                seen[i] = (r.nodes, r.states)
                if r.verdict == WON or (r.verdict == LOST
                                        and roles[i] in ("prover", "shaken", "quick")):
                    for j in active:
                        if j != i:
                            runs[j].close()
                    return finish(r, r.reason)
                if r.verdict == UNKNOWN_VERDICT:  # its share of the memory is spent
                    spent_memory = True
                active.remove(i)
        nodes = sum(n for n, _ in seen)
        if late and (nodes >= LEAN_AFTER or not active):
            active += late
            late = []
        if later and nodes >= LATE_AFTER:
            shares, later = later, None
        if waiting and (nodes >= ORDER_AFTER or not active):
            active += waiting
            waiting = []
            shares = [OPEN_SHARES.get(r, 1) for r in roles]
            if fast_prover:
                shares[prover] = EXHAUST_SHARE
        if not active:
            break
        why = _budget_spent(limits, nodes, deadline, stop)
        if why:
            for j in active:
                runs[j].close()
            return finish(SolveResult(UNKNOWN_VERDICT), why)
    why = (f"memory budget of {limits.memory_mb:g} MB spent" if spent_memory
           else "the searches stopped without a verdict")
    return finish(SolveResult(UNKNOWN_VERDICT), why)


@dataclass
class _Setup:
    """What :func:`_launch` starts each search of a portfolio with."""

    pos: Position
    short: bool
    prefer: Sequence[Raw] | None
    max_states: int | None
    prover: int
    """The index in the plan of the whole search whose "lost" is a proof (-1: none)."""
    proof_line: set[bytes] | None
    open_game: bool
    fast_prover: bool
    fast_talon: bool
    proof_set: set[bytes] = field(default_factory=set)
    """The positions the prover has met, which the other whole search skips."""


def _launch(s: _Setup, i: int, how: str, narrow: bool) -> Search:
    """The search of the plan's ``i``-th entry (``how``, ``narrow``), not started."""
    pos, short, max_states, prefer = s.pos, s.short, s.max_states, s.prefer
    if how == "sink":
        return _exhaust_sink(pos, short, max_states, prefer)
    if how == "line":
        return _exhaust_line(pos, short, max_states, prefer)
    if how == "pairs":
        return _exhaust_pairs(pos, short, max_states, prefer)
    if how == "pyramid":
        return _exhaust_pyramid(pos, short, max_states, prefer)
    if how == "shaken":
        return _restarting(pos, prefer, short, "depth", False, max_states, True)
    if how == "quick":
        return _restarting(pos, prefer, short, "depth", False, max_states, True, fast=True)
    if narrow:
        if how == "lean":
            return _lean(pos, short, max_states)
        if how in RESTARTED:
            return _restarting(pos, prefer, short, how, narrow, max_states)
        return _steps(pos, prefer, short, how, narrow, max_states)
    if i == s.prover and s.fast_prover:
        return _exhaust(pos, short, max_states, visited=s.proof_set, line=s.proof_line)
    if i == s.prover and s.fast_talon:
        return _exhaust_talon(pos, short, max_states, prefer)
    if i == s.prover:
        # An open game's prover has its move order shaken as the shaken look's first
        # run has it (the same seed): it goes on where that run's budget stopped it.
        return _steps(pos, prefer, short, how, narrow, max_states, visited=s.proof_set,
                      line=s.proof_line, jitter=random.Random(1) if s.open_game else None)
    return _steps(pos, prefer, short, how, narrow, max_states, skip=s.proof_set,
                  line=s.proof_line)


def _first_shares(plan: list[tuple[str, bool]], roles: list[str], s: _Setup,
                  on_bytes: bool) -> list[int]:
    """The slices a round each search of ``plan`` gets from the start."""
    shares = [FAST_SHARES.get(how, 1) for how, _ in plan]
    if not s.open_game and len(plan) > 1:  # the narrow looks and the whole search
        shares = [NARROW_SHARES["prover" if r == "prover" else how]
                  for r, (how, _) in zip(roles, plan, strict=True)]
        if s.fast_talon:
            shares[s.prover] = TALON_SHARE
        if on_bytes:  # (the lean look on bytes)
            for i, (how, _) in enumerate(plan):
                if how == "lean":
                    shares[i] = LEAN_BYTES_SHARE
    return shares


def _budget_spent(limits: Limits, nodes: int, deadline: float | None,
                  stop: Callable[[], bool] | None) -> str | None:
    """Which budget is spent (the node budget, the time budget, or ``stop``), if one is."""
    why = None
    if limits.nodes is not None and nodes >= limits.nodes:
        why = f"node budget of {limits.nodes} spent"
    elif deadline is not None and time.perf_counter() > deadline:
        why = f"time budget of {limits.seconds:g} s spent"
    elif stop is not None and stop():
        why = "stopped"
    return why


def _finish(r: SolveResult, reason: str | None, seen: list[tuple[int, int]], searches: int,
            start: float) -> SolveResult:
    """``r`` with the positions all the searches expanded and stored, and the time taken."""
    r.nodes = sum(n for n, _ in seen)
    r.states = sum(k for _, k in seen)
    r.seconds = time.perf_counter() - start
    if reason:
        r.reason = reason
    if r.verdict == WON and searches > 1 and (r.reason or "").startswith("won after"):
        # (the search that won counts its own positions; ``nodes`` counts them all)
        r.reason = f"won after searching {r.nodes} positions, all the searches together"
    return r


# The best-first whole search of an open game joins the others once they have expanded
# ORDER_AFTER positions (see :func:`_drive`): the easy deals are settled sooner without it.
ORDER_AFTER = 2000

# The whole searches of an open game (the depth-first prover and the best-first ``order``)
# join the narrow look and the shaken one (a slice each a round till then) once ORDER_AFTER
# positions are expanded (see :func:`_drive`); from then on each gets OPEN_SHARES slices a
# round. A depth-first search's time to a win is heavy-tailed in its move order, so the
# restarts with it shaken (``shaken``, and ``quick`` on :func:`_exhaust`) get most of them.
OPEN_SHARES = {"narrow": 2, "prover": 7, "order": 1, "shaken": 10, "quick": 20}

# Where the tableau alone names the position and the moves are single cards (Streets and
# Alleys; see ``Knowledge.exhaustible``), the prover is :func:`_exhaust`, much cheaper a
# position than :func:`_steps`, with EXHAUST_SHARE slices a round in place of the prover's 7:
# about the same share of the time.
EXHAUST_SHARE = 28

# Where a stock is dealt to a waste (Klondike; see ``Knowledge.talon_exhaustible``), the
# prover is :func:`_exhaust_talon`, with TALON_SHARE slices a round in place of the prover's
# NARROW_SHARES: a slice is a number of positions, and its positions cost the least.
TALON_SHARE = 12

# Slices a round the driver gives the searches that run alone (Golf's, Accordion's and
# Pyramid's): the budgets are checked every 1,024 positions, or 8 rounds of two slices
# (Accordion).
FAST_SHARES = {"sink": 16, "line": 8, "pairs": 16, "pyramid": 16}

# The lean look (see :mod:`.lean`) in the portfolio:
LEAN_AT = 4  # its place in the portfolio's plan (the first slices of a round go first)
# The positions the other searches expand before the lean look joins them: a hint's samples
# are mostly settled within them, and the lean look's share would only slow those down.
LEAN_AFTER = 2_000
# Where it plays on bytes (:func:`_lean_bytes`, about twice as fast a position), its slices a
# round in place of NARROW_SHARES'.
LEAN_BYTES_SHARE = 24
# Where Klondike's whole search and lean look both run on bytes, the narrow looks win most
# of the deals they win within the first positions; after LATE_AFTER positions their slices
# go to the lean look and the whole search (LATE_SHARES, slices a round).
LATE_AFTER = 20_000
LATE_SHARES = {"depth": 0, "best": 0, "beam": 0, "dive": 0, "prover": 6, "lean": 48}


# About how many bytes one stored position takes (its key, and the set's slot).
_BYTES_PER_STATE = 150


def _role(how: str, narrow: bool, prover: bool) -> str:
    """A search's part in a portfolio (the key of :data:`OPEN_SHARES`)."""
    if narrow:
        return "narrow"
    return "prover" if prover else how


def _search(pos: Position, limits: Limits, prefer: Sequence[Raw] | None,
            stop: Callable[[], bool] | None, short: bool, strategy: str,
            narrow: bool) -> SolveResult:
    """One search alone (the benchmarks' and tests' view of a single strategy)."""
    return _drive(pos, limits, stop, short, prefer, [(strategy, narrow)])


def _luby(i: int) -> int:
    """The i-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1


def _restarting(pos: Position, prefer: Sequence[Raw] | None, short: bool, strategy: str,
                narrow: bool, max_states: int | None, shake_first: bool = False,
                fast: bool = False) -> Search:
    """A look run again and again with its move order shaken a little (the first run too
    with ``shake_first``), each run stopped after a budget of positions that grows along
    Luby's sequence. A run that ends within its budget ends the look: with a win, or, when
    the look is not narrow, with a proved loss (that run searched the whole space). With
    ``fast``, the runs are of :func:`_exhaust` (the whole search, its piles shaken)."""
    total, i = 0, 0
    while True:
        i += 1
        budget = RESTART_BASE * _luby(i)
        jitter = random.Random(i) if i > 1 or shake_first else None
        run = (_exhaust(pos, short, max_states, jitter=jitter) if fast else
               _steps(pos, prefer, short, strategy, narrow, max_states, jitter=jitter))
        n = 0
        try:
            while n < budget:
                n, k = next(run)
                yield total + n, k
            run.close()
        except StopIteration as done:
            r: SolveResult = done.value
            r.nodes += total
            return r
        total += n

"""The general search through the engine (:func:`_steps`): depth-first, best-first, beam or
dive over the rules engine's positions and raw moves, the one search every variant has. Around
the engine's moves: the canonical keys, the safe moves, the talon moves (the stock turned only
on the way to a move that uses the stock or the waste, a whole cycle scanned at once:
:func:`_talon_states`), the move ordering, and where the rules allow, composite moves that dig
out a card the foundations want and supermoves."""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Collection, Iterable, Sequence, Set
from typing import Any

from ..cards import UNKNOWN
from ..rules.engine import MOVE, STOCK, Raw, WasteMover
from ..rules.position import Position
from . import config
from .knowledge import knowledge
from .lines import JUMP, Child, Node, Talon, _first, _line, shorten
from .ordering import _SCORE, _SCORE_AND_TURNS
from .results import LOST, SLICE, UNKNOWN_VERDICT, WON, Search, SolveResult

# A child scored for the order of the search: (minus its score, the stock's turns before it,
# what it plays).
Scored = tuple[int, int, Child]

LATER = (None,)  # a stored position's legal moves, not generated yet (see ``settle``)


def _talon_states(q: Position, stock: Raw, root_pass: int | None = None) -> list[Talon]:
    """The talon's states (stock, waste, the stock's face-down count, pass, idle) after each
    turn (``stock``, the stock action) of one cycle from ``q``, left unchanged: up to the end
    of the stock's use, or back to where it started. The end of a pass that changed nothing
    (``Position.pass_was_idle``) is left out where its pass began after ``root_pass`` (by
    default, always): its piles are those met at the redeal that began it, in the search."""
    eng = q.engine
    S, W = eng.groups.stock, eng.groups.waste
    at = (q.piles[S], q.piles[W], q.down[S])
    r = q.copy()
    out: list[Talon] = []
    while eng.can_stock(r):
        r.push_raw(stock)
        if r.pass_was_idle() and (root_pass is None or r.pass_no > root_pass):
            break
        state = (r.piles[S], r.piles[W], r.down[S], r.pass_no, r.idle)
        out.append(state)
        # The talon's state counts its face-down cards too: Pyramid's first `s` only
        # turns the top stock card up in place, leaving the stock and waste as they were.
        if state[:3] == at:
            break
    return out


# The looks restarted with their move order shaken (see :data:`~.portfolio.RESTARTED`) shake
# each move's score by up to JITTER.
JITTER = 15  # the most a move's score is shaken by (a foundation move scores 100)

# The beam's width, and the weight of the moves that reached a position beside its progress
# (chosen on Klondike deals: the beam alone won more than the best-first look).
BEAM_WIDTH = 3
BEAM_G = 0.5
# The beam's weight is of the moves of the step that reached a position (a move, the safe
# moves after it, the stock turns before a talon move), not of its depth, which the beam was
# meant to weigh. The dive is that beam: its width, its measure, DIVE_G times every move
# played from the start; it wins other deals than the beam.
DIVE_G = 0.5

# A supermove's score: its unit move's plus SUPER_BONUS (see ``SearchConfig.supermoves``).
SUPER_BONUS = 25


def _steps(pos: Position, prefer: Sequence[Raw] | None, short: bool, strategy: str,
           narrow: bool, max_states: int | None, visited: set[bytes] | None = None,
           skip: Set[bytes] | None = None, jitter: random.Random | None = None,
           line: set[bytes] | None = None) -> Search:
    """One search, as a generator: it yields (positions expanded, positions stored) every
    few hundred positions, so that a driver can interleave searches and keep the budgets,
    and returns its :class:`SolveResult` (``unknown`` only when ``max_states`` is reached).
    ``visited``: the set of positions met (a set another search reads); ``skip``: the
    positions another search has met, which this one skips, and then its ``lost`` only
    says it has nothing left (see :func:`_drive`). ``line``: with ``visited``, the set this
    depth-first search keeps of the positions on its current line; with ``skip``, the
    positions of ``skip`` in it are not skipped."""
    kn = knowledge(pos.variant)
    work = pos.copy()
    start = time.perf_counter()
    if visited is None:
        visited = set()
    if skip is None:
        skip = frozenset()
    nodes = 0
    eng = pos.engine

    def result(verdict: str, reason: str, line: Sequence[Raw] = ()) -> SolveResult:
        if line and short:
            line = shorten(pos, list(line))
        return SolveResult(verdict, [eng.text(m) for m in line], nodes, len(visited),
                           time.perf_counter() - start, reason, list(line))

    stranded = kn.strander(pos)
    won, may_block = eng.won, eng.may_block  # (work.is_won(), one call less)
    root_pass = pos.pass_no  # (a pass begun after it began in the search: see settle)

    gen_up = eng.gen_up
    up_first = kn.safe_up and config.CONFIG.settle_up_first \
        and pos.variant.tableau is not None \
        and pos.variant.tableau.move != "single"

    def settle(root: bool = False, defer: bool = False) -> tuple[int, Sequence[Any] | None]:
        """Play safe moves; return (pushes, legal moves), moves None when the game is over.
        With ``defer``, only the moves up to the foundations are generated (all the safe
        moves need), and the legal moves are returned as LATER: left for when the position
        is expanded, which most positions a best-first search stores never are."""
        k = 0
        while True:
            if won(work):
                return k, None
            # A whole pass that changed nothing: where the search made the redeal that began
            # it, the piles are those met there, whose moves are searched there; so the
            # search goes no further (nor where no move is left: ``Position.is_blocked``).
            if may_block and work.pass_was_idle() and (work.pass_no > root_pass
                                                       or work.is_blocked()):
                return k, []
            # (where the safe moves are moves up, the moves up alone are generated until
            # none is safe; then, unless deferred, all the legal moves, once)
            ms = gen_up(work) if defer or up_first else eng.gen(work)
            sm = kn.safe_move(work, ms)
            if sm is None:
                if stranded is not None and stranded(work, root):
                    return k, []
                if defer:
                    return k, LATER
                return k, eng.gen(work) if up_first else ms
            work.push_raw(sm)
            k += 1

    base = len(work.history)
    k0, ms = settle(root=True)
    if ms is None:
        return result(WON, "won", work.history[base:])
    S, W = kn.talon
    dom: dict[bytes, int] | None = {} if kn.dominance else None

    def fresh(key: bytes, q: Position) -> bool:
        """Whether ``q`` (whose key is ``key``) is new to this search; if so it is noted.
        A class of a dominance (see ``Knowledge.dominance``) is new only with a pointer
        less than any met in it before."""
        if key in skip and (line is None or key not in line):
            return False
        if dom is not None and key[-1] == 2:  # a class: the pointer is the waste's size
            p = len(q.piles[W])
            old = dom.get(key)
            if old is not None and old <= p:
                return False
            dom[key] = p
            visited.add(key)
            return True
        if key in visited:
            return False
        visited.add(key)
        return True

    key = kn.key_for(pos)
    fresh(key(work), work)

    won_line: list[Raw] | None = None
    T = kn.T

    def probe_of(p: Position) -> Position:
        q = p.copy()
        piles, down = q.piles, q.down
        for i in T:
            if len(piles[i]) > 1:
                down[i] = 1 if down[i] >= len(piles[i]) else 0  # the top card's face
                piles[i] = piles[i][-1:]
        return q

    others = tuple(i for i in range(len(work.piles)) if i not in kn.Tset)
    scans: dict[tuple[object, ...], list[Scored]] = {}

    cycles: dict[Talon, tuple[list[Talon], dict[int, list[int]], int]] = {}
    cache_cycles = not kn.keep_piles_filled  # else turning the stock depends on the tableau

    def talon_cycle(scan: Position,
                    stock: Raw) -> tuple[list[Talon], dict[int, list[int]], int]:
        """The talon's states (stock, waste, its face-down count, pass, idle) after each
        turn of one cycle from ``scan`` (left unchanged), up to the end of the stock's use
        or back to where it started; with them, where each card tops the waste (card ->
        the turns, from 1, after which it does) and the bit mask of those cards. Turning
        the stock touches only the talon, so the cycle is a function of the talon alone,
        and is kept for every talon met."""
        start = (scan.piles[S], scan.piles[W], scan.down[S], scan.pass_no, scan.idle)
        got = cycles.get(start) if cache_cycles else None
        if got is not None:
            return got
        where: dict[int, list[int]] = {}
        steps, mask = _talon_states(scan, stock, root_pass), 0
        for k, state in enumerate(steps, 1):
            w = state[1]
            if w and w[-1] != UNKNOWN:
                where.setdefault(w[-1], []).append(k)
                mask |= 1 << w[-1]
        got = (steps, where, mask)
        if cache_cycles:
            if len(cycles) > 20_000:  # a bound on the memory it takes
                cycles.clear()
            cycles[start] = got
        return got

    def scan_talon(scan: Position, stock: Raw,
                   gen: WasteMover | Callable[[Position], list[Raw]]) -> list[Scored]:
        """Turn the stock of ``scan`` through one cycle (its talon is put back at the end):
        the moves that use the stock or the waste on the way (``gen``: the engine's talon
        moves, or its waste mover for ``scan``), scored, each with the turns before it."""
        out: list[Scored] = []
        piles, down = scan.piles, scan.down
        was = (piles[S], piles[W], down[S], scan.pass_no, scan.idle)
        steps, where, mask = talon_cycle(scan, stock)
        live = getattr(gen, "live", None)
        if live is not None:
            # The waste mover's moves look at the waste's top card alone, and ``live``
            # names the cards that have some: only the turns that show one are looked at.
            hits, turns = live & mask, []
            while hits:
                b = hits & -hits
                hits ^= b
                turns += where[b.bit_length() - 1]
            turns.sort()
            of_top: Callable[[int], list[Raw]] = gen.of_top  # type: ignore[union-attr, assignment]
            visits: Iterable[tuple[int, Talon]] = [(k, steps[k - 1]) for k in turns]
        else:
            visits = enumerate(steps, 1)
        for k, state in visits:
            piles[S], piles[W], down[S], scan.pass_no, scan.idle = state
            if live is not None:
                ms = of_top(state[1][-1])
            else:
                ms = [m for m in gen(scan) if m[0] != STOCK]  # only the stock and waste moves
            if ms:
                jump = (JUMP, k, stock, state)
                kn.rank(scan, [(m, (jump, m)) for m in ms], frozenset(), False, out, turns=k)
        piles[S], piles[W], down[S], scan.pass_no, scan.idle = was
        return out

    Tset = kn.Tset
    spaces_alike = kn.sort_tableau
    rank = kn.rank

    # The best-first whole search of an open game (``order``) also offers composite children
    # that dig out a card the foundations want (``dig_children``): it resolves more, sooner.
    digs = strategy == "order"
    # The whole depth-first search offers supermoves too, not only the narrow look: they win
    # other deals.
    supers = config.CONFIG.supermoves and strategy == "depth" and kn.supermoves_ok and kn.dig

    def dig_children(ms: Sequence[Raw], need: Collection[int]) -> list[Scored]:
        """Composite children: the cards above a card the foundations want (at most three)
        moved off one by one, each onto the first tableau pile that takes it, then that card
        sent up: one step where single moves need several positions."""
        out: list[Scored] = []
        gen_from = work.engine.gen_from  # the moves off pile i, all that is looked at
        for i in T:
            p = work.piles[i]   # (as it is here: a push and its pop leave a new list)
            # the shallowest wanted card of the pile, under d cards
            d = 0
            for x in range(1, min(4, len(p) - work.down[i])):
                if p[-1 - x] in need:
                    d = x
                    break
            if not d:
                continue
            seq: list[Raw] = []
            moves = ms
            for _ in range(d):
                m = next((x for x in moves if x[0] == MOVE and x[1] == i and x[2] == 1
                          and x[3] in Tset), None)
                if m is None:
                    break
                work.push_raw(m)
                seq.append(m)
                moves = gen_from(work, i)
            else:
                m = next((x for x in moves if x[0] == MOVE and x[1] == i
                          and x[3] in kn.Fset), None)
                if m is not None:
                    out.append((-(100 + 10 * d), 0, (*seq, m)))
            for _ in seq:
                work.pop()
        return out

    def children(ms: Sequence[Raw], root: bool = False,
                 back: Raw | None = None) -> list[Child]:
        """The moves to try here, best first, each a sequence of raw moves: a move, or the
        stock turned k times and then a move that uses the stock or the waste. ``back``: a
        move that leads straight back to a position already searched (the reverse of the
        move that led here), left out; so is a move into a second space when the spaces
        are interchangeable (it leads to a mirror of the move into the first)."""
        nonlocal won_line
        scored: list[Scored] = []
        plain: list[tuple[Raw, Child]] = []
        stock: Raw | None = None
        need = kn.needed(work) if kn.f_accepts else frozenset()
        piles = work.piles
        space = None
        for m in ms:
            if m[0] == STOCK:
                stock = m
                continue
            if m == back:
                continue
            if spaces_alike and m[0] == MOVE and m[3] in Tset and not piles[m[3]]:
                if space is None:
                    space = m[3]
                elif m[3] != space:
                    continue
            plain.append((m, (m,)))
        rank(work, plain, need, narrow, scored)
        if stock is not None:
            if not kn.macro:
                scored.append((-kn.score(work, stock), 0, (stock,)))
            elif kn.probe and (mover := work.engine.waste_mover(work)) is not None:
                # The waste's moves depend on its top card alone, the rest asked once:
                # scanning here is cheaper than looking the scan up (rarely met twice).
                scored.extend(scan_talon(work, stock, mover))
            elif kn.probe:
                # The scan's result is a function of the probe (the talon, the top cards,
                # the foundations): look it up before turning the stock again.
                piles, down = work.piles, work.down
                ck = (tuple([(p[-1], down[i] >= len(p)) if p else None for i in T for p in
                             (piles[i],)]),
                      tuple([piles[i] for i in others]), tuple([down[i] for i in others]),
                      work.pass_no, work.idle)
                got = scans.get(ck)
                if got is None:
                    got = scan_talon(probe_of(work), stock, work.engine.gen_talon)
                    if len(scans) > 50_000:  # a bound on the memory it takes
                        scans.clear()
                    scans[ck] = got
                scored.extend(got)
            else:
                scan = work
                start_talon = (scan.piles[S], scan.piles[W], scan.down[S])
                k = 0
                while True:
                    scan.push_raw(stock)
                    k += 1
                    if scan is work and work.is_won():  # a stock action cannot win; be safe
                        won_line = list(work.history)
                        break
                    if scan.pass_was_idle() and scan.pass_no > root_pass:
                        break  # (see settle)
                    ms2 = scan.raw_moves()
                    nxt = None
                    for m in ms2:
                        if m[0] == STOCK:
                            nxt = m
                        elif m[1] in (S, W) or m[3] in (S, W):
                            scored.append((-kn.score(scan, m), k, (stock,) * k + (m,)))
                    if nxt is None or (scan.piles[S], scan.piles[W], scan.down[S]) == start_talon:
                        break
                    stock = nxt
                if scan is work:
                    for _ in range(k):
                        work.pop()
        if digs:
            scored.extend(dig_children(ms, need))
        if supers and not all(map(work.piles.__getitem__, T)):  # (they need a space)
            rank(work, kn.supermoves(work, spaces_alike), need, narrow, scored, SUPER_BONUS)
        if jitter is not None:
            rnd = jitter.random
            scored = [(sc + JITTER * rnd(), k, seq)  # type: ignore[misc]  # (sorted only)
                      for sc, k, seq in scored]
        # (no stock action here: every child's turns are 0, and the score alone sorts them)
        scored.sort(key=_SCORE if stock is None else _SCORE_AND_TURNS)
        ranked = [t[2] for t in scored]
        if root and prefer:
            first = [seq for m in prefer for seq in ranked if _first(seq) == m]
            ranked = list(dict.fromkeys(first + ranked))
        return ranked

    kids = children(ms, root=True)
    if won_line is not None:
        return result(WON, "won", won_line)
    if strategy in ("best", "beam", "dive", "order"):
        measure = {"beam": "dig", "dive": "dig", "order": "order"}.get(strategy, "plain")
        # A beam keeps only the few most advanced children of each position: it dives
        # deep fast but is not exhaustive, so it runs only as a narrow look.
        width = BEAM_WIDTH if strategy in ("beam", "dive") and narrow else None
        gw = {"beam": BEAM_G, "dive": DIVE_G}.get(strategy, 0)
        deep = strategy == "dive"  # (weighs the depth, not the last step; see DIVE_G)
        root_line = tuple(work.history[base:])
        counter = 0
        # With ``prefer``, the positions below each preferred first move come before the
        # rest, in the order preferred (best-first within each): the hints' samples then
        # agree on their first move where they can.
        first = {m: k for k, m in enumerate(prefer or ())}
        # A position's children are worked out when it is taken from the heap (most
        # positions put on it never are; the heap holds its legal moves till then), except
        # where working them out may find a win (a scan through the stock played on the
        # position itself) or draws the jitter's random numbers, whose order must not
        # change: there as soon as the position is met (drawing them as the positions are
        # expanded saved time a position but won no more).
        lazy = jitter is None and (kn.probe or not kn.macro)
        # Lazier still where the safe moves need only the moves up (see ``settle``): a
        # position's legal moves too are generated only when it is expanded, the safe moves
        # played before from the moves up alone. (A position with no legal move is then
        # stored, and found to have none when expanded.)
        defer = lazy and kn.safe_up
        heap: list[tuple[int, float, int, Position, Node | None, Any, int]] = [
            (0, kn.progress(work, measure), 0, work, None, kids, 0)]
        root_pos = work
        while heap:
            group, _, _, node_pos, node, kids, depth = heapq.heappop(heap)
            if node_pos is not root_pos:
                nodes += 1
                if lazy:
                    work = node_pos
                    kids = children(eng.gen(work) if kids is LATER else kids)
            kept: list[tuple[int, float, int, Position, Node | None, Any, int]] = []
            for seq in kids:
                q = node_pos.copy()
                for m in seq:
                    if m[0] == JUMP:
                        q.push_turns(m[2], m[1], m[3])
                    else:
                        q.push_raw(m)
                if not fresh(key(q), q):
                    continue
                work = q
                k, ms = settle(defer=defer)
                if ms is None:
                    return result(WON, f"won after searching {nodes} positions",
                                  _line(root_line, node) + q.history)
                if k and not fresh(key(q), q):
                    continue
                if not ms:
                    continue
                child = (node, tuple(q.history))
                grand = ms if lazy else children(ms)
                if won_line is not None:
                    return result(WON, f"won after searching {nodes} positions",
                                  _line(root_line, node) + won_line)
                counter += 1
                if node_pos is root_pos and first:
                    group = first.get(_first(seq), len(first))
                d = depth + len(child[1]) if deep else len(child[1])
                kept.append((group, kn.progress(q, measure) + gw * d, -counter,
                             q.copy(), child, grand, d))
            if width is not None and len(kept) > width:
                kept.sort(key=lambda e: e[:3])
                del kept[width:]
            for e in kept:
                heapq.heappush(heap, e)
            if not nodes & SLICE:
                if max_states is not None and len(visited) + 6 * len(heap) > max_states:
                    return result(UNKNOWN_VERDICT, "memory budget spent")
                yield nodes, len(visited)
        return result(LOST, f"all {len(visited)} reachable positions searched "
                            f"(up to symmetry and safe moves), none is won")
    keep_line = line is not None  # (only the whole depth-first search keeps a line)
    plain_set = not skip and dom is None  # then fresh(key, q) is: key not in visited, added
    child_key = kn.child_key_for(pos)
    frames: list[list[Any]] = [[kids, 0, k0, ()]]  # (children, next, pushes, keys on the line)
    if keep_line:
        frames[0][3] = (key(work),)
        line.update(frames[0][3])  # type: ignore[union-attr]  # (keep_line)
    while frames:
        fr = frames[-1]
        moves, i = fr[0], fr[1]
        if i >= len(moves):
            frames.pop()
            for _ in range(fr[2]):
                work.pop()
            if keep_line:
                line.difference_update(fr[3])  # type: ignore[union-attr]
            continue
        fr[1] = i + 1
        seq = moves[i]
        m = seq[0]
        flat = (len(seq) == 1 and m[0] == MOVE and m[1] in Tset and m[3] in Tset)
        ahead = flat and plain_set and child_key is not None
        if ahead:
            # Seen before: skipped without playing the move.
            key1 = child_key(work, m)  # type: ignore[misc]  # (ahead: not None)
            if key1 in visited:
                continue
            visited.add(key1)
        if flat:
            state = (work.down[m[1]], work.pass_no, work.idle)
        for m in seq:
            if m[0] == JUMP:
                work.push_turns(m[2], m[1], m[3])
            else:
                work.push_raw(m)
        # Seen before (the safe moves from here are the same as last time): skip at once,
        # before generating any move.
        if not ahead:  # (else met and noted above)
            key1 = key(work)
            if plain_set:  # (fresh, written out: the common case)
                met = key1 in visited
                if not met:
                    visited.add(key1)
            else:
                met = not fresh(key1, work)
            if met:
                for _ in range(len(seq)):
                    work.pop()
                continue
        k, ms = settle(defer=up_first)  # (with up_first, the legal moves once new)
        if ms is None:
            return result(WON, f"won after searching {nodes + 1} positions",
                          work.history[base:])
        key2 = key(work) if k else key1
        if k and not fresh(key2, work):
            ms = []
        elif ms is LATER:
            ms = eng.gen(work)
        k += len(seq)
        if not ms:
            for _ in range(k):
                work.pop()
            continue
        nodes += 1
        # The reverse of a move between two tableau piles that turned nothing up and
        # changed no pass state (and no safe move followed) leads back to the position
        # before it, which is searched already.
        back = None
        if flat and k == 1 and state == (work.down[m[1]], work.pass_no, work.idle):
            back = (MOVE, m[3], m[2], m[1])
        kids = children(ms, back=back)
        if won_line is not None:
            return result(WON, f"won after searching {nodes} positions", won_line)
        frames.append([kids, 0, k, (key1, key2)])
        if keep_line:
            line.add(key1)  # type: ignore[union-attr]
            line.add(key2)  # type: ignore[union-attr]
        if not nodes & SLICE:
            if max_states is not None and len(visited) > max_states:
                return result(UNKNOWN_VERDICT, "memory budget spent")
            yield nodes, len(visited)
    return result(LOST, f"all {len(visited)} reachable positions searched "
                        f"(up to symmetry and safe moves), none is won")

"""How the solver's portfolio should share its time: each search of a narrowable game's
portfolio (the narrow depth-first, best-first, beam and dive looks, the whole depth-first
search, and the lean look; see :func:`companion.solver.search.solve`) run alone on the same
Klondike deals, then the portfolio replayed from those runs under any shares of slices a round.

The searches of that portfolio share nothing (no positions, no budget but the time), so a
portfolio settles a deal when the first of its searches to reach a verdict that settles it
(a win from any, a loss from the whole search) reaches it within the budget, each search
running at its share of the time; a narrow look that ends without a win gives its share to
the others. Each search's time alone to its verdict is measured once (``--timeout`` seconds
each at most: no search gets more of a portfolio's budget than that), and every setting of
the shares is then replayed in a moment, without the timing noise of a run (the real
portfolio's runs resolve within one deal of the replay). A round gives each search its slices
of SLICE + 1 positions, so its share of the time is its slices times its cost per position,
which the runs alone measure too. Deals that :meth:`Knowledge.stuck` proves lost before any
search are counted resolved, as the portfolio counts them. (The replay starts every search
at once: in the solver the lean look joins once the others have expanded LEAN_AFTER
positions, which changes the deals settled within a few hundredths of a second, not those
that take long.)

    python bench/looks.py [--draw 1] [--returns] [--seeds 1-200] [--timeout 5] [--jobs N]
                          [--save FILE | --load FILE] [--shares 2,2,1,1,12,24 ...]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

LOOKS = (("depth", True), ("best", True), ("beam", True), ("dive", True), ("depth", False),
         ("lean", True))
NAMES = ("depth", "best", "beam", "dive", "prover", "lean")


def alone(task):
    """One deal: whether it is stuck, and each search's (verdict, seconds, positions,
    whether its time ran out) alone."""
    draw, returns, seed, timeout = task
    from companion.rules import deal, load_variant
    from companion.solver import Limits
    from companion.solver.search import _search, knowledge
    pos = deal(load_variant("klondike", {"draw": draw, "foundation_return": returns}), seed)
    if knowledge(pos.variant).stuck(pos):
        return seed, None
    out = []
    for how, narrow in LOOKS:
        r = _search(pos, Limits(seconds=timeout), None, None, False, how, narrow)
        out.append((r.verdict, r.seconds, r.nodes, "time budget" in (r.reason or "")))
    return seed, out


def replay(runs, shares, budget):
    """The portfolio's verdict and seconds on one deal, from its searches' runs alone."""
    looks = []
    for k, ((verdict, secs, nodes, out_of_time), share) in enumerate(zip(runs, shares, strict=True)):
        if share <= 0:
            continue
        rate = share * max(secs, 1e-4) / max(nodes, 1)  # its share of the time, unnormalised
        settles = verdict == "won" or (verdict == "lost" and NAMES[k] == "prover")
        looks.append([float("inf") if out_of_time else secs, rate, settles, verdict])
    t, done = 0.0, [0.0] * len(looks)
    active = list(range(len(looks)))
    while active:
        total = sum(looks[i][1] for i in active)
        dt = min((looks[i][0] - done[i]) * total / looks[i][1] for i in active)
        if t + dt > budget:
            break
        t += dt
        for i in list(active):
            done[i] += dt * looks[i][1] / total
            if done[i] >= looks[i][0] - 1e-9:
                if looks[i][2]:
                    return looks[i][3], t
                active.remove(i)
    return "unknown", budget


def resolved(data, shares, budget):
    """(deals resolved, the seeds left unknown) under ``shares``."""
    unknown = [s for s, runs in data.items()
               if runs is not None and replay(runs, shares, budget)[0] == "unknown"]
    return len(data) - len(unknown), sorted(unknown)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--draw", type=int, default=1, choices=(1, 3))
    ap.add_argument("--returns", action="store_true",
                    help="foundation returns on (as bench/solver.py plays Klondike)")
    ap.add_argument("--seeds", default="1-200", help="seeds as survey takes them: 1-200, or 1-10,20,30-40")
    ap.add_argument("--timeout", type=float, default=5.0,
                    help="seconds for each search alone, and the portfolio's budget")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--save", help="write the runs alone to this JSON file")
    ap.add_argument("--load", help="replay runs saved before, without running them again")
    ap.add_argument("--shares", nargs="*", default=[],
                    help="settings to replay, each six numbers: depth,best,beam,dive,prover,"
                         "lean (the solver's own shares, a slice each, and the best of a "
                         "small grid are always shown)")
    args = ap.parse_args(argv)
    from companion.solver.search import LEAN_BYTES_SHARE, NARROW_SHARES, TALON_SHARE
    if args.load:
        with open(args.load) as f:
            saved = json.load(f)
        data = {int(s): r for s, r in saved["runs"].items()}
        budget = saved["timeout"]
    else:
        import multiprocessing

        from companion.seeds import parse_seed_range
        seeds = parse_seed_range(args.seeds)
        data = {}
        tasks = [(args.draw, args.returns, s, args.timeout) for s in seeds]
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for k, (seed, runs) in enumerate(pool.imap_unordered(alone, tasks), 1):
                data[seed] = runs
                print(f"\r{k}/{len(tasks)} deals run", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        budget = args.timeout
        if args.save:
            with open(args.save, "w") as f:
                json.dump({"draw": args.draw, "returns": args.returns, "timeout": budget,
                           "runs": data}, f)
    print(f"{len(data)} deals, {sum(r is None for r in data.values())} proved lost before any "
          f"search; portfolio budget {budget:g} s")
    for k, name in enumerate(NAMES):
        only = [0] * len(NAMES)
        only[k] = 1
        print(f"  {name} alone: {resolved(data, only, budget)[0]} resolved")
    # (Klondike's prover is the fast whole search, with TALON_SHARE slices, and its lean
    # look plays on bytes, with LEAN_BYTES_SHARE)
    own = tuple(TALON_SHARE if n == "prover" else
                LEAN_BYTES_SHARE if n == "lean" else NARROW_SHARES[n] for n in NAMES)
    settings = [("a slice each", (1,) * len(NAMES)), ("the solver's shares", own)]
    settings += [("--shares", tuple(float(x) for x in s.split(","))) for s in args.shares]
    grid = max(itertools.product(*[(1, 2, 4)] * 4, (2, 6, 12, 24), (1, 2, 4, 8)),
               key=lambda w: (resolved(data, w, budget)[0], -sum(w)))
    settings.append(("best of a grid", grid))
    for label, w in settings:
        n, unknown = resolved(data, w, budget)
        print(f"  {label} {','.join(f'{x:g}' for x in w)}: {n} resolved; unknown: "
              f"{' '.join(map(str, unknown))}")


if __name__ == "__main__":
    main()

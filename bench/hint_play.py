"""Hints as a player gets them: seeded games played from the deal to the end following only the
hint, and the share of them won.

Each game is played on two positions in step. One is the seeded deal, which knows every card.
The other is the player's view: a game of a real deck (``Position.deal(variant, None)``) whose
cards are all ``??`` until they are turned face up. The hint sees only the player's view. Each
card is named there as the seed deals it, the moment it turns face up, exactly as a player at
the table would name it to ``companion play`` (``t3=9c``), so the hint never sees a face-down
card or the stock's unseen order. Each move the hint proposes is played on both positions,
and after each move the two are checked to agree on every card named.

A game ends ``won`` or ``lost`` by the rules; ``gave-up`` when the hint proposes no move
("no move improves the position: the game looks lost"); ``unfinished`` when it reaches
``--max-moves`` (a hint going round in circles, which must not happen). The report: games won
with a 95 % Wilson interval; where the hint gave up, whether the real deal was lost there
(solved knowing every card, after the game: the hint never sees it); moves a game; the hint's
time (median and p95, each hint timed where it ran) and the share of its samples left
undecided (all hints, and the opening hints alone). Nothing here asserts a time: the figures
are for reading.

Seeds are drawn at random each run and printed (``--seeds A-B`` fixes them). ``--out
FILE.jsonl`` keeps one JSON line a game, written as each game ends: a rerun skips the seeds
already there (with the same variant, options and hint settings), and with random seeds tops
the file up to ``--games`` games of those settings.

The anchor, Bjarnason, Fern and Tadepalli (ICAPS 2009, "Lower Bounding Klondike Solitaire with
Monte-Carlo Planning"), plays "a common variant that allows unlimited passes through the deck,
turning three cards at a time, and allowing partial tableau stack moves"; its moves include
"moves from the foundation stack to a tableau stack" (here ``--option foundation_return=true``;
our Klondike's default leaves them out). Its player sees the deck: its simulator turns "all
deck cards face-up", and only the 21 face-down tableau cards are hidden ("21! possible hidden
configurations"). Here the stock stays unseen until it is turned, as at the table, so the
figures are not the same measure as the anchor's: a player here knows less.

There is no one-suit Spider among the variants (`companion variants`: ``spider`` is the
four-suit game, with the option ``discard`` only).

    python bench/hint_play.py [--variant klondike] [--option draw=3] [--games 20 | --seeds A-B]
        [--jobs 1] [--budget S] [--samples N] [--max-moves 1000] [--out FILE.jsonl]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from companion.cards import CARDS, UNKNOWN
from companion.errors import VariantError
from companion.rules import Position, load_variant
from companion.seeds import parse_seed_range
from companion.solver import Limits, solve
from companion.solver.hints import hint
from companion.solver.survey import ignore_interrupt, wilson

RESULTS = ("won", "lost", "gave-up", "unfinished")
# The hint's own defaults: the bench measures the hint a player gets unless told otherwise.
_DEFAULTS = inspect.signature(hint).parameters
DEFAULT_SAMPLES = _DEFAULTS["samples"].default
DEFAULT_BUDGET = _DEFAULTS["seconds"].default
DEFAULT_MAX_MOVES = 1000
GIVE_UP_CHECK = 10.0  # seconds to solve the real deal where the hint gave up
RANDOM_SEEDS = range(1, 1_000_000)  # where seeds are drawn from (the are in it)


class BenchError(Exception):
    """Bad input, or a game this bench cannot play: the message says which."""


# -- one game --------------------------------------------------------------------------------------

def name_turned_cards(view, real) -> None:
    """Name on ``view`` each card turned face up, as the seed dealt it (the player telling
    `companion play` what turned up)."""
    names = view.engine.names
    for i, k in view.pending_reveals():
        view.reveal(names[i], CARDS[real.piles[i][k]])


def _agree(view, real) -> bool:
    """Whether the two positions have the same piles and every card named on ``view`` is the
    real one."""
    if view.down != real.down or [len(p) for p in view.piles] != [len(p) for p in real.piles]:
        return False
    return all(c in (UNKNOWN, r) for p, q in zip(view.piles, real.piles, strict=True)
               for c, r in zip(p, q, strict=True))


def play_game(key: str, options: dict, seed: int, *, samples: int = DEFAULT_SAMPLES,
              seconds: float = DEFAULT_BUDGET, max_moves: int = DEFAULT_MAX_MOVES) -> dict:
    """Play seed ``seed`` following the hint alone: the game's record (one JSON line)."""
    v = load_variant(key, options)
    real = Position.deal(v, seed)
    view = Position.deal(v, None)
    if not _agree(view, real):
        raise BenchError(f"{v.identity}: the player's view of seed {seed} is not laid out as "
                         f"the deal is; this bench cannot play it")
    name_turned_cards(view, real)
    line, times, sampled, undecided = [], [], [], []
    result = "unfinished"
    while len(line) < max_moves:
        over = real.outcome()
        if over is not None:
            result = "won" if over.won else "lost"
            break
        # a seed per hint, so that a game replays with the same samples (the clock aside)
        h = hint(view, samples=samples, seconds=seconds, rng_seed=seed * 7919 + len(line))
        times.append(round(h.seconds, 4))
        sampled.append(h.samples)
        undecided.append(h.undecided)
        if h.move is None:
            if not h.looks_lost:
                raise BenchError(f"{v.identity} seed {seed}, move {len(line) + 1}: the hint "
                                 f"gave no move: {h.reason}")
            result = "gave-up"
            break
        view.play(h.move)
        real.play(h.move)
        name_turned_cards(view, real)
        line.append(h.move)
        if not _agree(view, real):
            raise BenchError(f"{v.identity} seed {seed}: the player's view and the deal part "
                             f"ways after {h.move} (move {len(line)}); this bench cannot play "
                             f"the variant")
    else:
        over = real.outcome()  # (the last move the cap allows may end the game)
        if over is not None:
            result = "won" if over.won else "lost"
    rec = {"variant": v.identity, "seed": seed, "samples_per_hint": samples,
           "budget": seconds, "max_moves": max_moves, "result": result, "moves": len(line),
           "hint_seconds": times, "samples": sampled, "undecided": undecided, "line": line}
    if result == "gave-up":
        # Was giving up right? The real deal, every card known, is solved where the hint gave
        # up: for the report only, after the game (the hint never sees it).
        rec["real_verdict"] = solve(real, Limits(seconds=GIVE_UP_CHECK)).verdict
    return rec


def _game_task(task) -> dict:
    key, options, seed, samples, seconds, max_moves = task
    return play_game(key, dict(options), seed, samples=samples, seconds=seconds,
                     max_moves=max_moves)


# -- the results file ------------------------------------------------------------------------------

def _settings(rec: dict) -> tuple:
    return rec.get("variant"), rec.get("samples_per_hint"), rec.get("budget"), \
        rec.get("max_moves")


def read_games(path: Path, settings: tuple) -> dict[int, dict]:
    """The games already in ``path`` played with ``settings``, by seed; a BenchError when the
    file holds games played otherwise (one file, one set of settings)."""
    done: dict[int, dict] = {}
    if not path.exists():
        return done
    other = set()
    with path.open(encoding="utf-8") as fh:
        for n, text in enumerate(fh, 1):
            if not text.strip():
                continue
            try:
                rec = json.loads(text)
            except json.JSONDecodeError:
                if text.endswith("\n"):
                    raise BenchError(f"{path}, line {n}: not a JSON line; is it this bench's "
                                     f"results file?") from None
                continue  # the last line of a run killed mid-write
            if not isinstance(rec, dict) or rec.get("result") not in RESULTS or \
                    not isinstance(rec.get("seed"), int):
                raise BenchError(f"{path}, line {n}: not a game of this bench; give another "
                                 f"--out")
            if _settings(rec) != settings:
                other.add(_settings(rec))
                continue
            done[rec["seed"]] = rec
    if other:
        theirs = "; ".join(_settings_text(s) for s in sorted(other, key=str))
        raise BenchError(f"{path} holds games played with other settings ({theirs}), not "
                         f"{_settings_text(settings)}: give another --out, or those settings")
    return done


def _settings_text(s: tuple) -> str:
    variant, samples, budget, cap = s
    return f"{variant}, {samples} samples, {budget:g} s a hint, at most {cap} moves"


def _ends_mid_line(path: Path) -> bool:
    if not path.exists() or path.stat().st_size == 0:
        return False
    with path.open("rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) != b"\n"


def play_games(key, options, seeds, *, samples, seconds, max_moves, jobs, out=None,
               progress=None) -> list[dict]:
    """Play ``seeds`` on ``jobs`` processes; each record is appended to ``out`` as its game
    ends. The records, in the order they came."""
    tasks = [(key, tuple(sorted(options.items())), s, samples, seconds, max_moves)
             for s in seeds]
    fh = out.open("a", encoding="utf-8") if out is not None else None
    if fh is not None and _ends_mid_line(out):  # a run killed mid-write: start a new line
        fh.write("\n")
    records = []
    pool = None
    try:
        if jobs <= 1 or len(tasks) <= 1:
            results = map(_game_task, tasks)
        else:
            import multiprocessing
            pool = multiprocessing.get_context("spawn").Pool(min(jobs, len(tasks)),
                                                             initializer=ignore_interrupt)
            results = pool.imap_unordered(_game_task, tasks)
        for rec in results:
            records.append(rec)
            if fh is not None:
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
            if progress is not None:
                progress(rec, len(records), len(tasks))
    finally:
        if pool is not None:
            pool.terminate()
        if fh is not None:
            fh.close()
    return records


# -- the report ------------------------------------------------------------------------------------

def pct(xs, q):
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def report(records: list[dict]) -> list[str]:
    """The figures of ``records`` (games of one set of settings), line by line."""
    n = len(records)
    if not n:
        return ["no games"]
    by = {r: sum(1 for rec in records if rec["result"] == r) for r in RESULTS}
    lo, hi = wilson(by["won"], n)
    out = [f"won {by['won']} of {_count(n, 'game')}: {by['won'] / n:.1%} (95 % Wilson interval "
           f"{lo:.1%}-{hi:.1%}); lost {by['lost']}, gave up {by['gave-up']} (no move improves "
           f"the position), unfinished {by['unfinished']}"]
    gave_up = [rec.get("real_verdict") for rec in records if rec["result"] == "gave-up"]
    if gave_up:
        known = {w: gave_up.count(w) for w in ("lost", "won", "unknown")}
        out.append(f"where the hint gave up, the real deal (every card known, at most "
                   f"{GIVE_UP_CHECK:g} s) is: lost in {known['lost']}, winnable in "
                   f"{known['won']}, unknown in {known['unknown']}"
                   + (f", not checked in {gave_up.count(None)}" if None in gave_up else ""))
    moves = [rec["moves"] for rec in records]
    won = [rec["moves"] for rec in records if rec["result"] == "won"]
    out.append(f"moves a game: median {statistics.median(moves):g}, mean "
               f"{statistics.fmean(moves):.1f}, most {max(moves)}"
               + (f"; won games: median {statistics.median(won):g}" if won else ""))
    times = [t for rec in records for t in rec["hint_seconds"]]
    if times:
        out.append(f"hint time: p50 {pct(times, 0.5):.2f} s, p95 {pct(times, 0.95):.2f} s, "
                   f"most {max(times):.2f} s, over {len(times)} hints")
    drawn = sum(s for rec in records for s in rec["samples"])
    left = sum(u for rec in records for u in rec["undecided"])
    first_drawn = sum(rec["samples"][0] for rec in records if rec["samples"])
    first_left = sum(rec["undecided"][0] for rec in records if rec["undecided"])
    if drawn:
        out.append(f"samples undecided: {left} of {drawn} ({left / drawn:.1%}); opening hints: "
                   f"{first_left} of {first_drawn}"
                   + (f" ({first_left / first_drawn:.1%})" if first_drawn else ""))
    else:
        out.append("samples undecided: no hint sampled (nothing was hidden)")
    return out


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def seeds_text(seeds) -> str:
    """``seeds`` as `--seeds` takes them (runs joined: 1-5,9)."""
    seeds = sorted(seeds)
    parts, i = [], 0
    while i < len(seeds):
        j = i
        while j + 1 < len(seeds) and seeds[j + 1] == seeds[j] + 1:
            j += 1
        parts.append(str(seeds[i]) if i == j else f"{seeds[i]}-{seeds[j]}")
        i = j + 1
    return ",".join(parts)


# -- the command line ------------------------------------------------------------------------------

def _parse_options(pairs) -> dict:
    out = {}
    for item in pairs:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise BenchError(f"--option {item!r}: write NAME=VALUE, e.g. draw=1")
        out[name.strip()] = value.strip()
    return out


def _positive(kind, what):
    def check(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {what}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text!r}: give a {what} above 0")
        return value
    return check


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="klondike",
                    help="a variant of `companion variants` (default: klondike, draw 3)")
    ap.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                    help="a rule option of the variant, e.g. draw=1 (repeatable)")
    ap.add_argument("--games", type=_positive(int, "whole number"), default=None,
                    help="games, on seeds drawn at random (default 20)")
    ap.add_argument("--seeds", default=None, metavar="A-B",
                    help="these seeds instead of random ones: 1-20, or 1-10,20,30-40")
    ap.add_argument("--jobs", type=_positive(int, "whole number"), default=1,
                    help="games played at once, one process each (default 1)")
    ap.add_argument("--budget", type=_positive(float, "number of seconds"),
                    default=DEFAULT_BUDGET,
                    help=f"seconds a hint (default: the hint's own, {DEFAULT_BUDGET:g})")
    ap.add_argument("--samples", type=_positive(int, "whole number"), default=DEFAULT_SAMPLES,
                    help=f"samples a hint (default: the hint's own, {DEFAULT_SAMPLES})")
    ap.add_argument("--max-moves", type=_positive(int, "whole number"),
                    default=DEFAULT_MAX_MOVES,
                    help=f"moves after which a game counts as unfinished (default "
                         f"{DEFAULT_MAX_MOVES})")
    ap.add_argument("--out", type=Path, default=None, metavar="FILE.jsonl",
                    help="one JSON line a game, appended as each ends; a rerun skips the seeds "
                         "already there")
    args = ap.parse_args(argv)
    try:
        return _run(args)
    except BenchError as exc:
        print(f"hint_play: {exc}", file=sys.stderr)
        return 2


def _run(args) -> int:
    try:
        options = _parse_options(args.option)
        v = load_variant(args.variant, options)
    except VariantError as exc:
        raise BenchError(str(exc)) from None
    if args.out is not None and args.out.is_dir():
        raise BenchError(f"--out {args.out} is a folder: give a file, e.g. games.jsonl")
    settings = (v.identity, args.samples, args.budget, args.max_moves)
    done = read_games(args.out, settings) if args.out is not None else {}
    if args.seeds is not None:
        if args.games is not None:
            raise BenchError("give --games (random seeds) or --seeds, not both")
        try:
            seeds = parse_seed_range(args.seeds, limit=100_000)
        except ValueError as exc:
            raise BenchError(f"--seeds: {exc}") from None
        how = f"seeds {seeds_text(seeds)}"
    else:
        n = args.games or 20
        kept = sorted(done)[:n]
        rng, fresh = random.SystemRandom(), []
        while len(kept) + len(fresh) < n:
            s = rng.choice(RANDOM_SEEDS)
            if s not in done and s not in fresh:
                fresh.append(s)
        seeds = kept + fresh
        how = f"seeds drawn at random: {seeds_text(fresh) or 'none'}"
        if kept:
            how += f"; {len(kept)} games from {args.out}"
    todo = [s for s in seeds if s not in done]
    label = v.name + (" (" + ", ".join(f"{k}={val}" for k, val in v.options) + ")"
                      if v.options else "")
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    print(f"{label}: {_count(len(seeds), 'game')} ({how}); the hint: {args.samples} samples, "
          f"{args.budget:g} s; at most {args.max_moves} moves a game; {args.jobs} "
          f"job{'s' if args.jobs != 1 else ''}; {platform.python_implementation()} "
          f"{platform.python_version()}, {os.cpu_count()} cores{load}", flush=True)
    if len(todo) < len(seeds):
        print(f"{_count(len(seeds) - len(todo), 'game')} already in {args.out}: skipped",
              flush=True)
    start = time.perf_counter()

    def progress(rec, k, total):
        print(f"[{k}/{total}] seed {rec['seed']}: {rec['result']} after {rec['moves']} moves "
              f"({time.perf_counter() - start:.0f} s)", flush=True)

    try:
        new = play_games(v.key, options, todo, samples=args.samples, seconds=args.budget,
                         max_moves=args.max_moves, jobs=args.jobs, out=args.out,
                         progress=progress)
    except KeyboardInterrupt:
        print("interrupted: the games that ended are in --out; rerun to go on",
              file=sys.stderr)
        return 130
    records = [done[s] for s in seeds if s in done] + new
    for line in report(records):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Game recorder latency: from a move typed to the next prompt, and `companion --help` start-up.

1. A scripted 500-move Klondike game (random legal moves from a fixed RNG, on the first seeded
   deal that lasts that long) is typed into a recorder session backed by a real database file
   (WAL, ``synchronous=FULL``: each move is committed to disk before the next prompt). For each
   move the time runs from ``session.handle(line)`` to the next prompt text being ready: checking
   the move, committing it, describing it and redrawing the layout. Reported: p50, p99 and max,
   and the share spent committing to the database. Target: p99 <= 20 ms.
2. ``companion --help`` run as a fresh process, several times: median and best wall time.
   Target: <= 0.3 s (the command list loads no engine and no heavy library).

Nothing here asserts a time: the figures are for reading and comparing.

    python bench/recorder.py [--moves 500] [--help-runs 7] [--db-dir DIR] [--json FILE]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from companion.record.session import Session
from companion.record.store import GameLog, Store
from companion.rules import deal, load_variant

TARGET_P99_MS = 20.0
TARGET_HELP_S = 0.3
RNG_SEED = 20240601


def scripted_game(n: int) -> tuple[int, list[str]]:
    """(seed, n move texts) of a Klondike game that is still going after n random moves."""
    for seed in range(1, 1000):
        pos = deal("klondike", seed)
        rng = random.Random(RNG_SEED + seed)
        moves = []
        while len(moves) < n and pos.outcome() is None:
            m = rng.choice(pos.raw_moves())
            moves.append(pos.engine.text(m))
            pos.push_raw(m)
        if len(moves) == n and pos.outcome() is None:
            return seed, moves
    raise SystemExit(f"no seeded Klondike deal lasts {n} random moves")


class TimedLog(GameLog):
    """The real log, with the time spent in each database write added up."""

    def __init__(self, store, game_id):
        super().__init__(store, game_id)
        self.seconds = 0.0

    def append(self, first_ply, entries):
        t = time.perf_counter()
        super().append(first_ply, entries)
        self.seconds += time.perf_counter() - t


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))
    return s[k]


def bench_moves(n: int, db_dir: str | None) -> dict:
    seed, moves = scripted_game(n)
    folder = tempfile.mkdtemp(prefix="companion-bench-", dir=db_dir)
    path = os.path.join(folder, "games.sqlite3")
    try:
        with Store(path) as store:
            v = load_variant("klondike")
            gid = store.create_game(variant=v.key, options={}, seed=seed, deal_version=1)
            log = TimedLog(store, gid)
            session = Session.seeded(v, seed, log=log, game_id=gid)
            sink = io.StringIO()
            times = []
            for line in moves:
                t = time.perf_counter()
                reply = session.handle(line)
                sink.write(reply.text)
                sink.write(session.prompt())
                times.append(time.perf_counter() - t)
                if not reply.ok:
                    raise SystemExit(f"scripted move refused: {line}: {reply.text}")
            stored = len(store.moves(gid))
        size = os.path.getsize(path)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ms = [t * 1000 for t in times]
    return {"moves": n, "seed": seed, "stored": stored, "db_dir": os.path.dirname(folder),
            "p50_ms": percentile(ms, 50), "p99_ms": percentile(ms, 99), "max_ms": max(ms),
            "mean_ms": statistics.fmean(ms), "db_share": log.seconds / sum(times),
            "db_bytes": size}


def companion_command() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "companion")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "companion"]


def bench_help(runs: int) -> dict:
    cmd = companion_command() + ["--help"]
    subprocess.run(cmd, capture_output=True, check=True)  # warm the file cache
    walls = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        walls.append(time.perf_counter() - t)
    return {"command": " ".join(cmd), "runs": runs, "median_s": statistics.median(walls),
            "best_s": min(walls)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=500)
    ap.add_argument("--help-runs", type=int, default=7)
    ap.add_argument("--db-dir", help="where the benchmark's database file goes (default: the "
                                     "system's temporary folder)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    print(f"recorder benchmark: Python {platform.python_version()}, {platform.machine()}",
          file=sys.stderr)
    moves = bench_moves(args.moves, args.db_dir)
    help_ = bench_help(args.help_runs)
    ok_moves = moves["p99_ms"] <= TARGET_P99_MS
    ok_help = help_["median_s"] <= TARGET_HELP_S
    print(f"move typed -> next prompt, {moves['moves']} moves (klondike seed {moves['seed']}, "
          f"database in {moves['db_dir']}):")
    print(f"  p50 {moves['p50_ms']:.2f} ms   p99 {moves['p99_ms']:.2f} ms   max "
          f"{moves['max_ms']:.2f} ms   mean {moves['mean_ms']:.2f} ms   "
          f"({100 * moves['db_share']:.0f}% of it committing to the database)   "
          f"{'meets' if ok_moves else 'BELOW'} target p99 <= {TARGET_P99_MS:.0f} ms")
    print(f"companion --help: median {help_['median_s']:.3f} s, best {help_['best_s']:.3f} s "
          f"over {help_['runs']} runs   {'meets' if ok_help else 'BELOW'} target <= "
          f"{TARGET_HELP_S} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"moves": moves, "help": help_}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Rules-engine throughput: positions expanded per second, per variant.

To *expand* a position is what a solver does at every node: list its legal moves
(``raw_moves()``) and, for each, apply it and take it back (``push_raw(m); pop()``). For every
variant (and Accordion with ``deal=all``) this builds a pool of positions by random playouts
from seeded deals (a fixed RNG seed, so the pool is the same on every run), then expands the
pool round after round for ``--seconds`` and reports:

* positions expanded per second;
* the mean number of legal moves in the pool;
* bytes per position: the mean ``len(position.key())``, what a transposition table stores.

Klondike is flagged against the target of 20,000 positions/s. Nothing here asserts a time:
the figures are for reading and comparing. Progress goes to stderr, the table to stdout.

    python bench/engine.py [--seconds 1.0] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from dataclasses import asdict, dataclass

from companion.rules import Position, deal, load_variant, variant_keys

TARGETS = {"klondike": 20_000}
"""Positions expanded per second each variant should reach (by key; the others have none)."""

RNG_SEED = 20240601
POOL_SIZE = 2_000
PLAYOUT_MOVES = 120


@dataclass
class Result:
    variant: str
    positions_per_s: float
    mean_moves: float
    bytes_per_position: float
    pool: int
    expanded: int
    seconds: float
    target: int | None = None

    @property
    def verdict(self) -> str:
        if self.target is None:
            return ""
        ok = self.positions_per_s >= self.target
        return f"{'meets' if ok else 'BELOW'} target {self.target:,}/s"


def cases() -> list[tuple[str, str, dict]]:
    """(label, variant key, options): every variant with its defaults, plus Accordion dealt out."""
    out = [(key, key, {}) for key in variant_keys()]
    if "accordion" in variant_keys():
        out.append(("accordion:deal=all", "accordion", {"deal": "all"}))
    return out


def build_pool(key: str, options: dict, size: int = POOL_SIZE,
               moves: int = PLAYOUT_MOVES) -> list[Position]:
    """Positions met on random playouts from seeds 1, 2, 3 ... (every position of each game,
    the deal included), until there are ``size`` of them."""
    rng = random.Random(f"{RNG_SEED}:{key}:{sorted(options.items())}")
    variant = load_variant(key, options)
    pool: list[Position] = []
    seed = 0
    while len(pool) < size:
        seed += 1
        pos = deal(variant, seed)
        for _ in range(moves):
            pool.append(pos.copy())
            if len(pool) >= size:
                break
            legal = pos.raw_moves()
            if not legal:
                break
            pos.push_raw(rng.choice(legal))
    return pool


def expand(pos: Position) -> int:
    """Expand one position; the number of legal moves."""
    legal = pos.raw_moves()
    for m in legal:
        pos.push_raw(m)
        pos.pop()
    return len(legal)


def measure(label: str, key: str, options: dict, seconds: float) -> Result:
    pool = build_pool(key, options)
    mean_moves = sum(len(p.raw_moves()) for p in pool) / len(pool)
    key_bytes = sum(len(p.key()) for p in pool) / len(pool)
    for pos in pool[:200]:  # warm up
        expand(pos)
    clock = time.perf_counter
    expanded = 0
    start = clock()
    deadline = start + seconds
    now = start
    while now < deadline:
        for pos in pool:
            expand(pos)
        expanded += len(pool)
        now = clock()
    elapsed = now - start
    return Result(label, expanded / elapsed, mean_moves, key_bytes, len(pool), expanded,
                  elapsed, TARGETS.get(label))


def table(results: list[Result]) -> str:
    head = f"{'variant':<20} {'positions/s':>12} {'mean moves':>11} {'bytes/pos':>10}  note"
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(f"{r.variant:<20} {r.positions_per_s:>12,.0f} {r.mean_moves:>11.2f} "
                     f"{r.bytes_per_position:>10.1f}  {r.verdict}".rstrip())
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="time to spend expanding each variant's pool (default 1.0)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    args = parser.parse_args(argv)

    results = []
    todo = cases()
    for n, (label, key, options) in enumerate(todo, 1):
        print(f"[{n}/{len(todo)}] {label}: building a pool of {POOL_SIZE} positions, "
              f"expanding for {args.seconds:g}s ...", file=sys.stderr, flush=True)
        r = measure(label, key, options, args.seconds)
        print(f"[{n}/{len(todo)}] {label}: {r.positions_per_s:,.0f} positions/s",
              file=sys.stderr, flush=True)
        results.append(r)

    print(table(results))
    if args.json:
        data = {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "machine": platform.machine(),
            "platform": platform.platform(),
            "seconds_per_variant": args.seconds,
            "pool_size": POOL_SIZE,
            "rng_seed": RNG_SEED,
            "targets": TARGETS,
            "results": [asdict(r) | {"note": r.verdict} for r in results],
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
        print(f"wrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Surveys: solve a range of seeds in parallel and report the win rate with its interval.

Results are appended to a JSONL file one line per seed as they come, so an interrupted survey
resumes by skipping the seeds already there (for the same variant and options). Each line keeps
the budget its search had; a deal left unknown with a smaller budget than the run's is solved
again (a won or lost verdict is a proof, whatever the budget, and stays). The win rate
is reported as Blake & Gent do (../shared/WINNABILITY.md): two 95 % Wilson intervals, one
counting every unknown as lost and one counting every unknown as won; the range runs from the
lower end of the first to the upper end of the second.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import seeds as catalogue
from ..errors import CompanionError
from ..rules import deal, load_variant, variant_keys
from ..seeds import parse_seed_range
from .search import LOST, UNKNOWN_VERDICT, WON, Limits, SolverError, solve

Z95 = 1.959963984540054

# A survey's record of one deal, as its JSONL file holds it.
Record = dict[str, Any]
# One task for a worker: (variant key, options items, seed, seconds, nodes).
Task = tuple[str, tuple[tuple[str, object], ...], int, float, int | None]


def parse_seeds(text: str, limit: int = 10_000_000) -> list[int]:
    """``1-1000``, ``7``, ``1-10,20,30-40`` → the seeds (see companion.seeds.parse_seed_range)."""
    return parse_seed_range(text, limit)


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return lo, hi


@dataclass
class Rate:
    won: int
    lost: int
    unknown: int

    @property
    def n(self) -> int:
        return self.won + self.lost + self.unknown

    def interval(self) -> tuple[float, float]:
        """Blake & Gent's range: unknowns counted lost for the low end, won for the high."""
        lo, _ = wilson(self.won, self.n)
        _, hi = wilson(self.won + self.unknown, self.n)
        return lo, hi

    @property
    def settled(self) -> int:
        return self.won + self.lost

    def observed(self) -> float | None:
        """The share of the settled deals that were won (``None`` when none is settled)."""
        return self.won / self.settled if self.settled else None

    def blake_gent(self) -> tuple[float, float, float, float]:
        """The interval as Blake & Gent report it: its bounds rounded outward (to 0.1 %),
        then (low, high, centre, half-width)."""
        lo, hi = self.interval()
        lo, hi = math.floor(lo * 1000) / 1000, math.ceil(hi * 1000) / 1000  # outward
        return lo, hi, (lo + hi) / 2, (hi - lo) / 2

    def text(self) -> str:
        if not self.n:
            return "no deals solved"
        lo, hi, centre, half = self.blake_gent()
        counts = f"won {self.won}, lost {self.lost}, unknown {self.unknown} of {self.n}: "
        rate = self.observed()
        if rate is None:
            observed = "no deal settled"
        elif self.unknown:
            observed = f"observed win rate {100 * rate:.1f} % of the {self.settled} settled"
        else:
            observed = f"observed win rate {100 * rate:.1f} %"
        both = ", unknowns counted both ways" if self.unknown else ""
        return (counts + observed + f"; 95 % interval {100 * lo:.1f}-{100 * hi:.1f} % "
                f"(Wilson{both}; Blake & Gent's form {100 * centre:.1f} % ± "
                f"{100 * half:.1f} %)")

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval()
        return {"won": self.won, "lost": self.lost, "unknown": self.unknown, "n": self.n,
                "settled": self.settled, "observed": self.observed(), "low": lo, "high": hi}


def tally(records: Iterable[Record]) -> Rate:
    r = Rate(0, 0, 0)
    for rec in records:
        v = rec.get("verdict")
        if v == WON:
            r.won += 1
        elif v == LOST:
            r.lost += 1
        else:
            r.unknown += 1
    return r


# -- one task, picklable for the worker processes ----------------------------------------------------

def solve_seed(task: Task) -> Record:
    """Solve one seeded deal: ``(variant key, options items, seed, seconds, nodes)``."""
    key, options, seed, seconds, nodes = task
    v = load_variant(key, dict(options))
    pos = deal(v, seed)
    r = solve(pos, Limits(seconds=seconds, nodes=nodes), short=False)
    return {"variant": v.identity, "seed": seed, "verdict": r.verdict, "nodes": r.nodes,
            "states": r.states, "seconds": round(r.seconds, 3), "length": len(r.moves),
            "budget_seconds": seconds, "budget_nodes": nodes}


def budget_text(seconds: float | None, nodes: int | None) -> str:
    """``10 s per deal``, ``10 s and 40000 positions per deal``."""
    parts = [f"{seconds:g} s"] if seconds is not None else []
    if nodes is not None:
        parts.append(f"{nodes} position{'s' if nodes != 1 else ''}")
    return " and ".join(parts or ["no limit"]) + " per deal"


def record_budget(rec: Record) -> tuple[float | None, int | None] | None:
    """(seconds, nodes) a record's search had (None: no limit), or None when the record does
    not say (a file written before budgets were kept)."""
    seconds, nodes = rec.get("budget_seconds"), rec.get("budget_nodes")
    if "budget_seconds" not in rec or not (
            seconds is None or type(seconds) in (int, float)) or not (
            nodes is None or type(nodes) is int):
        return None
    return seconds, nodes


def _at_least(new: float | None, old: float | None) -> bool:
    """Whether limit ``new`` allows at least as much as ``old`` (None: no limit)."""
    return new is None or (old is not None and new >= old)


def deserves_retry(rec: Record, seconds: float | None, nodes: int | None) -> bool:
    """Whether a deal left unknown would be solved again with this budget: one at least as
    large in time and positions, and larger in one of them. A record that does not say its
    budget had at least the time and positions it spent, so more of both is needed."""
    if rec.get("verdict") != UNKNOWN_VERDICT:
        return False
    had = record_budget(rec)
    if had is None:
        spent_s, spent_n = rec.get("seconds"), rec.get("nodes")
        if type(spent_s) not in (int, float) or type(spent_n) is not int:
            return True
        return (seconds is None or seconds > spent_s) and (  # type: ignore[operator]  # (numbers)
            nodes is None or nodes > spent_n)
    old_s, old_n = had
    return _at_least(seconds, old_s) and _at_least(nodes, old_n) \
        and (seconds, nodes) != (old_s, old_n)


def budgets_text(records: Iterable[Record]) -> str:
    """How many of ``records`` had each budget: ``2 at 10 s per deal, 1 at an unrecorded
    budget``, the largest group first."""
    counts: dict[str, int] = {}
    for rec in records:
        had = record_budget(rec)
        key = "an unrecorded budget" if had is None else budget_text(*had)
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n} at {key}" for key, n in sorted(counts.items(), key=lambda kv: -kv[1]))


def ignore_interrupt() -> None:
    """A worker's start: Ctrl-C is the parent's to handle (it stops the pool), so that no
    worker prints its own traceback over the survey's last lines."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def read_done(path: Path, identity: str) -> dict[int, Record]:
    """The records already in a survey file for this variant (defensive: bad lines skipped)."""
    done: dict[int, Record] = {}
    if not path.exists():
        return done
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(rec, dict) and rec.get("variant") == identity \
                    and isinstance(rec.get("seed"), int) and rec.get("verdict") in (
                        WON, LOST, UNKNOWN_VERDICT):
                before = done.get(rec["seed"])
                if before is None or before["verdict"] == UNKNOWN_VERDICT:  # a proof stays
                    done[rec["seed"]] = rec
    return done


def _ends_mid_line(path: Path) -> bool:
    """Whether the file's last line lacks its newline (so a record appended would join it)."""
    with path.open("rb") as fh:
        if fh.seek(0, os.SEEK_END) == 0:
            return False
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) != b"\n"


CONNECT_TIMEOUT = 10
"""Seconds to wait for a Dask scheduler to answer."""


def _on_cluster(address: str, tasks: list[Task]) -> Iterator[Record]:
    """Results of ``tasks`` solved on a Dask distributed cluster, as they complete."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SolverError("--scheduler needs Dask distributed: pip install -e '.[cluster]' "
                          "(and companion installed on every worker)") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SolverError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        futures = client.map(solve_seed, tasks, pure=False)
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        client.close()


def run(key: str, options: dict[str, object], seeds: list[int], *, seconds: float = 10.0,
        nodes: int | None = None, jobs: int | None = None, out: Path | None = None,
        progress: Callable[[str], None] | None = None,
        scheduler: str | None = None,
        retrying: Callable[[list[Record]], None] | None = None) -> dict[int, Record]:
    """Solve ``seeds``, skipping those already in ``out`` but the unknown ones whose budget
    was smaller (:func:`deserves_retry`; ``retrying`` is told their records first); every
    record by seed.

    Locally on ``jobs`` processes, or with ``scheduler`` (an address such as
    ``tcp://host:8786``) on a Dask distributed cluster: the same tasks, the same file."""
    v = load_variant(key, options)
    identity = v.identity
    done = read_done(out, identity) if out is not None else {}
    again = list({s: done[s] for s in seeds
                  if s in done and deserves_retry(done[s], seconds, nodes)}.values())
    if again and retrying is not None:
        retrying(again)
    retried = {rec["seed"] for rec in again}
    todo = [s for s in seeds if s not in done or s in retried]
    records = {s: done[s] for s in seeds if s in done}
    tasks = [(v.key, tuple(sorted(options.items())), s, seconds, nodes) for s in todo]
    jobs = max(1, jobs or os.cpu_count() or 1)
    fh = out.open("a", encoding="utf-8") if out is not None else None
    # a run killed mid-write: start a new line (fh is set only where out is)
    if fh is not None and _ends_mid_line(out):  # type: ignore[arg-type]
        fh.write("\n")
    start = time.perf_counter()
    try:
        pool = None
        if scheduler is not None:
            results = _on_cluster(scheduler, tasks) if tasks else iter(())
        elif jobs == 1 or len(tasks) <= 1:
            results = map(solve_seed, tasks)
        else:
            import multiprocessing
            pool = multiprocessing.get_context("spawn").Pool(min(jobs, len(tasks)),
                                                             initializer=ignore_interrupt)
            results = pool.imap_unordered(solve_seed, tasks)
        try:
            for n, rec in enumerate(results, 1):
                records[rec["seed"]] = rec
                if fh is not None:
                    fh.write(json.dumps(rec) + "\n")
                    fh.flush()
                if progress is not None:
                    t = tally(records.values())
                    el = time.perf_counter() - start
                    progress(f"[{n}/{len(tasks)}] won {t.won} lost {t.lost} unknown "
                             f"{t.unknown}, {el:.0f} s")
        finally:
            if pool is not None:
                pool.terminate()
    finally:
        if fh is not None:
            fh.close()
    return records


def solver_verdicts(variant: str, seeds: Iterable[int], timeout: float = 10.0,
                    options: dict[str, object] | None = None, jobs: int | None = 1,
                    nodes: int | None = None) -> dict[int, str]:
    """seed → ``won``/``lost``/``unknown`` for the seeded deals of ``variant``: what the
    ``verdict`` column of ``seeds/<variant>.tsv`` holds."""
    recs = run(variant, options or {}, list(seeds), seconds=timeout, nodes=nodes, jobs=jobs)
    return {s: rec["verdict"] for s, rec in sorted(recs.items())}


def merge_verdict(old: str | None, new: str | None, where: str = "") -> str:
    """The catalogue's verdict after a new run: a proof (won, lost) stays, since the deal
    behind an unchanged fingerprint is the same; a new proof replaces ``unknown`` or ``-``.
    Two proofs that disagree are a bug in the solver or the rules, and stop the run."""
    proofs = ("won", "lost")
    if new in proofs and old in proofs and new != old:
        raise CompanionError(f"{where}: the catalogue says {old} but the solver now proves "
                             f"{new}: one of them is wrong (a rules or solver bug); nothing "
                             f"was written")
    if new in proofs:
        return new
    if old in proofs:
        return old
    return new or old or "-"


def write_verdicts(directory: Path | str | None = None, timeout: float = 10.0,
                   variants: Iterable[str] | None = None, jobs: int | None = None,
                   progress: Callable[[str], None] | None = None,
                   nodes: int | None = None) -> list[Path]:
    """Fill the verdict column of the seeds catalogue through ``companion.seeds``'s own
    reader and writer (fingerprints untouched; only verdicts of unchanged deals change, and
    a proved verdict is kept when a shorter run leaves the deal unknown)."""
    written = []
    for key in variants or variant_keys():
        path = catalogue.catalogue_file(key, directory)
        rows = catalogue.read_rows(key, directory)
        verdicts = solver_verdicts(key, sorted(rows), timeout, jobs=jobs, nodes=nodes)
        new_rows = {s: {**row, "verdict": merge_verdict(row.get("verdict"), verdicts.get(s),
                                                        f"{key} seed {s}")}
                    for s, row in rows.items()}
        fps = {s: row["fingerprint"] for s, row in rows.items()}
        path.write_text(catalogue.render(key, fps, new_rows), encoding="utf-8")
        written.append(path)
        if progress:   # what the catalogue now says (a proof kept where this run found none)
            t = tally(new_rows.values())
            found = sum(1 for v in verdicts.values() if v in ("won", "lost"))
            progress(f"{key}: {t.text()} (this run proved {found} of {len(verdicts)})")
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.solver.survey --verdicts [DIR]``: what ``make verdicts`` runs."""
    import argparse
    parser = argparse.ArgumentParser(prog="python -m companion.solver.survey",
                                     description="Fill the verdict column of seeds/*.tsv.")
    parser.add_argument("--verdicts", action="store_true", required=True)
    parser.add_argument("dir", nargs="?", default=None)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--nodes", type=int, default=None,
                        help="most positions per deal (a budget that does not depend on the "
                             "machine's speed or load)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--variant", action="append", default=None)
    args = parser.parse_args(argv)
    try:
        for path in write_verdicts(args.dir, args.timeout, args.variant, args.jobs,
                                   progress=lambda s: print(s, file=sys.stderr),
                                   nodes=args.nodes):
            print(f"wrote {path}")
    except CompanionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

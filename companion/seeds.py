"""The seeds catalogue: the fingerprint of every variant's deal for seeds 1-100.

``seeds/<variant>.tsv`` pins the seeded deals: if a change to the shuffle, a deal plan or the
position JSON moves any of these fingerprints, ``make test`` fails until the change is either
undone or made deliberate (a ``DEAL_VERSION`` bump and ``make seeds``). The algorithm is
documented in ``seeds/README.md``.

A file is a few ``#`` comment lines, then a tab-separated table with a header line::

    seed<TAB>fingerprint<TAB>verdict
    1<TAB>68c1659d...<TAB>-

``verdict`` is ``-`` until the solver fills it (``won``, ``lost`` or ``unknown``). Readers find
columns by their header name and ignore columns they do not know, so more may be added later.
Rewriting a file keeps the verdict (and any extra columns) of every seed whose fingerprint is
unchanged.

Usage::

    python -m companion.seeds --write [DIR]   # regenerate every variant's file
    python -m companion.seeds --check [DIR]   # verify; exit 1 listing the mismatches
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from .rules import DEAL_VERSION, deal, load_variant, variant_keys

SEEDS = range(1, 101)
COLUMNS = ("seed", "fingerprint", "verdict")
HEADER = "\t".join(COLUMNS)
NO_VERDICT = "-"
VERDICTS = ("won", "lost", "unknown", NO_VERDICT)


def catalogue_dir() -> Path:
    """The repository's ``seeds/`` folder, next to the package."""
    return Path(__file__).resolve().parents[1] / "seeds"


def catalogue_file(variant_key: str, directory: Path | str | None = None) -> Path:
    return Path(directory if directory is not None else catalogue_dir()) / f"{variant_key}.tsv"


# -- reading -----------------------------------------------------------------------------------

def read_table(path: Path | str) -> tuple[dict[str, str], list[dict[str, str]]]:
    """A catalogue file: its ``# key: value`` comment fields and its rows (column → text).

    Blank lines and other comments are skipped; the first non-comment line is the header.
    """
    path = Path(path)
    meta: dict[str, str] = {}
    header: list[str] | None = None
    rows: list[dict[str, str]] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep and header is None and key.strip() and " " not in key.strip():
                meta.setdefault(key.strip(), value.strip())
            continue
        cells = line.split("\t")
        if header is None:
            header = [c.strip() for c in cells]
            missing = [c for c in ("seed", "fingerprint") if c not in header]
            if missing:
                raise ValueError(f"{path}:{lineno}: the header has no {missing[0]!r} column")
            continue
        if len(cells) > len(header):
            raise ValueError(f"{path}:{lineno}: {len(cells)} cells, the header names "
                             f"{len(header)}")
        rows.append({h: c.strip() for h, c in zip(header, cells, strict=False)})
    if header is None:
        raise ValueError(f"{path}: no header line (expected {HEADER!r})")
    return meta, rows


def read_rows(variant_key: str, directory: Path | str | None = None) -> dict[int, dict[str, str]]:
    """Every row of a variant's file by seed (all its columns, verdict included)."""
    path = catalogue_file(variant_key, directory)
    _, rows = read_table(path)
    out: dict[int, dict[str, str]] = {}
    for row in rows:
        try:
            seed = int(row["seed"])
        except ValueError:
            raise ValueError(f"{path}: seed {row['seed']!r} is not a whole number") from None
        if seed in out:
            raise ValueError(f"{path}: seed {seed} appears twice")
        out[seed] = row
    return out


def expected_fingerprints(variant_key: str,
                          directory: Path | str | None = None) -> dict[int, str]:
    """The committed fingerprints of ``seeds/<variant>.tsv``: seed → SHA-256 hex."""
    return {seed: row["fingerprint"] for seed, row in read_rows(variant_key, directory).items()}


def verdicts(variant_key: str, directory: Path | str | None = None) -> dict[int, str]:
    """seed → ``won``/``lost``/``unknown``, or ``-`` where the solver has not run."""
    return {seed: row.get("verdict") or NO_VERDICT
            for seed, row in read_rows(variant_key, directory).items()}


# -- computing and writing ---------------------------------------------------------------------

def compute(variant_key: str, seeds: Iterable[int] = SEEDS) -> dict[int, str]:
    """seed → fingerprint of ``deal(variant_key, seed)`` with the default options."""
    return {seed: deal(variant_key, seed).fingerprint() for seed in seeds}


def render(variant_key: str, fingerprints: dict[int, str],
           old_rows: dict[int, dict[str, str]] | None = None) -> str:
    """The text of a catalogue file. Rows of ``old_rows`` whose fingerprint is unchanged keep
    their verdict and any extra columns; the others start again at ``-``."""
    old_rows = old_rows or {}
    extra: list[str] = []
    for row in old_rows.values():
        extra += [c for c in row if c not in COLUMNS and c not in extra]
    v = load_variant(variant_key)
    options = ", ".join(f"{k}={v.option_text(k)}" for k, _ in v.options) or "none"
    lines = [
        f"# variant: {variant_key}",
        f"# deal_version: {DEAL_VERSION}",
        f"# options: the defaults ({options})",
        "# columns: seed; fingerprint = SHA-256 of the canonical JSON of the dealt position "
        "(seeds/README.md); verdict = won, lost or unknown from the solver, - until it has run",
        "# regenerate: make seeds (python -m companion.seeds --write seeds), only after a "
        "deliberate DEAL_VERSION bump; verify: python -m companion.seeds --check",
        "\t".join((*COLUMNS, *extra)),
    ]
    for seed, fp in sorted(fingerprints.items()):
        old = old_rows.get(seed, {})
        kept = old.get("fingerprint") == fp
        verdict = (old.get("verdict") or NO_VERDICT) if kept else NO_VERDICT
        cells = [str(seed), fp, verdict] + [old.get(c, "") if kept else "" for c in extra]
        lines.append("\t".join(cells))
    return "\n".join(lines) + "\n"


def write(directory: Path | str | None = None, seeds: Iterable[int] = SEEDS) -> list[Path]:
    """Regenerate every variant's file in ``directory`` (default: the catalogue); the paths."""
    folder = Path(directory if directory is not None else catalogue_dir())
    folder.mkdir(parents=True, exist_ok=True)
    seeds = list(seeds)
    written = []
    for key in variant_keys():
        path = catalogue_file(key, folder)
        old = read_rows(key, folder) if path.exists() else {}
        path.write_text(render(key, compute(key, seeds), old), encoding="utf-8")
        written.append(path)
    return written


def check(directory: Path | str | None = None) -> list[str]:
    """Every disagreement between the engine and the catalogue, one line each (none: ok)."""
    folder = Path(directory if directory is not None else catalogue_dir())
    problems: list[str] = []
    keys = variant_keys()
    for key in keys:
        path = catalogue_file(key, folder)
        if not path.exists():
            problems.append(f"{key}: no catalogue file {path}")
            continue
        try:
            meta, _ = read_table(path)
            expected = expected_fingerprints(key, folder)
        except ValueError as exc:
            problems.append(f"{key}: {exc}")
            continue
        version = meta.get("deal_version")
        if version is not None and version != str(DEAL_VERSION):
            problems.append(f"{key}: {path.name} was made with deal_version {version}; "
                            f"the engine deals version {DEAL_VERSION}")
        actual = compute(key, sorted(set(SEEDS) | set(expected)))
        for seed in sorted(actual):
            want = expected.get(seed)
            if want is None:
                problems.append(f"{key}: seed {seed} is missing from {path.name}")
            elif want != actual[seed]:
                problems.append(f"{key}: seed {seed} deals {actual[seed]}, "
                                f"{path.name} says {want}")
    for path in sorted(folder.glob("*.tsv")):
        if path.stem not in keys:
            problems.append(f"{path.name}: there is no variant {path.stem!r}")
    return problems


def parse_seed_range(text: str, limit: int = 10_000_000) -> list[int]:
    """``1-1000``, ``7``, ``1-10,20,30-40`` → the seeds, in order, without repeats.

    Raises ValueError with a message that says what to type; the CLI turns it into a usage
    error of the option that took it (--seeds)."""
    out: list[int] = []
    seen: set[int] = set()
    for part in str(text).replace(" ", "").split(","):
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        if not (lo.isascii() and lo.isdigit() and (not sep or (hi.isascii() and hi.isdigit()))):
            raise ValueError(f"{part!r} is not a seed range: write whole numbers from 0, e.g. "
                             f"1-20, 7 or 1-10,20")
        a = int(lo)
        b = int(hi) if sep else a
        if b < a:
            raise ValueError(f"{part!r} runs backwards: write the smaller seed first, "
                             f"e.g. {b}-{a}")
        if a < 0 or b > 2**32 - 1:
            raise ValueError(f"{part!r}: seeds run from 0 to {2**32 - 1}")
        if b - a + 1 + len(out) > limit:
            raise ValueError(f"{text!r} names more than {limit} seeds")
        for s in range(a, b + 1):
            if s not in seen:
                seen.add(s)
                out.append(s)
    if not out:
        raise ValueError(f"{text!r} names no seed: write e.g. 1-20")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.seeds",
        description="The seeds catalogue: fingerprints of every variant's deals for seeds 1-100.")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true",
                      help="regenerate every variant's file (after a deliberate DEAL_VERSION bump)")
    mode.add_argument("--check", action="store_true",
                      help="verify the files against the engine; exit 1 listing the mismatches")
    parser.add_argument("dir", nargs="?", default=None,
                        help=f"the catalogue folder (default: {catalogue_dir()})")
    args = parser.parse_args(argv)
    if args.write:
        for path in write(args.dir):
            print(f"wrote {path}")
        return 0
    problems = check(args.dir)
    for line in problems:
        print(line, file=sys.stderr)
    if problems:
        print(f"{len(problems)} mismatch(es): the deals changed. If that is deliberate, bump "
              f"DEAL_VERSION and run `make seeds`.", file=sys.stderr)
        return 1
    print(f"ok: {len(variant_keys())} variants x {len(SEEDS)} seeds match the catalogue")
    return 0


if __name__ == "__main__":
    sys.exit(main())

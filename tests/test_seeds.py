"""The seeds catalogue: seeded deals never change by accident, and seeds/README.md is exact.

The second half reimplements the documented algorithm from seeds/README.md (SplitMix64,
Fisher-Yates with rejection sampling, the deal plans, the canonical JSON) without importing the
engine's shuffle, and checks that it deals what the engine deals.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from companion import seeds
from companion.cards import code_json
from companion.rules import deal, deck_order, load_variant, variant_keys

KEYS = variant_keys()


# -- the catalogue -----------------------------------------------------------------------------

@pytest.mark.parametrize("key", KEYS)
def test_every_variant_has_a_catalogue_file(key):
    path = seeds.catalogue_file(key)
    assert path.is_file(), f"{key} has no {path}: run `make seeds` once for a new variant"


@pytest.mark.parametrize("key", KEYS)
def test_fingerprints_of_seeds_1_to_100_are_unchanged(key):
    expected = seeds.expected_fingerprints(key)
    assert sorted(expected) == list(range(1, 101))
    actual = seeds.compute(key)
    changed = [s for s in expected if expected[s] != actual[s]]
    assert not changed, (
        f"{key}: the deals of seeds {changed[:10]}{' ...' if len(changed) > 10 else ''} "
        f"changed. Undo the change, or bump DEAL_VERSION on purpose and run `make seeds`.")


def test_no_catalogue_file_for_an_unknown_variant():
    stray = [p.name for p in seeds.catalogue_dir().glob("*.tsv") if p.stem not in KEYS]
    assert not stray


def test_the_committed_catalogue_checks_clean():
    assert seeds.check() == []


def test_rewriting_keeps_verdicts_and_extra_columns(tmp_path):
    seeds.write(tmp_path, seeds=range(1, 4))
    path = tmp_path / "klondike.tsv"
    lines = path.read_text(encoding="utf-8").splitlines()
    head = lines.index(seeds.HEADER)
    lines[head] += "\tmoves"
    one = lines[head + 1].split("\t")
    lines[head + 1] = "\t".join([one[0], one[1], "won", "87"])
    two = lines[head + 2].split("\t")
    lines[head + 2] = "\t".join([two[0], "0" * 64, "lost", "12"])  # a stale fingerprint
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    assert seeds.verdicts("klondike", tmp_path) == {1: "won", 2: "lost", 3: "-"}
    seeds.write(tmp_path, seeds=range(1, 4))
    rows = seeds.read_rows("klondike", tmp_path)
    assert (rows[1]["verdict"], rows[1]["moves"]) == ("won", "87")
    assert (rows[2]["verdict"], rows[2]["moves"]) == ("-", "")  # the deal changed: start again
    assert seeds.expected_fingerprints("klondike", tmp_path) == seeds.compute("klondike",
                                                                              range(1, 4))


def test_check_lists_mismatches_and_missing_files(tmp_path, capsys):
    seeds.write(tmp_path)
    assert seeds.main(["--check", str(tmp_path)]) == 0
    path = tmp_path / "golf.tsv"
    path.write_text(path.read_text(encoding="utf-8").replace(
        seeds.compute("golf", [5])[5], "f" * 64), encoding="utf-8")
    (tmp_path / "wish.tsv").unlink()
    assert seeds.main(["--check", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "golf: seed 5 deals" in err
    assert "wish: no catalogue file" in err


# -- an independent reimplementation of seeds/README.md ----------------------------------------

M64 = (1 << 64) - 1
RANKS = "A23456789TJQK"


def ref_deck(decks: int, ranks: str = RANKS) -> list[str]:
    """The fresh deck: per copy, suits S H D C, ranks A..K (only ``ranks``)."""
    return [r + s for _ in range(decks) for s in "SHDC" for r in RANKS if r in ranks]


def ref_shuffle(cards: list[str], seed: int, stream: int = 0) -> list[str]:
    state = (seed + stream * 2**32) & M64

    def nxt() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(n: int) -> int:
        limit = 2**64 - 2**64 % n
        while (r := nxt()) >= limit:
            pass
        return r % n

    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def ref_position(key: str, seed: int) -> dict:
    """Klondike's or Spider's dealt position as JSON, built from the README alone."""
    if key in ("klondike", "solitaire"):
        deck = ref_shuffle(ref_deck(1), seed)
        names = [f"t{i}" for i in range(1, 8)] + [f"f{i}" for i in range(1, 5)] + ["s", "w"]
    elif key == "spider":
        deck = ref_shuffle(ref_deck(2), seed)
        names = [f"t{i}" for i in range(1, 11)] + [f"f{i}" for i in range(1, 9)] + ["s"]
    else:
        raise ValueError(key)
    piles: dict[str, list[str]] = {n: [] for n in names}
    down = dict.fromkeys(names, 0)
    top = iter(deck)

    def put(name: str, face: str) -> None:
        piles[name].append(next(top))
        if face == "down":
            down[name] += 1

    tableau = [n for n in names if n[0] == "t"]
    if key == "spider":
        for _ in range(4):                       # rows t x 4, face down
            for t in tableau:
                put(t, "down")
        for t in tableau[:4]:                    # row t1-t4, face down
            put(t, "down")
        for t in tableau:                        # row t, face up
            put(t, "up")
    else:
        for k, t in enumerate(tableau):          # triangle t
            put(t, "up")
            for later in tableau[k + 1:]:
                put(later, "down")
    rest = list(top)
    piles["s"] = rest[::-1]                      # the next card on top
    down["s"] = len(rest)
    return {
        "variant": key,
        "options": load_variant(key).changed_options(),
        "seed": seed,
        "deal_version": 1,
        "piles": {n: {"cards": piles[n], "face_down": down[n]} for n in names},
        "state": {"pass": 1, "idle": False},
    }


def ref_fingerprint(obj: dict) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


SAMPLE_SEEDS = [0, 1, 2, 7, 42, 100, 2**31, 2**32 - 1]


@pytest.mark.parametrize("key", ["klondike", "spider", "wish"])
@pytest.mark.parametrize("seed", SAMPLE_SEEDS)
def test_reimplemented_shuffle_gives_the_engine_deck_order(key, seed):
    v = load_variant(key)
    mine = ref_shuffle(ref_deck(v.decks, "".join(r[0] if r != "10" else "T"
                                                 for r in v.ranks) or RANKS), seed)
    assert [code_json(c) for c in deck_order(v, seed)] == mine


def test_reimplemented_redeal_stream_gives_the_engine_shuffle():
    from companion.rules import shuffled  # the stream argument, as Gaps' redeals use it
    cards = ref_deck(1)
    codes = list(range(52))
    for seed, stream in [(1, 1), (1, 2), (99, 1), (2**32 - 1, 3)]:
        assert [code_json(c) for c in shuffled(codes, seed, stream)] == \
            ref_shuffle(cards, seed, stream)


@pytest.mark.parametrize("key", ["klondike", "solitaire", "spider"])
@pytest.mark.parametrize("seed", [1, 2, 3, 50, 100, 123456])
def test_reimplemented_deal_gives_the_engine_fingerprint(key, seed):
    mine = ref_position(key, seed)
    engine = deal(key, seed)
    # the position's JSON lists every option; the fingerprint only those that differ
    assert engine.to_json() == mine | {"options": dict(load_variant(key).options)}
    assert engine.fingerprint() == ref_fingerprint(mine)


def test_readme_worked_example_is_right():
    text = (seeds.catalogue_dir() / "README.md").read_text(encoding="utf-8")
    first = ref_shuffle(ref_deck(1), 1)[:10]
    assert " ".join(first) == "7H 9S 4H 8D 8H 5C JH 6H 9C JS"
    assert "(" + " ".join(first) + ")" in text
    fp = ref_fingerprint(ref_position("klondike", 1))
    assert fp == seeds.expected_fingerprints("klondike")[1]
    assert fp in text
    canonical = json.dumps(ref_position("klondike", 1), sort_keys=True, separators=(",", ":"))
    assert canonical in text

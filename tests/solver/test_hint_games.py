"""`companion hint GAME_ID` on games the recorder saved, and the reasons "the only move that
keeps the game winnable" / "the only move that won in any sample" (claimed only with proofs)."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
from solverhelp import made, naive

from companion.cards import CARDS, Card
from companion.rules import DEAL_VERSION, deal


# Imported when a test runs, not at collection: tests/record checks the recorder without a
# solver by hiding companion.solver.hints, which an import at collection would defeat.
def hint(*args, **kwargs):
    from companion.solver.hints import hint as _hint
    return _hint(*args, **kwargs)

ROW = "ah kd 2s qc 3d 4c 5h"  # the seven face-up cards of a physical Klondike layout
ONLY_WINNABLE = "the only move that keeps the game winnable"
ONLY_SAMPLE = "the only move that won in any sample"


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def typed(run):
    """``run`` with standard input: ``typed(stdin, *args)``."""
    def _typed(stdin: str, *args: str):
        return run(*args, stdin=stdin)
    return _typed


def dump(db: str) -> list[str]:
    """Everything the database holds, as SQL text."""
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def golf(tableau: dict[str, str], stock: str = "") -> object:
    """A late Golf position: ``tableau`` as given, the stock (face down, in its first pass)
    as given, every other card already on the waste under 5♠."""
    used = {Card.parse(t).code for t in " ".join([*tableau.values(), stock, "5s"]).split()}
    rest = " ".join(CARDS[c].text(False) for c in range(52) if c not in used)
    piles: dict = {**tableau, "w": f"{rest} 5s"}
    if stock:
        piles["s"] = (stock, len(stock.split()))
    return made("golf", piles)


# 4♦ 5♣ 6♥ 7♣ clears the tableau from 5♠; 6♥ first strands 7♣ or 4♦.
ONE_WINNER = {"t1": "4d", "t2": "6h", "t3": "7c 5c"}
# 4♦ 5♣ 6♥ and 6♥ 5♣ 4♦ both clear it.
TWO_WINNERS = {"t1": "4d", "t2": "6h", "t3": "5c"}


def winning_moves(pos) -> set[str]:
    """The legal moves after which the position is won, by plain exhaustive search."""
    out = set()
    for m in pos.raw_moves():
        q = pos.copy()
        q.push_raw(m)
        verdict = naive(q)
        assert verdict is not None
        if verdict == "won":
            out.add(pos.engine.text(m))
    return out


# -- the reasons --------------------------------------------------------------------------------

def test_the_only_move_that_keeps_the_game_winnable_is_said_so():
    pos = golf(ONE_WINNER)
    assert winning_moves(pos) == {"t1 w"} and len(pos.raw_moves()) == 2
    h = hint(pos, seconds=10, symbols=False)
    assert h.move == "t1 w" and h.verdict == "won" and h.only == "winnable"
    assert h.reason == f"4d from t1 onto 5s; {ONLY_WINNABLE}"
    assert "the other legal move was proved lost" in h.basis
    assert f"Hint: t1 w: 4d from t1 onto 5s; {ONLY_WINNABLE}." in h.text()


def test_two_winning_moves_claim_nothing():
    pos = golf(TWO_WINNERS)
    assert winning_moves(pos) == {"t1 w", "t2 w"}
    h = hint(pos, seconds=10)
    assert h.verdict == "won" and h.move in {"t1 w", "t2 w"}
    assert h.only is None and "only" not in h.reason and "proved lost" not in h.basis


def test_the_claim_needs_its_proof_within_the_budget():
    # A budget too small to prove the alternatives lost: no claim, whatever the truth.
    pos = golf(ONE_WINNER)
    h = hint(pos, seconds=1e-9)
    assert "only" not in h.reason


def winnable_golf(rng: random.Random):
    """A random open Golf position with a winning line: a walk of cards one rank apart from
    the waste's top card, stacked on two to four piles so that the walk clears them."""
    rank = rng.randrange(13)
    first = rng.randrange(4) * 13 + rank
    used, walk = {first}, []
    for _ in range(rng.randint(3, 8)):
        near = [s * 13 + r for r in (rank - 1, rank + 1) if 0 <= r < 13 for s in range(4)
                if s * 13 + r not in used]
        if not near:
            break
        card = rng.choice(near)
        used.add(card)
        walk.append(card)
        rank = card % 13
    names = rng.sample(range(1, 8), rng.randint(2, 4))
    piles: dict[int, list[int]] = {}
    for card in reversed(walk):  # the walk's first card ends on top
        piles.setdefault(rng.choice(names), []).append(card)
    tableau = {f"t{t}": " ".join(CARDS[c].text(False) for c in cs) for t, cs in piles.items()}
    waste = [c for c in range(52) if c not in used] + [first]
    return made("golf", {**tableau, "w": " ".join(CARDS[c].text(False) for c in waste)})


def test_claimed_exactly_when_one_move_wins_on_random_open_positions():
    rng = random.Random(7)
    seen = {"claimed": 0, "several": 0}
    for _ in range(40):
        pos = winnable_golf(rng)
        if pos.outcome() is not None or len(pos.raw_moves()) < 2:
            continue
        h = hint(pos, seconds=10)
        winners = winning_moves(pos)
        # Tiny positions: the search decides every move well within the budget.
        assert (h.only == "winnable") == (len(winners) == 1), (pos.to_json(), h.reason)
        if h.only == "winnable":
            seen["claimed"] += 1
            assert winners == {h.move} and ONLY_WINNABLE in h.reason
        elif len(winners) > 1:
            seen["several"] += 1
            assert "only" not in h.reason
    assert seen["claimed"] and seen["several"]  # both cases were exercised


def test_with_samples_only_the_move_that_won_in_any_sample():
    # The stock's two cards are unseen; whatever their order, only t1 w wins.
    pos = golf(ONE_WINNER, stock="10h qd")
    h = hint(pos, samples=4, seconds=10, rng_seed=1, symbols=False)
    assert h.samples == 4 and h.undecided == 0 and h.only == "samples"
    assert h.reason == f"4d from t1 onto 5s; {ONLY_SAMPLE}"
    assert "2 other legal moves lost in every sample" in h.basis
    assert h.verdict == "unknown"  # samples estimate; they prove nothing about the real deal
    two = hint(golf(TWO_WINNERS, stock="10h qd"), samples=4, seconds=10, rng_seed=1)
    assert two.wins == 4 and two.only is None and "only" not in two.reason


# -- hint GAME_ID ---------------------------------------------------------------------------------

def test_hint_for_a_saved_seeded_game_reads_it_and_leaves_it_alone(run, typed, db):
    code, _, _ = typed("t1 t7\ns\n", "play", "klondike", "--seed", "1", "--db", db, "-q")
    assert code == 0
    before = dump(db)
    code, out, err = run("hint", "1", "--db", db, "--samples", "2", "--timeout", "0.5",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    here = deal("klondike", 1)
    for m in ("t1 t7", "s"):
        here.play(m)
    assert data["game"] == 1 and data["moves_played"] == 2 and not data["peeked"]
    assert here.check(data["move"]).ok
    # It sampled what the player has not seen: 21 face-down cards and the 21 in the stock.
    assert "42 unseen cards" in data["basis"]
    code, out, _ = run("--ascii", "hint", "1", "--db", db, "--peek", "--timeout", "1")
    assert code == 0 and out.startswith("Game 1: Klondike (klondike), seed 1, after 2 moves")
    assert "\nHint: " in out and "--peek" in out
    assert dump(db) == before


def test_a_physical_game_is_hinted_from_what_was_named_and_cannot_be_peeked_at(run, typed,
                                                                              db):
    code, _, _ = typed(f"{ROW}\nstart\nt4 t2\njs\n", "play", "klondike", "--physical",
                       "--db", db, "-q")
    assert code == 0
    before = dump(db)
    code, out, _ = run("hint", "1", "--db", db, "--samples", "2", "--timeout", "0.5",
                       "--json")
    data = json.loads(out)
    assert code == 0 and not data["peeked"]
    assert f"{52 - 8} unseen cards" in data["basis"]  # the eight cards named so far are seen
    code, _, err = run("hint", "1", "--db", db, "--peek")
    assert code == 2 and "--peek" in err and "shuffled yourself" in err
    assert dump(db) == before


def test_hint_by_id_and_in_play_give_the_proved_reason(run, typed, db):
    from companion.record.store import Store
    with Store(db) as store:
        gid = store.create_game(variant="golf", options={}, seed=None,
                                deal_version=DEAL_VERSION,
                                start=json.dumps(golf(ONE_WINNER).to_json()))
    before = dump(db)
    code, out, _ = run("--ascii", "hint", str(gid), "--db", db, "--timeout", "10")
    assert code == 0 and f"Hint: t1 w: 4d from t1 onto 5s; {ONLY_WINNABLE}." in out
    assert dump(db) == before
    code, out, _ = typed("hint\nquit\n", "--ascii", "resume", str(gid), "--db", db, "-q")
    assert f"t1 w: 4d from t1 onto 5s; {ONLY_WINNABLE}" in out


def test_unknown_ids_variants_and_mixed_options_are_refused_with_what_to_type(run, typed, db):
    code, out, err = run("hint", "1", "--db", db)
    assert code == 1 and "no game database" in err and "companion play" in err
    typed("t1 t7\n", "play", "klondike", "--seed", "1", "--db", db, "-q")
    code, _, err = run("hint", "7", "--db", db)
    assert code == 1 and "no game 7" in err and "companion games" in err
    code, _, err = run("hint", "klondyke", "--seed", "1")
    assert code == 2 and "neither a variant nor a saved game" in err
    assert "companion variants" in err and "companion games" in err and "klondike" in err
    code, _, err = run("hint", "1", "--db", db, "--seed", "3")
    assert code == 2 and "leave out --seed" in err
    code, _, err = run("hint", "klondike", "--seed", "1", "--db", db)
    assert code == 2 and "--db" in err
    typed("ah kd\n", "play", "klondike", "--physical", "--db", db, "-q")  # layout half typed
    code, _, err = run("hint", "2", "--db", db)
    assert code == 1 and "still being set up" in err and "companion resume 2" in err
    assert "Traceback" not in err


def test_a_variant_is_never_taken_for_a_game_nor_a_number_for_a_variant(run, db):
    # No database is needed for a variant; a number never looks a variant up.
    code, out, _ = run("hint", "streets", "--seed", "2", "--timeout", "0.5")
    assert code == 0 and out.startswith("Hint: ")
    code, _, err = run("hint", "2", "--db", db, "--timeout", "0.5")
    assert code == 1 and "no game database" in err

"""PySolFC's numbered deals (``--pysol N``, companion/pysolfc.py): the same cards as PySolFC.

Each deal is checked against pysol-cards' own text rendering of the game, parsed here without
the mapping code, and against published values: PySolFC's game numbers below 32000 are the
Microsoft deals, so Streets and Alleys (dealt like FreeCell) shows MS FreeCell deal 1 and 617
column for column, and the other games deal the same pack order.
"""

from __future__ import annotations

import json
import re

import pytest
from pysol_cards.cards import CardRenderer, createCards
from pysol_cards.deal_game import Game
from pysol_cards.random import MTRandom
from pysol_cards.random_base import RandomBase

from companion import pysolfc
from companion.cards import Card, code_json, code_text
from companion.errors import PositionError, VariantError
from companion.rules import Position, deal, load_variant, start_deck_order
from companion.rules.deal import lay_out

SUPPORTED = {"klondike": "klondike_by_threes", "solitaire": "klondike", "golf": "golf",
             "streets-and-alleys": "streets_and_alleys"}
# small numbers (MS generator) and large ones (Mersenne Twister), both sides of the switch
NUMBERS = [1, 617, 11982, 31999, 32001, 123456, 2**31 + 5, 10**20 - 1]

# MS FreeCell deals 1 and 617, the rows as published (e.g. Rosetta Code, "Deal cards for
# FreeCell"): dealt left to right, eight cards a row.
MS_DEALS = {
    1: """JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C
          4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC
          6S 9C 2H 6H""",
    617: """7D AD 5C 3S 5S 8C 2D AH TD 7S QD AC 6D 8H AS KH TH QC 3H 9D 6S 8D 3D TC
            KD 5H 9S 3C 8S 7H 4D JS 4C QS 9C 9H 7C 6H 2C 2S 4S TS 2H 5D JC 6C JH QH
            JD KS KC 4H""",
}


def card(text: str) -> int:
    return Card.parse(text.strip("<>")).code


def parse_pysol_text(text: str) -> dict:
    """pysol-cards' rendering: {"talon": next card first, "foundations": [...], "columns":
    [[(card, face_down), ...] bottom first]}."""
    out: dict = {"talon": [], "foundations": [], "columns": []}
    for line in text.splitlines():
        if line.startswith("Talon:"):
            out["talon"] = [card(t) for t in line.split()[1:]]
        elif line.startswith("Foundations:"):
            out["foundations"] = [card(t) for t in line.split()[1:]]
        else:
            out["columns"].append([(card(t), t.startswith("<")) for t in line.split()])
    return out


def pysol_cards_text(key: str, n: int) -> str:
    return Game(SUPPORTED[key], n, RandomBase.DEALS_PYSOLFC).calc_layout_string(
        CardRenderer(True))


def expected_piles(key: str, shown: dict) -> dict[str, tuple[list[int], int]]:
    """Our piles as PySolFC shows them: pile name -> (cards bottom first, face down)."""
    piles = {f"t{k}": ([c for c, _ in col], sum(down for _, down in col))
             for k, col in enumerate(shown["columns"], 1)}
    if key in ("klondike", "solitaire", "golf"):
        # the stock is a pile bottom first: its top card is the talon's next card
        piles["s"] = (shown["talon"][::-1], len(shown["talon"]))
    if key == "golf":
        piles["w"] = (shown["foundations"], 0)
    return piles


def actual_piles(pos) -> dict[str, tuple[list[int], int]]:
    return {name: (list(pos.piles[i]), pos.down[i]) for i, name in enumerate(pos.engine.names)
            if pos.piles[i]}


@pytest.mark.parametrize("n", NUMBERS)
@pytest.mark.parametrize("key", list(SUPPORTED))
def test_the_deal_is_the_one_pysol_cards_renders(key, n):
    pos = pysolfc.deal(load_variant(key), n)
    assert actual_piles(pos) == expected_piles(key, parse_pysol_text(pysol_cards_text(key, n)))
    assert pos.pysol == n and pos.seed is None and pos.is_valid()
    assert pos.pass_no == 1 and not pos.idle


def test_the_variants_offered_are_those_pysol_cards_lays_out():
    assert set(pysolfc.GAMES) == set(SUPPORTED)
    assert all(pysolfc.GAMES[k][0] == SUPPORTED[k] for k in SUPPORTED)
    assert all(pysolfc.GAMES[k][0] in Game.GAMES_MAP for k in SUPPORTED)


def ms_order(n: int) -> list[int]:
    return [card(t) for t in MS_DEALS[n].split()]


@pytest.mark.parametrize("n", sorted(MS_DEALS))
def test_streets_and_alleys_shows_the_ms_freecell_deal_column_for_column(n):
    pos = pysolfc.deal(load_variant("streets-and-alleys"), n)
    order = ms_order(n)
    for k in range(8):
        assert list(pos.pile(f"t{k + 1}")) == order[k::8]


@pytest.mark.parametrize("n", sorted(MS_DEALS))
def test_golf_and_klondike_deal_the_ms_pack_in_pysolfcs_order(n):
    order = ms_order(n)
    golf = pysolfc.deal(load_variant("golf"), n)
    for k in range(7):   # five rows left to right, then one card teed off
        assert list(golf.pile(f"t{k + 1}")) == order[:35][k::7]
    assert list(golf.pile("w")) == [order[35]]
    assert list(golf.pile("s"))[::-1] == order[36:]
    for key in ("klondike", "solitaire"):
        pos = pysolfc.deal(load_variant(key), n)
        # PySolFC deals Klondike right to left: a face-down round to t2-t7, then t3-t7 ...,
        # then the face-up row to t7-t1; the rest is the talon
        rounds = [range(7, i, -1) for i in range(1, 7)] + [range(7, 0, -1)]
        piles: dict[int, list[int]] = {k: [] for k in range(1, 8)}
        rest = list(order)
        for r in rounds:
            for k in r:
                piles[k].append(rest.pop(0))
        assert [list(pos.pile(f"t{k}")) for k in range(1, 8)] == [piles[k] for k in range(1, 8)]
        assert [pos.face_down(f"t{k}") for k in range(1, 8)] == list(range(7))
        assert list(pos.pile("s"))[::-1] == rest


def test_game_32000_is_dealt_by_the_mersenne_twister_as_pysolfc_deals_it():
    # PySolFC's construct_random gives game 32000 the Mersenne Twister; pysol-cards' Game
    # keeps the MS generator up to 32000 inclusive, so this one number is not its text
    pack = createCards(1)
    MTRandom(32000).shuffle(pack)
    order = [Card.parse(f"{'0A23456789TJQK'[c.rank]}{'CSHD'[c.suit]}").code
             for c in reversed(pack)]
    pos = pysolfc.deal(load_variant("streets-and-alleys"), 32000)
    for k in range(8):
        assert list(pos.pile(f"t{k + 1}")) == order[k::8]
    shown = parse_pysol_text(pysol_cards_text("streets-and-alleys", 32000))
    assert [c for c, _ in shown["columns"][0]] != list(pos.pile("t1"))


@pytest.mark.parametrize("n", [1, 617, 123456, 10**20 - 1])
@pytest.mark.parametrize("key", list(SUPPORTED))
def test_the_pack_order_deals_the_layout_by_our_plan(key, n):
    v = load_variant(key)
    pos = pysolfc.deal(v, n)
    order = start_deck_order(pos)
    assert sorted(order) == list(range(52))
    piles, down = lay_out(v, order)
    assert [tuple(p) for p in piles] == list(pos.piles) and down == pos.down


def test_options_do_not_change_the_cards():
    plain = pysolfc.deal(load_variant("klondike"), 99)
    one = pysolfc.deal(load_variant("klondike", {"draw": 1}), 99)
    assert plain.piles == one.piles == pysolfc.deal(load_variant("solitaire"), 99).piles


@pytest.mark.parametrize("key", ["spider", "forty-thieves", "pyramid", "harp", "gaps"])
def test_a_variant_pysol_cards_does_not_lay_out_is_refused_naming_those_it_does(key):
    with pytest.raises(VariantError, match="klondike, solitaire, golf and streets-and-alleys"):
        pysolfc.deal(load_variant(key), 5)


@pytest.mark.parametrize("n", [0, -1, 10**20])
def test_numbers_pysolfc_does_not_deal_are_refused(n):
    with pytest.raises(VariantError, match="from 1 to 99999999999999999999"):
        pysolfc.deal(load_variant("golf"), n)


# -- the position and its JSON -----------------------------------------------------------------

def test_the_json_keeps_the_game_number_and_seeded_json_is_unchanged():
    pos = pysolfc.deal(load_variant("golf"), 2**31 + 5)
    data = pos.to_json()
    assert data["pysol"] == 2**31 + 5 and data["seed"] is None
    back = Position.from_json(json.loads(json.dumps(data)), validate=True)
    assert back.pysol == pos.pysol and back == pos and back.fingerprint() == pos.fingerprint()
    assert back.copy().pysol == pos.pysol and back.deal_name == "PySolFC game 2147483653"
    seeded = deal("golf", 7).to_json()
    assert "pysol" not in seeded   # the seeds catalogue's fingerprints hash this form
    assert set(seeded) == {"variant", "options", "seed", "deal_version", "piles", "state"}


@pytest.mark.parametrize("bad", [0, -3, 10**20, "5", 1.5, True])
def test_a_bad_game_number_in_json_is_refused(bad):
    data = pysolfc.deal(load_variant("golf"), 3).to_json()
    data["pysol"] = bad
    with pytest.raises(PositionError, match="'pysol' must be a PySolFC game number"):
        Position.from_json(data)


def test_json_with_a_seed_and_a_game_number_is_refused():
    data = pysolfc.deal(load_variant("golf"), 3).to_json()
    data["seed"] = 3
    with pytest.raises(PositionError, match="not both"):
        Position.from_json(data)


# -- the commands -------------------------------------------------------------------------------

def test_deal_draws_pysolfcs_game_and_says_what_pysolfc_turns_first(run):
    code, out, _ = run("--ascii", "deal", "klondike", "--pysol", "617")
    assert code == 0
    assert out.startswith("Klondike (klondike), PySolFC game 617\n")
    assert "PySolFC turns the first 3 cards of the stock onto the waste" in out
    code, out, _ = run("--ascii", "deal", "solitaire", "--pysol", "#617")
    assert code == 0 and "the first card of the stock" in out
    code, out, _ = run("--ascii", "deal", "golf", "--pysol", "1")
    assert code == 0 and "w 10h" in out and "PySolFC turns" not in out


def test_deal_json_has_the_game_number_and_the_pack_order(run):
    code, out, _ = run("deal", "streets-and-alleys", "--pysol", "123456", "--json")
    data = json.loads(out)
    pos = pysolfc.deal(load_variant("streets-and-alleys"), 123456)
    assert code == 0 and data["pysol"] == 123456 and data["seed"] is None
    assert data["fingerprint"] == pos.fingerprint()
    assert data["deck_order"] == [code_json(c) for c in start_deck_order(pos)]


@pytest.mark.parametrize("args, said", [
    (("deal", "klondike", "--pysol", "5", "--seed", "5"), "either --seed or --pysol, not both"),
    (("deal", "klondike", "--pysol", "0"), "from 1 to 99999999999999999999"),
    (("deal", "klondike", "--pysol", "-5"), "from 1 to 99999999999999999999"),
    (("deal", "klondike", "--pysol", str(10**20)), "from 1 to 99999999999999999999"),
    (("deal", "klondike", "--pysol", "game5"), "not a PySolFC game number"),
    (("deal", "spider", "--pysol", "5"),
     "lays out only klondike, solitaire, golf and streets-and-alleys"),
    (("moves", "klondike", "--pysol", "5", "--position", "p.json"),
     "either --pysol or --position, not both"),
    (("solve", "klondike", "--pysol", "5", "--seed", "1"), "--pysol N is PySolFC's game N"),
    (("hint", "golf", "--pysol", "5", "--photo", "x.jpg"), "either --pysol or --photo"),
    (("hint", "3", "--pysol", "5"), "leave out --pysol"),
    (("play", "golf", "--pysol", "5", "--physical"), "either --pysol or --physical"),
    (("play", "golf", "--pysol", "5", "--seed", "2"), "either --seed or --pysol"),
    (("play", "pyramid", "--pysol", "5"), "Use --seed N for companion's own numbered deals"),
    (("sheet", "golf", "--pysol", "5", "--seeds", "1-3"), "leave out --seeds"),
    (("sheet", "golf", "--pysol", "5", "--all-variants"), "leave out --all-variants"),
    (("sheet", "golf", "--pysol", "5", "--seed", "2"), "either --seed or --pysol"),
    (("sheet", "gaps", "--pysol", "5"), "gaps has no PySolFC numbered deal here"),
])
def test_usage_errors_say_what_to_type(run, args, said):
    code, out, err = run(*args)
    assert code == 2 and said in " ".join(err.split()), err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("command, extra", [
    ("moves", []), ("solve", ["--nodes", "20000"]),
    ("hint", ["--samples", "2", "--timeout", "0.3"])])
def test_moves_solve_and_hint_take_the_pysolfc_deal(run, command, extra):
    code, out, _ = run(command, "golf", "--pysol", "617", "--json", *extra)
    data = json.loads(out)
    assert data["pysol"] == 617 and data["seed"] is None
    if command == "moves":
        assert code == 0
        assert data["position"] == pysolfc.deal(load_variant("golf"), 617).to_json()


def test_solve_writes_a_line_that_check_replays_from_the_game_number(run, tmp_path):
    line = tmp_path / "line.txt"
    code, _, err = run("solve", "solitaire", "--pysol", "123456", "--moves-file", str(line),
                       "--format", "line")
    assert code == 0
    assert "companion check solitaire --pysol 123456 --moves-file" in err
    code, out, _ = run("check", "solitaire", "--pysol", "123456", "--moves-file", str(line),
                       "-q")
    assert code == 0 and out.rstrip().endswith("Won.")


def test_play_records_the_game_number_for_resume_show_replay_export_and_import(run, tmp_path):
    db = str(tmp_path / "g.sqlite3")
    pos = pysolfc.deal(load_variant("solitaire"), 123456)
    first = pos.pile("s")[-1]   # the stock's top: the card PySolFC shows on its waste
    code, out, _ = run("--ascii", "play", "solitaire", "--pysol", "123456", "--db", db, "-q",
                       stdin="s\nquit\n")
    assert code == 0 and "Solitaire (solitaire), PySolFC game 123456: game 1" in out
    assert f"as PySolFC game 123456 deals it: w: {code_text(first, False)}" in out
    code, out, _ = run("games", "--db", db)
    assert "PySolFC 123456" in out
    code, out, _ = run("games", "--db", db, "--json")
    row = json.loads(out)[0]
    assert row["pysol"] == 123456 and row["physical"] is False and row["seed"] is None
    code, out, _ = run("--ascii", "resume", "1", "--db", db, "-q", stdin="s\nquit\n")
    assert code == 0 and "PySolFC game 123456: game 1, 1 move played" in out
    code, out, _ = run("show", "1", "--db", db, "--at", "0", "--json")
    assert json.loads(out)["position"] == pos.to_json()
    code, out, _ = run("replay", "1", "--db", db, "--no-step")
    assert code == 0 and "PySolFC game 123456, 2 moves" in out
    code, out, _ = run("hint", "1", "--db", db, "--peek", "--timeout", "0.5")
    assert code == 0 and "PySolFC game 123456" in out
    code, record, _ = run("export", "1", "--db", db)
    assert '[Seed "PySolFC 123456"]' in record and "[Start" not in record
    path = tmp_path / "r.txt"
    path.write_text(record, encoding="utf-8")
    other = str(tmp_path / "h.sqlite3")
    code, out, _ = run("import", str(path), "--db", other, "--json")
    assert code == 0 and json.loads(out)["pysol"] == 123456
    code, out, _ = run("show", "1", "--db", other, "--at", "0", "--json")
    assert json.loads(out)["position"] == pos.to_json()
    code, _, err = run("import", str(path), "--db", other)
    assert code == 1 and "PySolFC game 123456" in err and "already stored" in err


@pytest.mark.parametrize("seed, said", [
    ("PySolFC 0", "from 1 to 99999999999999999999"),
    ("PySolFC twelve", "not a PySolFC game number"),
])
def test_a_record_with_a_bad_game_number_says_so(run, tmp_path, seed, said):
    path = tmp_path / "r.txt"
    path.write_text(f'[Variant "golf"]\n[Seed "{seed}"]\n\n1. t1 w\n', encoding="utf-8")
    code, _, err = run("import", str(path), "--db", str(tmp_path / "g.sqlite3"))
    assert code == 1 and said in err and "line 2" in err


def test_a_record_of_a_variant_without_pysolfc_deals_says_which_have_them(run, tmp_path):
    path = tmp_path / "r.txt"
    path.write_text('[Variant "spider"]\n[Seed "PySolFC 5"]\n\n', encoding="utf-8")
    code, _, err = run("import", str(path), "--db", str(tmp_path / "g.sqlite3"))
    assert code == 1 and "klondike, solitaire, golf and streets-and-alleys" in err


def test_an_old_physical_game_stays_physical(tmp_path):
    from companion.record.store import Store
    with Store(str(tmp_path / "g.sqlite3")) as store:
        start = deal("golf", None)
        gid = store.create_game(variant="golf", options={}, seed=None, deal_version=1,
                                start=json.dumps(start.to_json()))
        row = store.game(gid)
        assert row.physical and row.pysol is None and row.deal_text == "physical"


def test_sheet_is_titled_pysolfc_game_n_and_stacks_the_pack_that_deals_it(run, tmp_path):
    pypdf = pytest.importorskip("pypdf")
    out = tmp_path / "s.pdf"
    code, _, _ = run("sheet", "klondike", "--pysol", "617", "-o", str(out), "--no-play-page")
    assert code == 0
    reader = pypdf.PdfReader(out)
    assert reader.metadata.title == "Klondike, PySolFC game 617"
    frags: list[str] = []
    reader.pages[0].extract_text(visitor_text=lambda text, *_: frags.append(text.strip()))
    assert "Klondike — PySolFC game 617" in frags
    stack = frags[frags.index("Stack the deck"):]
    pack = [Card.parse(t).code for t in stack if re.fullmatch(r"(10|[2-9AJQK])[♠♥♦♣]", t)]
    v = load_variant("klondike")
    pos = pysolfc.deal(v, 617)
    assert pack == start_deck_order(pos)
    piles, down = lay_out(v, pack)
    assert [tuple(p) for p in piles] == list(pos.piles) and down == pos.down
    text = " ".join(" ".join(frags).split())
    assert "companion:klondike:pysol617::" in text.replace(" ", "")


def test_sheet_default_name(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("sheet", "golf", "--pysol", "42", "--no-play-page")
    assert code == 0 and (tmp_path / "golf-pysol42.pdf").is_file()


def test_the_sheet_qr_code_names_the_pysolfc_game():
    from companion.vision.qr import parse_sheet_code
    code = parse_sheet_code("companion:klondike:pysol123456:draw=1:1")
    assert code.pysol == 123456 and code.seed is None
    assert code.describe() == "klondike, PySolFC game 123456 (draw=1)"
    assert parse_sheet_code("companion:klondike:7::1").pysol is None


def test_help_explains_the_number(run):
    for command in ("deal", "play", "sheet", "solve", "hint"):
        code, out, _ = run(command, "--help")
        flat = " ".join(out.split())
        assert code == 0 and "--pysol N" in flat and "PySolFC's game number N" in flat, command
        assert "klondike, solitaire, golf and streets-and-alleys" in flat, command

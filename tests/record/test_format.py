"""The plain-text game record: canonical writing, strict reading, replay of every move."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rechelp import lost_game

from companion.record import RecordError
from companion.record.format import parse_record, read_record, write_record
from companion.rules import deal

HEAD = '[Variant "klondike"]\n[Options ""]\n[Seed "1"]\n[DealVersion "1"]\n' \
       '[Date "2026-05-09 20:31"]\n[Result "*"]\n\n'


def test_write_numbers_moves_and_attaches_reveals():
    text = write_record({"Variant": "klondike", "Seed": "physical", "Result": "*"},
                        ["t4 t2", "t4=js", "s", "w=9s", "w=8d"], {1: ["a {note}"]})
    assert text.splitlines()[-2:] == ["1. t4 t2 {a (note)} t4=js", "2. s w=9s w=8d"]


def test_a_seeded_record_replays_and_canonicalises():
    game = read_record(HEAD + "1. t1 t7\n2. s 3. 6s t7 ; the waste's 6♠\n")
    assert game.entries == [("t1 t7", False), ("s", False), ("w t7", False)]
    assert game.seed == 1 and game.result is None and game.start is None
    assert game.variant == "klondike" and game.options == {}


def test_options_aliases_and_header_order_are_free():
    text = '[Seed "1"]\n[Variant "solitaire"]\n[Options "passes=1"]\n\n1. s\n'
    game = read_record(text)
    assert game.variant == "solitaire" and game.options == {"passes": 1}


def test_a_physical_record_needs_its_start_and_replays_reveals():
    pos = deal("klondike", None)
    for k, card in enumerate(["ah", "kd", "2s", "qc", "3d", "4c", "5h"], 1):
        pos.reveal(f"t{k}", card)
    start = json.dumps(pos.to_json()).replace("\\", "\\\\").replace('"', '\\"')
    head = '[Variant "klondike"]\n[Seed "physical"]\n'
    text = head + f'[Start "{start}"]\n\n1. t4 t2 t4=js\n2. s w=9s w=8d w=7c\n'
    game = read_record(text)
    assert [t for t, _ in game.entries] == ["t4 t2", "t4=js", "s", "w=9s", "w=8d", "w=7c"]
    assert [rev for _, rev in game.entries] == [False, True, False, True, True, True]
    assert json.loads(game.start)["piles"]["t1"]["cards"] == ["AH"]
    with pytest.raises(RecordError, match="needs its Start header"):
        read_record(head + "\n1. s\n")


@pytest.mark.parametrize(("text", "line", "words"), [
    (HEAD + "1. t1 t7\n2. t3 t5\n", 9, "move 2 (t3 t5) does not replay: 2♥ cannot go on K♦"),
    (HEAD + "1. t1 t7\n3. s\n", 9, "move number 2 expected here, not 3"),
    (HEAD + "t1 t7\n", 8, "is not numbered"),
    (HEAD + "1. t1 t7 s\n", 8, "more than one move"),
    (HEAD + "1. s t1=9c\n", 8, "a seeded game has no reveals"),
    (HEAD + "1. s {unclosed\n", 8, "not closed"),
    (HEAD.replace('"klondike"', '"klondyke"'), 1, "klondike"),
    (HEAD.replace('[Seed "1"]', '[Seed "seven"]'), 3, "Seed is a whole number"),
    (HEAD.replace('"1"]\n[Date', '"2"]\n[Date'), 4, "deal version 2"),
    (HEAD.replace('[Options ""]', '[Options "draw"]'), 2, "Options are written name=value"),
    (HEAD.replace('[Options ""]', '[Options "draw=5"]'), 2, "draw"),
    (HEAD.replace('[Result "*"]', '[Result "won"]') + "1. s\n", 6, "Result says won"),
    (HEAD.replace('[Result "*"]', '[Result "maybe"]'), 6, "Result is one of"),
    (HEAD.replace('[Date "2026-05-09 20:31"]', '[Date "last week"]'), 5, "Date is written"),
    ('[Variant klondike]\n', 1, "a header is written"),
    ('[Seed "1"]\n\n1. s\n', 1, "no Variant header"),
    ("1. s\n", 1, "no header block"),
])
def test_bad_records_are_refused_with_the_line(text, line, words):
    with pytest.raises(RecordError) as info:
        read_record(text)
    assert info.value.line == line
    assert words in str(info.value)


def test_a_result_must_match_the_replay():
    seed, moves = lost_game()
    body = "\n".join(f"{n}. {m}" for n, m in enumerate(moves, 1))
    head = (f'[Variant "klondike"]\n[Options "passes=1"]\n[Seed "{seed}"]\n'
            '[Result "{}"]\n\n')
    game = read_record(head.replace("{}", "lost") + body)
    assert game.result == "lost" and game.termination in ("no-moves", "blocked")
    assert read_record(head.replace("{}", "*") + body).result == "lost"
    with pytest.raises(RecordError, match="resigned, but the game is lost"):
        read_record(head.replace("{}", "resigned") + body)


def test_write_then_read_round_trips():
    entries = ["t1 t7", "s", "w t7", "s", "s"]
    text = write_record({"Variant": "klondike", "Options": "", "Seed": "1", "DealVersion": "1",
                         "Date": "2026-05-09 20:31", "Result": "*", "Name": 'Sunday "best"'},
                        entries)
    game = read_record(text)
    assert [t for t, _ in game.entries] == entries
    assert game.name == 'Sunday "best"'
    assert parse_record(text).headers["Date"] == "2026-05-09 20:31"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=300))
def test_any_text_is_read_or_refused_with_a_record_error(text):
    with contextlib.suppress(RecordError):
        read_record(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.integers(0, 400), junk=st.text(max_size=8))
def test_a_mangled_record_is_refused_with_a_record_error(cut, junk):
    text = HEAD + "1. t1 t7\n2. s\n3. w t7\n4. s {ok}\n"
    cut %= len(text) + 1
    with contextlib.suppress(RecordError):
        read_record(text[:cut] + junk + text[cut:])


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=4)
                    | st.sampled_from(["AS", "??", "klondike", "t1", "s"]),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["variant", "piles", "cards", "face_down",
                                                       "t1", "s", "w", "state", "pass",
                                                       "options", "seed", "deal_version"]),
                                      inner, max_size=5), max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=JSON)
def test_any_start_header_is_read_or_refused_with_a_record_error(start):
    value = json.dumps(start).replace("\\", "\\\\").replace('"', '\\"')
    text = f'[Variant "klondike"]\n[Seed "physical"]\n[Start "{value}"]\n\n1. s\n'
    with contextlib.suppress(RecordError):
        read_record(text)

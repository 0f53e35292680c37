"""Bad input a user may give (files that are not text, numbers that are not numbers, positions
that cannot be) is refused with a sentence that names it, never with a traceback."""

from __future__ import annotations

import json

import pytest


def test_a_moves_file_that_is_not_utf8_is_named(run, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"\xff t1 t7\n")
    code, out, err = run("check", "klondike", "--seed", "1", "--moves-file", str(path))
    assert code == 2 and out == ""
    assert "bad.txt is not UTF-8 text" in err and "Internal error" not in err


def test_moves_from_standard_input_that_are_not_utf8_are_named(run):
    code, _, err = run("check", "klondike", "--seed", "1", "--moves-file", "-",
                       stdin=b"\xff t1 t7\n")
    assert code == 2 and "standard input is not UTF-8 text" in err


def test_moves_from_standard_input_are_checked(run):
    code, out, _ = run("check", "klondike", "--seed", "1", "--moves-file", "-", "-q",
                       stdin=b"t1 t7 # first\ns\n")
    assert code == 0 and out.startswith("2 moves legal: t1 t7, s")


@pytest.mark.parametrize("args", [
    ["solve", "klondike", "--seed", "6", "--memory", "nan"],
    ["solve", "klondike", "--seed", "6", "--memory", "inf"],
    ["solve", "klondike", "--seed", "6", "--timeout", "nan"],
    ["hint", "klondike", "--seed", "6", "--timeout", "nan"],
    ["hint", "klondike", "--seed", "6", "--timeout", "-inf"],
    ["survey", "klondike", "--seeds", "1", "--timeout", "nan"],
    ["survey", "klondike", "--seeds", "1", "--timeout", "inf"],
])
def test_numbers_that_are_not_finite_are_usage_errors(run, args, tmp_path):
    code, out, err = run(*args, *(["--out", str(tmp_path / "s.jsonl")]
                                  if args[0] == "survey" else []))
    assert code == 2 and out == ""
    assert "is not a number: use a finite number such as" in err
    assert not (tmp_path / "s.jsonl").exists()


def _position_file(tmp_path, mangle, variant="klondike", seed=1):
    from companion.rules import deal
    data = deal(variant, seed).to_json()
    mangle(data)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    return str(path)


COMMANDS = {"moves": [], "check": ["s"], "solve": ["--nodes", "100"],
            "hint": ["--samples", "2", "--timeout", "0.2"]}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_position_with_a_card_twice_is_refused_naming_it_and_the_one_missing(
        run, tmp_path, command):
    path = _position_file(tmp_path, lambda d: d["piles"]["t1"].update(cards=["6H"]))
    code, out, err = run("--ascii", command, "klondike", "--position", path,
                         *COMMANDS[command])
    assert code == 2 and out == ""
    assert "6h is there twice (in t1, t2), but the deck holds only one" in err
    assert "1 card of the deck is in no pile: 7h" in err


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_position_without_a_pile_is_refused_naming_its_cards(run, tmp_path, command):
    path = _position_file(tmp_path, lambda d: d["piles"].pop("t7"))
    code, _, err = run(command, "klondike", "--position", path, *COMMANDS[command])
    assert code == 2
    assert "7 cards of the deck are in no pile: 3♠, K♠, 10♥, J♥, 4♦, 8♣, 10♣" in err
    assert "the file has no entry for pile t7" in err


@pytest.mark.parametrize(("mangle", "words"), [
    (lambda d: d["piles"]["t1"].update(cards=None), "pile t1: 'cards' must be a list of card"),
    (lambda d: d["piles"]["t1"].update(cards=[7]), "pile t1: 7 is not a card code"),
    (lambda d: d["piles"].update(t1="7H"), "pile t1 must be an object"),
    (lambda d: d["state"].update({"pass": "x"}), "'state.pass' must be a whole number"),
    (lambda d: d["state"].update({"idle": "no"}), "'state.idle' must be true or false"),
    (lambda d: d.update(state=[]), "'state' must be an object"),
    (lambda d: d.update(options=[1]), "'options' must be an object"),
    (lambda d: d.update(variant=None), "'variant' must be a variant's name"),
    (lambda d: d["piles"]["t2"].update(face_down=True), "pile t2: 'face_down' must be"),
])
def test_a_malformed_position_names_the_field_not_python(run, tmp_path, mangle, words):
    code, _, err = run("moves", "klondike", "--position", _position_file(tmp_path, mangle))
    assert code == 2 and words in err
    for leak in ("NoneType", "invalid literal", "object is not", "Internal error"):
        assert leak not in err


def test_a_position_nested_too_deeply_is_refused(run, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    code, _, err = run("moves", "klondike", "--position", str(path))
    assert code == 2 and "nested too deeply" in err


def test_a_bad_card_under_ascii_names_each_suit_once(run):
    code, _, err = run("--ascii", "check", "klondike", "--seed", "1", "Kx")
    assert code == 1
    assert "'x' is not a suit; type a rank (A, 2-9, 10 or T, J, Q, K) then a suit (s h d c)" \
        in err
    assert "s h d c or s h d c" not in err


@pytest.mark.parametrize("args", [["variants", "klondik"], ["deal", "klondik"],
                                  ["hint", "klondik", "--seed", "1"]])
def test_an_unknown_variant_is_said_plainly(run, args):
    code, _, err = run(*args)
    assert code == 2 and "klondike" in err
    assert "Invalid value for" not in err and "'[VARIANT]'" not in err

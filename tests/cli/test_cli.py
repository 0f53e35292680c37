"""The command line as a user drives it: exit codes, messages, and no tracebacks."""

from __future__ import annotations

import json
import shlex

import pytest

from companion.cli import COMMANDS
from companion.rules import Position, deal, variant_keys


def test_help_lists_every_command(run):
    code, out, _ = run("--help")
    assert code == 0
    for name in COMMANDS:
        assert name in out


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_has_help(run, name):
    code, out, _ = run(name, "--help")
    assert code == 0
    assert "Usage: companion " + name in out
    assert "Examples:" in out or name == "variants"


def _help_examples(run, name: str) -> list[list[str]]:
    """The example command lines of ``companion NAME --help``, split as a shell would (a
    comment or a pipe ends a line)."""
    _, out, _ = run(name, "--help")
    lines = out.split("Examples:", 1)[1].split("\n\n", 1)[0].splitlines()
    return [shlex.split(ln.split("|", 1)[0], comments=True) for ln in lines
            if ln.strip().startswith("companion ")]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_examples_play_legal_moves(run, name):
    # a user copies an example from --help: the moves it plays (--after, or check's MOVEs)
    # must be legal in the deal it names, not refused with "cannot go on"
    for argv in _help_examples(run, name):
        if argv[1] not in (name, "check") or "--seed" not in argv:
            continue
        variant, seed = argv[2], argv[argv.index("--seed") + 1]
        opts = [a for i, a in enumerate(argv) if "--option" in argv[i - 1:i + 1]]
        if "--after" in argv:
            moves = [argv[argv.index("--after") + 1]]
        elif argv[1] == "check" and "--moves-file" not in argv:
            moves = [a for a in argv[argv.index("--seed") + 2:] if not a.startswith("-")]
        else:
            continue
        code, _, err = run("check", variant, "--seed", seed, *opts, "-q", *moves)
        assert code == 0, f"{' '.join(argv)}: {err}"


def test_unknown_command_suggests(run):
    code, _, err = run("dael")
    assert code == 2
    assert "deal" in err


def test_version(run):
    code, out, _ = run("--version")
    assert code == 0 and "companion" in out and "Python" in out


def test_variants_lists_all(run):
    code, out, _ = run("variants")
    assert code == 0
    for key in variant_keys():
        assert key in out


def test_variants_json(run):
    code, out, _ = run("variants", "--json")
    data = json.loads(out)
    assert {d["key"] for d in data} == set(variant_keys())
    klondike = next(d for d in data if d["key"] == "klondike")
    assert klondike["decks"] == 1
    assert {o["name"] for o in klondike["options"]} >= {"draw", "foundation_return"}


def test_variant_detail_shows_rules_and_options(run):
    code, out, _ = run("--ascii", "variants", "klondike")
    assert code == 0
    assert "builds down in alternating colours" in out
    assert "draw = 3" in out and "foundation_return = false" in out


def test_alias_resolves(run):
    code, out, _ = run("deal", "napoleon-at-st-helena", "--seed", "3")
    assert code == 0 and "Forty Thieves" in out


def test_deal_draws_piles_and_is_deterministic(run):
    code, out, _ = run("--ascii", "deal", "klondike", "--seed", "1")
    assert code == 0
    for name in ["t1", "t7", "f1", "f4", "s [24]", "w"]:
        assert name in out
    assert "###" in out  # face-down cards drawn as backs
    assert run("--ascii", "deal", "klondike", "--seed", "1")[1] == out


def test_deal_ascii_and_symbols(run):
    sym = run("--no-color", "deal", "klondike", "--seed", "1")[1]
    asc = run("--ascii", "deal", "klondike", "--seed", "1")[1]
    assert "♥" in sym or "♠" in sym or "♦" in sym or "♣" in sym
    assert not any(s in asc for s in "♠♥♦♣")


def test_deal_without_seed_prints_the_seed_it_chose(run):
    code, out, _ = run("deal", "golf")
    assert code == 0 and "seed " in out


def test_deal_json_round_trips(run):
    code, out, _ = run("deal", "spider", "--seed", "9", "--json")
    data = json.loads(out)
    assert data["fingerprint"] == deal("spider", 9).fingerprint()
    assert len(data["deck_order"]) == 104
    pos = Position.from_json(data)
    assert pos.key() == deal("spider", 9).key()


def test_unknown_variant_names_close_matches(run):
    code, _, err = run("deal", "klondyke", "--seed", "1")
    assert code == 2
    assert "klondike" in err and "Traceback" not in err


def test_bad_seed(run):
    code, _, err = run("deal", "klondike", "--seed", "minus")
    assert code == 2 and "seed" in err
    code, _, err = run("deal", "klondike", "--seed", str(2**32))
    assert code == 2 and "out of range" in err


def test_bad_option(run):
    code, _, err = run("deal", "klondike", "--seed", "1", "--option", "draw=2")
    assert code == 2 and "draw" in err and "1, 3" in err
    code, _, err = run("deal", "klondike", "--seed", "1", "--option", "drwa=1")
    assert code == 2 and "draw" in err
    code, _, err = run("deal", "klondike", "--seed", "1", "--option", "draw")
    assert code == 2 and "NAME=VALUE" in err


def test_moves(run):
    code, out, _ = run("moves", "klondike", "--seed", "1")
    assert code == 0
    expected = [str(m) for m in deal("klondike", 1).legal_moves]
    assert out.strip().endswith(", ".join(expected))


def test_moves_after_and_json(run):
    code, out, _ = run("moves", "klondike", "--seed", "1", "--after", "t1 t7, s", "--json")
    data = json.loads(out)
    assert data["after"] == ["t1 t7", "s"]
    pos = deal("klondike", 1)
    pos.play("t1 t7")
    pos.play("s")
    assert data["moves"] == [str(m) for m in pos.legal_moves]


def test_moves_needs_a_position(run):
    code, _, err = run("moves", "klondike")
    assert code == 2 and "--seed" in err


def test_check_legal_sequence(run):
    code, out, _ = run("--ascii", "check", "klondike", "--seed", "1", "t1 t7", "s", "7h t7")
    # 7h is already on t7 after the first move, so the third move is refused
    assert code == 1
    code, out, _ = run("--ascii", "check", "klondike", "--seed", "1", "t1 t7", "s")
    assert code == 0
    assert "2 moves legal: t1 t7, s" in out


def test_check_illegal_move_gives_reason_and_exit_1(run):
    code, out, err = run("check", "klondike", "--seed", "1", "t2 t1")
    assert code == 1
    assert "Move 1 (t2 t1) refused" in err
    assert "Klondike builds down in alternating colours" in err


def test_check_garbage_is_an_error_not_a_traceback(run):
    code, _, err = run("check", "klondike", "--seed", "1", "hello world")
    assert code == 1
    assert "Traceback" not in err and "hello" in err


def test_check_json(run):
    code, out, _ = run("check", "golf", "--seed", "1", "s", "t7 t1", "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False
    assert data["failed"]["index"] == 2 and data["failed"]["reason"]


def test_check_moves_file(run, tmp_path):
    f = tmp_path / "game.txt"
    f.write_text("# my game\nt1 t7\ns   # turn three\n", encoding="utf-8")
    code, out, _ = run("check", "klondike", "--seed", "1", "--moves-file", str(f), "-q")
    assert code == 0 and "2 moves legal" in out


def test_check_position_file(run, tmp_path):
    pos = deal("forty-thieves", 5)
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos.to_json()), encoding="utf-8")
    first = str(next(iter(pos.legal_moves)))
    code, out, _ = run("check", "forty-thieves", "--position", str(f), first)
    assert code == 0


def test_bad_position_files(run, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, _, err = run("moves", "klondike", "--position", str(bad))
    assert code == 2 and "bad.json" in err
    other = tmp_path / "golf.json"
    other.write_text(json.dumps(deal("golf", 1).to_json()), encoding="utf-8")
    code, _, err = run("moves", "klondike", "--position", str(other))
    assert code == 2 and "golf" in err
    code, _, err = run("moves", "klondike", "--position", str(tmp_path / "missing.json"))
    assert code == 2 and "no file" in err
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"variant": "klondike", "piles": {"t9": {"cards": []}}}),
                   encoding="utf-8")
    code, _, err = run("moves", "klondike", "--position", str(odd))
    assert code == 2 and "t9" in err and "Traceback" not in err


def test_seed_and_position_together(run, tmp_path):
    f = tmp_path / "p.json"
    f.write_text(json.dumps(deal("klondike", 1).to_json()), encoding="utf-8")
    code, _, err = run("moves", "klondike", "--seed", "1", "--position", str(f))
    assert code == 2 and "not both" in err


@pytest.mark.parametrize("key", variant_keys())
def test_every_variant_deals_draws_and_lists_moves(run, key):
    code, out, _ = run("--ascii", "deal", key, "--seed", "3")
    assert code == 0 and out.strip()
    code, out, _ = run("moves", key, "--seed", "3", "--json")
    assert code == 0
    assert json.loads(out)["count"] >= 1


def test_rules_text_notation_and_options(run):
    code, out, _ = run("--ascii", "rules", "klondike", "--option", "draw=1")
    assert code == 0
    assert "Klondike (klondike:draw=1)" in out
    assert "builds down in alternating colours" in out
    assert "t3:4 t5" in out and "w t2" in out
    assert "draw = 1 (default 3)" in out


@pytest.mark.parametrize("key", variant_keys())
def test_rules_for_every_variant(run, key):
    code, out, _ = run("rules", key, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["variant"] == key and data["rules"] and data["notation"]


def test_readme_lists_every_variant():
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for key in variant_keys():
        assert f"| `{key}` |" in readme


def test_variants_list_shows_aliases_and_options(run):
    code, out, _ = run("variants")
    assert code == 0
    assert "also napoleon-at-st-helena" in out
    assert "options draw, passes, foundation_return, face_up_block_only" in out

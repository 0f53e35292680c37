"""What a second new-user try of the tool met: each a message that must say what was wrong and
what to type instead, or a file that must land where the player asked."""

from __future__ import annotations

import os

import pytest


@pytest.fixture
def game_db(tmp_path, run):
    db = str(tmp_path / "g.sqlite3")
    assert run("play", "klondike", "--seed", "1", "--db", db, stdin="t1 t7\n")[0] == 0
    return db


@pytest.mark.parametrize(("typed", "advice"), [("3 5", "write t3 t5"), ("3", "write t3")])
def test_the_recorders_short_form_elsewhere_says_how_to_write_it(run, typed, advice):
    code, out, err = run("check", "klondike", "--seed", "1", typed)
    assert code == 1
    assert advice in out + err and "suit is missing" not in out + err


def test_a_short_form_naming_a_missing_pile_says_so(run):
    code, out, err = run("check", "klondike", "--seed", "1", "1 8")
    assert code == 1 and "there is no pile 't8'" in out + err


def test_an_unknown_option_ends_its_sentence_before_the_suggestion(run):
    code, out, err = run("deal", "klondike", "--seed", "1", "--option", "drow=1")
    assert code == 2
    assert "face_up_block_only. Did you mean: draw?" in " ".join(err.split())


def test_scan_takes_cam0_as_play_and_verify_do(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # no file named cam0 here
    code, out, err = run("scan", "cam0")
    assert code != 0
    assert "camera 0" in err and "No such file" not in err


def test_export_into_a_folder_that_does_not_exist_says_so(run, game_db, tmp_path):
    target = tmp_path / "nowhere" / "game.txt"
    code, out, err = run("export", "1", "--db", game_db, "-o", str(target))
    assert code == 1
    assert f"there is no folder {tmp_path / 'nowhere'}" in err and "create it" in err


def test_export_through_a_symbolic_link_writes_its_target_and_keeps_the_link(run, game_db,
                                                                            tmp_path):
    target = tmp_path / "records" / "game.txt"
    target.parent.mkdir()
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "latest.txt"
    link.symlink_to(target)
    code, out, err = run("export", "1", "--db", game_db, "-o", str(link))
    assert code == 0, err
    assert os.path.islink(link)
    assert target.read_text(encoding="utf-8").startswith('[Variant "klondike"]')


def test_the_tools_own_help_starts_a_player_at_the_table(run):
    code, out, _ = run("--help")
    assert code == 0
    for start in ("companion sheet klondike", "companion play klondike --seed",
                  "companion play klondike --physical", "companion hint"):
        assert start in out, start


def test_verify_with_nothing_typed_on_a_pipe_says_how_to_give_the_cards(run):
    code, out, err = run("verify", "klondike", "--seed", "42", stdin="")
    assert code == 1
    text = " ".join((out + err).split())
    assert "standard input" in text and "--layout FILE" in text

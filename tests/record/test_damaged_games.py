"""Stored games this companion cannot rebuild: each is named and refused alone, with what is
wrong; the rest of the database stays usable."""

from __future__ import annotations

import json
import sqlite3

import pytest


def _tamper(db_path, sql, *args):
    conn = sqlite3.connect(db_path)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


@pytest.fixture
def three_games(run, db_path):
    for seed in (1, 2, 3):
        assert run("play", "klondike", "--seed", str(seed), "--db", db_path, stdin="s\n")[0] == 0
    return db_path


@pytest.mark.parametrize("command", ["show", "resume", "replay", "export"])
def test_a_game_from_a_future_deal_version_is_refused(run, three_games, command):
    _tamper(three_games, "UPDATE games SET deal_version = 99 WHERE id = 2")
    code, out, err = run(command, "2", "--db", three_games)
    assert code == 1 and "Traceback" not in err
    assert "deal version 99" in err and "its deal could differ" in err
    assert "Upgrade companion" in err
    assert run(command, "1", "--db", three_games)[0] == 0


def test_unreadable_options_flag_one_game_and_list_the_others(run, three_games):
    _tamper(three_games, "UPDATE games SET options = '{bad' WHERE id = 2")
    code, out, err = run("games", "--db", three_games)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 4 and "damaged" in lines[2] and "in progress" in lines[1]
    assert "Game 2 is damaged: its stored options are unreadable" in err
    rows = json.loads(run("games", "--db", three_games, "--json")[1])
    assert [r["problem"] is not None for r in rows] == [False, True, False]
    code, out, err = run("stats", "--db", three_games, "--json")
    assert code == 0 and json.loads(out)[0]["games"] == 2
    assert "Not counted: game 2, damaged" in err
    code, _, err = run("show", "2", "--db", three_games)
    assert code == 1 and "game 2" in err and "is damaged" in err
    assert run("show", "3", "--db", three_games)[0] == 0


def test_a_stored_seed_out_of_range_says_the_game_is_damaged(run, three_games):
    _tamper(three_games, "UPDATE games SET seed = -5 WHERE id = 1")
    code, _, err = run("resume", "1", "--db", three_games)
    assert code == 1 and "game 1" in err and "is damaged" in err
    assert "stored seed -5" in err and "use a whole number" not in err


def test_export_refuses_a_game_whose_moves_no_longer_replay(run, three_games, tmp_path):
    _tamper(three_games, "UPDATE moves SET text = 't1 t9' WHERE game_id = 3")
    out_file = tmp_path / "g3.txt"
    code, out, err = run("export", "3", "-o", str(out_file), "--db", three_games)
    assert code == 1 and not out_file.exists()
    assert "stored move 1 (t1 t9) does not replay" in err and "not exported" in err
    code, _, err = run("show", "3", "--db", three_games)
    assert code == 1 and "game 3: stored move 1" in err and "damaged" in err


def test_export_and_import_say_move_in_the_singular(run, three_games, tmp_path):
    path = tmp_path / "g1.txt"
    code, _, err = run("export", "1", "-o", str(path), "--db", three_games)
    assert code == 0 and "(1 move)." in err
    code, out, _ = run("import", str(path), "--db", str(tmp_path / "other.sqlite3"))
    assert code == 0 and "klondike, 1 move," in out


def test_a_long_name_is_cut_in_the_games_table(run, db_path):
    run("play", "klondike", "--seed", "1", "--name", "x" * 5000, "--db", db_path, stdin="s\n")
    code, out, _ = run("games", "--db", db_path)
    assert code == 0 and max(len(line) for line in out.splitlines()) < 120
    assert "x…" in out
    rows = json.loads(run("games", "--db", db_path, "--json")[1])
    assert rows[0]["name"] == "x" * 5000


def test_replay_and_show_say_move_in_the_singular(run, three_games):
    code, out, _ = run("replay", "1", "--db", three_games, "--no-step")
    assert code == 0 and out.splitlines()[0].endswith(", 1 move")
    code, _, err = run("show", "1", "--at", "5", "--db", three_games)
    assert code == 2 and "game 1 has 1 move: give --at 0 to 1" in err

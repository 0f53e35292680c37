"""The recorder's commands as a script drives them: standard input, --json, exit codes."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from rechelp import lost_game, near_won

from companion.record import StoreError
from companion.rules import deal

ROW = "ah kd 2s qc 3d 4c 5h"  # the seven face-up cards of a physical Klondike layout


def _play_json(run, db, *args, stdin=""):
    code, out, err = run("play", *args, "--db", db, "--json", stdin=stdin)
    return code, json.loads(out), err


def test_play_a_seeded_game_from_standard_input(run, db_path):
    code, data, _ = _play_json(run, db_path, "klondike", "--seed", "1",
                               stdin="t1 t7\ns\nw t7\n# a comment line\n")
    assert code == 0 and data["ok"]
    assert data["game"] == 1 and data["moves"] == ["t1 t7", "s", "w t7"]
    assert [e["input"] for e in data["entries"]] == ["t1 t7", "s", "w t7"]
    assert data["position"]["piles"]["t7"]["cards"][-1] == "6S"


def test_a_refused_line_makes_the_exit_status_1_but_play_goes_on(run, db_path):
    code, data, _ = _play_json(run, db_path, "klondike", "--seed", "1",
                               stdin="t3 t5\nt1 t7\n")
    assert code == 1 and data["refused"] == 1
    assert data["entries"][0]["kind"] == "illegal"
    assert data["moves"] == ["t1 t7"]


def test_moves_file_and_text_transcript(run, db_path, tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("t1 t7\nudno\nquit\n")
    code, out, _ = run("--ascii", "play", "klondike", "--seed", "1", "--db", db_path,
                       "--moves-file", str(moves), "-q")
    assert code == 1
    assert "move 1> t1 t7\nt1 t7: 7h from t1 onto 8c" in out
    assert "Did you mean: undo?" in out
    assert "Game 1 kept (1 move): `companion resume 1` goes on." in out


@pytest.mark.parametrize("args", [("klondike",), ("klondike", "--seed", "1", "--physical")])
def test_play_needs_exactly_one_kind_of_deal(run, db_path, args):
    code, _, err = run("play", *args, "--db", db_path)
    assert code == 2 and ("--seed" in err and "--physical" in err)
    assert not Path(db_path).exists()


def test_a_physical_game_from_layout_to_reveals(run, db_path):
    code, data, _ = _play_json(run, db_path, "klondike", "--physical",
                               stdin=f"{ROW}\nstart\nt4 t2\njs\ns\n9s 8d 7c\n")
    assert code == 0
    assert data["moves"] == ["t4 t2", "t4=js", "s", "w=9s", "w=8d", "w=7c"]
    assert data["move_count"] == 2 and data["pending"] == []


def test_a_physical_game_left_during_layout_entry_resumes_there(run, db_path):
    run("play", "klondike", "--physical", "--db", db_path, stdin="ah kd 2s\nquit\n")
    code, out, _ = run("resume", "1", "--db", db_path, "-q", stdin="qc 3d 4c 5h\nstart\nt1 f\n")
    assert code == 0, out
    code, out, _ = run("show", "1", "--db", db_path, "--json")
    data = json.loads(out)
    assert data["all_moves"] == ["t1 f"]
    assert data["position"]["piles"]["t4"]["cards"][-1] == "QC"


def test_undo_goes_on_working_after_resuming_a_layout(run, db_path):
    run("play", "klondike", "--physical", "--db", db_path, stdin="ah kd\n2s\nquit\n")
    code, out, _ = run("resume", "1", "--db", db_path, "-q", stdin="undo\nundo\nundo\n")
    assert "Took back the last line. 2 of 7 face-up cards named" in out
    assert "Took back the last line. 0 of 7 face-up cards named" in out
    assert "Nothing to undo: no card is named yet." in out   # only once all is taken back


def test_a_layout_saved_without_its_undo_history_undoes_pile_by_pile(run, db_path):
    import sqlite3
    run("play", "klondike", "--physical", "--db", db_path, stdin="ah kd 2s\nquit\n")
    conn = sqlite3.connect(db_path)
    conn.execute("""UPDATE games SET start = '{"layout": {"t1": ["AH"], "t2": ["KD"]}}'""")
    conn.commit()
    conn.close()
    code, out, _ = run("resume", "1", "--db", db_path, "-q", stdin="undo\nshow\n")
    assert "Took back the last line. 1 of 7 face-up cards named; still to name: t2" in out


def test_show_draws_the_layout_even_with_quiet(run, db_path):
    code, out, _ = run("--ascii", "play", "klondike", "--seed", "1", "--db", db_path, "-q",
                       stdin="t1 t7\nshow\n")
    assert code == 0
    after_show = out.split("move 2> show", 1)[1]
    assert "1 move played." in after_show and " t1 " in after_show and "8c" in after_show
    assert "t1 t7: 7h from t1 onto 8c\nmove 2>" in out   # and no layout after the move


def test_ascii_names_the_suits_once_in_a_misread_card(run, db_path):
    # under --ascii the suit symbols become letters; "s h d c or s h d c" said them twice
    code, out, _ = run("--ascii", "play", "klondike", "--seed", "1", "--db", db_path, "-q",
                       stdin="which\n")
    assert code == 1
    assert "then a suit (s h d c), for example 7h, 10s or qs" in out


@pytest.mark.parametrize("bad, says", [("abc", "a game id must be a number"),
                                       ("0", "game ids start at 1")])
@pytest.mark.parametrize("command", ["resume", "show", "replay", "export"])
def test_a_game_id_that_is_not_a_number(run, db_path, command, bad, says):
    code, out, err = run(command, bad, "--db", db_path)
    assert code == 2 and says in err and "`companion games`" in err
    assert "integer range" not in err


@pytest.mark.parametrize("bad", ["99999999999999999999", "9223372036854775808", "-5"])
@pytest.mark.parametrize("command", ["resume", "show", "replay", "export", "hint"])
def test_a_number_no_game_can_have_is_a_usage_error_naming_the_games(run, db_path, command,
                                                                      bad):
    # issue 49: a huge number was an "Internal error: OverflowError", -5 "must be a number"
    for seed in ("1", "2"):
        run("play", "klondike", "--seed", seed, "--db", db_path, stdin="s\n")
    code, out, err = run(command, "--db", db_path, "--", bad)
    assert code == 2 and out == ""
    assert f"no game {bad} in {db_path}: " in err and "games here are numbered 1 to 2" in err
    assert ("game ids start at 1" in err) == bad.startswith("-")
    assert "Internal error" not in err and "must be a number" not in err
    assert "Traceback" not in err


def test_a_store_asked_for_a_game_beyond_sqlite_integers_says_there_is_none(store):
    with pytest.raises(StoreError, match=r"no game 99999999999999999999 in .*: there are no "
                                         r"games in it yet"):
        store.game(99999999999999999999)


def test_hint_for_a_game_waiting_for_a_card_says_what_to_do_and_fails(run, db_path):
    run("play", "klondike", "--physical", "--db", db_path, stdin=f"{ROW}\nstart\nt4 t2\n")
    code, out, _ = run("hint", "1", "--db", db_path)
    assert code == 1
    assert "First name the card turned up on t4" in out and "companion resume 1" in out


def test_resume_goes_on_where_the_game_was_left(run, db_path):
    run("play", "klondike", "--seed", "1", "--db", db_path, stdin="t1 t7\ns\n")
    code, out, _ = run("resume", "1", "--db", db_path, "--json", stdin="w t7\nundo\nundo\n")
    data = json.loads(out)
    assert code == 0 and data["moves"] == ["t1 t7"]
    code, out, _ = run("--ascii", "resume", "1", "--db", db_path, "-q", stdin="")
    assert "game 1, 1 move played" in out


def test_games_lists_every_game(run, db_path):
    run("play", "klondike", "--seed", "7", "--name", "Sunday", "--db", db_path,
        stdin="s\n")
    run("play", "klondike", "--physical", "--db", db_path, stdin=f"{ROW}\nstart\n")
    code, out, _ = run("games", "--db", db_path)
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["id", "name", "variant", "deal", "started",
                                              "moves", "result"]
    assert "Sunday" in lines[1] and " 7 " in lines[1] and "in progress" in lines[1]
    assert "physical" in lines[2]
    code, out, _ = run("games", "--db", db_path, "--json")
    rows = json.loads(out)
    assert [(r["id"], r["seed"], r["moves"]) for r in rows] == [(1, 7, 1), (2, None, 0)]


def test_no_database_yet(run, tmp_path):
    path = tmp_path / "new.sqlite3"
    code, out, _ = run("games", "--db", str(path))
    assert code == 0 and "No games yet" in out
    code, _, err = run("show", "1", "--db", str(path))
    assert code == 1 and "no game database" in err
    assert not path.exists()


def test_a_db_in_a_missing_folder_is_refused_not_created(run, tmp_path, monkeypatch):
    target = tmp_path / "no" / "such" / "x.sqlite3"
    code, out, err = run("play", "klondike", "--seed", "1", "--db", str(target), stdin="s\n")
    assert code == 1 and "Traceback" not in err
    assert f"the folder {target.parent} does not exist" in err and "mkdir -p" in err
    assert not (tmp_path / "no").exists()
    monkeypatch.setenv("COMPANION_DB", str(target))
    code, _, err = run("play", "klondike", "--seed", "1", stdin="s\n")
    assert code == 1 and "does not exist" in err and not (tmp_path / "no").exists()


def test_the_default_database_folder_is_created(run, tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_DB", raising=False)
    monkeypatch.setattr("platformdirs.user_data_path",
                        lambda *a, **k: tmp_path / "data" / "companion")
    code, out, _ = run("play", "klondike", "--seed", "1", stdin="s\n")
    assert code == 0 and (tmp_path / "data" / "companion" / "games.sqlite3").exists()


def test_companion_db_environment_variable(run, tmp_path, monkeypatch):
    path = tmp_path / "env.sqlite3"
    monkeypatch.setenv("COMPANION_DB", str(path))
    run("play", "klondike", "--seed", "1", stdin="s\n")
    code, out, _ = run("games", "--json")
    assert path.exists() and json.loads(out)[0]["moves"] == 1


def test_show_at_a_move(run, db_path):
    run("play", "klondike", "--seed", "1", "--db", db_path, stdin="t1 t7\ns\nw t7\n")
    code, out, _ = run("show", "1", "--at", "1", "--db", db_path, "--json")
    data = json.loads(out)
    pos = deal("klondike", 1)
    pos.play("t1 t7")
    assert code == 0 and data["at"] == 1 and data["moves"] == ["t1 t7"]
    assert data["position"] == pos.to_json()
    code, out, _ = run("--ascii", "show", "1", "--db", db_path)
    assert "3 moves, in progress" in out and "1. t1 t7  2. s  3. w t7" in out
    code, _, err = run("show", "1", "--at", "4", "--db", db_path)
    assert code == 2 and "--at 0 to 3" in err


def test_replay_prints_every_move(run, db_path):
    run("play", "klondike", "--seed", "1", "--db", db_path, stdin="t1 t7\ns\n")
    code, out, _ = run("--ascii", "replay", "1", "--db", db_path, "--no-step")
    assert code == 0
    assert "Start:" in out and "Move 1. t1 t7 (7h from t1 onto 8c)" in out
    assert "Move 2. s (turn 3 cards from the stock to the waste)" in out
    code, out, _ = run("replay", "1", "--db", db_path, "--json")
    assert [s["move"] for s in json.loads(out)["steps"]] == [0, 1, 2]


def _record(start, moves, result="*", seed="physical", options=""):
    body = "\n".join(f"{n}. {m}" for n, m in enumerate(moves, 1))
    head = f'[Variant "klondike"]\n[Options "{options}"]\n[Seed "{seed}"]\n[Result "{result}"]\n'
    if seed == "physical":
        start_text = json.dumps(start.to_json()).replace("\\", "\\\\").replace('"', '\\"')
        head += f'[Start "{start_text}"]\n'
    return head + "\n" + body + "\n"


def _import_won_and_lost(run, db_path, tmp_path):
    """Import a won game (id 1) and a lost one (id 2); the lost one's moves."""
    won = tmp_path / "won.txt"
    won.write_text(_record(near_won(), ["t1 f"], "won"))
    seed, moves = lost_game()
    lost = tmp_path / "lost.txt"
    lost.write_text(_record(None, moves, "lost", str(seed), "passes=1"))
    assert run("import", str(won), "--db", db_path)[0] == 0
    assert run("import", str(lost), "--db", db_path)[0] == 0
    return moves


def test_stats_counts_wins_and_losses(run, db_path, tmp_path):
    moves = _import_won_and_lost(run, db_path, tmp_path)
    run("play", "klondike", "--seed", "1", "--db", db_path, stdin="s\n")
    run("play", "spider", "--seed", "1", "--db", db_path, stdin="")
    code, out, _ = run("stats", "--db", db_path, "--json")
    data = {t["variant"]: t for t in json.loads(out)}
    k = data["klondike"]
    assert (k["games"], k["won"], k["lost"], k["in_progress"]) == (3, 1, 1, 1)
    assert k["win_rate"] == 0.5 and k["moves"] == 1 + len(moves) + 1
    assert data["spider"]["games"] == 1
    code, out, _ = run("stats", "klondike", "--db", db_path)
    assert "50%" in out and "spider" not in out


def test_export_then_import_round_trips(run, db_path, tmp_path):
    run("play", "klondike", "--physical", "--name", "Friday", "--db", db_path,
        stdin=f"{ROW}\nstart\nt4 t2\njs\ns\n9s 8d 7c\n")
    code, first, _ = run("export", "1", "--db", db_path)
    assert code == 0 and '[Seed "physical"]' in first and '[Name "Friday"]' in first
    assert "1. t4 t2 t4=js\n2. s w=9s w=8d w=7c\n" in first
    path = tmp_path / "game.txt"
    assert run("export", "1", "-o", str(path), "--db", db_path)[0] == 0
    assert path.read_text() == first
    # the same database holds this game already: a copy is stored only on request
    code, _, err = run("import", str(path), "--db", db_path, "--json")
    assert code == 1 and "already stored as game 1" in err
    code, out, _ = run("import", str(path), "--db", db_path, "--json", "--again")
    assert code == 0 and json.loads(out)["game"] == 2
    assert run("export", "2", "--db", db_path)[1] == first


def test_importing_the_same_record_twice_stores_it_once(run, db_path, tmp_path):
    # issue 49: the second import stored a copy, and stats counted the game twice
    seed, moves = lost_game()
    path = tmp_path / "lost.txt"
    path.write_text(_record(None, moves, "lost", str(seed), "passes=1")
                    .replace('[Result', '[Date "2026-05-09 20:31"]\n[Result'))
    assert run("import", str(path), "--db", db_path)[0] == 0
    code, out, err = run("import", str(path), "--db", db_path)
    assert code == 1 and out == "" and "Traceback" not in err
    assert f"{path} is already stored as game 1" in err and "nothing was imported" in err
    assert f"`companion import {path} --again --db {db_path}`" in err
    code, out, _ = run("stats", "--db", db_path, "--json")
    assert json.loads(out)[0]["games"] == 1 and json.loads(out)[0]["lost"] == 1
    # a second copy only on request
    code, out, _ = run("import", str(path), "--db", db_path, "--again", "--json")
    assert code == 0 and json.loads(out)["game"] == 2
    assert "--again" in run("import", "--help")[1]
    # another game is not the same record: another date, fewer moves, another variant option
    other = tmp_path / "other.txt"
    for text in (path.read_text().replace("2026-05-09 20:31", "2026-05-10 09:00"),
                 _record(None, moves[:-1], "*", str(seed), "passes=1"),
                 _record(None, moves[:1], "*", str(seed))):
        other.write_text(text)
        assert run("import", str(other), "--db", db_path)[0] == 0, text
    # a record with no date is the same game at any time
    code, _, err = run("import", str(other), "--db", db_path)
    assert code == 1 and "already stored as game 5" in err
    assert len(json.loads(run("games", "--db", db_path, "--json")[1])) == 5


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="POSIX permissions")
def test_export_to_a_file_gets_the_mode_a_new_file_gets(run, db_path, tmp_path):
    # issue 49: `export -o` wrote mode 600 where `>` and `sheet -o` give 644 (umask 022)
    run("play", "klondike", "--seed", "1", "--db", db_path, stdin="s\n")
    old = os.umask(0o022)
    try:
        assert run("export", "1", "-o", str(tmp_path / "a.txt"), "--db", db_path)[0] == 0
        os.umask(0o027)
        assert run("export", "1", "-o", str(tmp_path / "b.txt"), "--db", db_path)[0] == 0
        kept = tmp_path / "c.txt"   # a file written over keeps its mode, as with `>`
        kept.write_text("old")
        kept.chmod(0o604)
        assert run("export", "1", "-o", str(kept), "--db", db_path)[0] == 0
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir() if p.suffix == ".txt"}
    assert modes == {"a.txt": 0o644, "b.txt": 0o640, "c.txt": 0o604}
    assert kept.read_text().startswith('[Variant "klondike"]')


def test_import_refuses_a_record_that_does_not_replay(run, db_path, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text('[Variant "klondike"]\n[Seed "1"]\n\n1. t1 t7\n2. t3 t5\n')
    code, _, err = run("import", str(path), "--db", db_path)
    assert code == 1 and "line 5: move 2 (t3 t5) does not replay" in err
    assert "Traceback" not in err
    code, out, _ = run("games", "--db", db_path, "--json")
    assert json.loads(out) == []
    path.write_bytes(b"\xff\xfe binary")
    code, _, err = run("import", str(path), "--db", db_path)
    assert code == 1 and "not UTF-8" in err


def test_import_from_standard_input_names_it_so(db_path, monkeypatch, capsys):
    # `companion export 3 | companion import -`: "-" is no name to show a user
    from companion.cli import main

    def import_stdin(text):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
        code = main(["import", "-", "--db", db_path])
        return (code, *capsys.readouterr())

    record = '[Variant "klondike"]\n[Seed "1"]\n\n1. t1 t7\n'
    code, out, _ = import_stdin(record)
    assert code == 0 and out.startswith("Imported standard input as game 1 (klondike, 1 move")
    code, _, err = import_stdin(record + "2. t3 t5\n")
    assert code == 1 and "standard input, line 5: move 2 (t3 t5) does not replay" in err


def test_a_foreign_database_is_refused_by_every_command(run, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n" * 10)
    for args in (("games",), ("stats",), ("show", "1"), ("play", "klondike", "--seed", "1")):
        code, _, err = run(*args, "--db", str(path))
        assert code == 1 and "not a companion game database" in err and "Traceback" not in err
    assert path.read_text() == "not a database\n" * 10


# ------------------------------------------------------------------------------ verify

def test_verify_a_typed_layout_that_matches(run):
    code, out, _ = run("verify", "klondike", "--seed", "1", stdin="7h 6h 2h 2s kd jc 8c\n")
    assert code == 0 and "The layout matches seed 1: all 7 cards checked" in out


def test_verify_reports_every_misplaced_card(run):
    code, out, _ = run("verify", "klondike", "--seed", "1",
                       stdin="7h 6h 2h 2c kd\nt6: jc\nt7: 9c\n")
    assert code == 1
    assert "t4, card 4 from the bottom: expected 2♠, found 2♣" in out
    assert "t7, card 7 from the bottom: expected 8♣, found 9♣" in out
    assert "does NOT match seed 1: 2 cards not where the deal puts them" in out


def test_verify_incomplete_input(run):
    code, out, _ = run("verify", "klondike", "--seed", "1", "--json", stdin="7h 6h\n")
    data = json.loads(out)
    assert code == 1 and not data["ok"] and data["missing"] == ["t3", "t4", "t5", "t6", "t7"]


def test_verify_says_which_piles_a_short_row_left_out(run):
    code, out, _ = run("verify", "klondike", "--seed", "1", stdin="7h 6h 2h 2s kd jc\n")
    assert code == 1 and "6 cards given for 7 piles: one each on t1-t6; t7 still missing" in out
    code, out, _ = run("verify", "klondike", "--seed", "1", stdin="7h 6h 2h\nt3: 2c\n")
    assert "t3: 2♣, replacing 2♥" in out


def test_verify_a_layout_file(run, tmp_path):
    data = deal("spider", 7).to_json()
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    code, out, _ = run("verify", "spider", "--seed", "7", "--layout", str(path), "--json")
    assert code == 0 and json.loads(out)["ok"] and json.loads(out)["checked"] == 104
    cards = data["piles"]["t3"]["cards"]
    k = next(k for k in range(1, len(cards)) if cards[k] != cards[0])
    cards[0], cards[k] = cards[k], cards[0]
    path.write_text(json.dumps(data))
    code, out, _ = run("verify", "spider", "--seed", "7", "--layout", str(path), "--json")
    report = json.loads(out)
    assert code == 1 and [m["place"] for m in report["mismatches"]] == [
        "t3, card 1 from the bottom", f"t3, card {k + 1} from the bottom"]
    assert report["mismatches"][0]["expected"] == cards[k]


def test_two_companion_processes_play_on_one_database_at_once(db_path):
    import subprocess
    import sys
    lines = {}
    for seed in (1, 7):
        pos = deal("klondike", seed)
        moves = []
        for _ in range(25):
            m = str(next(iter(pos.legal_moves)))
            moves.append(m)
            pos.play(m)
        lines[seed] = moves
    procs = {seed: subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "klondike", "--seed", str(seed), "--db",
         db_path, "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True) for seed in lines}
    results = {seed: p.communicate("\n".join(lines[seed]) + "\n", timeout=60)
               for seed, p in procs.items()}
    for seed, (out, err) in results.items():
        assert procs[seed].returncode == 0, err
        game = json.loads(out)["game"]
        shown = subprocess.run([sys.executable, "-m", "companion", "show", str(game), "--db",
                                db_path, "--json"], capture_output=True, text=True, check=True)
        assert json.loads(shown.stdout)["all_moves"] == lines[seed]


def test_a_dealing_error_note_survives_export_and_import(run, db_path, tmp_path):
    run("play", "klondike", "--seed", "1", "--db", db_path, stdin="s\nw=qs 4c 5s\nt1 t7\n")
    code, first, _ = run("export", "1", "--db", db_path)
    assert "1. s {Dealing error at w, card 3 from the bottom: expected 6♠, found 5♠.}" in first
    path = tmp_path / "game.txt"
    path.write_text(first)
    other = str(tmp_path / "other.sqlite3")   # this database holds the game already
    assert run("import", str(path), "--db", other)[0] == 0
    code, out, _ = run("show", "1", "--db", other)
    assert "Note after move 1: Dealing error at w, card 3 from the bottom" in out
    assert run("export", "1", "--db", other)[1] == first


def test_import_refuses_a_move_played_before_the_turned_up_card_is_named(run, db_path,
                                                                          tmp_path):
    path = tmp_path / "game.txt"
    start = deal("klondike", None)
    for k, card in enumerate(ROW.split(), 1):
        start.reveal(f"t{k}", card)
    # t4 t2 turns up a card on t4; the record plays on without naming it
    path.write_text(_record(start, ["t4 t2", "s w=9s"]))
    code, _, err = run("import", str(path), "--db", db_path)
    assert code == 1
    assert "line 8: move 2 (s) is played while the card turned up on t4 is not named" in err
    assert json.loads(run("games", "--db", db_path, "--json")[1]) == []


def test_resuming_a_finished_game_says_it_is_over(run, db_path, tmp_path):
    _import_won_and_lost(run, db_path, tmp_path)
    code, out, _ = run("resume", "1", "--db", db_path, "-q", stdin="")
    assert "Game 1 is over: `companion show 1` shows it. Won in 1 move!" in out
    code, out, _ = run("resume", "2", "--db", db_path, "-q", stdin="")
    assert "Game 2 is over: `companion show 2` shows it. The game is lost" in out
    # input ending on a finished game points to show, not to resume
    assert out.rstrip().endswith("it is over: `companion show 2` shows it.")
    assert "`companion resume 2` goes on" not in out


def test_hint_once_every_card_is_named_says_to_type_start(run, db_path):
    code, out, _ = run("--ascii", "play", "klondike", "--physical", "--db", db_path, "-q",
                       stdin=f"{ROW}\nhint\nquit\n")
    assert code == 1
    assert "`hint` works once play has started: every face-up card is named, so type " \
           "`start` first" in out
    assert "first name the face-up cards" not in out

"""The game database: schema and migrations, safety against foreign or damaged files, faults."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from rechelp import FailingConnection

from companion.record import StoreError
from companion.record.store import MIGRATIONS, SCHEMA_VERSION, Store, default_path, open_store


def _game(store, seed=1):
    return store.create_game(variant="klondike", options={}, seed=seed, deal_version=1)


def test_a_new_database_is_created_in_wal_mode_at_the_current_schema(db_path):
    with Store(db_path) as s:
        assert s.schema_version() == SCHEMA_VERSION
        assert s.journal_mode() == "wal"
        gid = _game(s)
        s.append(gid, 1, [("t1 t7", False), ("s", False)])
    with Store(db_path, create=False) as s:
        assert s.moves(gid) == [("t1 t7", False), ("s", False)]
        row = s.game(gid)
        assert (row.variant, row.seed, row.moves, row.status) == ("klondike", 1, 2, "in progress")


def test_undo_truncates_and_reopens_a_finished_game(store):
    gid = _game(store)
    store.append(gid, 1, [("a", False), ("b", False), ("c", False)])
    store.finish(gid, "lost", "no-moves")
    store.truncate(gid, 1)
    row = store.game(gid)
    assert store.moves(gid) == [("a", False)]
    assert row.result is None and row.ended_at is None


def test_an_unknown_game_id_names_the_games_there(store):
    with pytest.raises(StoreError, match="there are no games in it yet"):
        store.game(2)
    _game(store)
    with pytest.raises(StoreError, match=r"game 1 is the only game here \(`companion games`"):
        store.game(2)   # not "numbered 1 to 1"
    _game(store)
    with pytest.raises(StoreError, match="games here are numbered 1 to 2"):
        store.game(3)


def test_an_append_that_does_not_follow_the_last_move_is_refused(store):
    gid = _game(store)
    store.append(gid, 1, [("s", False)])
    with pytest.raises(StoreError, match="another companion window"):
        store.append(gid, 1, [("t1 t7", False)])  # a second window still at ply 0
    assert store.moves(gid) == [("s", False)]


def test_an_older_schema_is_migrated_and_keeps_its_games(db_path):
    conn = sqlite3.connect(db_path, isolation_level=None)
    for statement in MIGRATIONS[1]:
        conn.execute(statement)
    conn.execute("UPDATE companion_schema SET version = 1")
    conn.execute("INSERT INTO games (variant, options, seed, deal_version, started_at, "
                 "updated_at) VALUES ('klondike', '{}', 9, 1, 'x', 'x')")
    conn.close()
    with Store(db_path) as s:
        assert s.schema_version() == SCHEMA_VERSION
        assert s.game(1).seed == 9
        s.add_note(1, 0, "dealing-error", "t4: expected 9♣, found 9♠")  # a version-2 table
        assert s.game(1).notes[0]["text"].startswith("t4")


def _unchanged_after(path: Path, opener) -> str:
    before = path.read_bytes()
    with pytest.raises(StoreError) as info:
        opener()
    assert path.read_bytes() == before
    assert not Path(str(path) + "-wal").exists()
    assert str(path) in str(info.value)
    return str(info.value)


def test_a_newer_schema_is_refused_and_left_untouched(db_path):
    with Store(db_path) as s:
        s._conn.execute("UPDATE companion_schema SET version = 99")
    msg = _unchanged_after(Path(db_path), lambda: Store(db_path))
    assert "newer companion" in msg and "upgrade" in msg


def test_another_programs_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "photos.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos (id INTEGER, name TEXT)")
    conn.commit()
    conn.close()
    msg = _unchanged_after(path, lambda: Store(path))
    assert "not a companion game database" in msg and "photos" in msg


def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping list: eggs, milk\n" * 20)
    msg = _unchanged_after(path, lambda: Store(path))
    assert "not an SQLite database" in msg


def test_a_damaged_database_gives_a_clear_error_and_is_left_untouched(db_path):
    with Store(db_path) as s:
        for seed in range(40):
            gid = _game(s, seed)
            s.append(gid, 1, [(f"move {k}", False) for k in range(1, 30)])
    path = Path(db_path)
    data = bytearray(path.read_bytes())
    page = 4096
    data[page:page * 3] = b"\xde\xad\xbe\xef" * (page // 2)  # wreck pages 2 and 3
    path.write_bytes(bytes(data))

    def open_and_read():
        with Store(db_path) as s:
            s.games()
    msg = _unchanged_after(path, open_and_read)
    assert "damaged" in msg and ".recover" in msg


def test_a_database_in_a_folder_that_cannot_be_created(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot create the folder"):
        Store(blocker / "sub" / "games.sqlite3", make_folder=True)
    with pytest.raises(StoreError, match="does not exist"):
        Store(blocker / "sub" / "games.sqlite3")


def test_read_only_commands_do_not_create_a_database(tmp_path):
    path = tmp_path / "none.sqlite3"
    with pytest.raises(StoreError, match="no game database"):
        open_store(path, create=False)
    assert not path.exists()


def test_the_default_path_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "x.sqlite3"))
    assert default_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("COMPANION_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = default_path()
    assert path.name == "games.sqlite3" and path.parent.name == "companion"
    if sys.platform.startswith("linux"):
        assert path == tmp_path / "data" / "companion" / "games.sqlite3"


def test_a_full_disk_is_reported_and_the_transaction_rolled_back(store):
    gid = _game(store)
    store.append(gid, 1, [("s", False)])
    store._conn = FailingConnection(store._conn)
    with pytest.raises(StoreError, match="the disk is full"):
        store.append(gid, 2, [("s", False), ("s", False)])
    store._conn = store._conn._conn
    assert not store._conn.in_transaction
    assert store.moves(gid) == [("s", False)]


class _FailingMoves(FailingConnection):
    """Lets a game's row in, then fails on its moves (the second half of an import)."""

    def execute(self, sql, *args):
        return self._conn.execute(sql, *args)

    def executemany(self, sql, *args):
        raise sqlite3.OperationalError(self.message)


def test_an_import_that_fails_halfway_leaves_no_game_behind(store):
    gid = _game(store)
    store._conn = _FailingMoves(store._conn)
    with pytest.raises(StoreError, match="the disk is full"):
        store.import_game(variant="klondike", options={}, seed=2, deal_version=1, name=None,
                          start=None, started_at=None, entries=[("s", False)], result=None,
                          termination=None, score=None)
    store._conn = store._conn._conn
    assert not store._conn.in_transaction
    assert [g.id for g in store.games()] == [gid]


def test_a_closed_store_says_so_on_read_and_write(store):
    gid = _game(store)
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        store.moves(gid)
    with pytest.raises(StoreError, match="is closed"):
        store.append(gid, 1, [("s", False)])
    with pytest.raises(StoreError, match="is closed"):
        store.import_game(variant="klondike", options={}, seed=2, deal_version=1, name=None,
                          start=None, started_at=None, entries=[], result=None,
                          termination=None, score=None)


# ------------------------------------------------------------------------------ read-only

def _make_read_only(path: Path):
    """chmod where permissions bind; as root (where they do not), the immutable attribute."""
    if os.geteuid() != 0:
        os.chmod(path, 0o555 if path.is_dir() else 0o444)
        return lambda: os.chmod(path, 0o755 if path.is_dir() else 0o644)
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("running as root without chattr: a read-only file cannot be made")
    return lambda: subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_database_reads_but_refuses_writes_clearly(db_path):
    with Store(db_path) as s:
        gid = _game(s)
        s.append(gid, 1, [("s", False)])
    undo = _make_read_only(Path(db_path))
    try:
        with Store(db_path) as s:
            assert s.moves(gid) == [("s", False)]
            with pytest.raises(StoreError, match="read-only"):
                s.append(gid, 2, [("s", False)])
            assert s.moves(gid) == [("s", False)]
    finally:
        undo()


def test_a_read_only_folder_refuses_a_new_database_clearly(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    undo = _make_read_only(folder)
    try:
        with pytest.raises(StoreError) as info:
            Store(folder / "games.sqlite3")
        assert "games.sqlite3" in str(info.value)
    finally:
        undo()
    assert list(folder.iterdir()) == []


def test_a_database_in_a_read_only_folder_is_read_but_never_written(db_path):
    with Store(db_path) as s:
        gid = _game(s)
        s.append(gid, 1, [("s", False)])
    folder = Path(db_path).parent
    before = Path(db_path).read_bytes()
    undo = _make_read_only(folder)
    try:
        with Store(db_path, create=False, read_only=True) as s:
            assert s.moves(gid) == [("s", False)] and [g.id for g in s.games()] == [gid]
            with pytest.raises(StoreError, match="read-only"):
                s.append(gid, 2, [("s", False)])
        with pytest.raises(StoreError) as info:
            Store(db_path)   # to record: says the folder is why, and that reading works
        assert f"its folder {folder} is read-only" in str(info.value)
        assert "`companion games`, `show`, `stats` and `export` still read it" in str(info.value)
    finally:
        undo()
    assert Path(db_path).read_bytes() == before


def test_reading_commands_work_in_a_read_only_folder_and_writing_ones_say_why_not(
        run, db_path, tmp_path):
    # issue 49: `games`, `show`, `stats` and `export` all failed ("unable to open database")
    assert run("play", "klondike", "--seed", "1", "--db", db_path, stdin="s\n")[0] == 0
    record = tmp_path / "g1.txt"
    assert run("export", "1", "-o", str(record), "--db", db_path)[0] == 0
    folder = Path(db_path).parent / "ro"
    folder.mkdir()
    db = str(folder / "games.sqlite3")
    Path(db).write_bytes(Path(db_path).read_bytes())
    undo = _make_read_only(folder)
    try:
        for args in (("games",), ("show", "1"), ("stats",), ("export", "1"),
                     ("replay", "1", "--no-step"), ("show", "--", "-5")):
            code, out, err = run(args[0], "--db", db, *args[1:])
            assert code == (2 if "-5" in args else 0), (args, err)
            assert "Traceback" not in err and "unable to open" not in err, args
        assert "klondike" in run("games", "--db", db)[1]
        for args, stdin in ((("play", "klondike", "--seed", "2"), "s\n"),
                            (("resume", "1"), "s\n"), (("import", str(record), "--again"), "")):
            code, out, err = run(*args, "--db", db, stdin=stdin)
            assert code == 1 and "Traceback" not in err, args
            assert f"its folder {folder} is read-only" in err and "--db PATH" in err, args
    finally:
        undo()
    assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite3"]
    assert Path(db).read_bytes() == Path(db_path).read_bytes()


# ------------------------------------------------------------------------------ two processes

WRITER = textwrap.dedent("""
    import sys, time
    from companion.record.store import Store
    path, seed = sys.argv[1], int(sys.argv[2])
    with Store(path) as s:
        gid = s.create_game(variant="klondike", options={}, seed=seed, deal_version=1)
        for k in range(1, 81):
            s.append(gid, k, [(f"m{k}", False)])
            if k % 20 == 0:
                s.games()  # reads interleaved with the other writer
    print(gid)
""")


def test_two_processes_can_record_in_one_database_at_once(db_path):
    with Store(db_path):
        pass
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, db_path, str(seed)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for seed in (1, 2)]
    ids = []
    for p in procs:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
        ids.append(int(out))
    with Store(db_path) as s:
        for gid in ids:
            assert [t for t, _ in s.moves(gid)] == [f"m{k}" for k in range(1, 81)]

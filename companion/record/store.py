"""The game database: SQLite (stdlib ``sqlite3``) in WAL mode, with a schema version and migrations.

Where it lives: ``--db PATH``, else ``COMPANION_DB``, else ``games.sqlite3`` in the platform's user
data directory (``platformdirs``). Every accepted move is one transaction, committed (with
``synchronous=FULL``) before the recorder shows the next prompt, so ``kill -9`` or a power cut
loses nothing that was accepted.

Safety rules:

* a file that is not an SQLite database, an SQLite database of another program, a damaged one,
  or one written by a newer companion is refused with a :class:`StoreError` naming the file and
  what to do, and is never written to (the check runs before anything that could write);
* several ``companion`` processes may use one database at once (WAL readers never block, writers
  wait up to :data:`BUSY_TIMEOUT_S`);
* a write that fails (read-only file or folder, full disk) is rolled back and reported; the
  caller keeps the game as it was;
* commands that only read open the database read-only (``mode=ro``), so they work in a
  read-only file or folder too.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..paths import DB_FILE_NAME, default_path
from ..rules.deal import MAX_SEED
from . import StoreError

SCHEMA_VERSION = 2
"""The newest schema this companion writes; it reads and migrates every older one."""

APPLICATION_ID = 0x434D504E
"""``PRAGMA application_id`` of a companion database ("CMPN"), set by the first migration."""

MAX_GAME_ID = 2**63 - 1
"""The largest id a game can have (SQLite's largest integer)."""

BUSY_TIMEOUT_S = 5.0
SQLITE_MAGIC = b"SQLite format 3\x00"

# Each migration takes a database from version n-1 to n, as a list of statements run inside one
# transaction (SQLite's DDL is transactional: a failed migration leaves the file as it was).
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE companion_schema (version INTEGER NOT NULL)",
        "INSERT INTO companion_schema (version) VALUES (0)",
        """CREATE TABLE games (
            id           INTEGER PRIMARY KEY AUTOINCREMENT,
            name         TEXT,
            variant      TEXT NOT NULL,
            options      TEXT NOT NULL DEFAULT '{}',
            seed         INTEGER,
            deal_version INTEGER NOT NULL,
            start        TEXT,
            phase        TEXT NOT NULL DEFAULT 'play',
            started_at   TEXT NOT NULL,
            updated_at   TEXT NOT NULL,
            ended_at     TEXT,
            result       TEXT,
            termination  TEXT,
            score        INTEGER
        )""",
        """CREATE TABLE moves (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            ply     INTEGER NOT NULL,
            text    TEXT NOT NULL,
            reveal  INTEGER NOT NULL DEFAULT 0,
            at      TEXT NOT NULL,
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID""",
        f"PRAGMA application_id = {APPLICATION_ID}",
    ),
    # Version 2: notes attached to a game (dealing errors found during a seeded game), and an
    # index for `companion stats VARIANT`.
    2: (
        """CREATE TABLE notes (
            id      INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            ply     INTEGER NOT NULL,
            kind    TEXT NOT NULL,
            text    TEXT NOT NULL,
            at      TEXT NOT NULL
        )""",
        "CREATE INDEX games_by_variant ON games (variant)",
    ),
}

RESULTS = ("won", "lost", "resigned")


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def local_time(stamp: str | None, with_seconds: bool = False) -> str:
    """``2026-05-09 20:31`` in the local time zone, from a stored UTC stamp."""
    if not stamp:
        return ""
    try:
        t = datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return stamp
    return t.strftime("%Y-%m-%d %H:%M:%S" if with_seconds else "%Y-%m-%d %H:%M")


def resolve_path(option: str | os.PathLike | None) -> Path:
    return Path(option).expanduser() if option else default_path()


@dataclass
class GameRow:
    id: int
    name: str | None
    variant: str
    options: dict
    seed: int | None
    deal_version: int
    start: str | None
    phase: str
    started_at: str
    updated_at: str
    ended_at: str | None
    result: str | None
    termination: str | None
    score: int | None
    moves: int = 0
    """Moves played (reveals not counted)."""
    entries: int = 0
    """Moves and reveals: the rows of the game's move list."""
    notes: list = field(default_factory=list)
    problem: str | None = None
    """What is wrong with the stored row (unreadable options, an impossible seed), or None:
    such a game is listed, flagged, and refused by the commands that open it."""

    @property
    def pysol(self) -> int | None:
        """The PySolFC game number of a game dealt by one (``companion play --pysol N``), or
        None. It is kept in the start position's JSON, with the seed column empty: no schema
        change, and a number of up to 20 digits, beyond SQLite's integers, fits there."""
        if self.seed is not None or not isinstance(self.start, str) \
                or '"pysol"' not in self.start:
            return None
        data = _loads(self.start)
        n = data.get("pysol") if isinstance(data, dict) else None
        return n if type(n) is int else None

    @property
    def physical(self) -> bool:
        return self.seed is None and self.pysol is None

    @property
    def status(self) -> str:
        if self.problem:
            return "damaged"
        if self.result:
            return self.result
        return "setting up" if self.phase == "setup" else "in progress"

    @property
    def deal_text(self) -> str:
        """The deal as a record's Seed header and `companion games` write it."""
        pysol = self.pysol
        if pysol is not None:
            return f"PySolFC {pysol}"
        return "physical" if self.seed is None else str(self.seed)

    @property
    def deal_name(self) -> str:
        """``seed 42``, ``PySolFC game 123456`` or ``physical deal``, as titles say it."""
        pysol = self.pysol
        if pysol is not None:
            return f"PySolFC game {pysol}"
        return "physical deal" if self.seed is None else f"seed {self.seed}"

    def damaged_text(self, path: str) -> str:
        return (f"game {self.id} in {path} is damaged: {self.problem}. It cannot be shown, "
                f"resumed or exported; the other games are not affected (`companion games` "
                f"lists them).")


class _NeedsUpgrade(Exception):
    """A database opened read-only whose schema is older than this companion's."""


class DuplicateGame(StoreError):
    """An import of a game the database holds already (``game_id``); nothing was stored."""

    def __init__(self, game_id: int):
        self.game_id = game_id
        super().__init__(f"the same game is stored already as game {game_id}")


def _loads(text):
    """JSON text as data for comparing (None stays None; unreadable text stays text)."""
    if text is None or not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _minute(stamp: str | None) -> str | None:
    """A stored UTC stamp to the minute, for comparing."""
    try:
        return datetime.fromisoformat(stamp).astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError):
        return stamp


_GAME_COLUMNS = ("id, name, variant, options, seed, deal_version, start, phase, started_at, "
                 "updated_at, ended_at, result, termination, score")


class Store:
    """One open game database. Use :func:`open_store`; close with :meth:`close` or ``with``."""

    def __init__(self, path: str | os.PathLike, *, create: bool = True,
                 make_folder: bool = False, read_only: bool = False):
        self.path = str(path)
        self.make_folder = make_folder
        """Create a missing folder for a new database (only for the default place: a path the
        player chose in a folder that does not exist is refused, a typo is not a new folder)."""
        self.memory = self.path == ":memory:"
        self.read_only = read_only and not self.memory
        """Opened only to read (SQLite's mode=ro), so that a read-only file or folder still
        reads; every write is then refused by SQLite."""
        self._conn: sqlite3.Connection | None = None
        if not self.memory:
            self._precheck(create and not self.read_only)
        upgrade = False
        if self.read_only:
            try:
                self._open_read_only()
                return
            except _NeedsUpgrade:   # an older schema is upgraded once, which writes
                self.close()
                self.read_only, upgrade = False, True
        try:
            try:
                self._conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S,
                                             isolation_level=None)
            except sqlite3.Error as exc:
                raise self._error(exc, "open") from None
            try:
                self._open()
            except BaseException:
                self.close()
                raise
        except StoreError as exc:
            if not upgrade or "read-only" not in str(exc):
                raise
            raise StoreError(
                f"{self.path} was written by an older companion: this one upgrades it once "
                f"(a write) before it can read it, and it is read-only here. Nothing was "
                f"changed. Make the file and its folder writable for one command (e.g. "
                f"`companion games`), or copy it to a writable folder and give it with --db "
                f"PATH.") from None

    # ------------------------------------------------------------------ opening
    def _precheck(self, create: bool) -> None:
        p = Path(self.path)
        if p.is_dir():
            raise StoreError(f"{p} is a folder, not a game database: give a file name, e.g. "
                             f"--db {p / DB_FILE_NAME}")
        if not p.exists():
            if not create:
                raise StoreError(f"there is no game database at {p} yet: `companion play` "
                                 f"creates it")
            if not p.parent.is_dir() and not self.make_folder:
                raise StoreError(
                    f"cannot create the game database {p}: the folder {p.parent} does not "
                    f"exist. Create it first (mkdir -p {p.parent}), or choose another file "
                    f"with --db PATH or COMPANION_DB.")
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder for the game database {p}: "
                                 f"{exc.strerror or exc}. Choose another place with --db PATH "
                                 f"or COMPANION_DB.") from None
            return
        try:
            with open(p, "rb") as fh:
                head = fh.read(len(SQLITE_MAGIC))
        except OSError as exc:
            raise StoreError(f"cannot read the game database {p}: {exc.strerror or exc}. "
                             f"Check its permissions, or choose another file with --db PATH."
                             ) from None
        if head and head != SQLITE_MAGIC:
            raise StoreError(self._foreign_text("it is not an SQLite database"))

    def _foreign_text(self, why: str) -> str:
        return (f"{self.path} is not a companion game database ({why}). It was left "
                f"untouched. Choose another file with --db PATH or COMPANION_DB, or move this "
                f"one away.")

    def _newer_text(self, version: int) -> str:
        return (f"{self.path} was written by a newer companion (database schema version "
                f"{version}; this companion reads versions up to {SCHEMA_VERSION}). It was "
                f"left untouched: upgrade companion (pip install -U companion), or use "
                f"another file with --db PATH.")

    def _connect_read_only(self, flags: str) -> sqlite3.Connection:
        uri = Path(self.path).absolute().as_uri() + "?mode=ro" + flags
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # opens it for real
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_read_only(self) -> None:
        try:
            try:
                self._conn = self._connect_read_only("")
            except sqlite3.OperationalError as exc:
                low = str(exc).lower()
                wal = Path(self.path + "-wal")
                if not ("readonly" in low or "unable to open" in low) or (
                        wal.exists() and wal.stat().st_size):
                    raise
                # A read-only folder: SQLite cannot make the WAL's -shm file there. With no
                # WAL pending, the database file alone holds every game, so read it as is.
                self._conn = self._connect_read_only("&immutable=1")
            version = self._version()
        except sqlite3.Error as exc:
            self.close()
            raise self._error(exc, "open") from None
        except BaseException:
            self.close()
            raise
        if version > SCHEMA_VERSION:
            self.close()
            raise StoreError(self._newer_text(version))
        if version < SCHEMA_VERSION:
            raise _NeedsUpgrade

    def _open(self) -> None:
        conn = self._conn
        assert conn is not None
        try:
            version = self._version()
            if version > SCHEMA_VERSION:
                raise StoreError(self._newer_text(version))
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA synchronous = FULL")
            if version < SCHEMA_VERSION:
                if not self.memory:
                    self._enable_wal()
                self._migrate()
        except sqlite3.Error as exc:
            raise self._error(exc, "open") from None

    def _enable_wal(self) -> None:
        """Switch to WAL. Two processes opening a new database together can see this pragma
        fail at once with "locked" (SQLite does not always wait on its busy timeout here),
        so it is retried for as long as that timeout."""
        import time
        conn = self._conn
        assert conn is not None
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc).lower() or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _version(self) -> int:
        """The schema version; 0 for an empty database. Only reads."""
        conn = self._conn
        assert conn is not None
        tables = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if "companion_schema" not in tables:
            if tables or app_id not in (0, APPLICATION_ID):
                raise StoreError(self._foreign_text(
                    "an SQLite database of another program: it has tables "
                    + ", ".join(sorted(tables)[:5]) if tables else "another application id"))
            return 0
        if app_id != APPLICATION_ID:
            raise StoreError(self._foreign_text("its application id is not companion's"))
        row = conn.execute("SELECT version FROM companion_schema").fetchone()
        if row is None or not isinstance(row[0], int):
            raise StoreError(self._damaged_text("its schema version is missing"))
        return row[0]

    def _migrate(self) -> None:
        conn = self._conn
        assert conn is not None
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = self._version()  # again, inside the lock: another process may have won
            if current > SCHEMA_VERSION:
                raise StoreError(f"{self.path} was upgraded by a newer companion meanwhile "
                                 f"(schema {current}); upgrade companion.")
            for target in range(current + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[target]:
                    conn.execute(statement)
                conn.execute("UPDATE companion_schema SET version = ?", (target,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------------ errors
    def _damaged_text(self, why: str) -> str:
        return (f"the game database {self.path} is damaged ({why}). It was left untouched: "
                f"keep a copy, try `sqlite3 {self.path} .recover`, or start afresh with "
                f"another file (--db PATH or COMPANION_DB).")

    def _error(self, exc: sqlite3.Error, doing: str) -> StoreError:
        msg = str(exc)
        low = msg.lower()
        where = self.path
        folder = Path(where).parent
        if not self.memory and not self.read_only and folder.is_dir() \
                and not os.access(folder, os.W_OK) \
                and ("readonly" in low or "read-only" in low or "unable to open" in low):
            # SQLite writes its journal (-wal, -shm) beside the database
            what = ("write to the game database" if Path(where).exists()
                    else "create the game database")
            return StoreError(
                f"cannot {what} {where}: its folder {folder} is read-only, and SQLite keeps "
                f"its journal files beside the database. Nothing was changed. `companion "
                f"games`, `show`, `stats` and `export` still read it; to record, make the "
                f"folder writable, or copy the database to a writable folder and give it with "
                f"--db PATH or COMPANION_DB.")
        if "readonly" in low or "read-only" in low or "attempt to write" in low:
            return StoreError(
                f"cannot write to the game database {where}: it is read-only ({msg}). Nothing "
                f"was changed. Make the file and its folder writable, or choose another "
                f"database with --db PATH or COMPANION_DB.")
        if "full" in low:
            return StoreError(
                f"cannot write to the game database {where}: the disk is full ({msg}). Nothing "
                f"was changed. Free some space, then try again.")
        if "locked" in low or "busy" in low:
            return StoreError(
                f"the game database {where} is busy: another companion process has held it "
                f"for over {BUSY_TIMEOUT_S:.0f} s ({msg}). Nothing was changed; try again.")
        if "not a database" in low or "malformed" in low or "corrupt" in low:
            return StoreError(self._damaged_text(msg))
        if "unable to open" in low or "disk i/o" in low:
            return StoreError(
                f"cannot {doing} the game database {where}: {msg}. Check that the file and its "
                f"folder exist and are readable and writable, or choose another database with "
                f"--db PATH or COMPANION_DB.")
        return StoreError(f"the game database {where}: {doing} failed: {msg}")

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"the game database {self.path} is closed")
        return self._conn

    def _read(self, sql: str, args: Iterable = ()) -> list[tuple]:
        conn = self._connection()
        try:
            return conn.execute(sql, tuple(args)).fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc, "read") from None

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) around the ``with`` body.

        Whatever goes wrong, it is rolled back, so nothing is written; an SQLite error then
        becomes a :class:`StoreError` that says what to do."""
        conn = self._connection()
        try:
            try:
                conn.execute("BEGIN IMMEDIATE")
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        except sqlite3.IntegrityError as exc:
            raise StoreError(
                f"the game database {self.path} refused the change ({exc}): another companion "
                f"window may be recording the same game. Quit, then resume the game again."
            ) from None
        except sqlite3.Error as exc:
            raise self._error(exc, "write") from None

    def _write(self, statements: list[tuple[str, tuple]], *, check=None):
        """Run ``statements`` in one transaction; ``check(conn)`` runs first inside it."""
        with self._transaction() as conn:
            result = check(conn) if check else None
            last = None
            for sql, args in statements:
                last = conn.execute(sql, args)
        return result if check else last

    def _rollback(self) -> None:
        conn = self._conn
        try:
            if conn is not None and conn.in_transaction:
                conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass

    # ------------------------------------------------------------------ games
    def create_game(self, *, variant: str, options: dict, seed: int | None, deal_version: int,
                    name: str | None = None, start: str | None = None, phase: str = "play",
                    started_at: str | None = None) -> int:
        stamp = started_at or now()
        cur = self._write([(
            "INSERT INTO games (name, variant, options, seed, deal_version, start, phase, "
            "started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (name, variant, json.dumps(options, sort_keys=True), seed, deal_version, start,
             phase, stamp, now()))])
        return int(cur.lastrowid)

    def import_game(self, *, variant: str, options: dict, seed: int | None, deal_version: int,
                    name: str | None, start: str | None, started_at: str | None,
                    entries: list[tuple[str, bool]], result: str | None,
                    termination: str | None, score: int | None,
                    notes: list[tuple[int, str, str]] = (), again: bool = False) -> int:
        """A whole game in one transaction (the importer has replayed it already); ``notes``
        are (entries before it, kind, text).

        A game already stored with the same content (see :meth:`_same_game`) raises
        :class:`DuplicateGame`, unless ``again`` asks for a second copy."""
        stamp = now()
        with self._transaction() as conn:
            if not again:
                same = self._same_game(conn, variant, options, seed, deal_version, start,
                                       started_at, entries, result)
                if same is not None:
                    raise DuplicateGame(same)
            cur = conn.execute(
                "INSERT INTO games (name, variant, options, seed, deal_version, start, phase, "
                "started_at, updated_at, ended_at, result, termination, score) "
                "VALUES (?, ?, ?, ?, ?, ?, 'play', ?, ?, ?, ?, ?, ?)",
                (name, variant, json.dumps(options, sort_keys=True), seed, deal_version, start,
                 started_at or stamp, stamp, stamp if result else None, result, termination,
                 score))
            gid = int(cur.lastrowid)
            conn.executemany(
                "INSERT INTO moves (game_id, ply, text, reveal, at) VALUES (?, ?, ?, ?, ?)",
                [(gid, k, text, int(rev), stamp) for k, (text, rev) in enumerate(entries, 1)])
            conn.executemany(
                "INSERT INTO notes (game_id, ply, kind, text, at) VALUES (?, ?, ?, ?, ?)",
                [(gid, ply, kind, text, stamp) for ply, kind, text in notes])
        return gid

    @staticmethod
    def _same_game(conn, variant, options, seed, deal_version, start, started_at, entries,
                   result) -> int | None:
        """The first stored game with this content: variant, options, seed (or the typed start
        layout), moves with their reveals, result, and start time to the minute (a record's
        Date has no seconds; a record without one matches any time). The name and notes are
        labels, not the game."""
        rows = conn.execute(
            "SELECT id, options, start, started_at FROM games g WHERE variant = ? AND "
            "seed IS ? AND deal_version = ? AND phase = 'play' AND result IS ? AND "
            "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) = ? ORDER BY id",
            (variant, seed, deal_version, result, len(entries))).fetchall()
        want_moves = [(text, bool(rev)) for text, rev in entries]
        for gid, stored_options, stored_start, stored_at in rows:
            if _loads(stored_options) != options or _loads(start) != _loads(stored_start):
                continue
            if started_at and _minute(started_at) != _minute(stored_at):
                continue
            moves = [(t, bool(rv)) for t, rv in conn.execute(
                "SELECT text, reveal FROM moves WHERE game_id = ? ORDER BY ply", (gid,))]
            if moves == want_moves:
                return int(gid)
        return None

    def numbering(self) -> str:
        """Which game ids there are: "games here are numbered 1 to 3" (or one, or none)."""
        known = self._read("SELECT MIN(id), MAX(id), COUNT(*) FROM games")[0]
        return (f"games here are numbered {known[0]} to {known[1]}" if known[2] > 1
                else f"game {known[0]} is the only game here" if known[2]
                else "there are no games in it yet")

    def game(self, game_id: int) -> GameRow:
        # an id beyond SQLite's integers is no game (binding it would raise OverflowError)
        in_range = 1 <= game_id <= MAX_GAME_ID
        rows = self._games("WHERE g.id = ?", (game_id,)) if in_range else []
        if not rows:
            raise StoreError(f"no game {game_id} in {self.path}: {self.numbering()} "
                             f"(`companion games` lists them)")
        row = rows[0]
        if row.problem:
            raise StoreError(row.damaged_text(self.path))
        row.notes = [
            {"ply": p, "kind": k, "text": t, "at": a}
            for p, k, t, a in self._read(
                "SELECT ply, kind, text, at FROM notes WHERE game_id = ? ORDER BY id",
                (game_id,))]
        return row

    def games(self, variant: str | None = None) -> list[GameRow]:
        if variant:
            return self._games("WHERE g.variant = ?", (variant,))
        return self._games("", ())

    def _games(self, where: str, args: tuple) -> list[GameRow]:
        cols = ", ".join("g." + c.strip() for c in _GAME_COLUMNS.split(","))
        rows = self._read(
            f"SELECT {cols}, "
            "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id AND m.reveal = 0), "
            "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) "
            f"FROM games g {where} ORDER BY g.id", args)
        out = []
        for r in rows:
            problem = None
            try:
                options = json.loads(r[3]) if r[3] else {}
                if not isinstance(options, dict):
                    raise ValueError("options are not an object")
            except (ValueError, TypeError) as exc:
                options, problem = {}, f"its stored options are unreadable ({exc})"
            seed = r[4]
            if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
                problem = problem or (f"its stored seed {seed!r} is not a seed (a whole number "
                                      f"from 0 to {MAX_SEED})")
            if not isinstance(r[2], str) or not isinstance(r[5], int):
                problem = problem or "its variant or deal version is unreadable"
            out.append(GameRow(r[0], r[1], r[2], options, *r[4:14], moves=r[14],
                               entries=r[15], problem=problem))
        return out

    def moves(self, game_id: int) -> list[tuple[str, bool]]:
        """The game's move list: (canonical text, is a reveal), in order."""
        return [(t, bool(rv)) for t, rv in self._read(
            "SELECT text, reveal FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]

    # ------------------------------------------------------------------ changes
    def append(self, game_id: int, first_ply: int, entries: list[tuple[str, bool]]) -> None:
        """Record ``entries`` as plies ``first_ply``, ``first_ply + 1`` ... in one transaction.

        Refused (nothing written) when the game's last ply is not ``first_ply - 1``: another
        process is recording the same game."""
        stamp = now()

        def check(conn):
            (last,) = conn.execute("SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = ?",
                                   (game_id,)).fetchone()
            if last != first_ply - 1:
                raise StoreError(
                    f"game {game_id} in {self.path} has {last} recorded moves, not "
                    f"{first_ply - 1}: another companion window is recording it. Nothing was "
                    f"saved; quit, then `companion resume {game_id}`.")
            return True

        stmts = [("INSERT INTO moves (game_id, ply, text, reveal, at) VALUES (?, ?, ?, ?, ?)",
                  (game_id, first_ply + k, text, int(rev), stamp))
                 for k, (text, rev) in enumerate(entries)]
        stmts.append(("UPDATE games SET updated_at = ? WHERE id = ?", (stamp, game_id)))
        self._write(stmts, check=check)

    def truncate(self, game_id: int, keep: int) -> None:
        """Keep the first ``keep`` plies (undo); a finished game is in progress again."""
        stamp = now()
        self._write([
            ("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, keep)),
            ("UPDATE games SET updated_at = ?, ended_at = NULL, result = NULL, "
             "termination = NULL, score = NULL WHERE id = ? AND result IS NOT 'resigned'",
             (stamp, game_id)),
        ])

    def finish(self, game_id: int, result: str | None, termination: str | None = None,
               score: int | None = None) -> None:
        if result is not None and result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, not {result!r}")
        stamp = now()
        self._write([(
            "UPDATE games SET result = ?, termination = ?, score = ?, ended_at = ?, "
            "updated_at = ? WHERE id = ?",
            (result, termination, score, stamp if result else None, stamp, game_id))])

    def rewrite(self, game_id: int, start: str | None, entries: list[tuple[str, bool]]) -> None:
        """A corrected game (a misnamed card): its start (None: unchanged) and its whole move
        list replaced in one transaction, so the saved game is the old one or the new one."""
        stamp = now()
        stmts = [("DELETE FROM moves WHERE game_id = ?", (game_id,))]
        stmts += [("INSERT INTO moves (game_id, ply, text, reveal, at) VALUES (?, ?, ?, ?, ?)",
                   (game_id, k, text, int(rev), stamp))
                  for k, (text, rev) in enumerate(entries, 1)]
        if start is not None:
            stmts.append(("UPDATE games SET start = ? WHERE id = ?", (start, game_id)))
        stmts.append(("UPDATE games SET updated_at = ? WHERE id = ?", (stamp, game_id)))
        self._write(stmts)

    def set_start(self, game_id: int, start: str | None, phase: str) -> None:
        self._write([("UPDATE games SET start = ?, phase = ?, updated_at = ? WHERE id = ?",
                      (start, phase, now(), game_id))])

    def add_note(self, game_id: int, ply: int, kind: str, text: str) -> None:
        self._write([("INSERT INTO notes (game_id, ply, kind, text, at) VALUES (?, ?, ?, ?, ?)",
                      (game_id, ply, kind, text, now()))])

    # ------------------------------------------------------------------ housekeeping
    def schema_version(self) -> int:
        return self._read("SELECT version FROM companion_schema")[0][0]

    def journal_mode(self) -> str:
        return self._read("PRAGMA journal_mode")[0][0]

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_store(path: str | os.PathLike | None = None, *, create: bool = True,
               read_only: bool = False) -> Store:
    """The database at ``path`` (or the default one); ``create=False`` for commands that
    need an existing one, which then fail with a clear message when there is none yet;
    ``read_only=True`` (implies ``create=False``) for those that only read, so that they work
    on a database in a read-only file or folder.

    The user data folder is created for the default database; a database the player placed
    (``--db PATH``, ``COMPANION_DB``) in a folder that does not exist is refused."""
    if path == ":memory:":
        return Store(":memory:", create=create)
    chosen = bool(path) or bool(os.environ.get("COMPANION_DB", "").strip())
    return Store(resolve_path(path), create=create, make_folder=not chosen,
                 read_only=read_only)


class GameLog:
    """What a :class:`~.session.Recorder` writes through: one game in one store."""

    def __init__(self, store: Store, game_id: int):
        self.store = store
        self.game_id = game_id

    def append(self, first_ply: int, entries: list[tuple[str, bool]]) -> None:
        self.store.append(self.game_id, first_ply, entries)

    def truncate(self, keep: int) -> None:
        self.store.truncate(self.game_id, keep)

    def finish(self, result: str | None, termination: str | None = None,
               score: int | None = None) -> None:
        self.store.finish(self.game_id, result, termination, score)

    def set_start(self, start: str | None, phase: str) -> None:
        self.store.set_start(self.game_id, start, phase)

    def rewrite(self, start: str | None, entries: list[tuple[str, bool]]) -> None:
        self.store.rewrite(self.game_id, start, entries)

    def note(self, ply: int, kind: str, text: str) -> None:
        self.store.add_note(self.game_id, ply, kind, text)

"""`companion export`, `companion import`: a recorded game as a plain-text record, and back."""

from __future__ import annotations

import sys

import click

from ..record import RecordError, StoreError
from ..record.format import MAX_RECORD_BYTES, game_headers, read_record, write_record
from ..record.games import load_game
from ..record.store import DuplicateGame
from .common import DescribedArgument, echo_json
from .gamedb import GAME_ID, check_game_id, db_option, json_option, open_db, plural


@click.command()
@click.argument("game_id", type=GAME_ID, metavar="ID")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write to this file (default: standard output).")
@db_option
def export(game_id, output, db):
    """Write game ID as a plain-text record (headers, then numbered moves).

    The record is like PGN for chess: a header block (variant, options, seed
    or physical, deal version, date, result, and the start position of a
    physical game), then the moves in the engine's notation with the cards
    named as they turned up (`t3=9c`). `companion import` reads it back.

    \b
    Examples:
      companion export 3
      companion export 3 -o sunday.txt
    """
    check_game_id(game_id, db)
    with open_db(db, read_only=True) as store:
        game = load_game(store, game_id)
    row, v, entries = game.row, game.variant, game.entries
    try:
        game.position()   # a record that would not import is not written
    except StoreError as exc:
        raise StoreError(f"{exc}. Game {game_id} was not exported: its record would not "
                         f"import.") from None
    comments: dict[int, list[str]] = {}
    for note in row.notes:
        comments.setdefault(int(note["ply"]), []).append(note["text"])
    text = write_record(game_headers(row, v), entries, comments)
    if not output or output == "-":
        click.echo(text, nl=False)
        return
    _write_atomic(output, text)
    click.echo(f"Game {game_id} written to {output} ({plural(row.moves, 'move')}).", err=True)


def _write_atomic(path: str, text: str) -> None:
    import os
    import tempfile
    given = path
    path = os.path.realpath(path)   # a symbolic link stays, its target is replaced (as `sheet`)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        raise click.ClickException(f"cannot write {given}: there is no folder {folder} (create "
                                   "it, or choose another place with -o)")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".companion-", suffix=".tmp", dir=folder)
        try:
            if hasattr(os, "fchmod"):   # mkstemp's file is private (600): give the usual mode
                os.fchmod(fd, _file_mode(path))
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise click.ClickException(f"cannot write {given}: {exc.strerror or exc}") from None


def _file_mode(path: str) -> int:
    """The permissions the file keeps (it exists) or gets as a new file under the umask."""
    import os
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


@click.command("import")
@click.argument("record_file", type=click.Path(dir_okay=False, allow_dash=True),
                metavar="FILE", cls=DescribedArgument,
                description="A game record, as `companion export` writes it; `-` reads standard "
                            "input.")
@click.option("--again", is_flag=True,
              help="Store the game even if the database holds the same game already (a "
                   "second copy, which `companion stats` then counts twice).")
@db_option
@json_option
def import_cmd(record_file, again, db, as_json):
    """Read a game record (as `companion export` writes it) into the database.

    Every header is checked and every move replayed through the rules
    engine; the first problem is reported with its line number, and nothing
    is stored.

    A game the database holds already (the same variant, options, deal or
    start layout, moves, result and date) is not stored twice: import says
    which game it is; --again stores a second copy anyway.

    \b
    Examples:
      companion import sunday.txt
      companion export 3 | companion import - --db other.sqlite3
    """
    name = "standard input" if record_file == "-" else record_file
    try:
        if record_file == "-":
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            with open(record_file, "rb") as fh:
                data = fh.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {name}: {exc.strerror or exc}",
                                 param_hint="FILE") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{name} is over {MAX_RECORD_BYTES} bytes: not a game record")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{name} is not UTF-8 text ({exc.reason} at byte "
                          f"{exc.start}): not a game record") from None
    try:
        game = read_record(text)
    except RecordError as exc:
        raise RecordError(f"{name}, {exc}") from None
    moves = sum(1 for _, rev in game.entries if not rev)
    with open_db(db) as store:
        try:
            gid = store.import_game(variant=game.variant, options=game.options,
                                    seed=game.seed, deal_version=game.deal_version,
                                    name=game.name, start=game.start,
                                    started_at=game.started_at, entries=game.entries,
                                    result=game.result, termination=game.termination,
                                    score=game.score, notes=game.notes, again=again)
        except DuplicateGame as dup:
            import shlex
            deal = ("physical deal" if game.seed is None and game.pysol is None else
                    f"seed {game.seed}" if game.pysol is None else f"PySolFC game {game.pysol}")
            raise RecordError(
                f"{name} is already stored as game {dup.game_id} in {store.path} "
                f"({game.variant}, {deal}, {plural(moves, 'move')}, "
                f"{game.result or 'in progress'}): nothing was imported. `companion show "
                f"{dup.game_id}` shows it; to store a second copy anyway (counted twice by "
                f"`companion stats`), type `companion import {shlex.quote(record_file)} "
                f"--again{f' --db {shlex.quote(db)}' if db else ''}`.") from None
        path = store.path
    if as_json:
        echo_json({"game": gid, "variant": game.variant, "seed": game.seed,
                   **({} if game.pysol is None else {"pysol": game.pysol}), "moves": moves,
                   "result": game.result, "db": path})
        return
    click.echo(f"Imported {name} as game {gid} ({game.variant}, {plural(moves, 'move')}, "
               f"{game.result or 'in progress'}) into {path}.")

"""The game database at the command line, for the commands that read or write recorded games:
the ID argument, the --db, --json and --moves-file options, opening the store, loading a game."""

from __future__ import annotations

import re

import click

from ..record.games import load_game
from ..record.store import MAX_GAME_ID, open_store, resolve_path
from ..rules.variant import format_option
from .completion import game_items


class _GameId(click.ParamType):
    """A stored game's id: a whole number from 1 (`companion games` lists them).

    Any whole number converts; one no game can have (below 1, or beyond SQLite's integers)
    is refused by :func:`check_game_id`, once the database can say which ids it holds."""

    name = "ID"
    description = "A recorded game's id (`companion games` lists them)."

    def shell_complete(self, ctx, param, incomplete):
        return game_items(ctx, incomplete)

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip()
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            self.fail(f"{value!r}: a game id must be a number; see `companion games` for "
                      f"the games and their ids", param, ctx)
        return int(text)


GAME_ID = _GameId()


def check_game_id(game_id: int, db) -> None:
    """A usage error (exit 2) for a number no game can have, naming the ids there are."""
    if 1 <= game_id <= MAX_GAME_ID:
        return
    path = resolve_path(db)
    if path.exists():
        with open_store(db, read_only=True) as store:
            where, there = f" in {path}", f"{store.numbering()} (`companion games` lists them)"
    else:
        where, there = "", (f"there is no game database at {path} yet (`companion play` "
                            f"starts one, `companion games` lists them)")
    start = "game ids start at 1, and " if game_id < 1 else ""
    raise click.BadParameter(f"no game {game_id}{where}: {start}{there}", param_hint="ID")


def db_option(f):
    return click.option(
        "--db", "db", type=click.Path(dir_okay=False), envvar=None, metavar="PATH",
        help="The game database (default: $COMPANION_DB, else games.sqlite3 in your user "
             "data folder).")(f)


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(f)


def moves_file_option(f):
    return click.option(
        "--moves-file", type=click.File("r", encoding="utf-8"), metavar="FILE",
        help="Read the lines to type from a file (one a line; # starts a comment; - for "
             "standard input) instead of the keyboard.")(f)


def open_db(db, create: bool = True, read_only: bool = False):
    return open_store(db, create=create, read_only=read_only)


def game_title(variant, deal: str) -> str:
    """``Klondike (klondike), seed 42, draw=1``; ``deal`` names the deal (a game row's or a
    position's ``deal_name``)."""
    opts = variant.changed_options()
    extra = (", " + ", ".join(f"{k}={format_option(v)}" for k, v in opts.items())) if opts \
        else ""
    return f"{variant.name} ({variant.key}), {deal}{extra}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def lines_from(stream):
    for raw in stream:
        line = raw.rstrip("\r\n")
        if "#" in line:
            line = line.split("#", 1)[0]
        if line.strip():
            yield line


def stored_game(game_id, db):
    """(row, variant, start position, entries) of a stored game, for show/replay/export."""
    check_game_id(game_id, db)
    with open_db(db, read_only=True) as store:
        game = load_game(store, game_id)
    return game.row, game.variant, game.start, game.entries

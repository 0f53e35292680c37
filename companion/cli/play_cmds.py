"""`companion play`, `resume`, `games`, `show`, `replay`, `stats`, `export`, `import`, `verify`:
the game recorder at the command line.

The commands parse options, open the game database and hand typed lines to the recorder's
state machine (:mod:`companion.record.session`); this module only reads lines and prints
replies. Each runs interactively in a terminal, or non-interactively from a file
(``--moves-file``) or piped standard input, with ``--json`` where the output is data.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys

import click

from ..cards import UNKNOWN, code_json, code_text
from ..errors import CompanionError
from ..pysolfc import first_turn_note
from ..record import RecordError, StoreError
from ..record.format import MAX_RECORD_BYTES, game_headers, read_record, write_record
from ..record.games import load_game, start_json, variant_of
from ..record.layout import LayoutEntry
from ..record.session import Session
from ..record.store import MAX_GAME_ID, DuplicateGame, GameLog, local_time, open_store, resolve_path
from ..render.text import render
from ..rules import DEAL_VERSION, Position, deal
from ..rules.describe import describe_move
from ..rules.moves import place_text
from ..rules.variant import format_option
from ..vision import VisionError
from .common import (
    SEED,
    VARIANT,
    DescribedArgument,
    display,
    display_flags,
    echo_json,
    load_variant_or_fail,
    one_deal,
    option_flag,
    outcome_text,
    parse_options,
    pysol_option,
    pysol_position,
    read_position,
)
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


def _store(db, create: bool = True, read_only: bool = False):
    return open_store(db, create=create, read_only=read_only)


def _title(variant, deal: str) -> str:
    """``Klondike (klondike), seed 42, draw=1``; ``deal`` names the deal (a game row's or a
    position's ``deal_name``)."""
    opts = variant.changed_options()
    extra = (", " + ", ".join(f"{k}={format_option(v)}" for k, v in opts.items())) if opts \
        else ""
    return f"{variant.name} ({variant.key}), {deal}{extra}"


def _variant_of(row):
    return variant_of(row)


# ------------------------------------------------------------------------------ the loop

def _lines_from(stream):
    for raw in stream:
        line = raw.rstrip("\r\n")
        if "#" in line:
            line = line.split("#", 1)[0]
        if line.strip():
            yield line


def run_session(session, *, moves_file=None, as_json: bool = False, quiet: bool = False,
                intro: list[str] | None = None) -> int:
    """Feed lines to ``session`` until it ends or input runs out. Exit status: 1 if any line
    was refused (non-interactive), else 0."""
    intro = intro or []
    interactive = moves_file is None and sys.stdin.isatty() and not as_json
    if interactive:
        return _interactive(session, intro)
    stream = moves_file if moves_file is not None else sys.stdin
    transcript = []
    refused = 0
    if not as_json:
        for line in intro:
            click.echo(line)
        if not quiet:
            click.echo(session.board())
    for line in _lines_from(stream):
        prompt = session.prompt()
        reply = session.handle(line)
        if not reply.ok:
            refused += 1
        if as_json:
            transcript.append({"input": line, **reply.to_json()})
        else:
            click.echo(f"{prompt}{line}")
            # --quiet leaves out the layout after each move, not the one `show` asks for
            text = "\n".join(reply.lines) if quiet and reply.kind != "show" else reply.text
            if text:
                click.echo(text)
        if session.done:
            break
    if not session.done:
        end = _kept_text(session)
        if not as_json and end:
            click.echo(end)
    if as_json:
        echo_json({"ok": refused == 0, "refused": refused, "entries": transcript,
                   **session.state_json()})
    return 1 if refused else 0


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _kept_text(session) -> str:
    if session.game_id is None:
        return ""
    n = session.move_count
    kept = f"End of input: game {session.game_id} kept ({_plural(n, 'move')}); "
    if session.phase == "over":
        return kept + f"it is over: `companion show {session.game_id}` shows it."
    return kept + f"`companion resume {session.game_id}` goes on."


def _interactive(session, intro: list[str]) -> int:
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history for input())
    for line in intro:
        click.echo(line)
    click.echo(session.board())
    if session.phase != "setup":
        waiting = session.handle("")
        if waiting.lines:
            click.echo(waiting.text)
    while not session.done:
        try:
            line = input(session.prompt())
        except (EOFError, KeyboardInterrupt):
            click.echo()
            line = "quit"
        try:
            reply = session.handle(line)
        except KeyboardInterrupt:
            # The database holds every accepted move; what was being done is not half-kept.
            click.echo()
            if session.game_id is not None:
                click.echo(f"Interrupted: game {session.game_id} is kept as saved; "
                           f"`companion resume {session.game_id}` goes on.")
            return 130
        if reply.text:
            click.echo(reply.text)
    return 0


# ------------------------------------------------------------------------------ play

@click.command()
@click.argument("variant", type=VARIANT)
@click.option("--seed", type=SEED, help="A seeded deal (0 to 4294967295): the engine knows "
                                        "every card, as on its setup sheet.")
@click.option("--physical", is_flag=True, help="A deck you shuffled yourself: you type the "
                                               "face-up cards, then each card as it turns up.")
@pysol_option
@option_flag
@click.option("--name", help="A name for the game (shown by `companion games`).")
@db_option
@moves_file_option
@display_flags
@json_option
@click.option("--quiet", "-q", is_flag=True, help="Non-interactive: do not draw the layout "
                                                  "after every move.")
def play(variant, seed, physical, pysol, options, name, db, moves_file, as_json, quiet):
    """Record a game of VARIANT played with real cards, checking every move.

    Deal the cards (a seeded deal from `companion deal` or a setup sheet, or
    your own shuffle with --physical), then type each move as you make it:
    `t3 t5`, `3 5`, `7h`, `w f`, `s`. Illegal moves are refused with the
    rule's reason; `undo`, `redo`, `moves`, `show`, `hint`, `help`, `resign`
    and `quit` work at the prompt. Every accepted move is saved at once: quit
    (or lose power) at any time and `companion resume ID` goes on.

    In a physical game you first type the face-up cards of the layout, pile by
    pile, and later name each card as it turns up; `scan PHOTO` (or `scan
    cam0`) reads them from a photo instead. In a seeded game the
    recorder says which card should turn up; type `t3=CARD` if yours differs
    (a dealing error).

    --pysol N records PySolFC's game N (the number in PySolFC's title bar):
    deal it as `companion deal VARIANT --pysol N` or its setup sheet shows,
    and the recorder knows every card, as in a seeded game; the record keeps
    the game number, so `resume`, `show`, `replay` and `export` name it.

    Standard input that is not a terminal (or --moves-file) is read line by
    line, as if typed; the exit status is then 1 if any line was refused.

    \b
    Examples:
      companion play klondike --seed 42
      companion play spider --seed 7 --name "Sunday"
      companion play klondike --physical
      companion play solitaire --pysol 123456
      companion play klondike --seed 42 --moves-file moves.txt --json
    """
    one_deal(seed=seed, pysol=pysol, physical=physical)
    if seed is None and not physical and pysol is None:
        raise click.UsageError("say which deal: --seed N for a seeded deal (as `companion "
                               "deal` draws it), --pysol N for PySolFC's game N, or "
                               "--physical for a deck you shuffled")
    opts = parse_options(options)
    v = load_variant_or_fail(variant, opts)
    start = pysol_position(variant, pysol, opts) if pysol is not None else None
    d = display()
    with _store(db) as store:
        if start is not None:
            # the start position, with its game number, is the record of the deal: the seed
            # column stays empty (see GameRow.pysol)
            session = Session(start, symbols=d.symbols, colour=d.colour)
            gid = store.create_game(variant=v.key, options=v.changed_options(), seed=None,
                                    deal_version=DEAL_VERSION, name=name,
                                    start=json.dumps(start.to_json()))
        elif physical:
            session = Session.physical(v, symbols=d.symbols, colour=d.colour)
            setup = session.phase == "setup"
            gid = store.create_game(
                variant=v.key, options=v.changed_options(), seed=None,
                deal_version=DEAL_VERSION, name=name,
                start=json.dumps({"layout": {}} if setup else session.start.to_json()),
                phase="setup" if setup else "play")
        else:
            session = Session.seeded(v, seed, symbols=d.symbols, colour=d.colour)
            gid = store.create_game(variant=v.key, options=v.changed_options(), seed=seed,
                                    deal_version=DEAL_VERSION, name=name)
        session.log = GameLog(store, gid)
        session.game_id = gid
        intro = [f"{_title(v, session.start.deal_name)}: game {gid}, saved in {store.path}"]
        if start is not None:
            intro.append(f"Deal it as `companion deal {v.key} --pysol {pysol}` shows (or its "
                         f"setup sheet, `companion sheet {v.key} --pysol {pysol}`). `help` "
                         f"lists what you can type.")
            note = first_turn_note(v)
            if note:
                intro.append(note)
        elif physical and session.layout is not None:
            intro.append("Type the face-up cards of your layout, pile by pile, bottom to top "
                         "(`help` explains).")
            intro.append(session.layout.instructions())
        elif physical:
            intro.append("Nothing is face up yet: play, and name each card as it turns up "
                         "(`help` explains).")
        else:
            intro.append(f"Deal it as `companion deal {v.key} --seed {seed}` shows (`companion "
                         f"verify {v.key} --seed {seed}` checks your layout). `help` lists "
                         f"what you can type.")
        code = run_session(session, moves_file=moves_file, as_json=as_json, quiet=quiet,
                           intro=intro)
    click.get_current_context().exit(code)


@click.command()
@click.argument("game_id", type=GAME_ID, metavar="ID")
@db_option
@moves_file_option
@display_flags
@json_option
@click.option("--quiet", "-q", is_flag=True, help="Non-interactive: do not draw the layout "
                                                  "after every move.")
def resume(game_id, db, moves_file, as_json, quiet):
    """Go on with game ID where it was left (`companion games` lists them).

    Every stored move is replayed through the rules engine first, so the
    position is exactly the one you left. A physical game left while its
    layout was being typed goes on with the layout.

    \b
    Examples:
      companion resume 3
      companion resume 3 --moves-file more-moves.txt
    """
    session, store, row, v = _open_session(game_id, db)
    with store:
        if row.result == "resigned":
            raise click.ClickException(f"game {game_id} was resigned and is closed; start "
                                       f"a new one with `companion play`")
        intro = [f"{_title(v, row.deal_name)}: game {game_id}"
                 + (f" ({row.name})" if row.name else "")
                 + f", {_plural(session.move_count, 'move')} played, saved in {store.path}"]
        if session.phase == "setup":
            intro.append(session.layout.instructions())
        elif session.outcome() is not None:
            intro.append(f"Game {game_id} is over: `companion show {game_id}` shows it. "
                         + session._over_text())
        code = run_session(session, moves_file=moves_file, as_json=as_json, quiet=quiet,
                           intro=intro)
    click.get_current_context().exit(code)


def _open_session(game_id, db):
    check_game_id(game_id, db)
    d = display()
    store = _store(db, create=False)
    try:
        row = store.game(game_id)
        v = _variant_of(row)
        log = GameLog(store, game_id)
        kw = {"log": log, "game_id": game_id, "symbols": d.symbols, "colour": d.colour}
        if row.phase == "setup":
            stored = _json_field(row, store)
            session = Session.in_setup(deal(v, None), stored.get("layout", {}),
                                       stored.get("undo"), **kw)
        else:
            if row.seed is not None:
                start = deal(v, row.seed)
            else:
                start = Position.from_json(_json_field(row, store))
            entries = [t for t, _ in store.moves(game_id)]
            session = Session.resume(start, entries, **kw)
            o = session.outcome()
            if o is not None and row.result != o.result() and row.result != "resigned":
                store.finish(game_id, o.result(), o.termination.value, o.score)
            elif o is None and row.result in ("won", "lost"):
                store.finish(game_id, None)
    except BaseException:
        store.close()
        raise
    return session, store, row, v


def _json_field(row, store) -> dict:
    return start_json(row, store.path)


# ------------------------------------------------------------------------------ listing

def _row_json(row, v=None) -> dict:
    return {"id": row.id, "name": row.name, "variant": row.variant,
            "identity": v.identity if v else row.variant, "options": row.options,
            "seed": row.seed, **({} if row.pysol is None else {"pysol": row.pysol}),
            "physical": row.physical, "started_at": row.started_at,
            "ended_at": row.ended_at, "moves": row.moves, "status": row.status,
            "result": row.result, "termination": row.termination, "score": row.score,
            "problem": row.problem}


def _identity(row) -> str:
    try:
        return _variant_of(row).identity
    except Exception:
        return row.variant


@click.command()
@click.option("--variant", "variant_filter", type=VARIANT, help="Only games of this variant.")
@db_option
@json_option
def games(variant_filter, db, as_json):
    """List the recorded games: id, variant, deal, start, moves and result.

    \b
    Examples:
      companion games
      companion games --variant spider
      companion games --json
    """
    path = resolve_path(db)
    if not path.exists():
        if as_json:
            echo_json([])
        else:
            click.echo(f"No games yet ({path} does not exist): `companion play` starts one.")
        return
    with _store(db, read_only=True) as store:
        rows = store.games(variant_filter)
    if as_json:
        echo_json([_row_json(r) | {"identity": _identity(r)} for r in rows])
        return
    if not rows:
        click.echo("No games yet." if not variant_filter else f"No {variant_filter} games yet.")
        return
    table = [("id", "name", "variant", "deal", "started", "moves", "result")]
    for r in rows:
        table.append((str(r.id), _cell(r.name or ""), _cell(_identity(r)), _cell(r.deal_text),
                      local_time(r.started_at), str(r.moves), r.status))
    _echo_table(table, right={0, 5})
    for r in rows:
        if r.problem:
            click.echo(f"Game {r.id} is damaged: {r.problem}. It cannot be shown, resumed or "
                       f"exported; the others are not affected.", err=True)


NAME_CELL = 30
"""The widest a name (or other free text) is shown in the `games` table."""


def _cell(text: str, width: int = NAME_CELL) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def _echo_table(rows, right=frozenset()) -> None:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    for r in rows:
        cells = [r[c].rjust(widths[c]) if c in right else r[c].ljust(widths[c])
                 for c in range(len(r))]
        click.echo("  ".join(cells).rstrip())


def _load_game(game_id, db):
    """(row, variant, start position, entries) of a stored game, for show/replay/export."""
    check_game_id(game_id, db)
    with _store(db, read_only=True) as store:
        game = load_game(store, game_id)
    return game.row, game.variant, game.start, game.entries


def _positions(start, entries, game_id: int | None = None):
    """Yield (move number, entries so far, position) after each move and its reveals."""
    pos = start.copy()
    number = 0
    yield 0, 0, pos.copy()
    for n, text in enumerate(entries, 1):
        try:
            pos.play(text)
        except CompanionError as exc:
            game = f"game {game_id}: " if game_id is not None else ""
            raise StoreError(f"{game}stored move {n} ({text}) does not replay: "
                             f"{getattr(exc, 'reason', None) or exc}. The stored game is "
                             f"damaged; `companion games` lists the others.") from None
        if "=" not in text:
            number += 1
        nxt = entries[n] if n < len(entries) else None
        if nxt is None or "=" not in nxt:
            yield number, n, pos.copy()


def _numbered(entries, upto: int | None = None) -> list[str]:
    out: list[str] = []
    number = 0
    for n, text in enumerate(entries, 1):
        if upto is not None and n > upto:
            break
        if "=" in text and out:
            out[-1] += " " + text
        else:
            number += 1
            out.append(f"{number}. {text}")
    return out


def _wrap(items: list[str], width: int = 96) -> list[str]:
    lines, cur = [], ""
    for it in items:
        if cur and len(cur) + 2 + len(it) > width:
            lines.append(cur)
            cur = it
        else:
            cur = f"{cur}  {it}" if cur else it
    if cur:
        lines.append(cur)
    return lines


def _render(pos) -> str:
    d = display()
    return render(pos, symbols=d.symbols, colour=d.colour)


def _outcome_line(pos) -> str:
    return "" if pos.pending_reveals() else outcome_text(pos.outcome())


@click.command()
@click.argument("game_id", type=GAME_ID, metavar="ID")
@click.option("--at", "at", type=click.IntRange(min=0), metavar="N",
              help="The position after move N (0: the start). Default: the latest.")
@db_option
@display_flags
@json_option
def show(game_id, at, db, as_json):
    """Show game ID: its details, the position (latest, or after move N) and its moves.

    \b
    Examples:
      companion show 3
      companion show 3 --at 10
      companion show 3 --json
    """
    row, v, start, entries = _load_game(game_id, db)
    steps = list(_positions(start, entries, game_id))
    total = steps[-1][0]
    if at is not None and at > total:
        raise click.BadParameter(f"game {game_id} has {_plural(total, 'move')}: give --at 0 "
                                 f"to {total}",
                                 param_hint="--at")
    number, upto, pos = steps[-1] if at is None else next(s for s in steps if s[0] == at)
    d = display()
    if as_json:
        o = None if pos.pending_reveals() else pos.outcome()
        echo_json({"game": _row_json(row, v), "at": number, "moves": entries[:upto],
                   "all_moves": entries, "notes": row.notes, "position": pos.to_json(),
                   "outcome": None if o is None else {
                       "result": o.result(), "termination": o.termination.value,
                       "score": o.score}})
        return
    head = f"Game {row.id}" + (f" ({row.name})" if row.name else "") + \
        f": {_title(v, row.deal_name)}, started {local_time(row.started_at)}, " \
        f"{total} move{'s' if total != 1 else ''}, {row.status}"
    click.echo(head)
    if number == 0:
        click.echo("At the start.")
    else:
        click.echo(f"After move {number} of {total}: " + _numbered(entries, upto)[-1]
                   .split(". ", 1)[1])
    click.echo(_render(pos))
    end = _outcome_line(pos)
    if end:
        click.echo(end)
    if entries:
        click.echo("Moves:")
        for line in _wrap(_numbered(entries)):
            click.echo("  " + line)
    for note in row.notes:
        after = sum(1 for t in entries[:int(note["ply"])] if "=" not in t)
        click.echo(d.text(f"Note after move {after}: {note['text']}"))


@click.command()
@click.argument("game_id", type=GAME_ID, metavar="ID")
@db_option
@display_flags
@json_option
@click.option("--step/--no-step", default=None,
              help="Wait for Enter between moves (default: when standard input is a "
                   "terminal).")
def replay(game_id, db, as_json, step):
    """Replay game ID move by move, drawing the position after each.

    In a terminal it waits for Enter between moves (b goes back one, q stops).

    \b
    Examples:
      companion replay 3
      companion replay 3 --no-step | less
      companion replay 3 --json
    """
    row, v, start, entries = _load_game(game_id, db)
    d = display()
    if as_json:
        echo_json({"game": _row_json(row, v), "steps": [
            {"move": n, "entries": entries[:k], "position": p.to_json()}
            for n, k, p in _positions(start, entries, game_id)]})
        return
    steps = list(_positions(start, entries, game_id))
    moves = _numbered(entries)
    if step is None:
        step = sys.stdin.isatty() and sys.stdout.isatty()
    click.echo(f"Game {row.id}: {_title(v, row.deal_name)}, {_plural(len(moves), 'move')}")
    i = 0
    while i < len(steps):
        number, upto, pos = steps[i]
        if number == 0:
            click.echo("Start:")
        else:
            text = moves[number - 1]
            prev = steps[i - 1][2]
            first = entries[steps[i - 1][1]]
            words = ""
            try:
                raw = prev.to_raw(prev.parse_move(first))
                words = " (" + describe_move(prev.engine, raw, prev.piles, prev.down,
                                            d.symbols) + ")"
            except Exception:
                words = ""
            click.echo(f"Move {text}{words}")
        click.echo(_render(pos))
        end = _outcome_line(pos) if i == len(steps) - 1 else ""
        if end:
            click.echo(end)
        if step and i < len(steps) - 1:
            try:
                answer = input("Enter: next, b: back, q: stop> ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                click.echo()
                break
            if answer == "q":
                break
            if answer == "b":
                i = max(i - 1, 0)
                continue
        i += 1


@click.command()
@click.argument("variant", type=VARIANT, required=False)
@db_option
@json_option
def stats(variant, db, as_json):
    """Games, wins, win rate and moves, per variant (or for VARIANT).

    The win rate counts finished games: won, lost and resigned.

    \b
    Examples:
      companion stats
      companion stats klondike
      companion stats --json
    """
    path = resolve_path(db)
    rows = []
    if path.exists():
        with _store(db, read_only=True) as store:
            rows = store.games(variant)
    damaged = [r for r in rows if r.problem]
    rows = [r for r in rows if not r.problem]
    if damaged:
        ids = ", ".join(str(r.id) for r in damaged)
        click.echo(f"Not counted: game{'s' if len(damaged) != 1 else ''} {ids}, damaged "
                   f"(`companion games` says what is wrong).", err=True)
    table: dict[str, dict] = {}
    for r in rows:
        t = table.setdefault(r.variant, {"variant": r.variant, "games": 0, "won": 0,
                                         "lost": 0, "resigned": 0, "in_progress": 0,
                                         "moves": 0})
        t["games"] += 1
        t["moves"] += r.moves
        key = r.result if r.result in ("won", "lost", "resigned") else "in_progress"
        t[key] += 1
    items = [table[k] for k in sorted(table)]
    for t in items:
        finished = t["won"] + t["lost"] + t["resigned"]
        t["win_rate"] = round(t["won"] / finished, 4) if finished else None
        t["moves_per_game"] = round(t["moves"] / t["games"], 1) if t["games"] else None
    if as_json:
        echo_json(items)
        return
    if not items:
        click.echo(f"No {variant} games yet." if variant else "No games yet.")
        return
    out = [("variant", "games", "won", "lost", "resigned", "playing", "win rate", "moves",
            "moves/game")]
    for t in items:
        out.append((t["variant"], str(t["games"]), str(t["won"]), str(t["lost"]),
                    str(t["resigned"]), str(t["in_progress"]),
                    "-" if t["win_rate"] is None else f"{100 * t['win_rate']:.0f}%",
                    str(t["moves"]), f"{t['moves_per_game']:.1f}"))
    _echo_table(out, right=set(range(1, 9)))


# ------------------------------------------------------------------------------ records

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
    with _store(db, read_only=True) as store:
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
    click.echo(f"Game {game_id} written to {output} ({_plural(row.moves, 'move')}).", err=True)


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
    with _store(db) as store:
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
                f"({game.variant}, {deal}, {_plural(moves, 'move')}, "
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
    click.echo(f"Imported {name} as game {gid} ({game.variant}, {_plural(moves, 'move')}, "
               f"{game.result or 'in progress'}) into {path}.")


# ------------------------------------------------------------------------------ verify

@click.command()
@click.argument("variant", type=VARIANT)
@click.option("--seed", type=SEED, required=True, help="The seeded deal you meant to lay out.")
@click.option("--layout", "layout_file", type=click.Path(dir_okay=False),
              help="The layout as a JSON position (as `companion deal --json` writes it) "
                   "instead of typing it.")
@click.option("--photo", "photo", type=click.Path(dir_okay=False), metavar="PHOTO",
              help="Read the layout from a photo of the table (`cam0` for webcam 0) instead "
                   "of typing it.")
@option_flag
@display_flags
@json_option
def verify(variant, seed, layout_file, photo, options, as_json):
    """Check a dealt layout against seed N of VARIANT, card by card.

    Type the face-up cards you dealt, pile by pile, bottom to top (a whole
    pile, or a row across the piles, per line), or give the layout as a JSON
    position with --layout, or photograph it with --photo. Every card that
    is not where the seeded deal puts it is reported with its place, then a
    verdict; the exit status is 1 when anything differs. A photographed card
    that cannot be read with confidence is named and not checked: look at
    it on the table. A card read below the threshold whose only reading
    the rules allow (as `companion scan` marks it with *) is checked and
    named as inferred: look at it on the table too.

    \b
    Examples:
      companion verify klondike --seed 42
      echo "7h 6h 2h 2s kd jc 8c" | companion verify klondike --seed 1
      companion verify spider --seed 7 --layout table.json --json
      companion verify klondike --seed 42 --photo table.jpg
    """
    opts = parse_options(options)
    v = load_variant_or_fail(variant, opts)
    deal_pos = Position.deal(v, seed)
    d = display()
    eng = deal_pos.engine
    if layout_file and photo:
        raise click.UsageError("give either --layout or --photo, not both")
    if photo:
        # late-bound: tests monkeypatch scan on integrate
        from ..vision.integrate import (
            compare_with_deal,
            no_cards_message,
            parse_source,
            scan,
            source_name,
        )
        path, camera = parse_source(photo)
        reading = scan(path, camera, v.key)
        if not reading["cards"]:
            raise VisionError(no_cards_message(source_name(path, camera)))
        report = compare_with_deal(deal_pos, reading, d.symbols)
    elif layout_file:
        given = read_position(layout_file, v.key, opts, param_hint="--layout")
        report = _compare_positions(deal_pos, given)
    else:
        g = eng.groups
        skip = set(g.foundation_set) | {g.stock, g.waste, g.aside}
        slots = [(i, k) for i, p in enumerate(deal_pos.piles) if i not in skip
                 for k in range(deal_pos.down[i], len(p))]
        entry = LayoutEntry(deal_pos, slots)
        if not _type_layout(entry, deal_pos, as_json):
            click.get_current_context().exit(1)
        report = _compare_entry(deal_pos, entry)
    ok = not report["mismatches"] and not report["missing"] and not report["problems"] \
        and not report.get("uncertain")
    report.update({"variant": v.key, "options": v.changed_options(), "seed": seed, "ok": ok})
    if as_json:
        echo_json(report)
    else:
        for line in report["problems"]:
            click.echo(d.text(line))
        for m in report["mismatches"]:
            click.echo(d.text(f"{m['place']}: expected {m['expected_text']}, found "
                              f"{m['found_text']}"))
        if report["missing"]:
            click.echo("Not found in the photo (not checked): " + "; ".join(report["missing"])
                        if photo else "Not typed in (not checked): "
                        + ", ".join(report["missing"]))
        for u in report.get("uncertain", []):
            click.echo(d.text(f"Could not be read with confidence (not checked): {u['text']}"))
        inferred = report.get("inferred", [])
        for u in inferred:
            click.echo(d.text(u["text"]))
        for line in _verdict(report, v.key, seed, photo):
            click.echo(line)
    click.get_current_context().exit(0 if ok else 1)


def _verdict(report, variant, seed, photo) -> list[str]:
    """The verdict of `verify`, after the lines listed: what differs, counted as listed (cards
    out of place, cards read beyond the deal's piles or outside them, piles not as dealt),
    how many cards were checked (of how many read in a photo), and where more of a photo's
    cards lie beyond the layout than were checked, or most cards checked differ, the likelier
    mistake: another game, or another seed."""
    checked, seed_text = report["checked"], f"seed {seed}"
    if report["ok"]:
        inferred = report.get("inferred", [])
        return [f"The layout matches {seed_text}: all {_plural(checked, 'card')} checked are where "
                f"the deal puts them" + (
                    f" ({len(inferred)} of them inferred from the rules, named above: check "
                    f"{'it' if len(inferred) == 1 else 'them'} on the table)." if inferred
                    else ".")]
    if checked == 0 and not report["mismatches"] and not report["problems"]:
        how = "could be read with confidence from the photo" if photo else "was typed in"
        return [f"Nothing was checked: no card {how}. " + ("Photograph the layout from above, in even light, with the "
                                 "card corners in view, or type it: `companion verify "
                                 f"{variant} --seed {seed}`." if photo else
                                 "Type the face-up cards pile by pile, bottom to top, at the "
                                 f"prompts of `companion verify {variant} --seed {seed}` in a "
                                 "terminal or one pile a line on its standard input, or give "
                                 "--layout FILE or --photo PHOTO.")]
    read = report.get("read")
    of = f" of {read} read" if read is not None else ""
    mis = len(report["mismatches"])
    extra = report.get("extra", {})
    n_extra = sum(len(v) for v in extra.values())
    unplaced = len(report.get("unplaced", []))
    others = len(report["problems"]) - len(extra) - (1 if unplaced else 0)
    parts = []
    if mis:
        parts.append(f"{_plural(mis, 'card')} not where the deal puts {'it' if mis == 1 else 'them'}")
    if n_extra:
        parts.append(f"{_plural(n_extra, 'card')} read beyond the face-up cards the deal puts in "
                     f"{_plural(len(extra), 'pile')}")
    if unplaced:
        parts.append(f"{_plural(unplaced, 'card')} read outside the piles")
    if others:
        parts.append(f"{_plural(others, 'pile')} not as dealt")
    if not parts:
        return [f"Incomplete: the {_plural(checked, 'card')} checked ({of.strip() or 'all typed'}) "
                f"are where the deal puts them, but "
                + ("not every card could be read from the photo: check the cards named above "
                   "on the table." if photo else "not every pile was typed in.")]
    out = [f"The layout does NOT match {seed_text}: " + "; ".join(parts)
           + f" ({_plural(checked, 'card')}{of} checked against the deal). Put "
           f"{'it' if mis + n_extra + unplaced + others == 1 else 'them'} right before you play "
           f"(the recorder follows the seeded deal)."]
    beyond = n_extra + unplaced
    if photo and beyond >= 3 and beyond > checked:
        out.append(f"{beyond} of the {read} cards read lie beyond the layout {variant} deals; "
                   f"only {checked} {'was' if checked == 1 else 'were'} checked against it: "
                   f"is the photo of another game? Check the variant and --seed "
                   f"(`companion scan PHOTO` shows what was read, and names the game where a "
                   f"setup sheet's QR code is in view).")
    elif mis >= 3 and 2 * mis > checked:
        out.append(f"Most of the cards checked differ from {seed_text}: is the layout another "
                   f"deal? Check --seed (and the variant).")
    return out


def _type_layout(entry, deal_pos, as_json) -> bool:
    """Read typed lines into ``entry`` until it is complete or input ends."""
    interactive = sys.stdin.isatty() and not as_json
    d = display()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401
        click.echo("Type the face-up cards of the layout you dealt, pile by pile, bottom to "
                   "top. `help` explains, `quit` stops.")
        click.echo(entry.instructions())
    lines = None if interactive else _lines_from(sys.stdin)
    while not entry.complete:
        prompt = entry.prompt()
        if interactive:
            try:
                line = input(prompt)
            except (EOFError, KeyboardInterrupt):
                click.echo()
                return True
        else:
            line = next(lines, None)
            if line is None:
                return True
        key = line.strip().lower()
        if key in ("quit", "q"):
            return True
        if key == "help":
            click.echo("Cards for the pile the prompt names (9c 8h), a row across the piles "
                       "(one card each), or a pile name first to correct it (t3: 9c); `undo` "
                       "takes back the last line.")
            continue
        if key == "undo":
            click.echo("Took back the last line." if entry.undo() else "Nothing to undo.")
            continue
        res = entry.enter(line)
        if not interactive and not as_json:
            click.echo(f"{prompt}{line}")
        if not as_json or not res.ok:
            msg = d.text(res.message + ("" if res.ok else "."))
            click.echo(msg if res.ok else f"Refused: {msg}", err=as_json)
    return True


def _compare_entry(deal_pos, entry) -> dict:
    d = display()
    names = deal_pos.engine.names
    mismatches = []
    for i, k, code in entry.cards():
        expected = deal_pos.piles[i][k]
        if expected != code:
            mismatches.append({
                "pile": names[i], "height": k,
                "place": place_text(names, i, k, len(deal_pos.piles[i])),
                "expected": code_json(expected), "found": code_json(code),
                "expected_text": code_text(expected, d.symbols),
                "found_text": code_text(code, d.symbols)})
    return {"checked": entry.count, "mismatches": mismatches, "missing": entry.missing(),
            "problems": []}


def _compare_positions(deal_pos, given) -> dict:
    d = display()
    names = deal_pos.engine.names
    mismatches, problems = [], []
    checked = 0
    for i, name in enumerate(names):
        want, got = deal_pos.piles[i], given.piles[i]
        if len(want) != len(got):
            problems.append(f"{name}: {len(got)} card{'s' if len(got) != 1 else ''} in your "
                            f"layout, the deal puts {len(want)} there")
        elif deal_pos.down[i] != given.down[i]:
            problems.append(f"{name}: {given.down[i]} face down in your layout, the deal has "
                            f"{deal_pos.down[i]}")
        for k in range(min(len(want), len(got))):
            if got[k] == UNKNOWN:
                continue
            checked += 1
            if got[k] != want[k]:
                mismatches.append({
                    "pile": name, "height": k,
                    "place": place_text(names, i, k, len(want)),
                    "expected": code_json(want[k]), "found": code_json(got[k]),
                    "expected_text": code_text(want[k], d.symbols),
                    "found_text": code_text(got[k], d.symbols)})
    return {"checked": checked, "mismatches": mismatches, "missing": [], "problems": problems}

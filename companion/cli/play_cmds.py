"""`companion play`, `companion resume`: the game recorder at the command line.

The commands parse options, open the game database and hand typed lines to the recorder's
state machine (:class:`companion.app.session.Session`); this module only reads lines and prints
replies. Each runs interactively in a terminal, or non-interactively from a file
(``--moves-file``) or piped standard input, with ``--json`` where the output is data.
"""

from __future__ import annotations

import contextlib
import json
import sys

import click

from ..app.session import Session
from ..pysolfc import first_turn_note
from ..record.games import start_json, variant_of
from ..record.store import GameLog
from ..rules import DEAL_VERSION, Position, deal
from .common import (
    SEED,
    VARIANT,
    display,
    display_flags,
    echo_json,
    load_variant_or_fail,
    one_deal,
    option_flag,
    parse_options,
    pysol_option,
    pysol_position,
)
from .gamedb import (
    GAME_ID,
    check_game_id,
    db_option,
    game_title,
    json_option,
    lines_from,
    moves_file_option,
    open_db,
    plural,
)


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
    for line in lines_from(stream):
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


def _kept_text(session) -> str:
    if session.game_id is None:
        return ""
    n = session.move_count
    kept = f"End of input: game {session.game_id} kept ({plural(n, 'move')}); "
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
    with open_db(db) as store:
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
        intro = [f"{game_title(v, session.start.deal_name)}: game {gid}, saved in {store.path}"]
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
        intro = [f"{game_title(v, row.deal_name)}: game {game_id}"
                 + (f" ({row.name})" if row.name else "")
                 + f", {plural(session.move_count, 'move')} played, saved in {store.path}"]
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
    store = open_db(db, create=False)
    try:
        row = store.game(game_id)
        v = variant_of(row)
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

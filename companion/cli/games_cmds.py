"""`companion games`, `show`, `replay`, `stats`: the recorded games, listed, shown, replayed
and counted."""

from __future__ import annotations

import sys

import click

from ..errors import CompanionError
from ..record import StoreError
from ..record.games import variant_of
from ..record.store import local_time, resolve_path
from ..render.text import render
from ..rules.describe import describe_move
from .common import VARIANT, display, display_flags, echo_json, outcome_text
from .gamedb import GAME_ID, db_option, game_title, json_option, open_db, plural, stored_game


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
        return variant_of(row).identity
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
    with open_db(db, read_only=True) as store:
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
    row, v, start, entries = stored_game(game_id, db)
    steps = list(_positions(start, entries, game_id))
    total = steps[-1][0]
    if at is not None and at > total:
        raise click.BadParameter(f"game {game_id} has {plural(total, 'move')}: give --at 0 "
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
        f": {game_title(v, row.deal_name)}, started {local_time(row.started_at)}, " \
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
    row, v, start, entries = stored_game(game_id, db)
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
    click.echo(f"Game {row.id}: {game_title(v, row.deal_name)}, {plural(len(moves), 'move')}")
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
        with open_db(db, read_only=True) as store:
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

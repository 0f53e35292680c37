"""`companion deal`, `companion moves`, `companion check`: the rules engine at the command line."""

from __future__ import annotations

import secrets

import click

from ..cards import code_json
from ..pysolfc import first_turn_note
from ..render.text import render
from ..rules import Position, start_deck_order
from ..rules.moves import split_moves
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
    play_after,
    play_moves,
    position_options,
    pysol_option,
    pysol_position,
    read_moves_file,
    start_position,
)


def _render(pos) -> str:
    d = display()
    return render(pos, symbols=d.symbols, colour=d.colour)


def _title(pos) -> str:
    v = pos.variant
    opts = v.changed_options()
    extra = (", " + ", ".join(f"{k}={val}" for k, val in opts.items())) if opts else ""
    return f"{v.name} ({v.key}), {pos.deal_name}{extra}"


def _with_pysol(pos, data: dict) -> dict:
    """``data`` with the PySolFC game number after its "seed" when the deal is one (absent
    otherwise, so the JSON of seeded deals keeps its form)."""
    if pos.pysol is None:
        return data
    out = {}
    for k, val in data.items():
        out[k] = val
        if k == "seed":
            out["pysol"] = pos.pysol
    return out


def _outcome_json(pos):
    o = pos.outcome()
    if o is None:
        return None
    return {"result": o.result(), "termination": o.termination.value, "score": o.score}


def _outcome_text(pos) -> str:
    return outcome_text(pos.outcome())


@click.command()
@click.argument("variant", type=VARIANT)
@click.option("--seed", type=SEED, help="Which deal (0 to 4294967295). Default: a random one, "
                                        "printed so you can deal it again.")
@pysol_option
@option_flag
@display_flags
@click.option("--json", "as_json", is_flag=True,
              help="Print the position in its JSON form (with the deck order and fingerprint).")
def deal(variant, seed, pysol, options, as_json):
    """Draw the layout of VARIANT as dealt for a seed, or as PySolFC deals its game N.

    The same seed gives the same deal on every machine and every later
    version (see seeds/README.md). Face-down cards are drawn as backs; pile
    names (t1, f1, s, w ...) are those that moves use.

    --pysol N deals PySolFC's game N instead (the number PySolFC shows in its
    title bar): the same cards in every pile, the stock in the order PySolFC
    turns it, from the shuffle of the pysol-cards package PySolFC uses.
    Numbers 1 to 31999 are the Microsoft-compatible deals (game 1 deals the
    pack of FreeCell deal 1), larger ones PySolFC's own, up to 20 digits.
    PySolFC's Klondike turns the first stock card(s) onto the waste as it
    deals; here that is your first move, s. PySolFC deals klondike,
    solitaire, golf and streets-and-alleys here; pysol-cards lays out none
    of our other variants.

    \b
    Examples:
      companion deal klondike --seed 42
      companion deal spider --seed 7 --json
      companion deal klondike --seed 42 --option draw=1
      companion deal solitaire --pysol 123456
    """
    one_deal(seed=seed, pysol=pysol)
    opts = parse_options(options)
    if pysol is not None:
        pos = pysol_position(variant, pysol, opts)
    else:
        v = load_variant_or_fail(variant, opts)
        if seed is None:
            seed = secrets.randbelow(1_000_000) + 1
        pos = Position.deal(v, seed)
    if as_json:
        data = pos.to_json()
        data["fingerprint"] = pos.fingerprint()
        data["deck_order"] = [code_json(c) for c in start_deck_order(pos)]
        echo_json(data)
        return
    click.echo(_title(pos))
    click.echo(_render(pos))
    if pos.pysol is not None:
        note = first_turn_note(pos.variant)
        if note:
            click.echo(note)


@click.command()
@click.argument("variant", type=VARIANT)
@position_options()
@display_flags
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def moves(variant, seed, pysol, position_file, after, options, as_json):
    """List the legal moves of VARIANT in a position.

    The position is a seeded deal (--seed) or a JSON file (--position), after
    any moves given with --after. Moves are listed in canonical notation, in
    the engine's documented order.

    \b
    Examples:
      companion moves klondike --seed 42
      companion moves klondike --seed 42 --after 's, s, w t6'
      companion moves spider --position game.json --json
    """
    pos = start_position(variant, seed, position_file, parse_options(options), pysol)
    played = play_after(pos, after, as_json=as_json)
    legal = [str(m) for m in pos.legal_moves]
    if as_json:
        echo_json(_with_pysol(pos, {
            "variant": pos.variant.key, "options": dict(pos.variant.options),
            "seed": pos.seed, "after": played, "moves": legal, "count": len(legal),
            "outcome": _outcome_json(pos), "position": pos.to_json()}))
        return
    if after:
        click.echo(_render(pos))
    if legal:
        click.echo(f"{len(legal)} legal move{'s' if len(legal) != 1 else ''}: "
                   + ", ".join(legal))
    else:
        click.echo("No legal move.")
    end = _outcome_text(pos)
    if end:
        click.echo(end)


@click.command()
@click.argument("variant", type=VARIANT)
@click.argument("move_args", nargs=-1, metavar="MOVE...", cls=DescribedArgument,
                description="A move in the notation `companion rules VARIANT` shows (`t1 t5`, "
                            "`s`, `7h t4`), or several separated by commas.")
@click.option("--seed", type=SEED, help="Start from the seeded deal N.")
@pysol_option
@click.option("--position", "position_file", type=click.Path(dir_okay=False),
              help="Start from a position in its JSON form.")
@click.option("--moves-file", type=click.File("rb"), metavar="FILE",
              help="Read the moves from a file: one per line (or separated by commas); "
                   "# starts a comment. Use - for standard input.")
@option_flag
@display_flags
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--quiet", "-q", is_flag=True, help="Do not draw the final position.")
def check(variant, move_args, seed, pysol, position_file, moves_file, options, as_json, quiet):
    """Apply MOVEs to a position of VARIANT, checking each against the rules.

    Each MOVE is one argument (quote moves with spaces), or several moves in
    one argument separated by commas. Card notation works too: `7h t4`, or
    `7h` alone when it has one legal move. At the first illegal move the
    reason is printed and the exit status is 1; otherwise the final position
    and the moves in canonical notation are printed.

    \b
    Examples:
      companion check klondike --seed 42 "t1 t5" s s "w t6"
      companion check klondike --seed 42 "t1 t5, s, s, w t6"
      companion check spider --seed 7 --moves-file game.txt --json
    """
    if move_args and moves_file:
        raise click.UsageError("give the moves as arguments or with --moves-file, not both")
    texts = split_moves(move_args) if move_args else (
        split_moves([read_moves_file(moves_file)]) if moves_file else [])
    if not texts:
        raise click.UsageError("no moves to check: give them as arguments (companion check "
                               "klondike --seed 1 's' 't1 t7') or with --moves-file FILE")
    pos = start_position(variant, seed, position_file, parse_options(options), pysol)
    played = play_moves(pos, texts, as_json=as_json)
    if as_json:
        echo_json({"ok": True, "played": played, "outcome": _outcome_json(pos),
                   "position": pos.to_json()})
        return
    click.echo(f"{len(played)} move{'s' if len(played) != 1 else ''} legal: " + ", ".join(played))
    if not quiet:
        click.echo(_title(pos))
        click.echo(_render(pos))
    end = _outcome_text(pos)
    if end:
        click.echo(end)

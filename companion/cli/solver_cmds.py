"""`companion solve`, `companion hint`, `companion survey`: the solver at the command line."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import click

from ..app import photo as app_photo
from ..errors import VariantError
from ..record.games import load_game
from ..record.store import open_store
from ..rules import Position, find_variant
from ..solver.hints import hint as make_hint
from ..solver.search import Limits, SolverError
from ..solver.search import solve as run_solve
from ..solver.survey import (
    budget_text,
    budgets_text,
    parse_seeds,
    read_done,
    record_budget,
    run,
    tally,
)
from .common import (
    MEGABYTES,
    SECONDS,
    VARIANT,
    display,
    display_flags,
    echo_json,
    load_variant_or_fail,
    one_deal,
    option_flag,
    parse_options,
    play_after,
    position_options,
    start_position,
)
from .completion import game_items, variant_items
from .gamedb import check_game_id, game_title


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _positive(ctx, param, value):
    if value is not None and value <= 0:
        raise click.BadParameter(f"{value} must be more than 0", param=param)
    return value


@click.command()
@click.argument("variant", type=VARIANT)
@position_options(seed_help="Solve the seeded deal N.",
                  position_help="Solve a position in its JSON form (every card must be known).")
@click.option("--timeout", type=SECONDS, default=30.0, show_default=True, callback=_positive,
              help="Seconds the search may take.")
@click.option("--nodes", type=int, default=None, callback=_positive, metavar="N",
              help="About how many positions the searches may expand between them "
                   "(checked every few hundred, so a small budget runs over it; "
                   "default: no limit).")
@click.option("--memory", "memory_mb", type=MEGABYTES, default=1024.0, show_default=True,
              callback=_positive, help="About how many MB the table of positions may take.")
@click.option("--format", "fmt", type=click.Choice(["numbered", "line"]), default=None,
              help="How a winning line is printed: 'numbered' (numbered moves, wrapped to "
                   "the terminal's width; the default in a terminal) or 'line' (one line, "
                   "moves separated by commas, as `companion check` reads it; the default "
                   "when the output is redirected).")
@click.option("--moves-file", "moves_out", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write a winning line to FILE, one move per line (the --after moves "
                   "first), as `companion check VARIANT --seed N --moves-file FILE` reads it.")
@display_flags
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def solve(variant, seed, pysol, position_file, after, options, timeout, nodes, memory_mb, fmt,
          moves_out, as_json):
    """Solve a deal of VARIANT: a winning line, a proof of loss, or unknown.

    The solver knows every card (thoughtful play, as in the published win
    rates). A won deal prints the winning line, numbered in a terminal,
    which `companion check` replays move by move (--moves-file FILE writes
    it for check to read); a lost verdict is printed only with a proof
    (every reachable position searched, or a card that can never move);
    unknown means the budget ran out (or Ctrl-C stopped the search; in a
    terminal a line on stderr counts the seconds meanwhile).

    \b
    Exit status: 0 won, 1 lost or unknown, 2 usage error.

    \b
    Examples:
      companion solve klondike --seed 42
      companion solve solitaire --pysol 123456
      companion solve solitaire --seed 7 --timeout 60 --json
      companion solve klondike --seed 42 --option draw=1 --moves-file line.txt
      companion check klondike --seed 42 --option draw=1 --moves-file line.txt
    """
    if moves_out is not None:
        _check_writable(moves_out)
    pos = start_position(variant, seed, position_file, parse_options(options), pysol)
    played = play_after(pos, after, as_json=as_json)
    watch = _Watch(timeout, show=not as_json and sys.stderr.isatty())
    try:
        with watch:
            r = run_solve(pos, Limits(seconds=timeout, nodes=nodes, memory_mb=memory_mb),
                          stop=watch)
    except SolverError as exc:
        raise click.UsageError(str(exc)) from None
    if watch.interrupted and r.reason == "stopped":
        r.reason = "stopped by Ctrl-C"
    if as_json:
        echo_json({"variant": pos.variant.key, "options": dict(pos.variant.options),
                   "seed": pos.seed, **_pysol_json(pos), "after": played, **r.to_json()})
    elif r.verdict == "won":
        if not r.moves:
            click.echo("(already won)")
        elif (fmt or ("numbered" if _to_terminal() else "line")) == "numbered":
            for row in numbered(r.moves, shutil.get_terminal_size((80, 24)).columns):
                click.echo(row)
        else:
            click.echo(", ".join(r.moves))
        first = f" after the {_count(len(played), 'move')} of --after" if played else ""
        click.echo(f"# won in {_count(len(r.moves), 'move')}{first} "
                   f"({_count(r.nodes, 'position')}, {r.seconds:.1f} s)", err=True)
    else:  # a comment line, so that a moves file made from the output stays readable
        reason = re.sub(r"\ball 1 reachable positions\b", "the 1 reachable position", r.reason)
        # a reason that counts positions counts them its own way (those one search reached):
        # a second, different count beside it would only puzzle
        counted = re.search(r"\b\d+ (reachable )?positions?\b", reason)
        spent = (f"{r.seconds:.1f} s" if counted
                 else f"{_count(r.nodes, 'position')}, {r.seconds:.1f} s")
        click.echo(display().text(f"# {r.verdict.capitalize()}: {reason} ({spent})."))
    if moves_out is not None:
        if r.verdict == "won":
            replay = _replay_command(pos, position_file, moves_out)
            _write_moves(moves_out, played, r.moves, replay)
            if not as_json:
                click.echo(f"# wrote the line to {moves_out}: {replay} replays it", err=True)
        elif not as_json:
            click.echo(f"# no winning line, so nothing was written to {moves_out}", err=True)
    if r.verdict != "won":
        click.get_current_context().exit(1)


def _to_terminal() -> bool:
    return bool(getattr(sys.stdout, "isatty", lambda: False)())


def numbered(moves: list[str], width: int) -> list[str]:
    """``moves`` numbered from 1 and laid out in rows across (``  1. t1 f    2. s``), as many
    to a row as fit in ``width`` columns (at least one)."""
    num = len(str(len(moves)))
    cell = max(len(m) for m in moves)
    per_row = max(1, (width - 1) // (num + 2 + cell + 3))
    rows = []
    for start in range(0, len(moves), per_row):
        cells = [f"{k + 1:>{num}}. {moves[k]:<{cell}}"
                 for k in range(start, min(start + per_row, len(moves)))]
        rows.append(("   ".join(cells)).rstrip())
    return rows


def _check_writable(path: str) -> None:
    """Refuse before the search a moves file that could not be written after it."""
    import os
    if path == "-":
        raise click.BadParameter(
            "'-' is standard output: to print the line as `companion check` reads it, use "
            "--format line (or redirect it: > line.txt)", param_hint="--moves-file")
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise click.BadParameter(f"{path}: there is no folder {folder}: create it first, or "
                                 f"give a path in a folder that exists",
                                 param_hint="--moves-file")
    if target.exists() and not target.is_file():
        raise click.BadParameter(f"{path} is not a file: give a file name such as line.txt",
                                 param_hint="--moves-file")
    if not os.access(target if target.exists() else folder, os.W_OK):
        raise click.BadParameter(f"{path}: no permission to write there: give a path in a "
                                 f"folder you can write to", param_hint="--moves-file")


def _pysol_json(pos) -> dict:
    """``{"pysol": N}`` for a PySolFC deal, else nothing (the JSON of other deals is as it
    was)."""
    return {} if pos.pysol is None else {"pysol": pos.pysol}


def _replay_command(pos, position_file, path: str) -> str:
    """The `companion check` command that replays the written moves file."""
    import shlex
    v = pos.variant
    start = (f"--position {shlex.quote(position_file)}" if position_file is not None
             else f"--pysol {pos.pysol}" if pos.pysol is not None else f"--seed {pos.seed}")
    opts = "".join(f" --option {k}={v.option_text(k)}" for k in v.changed_options())
    return f"companion check {v.key} {start}{opts} --moves-file {shlex.quote(path)}"


def _write_moves(path: str, after: list[str], moves: list[str], replay: str) -> None:
    """One move per line, as check reads them; # lines say what the file is."""
    lines = [f"# a winning line of {_count(len(moves), 'move')}; {replay} replays it"]
    if after:
        lines += [f"# the {_count(len(after), 'move')} of --after", *after,
                  "# then the solver's line"]
    lines += moves
    try:
        Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(
            f"cannot write {path}: {exc.strerror or exc}: give a path in a folder you can "
            f"write to (the line was printed above)") from None


class _Watch:
    """The solve's ``stop``: Ctrl-C stops the search (the verdict is then unknown, said as
    usual; a second Ctrl-C aborts), and in a terminal a line on stderr counts the seconds."""

    def __init__(self, timeout: float, show: bool):
        self.timeout, self.show = timeout, show
        self.interrupted = False
        self.start, self.shown = 0.0, -1

    def __enter__(self):
        import signal
        import time
        self.start = time.perf_counter()
        try:
            self.previous = signal.signal(signal.SIGINT, self._interrupt)
        except ValueError:  # not the main thread: Ctrl-C stays as it was
            self.previous = None
        return self

    def _interrupt(self, signum, frame):
        import signal
        self.interrupted = True
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the next one aborts

    def __call__(self) -> bool:
        if self.show:
            import time
            el = int(time.perf_counter() - self.start)
            if el != self.shown and el >= 1:
                self.shown = el
                click.echo(f"\rsearching: {el} s of {self.timeout:g} s (Ctrl-C stops)",
                           err=True, nl=False)
        return self.interrupted

    def __exit__(self, *exc):
        import signal
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
        if self.shown >= 0:
            click.echo("\r" + " " * 50 + "\r", err=True, nl=False)
        return False


class VariantOrGame(click.ParamType):
    """A variant's key or alias, or a saved game's id (digits only: no variant is a number).

    Converts to ``("variant", key)`` or ``("game", id)``."""

    name = "VARIANT|ID"
    description = ("A variant's key or alias (`companion variants` lists them), or a recorded "
                   "game's id (`companion games` lists them).")

    def shell_complete(self, ctx, param, incomplete):
        return game_items(ctx, incomplete) + variant_items(incomplete)

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        text = str(value).strip()
        if re.fullmatch(r"[+-]?[0-9]+", text):   # -5 is a number, though no game's
            return ("game", int(text))
        try:
            return ("variant", find_variant(text))
        except VariantError as exc:
            close = (" Did you mean: " + ", ".join(exc.suggestions) + "?") \
                if exc.suggestions else ""
            raise click.UsageError(
                f"{text!r} is neither a variant nor a saved game's id.{close} `companion "
                f"variants` lists the variants (companion hint klondike --seed 42); `companion "
                f"games` lists the saved games by id (companion hint 3).", ctx) from None


@click.command()
@click.argument("target", type=VariantOrGame(), metavar="VARIANT|ID", required=False)
@click.option("--variant", "variant_opt", type=VARIANT, metavar="VARIANT",
              help="The variant, for those who prefer to name it as an option: "
                   "`hint --position P --variant klondike` is `hint klondike --position P`.")
@position_options(
    seed_help="The seeded deal N.",
    position_help="A position in its JSON form (typed in, or read from a photo).",
    also=[click.option("--photo", "photo", type=click.Path(dir_okay=False), metavar="PHOTO",
                       help="Read the position from a photo of the table (`cam0` for "
                            "webcam 0).")])
@click.option("--db", "db", type=click.Path(dir_okay=False), metavar="PATH",
              help="With a game ID: the game database (default: $COMPANION_DB, else "
                   "games.sqlite3 in your user data folder).")
@click.option("--peek", is_flag=True,
              help="Use the face-down cards and the stock order (a seeded deal knows them): "
                   "an exact verdict, but not what a player at the table knows. Not for a "
                   "deck you shuffled yourself.")
@click.option("--samples", type=int, default=10, show_default=True, callback=_positive,
              metavar="N",
              help="Deals of the unseen cards to try (without --peek).")
@click.option("--timeout", type=SECONDS, default=1.0, show_default=True, callback=_positive,
              help="About how many seconds the hint may take in all (more: surer).")
@click.option("--explain", is_flag=True,
              help="Add a line on why this move beat the runner-up.")
@click.option("--seed-samples", "rng_seed", type=int, default=None, hidden=True)
@display_flags
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def hint(target, variant_opt, seed, pysol, position_file, photo, after, options, db, peek,
         samples, timeout, explain, rng_seed, as_json):
    """The best next move, with its reason and a verdict: in a game of VARIANT,
    or in the saved game ID (as `companion play` recorded it).

    The hint never looks at cards you have not seen: face-down cards and the
    stock's order are dealt at random many times (samples), each sample is
    solved, and the move that wins in most samples is suggested, with the
    estimated chance. --peek solves the real deal instead (exact, and says so);
    a game from a deck you shuffled yourself has nothing to peek at. In an
    open game (nothing face down) the verdict is always exact. When the budget
    allows, the reason says when the move is the only one that keeps the game
    winnable (proved: every other move loses), or the only one that won in any
    sample. --explain adds a line on why the move beat the runner-up.

    The hint knows the game's past (a saved game's moves, or --after): it never
    leads round in circles. A move back to a position already met in the game
    is suggested only when it won in more samples than any other move. Where
    every sample is lost, or every move leads back, it suggests nothing and
    says so: "no move improves the position: the game looks lost".

    A saved game's ID (`companion games` lists them) gives the hint for the
    position you reached, from the moves and cards you recorded; the game
    itself is only read, never changed.

    --photo reads the position from a photo of the table (as `companion scan`
    does); a card that cannot be read with confidence stops the hint and is
    named, so that nothing is guessed.

    \b
    Examples:
      companion hint 3                      # saved game 3, where you left it
      companion hint 3 --peek --timeout 10  # a seeded game: solve the real deal
      companion hint klondike --seed 42 --after 't1 t5, s'
      companion hint solitaire --pysol 123456 --peek
      companion hint klondike --position table.json --samples 20
      companion hint golf --photo table.jpg
      companion hint streets-and-alleys --seed 3
      companion hint klondike --seed 42 --peek --json
      companion hint 3 --explain
    """
    target = _hint_target(target, variant_opt)
    kind, value = target
    header, extra = None, {}
    if kind == "game":
        pos, header, extra = _game_position(value, db, seed, pysol, position_file, photo,
                                            options, peek)
    elif db is not None:
        raise click.UsageError(f"--db goes with a saved game's id (companion hint 3 --db "
                               f"{db}); {value} is a variant")
    elif photo is not None:
        one_deal(seed=seed, pysol=pysol, position=position_file, photo=photo)
        pos = _photo_position(value, photo, parse_options(options))
    else:
        pos = start_position(value, seed, position_file, parse_options(options), pysol)
    played = play_after(pos, after, as_json=as_json)
    d = display()
    try:
        h = make_hint(pos, peek=peek, samples=samples, seconds=timeout, rng_seed=rng_seed,
                      symbols=d.symbols)
    except SolverError as exc:
        raise click.UsageError(str(exc)) from None
    # a saved game waiting for a turned-up card to be named has no hint yet: say what to do
    # first, and exit 1 (no hint was given)
    waiting = kind == "game" and h.move is None and bool(pos.pending_reveals())
    if as_json:
        echo_json({**extra, "variant": pos.variant.key, "seed": pos.seed, **_pysol_json(pos),
                   "after": played, **h.to_json()})
        if waiting:
            click.get_current_context().exit(1)
        return
    if header:
        click.echo(d.text(header))
    click.echo(d.text(h.text()))
    if explain and h.why and h.move is not None:
        click.echo(d.text(f"Why: {h.why}"))
    if waiting:
        click.echo(f"`companion resume {value}` goes on with the game and asks for it.")
        click.get_current_context().exit(1)


def _hint_target(target, variant_opt):
    """The hint's (kind, value) from the VARIANT|ID argument and --variant."""
    if variant_opt is None:
        if target is None:
            raise click.UsageError("name the game: a variant (companion hint klondike --seed "
                                   "42) or a saved game's id (companion hint 3; `companion "
                                   "games` lists them)")
        return target
    if target is None:
        return ("variant", variant_opt)
    if target[0] == "game":
        raise click.UsageError(f"game {target[1]} is a saved game: it knows its variant, so "
                               f"leave out --variant")
    if target[1] != variant_opt:
        raise click.UsageError(f"two variants given: {target[1]} and --variant "
                               f"{variant_opt}; give one")
    return target


def _game_position(gid, db, seed, pysol, position_file, photo, options, peek):
    """The position saved game ``gid`` has reached, read (never written) from the store:
    (position, header line, JSON fields)."""
    given = [name for name, v in (("--seed", seed), ("--pysol", pysol),
                                  ("--position", position_file), ("--photo", photo))
             if v is not None]
    if options:
        given.append("--option")
    if given:
        raise click.UsageError(f"game {gid} is a saved game: it knows its deal and its "
                               f"options, so leave out {', '.join(given)}")
    check_game_id(gid, db)
    with open_store(db, read_only=True) as store:
        game = load_game(store, gid)
    row = game.row
    if peek and row.physical:
        raise click.UsageError(
            f"--peek cannot look at game {gid}'s hidden cards: it was dealt from a deck you "
            f"shuffled yourself, so nobody knows its face-down cards or the stock's order "
            f"(the recorder knows only the cards you named). Leave out --peek: the hint then "
            f"deals the unseen cards at random many times.")
    pos = game.position()
    name = f" ({row.name})" if row.name else ""
    n = row.moves
    header = (f"Game {gid}{name}: {game_title(game.variant, row.deal_name)}, after {n} "
              f"move{'s' if n != 1 else ''} ({row.status}).")
    return pos, header, {"game": gid, "moves_played": n, "status": row.status}


def _photo_position(variant, photo, options):
    """The position read from ``photo`` (a file, or ``cam0``); warnings go to stderr."""
    key = variant.key if hasattr(variant, "key") else variant
    path, camera = app_photo.parse_source(photo)
    source = app_photo.source_name(path, camera)
    reading = app_photo.scan(path, camera, key)   # looked up here: tests monkeypatch it
    pos, warnings = app_photo.photo_position(reading, source, display().text)
    if options:
        data = pos.to_json()
        data["options"] = {**(data.get("options") or {}), **options}
        pos = Position.from_json(data)
    for w in warnings:
        click.echo(f"Photo: {w}", err=True)
    return pos


@click.command()
@click.argument("variant", type=VARIANT)
@click.option("--seeds", "seeds_text", required=True, metavar="RANGE",
              help="The seeds to solve: 1-1000, or a list such as 1-10,20,30-40.")
@option_flag
@click.option("--jobs", type=int, default=None, callback=_positive, metavar="N",
              help="Worker processes (default: every core).")
@click.option("--timeout", type=SECONDS, default=10.0, show_default=True, callback=_positive,
              help="Seconds per deal; a deal not resolved by then counts as unknown.")
@click.option("--nodes", type=int, default=None, callback=_positive, metavar="N",
              help="Most positions per deal (default: no limit).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="JSONL file the results are appended to as they come; seeds already in "
                   "it are skipped, so an interrupted survey resumes, but those left unknown "
                   "with a smaller budget (--timeout, --nodes) are solved again. "
                   "Default: survey-VARIANT.jsonl.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Run the deals on a Dask distributed cluster (tcp://host:8786) instead of "
                   "local processes; needs the [cluster] extra, and companion on the workers.")
@click.option("--json", "as_json", is_flag=True, help="Print the tally as JSON.")
def survey(variant, seeds_text, options, jobs, timeout, nodes, out, scheduler, as_json):
    """Solve a range of seeded deals of VARIANT and report the win rate.

    Deals are solved in parallel, one line per deal is appended to the
    results file as it comes, and a progress line is written to stderr. Run
    again, it resumes: a deal already in the file is kept, but one left
    unknown with a smaller budget is solved again with this one. The
    report gives the observed win rate (won of the deals settled) and, apart,
    a 95 % Wilson interval that counts the unknown deals both ways (as lost
    for its low end, as won for its high end), also as centre ± half-width,
    the form Blake & Gent report theirs in.

    \b
    Examples:
      companion survey golf --seeds 1-300
      companion survey solitaire --seeds 1-1000 --jobs 16 --timeout 30
      companion survey klondike --seeds 1-200 --out k3.jsonl   # run again to resume
      companion survey solitaire --seeds 1-100000 --scheduler tcp://10.0.0.5:8786
    """
    try:
        seeds = parse_seeds(seeds_text)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--seeds") from None
    opts = parse_options(options)
    v = load_variant_or_fail(variant, opts)
    path = Path(out) if out else Path(f"survey-{v.identity.replace(':', '_')}.jsonl")
    tty = sys.stderr.isatty()

    def progress(line: str) -> None:
        click.echo(("\r" + line + "   ") if tty else line, err=True, nl=not tty)

    budget = budget_text(timeout, nodes)
    retried: list[dict] = []

    def retrying(records: list[dict]) -> None:
        retried.extend(records)
        click.echo(f"Solving again {_count(len(records), 'deal')} left unknown in {path} "
                   f"with a smaller budget ({budgets_text(records)}), now at {budget}.",
                   err=True)

    try:
        recs = run(v.key, opts, seeds, seconds=timeout, nodes=nodes, jobs=jobs, out=path,
                   progress=progress, scheduler=scheduler, retrying=retrying)
    except KeyboardInterrupt:
        done = read_done(path, v.identity)
        saved = sum(1 for s in seeds if s in done)
        click.echo(("\n" if tty else "") + f"Interrupted: {saved} of {len(seeds)} deals are "
                   f"in {path}; run the same command again to solve the rest.", err=True)
        click.get_current_context().exit(130)
    except SolverError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        raise click.BadParameter(f"cannot write {path}: {exc}", param_hint="--out") from None
    if tty:
        click.echo("", err=True)
    t = tally(recs.values())
    # an unknown is only as good as its budget: say which unknowns had another one
    unknown = [r for r in recs.values() if r.get("verdict") == "unknown"]
    other = [r for r in unknown if record_budget(r) != (timeout, nodes)]
    if as_json:
        groups: dict = {}
        for r in unknown:
            had = record_budget(r)
            groups[had] = groups.get(had, 0) + 1
        echo_json({"variant": v.identity, "seeds": seeds_text, "timeout": timeout,
                   "nodes": nodes, "out": str(path), **t.to_json(), "retried": len(retried),
                   "unknown_budgets": [
                       {"timeout": None if had is None else had[0],
                        "nodes": None if had is None else had[1],
                        "recorded": had is not None, "unknown": n}
                       for had, n in groups.items()]})
        return
    click.echo(f"{v.name} ({v.identity}), seeds {seeds_text}, {budget}: {t.text()}")
    if retried:
        click.echo(f"{_count(len(retried), 'deal')} left unknown with a smaller budget "
                   f"({budgets_text(retried)}) {'was' if len(retried) == 1 else 'were'} "
                   f"solved again at {budget}.")
    if other:
        click.echo(f"Of the {_count(len(unknown), 'unknown deal')}, {len(other)} "
                   f"{'is' if len(other) == 1 else 'are'} from an earlier run with another "
                   f"budget: {budgets_text(other)}.")
    click.echo(f"results in {path}")

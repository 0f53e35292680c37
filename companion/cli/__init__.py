"""The command line: one click group whose subcommands load lazily.

Each command parses its options, then imports the library code it needs inside its body, so
``companion --help`` stays instant (no engine, no numpy, cv2 or reportlab). No rule logic lives
here: commands ask :mod:`companion.rules`.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from .. import __version__

# name -> (module, attribute, one-line help shown by `companion --help` without importing it)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "variants": ("companion.cli.variants_cmds", "variants", "List the variants, or show one with its options."),
    "rules": ("companion.cli.variants_cmds", "rules", "Print a variant's rules, move notation and options."),
    "deal": ("companion.cli.engine_cmds", "deal", "Draw a deal of a variant: seeded, or PySolFC's game N."),
    "moves": ("companion.cli.engine_cmds", "moves", "List the legal moves in a position."),
    "check": ("companion.cli.engine_cmds", "check", "Apply moves and check each one against the rules."),
    "solve": ("companion.cli.solver_cmds", "solve", "Solve a deal: a winning line, a proof of loss, or unknown."),
    "hint": ("companion.cli.solver_cmds", "hint", "The best next move, without peeking at unseen cards."),
    "survey": ("companion.cli.solver_cmds", "survey", "Solve a range of seeds and report the win rate."),
    "sheet": ("companion.cli.sheet_cmds", "sheet", "Print setup sheets for seeded (or PySolFC) deals as a PDF."),
    "printables": ("companion.cli.sheet_cmds", "printables", "Regenerate the printable assets (sample booklet, play mat)."),
    "play": ("companion.cli.play_cmds", "play", "Record a game played with real cards, checking every move."),
    "resume": ("companion.cli.play_cmds", "resume", "Go on with a recorded game."),
    "games": ("companion.cli.games_cmds", "games", "List the recorded games."),
    "show": ("companion.cli.games_cmds", "show", "Show a recorded game: position (at any move) and moves."),
    "replay": ("companion.cli.games_cmds", "replay", "Replay a recorded game move by move."),
    "stats": ("companion.cli.games_cmds", "stats", "Games, wins, win rate and moves per variant."),
    "export": ("companion.cli.records_cmds", "export", "Write a recorded game as a plain-text record."),
    "import": ("companion.cli.records_cmds", "import_cmd", "Read a game record into the database, replaying every move."),
    "verify": ("companion.cli.verify_cmds", "verify", "Check a dealt layout against a seeded deal."),
    "scan": ("companion.cli.scan_cmds", "scan", "Read the cards in a photo of the table (and the sheet's QR code)."),
    "completion": ("companion.cli.completion", "completion", "Print the TAB-completion script for bash, zsh or fish."),
}

COMPLETE_VAR = "_COMPANION_COMPLETE"
"""Set by the completion scripts (`companion completion SHELL`) when the shell asks what TAB
offers: click's ``_{PROG_NAME}_COMPLETE`` for the console script ``companion``."""


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx, formatter):
        rows = [(name, help_) for name, (_, _, help_) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(self, ctx, args):
        name = args[0] if args else None
        # while completing (resilient parsing) an unknown name offers nothing, quietly
        if (name is not None and name not in COMMANDS and not name.startswith("-")
                and not ctx.resilient_parsing):
            import difflib
            close = difflib.get_close_matches(name, list(COMMANDS), n=3)
            hint = f" Did you mean: {', '.join(close)}?" if close else ""
            raise click.UsageError(f"no command {name!r}.{hint} See `companion --help`.", ctx)
        return super().resolve_command(ctx, args)

    def shell_complete(self, ctx, incomplete):
        # the names and one-line helps `companion --help` shows, without importing every
        # command; then the group's own options (click.Command's completion)
        from click.shell_completion import CompletionItem
        items = [CompletionItem(name, help=help_) for name, (_, _, help_) in COMMANDS.items()
                 if name.startswith(incomplete)]
        return items + click.Command.shell_complete(self, ctx, incomplete)


def _version(ctx, param, value):
    if not value or ctx.resilient_parsing:
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    click.echo(f"companion {__version__} (installed at {here}; Python {sys.version.split()[0]})")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version, where it is installed, and the Python version.")
@click.option("--ascii", "ascii_", is_flag=True, default=None,
              help="Write suits as letters (7h) instead of symbols (7♥).")
@click.option("--color/--no-color", default=None,
              help="Red suits in red. Default: on for a terminal, off when NO_COLOR is set "
                   "or output is piped.")
@click.pass_context
def cli(ctx, ascii_, color):
    """A companion for patience played with a real deck of cards.

    \b
    Records a game you play at the table, checking every move against the
    rules of 35 patience games; gives hints that never peek at hidden cards;
    prints setup sheets to deal a seeded game; reads photos of the table.
    Cards are typed as rank then suit: 7h, 10♠, Qs, Td. Moves name piles:
    `t3 t5`, `t3:4 t5` (four cards), `t3 f`, `w t2`, `s`.

    \b
    Start with:
      companion variants                      the games it knows
      companion sheet klondike --seed 42      a sheet to deal from (PDF)
      companion play klondike --seed 42       play it, move by move
      companion play klondike --physical      or play your own shuffle
      companion hint 1                        a hint in saved game 1
    """
    from .common import Display
    ctx.obj = Display.detect(ascii_=ascii_, color=color)


def main(argv=None) -> int:
    """Entry point: click's own error handling, plus no traceback for anything we raised."""
    if os.environ.get(COMPLETE_VAR):
        return _complete()
    from ..errors import CompanionError
    try:
        code = cli.main(args=argv, prog_name="companion", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.Abort:
        click.echo("Aborted.", err=True)
        return 1
    except CompanionError as exc:
        click.echo(f"Error: {exc}", err=True)
        return 1
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: say so plainly, keep the traceback for reports
        if os.environ.get("COMPANION_DEBUG"):
            raise
        click.echo(f"Internal error: {type(exc).__name__}: {exc}\n"
                   "This is a bug in companion. Run again with COMPANION_DEBUG=1 for the "
                   "traceback and report it.", err=True)
        return 3


def _complete() -> int:
    """Answer the shell's TAB (click reads COMPLETE_VAR and the words typed from the
    environment). Whatever goes wrong stays off the user's command line: no message, exit 1."""
    try:
        from . import completion  # noqa: F401  (its fish script, for fish_source)
        cli.main(args=[], prog_name="companion", complete_var=COMPLETE_VAR)
    except SystemExit as exc:  # click exits once it has answered
        return exc.code if isinstance(exc.code, int) else 1
    except Exception:
        if os.environ.get("COMPANION_DEBUG"):
            raise
        return 1
    return 0


def run() -> None:
    sys.exit(main())

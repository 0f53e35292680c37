"""Shared CLI pieces: display detection, parameter types, shared options, and naming, loading
and playing on a position.

Imports only click and the standard library at module level; the rules engine is imported
inside functions so that `--help` stays fast.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from ..cards import ascii_text, code_text
from ..errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    PositionError,
    VariantError,
)
from ..pysolfc import GAMES, NUMBER_HELP, deal, number_problem, unsupported_text
from ..rules import Position, find_variant, load_variant
from ..rules.moves import split_moves
from .completion import variant_items

MAX_POSITION_BYTES = 1_000_000
MAX_MOVES_BYTES = 10_000_000
SOURCES_DOC = "docs/rules.md"
"""Where the project says what each variant's sources (S0, PySolFC 150 ...) are: it ships
with the repository, unlike the research notes the rules were first drawn from."""


def source_line(v, label: str = "source") -> str:
    """``source: S0 Klondike, S2 (what each is: docs/rules.md in the companion repository)``;
    ASCII only, as any terminal can print it."""
    return f"{label}: {v.source} (what each is: {SOURCES_DOC} in the companion repository)"


@dataclass
class Display:
    symbols: bool = True
    colour: bool = False

    @classmethod
    def detect(cls, ascii_: bool | None = None, color: bool | None = None) -> Display:
        symbols = not ascii_ and _can_encode(sys.stdout, "♠♥♦♣░·")
        if color is None:
            color = (not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
                     and sys.stdout.isatty())
        return cls(symbols=symbols, colour=bool(color))

    def card(self, code: int) -> str:
        text = code_text(code, self.symbols)
        if self.colour and code < 52 and code // 13 in (1, 2):
            return click.style(text, fg="red")
        return text

    def text(self, s: str) -> str:
        """Replace suit symbols by letters when the terminal cannot show them."""
        if self.symbols:
            return s
        return ascii_text(s)


def outcome_text(o) -> str:
    """A finished game's end as `check`, `moves`, `show` and `replay` print it ("" while it
    goes on): ``Won.`` or ``Lost: why.``, with the score where the variant keeps one."""
    if o is None:
        return ""
    score = f" Score {o.score}." if o.score is not None else ""
    return ("Won." if o.won else f"Lost: {o.why}.") + score


def _can_encode(stream, text: str) -> bool:
    enc = getattr(stream, "encoding", None) or "ascii"
    try:
        text.encode(enc)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def display() -> Display:
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_object(Display) if ctx else None
    return obj or Display.detect()


class VariantType(click.ParamType):
    """A variant key or alias, with close matches suggested on a typo."""

    name = "VARIANT"
    description = "A variant's key or alias, such as `klondike` (`companion variants` lists them)."

    def shell_complete(self, ctx, param, incomplete):
        return variant_items(incomplete)

    def convert(self, value, param, ctx):
        try:
            return find_variant(value)
        except VariantError as exc:  # said plainly, without click's "Invalid value for '[VARIANT]'"
            raise click.UsageError(str(exc), ctx) from None


class DescribedArgument(click.Argument):
    """An argument with a ``description`` for the command reference (docs/commands.md).
    click's own argument ``help`` is new in click 8.5 and would change ``--help`` there only."""

    def __init__(self, *args, description: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.description = description


class SeedType(click.ParamType):
    name = "N"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            seed = value
        else:
            try:
                seed = int(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a seed: use a whole number such as 42", param, ctx)
        if not 0 <= seed <= 2**32 - 1:
            self.fail(f"{seed} is out of range: seeds run from 0 to {2**32 - 1}", param, ctx)
        return seed


class PysolType(click.ParamType):
    """A PySolFC game number, as PySolFC shows it ("#123456" is read too)."""

    name = "N"

    def convert(self, value, param, ctx):
        import re

        if isinstance(value, int):
            n = value
        else:
            text = str(value).strip().removeprefix("#")
            if not re.fullmatch(r"[+-]?[0-9]{1,40}", text):
                self.fail(f"{value!r} is not a PySolFC game number: use the number PySolFC "
                          f"shows in its title bar ('game #123456'), e.g. --pysol 123456",
                          param, ctx)
            n = int(text)
        problem = number_problem(n)
        if problem:
            self.fail(problem, param, ctx)
        return n


class NumberType(click.ParamType):
    """A finite decimal number (``nan``, ``inf`` and the like are refused), such as seconds or
    megabytes; ``example`` is shown in the refusal."""

    def __init__(self, name: str, example: str):
        self.name = name
        self.example = example

    def convert(self, value, param, ctx):
        import math
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                number = None
        if number is None or not math.isfinite(number):
            self.fail(f"{value!r} is not a number: use a finite number such as "
                      f"{self.example}", param, ctx)
        return number


VARIANT = VariantType()
SEED = SeedType()
PYSOL = PysolType()
SECONDS = NumberType("S", "30 or 2.5")
MEGABYTES = NumberType("MB", "1024 or 512")


def _set_ascii(ctx, param, value):
    if value:
        ctx.ensure_object(Display).symbols = False


def _set_colour(ctx, param, value):
    if value is not None:
        ctx.ensure_object(Display).colour = value


def display_flags(f):
    """--ascii and --color/--no-color on a subcommand too, not only before it."""
    f = click.option("--color/--no-color", default=None, expose_value=False,
                     callback=_set_colour, help="Red suits in red (default: on in a terminal, "
                                                "off with NO_COLOR or when piped).")(f)
    return click.option("--ascii", is_flag=True, expose_value=False, callback=_set_ascii,
                        help="Write suits as letters (7h) instead of symbols (7♥).")(f)


OPTION_HELP = ("A rule option of the variant (repeatable); `companion variants VARIANT` lists "
               "them, e.g. --option draw=1.")


def complete_rule_option(ctx, param, incomplete):
    from .completion import complete_rule_option
    return complete_rule_option(ctx, param, incomplete)


def option_flag(f):
    return click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
                        shell_complete=complete_rule_option, help=OPTION_HELP)(f)


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in pairs:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{item!r}: write NAME=VALUE, e.g. draw=1",
                                     param_hint="--option")
        out[name.strip()] = value.strip()
    return out


def load_variant_or_fail(key: str, options: dict):
    try:
        return load_variant(key, options)
    except VariantError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from None


def read_position(path: str, variant_key: str | None, options: dict,
                  param_hint: str = "--position", *, validate: bool = False):
    """A position from a JSON file (defensively: size, JSON, shape, variant); errors name
    ``param_hint``, the option the file was given with. With ``validate`` the position must
    also be a possible one (the rules' ``Position.validate``: every card accounted for, none
    more often than the decks hold it)."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_POSITION_BYTES:
            raise click.BadParameter(f"{path} is {size} bytes; a position file is at most "
                                     f"{MAX_POSITION_BYTES}", param_hint=param_hint)
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise click.BadParameter(f"no file {path}", param_hint=param_hint) from None
    except RecursionError:
        raise click.BadParameter(f"{path} is not a JSON position: it is nested too deeply",
                                 param_hint=param_hint) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise click.BadParameter(f"{path} is not a readable JSON position: {exc}",
                                 param_hint=param_hint) from None
    if isinstance(data, dict) and options:
        data = {**data, "options": {**(data.get("options") or {}), **options}}
    try:
        pos = Position.from_json(data)
    except (PositionError, RecursionError) as exc:
        raise click.BadParameter(display().text(f"{path}: {exc}"),
                                 param_hint=param_hint) from None
    if variant_key is not None and pos.variant.key != variant_key:
        raise click.BadParameter(
            f"{path} holds a {pos.variant.key} position, not {variant_key}",
            param_hint=param_hint)
    if validate:
        try:
            Position.from_json(data, validate=True)
        except PositionError as exc:
            raise click.BadParameter(display().text(f"{path}: {exc}"),
                                     param_hint=param_hint) from None
    return pos


def one_deal(**given) -> None:
    """A usage error when more than one way of naming the deal was given (``seed=...,
    pysol=..., position=...``: option name without dashes → value, None or False when not
    given), saying what each one is."""
    named = [k for k, v in given.items() if v not in (None, False)]
    if len(named) < 2:
        return
    ways = {"seed": "--seed N is companion's own deal N",
            "pysol": "--pysol N is PySolFC's game N",
            "position": "--position FILE is a position saved as JSON",
            "physical": "--physical is a deck you shuffled yourself",
            "photo": "--photo PHOTO reads the position from a photo"}
    opts = [f"--{k}" for k in named]
    which = (f"give either {opts[0]} or {opts[1]}, not both" if len(opts) == 2
             else f"give only one of {', '.join(opts)}")
    raise click.UsageError(which + ": " + "; ".join(ways[k] for k in named))


def pysol_position(variant_key: str, number: int, options: dict):
    """PySolFC game ``number`` of the variant: a usage error for a variant it has no deals of
    here, naming those that have them."""
    v = load_variant_or_fail(variant_key, options)
    if v.key not in GAMES:
        raise click.UsageError(unsupported_text(v.key))
    return deal(v, number)


def start_position(variant_key: str, seed: int | None, position: str | None, options: dict,
                   pysol: int | None = None):
    one_deal(seed=seed, pysol=pysol, position=position)
    if position is not None:
        return read_position(position, variant_key, options, validate=True)
    if pysol is not None:
        return pysol_position(variant_key, pysol, options)
    if seed is None:
        raise click.UsageError("say which deal: --seed N (a seeded deal), --pysol N (PySolFC's "
                               "game N) or --position FILE")
    return Position.deal(load_variant_or_fail(variant_key, options), seed)


def position_options(*, seed_help: str = "Start from the seeded deal N.",
                     position_help: str = "Start from a position in its JSON form "
                                          "(as `deal --json` writes it).",
                     also=()):
    """The options that name a position, in this order: ``--seed N``, ``--pysol N``,
    ``--position FILE``, the decorators in ``also`` (other ways a command takes a position,
    such as hint's ``--photo``), ``--after MOVES`` and ``--option NAME=VALUE``.

    The command receives ``seed``, ``pysol``, ``position_file``, ``after`` and ``options``; it
    turns them into a position with :func:`start_position`, then :func:`play_after`."""
    def decorate(f):
        f = option_flag(f)
        f = click.option("--after", multiple=True, metavar="MOVES",
                         help="Moves to play first, separated by commas: --after 't1 t7, s'.")(f)
        for option in reversed(also):
            f = option(f)
        f = click.option("--position", "position_file", type=click.Path(dir_okay=False),
                         help=position_help)(f)
        f = pysol_option(f)
        return click.option("--seed", type=SEED, help=seed_help)(f)
    return decorate


def pysol_option(f):
    """``--pysol N``: PySolFC's numbered deal (companion.pysolfc)."""
    return click.option("--pysol", type=PYSOL, metavar="N", help=NUMBER_HELP)(f)


def play_moves(pos, texts, *, as_json: bool = False) -> list[str]:
    """Play ``texts`` on ``pos`` in order: the moves played, in canonical notation.

    At the first refusal it says which move and why (on stderr, or as JSON with the moves
    played and the position reached), and the command exits with status 1."""
    played = []
    for n, text in enumerate(texts, 1):
        try:
            move = pos.play(text)
        except (IllegalMoveError, InvalidMoveError, AmbiguousMoveError) as exc:
            reason = getattr(exc, "reason", None) or str(exc)
            if as_json:
                echo_json({"ok": False, "played": played,
                           "failed": {"index": n, "move": text, "reason": reason},
                           "position": pos.to_json()})
            else:
                click.echo(display().text(f"Move {n} ({text}) refused: {reason}"), err=True)
            click.get_current_context().exit(1)
        played.append(str(move))
    return played


def play_after(pos, after, *, as_json: bool = False) -> list[str]:
    """Play the ``--after`` moves (see :func:`play_moves`)."""
    return play_moves(pos, split_moves(after), as_json=as_json)


def read_moves_file(fh) -> str:
    """The text of a moves file opened in binary (``-``: standard input), read defensively:
    at most :data:`MAX_MOVES_BYTES`, and UTF-8 (a refusal names the file and the byte)."""
    name = getattr(fh, "name", "-")
    name = "standard input" if name in ("-", "<stdin>") else str(name)
    try:
        data = fh.read(MAX_MOVES_BYTES + 1)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {name}: {exc.strerror or exc}",
                                 param_hint="--moves-file") from None
    if len(data) > MAX_MOVES_BYTES:
        raise click.BadParameter(f"{name} is over {MAX_MOVES_BYTES} bytes: a moves file has "
                                 f"one move per line", param_hint="--moves-file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise click.BadParameter(
            f"{name} is not UTF-8 text ({exc.reason} at byte {exc.start}): save it as UTF-8, "
            f"one move per line (t1 t7, 7h t4, s)", param_hint="--moves-file") from None


def echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))

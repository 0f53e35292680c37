"""Shell completion: what TAB offers for a variant, a rule option or a game id, and
``companion completion SHELL``, which prints the script that hooks it into bash, zsh or fish.

The shell runs ``companion`` with ``_COMPANION_COMPLETE`` set (click's mechanism, see
:func:`companion.cli.main`) on every TAB, so everything here is quick and quiet: a missing or
unreadable database, an unknown variant or a damaged catalogue offers nothing rather than an
error, which the shell would print into the user's command line.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click
from click.shell_completion import CompletionItem, FishComplete, add_completion_class

from ..errors import VariantError
from ..rules import find_variant
from . import COMPLETE_VAR, cli

SHELLS = ("bash", "zsh", "fish")
MAX_GAMES = 50
"""Game ids offered at most, the most recent first: a long history would flood the screen."""
DB_TIMEOUT_S = 0.2
"""How long a completion waits for a database another companion is writing to: a TAB must
not hang for the store's usual busy timeout."""


class _FishComplete(FishComplete):
    # click's fish script splits each answer at every comma, which cuts a description at its
    # first comma ("Which deal (0 to 4294967295). Default: a random one"): split it once only
    source_template = FishComplete.source_template.replace(
        'string split "," $completion', 'string split -m 1 "," $completion')


add_completion_class(_FishComplete, "fish")


def _norm(text: str) -> str:
    # as find_variant reads a name: case, spaces and underscores do not matter
    return text.strip().lower().replace("_", "-").replace(" ", "-")


def variant_items(incomplete: str) -> list[CompletionItem]:
    """Every variant key starting with ``incomplete``, then the aliases that do (only once
    something is typed: an empty TAB lists the keys alone), each with the variant's name."""
    try:
        from ..rules import load_variant, variant_keys
        variants = [load_variant(k) for k in variant_keys()]
    except Exception:  # a damaged catalogue is reported by the commands, not by TAB
        return []
    typed = _norm(incomplete)
    items = [CompletionItem(v.key, help=v.name) for v in variants if v.key.startswith(typed)]
    if typed:
        items += [CompletionItem(alias, help=f"{v.name} ({v.key})") for v in variants
                  for alias in v.aliases if alias.startswith(typed)]
    return items


def _variant_in(ctx: click.Context) -> str | None:
    """The variant named so far on the command line: an argument, ``--variant``, or hint's
    VARIANT|ID (None before it is typed, or when it is a game id)."""
    for name in ("variant", "variant_opt", "target"):
        value = ctx.params.get(name)
        if isinstance(value, tuple):  # hint's ("variant", key) or ("game", id)
            value = value[1] if value[0] == "variant" else None
        if isinstance(value, str):
            return value
    # `--option` typed last, still without its value, stops click's parse before it reads
    # the positional arguments: the variant is then the first word left over.
    words = [w for w in ctx.args if not w.startswith("-")]
    first = next((p for p in ctx.command.params if isinstance(p, click.Argument)), None)
    if words and first is not None and first.name in ("variant", "target"):
        try:
            return find_variant(words[0])
        except VariantError:
            return None
    return None


def complete_rule_option(ctx: click.Context, param, incomplete: str) -> list[CompletionItem]:
    """``--option NAME=VALUE`` for the variant already on the command line: whole pairs
    (``draw=1``, ``draw=3``), since bash splits a word at ``=`` and would lose ``draw=`` alone;
    a number offers its default (and ``unlimited`` where allowed)."""
    key = _variant_in(ctx)
    if key is None:
        return []
    try:
        from ..rules import load_variant
        from ..rules.variant import format_option
        specs = load_variant(key).option_specs
    except Exception:
        return []
    items = []
    for spec in specs:
        if spec.kind == "bool":
            values = [True, False]
        elif spec.kind == "int":  # any number goes: the default, and no limit where allowed
            values = [spec.default] + ([0] if spec.unlimited and spec.default != 0 else [])
        else:
            values = list(spec.values)
        for value in values:
            default = " (default)" if value == spec.default else ""
            items.append(CompletionItem(f"{spec.name}={format_option(value, spec)}",
                                        help=spec.help + default))
    typed = incomplete.strip().lower()
    return [i for i in items if i.value.startswith(typed)]


def game_items(ctx: click.Context, incomplete: str) -> list[CompletionItem]:
    """The recorded games' ids (most recent first) that start with ``incomplete``, each with
    its variant, deal and state; from ``--db`` if already typed, else the default database."""
    if incomplete and not incomplete.isdigit():
        return []
    try:
        from ..record.store import resolve_path
        rows = _game_rows(resolve_path(ctx.params.get("db")))
    except Exception:  # no database yet, a locked, damaged or foreign one: nothing to offer
        return []
    items = []
    for gid, name, variant, seed, phase, result in rows:
        if not str(gid).startswith(incomplete):
            continue
        state = result or ("setting up" if phase == "setup" else "in progress")
        deal = "physical deal" if seed is None else f"seed {seed}"
        label = f", {name}" if name else ""
        items.append(CompletionItem(str(gid), help=f"{variant}, {deal}, {state}{label}"))
    return items


def _game_rows(path: Path) -> list[tuple]:
    # Straight SQLite, read-only and briefly: opening through the store could wait seconds
    # for a busy database or upgrade an old one (a write), neither of which a TAB should do.
    if not path.is_file():
        return []
    uri = path.absolute().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=DB_TIMEOUT_S)
    try:
        return conn.execute(
            "SELECT id, name, variant, seed, phase, result FROM games ORDER BY id DESC "
            "LIMIT ?", (MAX_GAMES,)).fetchall()
    finally:
        conn.close()


def script(shell: str) -> str:
    """The completion script for ``shell``, as click writes it for the ``companion`` command."""
    from click.shell_completion import get_completion_class

    cls = get_completion_class(shell)
    if cls is None:
        raise click.BadParameter(f"{shell!r}: choose one of {', '.join(SHELLS)}",
                                 param_hint="SHELL")
    return cls(cli, {}, "companion", COMPLETE_VAR).source()


@click.command()
@click.argument("shell", type=click.Choice(SHELLS), metavar="SHELL")
def completion(shell):
    """Print the script that makes TAB complete companion's commands, options,
    variant names, rule options (--option draw=1) and game ids in SHELL.

    Load it once in the current shell with `eval`, or keep it for every new
    shell as shown below (docs/completion.md in the companion repository says
    more). Completion needs bash 4.4 or later, zsh, or fish.

    \b
    bash, in ~/.bashrc:
      eval "$(companion completion bash)"
    zsh, in ~/.zshrc (after compinit):
      eval "$(companion completion zsh)"
    fish, once:
      companion completion fish > ~/.config/fish/completions/companion.fish

    \b
    Examples:
      companion completion bash
      companion completion zsh > ~/.zfunc/_companion
    """
    text = script(shell)
    click.echo(text if text.endswith("\n") else text + "\n", nl=False)


"""`companion rules`: the rules of a variant in the project's own words."""

from __future__ import annotations

import click

from ..rules.describe import notation
from ..rules.variant import format_option
from .common import (
    VARIANT,
    display,
    display_flags,
    echo_json,
    load_variant_or_fail,
    option_flag,
    parse_options,
    source_line,
)


@click.command()
@click.argument("variant", type=VARIANT)
@option_flag
@display_flags
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def rules(variant, options, as_json):
    """Print the rules of VARIANT, its move notation and its options.

    The text is generated from the same data that decides what is legal, so
    it always says what the engine does. It is the text the setup sheets
    print. Options change it: try --option draw=1.

    \b
    Examples:
      companion rules klondike
      companion rules pyramid --option goal=clear-all
      companion rules spider --json
    """
    v = load_variant_or_fail(variant, parse_options(options))
    lines = v.describe()
    moves = notation(v)
    specs = [{"name": o.name, "value": v.option_text(o.name),
              "default": format_option(o.default, o), "help": o.help} for o in v.option_specs]
    if as_json:
        echo_json({"variant": v.key, "identity": v.identity, "name": v.name, "rules": lines,
                   "notation": [{"text": a, "meaning": b} for a, b in moves],
                   "options": specs, "source": v.source})
        return
    d = display()
    click.echo(f"{v.name} ({v.identity})")
    click.echo("")
    for line in lines:
        click.echo(click.wrap_text(d.text(line), width=88, initial_indent="- ",
                                   subsequent_indent="  "))
    click.echo("\nMoves:")
    width = max(len(a) for a, _ in moves)
    for a, b in moves:
        click.echo(d.text(f"  {a:<{width}}  {b}"))
    if specs:
        click.echo("\nOptions (--option NAME=VALUE):")
        for o in specs:
            mark = "" if o["value"] == o["default"] else f" (default {o['default']})"
            click.echo(f"  {o['name']} = {o['value']}{mark}: {o['help']}")
    click.echo("\n" + source_line(v, "Source"))

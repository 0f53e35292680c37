"""`companion variants`, `companion rules`: the catalogue of games, and the rules of each in the
project's own words."""

from __future__ import annotations

import click

from ..rules import load_variant, variant_keys
from ..rules.describe import notation
from ..rules.position import _name_ranges
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
@click.argument("variant", type=VARIANT, required=False)
@display_flags
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def variants(variant, as_json):
    """List every variant with its decks and a one-line description.

    With VARIANT, show that one: its aliases, piles, rules and options
    (pass options to other commands as --option NAME=VALUE).

    \b
    Examples:
      companion variants
      companion variants klondike
      companion variants --json
    """
    keys = [variant] if variant else variant_keys()
    items = [_summary(load_variant(k)) for k in keys]
    if as_json:
        echo_json(items[0] if variant else items)
        return
    d = display()
    if variant:
        v = load_variant(variant)
        item = items[0]
        click.echo(f"{item['name']} ({item['key']}): {d.text(item['summary'])}")
        if item["aliases"]:
            click.echo(f"aliases: {', '.join(item['aliases'])}")
        click.echo(f"decks: {item['decks']} ({v.deck_size} cards)")
        click.echo(f"piles: {_name_ranges(v.pile_names)}")
        click.echo("rules:")
        for line in v.describe():
            click.echo(f"  - {d.text(line)}")
        if item["options"]:
            click.echo("options (--option NAME=VALUE):")
            for o in item["options"]:
                values = "/".join(map(str, o["values"])) if o["values"] else o["kind"]
                click.echo(f"  {o['name']} = {o['default']}  [{values}]  {o['help']}")
        else:
            click.echo("options: none")
        click.echo(source_line(v))
        return
    width = max(len(i["key"]) for i in items)
    for i in items:
        click.echo(f"{i['key']:<{width}}  {i['decks']} deck{'s' if i['decks'] > 1 else ' '}  "
                   f"{d.text(i['summary'])}")
        extra = []
        if i["aliases"]:
            extra.append("also " + ", ".join(i["aliases"]))
        if i["options"]:
            extra.append("options " + ", ".join(o["name"] for o in i["options"]))
        if extra:
            click.echo(" " * (width + 10) + "; ".join(extra))
    click.echo(f"\n{len(items)} variants. `companion variants NAME` shows one with its options.")


def _summary(v) -> dict:
    return {
        "key": v.key, "name": v.name, "decks": v.decks, "cards": v.deck_size,
        "summary": v.summary, "aliases": list(v.aliases), "source": v.source,
        "piles": list(v.pile_names),
        "options": [{"name": o.name, "default": format_option(o.default, o),
                     "values": [format_option(x, o) for x in o.values], "kind": o.kind,
                     "help": o.help} for o in v.option_specs],
    }


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

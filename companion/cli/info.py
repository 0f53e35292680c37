"""`companion variants`: the catalogue of games."""

from __future__ import annotations

import click

from ..rules import load_variant, variant_keys
from ..rules.position import _name_ranges
from ..rules.variant import format_option
from .common import VARIANT, display, display_flags, echo_json, source_line


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

"""The rules of every variant as one Markdown page (docs/variants.md).

Generated from the same data as `companion rules`, so the page cannot drift from the engine:
tests/render/test_rulebook.py compares the committed page with a fresh one. Regenerate with
``python -m companion.render.rulebook --write docs/variants.md`` (or ``make docs``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..rules import load_variant, variant_keys
from ..rules.describe import notation
from ..rules.variant import format_option


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|")


def variant_section(key: str) -> list[str]:
    v = load_variant(key)
    out = [f"## {v.name}", ""]
    facts = [f"`{v.key}`", "one deck" if v.decks == 1 else f"{v.decks} decks",
             f"{v.deck_size} cards"]
    if v.aliases:
        facts.append("also " + ", ".join(f"`{a}`" for a in v.aliases))
    out += [" · ".join(facts), "", v.summary, ""]
    out += [f"- {line}" for line in v.describe()]
    out += ["", "| move | meaning |", "|---|---|"]
    out += [f"| `{a}` | {_cell(b)} |" for a, b in notation(v)]
    if v.option_specs:
        out += ["", "| option (`--option NAME=VALUE`) | default | values | what it changes |",
                "|---|---|---|---|"]
        for o in v.option_specs:
            values = ", ".join(format_option(x, o) for x in o.values) or o.kind
            out.append(f"| `{o.name}` | `{format_option(o.default, o)}` | {_cell(values)} "
                       f"| {_cell(o.help)} |")
    out += ["", f"Source: {v.source} (see [rules.md](rules.md)).", ""]
    return out


def book() -> str:
    keys = list(variant_keys())
    out = ["# The variants", "",
           "The rules of every variant, as `companion rules VARIANT` prints them: generated from "
           "the data the engine plays by (`make docs`), so they say what the engine does. "
           "[rules.md](rules.md) says "
           "where each variant's rules come from and how the sources' disagreements became "
           "options.", ""]
    for key in keys:
        v = load_variant(key)
        anchor = v.name.lower().replace(" ", "-")
        anchor = "".join(ch for ch in anchor if ch.isalnum() or ch == "-")
        out.append(f"- [{v.name}](#{anchor}) (`{key}`)")
    out.append("")
    for key in keys:
        out += variant_section(key)
    return "\n".join(out).rstrip("\n") + "\n"


def page_main(argv: list[str] | None, prog: str, page: str, what: str, generate) -> int:
    """The command line of a generated docs page: print it, or ``--write PATH``. UTF-8 and
    ``\n`` on every platform, whatever the locale, so the committed page compares equal."""
    parser = argparse.ArgumentParser(prog=f"python -m {prog}",
                                     description=f"Print {what} ({page}).")
    parser.add_argument("--write", metavar="PATH", type=Path,
                        help=f"write it to PATH (e.g. {page}) instead of printing it")
    args = parser.parse_args(argv)
    data = generate().encode("utf-8")
    if args.write:
        args.write.write_bytes(data)
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
    return 0


def main(argv: list[str] | None = None) -> int:
    return page_main(argv, "companion.render.rulebook", "docs/variants.md",
                     "the rules of every variant, from the rules data", book)


if __name__ == "__main__":
    sys.exit(main())

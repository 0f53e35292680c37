"""`companion verify`: a dealt layout (typed, a JSON position or a photo) checked card by card
against a seeded deal."""

from __future__ import annotations

import contextlib
import sys

import click

from ..app import photo as app_photo
from ..app.verify import entry_report, photo_report, position_report
from ..record.layout import LayoutEntry
from ..rules import Position
from ..vision import VisionError
from .common import (
    SEED,
    VARIANT,
    display,
    display_flags,
    echo_json,
    load_variant_or_fail,
    option_flag,
    parse_options,
    read_position,
)
from .gamedb import json_option, lines_from, plural


@click.command()
@click.argument("variant", type=VARIANT)
@click.option("--seed", type=SEED, required=True, help="The seeded deal you meant to lay out.")
@click.option("--layout", "layout_file", type=click.Path(dir_okay=False),
              help="The layout as a JSON position (as `companion deal --json` writes it) "
                   "instead of typing it.")
@click.option("--photo", "photo", type=click.Path(dir_okay=False), metavar="PHOTO",
              help="Read the layout from a photo of the table (`cam0` for webcam 0) instead "
                   "of typing it.")
@option_flag
@display_flags
@json_option
def verify(variant, seed, layout_file, photo, options, as_json):
    """Check a dealt layout against seed N of VARIANT, card by card.

    Type the face-up cards you dealt, pile by pile, bottom to top (a whole
    pile, or a row across the piles, per line), or give the layout as a JSON
    position with --layout, or photograph it with --photo. Every card that
    is not where the seeded deal puts it is reported with its place, then a
    verdict; the exit status is 1 when anything differs. A photographed card
    that cannot be read with confidence is named and not checked: look at
    it on the table. A card read below the threshold whose only reading
    the rules allow (as `companion scan` marks it with *) is checked and
    named as inferred: look at it on the table too.

    \b
    Examples:
      companion verify klondike --seed 42
      echo "7h 6h 2h 2s kd jc 8c" | companion verify klondike --seed 1
      companion verify spider --seed 7 --layout table.json --json
      companion verify klondike --seed 42 --photo table.jpg
    """
    opts = parse_options(options)
    v = load_variant_or_fail(variant, opts)
    deal_pos = Position.deal(v, seed)
    d = display()
    eng = deal_pos.engine
    if layout_file and photo:
        raise click.UsageError("give either --layout or --photo, not both")
    if photo:
        path, camera = app_photo.parse_source(photo)
        reading = app_photo.scan(path, camera, v.key)   # looked up here: tests monkeypatch it
        if not reading["cards"]:
            raise VisionError(app_photo.no_cards_message(app_photo.source_name(path, camera)))
        report = photo_report(deal_pos, reading, d.symbols)
    elif layout_file:
        given = read_position(layout_file, v.key, opts, param_hint="--layout")
        report = position_report(deal_pos, given, d.symbols)
    else:
        g = eng.groups
        skip = set(g.foundation_set) | {g.stock, g.waste, g.aside}
        slots = [(i, k) for i, p in enumerate(deal_pos.piles) if i not in skip
                 for k in range(deal_pos.down[i], len(p))]
        entry = LayoutEntry(deal_pos, slots)
        if not _type_layout(entry, deal_pos, as_json):
            click.get_current_context().exit(1)
        report = entry_report(deal_pos, entry, d.symbols)
    ok = not report["mismatches"] and not report["missing"] and not report["problems"] \
        and not report.get("uncertain")
    report.update({"variant": v.key, "options": v.changed_options(), "seed": seed, "ok": ok})
    if as_json:
        echo_json(report)
    else:
        for line in report["problems"]:
            click.echo(d.text(line))
        for m in report["mismatches"]:
            click.echo(d.text(f"{m['place']}: expected {m['expected_text']}, found "
                              f"{m['found_text']}"))
        if report["missing"]:
            click.echo("Not found in the photo (not checked): " + "; ".join(report["missing"])
                        if photo else "Not typed in (not checked): "
                        + ", ".join(report["missing"]))
        for u in report.get("uncertain", []):
            click.echo(d.text(f"Could not be read with confidence (not checked): {u['text']}"))
        inferred = report.get("inferred", [])
        for u in inferred:
            click.echo(d.text(u["text"]))
        for line in _verdict(report, v.key, seed, photo):
            click.echo(line)
    click.get_current_context().exit(0 if ok else 1)


def _verdict(report, variant, seed, photo) -> list[str]:
    """The verdict of `verify`, after the lines listed: what differs, counted as listed (cards
    out of place, cards read beyond the deal's piles or outside them, piles not as dealt),
    how many cards were checked (of how many read in a photo), and where more of a photo's
    cards lie beyond the layout than were checked, or most cards checked differ, the likelier
    mistake: another game, or another seed."""
    checked, seed_text = report["checked"], f"seed {seed}"
    if report["ok"]:
        inferred = report.get("inferred", [])
        return [f"The layout matches {seed_text}: all {plural(checked, 'card')} checked are where "
                f"the deal puts them" + (
                    f" ({len(inferred)} of them inferred from the rules, named above: check "
                    f"{'it' if len(inferred) == 1 else 'them'} on the table)." if inferred
                    else ".")]
    if checked == 0 and not report["mismatches"] and not report["problems"]:
        how = "could be read with confidence from the photo" if photo else "was typed in"
        return [f"Nothing was checked: no card {how}. " + ("Photograph the layout from above, in even light, with the "
                                 "card corners in view, or type it: `companion verify "
                                 f"{variant} --seed {seed}`." if photo else
                                 "Type the face-up cards pile by pile, bottom to top, at the "
                                 f"prompts of `companion verify {variant} --seed {seed}` in a "
                                 "terminal or one pile a line on its standard input, or give "
                                 "--layout FILE or --photo PHOTO.")]
    read = report.get("read")
    of = f" of {read} read" if read is not None else ""
    mis = len(report["mismatches"])
    extra = report.get("extra", {})
    n_extra = sum(len(v) for v in extra.values())
    unplaced = len(report.get("unplaced", []))
    others = len(report["problems"]) - len(extra) - (1 if unplaced else 0)
    parts = []
    if mis:
        parts.append(f"{plural(mis, 'card')} not where the deal puts {'it' if mis == 1 else 'them'}")
    if n_extra:
        parts.append(f"{plural(n_extra, 'card')} read beyond the face-up cards the deal puts in "
                     f"{plural(len(extra), 'pile')}")
    if unplaced:
        parts.append(f"{plural(unplaced, 'card')} read outside the piles")
    if others:
        parts.append(f"{plural(others, 'pile')} not as dealt")
    if not parts:
        return [f"Incomplete: the {plural(checked, 'card')} checked ({of.strip() or 'all typed'}) "
                f"are where the deal puts them, but "
                + ("not every card could be read from the photo: check the cards named above "
                   "on the table." if photo else "not every pile was typed in.")]
    out = [f"The layout does NOT match {seed_text}: " + "; ".join(parts)
           + f" ({plural(checked, 'card')}{of} checked against the deal). Put "
           f"{'it' if mis + n_extra + unplaced + others == 1 else 'them'} right before you play "
           f"(the recorder follows the seeded deal)."]
    beyond = n_extra + unplaced
    if photo and beyond >= 3 and beyond > checked:
        out.append(f"{beyond} of the {read} cards read lie beyond the layout {variant} deals; "
                   f"only {checked} {'was' if checked == 1 else 'were'} checked against it: "
                   f"is the photo of another game? Check the variant and --seed "
                   f"(`companion scan PHOTO` shows what was read, and names the game where a "
                   f"setup sheet's QR code is in view).")
    elif mis >= 3 and 2 * mis > checked:
        out.append(f"Most of the cards checked differ from {seed_text}: is the layout another "
                   f"deal? Check --seed (and the variant).")
    return out


def _type_layout(entry, deal_pos, as_json) -> bool:
    """Read typed lines into ``entry`` until it is complete or input ends."""
    interactive = sys.stdin.isatty() and not as_json
    d = display()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401
        click.echo("Type the face-up cards of the layout you dealt, pile by pile, bottom to "
                   "top. `help` explains, `quit` stops.")
        click.echo(entry.instructions())
    lines = None if interactive else lines_from(sys.stdin)
    while not entry.complete:
        prompt = entry.prompt()
        if interactive:
            try:
                line = input(prompt)
            except (EOFError, KeyboardInterrupt):
                click.echo()
                return True
        else:
            line = next(lines, None)
            if line is None:
                return True
        key = line.strip().lower()
        if key in ("quit", "q"):
            return True
        if key == "help":
            click.echo("Cards for the pile the prompt names (9c 8h), a row across the piles "
                       "(one card each), or a pile name first to correct it (t3: 9c); `undo` "
                       "takes back the last line.")
            continue
        if key == "undo":
            click.echo("Took back the last line." if entry.undo() else "Nothing to undo.")
            continue
        res = entry.enter(line)
        if not interactive and not as_json:
            click.echo(f"{prompt}{line}")
        if not as_json or not res.ok:
            msg = d.text(res.message + ("" if res.ok else "."))
            click.echo(msg if res.ok else f"Refused: {msg}", err=as_json)
    return True


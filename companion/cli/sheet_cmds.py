"""`companion sheet` and `companion printables`: setup sheets and the printable assets as PDF."""

from __future__ import annotations

import secrets

import click

from .common import SEED, VARIANT, parse_options

MAX_DEALS = 1000
PAPER = click.Choice(["a4", "letter"], case_sensitive=False)


def parse_seed_range(text: str) -> list[int]:
    """``1-20``, ``7``, ``1,5,9-12`` -> the seeds in order, each once (at most MAX_DEALS)."""
    from ..seeds import parse_seed_range as parse
    try:
        return parse(text, MAX_DEALS)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--seeds") from None


def _winnable(key: str, changed: bool, wanted: list[int] | None) -> list[int]:
    """The seeds the solver proved winnable (of ``wanted``, or all catalogued)."""
    from ..seeds import verdicts
    if changed:
        raise click.UsageError("--winnable uses the verdicts catalogued in seeds/, which are "
                               "for the default options only: leave out --option")
    try:
        table = verdicts(key)
    except (OSError, ValueError):
        table = {}
    won = sorted(seed for seed, verdict in table.items() if verdict == "won")
    if not won:
        tried = [v for v in table.values() if v in ("lost", "unknown")]
        if tried:
            lost = tried.count("lost")
            spent = (f"ran out of its budget on the other {len(tried) - lost}" if lost
                     else "ran out of its budget on every one")
            why = (f"none of the {len(tried)} catalogued seeds is proved winnable: the solver "
                   + (f"proved {lost} lost and " if lost else "") + spent)
        else:
            why = (f"the solver has not filled the verdict column of seeds/{key}.tsv yet "
                   f"(make verdicts)")
        click.echo(f"No proved-winnable seeds are catalogued for {key}: {why}. Leave out "
                   f"--winnable to print any seed.", err=True)
        click.get_current_context().exit(1)
    if wanted is None:
        return won
    chosen = [s for s in wanted if s in set(won)]
    if not chosen:
        shown = ", ".join(map(str, won[:12])) + (" ..." if len(won) > 12 else "")
        click.echo(f"None of the seeds asked for is proved winnable for {key}; these are: "
                   f"{shown}", err=True)
        click.get_current_context().exit(1)
    return chosen


def _default_name(keys: list[str], identity: str, seeds: list[int], seed_text: str | None,
                  all_variants: bool) -> str:
    tag = identity.replace(":", "_").replace("=", "-").replace(",", "_")
    if all_variants:
        return f"all-variants-seed{seeds[0]}.pdf" if len(seeds) == 1 else \
            f"all-variants-seeds-{seed_text or seeds[0]}.pdf"
    if len(seeds) == 1:
        return f"{tag}-seed{seeds[0]}.pdf"
    return f"{tag}-seeds-{(seed_text or 'winnable').replace(',', '_')}.pdf"


@click.command()
@click.argument("variant", type=VARIANT, required=False)
@click.option("--seed", type=SEED, help="The deal to print (default: a random one, shown).")
@click.option("--seeds", "seed_text", metavar="RANGE",
              help="A booklet, one deal a sheet: 1-20, or 1,5,9-12.")
@click.option("--all-variants", is_flag=True,
              help="One sheet for every variant (seed 1 unless --seed/--seeds says otherwise).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A rule option of the variant (repeatable), e.g. --option draw=1.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), metavar="FILE.pdf",
              help="Where to write the PDF (default: a name made from the variant and seed, "
                   "in the current folder).")
@click.option("--paper", type=PAPER, default=None,
              help="Paper size (default: from the locale: letter for US/Canada-style "
                   "locales, otherwise a4; PAPERSIZE=letter also works).")
@click.option("--mono", is_flag=True, help="Black and white, ink-saving: no red suits, light "
                                           "card backs.")
@click.option("--winnable", is_flag=True,
              help="Only seeds the solver has proved winnable (from seeds/VARIANT.tsv).")
@click.option("--no-play-page", is_flag=True,
              help="Leave out the second page of each sheet (rules, notation, move log).")
def sheet(variant, seed, seed_text, all_variants, options, output, paper, mono, winnable,
          no_play_page):
    """Print setup sheets for seeded deals of VARIANT as a PDF.

    A sheet shows the layout as dealt, every pile named as moves name it
    (t1, f1, s, w ...), face-down cards as backs with their identity in small
    print; the whole deck top card first ("stack the deck") with how to deal
    it; a QR code naming the deal; and on its second page the rules, the move
    notation and a numbered move log. The file is written atomically.

    \b
    Examples:
      companion sheet klondike --seed 42
      companion sheet forty-thieves --seeds 1-20 -o forty.pdf
      companion sheet --all-variants --paper letter --mono
      companion sheet klondike --seed 7 --option draw=1
    """
    from ..render.pdf import default_paper, write_sheets
    from ..rules import Position, load_variant, variant_keys
    from .common import load_variant_or_fail

    if all_variants and variant:
        raise click.UsageError("give a VARIANT or --all-variants, not both")
    if not all_variants and not variant:
        raise click.UsageError("say which game: companion sheet VARIANT --seed N (companion "
                               "variants lists them), or --all-variants")
    if seed is not None and seed_text:
        raise click.UsageError("give either --seed N or --seeds RANGE, not both")
    if all_variants and options:
        raise click.UsageError("--option applies to one variant; leave it out with "
                               "--all-variants")
    wanted = [seed] if seed is not None else parse_seed_range(seed_text) if seed_text else None

    deals = []
    if all_variants:
        keys = variant_keys()
        for key in keys:
            v = load_variant(key)
            seeds = wanted or [1]
            if winnable:
                seeds = _winnable(key, False, wanted)[:len(wanted) if wanted else 1]
            deals += [Position.deal(v, s) for s in seeds]
        identity = "all-variants"
    else:
        v = load_variant_or_fail(variant, parse_options(options))
        keys = [v.key]
        if winnable:
            seeds = _winnable(v.key, bool(v.changed_options()), wanted)
        elif wanted is None:
            seeds = [secrets.randbelow(1_000_000) + 1]
            click.echo(f"seed {seeds[0]} (chosen at random; --seed N picks one)")
        else:
            seeds = wanted
        deals = [Position.deal(v, s) for s in seeds]
        identity = v.identity
    path = output or _default_name(keys, identity, sorted({d.seed for d in deals}), seed_text,
                                   all_variants)
    written = write_sheets(path, deals, paper=(paper or default_paper()).lower(), mono=mono,
                           play_page=not no_play_page)
    click.echo(f"wrote {written.path} ({len(deals)} deal{'s' if len(deals) != 1 else ''}, "
               f"{written.pages} pages, {written.size / 1024:.0f} KB)")


@click.command()
@click.argument("directory", required=False, default="printables",
                type=click.Path(file_okay=False))
def printables(directory):
    """Regenerate the printable assets in DIRECTORY (default: printables/).

    Writes a sample booklet (one seeded deal of every variant, seed 1, A4)
    and the play mat with ArUco markers at its corners in A4 and Letter, for
    the photo reader to correct perspective and scale. Output is
    deterministic: only the printed date changes (SOURCE_DATE_EPOCH fixes
    it).

    \b
    Examples:
      companion printables
      companion printables /tmp/assets
    """
    from pathlib import Path

    from ..render.printables import build
    folder = Path(directory)
    if not folder.is_dir():
        try:
            folder.mkdir(parents=True)
        except OSError as exc:
            raise click.FileError(str(folder), f"cannot create the folder: "
                                               f"{exc.strerror or exc}") from None
    for w in build(folder):
        click.echo(f"wrote {w.path} ({w.pages} page{'s' if w.pages != 1 else ''}, "
                   f"{w.size / 1024:.0f} KB)")

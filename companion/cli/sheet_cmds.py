"""`companion sheet` and `companion printables`: setup sheets and the printable assets as PDF."""

from __future__ import annotations

import secrets

import click

from ..render.pdf import default_paper, render_sheets, write_sheets
from ..render.printables import build
from ..rules import Position, load_variant, variant_keys
from ..seeds import parse_seed_range as parse
from .common import (
    OPTION_HELP,
    SEED,
    VARIANT,
    DescribedArgument,
    complete_rule_option,
    load_variant_or_fail,
    one_deal,
    parse_options,
    pysol_option,
    pysol_position,
)

MAX_DEALS = 1000
PAPER = click.Choice(["a4", "letter"], case_sensitive=False)


def parse_seed_range(text: str) -> list[int]:
    """``1-20``, ``7``, ``1,5,9-12`` -> the seeds in order, each once (at most MAX_DEALS)."""
    try:
        return parse(text, MAX_DEALS)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--seeds") from None


def _ranges(seeds: list[int]) -> str:
    """``1-3, 7``: sorted seeds as runs."""
    runs: list[list[int]] = []
    for n in sorted(seeds):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _seeds(seeds: list[int]) -> str:
    return ("seed " if len(seeds) == 1 else "seeds ") + _ranges(seeds)


def _winnable(key: str, changed: bool, wanted: list[int] | None) -> list[int]:
    """The seeds of ``wanted`` the solver proved winnable, saying which were skipped and why;
    without ``wanted``, every catalogued winnable seed (the caller picks)."""
    # late-bound: tests monkeypatch verdicts on seeds
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
    outside = [s for s in wanted if s not in table]
    lost = [s for s in wanted if table.get(s) == "lost"]
    open_ = [s for s in wanted if s in table and table[s] not in ("won", "lost")]
    reasons = []
    if lost:
        reasons.append(f"{_seeds(lost)} (proved lost)")
    if open_:
        reasons.append(f"{_seeds(open_)} (not proved either way: the solver ran out of its "
                       f"budget, or has not run)")
    if outside:
        reasons.append(f"{_seeds(outside)} (not in the catalogue: seeds/{key}.tsv covers "
                       f"seeds {_ranges(list(table))})")
    why = " and ".join(reasons)
    if not chosen:
        more = f" and {len(won) - 12} more" if len(won) > 12 else ""
        click.echo(f"Nothing to print for {key}: none of the seeds asked for is proved "
                   f"winnable: {why}. Proved winnable: {', '.join(map(str, won[:12]))}{more}.",
                   err=True)
        click.get_current_context().exit(1)
    if reasons:
        click.echo(f"{key}: skipped {why}; printing the {_count(len(chosen), 'seed')} proved "
                   f"winnable.", err=True)
    return chosen


def _tag(identity: str) -> str:
    """A variant's identity (``klondike:draw=1``) as part of a file name."""
    return identity.replace(":", "_").replace("=", "-").replace(",", "_")


def _default_name(keys: list[str], identity: str, seeds: list[int], seed_text: str | None,
                  all_variants: bool) -> str:
    tag = _tag(identity)
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
@pysol_option
@click.option("--all-variants", is_flag=True,
              help="One sheet for every variant (seed 1 unless --seed/--seeds says otherwise).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              shell_complete=complete_rule_option, help=OPTION_HELP)
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              metavar="FILE.pdf",
              help="Where to write the PDF (default: a name made from the variant and seed, "
                   "in the current folder); - writes it to standard output. A name without "
                   ".pdf is used as given.")
@click.option("--force", is_flag=True,
              help="Replace the -o file even when it is not a PDF (without it, such a file "
                   "is left alone).")
@click.option("--paper", type=PAPER, default=None,
              help="Paper size (default: from the locale: letter for US/Canada-style "
                   "locales, otherwise a4; PAPERSIZE=letter also works).")
@click.option("--mono", is_flag=True, help="Black and white, ink-saving: no red suits, light "
                                           "card backs.")
@click.option("--winnable", is_flag=True,
              help="Only seeds the solver has proved winnable (from seeds/VARIANT.tsv): "
                   "without --seed/--seeds, one of them chosen at random; with --seeds, the "
                   "winnable ones of the range (the others are named as skipped).")
@click.option("--no-play-page", is_flag=True,
              help="Leave out the second page of each sheet (rules, notation, move log).")
def sheet(variant, seed, seed_text, pysol, all_variants, options, output, force, paper, mono,
          winnable, no_play_page):
    """Print setup sheets for seeded deals of VARIANT as a PDF.

    A sheet shows the layout as dealt, every pile named as moves name it
    (t1, f1, s, w ...), face-down cards as backs with their identity in small
    print; the whole deck top card first ("stack the deck") with how to deal
    it; a QR code naming the deal; and on its second page the rules, the move
    notation and a numbered move log. The file is written atomically (a
    symbolic link is followed), and an existing file that is not a PDF is
    left alone unless --force.

    --pysol N prints PySolFC's game N instead (the number in PySolFC's
    title bar), titled "PySolFC game N": the deck is stacked so that dealing
    it by the plan on the sheet lays out exactly PySolFC's cards.

    \b
    Examples:
      companion sheet klondike --seed 42
      companion sheet forty-thieves --seeds 1-20 -o forty.pdf
      companion sheet --all-variants --paper letter --mono
      companion sheet klondike --seed 7 --option draw=1
      companion sheet klondike --winnable
      companion sheet golf --seed 3 -o - | lpr
      companion sheet solitaire --pysol 123456
    """

    if pysol is not None:
        one_deal(seed=seed, pysol=pysol)
        given = [opt for opt, v in (("--seeds", seed_text), ("--all-variants", all_variants),
                                    ("--winnable", winnable)) if v]
        if given:
            raise click.UsageError(f"--pysol N prints one sheet, PySolFC's game N: leave out "
                                   f"{' and '.join(given)}")
    if all_variants and variant:
        raise click.UsageError("give a VARIANT or --all-variants, not both")
    if not all_variants and not variant:
        raise click.UsageError("say which game: companion sheet VARIANT --seed N (companion "
                               "variants lists them), or --all-variants")
    if seed is not None and seed_text is not None:
        raise click.UsageError("give either --seed N or --seeds RANGE, not both")
    if seed_text is not None and not seed_text.strip():
        raise click.BadParameter("is empty: give seeds such as 1-20 or 1,5,9-12 (or leave "
                                 "out --seeds for one random seed)", param_hint="--seeds")
    if all_variants and options:
        raise click.UsageError("--option applies to one variant; leave it out with "
                               "--all-variants")
    to_stdout = output == "-"
    # with the PDF on standard output (- or /dev/stdout), every message goes to standard error
    say = (lambda text: click.echo(text, err=True)) if to_stdout or _is_stdout(output) \
        else click.echo
    wanted = [seed] if seed is not None else parse_seed_range(seed_text) if seed_text else None

    deals = []
    if pysol is not None:
        pos = pysol_position(variant, pysol, parse_options(options))
        deals, keys, identity = [pos], [pos.variant.key], pos.variant.identity
    elif all_variants:
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
            if wanted is None:  # one sheet, as without --winnable
                say(f"seed {(pick := secrets.choice(seeds))} (chosen at random from the "
                    f"{len(seeds)} seeds proved winnable; --seed N picks one)")
                seeds = [pick]
        elif wanted is None:
            seeds = [secrets.randbelow(1_000_000) + 1]
            say(f"seed {seeds[0]} (chosen at random; --seed N picks one)")
        else:
            seeds = wanted
        deals = [Position.deal(v, s) for s in seeds]
        identity = v.identity
    settings = {"paper": (paper or default_paper()).lower(), "mono": mono,
                "play_page": not no_play_page}
    pages = len(deals) * (1 if no_play_page else 2)
    if to_stdout:
        data = render_sheets(deals, **settings)
        stream = click.get_binary_stream("stdout")
        stream.write(data)
        stream.flush()
        where, size = "standard output", len(data)
    else:
        path = output or (
            f"{_tag(identity)}-pysol{pysol}.pdf" if pysol is not None else
            _default_name(keys, identity, sorted({d.seed for d in deals}), seed_text,
                          all_variants))
        written = write_sheets(path, deals, force=force, **settings)
        where, size = str(written.path), written.size
    say(f"wrote {where} ({_count(len(deals), 'deal')}, {_count(pages, 'page')}, "
        f"{size / 1024:.0f} KB)")


def _is_stdout(path: str | None) -> bool:
    """Whether ``path`` names the file standard output writes to (``/dev/stdout``)."""
    import os
    import sys
    if not path:
        return False
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):
        return False


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


@click.command()
@click.argument("directory", required=False, default="printables",
                type=click.Path(file_okay=False), cls=DescribedArgument,
                description="The folder to write the assets to (made if missing).")
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

    folder = Path(directory)
    if not folder.is_dir():
        try:
            folder.mkdir(parents=True)
        except OSError as exc:
            raise click.FileError(str(folder), f"cannot create the folder: "
                                               f"{exc.strerror or exc}") from None
    for w in build(folder):
        click.echo(f"wrote {w.path} ({_count(w.pages, 'page')}, "
                   f"{w.size / 1024:.0f} KB)")

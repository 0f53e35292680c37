"""`companion scan`: read the cards (and the setup sheet's QR code) in a photo of the table."""

from __future__ import annotations

import math
import os

import click

from ..app.photo import no_cards_message, parse_source, source_name, unsure_advice
from ..cards import code_json, code_text
from ..vision import VisionError, quiet_cv2
from ..vision.calibrate import calibrate, deck_dir, deck_path
from ..vision.piles import inferred_text
from ..vision.read import TOO_SMALL
from ..vision.resolve import TWIN_READ
from .common import VARIANT, DescribedArgument, display, echo_json


def _place(d, info):
    s = info["scale"]
    return round(d.x / s), round(d.y / s)


@click.command()
@click.argument("photo", required=False, type=click.Path(dir_okay=False),
                cls=DescribedArgument,
                description="The photo of the table (cam0, or --camera 0, for webcam 0).")
@click.option("--variant", type=VARIANT, default=None,
              help="Group the cards into this variant's piles and check the position.")
@click.option("--camera", type=click.IntRange(0, 99), default=None, metavar="N",
              help="Take the picture from webcam N instead of a file.")
@click.option("--debug", "debug_out", type=click.Path(dir_okay=False), default=None,
              metavar="OUT.png", help="Write the photo annotated with what was read (a .png or "
                                        ".jpg file, not the photo itself).")
@click.option("--threshold", type=click.FloatRange(0, 1), default=None, metavar="X",
              help="Confidence below which a card is reported as uncertain (default: 0.6).")
@click.option("--deck", default="default", show_default=True, metavar="NAME",
              help="The deck calibration to use (or, with --calibrate, to store); "
                   "`default` is used where it exists, another name must be calibrated; "
                   "`--deck none` reads with the model alone.")
@click.option("--calibrate", is_flag=True,
              help="The photo shows --variant dealt with --seed, before any move: learn this "
                   "deck's indices from it.")
@click.option("--seed", type=click.IntRange(0), default=None, metavar="N",
              help="With --calibrate: the seed of the deal photographed.")
@click.option("--json", "as_json", is_flag=True, help="Print the reading as JSON.")
def scan(photo, variant, camera, debug_out, threshold, deck, calibrate, seed, as_json):
    """Read every visible card in a photo of the table.

    Prints each card read with its confidence and its place in the photo (pixels from the
    top-left corner, as the photo is shown). A card read with less confidence than the
    threshold is marked `?` and listed as uncertain: check it on the table (--debug shows
    where it is). A card read as one already read surer elsewhere, and taken for its twin
    in colour (♠ and ♣, ♥ and ♦: small pips look alike), says so. A setup sheet's QR code
    in the photo names the game.

    With --variant (or a sheet's QR code), the cards are grouped into the variant's piles and
    the position is checked against the rules (duplicates, counts, cards the variant does
    not use). Face-down cards in a column are counted from their backs (a column whose
    backs cannot be counted is taken as dealt, and said so). In games whose columns are
    always builds (Klondike), an uncertain card in a column is named from the rules when
    exactly one of its likely readings is not already on the table and fits the build with
    the cards above and below it; it is marked `*` and says what was read. So is an
    uncertain foundation card where the rules leave one reading (a Klondike foundation
    showing 5♥ holds A♥-4♥, so none of them can be elsewhere on the table).

    Calibrate to your own deck: deal a seeded game (`companion deal klondike --seed 7`
    shows the layout), photograph it before any move, and run scan with --calibrate,
    --variant and --seed. The deck's rank glyphs and suit pips are stored (under --deck
    NAME, in the data folder next to the games database) and sharpen every later reading;
    a game that shows all the cards (Gaps) teaches every rank and suit at once.

    \b
    Examples:
      companion scan table.jpg
      companion scan table.jpg --variant klondike --debug read.png
      companion scan --camera 0 --variant gaps --json
      companion scan dealt.jpg --calibrate --variant gaps --seed 3 --deck bicycle
    """
    if (photo is None) == (camera is None):
        raise click.UsageError("give a PHOTO file or --camera N (one of them)")
    if photo is not None and not os.path.exists(photo):
        # `cam0`, as `verify --photo` and play's `scan` take it: webcam 0
        _, number = parse_source(photo)
        if number is not None:
            photo, camera = None, number
    if debug_out:
        check_debug_path(debug_out, photo)
    key = variant.key if hasattr(variant, "key") else variant
    if calibrate:
        _calibrate(photo, camera, key, seed, deck, as_json)
        return
    if seed is not None:
        raise click.UsageError("--seed goes with --calibrate (to check a photo against a deal, "
                               "use `companion verify VARIANT --seed N --photo PHOTO`)")
    if deck.lower() != "none":
        _check_deck(deck)
    # late-bound: tests monkeypatch scan_photo on scan
    from ..vision.scan import scan_photo
    res = scan_photo(photo, camera, key, threshold=threshold,
                     deck=None if deck.lower() == "none" else deck)
    if debug_out:
        write_debug(res, debug_out)
    if as_json:
        _echo_scan_json(res, photo, camera)
        return
    disp = display()
    _echo_cards(res, photo, camera, disp)
    if res["piles"] is not None:
        _echo_piles(res["piles"], disp)
    _echo_advice(res["cards"], debug_out)


def _echo_scan_json(res, photo, camera) -> None:
    """``scan --json``: the reading as JSON; exit status 1 where no card was read."""
    cards, info, sheet, piles = res["cards"], res["info"], res["sheet"], res["piles"]
    data = {"photo": photo if camera is None else f"camera {camera}",
            "size": list(info["original_size"]),
            "deck": res.get("deck_used"), "deck_ignored": res.get("deck_ignored"),
            "sheet": None if sheet is None else {"text": sheet.text, "variant": sheet.variant,
                                                 "seed": sheet.seed, "options": sheet.options,
                                                 **({} if sheet.pysol is None
                                                    else {"pysol": sheet.pysol})},
            "cards": [{"card": code_json(d.code) if not d.uncertain else None,
                       "best": code_json(d.code), "confidence": round(d.confidence, 3),
                       "uncertain": d.uncertain, "note": d.note,
                       "inferred": _inferred_json(d),
                       "x": _place(d, info)[0], "y": _place(d, info)[1]} for d in cards],
            "retake": _retake(cards)}
    if piles is not None:
        data.update(_piles_json(piles))
    echo_json(data)
    if not cards:
        click.get_current_context().exit(1)


def _piles_json(piles) -> dict:
    """The piles' part of ``scan --json``, with a variant."""
    return {
        "variant": piles.variant,
        "piles": {n: [code_json(d.code) + ("?" if d.uncertain else "") for d in ds]
                  for n, ds in piles.piles.items()},
        "unplaced": [code_json(d.code) + ("?" if d.uncertain else "") for d in piles.unplaced],
        "face_down": {n: c for n, c in piles.face_down.items()},
        "inferred": [dict(pile=n, card=code_json(d.code), **_inferred_json(d))
                     for n, ds in piles.piles.items() for d in ds if d.inferred is not None],
        "unread": _unread_piles(piles),
        "empty": piles.empty,
        "problems": piles.problems,
        "position": piles.position.to_json() if piles.position is not None else None,
    }


def _echo_cards(res, photo, camera, disp) -> None:
    """The deck and the sheet read with, then each card read, top to bottom."""
    cards, info, sheet = res["cards"], res["info"], res["sheet"]
    if res.get("deck_used"):
        click.echo(f"Read with the calibration of deck {res['deck_used']!r}.")
    if res.get("deck_ignored"):
        click.echo(f"Read without the default calibration: {res['deck_ignored']}.")
    if sheet is not None:
        click.echo(f"Setup sheet: {sheet.describe()} (QR code {sheet.text})")
    if not cards:
        raise VisionError(no_cards_message(source_name(photo, camera)))
    unsure = [d for d in cards if d.uncertain]
    click.echo(f"{len(cards)} card{'s' if len(cards) != 1 else ''} read"
               + (f", {len(unsure)} uncertain" if unsure else "") + ":")
    for d in sorted(cards, key=lambda t: (t.y, t.x)):
        x, y = _place(d, info)
        mark = "?" if d.uncertain else "*" if d.inferred is not None else " "
        note = f"  ({d.note})" if d.uncertain or TWIN_READ in d.note else ""
        if d.inferred is not None:
            note = f"  ({inferred_text(d, disp.card)})"
        click.echo(disp.text(f"  {disp.card(d.code):>3}{mark} {d.confidence:5.0%}  at {x},{y}"
                             f"{note}"))


def _echo_piles(piles, disp) -> None:
    """The cards grouped into the variant's piles, and what the position's check found."""
    click.echo(f"\nAs {piles.variant}:")
    for name, ds in piles.piles.items():
        down = piles.face_down.get(name)
        backs = "" if down is None else (f"[{down} face down] " if down else "")
        click.echo(f"  {name}: {backs}" + " ".join(disp.card(d.code) + _mark(d) for d in ds))
    for name, ds in piles.piles.items():
        for d in ds:
            if d.inferred is not None:
                click.echo(disp.text(f"  {name}: {disp.card(d.code)}* inferred from the "
                                     f"rules ({inferred_text(d, disp.card)})"))
    if piles.as_dealt:
        click.echo(f"  face-down cards not counted on {', '.join(piles.as_dealt)}: taken as "
                   "dealt")
    if piles.empty:
        click.echo(f"  empty: {', '.join(piles.empty)} (no card read there: the gaps the "
                   "deal leaves, its cards put aside)")
    unread = _unread_piles(piles)
    if unread:
        click.echo(f"  no card read on {', '.join(unread)}, where the layout shows one "
                   "face up: check it on the table, or retake the photo with it in view")
    if piles.unplaced:
        n = len(piles.unplaced)
        click.echo(f"  not placed in a pile: {n} card{'s' if n != 1 else ''}: "
                   + " ".join(disp.card(d.code) + _mark(d) for d in piles.unplaced))
    for p in piles.problems:
        click.echo(disp.text(f"  problem: {p}"))
    if piles.position is not None and not piles.problems:
        click.echo("  The position read is consistent with the rules.")


def _echo_advice(cards, debug_out) -> None:
    """What to do about the cards read unsure: photograph closer, retake, check them."""
    unsure = [d for d in cards if d.uncertain]
    small = sum(1 for d in unsure if d.note.startswith(TOO_SMALL))
    if small:
        click.echo(f"\n{small} of the indices are too small in this photo to read surely: "
                   "photograph the layout closer, or at a higher resolution.")
    advice = _retake(cards)
    if advice:
        click.echo("\n" + advice)
    if unsure:
        click.echo("\nCheck the uncertain cards on the table" +
                   ("" if debug_out else " (--debug OUT.png marks them on the photo)") + ".")


def _retake(cards) -> str | None:
    """Why and how to retake a photo that many cards read unsure in (beyond those too small to
    read, which the text advises on apart); None when the photo is fine."""
    return unsure_advice(cards, sum(1 for d in cards if d.uncertain
                                    and d.note.startswith(TOO_SMALL)))


def _unread_piles(piles) -> list[str]:
    """The piles of the position read that wait for a face-up card no reading gave (Golf's
    waste card not found, a column with none read), in the variant's order."""
    pos = piles.position
    if pos is None:
        return []
    names = pos.engine.names
    return sorted({names[i] for i, _ in pos.pending_reveals()}, key=names.index)


def _mark(d) -> str:
    """``?`` after an uncertain card, ``*`` after one inferred from the rules."""
    return "?" if d.uncertain else "*" if d.inferred is not None else ""


def _inferred_json(d):
    """How a card inferred from the rules was read: what the photo showed best, how surely,
    and why the card taken is the only one possible; None for a card read as it is."""
    if d.inferred is None:
        return None
    code, p, why = d.inferred
    return {"read": code_json(code), "read_confidence": round(p, 3), "why": why,
            "text": f"{code_text(d.code)} ({inferred_text(d)})"}


def _check_deck(deck) -> None:
    """Refuse a --deck that names no calibration (a typo would read with the model alone,
    unsaid); ``default`` may be missing: it is used where it exists."""
    if deck == "default" or deck_path(deck).exists():
        return
    try:
        stored = sorted(p.stem for p in deck_dir().glob("*.npz"))
    except OSError:
        stored = []
    have = (f"calibrated: {', '.join(stored)}" if stored else "no deck is calibrated yet")
    raise click.BadParameter(
        f"deck {deck!r} is not calibrated ({have}). Calibrate it from a photo of a seeded "
        f"deal before any move (companion scan dealt.jpg --calibrate --variant gaps --seed 3 "
        f"--deck {deck}), or read with the model alone: --deck none", param_hint="--deck")


def _calibrate(photo, camera, key, seed, deck, as_json):
    if key is None or seed is None:
        raise click.UsageError("--calibrate needs the deal photographed: --variant V --seed N "
                               "(e.g. companion scan dealt.jpg --calibrate --variant gaps "
                               "--seed 3)")
    if deck.lower() == "none":
        raise click.UsageError("--deck none stores nothing: name the deck, e.g. --deck bicycle")
    res = calibrate(photo, key, seed, deck, camera)
    if as_json:
        echo_json(res)
        return
    click.echo(f"Deck {res['deck']!r} calibrated from {res['cards']} cards of {key} seed "
               f"{seed} ({res['ranks']} ranks, {res['suits']} suits; the model alone read "
               f"{res['agree']} of them right): {res['path']}")
    if res["piles_skipped"]:
        click.echo("  not used (the cards read there are not the dealt count): "
                   + ", ".join(res["piles_skipped"]))
    click.echo("Later readings use it" + ("" if deck == "default" else f" with --deck {deck}")
               + ".")


def _columns_up(piles) -> tuple[float, float] | None:
    """The cards' up in the photo: the mean up of the first cards of the columns of two cards
    or more, whose lower corner the next card covers, so that they are read at their top
    one; None where there is no such column. (A column's last card is often read at its
    lower corner, its up then the other way.)"""
    vx = vy = 0.0
    for name, ds in piles.piles.items():
        if name.startswith("t") and len(ds) >= 2:
            vx += ds[0].up[0]
            vy += ds[0].up[1]
    norm = math.hypot(vx, vy)
    return (vx / norm, vy / norm) if norm else None


def _columns_way(piles) -> tuple[float, float] | None:
    """The way the columns cascade in the photo: the mean direction from the first face-up
    card of each column of two or more to the second; None where there is no such column.
    A column's backs lie the other way from its first face-up card (above it in a layout
    cascading down the cards, beside it in one cascading sideways)."""
    vx = vy = 0.0
    for name, ds in piles.piles.items():
        if name.startswith("t") and len(ds) >= 2:
            dx, dy = ds[1].x - ds[0].x, ds[1].y - ds[0].y
            n = math.hypot(dx, dy)
            if n:
                vx += dx / n
                vy += dy / n
    norm = math.hypot(vx, vy)
    return (vx / norm, vy / norm) if norm else None


def _label_at(x, y, size, toward, text, scale) -> tuple[int, int]:
    """Where to start writing ``text`` (its baseline's left end) so that it lies along
    ``toward`` (a unit vector) from an index at (x, y), its near side ``1.8 * size`` pixels
    from the index's centre (the index's box reaches 1.4 sizes): over a column's backs, not
    across its first card."""
    import cv2
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    reach = 1.8 * size + abs(toward[0]) * w / 2 + abs(toward[1]) * h / 2
    cx, cy = x + reach * toward[0], y + reach * toward[1]
    return int(cx - w / 2), int(cy + h / 2)


def _top_corner(d, up) -> tuple[float, float]:
    """Where the face-down count of a column is written from: its first face-up card's index
    that stands the layout's way up (``up``), the other corner where the card was read at
    its lower one, so that the label lies over the backs above the card, not beyond its foot
    (over the next readings' labels)."""
    if d.other is not None and d.up[0] * up[0] + d.up[1] * up[1] < 0:
        ox, oy, oup = d.other
        if oup[0] * up[0] + oup[1] * up[1] > 0:
            return ox, oy
    return d.x, d.y


DEBUG_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
"""The image files --debug writes (by the name's ending)."""


def check_debug_path(out, photo=None) -> None:
    """Refuse a --debug name before the photo is read: one that is not an image file's, or
    that is the photo itself (the annotated image would overwrite it: the same file after
    resolving links)."""
    ext = os.path.splitext(out)[1].lower()
    if ext not in DEBUG_TYPES:
        raise click.BadParameter(
            f"{out!r} does not name an image file: end it with .png or .jpg (e.g. "
            f"--debug read.png){'' if not ext else f'; {ext} is not an image type'}",
            param_hint="--debug")
    if photo is not None and os.path.exists(out) and os.path.exists(photo) \
            and os.path.samefile(out, photo):
        raise click.BadParameter(
            f"{out!r} is the photo being read: the annotated image would overwrite it. Name "
            f"another file, e.g. --debug read.png", param_hint="--debug")


INFERRED_BGR = (255, 120, 0)
"""Colour (blue, in OpenCV's BGR order) of a card inferred from the rules on the --debug image."""


def write_debug(res, path):
    """The photo with each reading drawn: green sure, orange uncertain, blue a card inferred
    from the rules (the only reading its pile's build allows, labelled with a ``*``); magenta,
    the face-down cards counted above a column."""
    cv2 = quiet_cv2()
    img = res["image"][..., ::-1].copy()
    for d in res["cards"]:
        col = (0, 160, 255) if d.uncertain else INFERRED_BGR if d.inferred is not None \
            else (0, 200, 0)
        s = d.size
        ux, uy = d.up
        rx, ry = -uy, ux
        pts = []
        for a, b in ((-1, 1.4), (1, 1.4), (1, -1.4), (-1, -1.4)):
            pts.append((int(d.x + a * s * rx + b * s * ux), int(d.y + a * s * ry + b * s * uy)))
        import numpy as np
        cv2.polylines(img, [np.array(pts, np.int32)], True, col, 2)
        label = code_text(d.code, False) + _mark(d)
        cv2.putText(img, label, (int(d.x + 1.2 * s), int(d.y)), cv2.FONT_HERSHEY_SIMPLEX,
                    max(0.4, s / 30), col, 2, cv2.LINE_AA)
    piles = res.get("piles")
    layout_up = _columns_up(piles) if piles is not None else None
    way = _columns_way(piles) if piles is not None else None
    for name, n in (piles.face_down.items() if piles is not None else ()):
        first = piles.piles.get(name)
        if n is None or not first:
            continue
        up = layout_up or first[0].up
        x, y = _top_corner(first[0], up)
        s = first[0].size
        text, scale = f"{name}: {n} down", max(0.4, s / 30)
        toward = (-way[0], -way[1]) if way is not None else up
        cv2.putText(img, text, _label_at(x, y, s, toward, text, scale),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 0, 255), 2, cv2.LINE_AA)
    ext = os.path.splitext(path)[1].lower()
    try:   # encoded here, written by Python: an error that says why (not OpenCV's log)
        ok, data = cv2.imencode(ext, img)
    except cv2.error:
        ok = False
    if not ok:
        raise VisionError(f"cannot write {path!r}: {ext or 'no'} is not an image type OpenCV "
                          f"writes here: use a .png or .jpg name")
    try:
        with open(path, "wb") as fh:
            fh.write(data.tobytes())
    except OSError as exc:
        raise VisionError(f"cannot write {path!r}: {exc.strerror or exc} (name a file in a "
                          "folder you can write to)") from None

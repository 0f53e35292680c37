"""Photo to position: what the commands do with a photo (`hint --photo`, `verify --photo`,
`scan`, and `play`'s `scan`).

Everything here works on the reading :func:`companion.vision.scan.scan_photo` returns; no
decision about legality is taken here (the rules engine checks every card entered). A card read
below the confidence threshold is never used as if it were sure: it is named to the player,
who types it.
"""

from __future__ import annotations

import re

from ..cards import UNKNOWN, code_text
from ..vision import VisionError
from ..vision.piles import inferred_text

_CAMERA = re.compile(r"^(?:cam|camera)\s*([0-9]{1,2})$")


def parse_source(text: str) -> tuple[str | None, int | None]:
    """``cam0`` / ``camera 1`` -> (None, N); anything else is a file name."""
    t = text.strip()
    m = _CAMERA.match(t.lower())
    if m:
        return None, int(m.group(1))
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        t = t[1:-1]
    return t, None


def scan(photo=None, camera=None, variant=None, threshold=None) -> dict:
    """:func:`companion.vision.scan.scan_photo`, with a clear error when the photo reading
    packages are missing."""
    try:
        # late-bound: tests monkeypatch scan_photo on scan; cv2 and numpy load only here
        from ..vision.scan import scan_photo
        return scan_photo(photo, camera, variant, threshold=threshold)
    except ImportError as exc:
        raise VisionError(f"photo reading is unavailable: {exc.name or exc} is not installed "
                          f"(pip install opencv-python-headless numpy pillow)") from None


def _label(d) -> str:
    """A card read, as the rest of the output writes it (``10♥``; the commands show it
    through their display, letters under ``--ascii``)."""
    return code_text(d.code)


def uncertain_text(d) -> str:
    """``8h? (low confidence, 40%)``: an uncertain reading as the player sees it."""
    return f"{_label(d)}? ({d.note or 'low confidence'}, {d.confidence:.0%})"


def where(reading) -> dict:
    """Detection id -> pile name, for the cards the pile mapping placed."""
    piles = reading.get("piles")
    if piles is None:
        return {}
    return {id(d): name for name, ds in piles.piles.items() for d in ds}


def no_cards_message(source: str) -> str:
    return (f"no cards found in {source}: photograph the layout from above, in even light, with "
            f"the card corners in view")


UNSURE_SHARE = 0.25
"""From this share of a photo's cards read unsure (and at least three), the photo itself is the
likely cause: the reader says so instead of leaving the player to check card after card."""


def unsure_advice(cards, too_small: int = 0) -> str | None:
    """What to do about a photo with many cards read unsure, other than those whose indices are
    too small (``too_small`` of them, which have advice of their own); None when few are."""
    unsure = sum(1 for d in cards if d.uncertain) - too_small
    if unsure < 3 or unsure < UNSURE_SHARE * len(cards):
        return None
    return (f"{unsure} of the {len(cards)} cards could not be read surely: a photo this unsure "
            f"is usually blurred (the camera moved, or focused on the table) or in poor light. "
            f"Retake it, holding the camera still, focused on the cards, in even light.")


def source_name(photo, camera) -> str:
    return f"camera {camera}" if camera is not None else str(photo)


# ------------------------------------------------------------------------------ hint --photo

def photo_position(reading, source: str, shown=str):
    """The position read from a photo, for the solver. Raises VisionError when there is none,
    or when a card could only be guessed (the player must check it: never guess silently).
    Returns (position, warnings). ``shown``: how the caller's display writes a text's cards
    (suit symbols, or letters under ``--ascii``), applied to the warnings and the error."""
    try:
        pos, warnings = _photo_position(reading, source)
    except VisionError as exc:
        raise VisionError(shown(str(exc))) from None
    return pos, [shown(w) for w in warnings]


def _photo_position(reading, source: str):
    if not reading["cards"]:
        raise VisionError(no_cards_message(source))
    piles = reading["piles"]
    if piles is None:
        raise VisionError(f"{source}: no variant to read the piles with (give VARIANT)")
    unsure = [(name, d) for name, ds in piles.piles.items() for d in ds if d.uncertain]
    if unsure:
        listing = ", ".join(f"{name}: {uncertain_text(d)}" for name, d in unsure)
        raise VisionError(
            f"{source}: {len(unsure)} card{'s' if len(unsure) != 1 else ''} could not be read "
            f"with confidence ({listing}). Retake the photo (closer, in even light), or save the "
            f"reading with `companion scan {source} --variant {piles.variant} --json`, correct "
            f"the position and give it with --position")
    if piles.position is None:
        raise VisionError(f"{source}: the cards read do not form a {piles.variant} position: "
                          + "; ".join(piles.problems or ["no pile recognised"]))
    pos = piles.position
    missing = sorted({pos.engine.names[i] for i, _ in pos.pending_reveals()},
                     key=pos.engine.names.index)
    if missing:
        raise VisionError(f"{source}: no face-up card found on {', '.join(missing)}: retake the "
                          f"photo with every pile in view (or type the position: `companion "
                          f"play {piles.variant} --physical`)")
    warnings = [p for p in piles.problems if "uncertain" not in p]
    if piles.as_dealt:
        warnings.append(f"face-down cards on {', '.join(piles.as_dealt)} could not be counted "
                        "from their backs and are taken as dealt: if play has turned cards up "
                        "there, give the position with --position instead")
    if piles.unplaced:
        warnings.append(f"{len(piles.unplaced)} card(s) read but not placed in a pile")
    warnings += [inferred_line(name, d) for name, d in inferred_cards(reading)]
    return pos, warnings


# ------------------------------------------------------------------------------ inferred cards

def inferred_cards(reading) -> list:
    """(pile name, detection) for every card of the piles that was read below the threshold
    and named from the rules (:func:`companion.vision.piles.infer_from_build`), in pile order."""
    piles = reading.get("piles")
    if piles is None:
        return []
    return [(name, d) for name, ds in piles.piles.items() for d in ds if d.inferred is not None]


CHECK_AND_TYPE = "check it on the table and type it"
"""What the player does about a card that turned up in play and was inferred from the rules."""


def inferred_line(where: str, d, card=None, then: str = "check it on the table") -> str:
    """``t3: Q♠ was inferred from the rules (read 54% as Q♦; the only reading the column's
    build allows): check it on the table``: how every command that uses a photo names a card
    it did not read sure but took from the rules, so the player looks at it (``where``: the
    pile or place; ``card``: code -> text, default as :func:`_label`; ``then``: what the player
    does about it; the suits as symbols, which the commands' displays turn to letters under
    ``--ascii``)."""
    text = card(d.code) if card else _label(d)
    return f"{where}: {text} was inferred from the rules ({inferred_text(d, card)}): {then}"


# ------------------------------------------------------------------------------ play: scan

def layout_plan(reading, layout) -> tuple[dict[int, list[int]], list[str]]:
    """For a layout being entered (:class:`companion.record.layout.LayoutEntry`): the piles
    whose face-up cards were all read with confidence (pile index -> codes, bottom to top),
    and a line for each pile the player must type (uncertain cards, or not the right count).
    A card inferred from the rules counts as read: the recorder names it (nothing is recorded
    before `start`, and the player checks the layout first). A place taken for one of the
    deal's gaps (Gaps, the aces out: ``piles.empty``) is given a card the deal puts aside,
    which the deal's rules then put aside again: which lay where, the photo cannot show, and
    the layout is the same whichever."""
    piles = reading["piles"]
    got = piles.piles if piles is not None else {}
    empty = set(piles.empty) if piles is not None else set()
    aside = list(piles.aside) if piles is not None else []
    plan: dict[int, list[int]] = {}
    todo: list[str] = []
    for i in layout.order:
        name = layout.names[i]
        dets = got.get(name, [])
        need = layout.need(i)
        if not dets and name in empty and need == 1 and aside:
            plan[i] = [aside.pop(0)]
            continue
        if not dets:
            todo.append(f"{name}: not found in the photo")
            continue
        unsure = [d for d in dets if d.uncertain]
        if unsure:
            todo.append(f"{name}: " + ", ".join(uncertain_text(d) for d in unsure)
                        + " could not be read with confidence")
            continue
        if len(dets) != need:
            todo.append(f"{name}: read {len(dets)} card{'s' if len(dets) != 1 else ''} ("
                        + " ".join(_label(d) for d in dets) + f"), it shows {need}")
            continue
        plan[i] = [d.code for d in dets]
    return plan, todo


def new_cards(reading, pos) -> tuple[list[int], list, list]:
    """Cards read with confidence that the position does not know yet (each code as often as
    it is new), the uncertain readings, and the cards inferred from the rules that the
    position does not know (not taken: a card that turns up is recorded at once, so only what
    the photo shows sure is; the player checks these and types them)."""
    from collections import Counter

    known = Counter(c for p in pos.piles for c in p if c != UNKNOWN)
    seen = Counter(d.code for d in reading["cards"] if not d.uncertain and d.inferred is None)
    new = []
    for c, n in seen.items():
        new += [c] * max(0, n - known[c])
    inferred = [d for d in reading["cards"] if d.inferred is not None and not known[d.code]]
    return sorted(new), [d for d in reading["cards"] if d.uncertain], inferred


def reveal_plan(reading, pos) -> tuple[list[tuple[int, int, int]], list[str]]:
    """For the cards waiting to be named (``pos.pending_reveals()``): those the photo shows
    with confidence, as (pile index, height, code) in the order they wait, and a line for each
    other one. A card is taken only where its pile, as photographed, has the face-up cards the
    position knows, in their places, and the card at the waiting place is read sure (a card
    inferred from the rules is named for the player to check and type: a card that turns up
    is recorded at once)."""
    piles = reading.get("piles")
    got = piles.piles if piles is not None else {}
    names = pos.engine.names
    plan: list[tuple[int, int, int]] = []
    todo: list[str] = []
    for i, k in pos.pending_reveals():
        name = names[i]
        dets = got.get(name, [])
        up = list(pos.piles[i][pos.down[i]:])
        j = k - pos.down[i]
        if not dets:
            todo.append(f"{name}: not found in the photo")
            continue
        if len(dets) != len(up) or not 0 <= j < len(up) or any(
                c != UNKNOWN and c != d.code for c, d in zip(up, dets, strict=True)):
            todo.append(f"{name}: the photo shows " + " ".join(_label(d) for d in dets)
                        + f", not the {len(up)} face-up card{'s' if len(up) != 1 else ''} "
                        "known there")
            continue
        d = dets[j]
        if d.uncertain:
            todo.append(f"{name}: {uncertain_text(d)} could not be read with confidence")
            continue
        if d.inferred is not None:   # recorded at once when taken: the player names it
            todo.append(inferred_line(name, d, then=CHECK_AND_TYPE))
            continue
        plan.append((i, k, d.code))
    return plan, todo

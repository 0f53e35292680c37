"""One call for the whole reading: photo (or webcam) -> sheet code, cards, piles, position.

This is the entry point for other commands: ``companion play``'s ``scan``, ``hint --photo``,
``verify --photo``.
"""

from __future__ import annotations


def scan_photo(photo=None, camera=None, variant=None, decks=None, threshold=None):
    """Library entry point for other commands (`play`'s scan, `hint --photo`, `verify --photo`).

    Returns a dict: ``image`` (working RGB array), ``info``, ``sheet`` (SheetCode or None),
    ``cards`` (list of :class:`companion.vision.read.Detection`, places in working pixels),
    ``piles`` (PileReading or None, with ``.position`` a candidate Position when a variant is
    known from the argument or the sheet's QR code). ``threshold``: confidence below which a
    card is marked uncertain (default :data:`companion.vision.read.THRESHOLD`).
    """
    from .image import grab_camera, load_photo
    from .piles import map_piles
    from .qr import find_sheet_code
    from .read import read_cards
    rgb, info = grab_camera(camera) if camera is not None else load_photo(photo)
    sheet = find_sheet_code(rgb)
    key = variant or (sheet.variant if sheet else None)
    if decks is None:
        decks = 1
        if key:
            from ..rules import load_variant
            try:
                decks = load_variant(key).decks
            except Exception:  # an unknown variant in a foreign QR code: read cards only
                key = variant
    from .read import THRESHOLD
    cards = read_cards(rgb, decks=decks, threshold=THRESHOLD if threshold is None else threshold)
    piles = map_piles(cards, key) if key and cards else None
    return {"image": rgb, "info": info, "sheet": sheet, "cards": cards, "piles": piles,
            "variant": key}

"""One call for the whole reading: photo (or webcam) -> sheet code, cards, piles, position.

This is the entry point for other commands: ``companion play``'s ``scan``, ``hint --photo``,
``verify --photo``.
"""

from __future__ import annotations


def scan_photo(photo=None, camera=None, variant=None, decks=None, threshold=None,
               deck="default"):
    """Library entry point for other commands (`play`'s scan, `hint --photo`, `verify --photo`).

    Returns a dict: ``image`` (working RGB array), ``info``, ``sheet`` (SheetCode or None),
    ``cards`` (list of :class:`companion.vision.read.Detection`, places in working pixels),
    ``piles`` (PileReading or None, with ``.position`` a candidate Position when a variant is
    known from the argument or the sheet's QR code). ``threshold``: confidence below which a
    card is marked uncertain (default :data:`companion.vision.read.THRESHOLD`). ``deck``: the
    name of a deck calibration (``companion scan --calibrate``) used when it exists; None for
    the model alone. ``deck_used`` in the result names the calibration used, if any.
    """
    from .image import grab_camera, load_photo
    from .qr import find_sheet_code
    rgb, info = grab_camera(camera) if camera is not None else load_photo(photo)
    if variant is None:   # the sheet's code may name the game: read it first
        return _scan(rgb, info, find_sheet_code(rgb), photo, camera, variant, decks, threshold,
                     deck)
    # else look for it while the cards are read (OpenCV's search lets go of the GIL: on two
    # cores a 12-megapixel photo is read about a fifth sooner)
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=1) as pool:
        sheet = pool.submit(find_sheet_code, rgb)
        return _scan(rgb, info, sheet, photo, camera, variant, decks, threshold, deck)


def _scan(rgb, info, sheet, photo, camera, variant, decks, threshold, deck):
    """:func:`scan_photo` once the photo is loaded; ``sheet``: its code, or a future of it."""
    from .image import load_photo
    from .piles import map_piles
    from .read import read_photo
    pending = hasattr(sheet, "result")   # a future: the code is still being looked for
    key = variant or (sheet.variant if sheet and not pending else None)
    if decks is None:
        decks = 1
        if key:
            from ..rules import load_variant
            try:
                decks = load_variant(key).decks
            except Exception:  # an unknown variant in a foreign QR code: read cards only
                key = variant
    from .read import THRESHOLD

    def finer(zoom):
        """The photo at ``zoom`` times the working size: from the file where it has the
        pixels (a 12-megapixel photo is read at 2000 pixels first), else upsampled."""
        import cv2
        size = (round(rgb.shape[1] * zoom), round(rgb.shape[0] * zoom))
        if camera is None and info["scale"] < 1:
            big, _ = load_photo(photo, work_side=max(size))
        else:
            big = rgb
        interp = cv2.INTER_AREA if big.shape[1] > size[0] else cv2.INTER_CUBIC
        return cv2.resize(big, size, interpolation=interp)

    from .calibrate import load_deck
    cal = load_deck(deck)
    cards = read_photo(rgb, decks=decks, threshold=THRESHOLD if threshold is None else threshold,
                       finer=finer, deck=cal)
    piles = map_piles(cards, key, rgb) if key and cards else None
    if pending:
        sheet = sheet.result()
    return {"image": rgb, "info": info, "sheet": sheet, "cards": cards, "piles": piles,
            "variant": key, "deck_used": cal.name if cal is not None else None}

"""One call for the whole reading: photo (or webcam) -> sheet code, cards, piles, position.

This is the entry point for other commands: ``companion play``'s ``scan``, ``hint --photo``,
``verify --photo``.
"""

from __future__ import annotations

from ..rules import load_variant
from . import VisionError
from .calibrate import load_deck
from .config import DEFAULT, ReadConfig
from .image import decode_photo, grab_camera, load_photo
from .piles import deals_face_down, map_piles
from .qr import find_sheet_code
from .read import read_photo


def scan_photo(photo=None, camera=None, variant=None, decks=None, threshold=None,
               deck="default", *, config: ReadConfig = DEFAULT):
    """Library entry point for other commands (`play`'s scan, `hint --photo`, `verify --photo`).

    Returns a dict: ``image`` (working RGB array), ``info``, ``sheet`` (SheetCode or None),
    ``cards`` (list of :class:`companion.vision.detection.Detection`, places in working pixels),
    ``piles`` (PileReading or None, with ``.position`` a candidate Position when a variant is
    known from the argument or the sheet's QR code). ``threshold``: confidence below which a
    card is marked uncertain (default ``config.threshold``). ``deck``: the
    name of a deck calibration (``companion scan --calibrate``) used when it exists; None for
    the model alone. ``deck_used`` in the result names the calibration used, if any;
    ``deck_ignored`` says why the default calibration was not (made with other model files).
    ``config``: the reading's thresholds and switches
    (:class:`~companion.vision.config.ReadConfig`).
    """
    from concurrent.futures import ThreadPoolExecutor

    rgb, info = grab_camera(camera) if camera is not None else load_photo(photo)
    # the sheet's code may name the game: without the variant it is read first; with it, it
    # is looked for while the cards are read (OpenCV's search lets go of the GIL, so the two
    # run together; the pool starts no thread until asked). Where the indices look small, a photo with more pixels than the working
    # image is decoded again beside the rest of the first reading: the finer one needs it
    with ThreadPoolExecutor(max_workers=2) as pool:
        later = pool.submit(find_sheet_code, rgb) if variant is not None else None
        early = []

        def ahead():
            if camera is None and info["scale"] < 1 and not early:
                early.append(pool.submit(decode_photo, photo,
                                         round(max(rgb.shape[:2]) * config.max_zoom)))
        sheet = find_sheet_code(rgb) if later is None else None
        key = variant or (sheet.variant if sheet else None)
        backs = True   # (where the game deals no card face down, no back is in the photo)
        if key:
            try:
                v = load_variant(key)
            except Exception:  # an unknown variant in a foreign QR code: read cards only
                key = variant
            else:
                decks = v.decks if decks is None else decks
                backs = deals_face_down(v)
        if decks is None:
            decks = 1

        def finer(zoom):
            """The photo at ``zoom`` times the working size: from the file where it has the
            pixels (a 12-megapixel photo is read at 2000 pixels first), else upsampled."""
            import cv2
            size = (round(rgb.shape[1] * zoom), round(rgb.shape[0] * zoom))
            if camera is None and info["scale"] < 1:
                try:   # (taken when it is what this size decodes; else read again)
                    decoded = early[0].result() if early else None
                except Exception:   # the reading below says what is wrong
                    decoded = None
                big, _ = load_photo(photo, work_side=max(size), decoded=decoded)
            else:
                big = rgb
            if big.shape[1::-1] == size:
                return big
            interp = cv2.INTER_AREA if big.shape[1] > size[0] else cv2.INTER_CUBIC
            return cv2.resize(big, size, interpolation=interp)

        # late-bound: tests monkeypatch load on model
        from .model import load
        clf = load()
        ignored = None
        try:
            cal = load_deck(deck, clf)
        except VisionError as exc:
            if deck != "default":   # a deck asked for by name is used, or the reading stops
                raise
            cal, ignored = None, str(exc)   # the deck used unasked: read without it, and say
        cards = read_photo(rgb, clf, decks=decks, threshold=threshold, finer=finer, deck=cal,
                           detail=1 / info["scale"] if camera is None else 1.0, ahead=ahead,
                           backs=backs, config=config)
        piles = map_piles(cards, key, rgb, config=config) if key and cards else None
        if later is not None:
            sheet = later.result()
    return {"image": rgb, "info": info, "sheet": sheet, "cards": cards, "piles": piles,
            "variant": key, "deck_used": cal.name if cal is not None else None,
            "deck_ignored": ignored}

"""Loading a photo defensively.

Every failure is a :class:`VisionError` that says what was wrong: not an image, a truncated
file, an image too large to process. Memory stays bounded: JPEGs are decoded at a reduced scale
(libjpeg's DCT scaling through PIL's ``draft``), other formats are refused above
:data:`MAX_DECODE_PIXELS`, and every image is downscaled to :data:`WORK_SIDE` pixels on its long
side before processing. EXIF orientation is applied (a portrait phone photo stays portrait).
"""

from __future__ import annotations

import os

from . import VisionError, quiet_cv2

WORK_SIDE = 2000
"""Long side, in pixels, of the image that recognition works on."""
MAX_FILE_BYTES = 200 * 1024 * 1024
MAX_DECODE_PIXELS = 60_000_000
"""Non-JPEG images above this many pixels are refused (a JPEG is decoded at a reduced scale)."""
MAX_JPEG_PIXELS = 400_000_000


def load_photo(path, work_side: int = WORK_SIDE, decoded=None):
    """The photo at ``path`` as an RGB ``uint8`` numpy array, upright, long side <= work_side.

    Returns ``(rgb, info)``; ``info`` has ``original_size`` (w, h as stored, before EXIF
    rotation), ``scale`` (working pixels per original pixel) and ``format``. ``decoded``: what
    :func:`decode_photo` gave for this file, maybe for another size: its pixels are taken
    where that size's decoding is this one's (a JPEG scaled alike), else the file is read."""
    return _read(path, work_side, decoded)


def decode_photo(path, work_side: int = WORK_SIDE):
    """The photo at ``path`` decoded as :func:`load_photo` decodes it for ``work_side``, not
    yet resized: an opaque value for its ``decoded`` (read ahead, in another thread, while
    the working image is read)."""
    return _read(path, work_side, keep=True)


def _read(path, work_side, decoded=None, keep=False):
    import numpy as np
    from PIL import Image, ImageOps, UnidentifiedImageError

    path = os.fspath(path)
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise VisionError(f"cannot open {path!r}: {exc.strerror or exc}") from None
    if os.path.isdir(path):
        raise VisionError(f"{path!r} is a folder, not a photo")
    if size == 0:
        raise VisionError(f"{path!r} is empty (0 bytes), not a photo")
    if size > MAX_FILE_BYTES:
        raise VisionError(f"{path!r} is {size // (1024 * 1024)} MB; photos over "
                          f"{MAX_FILE_BYTES // (1024 * 1024)} MB are refused")
    old_limit = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None  # our own limits below, with a clearer message
    try:
        with Image.open(path) as im:
            fmt = im.format or "?"
            w, h = im.size
            pixels = w * h
            if fmt == "JPEG":
                if pixels > MAX_JPEG_PIXELS:
                    raise VisionError(f"{path!r} is {pixels / 1e6:.0f} megapixels; the limit is "
                                      f"{MAX_JPEG_PIXELS // 1_000_000} (resize it first)")
                # DCT scaling: decode at 1/2, 1/4 or 1/8 so that the long side stays >= work_side
                im.draft("RGB", (max(1, w * work_side // max(w, h)),
                                 max(1, h * work_side // max(w, h))))
            elif pixels > MAX_DECODE_PIXELS:
                raise VisionError(
                    f"{path!r} is a {w}x{h} {fmt} image ({pixels / 1e6:.0f} megapixels); "
                    f"images other than JPEG are read up to {MAX_DECODE_PIXELS // 1_000_000} "
                    "megapixels: resize it or save it as JPEG")
            # what is decoded: the file, scaled (a JPEG) to this size
            key = (path, os.path.getmtime(path), size, im.size)
            if decoded is not None and decoded[0] == key:
                im = decoded[1]
            else:
                im.load()
                ImageOps.exif_transpose(im, in_place=True)   # (a copy of the pixels saved)
                if im.mode != "RGB":
                    im = im.convert("RGBA").convert("RGB") if "A" in im.mode or im.mode == "P" \
                        else im.convert("RGB")
                if keep:
                    return key, im
            if max(im.size) > work_side:
                k = work_side / max(im.size)
                rgb = _resize(im, (max(1, round(im.size[0] * k)), max(1, round(im.size[1] * k))))
            else:
                rgb = np.asarray(im, dtype=np.uint8).copy()
    except VisionError:
        raise
    except UnidentifiedImageError:
        raise VisionError(f"{path!r} is not an image that can be read (JPEG, PNG, WebP, BMP, "
                          "TIFF ...)") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        msg = str(exc) or type(exc).__name__
        if "truncated" in msg.lower() or isinstance(exc, EOFError):
            raise VisionError(f"{path!r} is truncated or damaged ({msg}); copy the photo "
                              "again") from None
        raise VisionError(f"cannot read {path!r} as an image: {msg}") from None
    except MemoryError:
        raise VisionError(f"{path!r} is too large to decode in memory; resize it") from None
    finally:
        Image.MAX_IMAGE_PIXELS = old_limit
    if rgb.shape[0] < 32 or rgb.shape[1] < 32:
        raise VisionError(f"{path!r} is only {rgb.shape[1]}x{rgb.shape[0]} pixels; too small "
                          "to show cards")
    info = {"original_size": (w, h), "scale": max(rgb.shape[:2]) / max(w, h), "format": fmt}
    return rgb, info


def _resize(im, size):
    """``im`` (a PIL image) resized to ``size`` by OpenCV's area averaging (each output pixel
    the mean of the pixels it covers), as a ``uint8`` array: faster than Pillow's bilinear
    filter on a large photo, and the same cards are read either way."""
    import cv2
    import numpy as np
    return cv2.resize(np.asarray(im, dtype=np.uint8), size, interpolation=cv2.INTER_AREA)


def grab_camera(index: int, work_side: int = WORK_SIDE):
    """One frame from webcam ``index`` (cv2.VideoCapture), as :func:`load_photo` returns it."""
    cv2 = quiet_cv2()
    cap = cv2.VideoCapture(index)
    try:
        if not cap.isOpened():
            # (no option named: `scan --camera N`, `verify --photo camN` and play's
            # `scan camN` each say it their way)
            raise VisionError(f"camera {index} cannot be opened: no webcam is connected as "
                              f"number {index}. Give another camera number, or a photo file "
                              "instead")
        frame = None
        for _ in range(5):  # let exposure settle
            ok, f = cap.read()
            if ok:
                frame = f
        if frame is None:
            raise VisionError(f"camera {index} gave no picture")
    finally:
        cap.release()
    rgb = cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)
    h, w = rgb.shape[:2]
    if max(h, w) > work_side:
        k = work_side / max(h, w)
        rgb = cv2.resize(rgb, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
    return rgb, {"original_size": (w, h), "scale": max(rgb.shape[:2]) / max(w, h),
                 "format": f"camera {index}"}

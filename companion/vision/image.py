"""Loading a photo defensively.

Every failure is a :class:`VisionError` that says what was wrong: not an image, a truncated
file, an image too large to process. Memory stays bounded: JPEGs are decoded at a reduced scale
(libjpeg's DCT scaling through PIL's ``draft``), other formats are refused above
:data:`MAX_DECODE_PIXELS`, and every image is downscaled to :data:`WORK_SIDE` pixels on its long
side before processing. EXIF orientation is applied (a portrait phone photo stays portrait).
"""

from __future__ import annotations

import os

from . import VisionError

WORK_SIDE = 2000
"""Long side, in pixels, of the image that recognition works on."""
MAX_FILE_BYTES = 200 * 1024 * 1024
MAX_DECODE_PIXELS = 60_000_000
"""Non-JPEG images above this many pixels are refused (a JPEG is decoded at a reduced scale)."""
MAX_JPEG_PIXELS = 400_000_000


def load_photo(path, work_side: int = WORK_SIDE):
    """The photo at ``path`` as an RGB ``uint8`` numpy array, upright, long side <= work_side.

    Returns ``(rgb, info)``; ``info`` has ``original_size`` (w, h as stored, before EXIF
    rotation), ``scale`` (working pixels per original pixel) and ``format``."""
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
            im.load()
            ImageOps.exif_transpose(im, in_place=True)   # (a copy of the pixels saved)
            if im.mode != "RGB":
                im = im.convert("RGBA").convert("RGB") if "A" in im.mode or im.mode == "P" \
                    else im.convert("RGB")
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


def _split_row(rows: int, out: int) -> int | None:
    """An output row at which Pillow's resize of ``rows`` source rows to ``out`` can be cut in
    two with the same pixels: the source row where it begins is a whole number, the scale of
    each part is the whole's, and each output row below is centred exactly where the whole's
    is (Pillow's own arithmetic, in doubles). None where no row near the middle is one."""
    import numpy as np
    if out < 64 or rows >= 1 << 24:
        return None
    scale = rows / out
    for r in sorted(range(out // 3, 2 * out // 3), key=lambda r: abs(2 * r - out)):
        if (r * rows) % out:
            continue
        y0 = r * rows // out
        if y0 / r != scale or (rows - y0) / (out - r) != scale:
            continue
        xx = np.arange(out - r, dtype=np.float64) + 0.5
        if np.array_equal(y0 + xx * scale, (xx + r) * scale):
            return r
    return None


def _resize(im, size):
    """``im.resize(size, BILINEAR)`` as a ``uint8`` array: where it can be cut in two rows
    with the same pixels (:func:`_split_row`), the bottom part in a second thread (Pillow
    lets go of the GIL: a 12-megapixel photo to 3200 pixels in about half the time on two
    cores)."""
    import numpy as np
    from PIL import Image
    bilinear = Image.Resampling.BILINEAR
    w, h = im.size
    r = _split_row(h, size[1])
    if r is None:
        return np.asarray(im.resize(size, bilinear), dtype=np.uint8).copy()
    from concurrent.futures import ThreadPoolExecutor
    y0 = r * h // size[1]
    with ThreadPoolExecutor(max_workers=1) as pool:
        bottom = pool.submit(im.resize, (size[0], size[1] - r), bilinear, (0, y0, w, h))
        top = im.resize((size[0], r), bilinear, (0, 0, w, y0))
        return np.concatenate([np.asarray(top, dtype=np.uint8),
                               np.asarray(bottom.result(), dtype=np.uint8)])


def grab_camera(index: int, work_side: int = WORK_SIDE):
    """One frame from webcam ``index`` (cv2.VideoCapture), as :func:`load_photo` returns it."""
    import cv2
    cap = cv2.VideoCapture(index)
    try:
        if not cap.isOpened():
            raise VisionError(f"camera {index} cannot be opened (is a webcam connected? try "
                              "--camera 0, or give a photo file instead)")
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

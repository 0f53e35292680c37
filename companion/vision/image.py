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


def _weights(size: int, in0, in1, out: int):
    """Pillow's bilinear resampling of ``size`` source rows, from ``in0`` to ``in1`` (float32,
    as Pillow takes a box), onto ``out`` rows: each output row's first source row, count and
    fixed-point weights (``precompute_coeffs`` and ``normalize_coeffs_8bpc`` in Pillow's
    ``Resample.c``, the same double arithmetic in the same order)."""
    import numpy as np
    scale = float(np.float32(in1) - np.float32(in0)) / out
    support = max(scale, 1.0)          # the bilinear filter's support, 1, times the scale
    ksize = int(np.ceil(support)) * 2 + 1
    centre = float(np.float32(in0)) + (np.arange(out) + 0.5) * scale
    lo = np.maximum(np.trunc(centre - support + 0.5), 0).astype(np.int64)
    n = np.minimum(np.trunc(centre + support + 0.5), size).astype(np.int64) - lo
    x = np.arange(ksize)
    w = np.maximum(1.0 - np.abs(((x + lo[:, None]) - centre[:, None] + 0.5) * (1.0 / support)),
                   0.0)
    w[x >= n[:, None]] = 0.0
    total = np.zeros(out)
    for j in range(ksize):             # summed in Pillow's order
        total += w[:, j]
    w = np.where(total[:, None] != 0, w / np.where(total != 0, total, 1.0)[:, None], w)
    return lo, n, np.trunc(0.5 + w * (1 << 22)).astype(np.int64)


def _split_row(rows: int, out: int) -> tuple[int, float] | None:
    """(output row, source row) at which Pillow's bilinear resize of ``rows`` rows to ``out``
    can be cut in two with the same pixels: each part's rows get the whole's weights
    (:func:`_weights`). None where no row near the middle is one."""
    import numpy as np
    if out < 64 or rows <= out or rows >= 1 << 24:
        return None
    whole = _weights(rows, 0, rows, out)
    # rows near the middle, those beginning on a whole source row first
    near = sorted(range(out * 2 // 5, out * 3 // 5), key=lambda r: (bool(r * rows % out),
                                                                     abs(2 * r - out)))
    for r in near[:8]:
        y0 = float(np.float32(r * rows / out))
        top, bottom = _weights(rows, 0, y0, r), _weights(rows, y0, rows, out - r)
        if all(np.array_equal(a[:r], t) and np.array_equal(a[r:], b)
               for a, t, b in zip(whole, top, bottom, strict=True)):
            return r, y0
    return None


def _resize(im, size):
    """``im.resize(size, BILINEAR)`` as a ``uint8`` array: where it can be cut in two rows
    with the same pixels (:func:`_split_row`), the bottom part in a second thread (Pillow
    lets go of the GIL: a 12-megapixel photo in about half the time on two free cores)."""
    import numpy as np
    from PIL import Image
    bilinear = Image.Resampling.BILINEAR
    w, h = im.size
    cut = _split_row(h, size[1])
    if cut is None:
        return np.asarray(im.resize(size, bilinear), dtype=np.uint8).copy()
    from concurrent.futures import ThreadPoolExecutor
    r, y0 = cut
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

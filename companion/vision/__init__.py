"""Reading a photo of the table: cards, piles and the setup sheet's QR code.

Modules (numpy, cv2 and PIL are imported inside functions, never at import time):

- :mod:`.image`: loading a photo defensively (format, truncation, size, EXIF orientation) or
  taking one from a webcam.
- :mod:`.qr`: the setup sheet's QR code (``companion:VARIANT:SEED:OPTIONS:DEALVERSION``).
- :mod:`.detect`: candidate index corners (rank glyph + suit pip), their upright crops (and
  the earlier recognizer's HOG feature vectors).
- :mod:`.model`: the two-headed classifier in ``models/`` (a small convolutional network as
  ONNX, run by ``cv2.dnn``; checksum-verified), with the refiner (:mod:`.refine`) beside it.
- :mod:`.read`: the whole photo at once: detections (:mod:`.detection`), confidence, the
  pip's ink (:mod:`.ink`), indices found where they should lie (:mod:`.lone`), each card at
  most once (:mod:`.resolve`).
- :mod:`.piles`: with a variant, detections mapped to piles and a candidate position.
  By layout, :mod:`.columns`, :mod:`.rows` (Gaps, the Pyramid) and :mod:`.fans`, on
  :mod:`.frame`; face-down cards in :mod:`.face_down`, cards named from the rules in
  :mod:`.infer` and :mod:`.second_look`, the position checked in :mod:`.candidate`.
- :mod:`.synth`: the scene generator (card faces in many styles, layouts of real deals,
  perspective, light, blur, noise, JPEG) used to train and to benchmark.
- :mod:`.convnet`: regenerates the recognizer from scratch (``make model``; JAX on the CPU,
  an optional training tool); :mod:`.train`: the earlier HOG + ANN_MLP recognizer.
"""

from __future__ import annotations

import os

from ..errors import CompanionError

# OpenCV's own log (``[ WARN:0@0.8] global cap_v4l.cpp ... can't open camera by index``) is no
# message for the player: our errors say what went wrong. Read by OpenCV when it is first
# imported (always after this package); a level the user set is kept.
os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")


def quiet_cv2():
    """OpenCV, its own log silenced even where it was imported before this package (unless
    the user set ``OPENCV_LOG_LEVEL``)."""
    import contextlib

    import cv2
    if os.environ.get("OPENCV_LOG_LEVEL", "SILENT").upper() == "SILENT":
        # (an OpenCV built without its logging utilities has nothing to silence)
        with contextlib.suppress(AttributeError):
            cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    return cv2


class VisionError(CompanionError):
    """A photo that cannot be read (not an image, truncated, too large) or a bad model file."""

"""Reading a photo of the table: cards, piles and the setup sheet's QR code.

Modules (numpy, cv2 and PIL are imported inside functions, never at import time):

- :mod:`.image`: loading a photo defensively (format, truncation, size, EXIF orientation) or
  taking one from a webcam.
- :mod:`.qr`: the setup sheet's QR code (``companion:VARIANT:SEED:OPTIONS:DEALVERSION``).
- :mod:`.detect`: candidate index corners (rank glyph + suit pip), their upright crops (and
  the earlier recognizer's HOG feature vectors).
- :mod:`.model`: the two-headed classifier in ``models/`` (a small convolutional network as
  ONNX, run by ``cv2.dnn``; checksum-verified), with the refiner (:mod:`.refine`) beside it.
- :mod:`.read`: the whole photo at once: detections, confidence, each card at most once.
- :mod:`.piles`: with a variant, detections mapped to piles and a candidate position.
- :mod:`.synth`: the scene generator (card faces in many styles, layouts of real deals,
  perspective, light, blur, noise, JPEG) used to train and to benchmark.
- :mod:`.convnet`: regenerates the recognizer from scratch (``make model``; JAX on the CPU,
  an optional training tool); :mod:`.train`: the earlier HOG + ANN_MLP recognizer.
"""

from __future__ import annotations

from ..errors import CompanionError


class VisionError(CompanionError):
    """A photo that cannot be read (not an image, truncated, too large) or a bad model file."""

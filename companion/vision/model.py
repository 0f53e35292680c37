"""The index classifier: one OpenCV ANN_MLP with two heads (rank and suit), from ``models/``.

The file is OpenCV's own YAML (gzip-compressed), read by ``cv2.ml.ANN_MLP_load``: no pickle, no
torch. Its SHA-256 must match ``models/SHA256SUMS`` before it is loaded. Outputs 0-13 are the
rank head (A, 2 ... K, none), 14-18 the suit head (spades, hearts, diamonds, clubs, none); each
head is turned into probabilities with a softmax at the temperature stored in ``meta``. The
refiner beside it (:mod:`.refine`), when the checksum file names one, is loaded with it.
"""

from __future__ import annotations

import hashlib
import json
import os

from . import VisionError
from .detect import features, ink_and_paper

MODEL_DIR = os.environ.get("COMPANION_MODEL_DIR") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "models")
MODEL_FILE = "cards-mlp.yml.gz"
META_FILE = "cards-mlp.json"
CNN_FILE = "cards-cnn.onnx"
CNN_META = "cards-cnn.json"
SUMS_FILE = "SHA256SUMS"
N_RANK, N_SUIT = 14, 5  # with "none"
REBUILD = "run `make model` to rebuild it, or restore models/ from the repository"


def sha256(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_sums(model_dir) -> dict[str, str]:
    path = os.path.join(model_dir, SUMS_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        raise VisionError(f"no checksum file {path}; {REBUILD}") from None
    sums = {}
    for line in lines:
        parts = line.split()
        if len(parts) == 2 and len(parts[0]) == 64:
            sums[parts[1].lstrip("*")] = parts[0].lower()
    return sums


def write_sums(out, names):
    """Rewrite ``SHA256SUMS`` in ``out`` with the current digests of ``names``, keeping the
    other files' lines."""
    try:
        sums = read_sums(out)
    except VisionError:
        sums = {}
    for name in names:
        sums[name] = sha256(os.path.join(out, name))
    with open(os.path.join(out, SUMS_FILE), "w", encoding="utf-8") as f:
        for name, digest in sums.items():
            f.write(f"{digest}  {name}\n")


def save_checked(out, net, meta, net_file, meta_file):
    """Write an OpenCV ``ANN_MLP`` and its JSON meta into ``out`` and their lines of
    ``SHA256SUMS`` (the other files' kept): what :func:`load_checked` reads back."""
    import json
    os.makedirs(out, exist_ok=True)
    net.save(os.path.join(out, net_file))
    with open(os.path.join(out, meta_file), "w", encoding="utf-8") as f:
        json.dump(meta, f)
    write_sums(out, (net_file, meta_file))


def load_checked(model_dir, net_file, meta_file, sums, reader=None):
    """(network, meta) of an OpenCV ``ANN_MLP`` file (or what ``reader`` makes of the file's
    path) and its JSON beside it in ``model_dir``, each checked against ``sums`` first
    (:func:`read_sums`); a clear error otherwise."""
    import cv2
    for name in (net_file, meta_file):
        path = os.path.join(model_dir, name)
        if not os.path.exists(path):
            raise VisionError(f"the card model {path} is missing; {REBUILD}")
        if name not in sums:
            raise VisionError(f"{name} has no checksum in {os.path.join(model_dir, SUMS_FILE)}; "
                              f"{REBUILD}")
        try:
            digest = sha256(path)
        except OSError as exc:
            raise VisionError(f"cannot read the card model {path}: {exc}") from None
        if digest != sums[name]:
            raise VisionError(f"the card model {path} does not match its checksum (SHA-256 "
                              f"{digest[:12]}..., expected {sums[name][:12]}...): it is damaged "
                              f"or from another version; {REBUILD}")
    try:
        with open(os.path.join(model_dir, meta_file), encoding="utf-8") as f:
            meta = json.load(f)
        net = (reader or cv2.ml.ANN_MLP_load)(os.path.join(model_dir, net_file))
    except (OSError, ValueError, cv2.error) as exc:
        detail = " ".join(str(exc).split())   # (OpenCV's messages span lines)
        raise VisionError(f"the card model in {model_dir} cannot be loaded ({detail}); "
                          f"{REBUILD}") from None
    if net is None or net.empty():
        raise VisionError(f"the card model {net_file} in {model_dir} is empty; {REBUILD}")
    return net, meta


class Classifier:
    reads_waists = False  # a blob's waist cuts read only where the layout says a card lies

    def __init__(self, net, meta):
        self.net = net
        self.meta = meta
        self.temperature = float(meta.get("temperature", 4.0))
        self.refiner = None
        """The second look at each index (:class:`companion.vision.refine.Refiner`), when
        ``models/`` has one."""
        self.fingerprint = ""
        """The SHA-256 of the network's file: a deck's calibration holds for this one only."""

    def predict(self, F):
        """(rank_probs (n, 14), suit_probs (n, 5)) for feature rows F."""
        return heads(self.net, self.meta, F, (N_RANK, N_SUIT), self.temperature)

    def predict_crops(self, g, c):
        """(rank_probs (n, 14), suit_probs (n, 5)) for upright crops: min channel g (n, H, W)
        and RGB c (n, H, W, 3) (:func:`companion.vision.detect.crops`)."""
        return self.predict(features(g, c))


class ConvClassifier(Classifier):
    """The recognizer as a small convolutional network (ONNX, run by ``cv2.dnn``): it reads
    the crops themselves (:func:`prepare`), not their HOG; the same two heads."""

    BATCH = 512
    reads_waists = True   # trusted on crops not made of a pair of blobs: a blob's waist
    #                       cut (ReadConfig.waist_sure), a whole index in one blob (merged)

    def predict(self, F):  # pragma: no cover - it reads crops, not feature rows
        raise TypeError("the convolutional recognizer reads crops: use predict_crops")

    def embed_crops(self, g, c):
        """The network's hidden layer for each crop, as unit vectors (n, HIDDEN): what it has
        seen of the index before its heads name it, to compare indices of one deck
        (:mod:`companion.vision.calibrate`)."""
        import numpy as np
        hidden = self.hidden_layer()
        if not len(g):
            return np.zeros((0, 0), np.float32)
        x = prepare(g, c)
        h = []
        for at in range(0, len(g), self.BATCH):
            self.net.setInput(x[at:at + self.BATCH])
            h.append(self.net.forward(hidden).reshape(len(x[at:at + self.BATCH]), -1))
        h = np.concatenate(h).astype(np.float32)
        return h / np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-6)

    def hidden_layer(self) -> str:
        """The name OpenCV gives the hidden layer's output (``hr`` in the ONNX graph)."""
        for name in self.net.getLayerNames():
            if name.split("!")[-1] == "hr":
                return name
        raise ValueError("the recognizer's graph has no hidden layer named hr")

    def predict_crops(self, g, c):
        import numpy as np
        n = len(g)
        if not n:
            return np.zeros((0, N_RANK)), np.zeros((0, N_SUIT))
        x = prepare(g, c)
        z = []
        for at in range(0, n, self.BATCH):
            self.net.setInput(x[at:at + self.BATCH])
            z.append(self.net.forward().reshape(-1, N_RANK + N_SUIT))
        return softmax_heads(np.concatenate(z).astype(np.float64), (N_RANK, N_SUIT),
                             self.temperature)


def prepare(g, c):
    """The network's input (n, 4, H, W) float32: the min channel and R, G, B of each crop,
    all four on the crop's contrast (its min channel's 3rd and 97th percentiles taken as
    ink and paper, at least 12 levels apart), clipped to [0, 1.2]."""
    import numpy as np

    n = len(g)
    lo, hi = (v.astype(np.float32)[:, None, None] for v in ink_and_paper(g, wide=True))
    scale = np.maximum(hi - lo, 12)
    x = np.empty((n, 4) + g.shape[1:], np.float32)
    x[:, 0] = np.clip((g - lo) / scale, 0, 1.2)
    for k in range(3):
        x[:, 1 + k] = np.clip((c[..., k] - lo) / scale, 0, 1.2)
    return x


def softmax_heads(out, sizes, temperature):
    """Each head's outputs (``sizes`` columns each, in order) as probabilities: a softmax at
    ``temperature``."""
    import numpy as np
    probs, at = [], 0
    for k in sizes:
        z = out[:, at:at + k] * temperature
        e = np.exp(z - z.max(1, keepdims=True))
        probs.append(e / e.sum(1, keepdims=True))
        at += k
    return tuple(probs)


def heads(net, meta, F, sizes, temperature):
    """The probabilities of each head of an ``ANN_MLP`` (its outputs in order, ``sizes``
    each) for feature rows F, normalised by ``meta``'s mean and std: a softmax at
    ``temperature`` per head."""
    import numpy as np
    if len(F) == 0:
        return tuple(np.zeros((0, k)) for k in sizes)
    mu = np.asarray(meta["mean"], np.float32)
    sd = np.asarray(meta["std"], np.float32)
    _, out = net.predict(((F - mu) / sd).astype(np.float32))
    return softmax_heads(out, sizes, temperature)


def reweigh(p, cols, factor) -> None:
    """Multiply the probabilities ``p[:, cols]`` (in place) by ``factor`` (n, len(cols)),
    keeping their total per row: evidence that moves a head among those classes only."""
    import numpy as np
    part = p[:, cols] * factor
    keep = p[:, cols].sum(1, keepdims=True)
    p[:, cols] = part / np.maximum(part.sum(1, keepdims=True), 1e-300) * keep


_CACHE: dict[tuple, Classifier] = {}


def load(model_dir: str | None = None, recognizer: str | None = None) -> Classifier:
    """The classifier, after checking the model file against its SHA-256 checksum: the
    convolutional recognizer where ``SHA256SUMS`` names it, else the earlier HOG + ANN_MLP
    one (``recognizer="hog"``: that one, whatever the sums name)."""
    model_dir = model_dir or MODEL_DIR
    if (model_dir, recognizer) in _CACHE:
        return _CACHE[model_dir, recognizer]
    sums = read_sums(model_dir)
    if CNN_FILE in sums and recognizer != "hog":
        import cv2
        net, meta = load_checked(model_dir, CNN_FILE, CNN_META, sums, cv2.dnn.readNetFromONNX)
        clf = ConvClassifier(net, meta)
        clf.fingerprint = sums[CNN_FILE]
    else:
        net, meta = load_checked(model_dir, MODEL_FILE, META_FILE, sums)
        clf = Classifier(net, meta)
        clf.fingerprint = sums.get(MODEL_FILE, "")
    # lazy: refine builds on this module (the cycle in tests/test_layers.py)
    from .refine import load as load_refiner
    clf.refiner = load_refiner(model_dir)
    _CACHE[model_dir, recognizer] = clf
    return clf

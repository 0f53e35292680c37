"""A second look at each index: its suit pip and its rank glyph, each cropped on its own.

The recognizer (:mod:`.model`) sees an index as one 32x40 crop of rank glyph and pip together,
where a pip is a few HOG cells: clubs and spades, hearts and diamonds, queens and kings are
told apart by details of that size. The refiner crops the pip (24x24, 1.2 index sizes square)
and the rank glyph (32x32, 1.6 x 1.6 index sizes) upright from the same image, describes each
by a finer HOG, a thumbnail and (the pip) its ink colour, and a second, smaller ANN_MLP reads
rank (13) and suit (4) from them. Its probabilities multiply the recognizer's within each head
(the "none" outputs are left as they are), for the candidates the recognizer takes for an
index at all: cheap, and the threshold and the rules see the combined reading.

Files beside the model in ``models/``: ``cards-refine.yml.gz`` (OpenCV YAML) and
``cards-refine.json`` (normalisation, temperature, weight), both in ``SHA256SUMS``. Where the
sums file does not name them, the recognizer reads alone. Trained from generated scenes by
:mod:`.refine_train` (``make refiner``).
"""

from __future__ import annotations

from .detect import ink_and_paper
from .model import heads, load_checked, read_sums, reweigh

REFINE_FILE = "cards-refine.yml.gz"
REFINE_META = "cards-refine.json"
PIP_PX, PIP_SIDE = 24, 1.2          # pip crop: pixels, and side in index sizes (pip-rank)
RANK_PX, RANK_SIDE = 32, 1.6        # rank glyph crop
_HOGS: dict = {}


def _hog(px, cell):
    import cv2
    if px not in _HOGS:
        _HOGS[px] = cv2.HOGDescriptor((px, px), (2 * cell, 2 * cell), (cell, cell), (cell, cell), 9)
    return _HOGS[px]


def _describe(c, px, cell, colour: bool):
    """For crops (n, px, px, 3): HOG of the contrast-normalised min channel, an 8x8 thumbnail,
    and (``colour``) the ink's colour relative to the paper (three differences)."""
    import numpy as np
    n = len(c)
    g8 = c.min(axis=3).reshape(n, -1)
    g = g8.astype(np.float32)
    lo, hi = ink_and_paper(g8, wide=True)
    norm = np.clip((g - lo[:, None]) / np.maximum(hi - lo, 12.0)[:, None], 0, 1)
    n8 = (norm * 255).astype(np.uint8).reshape(n, px, px)
    hog = _hog(px, cell)
    k = px // 8
    parts = [np.array([hog.compute(x).ravel() for x in n8], np.float32),
             norm.reshape(n, 8, k, 8, k).mean((2, 4)).reshape(n, 64)]
    if colour:
        cf = c.reshape(n, -1, 3).astype(np.float32) + 1
        ink, paper = (norm < 0.45)[..., None], (norm > 0.75)[..., None]
        npap = paper.sum(1)
        pm = np.where(npap > 0, (cf * paper).sum(1) / np.maximum(npap, 1), 200.0)
        nink = ink.sum(1)
        m = (cf * ink).sum(1) / np.maximum(nink, 1) / pm
        col = np.stack([m[:, 0] - m[:, 1], m[:, 2] - m[:, 1], m[:, 0] - m[:, 2]], 1) * 3
        parts.append(np.where(nink >= 3, col, 0.0).astype(np.float32))
    return np.concatenate(parts, 1)


def features(rgb, pips, ranks):
    """Feature rows (n, F) for index pairs: pip centres and rank-glyph centres (n, 2)."""
    import cv2
    import numpy as np
    pips = np.asarray(pips, np.float64).reshape(-1, 2)
    ranks = np.asarray(ranks, np.float64).reshape(-1, 2)
    n = len(pips)
    if not n:
        return np.zeros((0, 1), np.float32)
    cp = np.empty((n, PIP_PX, PIP_PX, 3), np.uint8)
    cr = np.empty((n, RANK_PX, RANK_PX, 3), np.uint8)
    d = np.maximum(np.hypot(*(ranks - pips).T), 1e-6)[:, None]
    u = (ranks - pips) / d
    for centres, side, px, out in ((pips, PIP_SIDE, PIP_PX, cp), (ranks, RANK_SIDE, RANK_PX, cr)):
        # each crop's three corners, all at once (upright squares, "up" along u)
        v = np.stack([-u[:, 1], u[:, 0]], 1)
        h = side * d / 2
        top = centres + h * u
        corners = np.stack([top - h * v, top + h * v, centres - h * u - h * v],
                           1).astype(np.float32)
        dst = np.float32([[0, 0], [px, 0], [0, px]])
        for k in range(n):
            out[k] = cv2.warpAffine(rgb, cv2.getAffineTransform(corners[k], dst), (px, px),
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.concatenate([_describe(cp, PIP_PX, 6, True), _describe(cr, RANK_PX, 8, False)], 1)


class Refiner:
    def __init__(self, net, meta):
        self.net = net
        self.meta = meta
        self.temperature = float(meta.get("temperature", 4.0))
        self.weight = float(meta.get("weight", 1.0))

    def predict(self, F):
        """(rank probabilities (n, 13), suit probabilities (n, 4)) for feature rows F."""
        return heads(self.net, self.meta, F, (13, 4), self.temperature)

    def sharpen(self, rgb, pips, ranks, pr, ps):
        """The recognizer's rank and suit probabilities (n, 14), (n, 5) times the refiner's
        (to the power ``weight``) within each head; each head's total over the cards, and its
        "none" output, are kept."""
        import numpy as np

        if not len(pr):
            return pr, ps
        qr, qs = self.predict(features(rgb, pips, ranks))
        pr, ps = pr.copy(), ps.copy()
        for p, q, k in ((pr, qr, 13), (ps, qs, 4)):
            reweigh(p, slice(0, k), np.power(np.maximum(q, 1e-9), self.weight))
        return pr, ps


def load(model_dir) -> Refiner | None:
    """The refiner beside the model in ``model_dir`` after checking its checksums, or None
    when ``SHA256SUMS`` does not name it (the recognizer then reads alone)."""
    sums = read_sums(model_dir)
    if REFINE_FILE not in sums or REFINE_META not in sums:
        return None
    net, meta = load_checked(model_dir, REFINE_FILE, REFINE_META, sums)
    return Refiner(net, meta)

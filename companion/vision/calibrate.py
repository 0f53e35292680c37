"""Calibration to the player's own deck: how the recognizer sees each of its cards.

After dealing a seeded game, one photo of that known layout gives labelled indices of the
player's deck (`companion scan PHOTO --calibrate --variant V --seed N`): every face-up card the
deal puts in a pile is the card whose index the photo shows there. For each, the recognizer's
hidden layer (what it has seen of the index before naming it) is stored. Later readings compare
each index with those samples: a rank (suit) whose nearest sample the index resembles most gains
probability over the others seen in calibration; ranks and suits never seen there (Gaps puts the
aces aside) are left to the model alone. A calibration holds for the recognizer it was made with:
when the model files change, the deck is calibrated again.

The samples live in ``decks/NAME.npz`` in the user data directory, next to the recorder's
games database (``COMPANION_DB``'s folder when that is set): plain numeric and text arrays,
read with ``allow_pickle=False`` and checked before use.
"""

from __future__ import annotations

import os
import re

from ..paths import default_path
from ..rules import deal, load_variant
from . import VisionError
from .detect import crops, min_channel
from .detection import _sharpen
from .image import grab_camera, load_photo
from .model import reweigh
from .piles import deals_face_down, map_piles

FORMAT = 2               # 1: pixel prototypes (before the recognizer's hidden layer was used)
# How strongly the likeness to a sample (a cosine) may move a probability: each deck takes the
# weight its own calibration photo supports best (:func:`fit_weight`), from these.
WEIGHTS = (0.0, 4.0, 8.0, 16.0)
SECOND_VIEW = 0.75       # the calibration photo's scale in the second view that fits the weight
MIN_CARDS = 5
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
AGAIN = ("calibrate it again from a photo of a seeded deal (companion scan dealt.jpg "
         "--calibrate --variant gaps --seed 3 --deck {name})")


def deck_dir():
    return default_path().parent / "decks"


def deck_path(name: str):
    if not _NAME.match(name or ""):
        raise VisionError(f"deck name {name!r} is not usable: letters, digits, '.', '_' and '-' "
                          "(up to 40), e.g. --deck bicycle")
    return deck_dir() / f"{name}.npz"


# ------------------------------------------------------------------------------ the deck file

def embed(clf, rgb, pips, ranks):
    """The recognizer's hidden layer (unit vectors, (n, D)) at index pairs (pip centre, rank
    centre) of the photo ``rgb``."""
    import numpy as np

    pips = np.asarray(pips, np.float64).reshape(-1, 2)
    ranks = np.asarray(ranks, np.float64).reshape(-1, 2)
    g, c = crops(rgb, min_channel(rgb), pips, ranks)
    return clf.embed_crops(g, c)


class Deck:
    """One deck's calibration: the card (0-51) of each sample and its hidden-layer vector, and
    the recognizer (its file's SHA-256) the vectors are of."""

    def __init__(self, name, codes, samples, model: str, weight: float = 16.0):
        import numpy as np
        self.name = name
        self.weight = float(weight)
        self.codes = np.asarray(codes, np.int32)
        self.samples = np.asarray(samples, np.float32)
        self.model = model
        self.ranks = sorted({int(c) % 13 for c in self.codes})
        self.suits = sorted({int(c) // 13 for c in self.codes})

    def save(self, path):
        import numpy as np
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(tmp, format=np.array([FORMAT], np.int32), name=np.array(self.name),
                 codes=self.codes, samples=self.samples, model=np.array(self.model),
                 weight=np.array([self.weight], np.float64))
        os.replace(tmp, path)

    @classmethod
    def load(cls, path, clf=None):
        """The deck in ``path``, checked field by field (and, given the recognizer ``clf``,
        that it was made with that one); VisionError when it is not usable."""
        import zipfile

        import numpy as np
        name = path.stem
        again = AGAIN.format(name=name)
        try:
            with np.load(path, allow_pickle=False) as z:
                data = {k: z[k] for k in z.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile, AttributeError) as exc:
            raise VisionError(f"the deck file {path} cannot be read ({exc}); {again}") from None
        try:
            if int(data["format"][0]) != FORMAT:
                raise VisionError(f"deck {name!r} was calibrated by an earlier version of "
                                  f"companion; {again}")
            codes, samples, weight = data["codes"], data["samples"], data["weight"]
            ok = (weight.shape == (1,) and weight.dtype.kind == "f"
                  and 0 <= float(weight[0]) <= max(WEIGHTS) and codes.ndim == 1
                  and codes.dtype.kind == "i" and len(codes) > 0
                  and set(codes.tolist()) <= set(range(52)) and samples.ndim == 2
                  and samples.shape[0] == len(codes) and samples.dtype.kind == "f"
                  and np.isfinite(samples).all())
            if not ok:
                raise ValueError("fields of the wrong shape or type")
            deck = cls(str(data["name"]), codes, samples, str(data["model"]),
                       float(weight[0]))
        except (KeyError, ValueError, IndexError, TypeError) as exc:
            raise VisionError(f"the deck file {path} is not a deck calibration ({exc}); "
                              f"{again}") from None
        if clf is not None and clf.fingerprint != deck.model:
            raise VisionError(f"deck {name!r} was calibrated with other model files than "
                              f"these; {again}")
        return deck

    # -------------------------------------------------------------- sharpening a reading
    def sharpen(self, clf, rgb, pips, ranks, pr, ps):
        """Rank and suit probabilities (n, 14), (n, 5) moved by each index's likeness to its
        nearest sample of every rank and suit calibrated; the "none" outputs, and the classes
        no sample shows, keep their probability."""
        if not len(pr):
            return pr, ps
        like = embed(clf, rgb, pips, ranks) @ self.samples.T          # (n, samples)
        return self._moved(like, pr, ps, self.weight)

    def _moved(self, like, pr, ps, weight):
        """``pr``, ``ps`` moved by the likenesses ``like`` (n, samples) at ``weight``."""
        import numpy as np

        pr, ps = pr.copy(), ps.copy()
        if weight == 0:
            return pr, ps
        for p, classes, of in ((pr, self.ranks, self.codes % 13), (ps, self.suits,
                                                                    self.codes // 13)):
            s = np.stack([like[:, of == k].max(1) for k in classes], axis=1)
            reweigh(p, classes, np.exp(weight * (s - s.max(1, keepdims=True))))
        return pr, ps


def fit_weight(deck: Deck, like, pr, ps) -> float:
    """The weight (of WEIGHTS) under which a second view of the calibration photo's indices
    (``like``: their likeness to the samples; ``pr``, ``ps``: the model's readings of them) is
    read best, scored by the log probability of the card the deal says. A deck the model
    already reads, or whose cards look alike to it, gets little weight; one whose samples tell
    its cards apart where the model does not, more."""
    import numpy as np
    r, s = deck.codes % 13, deck.codes // 13
    rows = np.arange(len(r))

    def score(w):
        mr, ms = deck._moved(like, pr, ps, w)
        return float(np.log(np.maximum(mr[rows, r], 1e-9)).sum()
                     + np.log(np.maximum(ms[rows, s], 1e-9)).sum())
    return max(WEIGHTS, key=score)


def load_deck(name: str | None, clf=None):
    """The named deck's calibration, or None when none was stored under that name; VisionError
    when the stored one is not usable (damaged, or made with other model files than ``clf``)."""
    if name is None:
        return None
    path = deck_path(name)
    if not path.exists():
        return None
    return Deck.load(path, clf)


# ------------------------------------------------------------------------------ calibrating

def labelled(reading, deal_pos):
    """(detections, codes): each face-up card the deal puts in a pile the photo shows fully,
    with the card it must be. A pile whose count of cards read differs from the deal's is left
    out (its cards cannot be told apart by place)."""
    eng = deal_pos.engine
    g = eng.groups
    skip = set(g.foundation_set) | {g.stock, g.waste, g.aside}
    got = reading.piles if reading is not None else {}
    dets, codes, off = [], [], []
    for i, name in enumerate(eng.names):
        if i in skip:
            continue
        want = list(deal_pos.piles[i][deal_pos.down[i]:])
        ds = got.get(name, [])
        if not want:
            continue
        if len(ds) != len(want):
            off.append(name)
            continue
        dets += ds
        codes += want
    return dets, codes, off


def calibrate(photo, variant: str, seed: int, name: str = "default", camera=None) -> dict:
    """Read a photo of a seeded deal, label its indices from the deal, store the samples.
    Returns a summary dict (path, cards, ranks, suits, agree, piles_skipped)."""
    path = deck_path(name)
    rgb, _ = grab_camera(camera) if camera is not None else load_photo(photo)
    source = f"camera {camera}" if camera is not None else str(photo)
    deck, summary = deck_from_photo(rgb, variant, seed, name, source)
    deck.save(path)
    return {"deck": name, "path": str(path), **summary}


def deck_from_photo(rgb, variant: str, seed: int, name: str, source: str, clf=None):
    """The calibration a photo of ``variant`` seed ``seed`` as dealt teaches (a Deck, not
    stored), and its summary (cards, ranks, suits, weight, agree, piles_skipped); VisionError
    where the photo does not show the deal."""
    import cv2
    import numpy as np

    # late-bound: tests monkeypatch load on model
    from .model import load

    # late-bound: tests monkeypatch read_cards on read
    from .read import read_cards
    clf = clf or load()
    if not hasattr(clf, "embed_crops"):
        raise VisionError("calibration needs the convolutional recognizer, which models/ "
                          "lacks: run `make model`")
    deal_pos = deal(variant, seed)
    v = load_variant(variant)
    cards = read_cards(rgb, clf, decks=v.decks, threshold=0.0, backs=deals_face_down(v))
    if not cards:
        raise VisionError(f"no cards found in {source}: photograph the dealt layout from above, "
                          "in even light, with the card corners in view")
    best = None
    for flip in (False, True):  # the deal is known: it tells which way up the photo is
        dets, codes, off = labelled(map_piles(cards, variant, rgb, flip=flip, infer=False),
                                     deal_pos)
        agree = sum(1 for d, c in zip(dets, codes, strict=True) if d.code == c)
        if best is None or agree > best[0]:
            best = (agree, dets, codes, off)
    agree, dets, codes, off = best
    if len(dets) < MIN_CARDS:
        raise VisionError(f"{source}: only {len(dets)} of the deal's face-up cards could be "
                          f"placed (piles {', '.join(off) or 'none'} do not show the dealt "
                          f"count); photograph the whole layout of {variant} seed {seed} as "
                          "dealt, before any move")
    if agree < len(dets) / 2:
        raise VisionError(f"{source} does not look like {variant} seed {seed} as dealt: only "
                          f"{agree} of the {len(dets)} cards placed read as the deal has them. "
                          "Check the seed, and that no move was made before the photo")
    pips, ranks = [d.pip_at for d in dets], [d.rank_at for d in dets]
    deck = Deck(name, codes, embed(clf, rgb, pips, ranks), clf.fingerprint)
    # a second view of the same cards, as another photo shows them (smaller, softer): how
    # much the samples should count is what reads that view best
    k = SECOND_VIEW
    view = cv2.GaussianBlur(cv2.resize(rgb, None, fx=k, fy=k, interpolation=cv2.INTER_AREA),
                            (0, 0), 0.8)
    P, R = np.asarray(pips, np.float64) * k, np.asarray(ranks, np.float64) * k
    pr, ps = clf.predict_crops(*crops(view, min_channel(view), P, R))
    pr, ps = _sharpen(clf, None, view, P, R, pr, ps)    # as a reading has them: refiner too
    deck.weight = fit_weight(deck, embed(clf, view, P, R) @ deck.samples.T, pr, ps)
    return deck, {"cards": len(dets), "agree": agree, "ranks": len(deck.ranks),
                  "suits": len(deck.suits), "weight": deck.weight, "piles_skipped": off}

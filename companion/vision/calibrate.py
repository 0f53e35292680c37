"""Calibration to the player's own deck: prototypes of its rank glyphs and suit pips.

After dealing a seeded game, one photo of that known layout gives labelled index crops of the
player's deck (`companion scan PHOTO --calibrate --variant V --seed N`): every face-up card the
deal puts in a pile is the card whose index the photo shows there. For each rank and each suit
seen, the mean of its upright crops (the rank glyph half and the pip half, contrast-normalised
and lightly blurred) is stored as a prototype, with the pip's ink colour. Later readings compare
each index with the prototypes: a rank (suit) whose prototype the index resembles gains
probability, one whose prototype it does not resemble loses it; ranks and suits never seen in
calibration are left to the model alone.

The prototypes live in ``decks/NAME.npz`` in the user data directory, next to the recorder's
games database (``COMPANION_DB``'s folder when that is set): plain numeric and text arrays,
read with ``allow_pickle=False`` and checked before use.
"""

from __future__ import annotations

import os
import re

from . import VisionError

FORMAT = 1
HALF = 20                # rows of the 40-row crop: the rank glyph above, the pip below
BETA = 8.0               # how strongly a prototype's likeness moves a probability
MIN_CARDS = 5
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


def deck_dir():
    from ..record.store import default_path
    return default_path().parent / "decks"


def deck_path(name: str):
    if not _NAME.match(name or ""):
        raise VisionError(f"deck name {name!r} is not usable: letters, digits, '.', '_' and '-' "
                          "(up to 40), e.g. --deck bicycle")
    return deck_dir() / f"{name}.npz"


# ------------------------------------------------------------------------------ descriptors

def descriptors(rgb, pips, ranks):
    """For index pairs (pip centre, rank centre), (rank vectors (n, D), suit vectors (n, D),
    pip ink colours (n, 3)): unit vectors of the blurred, contrast-normalised crop halves."""
    import cv2
    import numpy as np

    from .detect import crops, min_channel
    pips = np.asarray(pips, np.float64).reshape(-1, 2)
    ranks = np.asarray(ranks, np.float64).reshape(-1, 2)
    mn = min_channel(rgb)
    g, c = crops(rgb, mn, pips, ranks)
    n = len(g)
    gf = g.astype(np.float32)
    lo = np.percentile(gf.reshape(n, -1), 3, axis=1)[:, None, None]
    hi = np.percentile(gf.reshape(n, -1), 97, axis=1)[:, None, None]
    norm = np.clip((gf - lo) / np.maximum(hi - lo, 12), 0, 1)
    ink = 1 - norm
    ink = np.stack([cv2.GaussianBlur(x, (0, 0), 1.0) for x in ink]) if n else ink

    def unit(a):
        a = a.reshape(len(a), -1)
        a = a - a.mean(1, keepdims=True)
        return a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-6)
    cf = c.astype(np.float32) + 1
    colour = np.zeros((n, 3), np.float32)
    for k in range(n):
        paper = norm[k] > 0.75
        pm = cf[k][paper].mean(0) if paper.any() else np.full(3, 200, np.float32)
        m = norm[k][HALF:] < 0.45
        if m.sum() >= 3:
            colour[k] = cf[k][HALF:][m].mean(0) / pm
    return unit(ink[:, :HALF]), unit(ink[:, HALF:]), colour


# ------------------------------------------------------------------------------ the deck file

class Deck:
    """Prototypes of one deck: per rank (1-13) and per suit (0-3) seen in calibration."""

    def __init__(self, name, ranks, rank_protos, suits, suit_protos, suit_colours, cards):
        self.name = name
        self.ranks = list(ranks)
        self.rank_protos = rank_protos
        self.suits = list(suits)
        self.suit_protos = suit_protos
        self.suit_colours = suit_colours
        self.cards = int(cards)

    @classmethod
    def from_samples(cls, name, codes, rank_vecs, suit_vecs, colours):
        import numpy as np
        codes = np.asarray(codes)
        ranks = sorted({int(c) % 13 for c in codes})
        suits = sorted({int(c) // 13 for c in codes})

        def mean_unit(rows):
            m = rows.mean(0)
            return m / max(float(np.linalg.norm(m)), 1e-6)
        rp = np.array([mean_unit(rank_vecs[codes % 13 == r]) for r in ranks], np.float32)
        sp = np.array([mean_unit(suit_vecs[codes // 13 == s]) for s in suits], np.float32)
        sc = np.array([colours[codes // 13 == s].mean(0) for s in suits], np.float32)
        return cls(name, ranks, rp, suits, sp, sc, len(codes))

    def save(self, path):
        import numpy as np
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(tmp, format=np.array([FORMAT], np.int32), name=np.array(self.name),
                 ranks=np.array(self.ranks, np.int32), rank_protos=self.rank_protos,
                 suits=np.array(self.suits, np.int32), suit_protos=self.suit_protos,
                 suit_colours=self.suit_colours, cards=np.array([self.cards], np.int32))
        os.replace(tmp, path)

    @classmethod
    def load(cls, path):
        """The deck in ``path``, checked field by field; VisionError when it is not one."""
        import numpy as np
        again = "run `companion scan PHOTO --calibrate` again"
        import zipfile
        try:
            with np.load(path, allow_pickle=False) as z:
                data = {k: z[k] for k in z.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile, AttributeError) as exc:
            raise VisionError(f"the deck file {path} cannot be read ({exc}); {again}") from None
        try:
            if int(data["format"][0]) != FORMAT:
                raise ValueError("another format")
            ranks, suits = data["ranks"], data["suits"]
            rp, sp, sc = data["rank_protos"], data["suit_protos"], data["suit_colours"]
            dim = HALF * 32
            ok = (ranks.ndim == 1 and suits.ndim == 1 and ranks.dtype.kind == "i"
                  and suits.dtype.kind == "i" and set(ranks.tolist()) <= set(range(13))
                  and set(suits.tolist()) <= set(range(4))
                  and rp.shape == (len(ranks), dim) and sp.shape == (len(suits), dim)
                  and sc.shape == (len(suits), 3) and rp.dtype.kind == "f"
                  and sp.dtype.kind == "f" and sc.dtype.kind == "f"
                  and np.isfinite(rp).all() and np.isfinite(sp).all() and np.isfinite(sc).all())
            if not ok:
                raise ValueError("fields of the wrong shape or type")
            return cls(str(data["name"]), ranks.tolist(), rp.astype(np.float32), suits.tolist(),
                       sp.astype(np.float32), sc.astype(np.float32), int(data["cards"][0]))
        except (KeyError, ValueError, IndexError, TypeError) as exc:
            raise VisionError(f"the deck file {path} is not a deck calibration ({exc}); "
                              f"{again}") from None

    # -------------------------------------------------------------- sharpening a reading
    def sharpen(self, rgb, pips, ranks, pr, ps):
        """Rank and suit probabilities (n, 14), (n, 5) moved by the likeness of each index to
        the prototypes; the "none" outputs are left as they are."""
        import numpy as np

        from .model import reweigh
        if not len(pr):
            return pr, ps
        rv, sv, col = descriptors(rgb, pips, ranks)
        pr, ps = pr.copy(), ps.copy()
        if self.ranks:
            s = rv @ self.rank_protos.T                         # (n, k) likeness
            reweigh(pr, self.ranks, np.exp(BETA * (s - s.mean(1, keepdims=True))))
        if self.suits:
            s = sv @ self.suit_protos.T
            d = np.linalg.norm(col[:, None, :] - self.suit_colours[None], axis=2)
            s = s - d                                          # colour is evidence too
            reweigh(ps, self.suits, np.exp(BETA * (s - s.mean(1, keepdims=True))))
        # the head's total over the seen classes is kept: cards never calibrated keep theirs
        return pr, ps


def load_deck(name: str | None):
    """The named deck's prototypes, or None when no calibration was stored under that name."""
    if name is None:
        return None
    path = deck_path(name)
    if not path.exists():
        return None
    return Deck.load(path)


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
    """Read a photo of a seeded deal, label its indices from the deal, store the prototypes.
    Returns a summary dict (path, cards, ranks, suits, agree, piles_skipped)."""
    from .image import grab_camera, load_photo
    path = deck_path(name)
    rgb, _ = grab_camera(camera) if camera is not None else load_photo(photo)
    source = f"camera {camera}" if camera is not None else str(photo)
    deck, summary = deck_from_photo(rgb, variant, seed, name, source)
    deck.save(path)
    return {"deck": name, "path": str(path), **summary}


def deck_from_photo(rgb, variant: str, seed: int, name: str, source: str):
    """The calibration a photo of ``variant`` seed ``seed`` as dealt teaches (a Deck, not
    stored), and its summary (cards, ranks, suits, agree, piles_skipped); VisionError where
    the photo does not show the deal."""
    from ..rules import deal, load_variant
    from .piles import deals_face_down, map_piles
    from .read import read_cards
    deal_pos = deal(variant, seed)
    v = load_variant(variant)
    cards = read_cards(rgb, decks=v.decks, threshold=0.0, backs=deals_face_down(v))
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
    import numpy as np
    rv, sv, col = descriptors(rgb, [d.pip_at for d in dets], [d.rank_at for d in dets])
    deck = Deck.from_samples(name, np.array(codes), rv, sv, col)
    return deck, {"cards": len(dets), "agree": agree, "ranks": len(deck.ranks),
                  "suits": len(deck.suits), "piles_skipped": off}

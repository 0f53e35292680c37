"""Read every visible card of a photo at once.

Candidates (:mod:`.detect`) are scored by the two-headed classifier (:mod:`.model`), those it takes
for an index then by the refiner's second look at their pip and rank glyph (:mod:`.refine`); each ink blob
serves as the pip of at most one index; the two corners of one card are merged; then the photo is
resolved as a whole: a card appears at most ``decks`` times, a lower-confidence duplicate takes its
next-best reading when that one is free and likely, otherwise it is marked uncertain. Below
:attr:`~companion.vision.config.ReadConfig.threshold` a reading is reported as uncertain, never
silently as a card. Every threshold and switch of the reading is a field of
:class:`~companion.vision.config.ReadConfig`, passed as ``config``.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, replace

from .config import DEFAULT, ReadConfig

# the names callers and tests import from here, kept where they now live
from .detection import Detection as Detection
from .detection import _sharpen
from .ink import _detection, _four_colour, _inks_hold, _reads_of, sure_tints
from .ink import _ink_tint as _ink_tint
from .ink import ink_suits as ink_suits
from .lone import _boxes_near as _boxes_near
from .lone import _lone_pips
from .resolve import COPY_TOO_MANY as COPY_TOO_MANY
from .resolve import TWIN_READ as TWIN_READ
from .resolve import _same_card as _same_card
from .resolve import dominant_up as dominant_up
from .resolve import joint_readings as joint_readings
from .resolve import resolve

TOO_SMALL = "index too small to read surely"
"""How the note of a reading marked uncertain for its size begins (:func:`read_photo`)."""


class Reading(list):
    """The detections of a photo, best first (a list), and ``latent``: the candidate indices
    behind them (:class:`Latent`), for a second look where the layout says a card must lie
    (:func:`companion.vision.piles.fill_gaps`); None where nothing was read."""

    latent: Latent | None = None


@dataclass
class Latent:
    """A photo's candidate indices as the recognizer scored them, kept for a second look:
    a candidate the recognizer did not take for an index (the index of a deck unlike any
    it was trained on) may still be read where the rules and the layout say a card lies."""

    rgb: object            # the image the candidates were found in
    c: object              # the detector's :class:`~companion.vision.detect.Candidates`
    pr: object             # (n, 14), (n, 5): the heads' outputs
    ps: object
    obj: object            # (n,): the recognizer's objectness
    sharp: object          # (n,): whether pr, ps are already the refiner's and the deck's
    clf: object
    deck: object = None
    scale: float = 1.0     # the image's pixels per working pixel
    config: ReadConfig = DEFAULT   # the settings the photo was read with

    def near(self, x, y, size, up) -> list:
        """The candidates whose index lies within half an index size of (x, y) (working
        pixels), about ``size`` pixels from pip to rank glyph (0.6 to 1.6 times) and facing
        about ``up``: [(objectness, readings as [(code, p), ...] given that it is an index,
        pip, rank glyph), ...], most likely to be an index first (those of a blob's waist
        cut last); places in working pixels."""
        import numpy as np
        k, c = self.scale, self.c
        if not len(c.pip):
            return []
        mid = (c.pip + c.rank) / 2 / k
        d = np.hypot(*(c.rank - c.pip).T) / k
        vec = (c.rank - c.pip) / np.maximum(d * k, 1e-6)[:, None]
        near = np.flatnonzero((np.hypot(mid[:, 0] - x, mid[:, 1] - y) < 0.5 * size)
                              & (d > 0.6 * size) & (d < 1.6 * size)
                              & (vec @ np.asarray(up, float) > 0.8))
        out = []
        # a waist cut's candidate (see :func:`~companion.vision.detect._waist_splits`) only
        # where no other is there
        second = c.second[c.pip_id[near]] | c.second[c.rank_id[near]] \
            if c.second is not None else np.zeros(len(near), bool)
        joined = c.joined if c.joined is not None else np.zeros(len(c.comp_boxes), bool)
        for i in near[np.lexsort((-self.obj[near], second))]:
            pr, ps = self.pr[i:i + 1].copy(), self.ps[i:i + 1].copy()
            if not self.sharp[i]:
                pr, ps = _sharpen(self.clf, self.deck, self.rgb, c.pip[i:i + 1],
                                  c.rank[i:i + 1], pr, ps)
            pr, ps = pr[0], ps[0]
            pr = np.append(pr[:13] / max(float(pr[:13].sum()), 1e-12), 0.0)
            ps = np.append(ps[:4] / max(float(ps[:4].sum()), 1e-12), 0.0)
            reads = _reads_of(self.rgb, pr, ps, c.pip[i], float(d[i] * k), self.config, 52)[0]
            if (joined[c.pip_id[i]] or joined[c.rank_id[i]]) and \
                    (self.obj[i] < self.config.objectness or reads[0][1] < self.config.joined_sure):
                continue  # (fragments joined: only a sure reading, as in read_cards)
            out.append((float(self.obj[i]), reads, tuple(c.pip[i] / k), tuple(c.rank[i] / k)))
        return out


def read_cards(rgb, clf=None, decks: int = 1, threshold: float | None = None, deck=None,
               sizes=None, backs: bool = True, *, config: ReadConfig = DEFAULT):
    """Detections for every card read in an RGB image (working resolution). ``threshold``:
    below it a reading is uncertain (None: ``config.threshold``). ``deck``: the
    player's deck calibration (:class:`companion.vision.calibrate.Deck`), which sharpens the
    model's readings of the indices it resembles. ``sizes``: called with the pip-rank
    distances of the candidates taken for an index, before they are read further, and
    first (with ``early=True``) with those of a sample of them (``config.early_sizes``); it
    may raise to stop the reading there.
    ``backs``: False where no card back can lie in the photo (a layout dealt all face up,
    such as Gaps: see :func:`companion.vision.detect.candidates`). ``config``: the reading's
    thresholds and switches (:class:`~companion.vision.config.ReadConfig`)."""
    import numpy as np

    # late-bound: tests monkeypatch candidates on detect
    from .detect import candidates

    # late-bound: tests monkeypatch load on model
    from .model import N_RANK, N_SUIT, load
    clf = clf or load()
    threshold = config.threshold if threshold is None else threshold
    c = candidates(rgb, describe=False, backs=backs)
    if len(c.pip) == 0:
        return Reading()
    n = len(c.pip)
    if sizes is not None and config.early_sizes and n >= config.early_min:
        # a sample of the candidates read first: where its indices are small, the photo is
        # read finer without reading the rest here (elsewhere the readings are the same as
        # with all read at once: the model reads each crop alone)
        first = np.zeros(n, bool)
        first[::config.early_sizes] = True
        pr, ps = np.empty((n, N_RANK)), np.empty((n, N_SUIT))
        pr[first], ps[first] = clf.predict_crops(c.crops[0][first], c.crops[1][first])
        sample = np.flatnonzero(first)[_taken(c, clf, pr[first], ps[first], config, first)[0]]
        if len(sample) >= config.early_enough:
            sizes(np.hypot(*(c.rank[sample] - c.pip[sample]).T), early=True)
        pr[~first], ps[~first] = clf.predict_crops(c.crops[0][~first], c.crops[1][~first])
    else:
        pr, ps = clf.predict_crops(*c.crops)
    taken, obj, waist = _taken(c, clf, pr, ps, config)
    keep = np.flatnonzero(taken)
    if not len(keep):
        return Reading()
    dist = np.hypot(*(c.rank[keep] - c.pip[keep]).T)  # each index's size, pip to rank glyph
    if sizes is not None:
        sizes(dist)
    pr[keep], ps[keep] = _sharpen(clf, deck, rgb, c.pip[keep], c.rank[keep], pr[keep], ps[keep])
    score = obj[keep] * pr[keep, :13].max(1) * ps[keep, :4].max(1)
    tints = sure_tints(rgb, c, keep, dist, score) if config.ink_rules else {}
    if tints and not _inks_hold(tints, ps, config):
        config = replace(config, ink_rules=False)
    if c.peeled is not None:
        # a blob that came free of a larger one (a card's edge, a back's pattern) is more
        # often a bit of a line than a glyph: an index using one is read only when sure
        freed = c.peeled[c.pip_id[keep]] | c.peeled[c.rank_id[keep]]
        score[freed & (score < config.freed_sure)] = -1.0
    if config.waist_sure:
        score[waist[keep] & (score < config.waist_sure)] = -1.0
    if config.size_ratio:
        # one deck's indices are all of a size (up to the photo's perspective): a candidate
        # far larger than those read surely is ink of several cards taken for one index
        sure = score > 0.9
        if sure.sum() >= 3:
            score[dist > config.size_ratio * np.median(dist[sure])] = -1.0
    # the readings of waist cuts after all others: a cut's half of a glyph reads as another
    # glyph (a J's stem and hook as a 3), where the whole glyph is read right
    cut = waist[keep]
    ranked = np.lexsort((-score, cut))
    used: set[int] = set()
    raw: list[Detection] = []
    for k, i in zip(ranked, keep[ranked], strict=True):
        if score[k] < 0:
            continue
        a, b = int(c.pip_id[i]), int(c.rank_id[i])
        if a in used or b in used:
            continue
        t = _detection(rgb, c.pip[i], c.rank[i], pr[i], ps[i], config, tint=tints.get(i))
        if c.joined is not None and (c.joined[a] or c.joined[b]) \
                and t.confidence < config.joined_sure:
            continue  # (its blobs are left to the readings of their parts)
        used.update((a, b))
        raw.append((bool(cut[k]), t))
    # spatial suppression: two readings of the same spot keep the better (a waist cut's
    # the worse)
    raw.sort(key=lambda wt: (wt[0], -wt[1].confidence))
    dets: list[Detection] = []
    for _, t in raw:
        if any(math.hypot(t.x - o.x, t.y - o.y) < 0.7 * max(t.size, o.size) for o in dets):
            continue
        dets.append(t)
    if config.lone_pips:
        dets += _lone_pips(rgb, c, clf, deck, used, dets, decks, config)
    if config.lone_glyphs:
        dets += _lone_pips(rgb, c, clf, deck, used, dets, decks, config, glyphs=True)
    if config.merged and getattr(clf, "reads_waists", False):
        dets += _lone_pips(rgb, c, clf, deck, used, dets, decks, config, merged=True)
    if config.four_colour_seen:
        _four_colour(dets, threshold, config)
    if config.small_ratio:
        dets = _not_too_small(dets, config)
    out = Reading(resolve(dets, decks, threshold, config=config))
    sharp = np.zeros(len(obj), bool)
    sharp[keep] = True
    out.latent = Latent(rgb, c, pr, ps, obj, sharp, clf, deck, config=config)
    return out


def _taken(c, clf, pr, ps, config, rows=None):
    """(taken, objectness, waist) of the candidates ``c`` (those of ``rows`` alone, a mask,
    where given) that the model read as ``pr``, ``ps``: those it takes for an index."""
    import numpy as np
    obj = (1 - pr[:, 13]) * (1 - ps[:, 4])
    taken = obj > config.objectness
    waist = np.zeros(len(obj), bool)
    if c.second is not None:
        # a blob's waist cut (a rank glyph and its pip blurred together, or often a bit of
        # a back's pattern): such an index is read here only when sure (waist_sure), else
        # looked at only where the layout says a card lies (the photo's ``latent``)
        pip_id, rank_id = (c.pip_id, c.rank_id) if rows is None \
            else (c.pip_id[rows], c.rank_id[rows])
        waist = c.second[pip_id] | c.second[rank_id]
        if not (config.waist_sure and getattr(clf, "reads_waists", False)):
            taken &= ~waist
    return taken, obj, waist


def _not_too_small(dets, config):
    """``dets`` without those far smaller than the indices read surely near them
    (``config.small_ratio``)."""
    sure = [d for d in dets if d.confidence >= 0.9]
    if len(sure) < 4:
        return dets
    keep = []
    for d in dets:
        near = sorted((o for o in sure if o is not d),
                      key=lambda o: (o.x - d.x) ** 2 + (o.y - d.y) ** 2)[:3]
        if d.size >= config.small_ratio * statistics.median(o.size for o in near):
            keep.append(d)
    return keep


def read_photo(rgb, clf=None, decks: int = 1, threshold: float | None = None, finer=None,
               deck=None, detail: float = 1.0, ahead=None, backs: bool = True, *,
               config: ReadConfig = DEFAULT):
    """:func:`read_cards`, and where the indices are small a reading of a finer image (that
    one alone, the first stopped at its candidates' sizes: ``config.finer_at_once``; else both):
    ``finer(zoom)`` gives the photo at ``zoom`` times the working resolution (from the file
    when it has the pixels: ``detail``, the photo's pixels per working pixel); without it the
    working image is upsampled. The reading with more sure cards is kept (the finer on a
    tie: ``config.finer_on_tie``), its places in working pixels. An index smaller than
    ``config.tiny`` in the pixels the photo has is not read surely. ``ahead``: called (no
    arguments) as soon as the indices look small, before the first reading ends: a caller
    may start on what ``finer`` will need. ``threshold``, ``backs``, ``config``: as for
    :func:`read_cards`."""
    import cv2

    def sizes(d, early=False):
        # the candidates' median size stands for the readings' (close enough to judge by)
        if early and not config.finer_at_once:
            return
        med = statistics.median(d.tolist())
        if med < config.small:
            if ahead is not None:
                ahead()
            if config.finer_at_once:
                raise _Small(med)
    try:
        dets = read_cards(rgb, clf, decks, threshold, deck, sizes, backs, config=config)
    except _Small as small:
        dets, med = None, small.med
    else:
        if not dets:
            return dets
        med = statistics.median(d.size for d in dets)
        if med >= config.small:
            return _not_tiny(dets, 1.0, config)
    zoom = min(config.max_zoom, max(1.25, config.zoom_aim / med))
    if finer is not None:
        img = finer(zoom)
    else:
        img = cv2.resize(rgb, (round(rgb.shape[1] * zoom), round(rgb.shape[0] * zoom)),
                         interpolation=cv2.INTER_CUBIC)
    k = img.shape[1] / rgb.shape[1]
    fine = read_cards(img, clf, decks, threshold, deck, backs=backs, config=config)
    if fine.latent is not None:
        fine.latent.scale = k
    for d in fine:
        d.x, d.y, d.size = d.x / k, d.y / k, d.size / k
        d.pip_at = (d.pip_at[0] / k, d.pip_at[1] / k)
        d.rank_at = (d.rank_at[0] / k, d.rank_at[1] / k)
        if d.other is not None:
            d.other = (d.other[0] / k, d.other[1] / k, d.other[2])

    def sure(ds):
        return sum(1 for d in ds if not d.uncertain)
    if dets is None and not sure(fine):  # (never seen: the first reading as it was)
        dets = read_cards(rgb, clf, decks, threshold, deck, backs=backs, config=config)
    if dets is None or sure(fine) > sure(dets) \
            or (config.finer_on_tie and sure(fine) == sure(dets)):
        return _not_tiny(fine, min(k, max(1.0, detail if finer is not None else 1.0)), config)
    return _not_tiny(dets, 1.0, config)


class _Small(Exception):
    """The first reading stopped: its indices are small (median ``med`` pixels)."""

    def __init__(self, med):
        super().__init__(med)
        self.med = med


def _not_tiny(dets, detail, config):
    """``dets`` with those whose index is smaller than ``config.tiny`` (in the photo's own
    pixels: ``detail`` per working pixel) marked uncertain, unless read ``config.tiny_sure``
    sure."""
    for d in dets:
        if not d.uncertain and d.size * detail < config.tiny \
                and d.confidence < config.tiny_sure:
            d.uncertain = True
            d.note = (f"{TOO_SMALL}, {d.size * detail:.0f} pixels from pip to rank: "
                      "photograph the layout closer")
    return dets

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
from dataclasses import dataclass, field, replace

from ..cards import CLUBS, DIAMONDS, HEARTS, SPADES, code_text
from .config import DEFAULT, ReadConfig
from .detect import (
    ACROSS,
    ALONG,
    CROP_H,
    CROP_W,
    crops,
    ink_and_paper,
    min_channel,
    percentile_sorted,
    runs,
    strips_painted,
)

TOO_SMALL = "index too small to read surely"
"""How the note of a reading marked uncertain for its size begins (:func:`read_photo`)."""
COPY_TOO_MANY = "seen more often than the deck has it"
"""How the note of a reading marked uncertain only because its card was read as often as the
deck has it elsewhere ends (:func:`resolve`)."""


@dataclass
class Detection:
    code: int                 # suit * 13 + rank - 1 (best reading)
    confidence: float
    x: float                  # place: midpoint of rank and pip, working-image pixels
    y: float
    up: tuple                 # unit vector pip -> rank (the card's "up")
    size: float               # pip-rank distance, pixels
    uncertain: bool = False
    note: str = ""
    alternatives: list = field(default_factory=list)   # [(code, p), ...] next readings
    corners: int = 1
    other: tuple | None = None  # the other corner's (x, y, up) when both were read
    given_ink: list = field(default_factory=list)
    """[(code, p), ...]: where the pip's ink ruled out the model's best suit, the readings
    given the ink (:func:`_reads_of`): evidence the rules may choose from
    (:func:`companion.vision.piles.infer_from_build`), never a reading taken alone."""
    pip_at: tuple = (0.0, 0.0)   # the index's pip and rank glyph centres (working pixels)
    rank_at: tuple = (0.0, 0.0)
    ink: tuple | None = None     # the pip's ink tint (:func:`_ink_tint`), None: not judged
    suits: tuple | None = None
    """The suit head's odds of ♠ ♥ ♦ ♣ (summing to 1, the suits the pip's ink rules out at
    0), where the reading is the model's own: a copy too many of a card may be its twin in
    colour (:func:`_swap_twins`). None: not known."""
    inferred: tuple | None = None
    """(code read best, its probability, why): the card was read below the threshold and
    its reading taken from the rules, the only one the pile's build allows
    (:func:`companion.vision.piles.infer_from_build`), or it was not taken for an index at
    first and found where the pile's build says a card lies
    (:func:`companion.vision.piles.fill_gaps`)."""

    @property
    def rank(self) -> int:
        return self.code % 13 + 1

    @property
    def suit(self) -> int:
        return self.code // 13


def _readings(pr, ps, k=4):
    """Top-k (code, probability) over the 52 cards, from the two heads (none excluded)."""
    import numpy as np
    joint = np.outer(ps[:4], pr[:13])  # suit x rank
    flat = joint.ravel()
    order = np.argsort(-flat)[:k]
    return [(int(i), float(flat[i])) for i in order]


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


def _reads_of(rgb, pr, ps, pip, size, config, k=4):
    """(readings best first as [(code, p), ...], note, the readings given the ink, the ink's
    tint (:func:`_ink_tint`), the suits' odds given the ink (four, summing to 1, or None
    where the suit head gives none)) of one candidate index from the heads' outputs ``pr`` (14) and
    ``ps`` (5), its pip at ``pip`` and ``size`` pixels from pip to rank glyph: the pip's ink
    colour rules suits out (:func:`ink_suits`). Where it rules out the best reading's suit,
    the readings given the ink are the suit head's odds among the suits left (as if the ink
    were certain); else none."""
    import numpy as np
    reads = _readings(pr, ps, k)
    note = ""
    given: list = []
    tint = _ink_tint(rgb, pip, size)
    ink, ruled_out = _ink_rules(tint, config)
    if ruled_out:
        # the pip's colour is evidence of its own: no reading in a suit not printed in
        # that ink is kept (nor offered later, when a copy too many or the other corner
        # is re-read); where the best was one, the best that is not is taken (surely only
        # if the model gives it as much)
        left = [s for s in range(4) if s not in ruled_out]
        if reads[0][0] // 13 in ruled_out:
            note = f"the pip's ink is {ink}: not {_name(reads[0][0])}"
        if len(left) == 1 and note:   # the ink names the suit: the rank head reads the rest
            reads = _readings(pr, np.eye(4)[left[0]], k)
        else:
            allowed = ps.copy()
            allowed[sorted(ruled_out)] = 0.0
            reads = _readings(pr, allowed, k)
            if note and allowed[:4].sum() > 0:
                given = _readings(pr, allowed / allowed[:4].sum(), k)
    odds = np.array(ps[:4], float)
    if ruled_out:
        odds[sorted(ruled_out)] = 0.0
    total = float(odds.sum())
    suits = tuple(float(v) for v in odds / total) if total > 0 else None
    return reads, note, given, tint, suits


def dominant_up(dets):
    """The layout's "up" direction: the axis of most index corners, signed by the majority."""
    if not dets:
        return (0.0, -1.0)
    sx = sum(math.cos(2 * math.atan2(d.up[1], d.up[0])) for d in dets)
    sy = sum(math.sin(2 * math.atan2(d.up[1], d.up[0])) for d in dets)
    a = math.atan2(sy, sx) / 2
    ax = (math.cos(a), math.sin(a))
    pos = sum(1 for d in dets if d.up[0] * ax[0] + d.up[1] * ax[1] > 0)
    if pos < len(dets) - pos:
        ax = (-ax[0], -ax[1])
    return ax


def _sharpen(clf, deck, rgb, pips, ranks, pr, ps):
    """The heads' outputs ``pr``, ``ps`` of the candidate indices at ``pips``, ``ranks``,
    sharpened by the refiner (where the model has one) and the deck's calibration (if any)."""
    if getattr(clf, "refiner", None) is not None:
        pr, ps = clf.refiner.sharpen(rgb, pips, ranks, pr, ps)
    if deck is not None:
        pr, ps = deck.sharpen(clf, rgb, pips, ranks, pr, ps)
    return pr, ps


def _detection(rgb, p, r, pr, ps, config) -> Detection:
    """The reading of the index with its pip at ``p`` and its rank glyph at ``r``, from the
    heads' outputs (its pip's ink ruling suits out: :func:`_reads_of`)."""
    d = float(math.hypot(*(r - p)))
    reads, note, given, tint, suits = _reads_of(rgb, pr, ps, p, d, config)
    code, conf = reads[0]
    m = (p + r) / 2
    return Detection(code, conf, float(m[0]), float(m[1]),
                     (float((r - p)[0] / d), float((r - p)[1] / d)), d, note=note,
                     alternatives=reads[1:], given_ink=given, pip_at=(float(p[0]), float(p[1])),
                     rank_at=(float(r[0]), float(r[1])), ink=tint, suits=suits)


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
    if config.ink_rules and not _inks_hold(rgb, c, keep, dist, ps, score, config):
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
        t = _detection(rgb, c.pip[i], c.rank[i], pr[i], ps[i], config)
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


GLYPH_ROWS, PIP_ROWS, WINDOW_COLS = slice(7, 18), slice(22, 33), slice(11, 21)
"""Where a rank glyph and a pip lie in an upright crop (:func:`~companion.vision.detect.crops`,
40 rows by 32, the glyph's centre at row 12, the pip's at row 28)."""


def _lone_pips(rgb, c, clf, deck, used, dets, decks, config, glyphs: bool = False,
               merged: bool = False):
    """Readings of indices whose rank glyph is no blob of its own: joined to the strip of table
    along the card's edge, or so thin and faint (a four-colour deck's blue, blurred) that it
    falls apart into specks. A pip-sized blob in no reading (``used``: the blobs of the
    readings made) is taken for a pip, its rank glyph looked for where the indices read
    surely near it have theirs (their size, either way along their axis); read only where
    ink lies there, no blob of its own does, and the model is sure (``config.lone_sure``), as
    a card not read yet (``decks`` copies of it at most). Places in ``rgb``'s pixels.
    With ``glyphs``, the other way round: a blob in no reading is taken for a rank glyph
    whose pip is no blob of its own (a pip touching the card's edge joins the table's strip),
    and the pip is looked for. With ``merged``, a blob of an index's size (not peeled off
    other ink) is taken for a whole index (:func:`_merged`)."""
    import numpy as np

    sure = [d for d in dets if d.confidence >= 0.9]
    if len(sure) < 3 or c.comp_cents is None:
        return []
    pips = np.array([d.pip_at for d in sure])
    size = np.array([d.size for d in sure])
    ups = np.array([d.up for d in sure])
    boxes, cents = c.comp_boxes, c.comp_cents
    # each blob's nearest indices read surely: the size and the axis of its own index
    dd = np.hypot(cents[:, None, 0] - pips[None, :, 0], cents[:, None, 1] - pips[None, :, 1])
    near = np.argsort(dd, axis=1)[:, :3]
    d = np.median(size[near], axis=1)
    u = ups[near[:, 0]]
    big = np.maximum(boxes[:, 2], boxes[:, 3])
    free = np.ones(len(boxes), bool)
    free[list(used)] = False
    lo, hi = (config.merged_lo, config.merged_hi) if merged else (config.lone_lo, config.lone_hi)
    j = np.flatnonzero(free & (big >= lo * d) & (big <= hi * d)
                       & (dd[np.arange(len(dd)), near[:, 0]] <= 12 * d))
    if c.peeled is not None and merged:
        j = j[~c.peeled[j]]
    if not len(j):
        return []
    if merged:
        return _merged(rgb, c, clf, deck, dets, decks, cents[j], d[j], u[j], config)
    # the rank glyph (or with ``glyphs`` the pip) either way along the axis
    j = np.concatenate([j, j])
    sgn = np.repeat([1.0, -1.0], len(j) // 2)[:, None]
    P, dj = cents[j], d[j]
    R = P + sgn * u[j] * dj[:, None]
    # no blob of its own there (not one peeled off other ink): that pair was looked at
    # already, or it is the next pip of a card's centre
    clear = ~c.peeled if c.peeled is not None else np.ones(len(boxes), bool)
    if glyphs:
        P, R = R, P
    at = P if glyphs else R
    qi, bi = _boxes_near(boxes, at, config.lone_clear * dj)
    ok = clear[bi]
    if config.lone_big:
        # a blob far larger than an index there is no glyph's or pip's own (a strip of table
        # with the pip joined to it, opened off the larger blob)
        ok &= big[bi] <= config.lone_big * dj[qi]
    if config.lone_not_itself:
        # the lone blob's own box is no blob at the other's place (its corner reaches there
        # where the index lies aslant)
        ok &= bi != j[qi]
    hit = np.zeros(len(j), bool)
    hit[qi[ok]] = True
    # nor a reading there already
    look = ~hit & ~_read_already(dets, P, R, dj)
    P, R = P[look], R[look]
    if not len(P):
        return []
    g = crops(rgb, _mn(rgb, c), P, R, colour=False)[0]
    # ink where the rank glyph would be (a glyph too faint or joined to other ink), not
    # bare paper
    lo, hi = (v[:, None, None] for v in ink_and_paper(g, wide=True))
    rows = PIP_ROWS if glyphs else GLYPH_ROWS
    win = (g[:, rows, WINDOW_COLS] - lo) / np.maximum(hi - lo, 12)
    inked = np.flatnonzero(((win < config.lone_dark).mean((1, 2)) >= config.lone_ink)
                           & (win.min((1, 2)) < config.lone_darkest))
    if not len(inked):
        return []
    P, R = P[inked], R[inked]
    if glyphs:
        # a place guessed from the neighbours misses a pip by a fifth of an index, enough
        # for the model to see no index: the pip is taken where the ink is, around the place
        # guessed, and looked at there
        P = _ink_centre(win[inked], P, R, config)
        g, cc = crops(rgb, _mn(rgb, c), P, R)
    else:
        # (the colour crops only of those looked at: most places guessed are bare paper)
        g, cc = g[inked], crops(rgb, _mn(rgb, c), P, R)[1]
    pred = clf.predict_crops(g, cc)
    out = _read_guessed(rgb, clf, deck, dets, decks, P, R, g, cc, config.lone_sure, config, pred)
    if config.lone_strips and not glyphs:
        # those the model took for an index, not surely enough, looked at again
        obj = (1 - pred[0][:, 13]) * (1 - pred[1][:, 4])
        near = np.flatnonzero(obj >= config.lone_again)
        out += _read_clear_of_strips(rgb, _mn(rgb, c), clf, deck, dets + out, decks,
                                     P[near], R[near], out, config)
    return out


def _read_clear_of_strips(rgb, mn, clf, deck, dets, decks, P, R, made, config):
    """Readings of the indices guessed from their pips (pips ``P``, glyphs ``R``) that were
    not read (none of ``made`` lies there), looked at again with the strips of table that
    cross their windows painted over, each glyph where its blob lies once they are
    (:func:`~companion.vision.detect.strips_painted`): a glyph joined to the strip of
    table between two cards close together (Gaps) is no blob of its own, and the strip in
    the crop, with the guess a few pixels off the glyph, left the model unsure. Each is read
    from its own window (the model, the refiner, the pip's ink), as a card not read yet,
    when ``config.lone_sure``; an index read before is never looked at again."""
    import numpy as np

    if not len(P):
        return []
    d = np.hypot(*(R - P).T)
    again = ~_read_already(made, P, R, d) if made else np.ones(len(P), bool)
    h, w = mn.shape
    out: list[Detection] = []
    for k in np.flatnonzero(again).tolist():
        m = (P[k] + R[k]) / 2
        rad = int(2.2 * d[k]) + 2
        x0, y0 = max(0, int(m[0]) - rad), max(0, int(m[1]) - rad)
        x1, y1 = min(w, int(m[0]) + rad + 1), min(h, int(m[1]) + rad + 1)
        at = np.array([x0, y0], np.float64)
        got = strips_painted(mn[y0:y1, x0:x1], rgb[y0:y1, x0:x1], P[k] - at, R[k] - at, d[k])
        if got is None:
            continue
        wmn, wrgb, glyph = got
        p, r = (P[k] - at)[None], glyph[None].astype(np.float64)
        g, cc = crops(wrgb, wmn, p, r)
        for t in _read_guessed(wrgb, clf, deck, dets + out, decks, p, r, g, cc,
                               config.lone_sure, config):
            t.x, t.y = t.x + x0, t.y + y0
            t.pip_at = (t.pip_at[0] + x0, t.pip_at[1] + y0)
            t.rank_at = (t.rank_at[0] + x0, t.rank_at[1] + y0)
            if not _read_already(dets + out, np.array([t.pip_at]), np.array([t.rank_at]),
                                 np.array([t.size])).any():
                out.append(t)
    return out


def _boxes_near(boxes, at, h):
    """(i, k): the pairs of a place ``at[i]`` and a box ``boxes[k]`` (x, y, w, h) that reaches
    within ``h[i]`` of it, each way (the box overlaps the square of half-side ``h[i]`` around
    it). Only the boxes that begin within reach along x are tested: the boxes sorted by x,
    each place's range of them found by bisection (all places against all boxes took a
    tenth of a second on a Gaps photo's thousands of blobs)."""
    import numpy as np

    cb = boxes.astype(float)
    order = np.argsort(cb[:, 0], kind="stable")
    xs = cb[order, 0]
    rx, ry = at[:, 0], at[:, 1]
    wide = cb[:, 2].max() if len(cb) else 0.0
    i, k = runs(order, np.searchsorted(xs, rx - h - wide, side="right"),
                np.searchsorted(xs, rx + h, side="left"))
    b, x, y, hh = cb[k], rx[i], ry[i], h[i]
    ok = ((b[:, 0] < x + hh) & (b[:, 0] + b[:, 2] > x - hh)
          & (b[:, 1] < y + hh) & (b[:, 1] + b[:, 3] > y - hh))
    return i[ok], k[ok]


def _mn(rgb, c):
    """``rgb``'s min(R, G, B), as its candidates ``c`` have it (made once a photo)."""
    return c.mn if c.mn is not None else min_channel(rgb)


def _read_guessed(rgb, clf, deck, dets, decks, P, R, g, cc, sure, config, pred=None):
    """Readings of the indices guessed to have their pips at ``P`` and rank glyphs at ``R``
    (their crops ``g``, ``cc``): those the model gives ``sure`` or more (objectness times
    both heads' best), with no note, of cards not read ``decks`` times already in ``dets``,
    each spot once. ``pred``: the model's outputs for those crops, where made already."""
    import numpy as np
    pr, ps = clf.predict_crops(g, cc) if pred is None else (pred[0].copy(), pred[1].copy())
    obj = (1 - pr[:, 13]) * (1 - ps[:, 4])
    keep = np.flatnonzero(obj > config.objectness)
    if not len(keep):
        return []
    pr[keep], ps[keep] = _sharpen(clf, deck, rgb, P[keep], R[keep], pr[keep], ps[keep])
    score = obj[keep] * pr[keep, :13].max(1) * ps[keep, :4].max(1)
    out: list[Detection] = []
    for k in np.argsort(-score):
        if score[k] < sure:
            break
        t = _detection(rgb, P[keep[k]], R[keep[k]], pr[keep[k]], ps[keep[k]], config)
        if t.note or t.confidence < sure:
            continue
        if any(math.hypot(t.x - o.x, t.y - o.y) < 0.7 * max(t.size, o.size) for o in out):
            continue
        if _copies_elsewhere(t, dets + out, config) >= decks:
            continue
        out.append(t)
    return out


def _copies_elsewhere(t, dets, config) -> int:
    """How many sure readings of ``t``'s card ``dets`` hold that are not its card's other
    corner (facing the other way, across the card from ``t``: :func:`_diagonal`), which
    :func:`resolve` merges with it (all of them without ``config.lone_twins``)."""
    return sum(1 for o in dets if o.code == t.code and not o.uncertain
               and not (config.lone_twins and o.up[0] * t.up[0] + o.up[1] * t.up[1] < -0.5
                        and _diagonal(o, t)))


def _read_already(dets, P, R, size):
    """Whether a reading of ``dets`` lies at each index guessed (pips ``P``, rank glyphs
    ``R``, about ``size`` from pip to glyph)."""
    import numpy as np
    m = (P + R) / 2
    at = np.array([(o.x, o.y, o.size) for o in dets])
    return (np.hypot(m[:, None, 0] - at[None, :, 0], m[:, None, 1] - at[None, :, 1])
            < 0.7 * np.maximum(size[:, None], at[None, :, 2])).any(1)


def _merged(rgb, c, clf, deck, dets, decks, cents, d, u, config):
    """Readings of blobs that are a whole index, its rank glyph and pip run together (a
    heart's lobes touching a 3 or a K, an 8's loop touching its pip): the index taken as lying along
    the axis of the indices read surely near it, either way, centred on the blob."""
    import numpy as np

    half = u * d[:, None] / 2
    P = np.concatenate([cents - half, cents + half])
    R = np.concatenate([cents + half, cents - half])
    free = ~_read_already(dets, P, R, np.concatenate([d, d]))
    P, R = P[free], R[free]
    if not len(P):
        return []
    g, cc = crops(rgb, _mn(rgb, c), P, R)
    return _read_guessed(rgb, clf, deck, dets, decks, P, R, g, cc, config.merged_sure, config)


def _ink_centre(win, P, R, config):
    """The centre of the ink (darker than ``config.lone_dark``) in each pip window ``win``
    (:data:`PIP_ROWS`, :data:`WINDOW_COLS`) of the upright crops made with their pips at
    ``P`` and rank glyphs at ``R``, as a place in the image: the pips, found."""
    import numpy as np

    ink = (win < config.lone_dark).astype(np.float64)
    n = ink.sum((1, 2))
    ys, xs = np.mgrid[PIP_ROWS, WINDOW_COLS] + 0.5
    cy = (ink * ys).sum((1, 2)) / np.maximum(n, 1)
    cx = (ink * xs).sum((1, 2)) / np.maximum(n, 1)
    d = np.hypot(*(R - P).T)[:, None]
    u = (R - P) / np.maximum(d, 1e-6)
    v = np.stack([-u[:, 1], u[:, 0]], 1)
    top = (P + R) / 2 + ALONG * d * u
    at = top - ACROSS * d * v + (cx / CROP_W)[:, None] * 2 * ACROSS * d * v \
        - (cy / CROP_H)[:, None] * 2 * ALONG * d * u
    return np.where(n[:, None] > 0, at, P)


def _not_too_small(dets, config):
    """``dets`` without those far smaller than the indices read surely near them
    (``config.small_ratio``)."""
    import statistics
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
    import statistics

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


def resolve(dets, decks=1, threshold=None, *, config: ReadConfig = DEFAULT):
    """Each card at most ``decks`` times: merge a card's two corners, re-read or flag
    duplicates, flag low confidence (below ``threshold``, None: ``config.threshold``)."""
    threshold = config.threshold if threshold is None else threshold
    up = dominant_up(dets)
    dets = sorted(dets, key=lambda t: -t.confidence)
    # the two corners of one card: same reading, opposite "up"; keep the upright one's place
    merged: list[Detection] = []
    for t in dets:
        twins = [o for o in merged if o.code == t.code and o.corners == 1
                 and o.up[0] * t.up[0] + o.up[1] * t.up[1] < -0.5]
        if decks > 1:  # two copies exist: only a corner where the same card's other is
            twins = sorted((o for o in twins if _same_card(o, t)),
                           key=lambda o: math.hypot(o.x - t.x, o.y - t.y))
        elif len(twins) > 1 and config.twin_corners:
            # one copy, read at more places than its two corners: the corner across the card
            # first (the others are other cards read as this one: :func:`_twin_corners`)
            twins.sort(key=lambda o: (not _diagonal(o, t), math.hypot(o.x - t.x, o.y - t.y)))
        twin = twins[0] if twins else None
        reads = None
        if twin is None and t.confidence < threshold:
            # the two corners of one card read differently, this one unsurely: one card
            # when they lie across the card from each other and agree once combined
            twin, reads = _unsure_twin(t, merged)
        if twin is not None:
            twin.corners = 2
            if reads is None:   # the same glyph twice: no surer than its better reading
                twin.confidence = max(twin.confidence, t.confidence)
            else:
                twin.code, twin.confidence = reads[0]
                twin.alternatives = reads[1:4]
                twin.suits = _joint_suits(twin.suits, t.suits)
            _join_corners(twin, t, up)
            continue
        merged.append(t)
    if config.twin_corners:
        merged = _twin_corners(merged, decks, up)
    if config.swap_twins:
        _swap_twins(merged, decks, config)
    merged.sort(key=lambda t: -t.confidence)
    counts: dict[int, int] = {}
    for t in merged:
        if counts.get(t.code, 0) >= decks:
            alt = next(((c, p) for c, p in t.alternatives if counts.get(c, 0) < decks
                        and p > 0.15), None)
            if alt is not None:
                t.note = f"re-read: {_name(t.code)} was already seen"
                t.code, t.confidence = alt
                t.uncertain = True
            else:
                t.uncertain = True
                t.note = f"{_name(t.code)} {COPY_TOO_MANY}"
        counts[t.code] = counts.get(t.code, 0) + 1
        if t.confidence < threshold:
            t.uncertain = True
            t.note = t.note or "low confidence"
    return merged


_TWIN_SUIT = (3, 2, 1, 0)
"""Each suit's twin in colour, the other suit of its ink (♠ and ♣, ♥ and ♦)."""
TWIN_READ = "which is read surer elsewhere: taken for"
"""The words of the note of a card named by weighing it against its twin (:func:`_swap_twins`):
``scan`` shows it beside a card read sure too, since the model read the other suit."""


def _twin_of(code: int) -> int:
    """The card of ``code``'s rank in the other suit of its ink (♠ and ♣, ♥ and ♦)."""
    s, r = divmod(code, 13)
    return _TWIN_SUIT[s] * 13 + r


def _joint_suits(a, b):
    """Two corners' suit odds combined as independent evidence (None where either is
    unknown)."""
    if a is None or b is None:
        return None
    prod = [x * y for x, y in zip(a, b, strict=True)]
    total = sum(prod)
    return tuple(v / total for v in prod) if total > 0 else None


def _swap_twins(merged, decks, config) -> None:
    """Copies too many of a card, where its twin in colour is read fewer than ``decks`` times:
    the readings are resolved together, as the photo holds each card ``decks`` times at
    most. A small index's ♣ and ♠ look alike, and the model may read a deck's clubs as
    spades with every sign of being sure; yet where the real spade is read too, it reads it
    surer still. Each of the copies is the card itself, its twin, or some other card (the
    odds its readings leave); every way of naming them that the deck allows is weighed by
    the product of their odds, and each copy takes the name most of the weight gives it,
    as sure as that share (so the threshold and the notes judge it as any other reading).
    A copy whose reading gives its twin no odds at all (its ink rules it out) is left to
    :func:`resolve`'s re-reading, as is a group of more than ``config.twins_most`` copies."""
    import itertools
    from collections import Counter
    counts = Counter(t.code for t in merged)
    for code, n in list(counts.items()):
        if n <= decks or n > config.twins_most:
            continue
        s, twin = code // 13, _twin_of(code)
        room = decks - counts.get(twin, 0)
        group = [t for t in merged if t.code == code]
        if room <= 0 or any(t.suits is None or t.suits[s] <= 0 for t in group):
            continue
        # each copy's odds: the card (0), its twin (1), another card (2)
        odds = []
        for t in group:
            p = t.confidence
            q = p * t.suits[twin // 13] / t.suits[s]
            odds.append((p, q, max(0.0, 1.0 - p - q)))
        weight = [[0.0, 0.0, 0.0] for _ in group]
        for names in itertools.product(range(3), repeat=len(group)):
            if names.count(0) > decks or names.count(1) > room:
                continue
            w = math.prod(o[k] for o, k in zip(odds, names, strict=True))
            for i, k in enumerate(names):
                weight[i][k] += w
        for t, w in zip(group, weight, strict=True):
            total = sum(w)
            if total <= 0:
                continue
            k = max(range(2), key=lambda j: w[j])
            t.confidence = w[k] / total
            if k == 1:
                t.note = f"read as {_name(code)}, {TWIN_READ} {_name(twin)}"
                t.alternatives = [(code, w[0] / total)] + \
                    [(c, p) for c, p in t.alternatives if c not in (code, twin)]
                t.code = twin
            else:
                t.alternatives = [(twin, w[1] / total)] + \
                    [(c, p) for c, p in t.alternatives if c not in (code, twin)]


def _four_colour(dets, threshold, config) -> None:
    """Where the photo's deck prints its clubs green or its diamonds blue
    (``config.four_colour_seen``), the readings ``dets`` of a club in black ink or a diamond in
    red are read again without that suit, in place: as :func:`_reads_of` reads a pip whose
    ink rules the best suit out (the best reading left, at the model's own odds, so below the
    threshold, and the readings given the ink for the rules to choose from). The inks are
    those the readings were made with (``Detection.ink``)."""
    tints = [d.ink for d in dets]
    inks = [_ink_word(t, config) for t in tints]
    sure = [d.confidence >= threshold and not d.note for d in dets]
    green = sum(1 for d, ink, ok in zip(dets, inks, sure, strict=True)
                if ok and ink == "green" and d.suit == CLUBS)
    blue = sum(1 for d, ink, ok in zip(dets, inks, sure, strict=True)
               if ok and ink == "blue" and d.suit == DIAMONDS)
    for d, ink, t in zip(dets, inks, tints, strict=True):
        if green >= config.four_colour_seen and ink == "not red" and d.suit == CLUBS \
                and max(t) < config.ink_grey:   # (black, not a faint green)
            why = "black, and this deck's clubs are green"
        elif blue >= config.four_colour_seen and ink == "red" and d.suit == DIAMONDS:
            why = "red, and this deck's diamonds are blue"
        else:
            continue
        reads = [(d.code, d.confidence)] + list(d.alternatives)
        left = [(c, p) for c, p in reads if c // 13 != d.suit]
        d.note = f"the pip's ink is {why}: not {_name(d.code)}"
        if not left:
            d.confidence = 0.0
            continue
        total = sum(p for _, p in left)
        d.given_ink = [(c, p / total) for c, p in left] if total > 0 else []
        (d.code, d.confidence), d.alternatives = left[0], left[1:]


def _inks_hold(rgb, c, keep, dist, ps, score, config) -> bool:
    """Whether the photo's deck prints its suits in the inks the rules know (:func:`ink_suits`):
    false where a suit the model reads surely (``score`` of the candidates ``keep`` over 0.9),
    at ``config.ink_judged`` judged inks or more, is mostly (``config.ink_doubt``) in one ink
    that rules it out: the deck's own colours (purple spades, orange clubs). A model wrong
    about the suits reads one suit in inks of every colour instead, which the rules correct."""
    import numpy as np
    sure = np.flatnonzero(score > 0.9)
    inks: list[dict[str, int]] = [{}, {}, {}, {}]
    for k in sure[np.argsort(-score[sure])][:200].tolist():
        i = keep[k]
        word = _ink_word(_ink_tint(rgb, c.pip[i], float(dist[k])), config)
        if word:
            seen = inks[int(np.argmax(ps[i, :4]))]
            seen[word] = seen.get(word, 0) + 1
    for suit, seen in enumerate(inks):
        judged = sum(seen.values())
        if judged >= config.ink_judged:
            word, most = max(seen.items(), key=lambda t: t[1])
            if most >= config.ink_doubt * judged and suit in _ink_rules_of(word):
                return False
    return True


def _ink_tint(rgb, pip, size):
    """How much the red, the green and the blue of the ink of the pip at ``pip`` (an index
    ``size`` pixels from pip to rank glyph) stand out from its other two channels, each
    relative to the paper's: the darkest pixels of a window round the pip against the
    window's paper. None where the window shows too little contrast to judge."""
    import numpy as np
    r = max(3, int(size * 0.35))
    x, y = round(float(pip[0])), round(float(pip[1]))
    win = rgb[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
    if win.size == 0:
        return None
    w = win.astype(np.float32)
    mn = w.min(2)
    ranked = np.sort(win.min(2).ravel(), kind="stable")[None]
    hi, lo = float(percentile_sorted(ranked, 95)[0]), float(ranked[0, 0])
    if hi - lo < 20:
        return None
    paper = w[mn > lo + 0.8 * (hi - lo)].mean(0) + 1
    red, green, blue = w[mn < lo + 0.4 * (hi - lo)].mean(0) / paper
    return red - max(green, blue), green - max(red, blue), blue - max(red, green)


def ink_suits(rgb, pip, size, *, config: ReadConfig = DEFAULT) -> tuple[str, set[int]]:
    """(the ink's colour in words, the suits it rules out) of the pip at ``pip`` of an index
    ``size`` pixels from pip to rank glyph: the darkest pixels of a window round the pip
    against the window's paper, so a tinted light or a photo's white balance cancels out.
    Red ink rules out spades and clubs; green ink (a four-colour deck's clubs) every other
    suit, and blue (its diamonds) likewise; grey or black ink hearts and diamonds.
    Ink too faint, or between those, to judge rules out nothing (``config.ink_red``,
    ``ink_tint``, ``ink_grey``)."""
    return _ink_rules(_ink_tint(rgb, pip, size), config)


def _ink_rules(tint, config) -> tuple[str, set[int]]:
    """:func:`ink_suits` from the ink's tint (:func:`_ink_tint`)."""
    word = _ink_word(tint, config)
    return word, _ink_rules_of(word)


def _ink_rules_of(word: str) -> set[int]:
    """The suits ink of this colour (:func:`_ink_word`) rules out."""
    return {"red": {SPADES, CLUBS}, "green": {SPADES, HEARTS, DIAMONDS},
            "blue": {SPADES, HEARTS, CLUBS}, "not red": {HEARTS, DIAMONDS}}.get(word, set())


def _ink_word(tint, config) -> str:
    """The ink's colour in words (:func:`ink_suits`) from its tint (:func:`_ink_tint`)."""
    if tint is None or not config.ink_rules:
        return ""
    rd, gd, bd = tint
    if rd > config.ink_red:
        return "red"
    if gd > config.ink_tint:
        return "green"
    if bd > config.ink_tint:
        return "blue"
    if rd < config.ink_grey and bd < config.ink_grey:
        return "not red"
    return ""


def joint_readings(a, b) -> list:
    """Two readings of one card (its two corners) combined as independent evidence: the
    product of their probabilities, normalised over the 52 cards (a card neither lists gets
    an even share of what its list leaves), best first as [(code, p), ...]."""
    pa = {a.code: a.confidence, **{c: p for c, p in a.alternatives if c != a.code}}
    pb = {b.code: b.confidence, **{c: p for c, p in b.alternatives if c != b.code}}
    fa = max(1e-4, (1 - sum(pa.values())) / (52 - len(pa)))
    fb = max(1e-4, (1 - sum(pb.values())) / (52 - len(pb)))
    raw = {c: pa.get(c, fa) * pb.get(c, fb) for c in set(pa) | set(pb)}
    total = sum(raw.values()) + (52 - len(raw)) * fa * fb
    return sorted(((c, p / total) for c, p in raw.items()), key=lambda t: -t[1])


def _unsure_twin(t, merged):
    """The other corner of the uncertain ``t``'s card among the single corners read so far,
    and the joint readings: a corner facing the other way, across the card from ``t`` (as
    far across as a card's width allows, not straight along a column), whose readings both
    list the best combined one, the best reading of one of them, which is then surer than
    either corner alone. The other corner may be read sure (a J♥ read 99 % at one corner and
    3♥ 57 %, J♥ 41 %, at the other is one J♥, not a J♥ and a 3♥). (None, None) if none. (Two
    corners read alike are merged as they are: the same glyph read twice is no independent
    evidence.)"""
    best = None
    for o in merged:
        if o.corners != 1 \
                or o.up[0] * t.up[0] + o.up[1] * t.up[1] >= -0.5 or not _diagonal(o, t):
            continue
        reads = joint_readings(o, t)
        code, p = reads[0]
        listed_a = code == o.code or any(c == code for c, _ in o.alternatives)
        listed_b = code == t.code or any(c == code for c, _ in t.alternatives)
        if listed_a and listed_b and code in (o.code, t.code) \
                and p > max(o.confidence, t.confidence):
            dist = math.hypot(o.x - t.x, o.y - t.y)
            if best is None or dist < best[0]:
                best = (dist, o, reads)
    return (best[1], best[2]) if best else (None, None)


def _twin_corners(merged, decks, up) -> list:
    """``merged`` with each copy too many read at one corner merged with its card's other
    corner where that was read as its twin in colour (:data:`_TWIN_SUIT`): a single corner
    facing the other way, across the card (:func:`_diagonal`; the nearest). The card's rank
    is as sure as the surer corner reads it; its suit is named by the two corners' suit odds
    together (each corner's product), as sure as that share. A card read 4♣ 99.8 % at one
    corner (♠ 0.16 %) and 4♠ 99.1 % at the other (♣ 0.85 %) is one 4♣ at 84 %, not a 4♣
    and a copy too many of the 4♠ read elsewhere. Where the odds together name the copy's
    suit, the card is still one, and :func:`_swap_twins` weighs it against the other copies
    (a K♣ read K♠ 99.98 % at one corner and K♣ 96 % at the other, the real K♠ read at both
    of its corners 99.995 %: one K♣, 99 %). The corners of one card read alike elsewhere are
    joined first, across the card before along a column (:func:`resolve`)."""
    from collections import Counter
    counts = Counter(t.code for t in merged)
    out = list(merged)
    for a in sorted(merged, key=lambda t: t.confidence):
        if a not in out or a.corners != 1 or counts[a.code] <= decks or a.suits is None:
            continue
        twin_code = _twin_of(a.code)
        s, ts = a.code // 13, twin_code // 13
        near = [b for b in out if b.code == twin_code and b.corners == 1 and b.suits is not None
                and b.up[0] * a.up[0] + b.up[1] * a.up[1] < -0.5 and _diagonal(b, a)]
        if not near:
            continue
        b = min(near, key=lambda o: math.hypot(o.x - a.x, o.y - a.y))
        suits = _joint_suits(a.suits, b.suits)
        if suits is None or a.suits[s] <= 0 or b.suits[ts] <= 0:
            continue
        # each corner's confidence is its rank's odds times its suit's
        rank_p = max(min(1.0, a.confidence / a.suits[s]), min(1.0, b.confidence / b.suits[ts]))
        reads = sorted([(twin_code, rank_p * suits[ts]), (a.code, rank_p * suits[s])],
                       key=lambda x: -x[1])
        out.remove(a)
        counts[a.code] -= 1
        counts[b.code] -= 1
        b.code, b.confidence = reads[0]
        b.alternatives = reads[1:] + [(c, q) for c, q in b.alternatives
                                      if c not in (twin_code, a.code)][:2]
        b.suits, b.corners = suits, 2
        counts[b.code] += 1
        _join_corners(b, a, up)
    return out


def _join_corners(card, corner, up) -> None:
    """``corner`` taken for ``card``'s other corner: the card's place is the more upright
    one's (``up``: the layout's), the other kept as ``other``."""
    if (corner.up[0] * up[0] + corner.up[1] * up[1]) > (card.up[0] * up[0] + card.up[1] * up[1]):
        card.other = (card.x, card.y, card.up)
        card.x, card.y, card.up = corner.x, corner.y, corner.up
    else:
        card.other = (corner.x, corner.y, corner.up)


def _diagonal(a, b) -> bool:
    """Whether two opposite corners lie as a card's two indices do: :func:`_same_card`, and
    across the card by 0.35 to 2 times the distance along it (the corners of cards cascaded
    in one column lie straight along it)."""
    if not _same_card(a, b):
        return False
    size = max(a.size, b.size)
    dx, dy = b.x - a.x, b.y - a.y
    along = -(dx * a.up[0] + dy * a.up[1]) / size
    across = abs(dx * a.up[1] - dy * a.up[0]) / size
    return 0.35 * along <= across <= 2.0 * along


def _same_card(a, b) -> bool:
    """Whether two opposite corners can be the two indices of one card: each lies "below"
    the other (against its up), 2.5 to 12 index sizes away along the card (a card is about
    as wide as that length)."""
    size = max(a.size, b.size)
    dx, dy = b.x - a.x, b.y - a.y
    along = -(dx * a.up[0] + dy * a.up[1]) / size
    across = abs(dx * a.up[1] - dy * a.up[0]) / size
    return 2.5 <= along <= 12.0 and across < 1.5 * along


def _name(code):
    """A card in a note (``10♥``): as the rest of the output writes it (the commands show
    notes through their display, letters under ``--ascii``)."""
    return code_text(code)

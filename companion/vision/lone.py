"""Indices found by where they should lie (:func:`_lone_pips`): a pip whose rank glyph is no
blob of its own, a glyph whose pip is none, a whole index run into one blob (:func:`_merged`),
each read only where the indices read surely near it say an index lies."""

from __future__ import annotations

import math

from .detect import (
    ACROSS,
    ALONG,
    CROP_H,
    CROP_W,
    crops,
    ink_and_paper,
    min_channel,
    runs,
    strips_painted,
)
from .detection import Detection, _sharpen
from .ink import _detection
from .resolve import _diagonal

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
    :func:`.resolve.resolve` merges with it (all of them without ``config.lone_twins``)."""
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

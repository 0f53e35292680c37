"""Index-corner candidates: ink blobs paired as (suit pip, rank glyph), cropped and described.

A card's index is a rank glyph with a suit pip under it. Cards overlap, so instead of card
outlines we look for these pairs: every dark or coloured blob on a lighter background is a
component; each component is tried as a pip with each nearby component as its rank glyph. The
direction pip -> rank is the card's "up", so every candidate is cropped upright at its own scale
(rotation and scale of the photo drop out; a 6 stays a 6) and described by a feature vector for
the classifier (:mod:`.model`). Most candidates are not indices; the classifier says "none".
"""

from __future__ import annotations

from dataclasses import dataclass

CROP_W, CROP_H = 32, 40
ALONG, ACROSS = 1.3, 1.0  # crop half-height / half-width, in pip-rank distances


@dataclass
class Candidates:
    pip: object      # (n, 2) pip centres (image pixels)
    rank: object     # (n, 2) rank glyph centres
    pip_id: object   # (n,) component index of the pip
    rank_id: object  # (n,) component index of the rank glyph
    features: object  # (n, F) float32
    comp_boxes: object  # (m, 4) x, y, w, h of every component
    peeled: object = None  # (m,) whether each component came free of a larger blob
    #                        (peeled off a strip of table, or a part of a blob too big)
    second: object = None  # (m,) whether each component is one side of a blob's waist
    #                        (see _waist_splits): for a second look only
    comp_cents: object = None  # (m, 2) every component's centre
    joined: object = None  # (m,) whether each component is fragments joined into one (see
    #                        _joined_fragments): an index using one is read only when sure
    crops: object = None   # (min-channel crops (n, CROP_H, CROP_W), RGB crops (n, CROP_H,
    #                        CROP_W, 3)): what the recognizer reads (see :func:`crops`)
    mn: object = None      # the photo's min(R, G, B) (:func:`min_channel`), for more crops


def min_channel(rgb):
    """min(R, G, B) per pixel (np.minimum is several times faster than ``min(axis=2)``)."""
    import numpy as np
    return np.minimum(np.minimum(rgb[..., 0], rgb[..., 1]), rgb[..., 2])


def ink_components(rgb, mn=None, waists: bool = False):
    """Stats of ink blobs (darker than their local paper): (m, 5) x, y, w, h, area; centres;
    and whether each was peeled off a strip of table (see below). With ``waists``, the two
    sides of each blob's waist too (:func:`_waist_splits`), and a fourth array saying which
    blobs those are."""
    import cv2
    import numpy as np
    if mn is None:
        mn = min_channel(rgb)
    h, w = mn.shape
    # local paper brightness: a max filter wider than any glyph, at quarter scale
    small = cv2.resize(mn, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    kk = max(5, int(max(h, w) / 4 / 120) | 1)
    bg = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (kk, kk)))
    bg = cv2.blur(bg, (kk, kk))
    bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    # how much darker than its paper (in uint8, 0 where lighter: every test below asks for
    # more than 0); ink: more than max(28, a quarter of the paper), on paper brighter than
    # 70 (the threshold 255 where it is not: no difference exceeds it)
    diff = cv2.subtract(bg, mn)
    v = np.arange(256)
    need = np.where(v > 70, np.maximum(v >> 2, 28), 255).astype(np.uint8)
    ink = (diff > cv2.LUT(bg, need)).view(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    side = max(h, w)
    huge = np.flatnonzero(np.maximum(stats[1:, 2], stats[1:, 3]) > side * 0.06) + 1
    peeled = np.zeros(n, bool)
    opened = None
    if len(huge):
        # a glyph printed close to the card's edge touches the strip of dark table along
        # that edge (darker than the paper next to it) and joins it in one blob too big for
        # an index: the blob's wide stretches (what an opening wider than a small glyph's
        # stroke keeps) are peeled off, freeing the glyph. What is left of such blobs is
        # marked: bits of a card back's pattern come free too, and two such bits are never
        # taken for an index (:func:`_pairs`)
        k = max(3, round(side / 250))
        # all of it within the blobs' box, with a margin wider than the openings' reach
        x0, y0 = stats[huge, 0].min() - k - 2, stats[huge, 1].min() - k - 2
        x1 = (stats[huge, 0] + stats[huge, 2]).max() + k + 2
        y1 = (stats[huge, 1] + stats[huge, 3]).max() + k + 2
        box = (slice(max(0, y0), min(h, y1)), slice(max(0, x0), min(w, x1)))
        blob = np.zeros((box[0].stop - box[0].start, box[1].stop - box[1].start), np.uint8)
        for i in huge.tolist():
            bx, by, bw, bh = stats[i, :4].tolist()
            at = (slice(by - box[0].start, by - box[0].start + bh),
                  slice(bx - box[1].start, bx - box[1].start + bw))
            blob[at] |= (labels[by:by + bh, bx:bx + bw] == i).view(np.uint8)
        wide = cv2.morphologyEx(blob, cv2.MORPH_OPEN,
                                cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        part = ink[box]
        part &= blob ^ 1
        # a light table makes a strip too thin for that opening, but paler than any ink:
        # within such blobs only what is darker than 0.4 of the paper is kept
        fifths = (v * 2 // 5).astype(np.uint8)
        dark = (diff[box] > cv2.LUT(bg[box], fifths)).view(np.uint8)
        part |= blob & dark & ~cv2.dilate(wide, np.ones((3, 3), np.uint8))
        # a solid pip touching the strip by a thin bridge stays in the opening, but apart
        # from the strip there: what of the opening is of a glyph's size is a blob of its
        # own (not ink added to the image, where it would join the blobs beside it)
        nw, _, ws, wc = cv2.connectedComponentsWithStats(wide, connectivity=8)
        small = np.flatnonzero(_glyph_like(ws[1:], side)) + 1 if nw > 1 else []
        opened = (ws[small] + (box[1].start, box[0].start, 0, 0, 0),
                  wc[small] + (box[1].start, box[0].start)) if len(small) else None
        n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
        peeled = np.bincount(labels[box][blob > 0], minlength=n) > 0
    # a rank glyph touching its pip (a tight index, blur) makes one blob of the two: where a
    # blob falls apart in two when eroded by a pixel, the two are blobs too (beside the whole);
    # one touching a thin dark line (another card's edge) makes a blob too big or too sparse
    # for an index: its parts after the erosion are blobs, taken as peeled (two such are
    # never an index)
    m, parts, pstats, pcents = cv2.connectedComponentsWithStats(
        cv2.erode(ink, np.ones((3, 3), np.uint8)), connectivity=8)
    if m > 1:
        # the blob each part lies in: the label under a pixel of the part, the first of its
        # top row (a look along one row per part; through the whole image where the parts
        # are so many that the loop would take longer)
        if m <= 8000:
            whole = np.empty(m - 1, labels.dtype)
            for j, (x, y, w_) in enumerate(pstats[1:, :3].tolist()):
                x += int(np.argmax(parts[y, x:x + w_] == j + 1))
                whole[j] = labels[y, x]
        else:
            flat = parts.ravel()
            at = np.flatnonzero(flat)[::-1]
            first = np.zeros(m, np.int64)
            first[flat[at]] = at
            whole = labels.ravel()[first[1:]]
        # two parts, each a fifth of the blob or more (not bits of a thin stroke)
        big = pstats[1:, 4] >= np.maximum(8, 0.2 * stats[whole, 4])
        split = big & (np.bincount(whole[big], minlength=n)[whole] == 2)
        huge = ~_glyph_like(stats[whole], side)
        split |= huge
        if split.any():
            grown = pstats[1:][split].copy()   # the part's box, as before the erosion
            grown[:, :2] -= 1
            grown[:, 2:4] += 2
            stats = np.vstack([stats, grown])
            cents = np.vstack([cents, pcents[1:][split]])
            peeled = np.concatenate([peeled, peeled[whole[split]] | huge[split]])
    waist = _waist_splits(labels, stats[:n], side) if waists else None
    got = _joined_fragments(ink, labels, stats[:n], cents[:n], side) \
        if waists and JOIN_FRAGMENTS else None
    # the blobs added beside the components, each group as (stats, centres, peeled, kind):
    # kind 1 the joined fragments, 2 the sides of a waist (the opened blobs are peeled)
    added = [(opened[0], opened[1], True, 0)] if opened is not None else []
    if got is not None:
        added.append((got[0], got[1], False, 1))
    if waist is not None:
        added.append((waist[0], waist[1], False, 2))
    kind = np.zeros(len(stats), np.int8)
    for s_, c_, p_, k_ in added:
        stats = np.vstack([stats, s_.astype(stats.dtype)])
        cents = np.vstack([cents, c_])
        peeled = np.concatenate([peeled, np.full(len(s_), p_)])
        kind = np.concatenate([kind, np.full(len(s_), k_, np.int8)])
    second, joined = kind == 2, kind == 1
    stats, cents, peeled, second, joined = stats[1:], cents[1:], peeled[1:], second[1:], joined[1:]
    keep = _glyph_like(stats, side)
    if waists:
        return stats[keep], cents[keep], peeled[keep], second[keep], joined[keep]
    return stats[keep], cents[keep], peeled[keep]


JOIN_FRAGMENTS = True
JOIN_MAX = 4
JOIN_WHOLE = 0.6


def _joined_fragments(ink, labels, stats, cents, side):
    """A rank glyph whose thin strokes broke apart (a light serif face, blur) is several small
    blobs: where blobs join when the ink is grown by a pixel (gaps of up to two pixels), two
    to JOIN_MAX of them, and what they join into is glyph-like, the union is a blob too
    (beside its parts): (stats, centres), or None. Not where two of the parts are each
    nearly as long as the union (JOIN_WHOLE): those are two glyphs side by side, such as the
    digits of a 10 (joined, read as a K)."""
    import cv2
    import numpy as np
    n = len(stats)
    if n < 3:
        return None
    grown = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    m, glab, gstats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    # the grown blob each blob lies in (any of its pixels: a blob lies in one)
    at = labels > 0
    whole = np.zeros(n, glab.dtype)
    whole[labels[at]] = glab[at]
    whole = whole[1:]
    count = np.bincount(whole, minlength=m)
    look = (count >= 2) & (count <= JOIN_MAX)
    look[0] = False
    if not look.any():
        return None
    g = gstats.copy()
    g[:, :2] += 1
    g[:, 2:4] -= 2
    keep = look & _glyph_like(np.maximum(g, 1), side)
    if not keep.any():
        return None
    ids = np.flatnonzero(keep)
    out_s, out_c = [], []
    for gi in ids.tolist():
        parts = np.flatnonzero(whole == gi) + 1
        ps = stats[parts]
        x0, y0 = ps[:, 0].min(), ps[:, 1].min()
        x1, y1 = (ps[:, 0] + ps[:, 2]).max(), (ps[:, 1] + ps[:, 3]).max()
        if (np.maximum(ps[:, 2], ps[:, 3]) >= JOIN_WHOLE * max(x1 - x0, y1 - y0)).sum() >= 2:
            continue  # two whole glyphs side by side ("10"'s digits, a glyph and its pip)
        area = ps[:, 4].sum()
        out_s.append((x0, y0, x1 - x0, y1 - y0, area))
        out_c.append((cents[parts] * ps[:, 4:5]).sum(0) / area)
    if not out_s:
        return None
    s = np.array(out_s, np.int64)
    ok = _glyph_like(s, side)
    if not ok.any():
        return None
    return s[ok], np.array(out_c, np.float64)[ok]


WAIST_LONG = 1.8   # a blob this many times as long as it is wide may be two glyphs joined
WAIST_NARROW = 0.5  # ... where it narrows to this part of its two halves' widest


def _waist_splits(labels, stats, side):
    """A rank glyph and its pip blurred together (a small index) make one long blob, which the
    erosion of a pixel does not part: where a glyph-like blob is WAIST_LONG times as long as it
    is wide (by its moments) and narrows near its middle to WAIST_NARROW of the widest on
    either side, the two sides of the waist are blobs too (beside the whole): (stats, centres)
    of those parts, or None."""
    import numpy as np
    if len(stats) < 2:
        return None
    bw, bh = stats[1:, 2], stats[1:, 3]
    big = np.maximum(bw, bh)
    look = np.flatnonzero(_glyph_like(stats[1:], side) & (big >= 12)) + 1
    out_s, out_c = [], []
    for i in look.tolist():
        x, y, w, h = stats[i, :4].tolist()
        mask = labels[y:y + h, x:x + w] == i
        ys, xs = np.nonzero(mask)
        if len(xs) < 24:
            continue
        mx, my = xs.mean(), ys.mean()
        dx, dy = xs - mx, ys - my
        cxx, cyy, cxy = (dx * dx).mean(), (dy * dy).mean(), (dx * dy).mean()
        tr, det = cxx + cyy, cxx * cyy - cxy * cxy
        disc = max(tr * tr / 4 - det, 0.0) ** 0.5
        l1, l2 = tr / 2 + disc, max(tr / 2 - disc, 1e-6)
        if l1 < WAIST_LONG ** 2 * l2:
            continue
        ang = 0.5 * np.arctan2(2 * cxy, cxx - cyy)
        t = dx * np.cos(ang) + dy * np.sin(ang)   # along the long axis
        lo, hi = t.min(), t.max()
        bins = max(8, int(hi - lo) + 1)
        prof = np.bincount(np.minimum(((t - lo) / (hi - lo + 1e-6) * bins).astype(int),
                                      bins - 1), minlength=bins)
        a, b = bins // 4, bins - bins // 4
        k = a + int(np.argmin(prof[a:b]))
        if prof[k] > WAIST_NARROW * min(prof[:k].max(), prof[k + 1:].max()):
            continue
        cut = lo + (k + 0.5) * (hi - lo) / bins
        parts = (t < cut, t >= cut)
        if min(int(part.sum()) for part in parts) < 12:
            continue
        for part in parts:
            px, py = xs[part], ys[part]
            x0, y0 = px.min(), py.min()
            out_s.append((x + x0, y + y0, px.max() - x0 + 1, py.max() - y0 + 1, len(px)))
            out_c.append((x + px.mean(), y + py.mean()))
    if not out_s:
        return None
    return np.array(out_s, np.int64), np.array(out_c, np.float64)


def _glyph_like(stats, side):
    """Which blobs (rows of x, y, w, h, area) could be a glyph or a pip of an index in a
    photo ``side`` pixels wide: not too small, too large or too sparse."""
    import numpy as np
    bw, bh, area = stats[:, 2], stats[:, 3], stats[:, 4]
    big = np.maximum(bw, bh)
    return ((big >= 6) & (big <= side * 0.06) & (area >= 12)
            & (area >= 0.15 * bw * bh) & (np.minimum(bw, bh) >= 2))


def _pairs(stats, cents, peeled=None):
    """(pip, rank glyph) component pairs close enough and alike enough in size to be an index;
    not two blobs both ``peeled`` off a strip of table (bits of a card back's border; None:
    every pair, where no back can lie in the photo. In a Gaps layout, the cards close
    together, a pip and its rank glyph can both touch the table between them)."""
    import numpy as np
    size = np.maximum(stats[:, 2], stats[:, 3]).astype(np.float32)
    n = len(size)
    if n < 2:
        return np.zeros(0, int), np.zeros(0, int)
    # a grid of cells about two sizes wide: each blob is tried with the blobs of its cell and
    # the eight around it, in a fixed order (the blobs by cell, the cells around each in
    # rows, the blobs of a cell by cell), all at once: each cell's blobs are a run of the
    # blobs sorted by cell, found by bisection
    cell = float(np.percentile(size, 90)) * 2.2 + 1
    keys = np.floor(cents / cell).astype(np.int64)
    order = np.lexsort((keys[:, 1], keys[:, 0]))
    wide = int(keys[:, 1].max()) + 3
    code = (keys[:, 0] + 1) * wide + (keys[:, 1] + 1)   # (a cell's row and column, as one)
    sorted_code = code[order]
    parts = []
    for k, (dx, dy) in enumerate((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
        want = sorted_code + dx * wide + dy
        lo = np.searchsorted(sorted_code, want, side="left")
        hi = np.searchsorted(sorted_code, want, side="right")
        at, j = runs(order, lo, hi)
        parts.append((order[at], j, at, k))
    i = np.concatenate([p[0] for p in parts])
    j = np.concatenate([p[1] for p in parts])
    first = np.concatenate([p[2] for p in parts])           # i's place in ``order``
    around = np.concatenate([np.full(len(p[0]), p[3]) for p in parts])
    place = np.empty(n, np.int64)
    place[order] = np.arange(n)
    at = np.lexsort((place[j], around, first))
    i, j = i[at], j[at]
    d = np.hypot(*(cents[j] - cents[i]).T)
    si, sj = size[i], size[j]
    big = np.maximum(si, sj)
    ok = ((j != i) & (d >= 0.45 * big) & (d <= 1.9 * big) & (si <= 1.7 * sj) & (si >= 0.35 * sj))
    if peeled is not None:
        ok &= ~(peeled[i] & peeled[j])
    return i[ok].astype(int), j[ok].astype(int)


def runs(order, lo, hi):
    """(owner, member): for each k, the run ``order[lo[k]:hi[k]]`` (empty where hi <= lo),
    all runs one after another, each member beside its k: the pairs a loop over the runs
    makes, in its order, without the loop (the blobs near a place, found among blobs sorted
    by one coordinate by bisection)."""
    import numpy as np
    count = np.maximum(hi - lo, 0)
    owner = np.repeat(np.arange(len(lo)), count)
    start = np.repeat(lo - (np.cumsum(count) - count), count)
    return owner, order[np.arange(int(count.sum())) + start]


def crops(rgb, mn, P, R, colour: bool = True):
    """Upright crops (n, CROP_H, CROP_W) of the min-channel image and (n, CROP_H, CROP_W, 3) RGB
    (without ``colour``, None for those: the min channel's alone)."""
    import cv2
    import numpy as np
    n = len(P)
    g = np.empty((n, CROP_H, CROP_W), np.uint8)
    c = np.empty((n, CROP_H, CROP_W, 3), np.uint8) if colour else None
    dst = np.float32([[0, 0], [CROP_W, 0], [0, CROP_H]])
    # each crop's three corners, all at once (the same arithmetic as one by one)
    P, R = np.asarray(P, np.float64).reshape(-1, 2), np.asarray(R, np.float64).reshape(-1, 2)
    d = np.hypot(*(R - P).T)[:, None]
    u = (R - P) / np.maximum(d, 1e-6)
    v = np.stack([-u[:, 1], u[:, 0]], 1)
    m = (P + R) / 2
    top = m + ALONG * d * u
    corners = np.stack([top - ACROSS * d * v, top + ACROSS * d * v,
                        m - ALONG * d * u - ACROSS * d * v], 1).astype(np.float32)
    for k in range(n):
        A = cv2.getAffineTransform(corners[k], dst)
        g[k] = cv2.warpAffine(mn, A, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
        if colour:
            c[k] = cv2.warpAffine(rgb, A, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
    return g, c


STRIP_LONG = 1.8
STRIP_CLEAR = 0.8
STRIP_WIDE = 0.4
GLYPH_NEAR = 0.45
GLYPH_SIZE = (0.3, 1.2)


def strips_painted(mn, rgb, p, r, d):
    """(mn, rgb, glyph) or None: a window of the photo (``mn``, ``rgb``) around an index
    guessed there (pip ``p``, rank glyph ``r``, ``d`` apart; window pixels) with the straight
    strips of table that cross it painted over with the paper (copies), and the centre of
    the glyph's blob that lies near ``r`` once they are. None where no strip is painted or
    no such blob is left.

    A glyph printed near the card's edge, in a layout whose cards lie close (Gaps), touches
    the thin strip of table between two cards and is one blob with it, which
    :func:`ink_components`' opening does not part (the strip is no wider than a stroke). A
    blob of ink longer than STRIP_LONG index sizes is taken for a strip where its thin
    pixels (the wide table it runs into left out) farther than STRIP_CLEAR index sizes
    from the pip and the glyph lie along one straight line (fitted to them), within a band
    no wider than STRIP_WIDE of an index: the band's ink is painted over, what lies beside
    it (the glyph) is kept. The glyph: the blob left nearest ``r``, within GLYPH_NEAR index
    sizes of it, its size (its box's longer side) within GLYPH_SIZE index sizes."""
    import cv2
    import numpy as np
    paper = float(np.percentile(mn, 90))
    if paper <= 70 or d < 4:
        return None
    dark = paper - max(28.0, paper / 4)
    ink = (mn < dark).view(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    long = np.flatnonzero(np.maximum(stats[1:, 2], stats[1:, 3]) >= STRIP_LONG * d) + 1
    if not len(long):
        return None
    ys, xs = np.mgrid[0:mn.shape[0], 0:mn.shape[1]]
    far = (np.hypot(xs - p[0], ys - p[1]) > STRIP_CLEAR * d) \
        & (np.hypot(xs - r[0], ys - r[1]) > STRIP_CLEAR * d)
    paint = np.zeros(mn.shape, bool)
    k = max(3, int(STRIP_WIDE * d) | 1)
    for i in long.tolist():
        blob = (labels == i).view(np.uint8)
        # (the wide table the strip runs into left out: only a strip is fitted)
        wide = cv2.dilate(cv2.morphologyEx(blob, cv2.MORPH_OPEN, np.ones((k, k), np.uint8)),
                          np.ones((3, 3), np.uint8)).view(bool)
        thin = blob.view(bool) & ~wide
        pts = np.column_stack(np.nonzero(thin & far)[::-1]).astype(np.float32)
        if len(pts) < 2 * d:
            continue
        vx, vy, cx, cy = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        res = np.abs((pts[:, 0] - cx) * vy - (pts[:, 1] - cy) * vx)
        half = float(np.percentile(res, 95)) + 1.0
        if half > STRIP_WIDE * d:
            continue  # not one straight strip (a crossing of two, a back's pattern)
        band = np.abs((xs - cx) * vy - (ys - cy) * vx) <= half + 0.5
        paint |= band & (mn < paper - 10) & ~wide
    if not paint.any():
        return None
    mn, rgb = mn.copy(), rgb.copy()
    clear = mn >= paper - 10
    mn[paint] = int(paper)
    rgb[paint] = np.median(rgb[clear], axis=0).astype(np.uint8) if clear.any() else int(paper)
    _, _, stats, cents = cv2.connectedComponentsWithStats((mn < dark).view(np.uint8),
                                                          connectivity=8)
    size = np.maximum(stats[1:, 2], stats[1:, 3])
    off = np.hypot(cents[1:, 0] - r[0], cents[1:, 1] - r[1])
    ok = np.flatnonzero((off <= GLYPH_NEAR * d) & (size >= GLYPH_SIZE[0] * d)
                        & (size <= GLYPH_SIZE[1] * d))
    if not len(ok):
        return None
    return mn, rgb, cents[1:][ok[np.argmin(off[ok])]]


def percentile_sorted(ranked, q, wide=False):
    """``np.percentile(rows, q, axis=1)`` of float32 rows of whole numbers (bytes), bit for
    bit, from the rows sorted (``ranked``, a radix sort): numpy's linear interpolation between
    the two nearest ranks without its selection per row. For a number ``q`` numpy works in
    float32 (the weight rounded to float32); ``wide``: as for a sequence of them, in float64."""
    import math

    import numpy as np
    n = ranked.shape[1]
    at = (n - 1) * (q / 100)
    i = math.floor(at)
    t = at - i
    a = ranked[:, i].astype(np.float32)
    b = ranked[:, min(i + 1, n - 1)].astype(np.float32)
    step = b - a
    if wide:
        a, b, step = a.astype(np.float64), b.astype(np.float64), step.astype(np.float64)
    if t >= 0.5:
        return b - step * (1 - t if wide else np.float32(1 - t))
    return a + step * (t if wide else np.float32(t))


def ink_and_paper(g, wide=False):
    """(lo, hi), each (n,): every crop's (rows of ``g``, bytes) 3rd and 97th percentiles,
    the darkest ink and the paper a crop's contrast is taken from: ``np.percentile`` of the
    crop as float32, bit for bit (:func:`percentile_sorted`; ``wide`` as for its ``q`` given
    as a sequence), from one radix sort of each crop's bytes (far faster than
    ``np.percentile``)."""
    import numpy as np
    ranked = np.sort(g.reshape(len(g), -1), axis=1, kind="stable")
    return percentile_sorted(ranked, 3, wide), percentile_sorted(ranked, 97, wide)


_HOG = None


def features(g, c):
    """Feature vectors: HOG of the normalised crop, a coarse thumbnail, and ink colour (rank
    half and pip half) relative to the paper: colour is evidence for the suit on its own."""
    import cv2
    import numpy as np
    global _HOG
    if _HOG is None:
        _HOG = cv2.HOGDescriptor((CROP_W, CROP_H), (16, 16), (8, 8), (8, 8), 9)
    n = len(g)
    if not n:
        return np.zeros((0, _HOG.getDescriptorSize() + 86), np.float32)
    gf = g.astype(np.float32)
    lo, hi = (v[:, None, None] for v in ink_and_paper(g))
    norm = np.clip((gf - lo) / np.maximum(hi - lo, 12), 0, 1)
    n8 = (norm * 255).astype(np.uint8)
    hog = np.array([_HOG.compute(x).ravel() for x in n8], np.float32).reshape(n, -1)
    # the crops stacked: INTER_AREA by a whole factor averages each 4x4 block of one crop only
    thumb = cv2.resize(norm.reshape(n * CROP_H, CROP_W), (8, 10 * n),
                       interpolation=cv2.INTER_AREA).reshape(n, 80)
    # the ink's and the paper's colours: sums of whole numbers below 2 ** 24, exact in
    # float32 in any order, so one product of masks and pixels gives the means exactly
    px = CROP_H * CROP_W
    half = CROP_H // 2 * CROP_W   # the rank half's pixels, then the pip half's
    cf = c.reshape(n, px, 3).astype(np.float32) + 1
    flat = norm.reshape(n, px)
    masks = np.zeros((n, 3, px), np.float32)
    masks[:, 0] = flat > 0.75
    masks[:, 1, :half] = flat[:, :half] < 0.45
    masks[:, 2, half:] = flat[:, half:] < 0.45
    sums = masks @ cf
    count = masks.sum(2)
    pm = np.where(count[:, :1] > 0, sums[:, 0] / np.maximum(count[:, :1], 1), np.float32(200))
    col = np.zeros((n, 6), np.float32)
    for j in (1, 2):
        m = sums[:, j] / np.maximum(count[:, j:j + 1], 1) / pm
        got = count[:, j] >= 3
        col[got, 3 * j - 3:3 * j] = np.stack([m[:, 0] - m[:, 1], m[:, 2] - m[:, 1],
                                               m[:, 0] - m[:, 2]], 1)[got]
    return np.concatenate([hog, thumb, col * 3], 1)


def candidates(rgb, waists: bool = True, describe: bool = True,
               backs: bool = True) -> Candidates:
    """The photo's candidate indices; with ``waists``, also those made of a blob's waist cut
    (see :func:`_waist_splits`; the model was trained without them). Each comes with its
    upright crops, and with ``describe`` its HOG feature row (:func:`features`) too.
    ``backs``: whether card backs may lie in the photo; where none can, two blobs both
    peeled off a strip of table make a candidate too (see :func:`_pairs`)."""
    import numpy as np
    mn = min_channel(rgb)
    got = ink_components(rgb, mn, waists=waists)
    stats, cents, peeled = got[:3]
    second, joined = got[3:] if waists else (None, None)
    # the blobs of joined fragments and waist cuts come last: the other pairs are made as
    # without them (the same pairs in the same order), and those using one are added after
    extra = second | joined if waists else None
    m0 = len(stats) - (int(extra.sum()) if extra is not None else 0)
    apart = peeled if backs else None
    pi, rj = _pairs(stats[:m0], cents[:m0], apart[:m0] if apart is not None else None)
    if m0 < len(stats):
        pi2, rj2 = _pairs(stats, cents, apart)
        cut = extra[pi2] | extra[rj2]
        pi, rj = np.concatenate([pi, pi2[cut]]), np.concatenate([rj, rj2[cut]])
    P, R = cents[pi].astype(np.float64), cents[rj].astype(np.float64)
    if len(pi):
        g, c = crops(rgb, mn, P, R)
    else:
        g = np.zeros((0, CROP_H, CROP_W), np.uint8)
        c = np.zeros((0, CROP_H, CROP_W, 3), np.uint8)
    F = features(g, c) if describe and len(pi) else np.zeros((0, 1), np.float32)
    return Candidates(P, R, pi, rj, F, stats[:, :4], peeled, second, cents, joined, (g, c),
                      mn)

"""Face-down cards counted from their backs.

In a cascaded column the cards dealt face down lie above the first face-up card, each showing a
strip of its back. Every card back has a light edge (the white margin printed around the back's
pattern, or the card's own edge) at the top of its strip, then the darker pattern. So, walking
up from the first face-up card's index along the layout's "up", past that card's own top edge,
the profile of brightness shows one light band per face-down card, evenly spaced, and then the
table. Distances are in index sizes (the pip-rank distance), so the count does not depend on
the photo's scale; the profile is the median across a narrow band, so a back's pattern lines
do not count as edges. The way up a column is the table's own, where the lines up all the
cards in the photo meet (a tilted camera turns it across the photo), not one index's "up"; the
paper is measured at the index, since the light across a photo is not even.
"""

from __future__ import annotations

from .detect import min_channel

STEP = 0.05          # profile resolution, in index sizes
REACH = 16.0         # how far up to look, in index sizes
HALF_WIDTH = 0.5     # half-width of the sampled band, in index sizes
START = 0.5          # the rank glyph's centre (index sizes from the index centre)
GAP = 1.8            # the most, in index sizes, between two backs' edges (further: the table)
GAP_STEP = 0.65      # ... or this times the face-up cards' spacing (backs dealt wide), when wider
GAP_RATIO = 1.3      # ... or this times the spacing of the edges seen so far, when wider,
GAP_MAX = 2.6        # up to this: small indices on cards cascaded wide
SPACED_RATIO = 1.6   # ... and at most this times the spacing of backs' edges seen
LIGHTER = 1.12       # past backs, a stretch this much brighter than the paper: the table
PIPS = 0.8           # past a long stretch, edges closer than this x the backs' spacing: pips
FIRST_PIPS = 0.5     # ... past more table than GAP, edges closer than this x that stretch
PAPER_LIGHT = 0.75   # the face-up card's paper, up to its top edge: this bright (x paper)
GLYPH_TOP = 0.85     # the face-up card's paper ends beyond this (index sizes from the index centre)
DARK_AFTER = 0.3     # ... followed by this long a darker stretch: a back's pattern or the table
TABLE_DARK = 0.5     # a stretch between edges this much darker than the first back's: the table
EVEN = 0.25          # backs' edges: each spacing within this share of their median
FACE_DIM = 0.5       # a face-up card above, its index not read: at least this bright (x paper)
FACE_VS_TABLE = 0.2  # ... and this much (x paper) brighter than beside the column
EDGE_LIGHT = 0.5     # a back's light edge: at least this bright (x paper)
PIP_REACH = 0.6      # paper measured from the index down to its pip (index sizes), no further
UP_OFF = 6.0         # degrees: indices whose "up" is further off the column's fit are left out
FACE_SIDE = 1.2      # index sizes beside the index where a hidden face's paper shows
FACE_PAPER = 0.5     # ... on at least this share of the face-up card's spacing
HIDDEN = 2           # face-up cards with unread indices looked past, at most
INWARD = 0.5         # index sizes the band moves from the index towards the card's middle


def profile(mn, det, reach: float = REACH, lateral: float = 0.0):
    """Brightness (min of R, G, B) along the card's up direction from ``det``'s index centre:
    one value per :data:`STEP` index sizes, the median across the band."""
    import cv2
    import numpy as np
    d = det.size
    ux, uy = det.up
    rx, ry = -uy, ux
    t = np.arange(0, reach, STEP, dtype=np.float32) * d
    s = (np.linspace(-HALF_WIDTH, HALF_WIDTH, 15, dtype=np.float32) + lateral) * d
    tt, ss = np.meshgrid(t, s, indexing="ij")
    mx = (det.x + tt * ux + ss * rx).astype(np.float32)
    my = (det.y + tt * uy + ss * ry).astype(np.float32)
    h, w = mn.shape
    inside = (mx >= 0) & (mx < w - 1) & (my >= 0) & (my < h - 1)
    vals = cv2.remap(mn, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    vals = vals.astype(np.float32)
    if inside.all():
        return np.median(vals, axis=1).astype(np.float32)
    vals[~inside] = np.nan
    out = np.full(len(t), np.nan, np.float32)
    rows = inside.any(axis=1)
    if rows.any():
        out[rows] = np.nanmedian(vals[rows], axis=1)
    return out


def _runs(mask):
    """[(value, start, length)] of a boolean sequence."""
    runs = []
    start = 0
    for k in range(1, len(mask) + 1):
        if k == len(mask) or mask[k] != mask[start]:
            runs.append((bool(mask[start]), start, k - start))
            start = k
    return runs


def count_from_profile(prof, paper: float, step: float | None = None) -> int | None:
    """Light bands (the top edges of card backs) above the face-up card's top edge, before the
    table: local maxima at least :data:`EDGE_LIGHT` as bright as the paper that stand out on
    both sides (below: down to the last edge; above: before the profile rises higher again,
    so a shoulder of the next edge is not one), none further from the last than
    :data:`GAP` index sizes, or :data:`GAP_STEP` times ``step`` (the face-up cards' spacing in
    a column, in index sizes) or :data:`GAP_RATIO` times the spacing of the edges already seen
    when that is wider (cards cascaded wide for their indices), up to :data:`GAP_MAX`, nor
    :data:`SPACED_RATIO` times the backs' own spacing (further is the table), no stretch
    between far darker than the first back's pattern (:data:`TABLE_DARK`), and no long light
    stretch between (another card's face), unless past evenly spaced edges (a light table);
    edges close together past a long stretch are a card's pips (:func:`_before_pips`).

    ``paper``: the brightness of the face-up card's paper. None when the profile cannot be
    read: no paper above the index, another card's face above it (a face-up card whose index
    was not read), or the photo ends before the stack does."""
    import numpy as np
    first = int(START / STEP)
    p = prof[first:]
    if len(p) < 3 or np.isnan(p[0]):
        return None
    p = np.convolve(np.nan_to_num(p, nan=-1.0), np.ones(3) / 3, mode="same")
    p[np.isnan(prof[first:])] = np.nan
    light = p > 0.85 * paper
    # the face-up card's own paper above its rank glyph (the first light run long enough,
    # ending beyond the glyph's top), up to the card's top edge: past a short dark stretch
    # (a gap in the glyph, a border line printed inside the card's edge), the paper goes on,
    # but not far (further, the line was the card's edge and the paper another card's face)
    edge = None
    for is_light, start, n in _runs(p > PAPER_LIGHT * paper):
        if START + start * STEP > 2.0:
            break
        if edge is None:
            if is_light and n >= 3 and START + (start + n) * STEP > GLYPH_TOP:
                edge = start + n
        elif is_light and START + (start + n) * STEP <= 2.0:
            edge = start + n
        elif is_light or n >= int(DARK_AFTER / STEP):
            break
    if edge is None:
        return None  # no paper above the index: not a readable column top
    near = int(0.6 / STEP)
    delta = max(12.0, 0.12 * paper)
    widest = max(GAP, min(GAP_MAX, GAP_STEP * (step or 0.0)))
    gap = int(widest / STEP)
    face = int(0.9 / STEP)         # paper-bright that long since the last edge: a face
    count, prev = 0, edge
    spaced = []                    # samples between successive edges (the first: the card's)
    k = edge + 1
    lit = dark = 0                 # paper-bright and dark samples since the last edge
    while k < len(p) - 1:
        if np.isnan(p[k]):
            return None if k - prev <= gap else _before_pips(spaced)  # left the photo
        lit += bool(p[k] > 0.93 * paper)
        dark += not light[k]
        if lit > face:
            # a card's face: past a stretch of table, the next row of the layout; right
            # above the card read, a face-up card whose index was not read; but past backs'
            # evenly spaced edges (not a face's index strip), a table as light as paper;
            # past backs' edges, a stretch brighter than any paper in this light: the table
            lighter = float(np.nanmedian(p[k - face:k + 1])) > LIGHTER * paper
            if _even(spaced) or (lighter and (count == 1 or (count and _even(spaced, 1.0)))):
                return count
            if dark > int(0.4 / STEP):
                return _before_pips(spaced)
            return None
        if k - prev > gap:
            return _before_pips(spaced)        # the table
        if p[k] >= p[k - 1] and p[k] > p[k + 1]:
            below = np.nanmin(p[max(prev, k - near):k + 1])
            above = p[k:k + near + 1]
            if np.isnan(above).any():
                return None
            higher = np.nonzero(above[1:] > p[k])[0]
            if len(higher):   # how far it falls before the profile rises above it again
                above = above[:higher[0] + 1]
            if (p[k] - below >= delta and p[k] - above.min() >= delta
                    and p[k] >= EDGE_LIGHT * paper):
                if k - prev > int(0.25 / STEP) or count == 0:
                    q = (k - prev) // 4
                    level = float(np.nanmedian(p[prev + q:k - q + 1]))
                    if count == 0:
                        pattern = level
                    elif level < TABLE_DARK * pattern:
                        return count   # below this edge the table, not a back's pattern
                    count += 1
                    spaced.append(k - prev)
                    if len(spaced) >= 2:  # evenly spaced edges: allow for their spacing
                        wide = GAP_RATIO * float(np.median(spaced))
                        gap = int(min(GAP_MAX, max(widest, wide * STEP)) / STEP)
                        # but not much more than between backs' edges (the first spacing,
                        # from the face-up card's top, is often shorter): further is the
                        # table, and past it the row above (its bottom edge, its pips)
                        gap = min(gap, int(SPACED_RATIO * float(np.median(spaced[1:]))))
                prev, lit, dark = k, 0, 0
        k += 1
    return _before_pips(spaced)


def _before_pips(spaced) -> int:
    """How many of the edges ``spaced`` samples apart are backs': all but those past a
    stretch much longer than the spacing before it (the table) that lie closer together
    than backs do (a card of the row above, its bottom edge and pips)."""
    import numpy as np
    if (len(spaced) >= 2 and spaced[0] > GAP / STEP
            and max(spaced[1:]) < FIRST_PIPS * spaced[0]):
        return 0   # past the card's top, more table than the usual gap, then pips
    for i in range(1, len(spaced) - 1):
        ref = float(np.median(spaced[:i]))
        if spaced[i] > 1.5 * ref and max(spaced[i + 1:]) < PIPS * ref:
            return i
    return len(spaced)


def _even(spaced, within: float = EVEN) -> bool:
    """Whether edges ``spaced`` samples apart (the first from the face-up card's top) are
    backs': past the first, one or more spacings, each within ``within`` of their median,
    and the first not much longer (it is often shorter: the card's top is not a light edge)."""
    if len(spaced) < 2:
        return False
    import numpy as np
    m = float(np.median(spaced[1:]))
    return spaced[0] <= 1.5 * m and all(abs(s - m) <= within * m for s in spaced[1:])


def paper_level(mn, det) -> float:
    """Brightness of the paper around an index (a high percentile of the index's band, from
    its pip to just above its rank glyph: further down the card the light may differ)."""
    from dataclasses import replace

    import numpy as np
    prof = profile(mn, det, reach=1.1)
    back = profile(mn, replace(det, up=(-det.up[0], -det.up[1])), reach=PIP_REACH)
    vals = np.concatenate([prof, back])
    vals = vals[~np.isnan(vals)]
    return float(np.percentile(vals, 90)) if len(vals) else 255.0


def count_backs(rgb, det, up=None, mn=None, dealt=None, step=None) -> int | None:
    """Face-down cards above the face-up card whose index is ``det`` (None: unreadable).

    ``up``: the column's direction when known better than from the one index
    (:func:`column_up`); ``mn``: its min(R, G, B)
    when already computed. ``dealt`` (the most face-down cards the pile can hold) and
    ``step`` (the spacing of face-up cards in a column, in index sizes): a count above
    ``dealt``, or none for a face right above, may come from a face-up card whose index was
    not read (its index strip looks like several backs' edges): counted again from where
    that card's index would be, one ``step`` further up, the count is kept when it fits. So
    is a count of 0 where what lies right above is not the table (:func:`not_table_above`:
    a picture card, or a face in shadow, taken for a stretch of table), when backs are
    counted from there."""
    from dataclasses import replace
    if mn is None:
        mn = min_channel(rgb)
    if up is not None:
        det = replace(det, up=tuple(up))
    lateral = INWARD * inward(mn, det)
    n = count_from_profile(profile(mn, det, lateral=lateral), paper_level(mn, det), step)
    if dealt is None or not step:
        return n
    none = n == 0 and not_table_above(mn, det, step, lateral)
    if not none and ((n is not None and n <= dealt) or not face_above(mn, det, step)):
        return n
    for k in range(1, HIDDEN + 1):
        shift = k * step * det.size
        there = replace(det, x=det.x + shift * det.up[0], y=det.y + shift * det.up[1])
        m = count_from_profile(profile(mn, there, lateral=lateral), paper_level(mn, there),
                               step)
        if m is not None and m <= dealt and (m or not none):
            return m
    return n


def vanishing(dets):
    """The point (homogeneous, in pixels) where the lines up the cards meet: the vanishing point
    of the table's "up" (at infinity, w = 0, for a camera not tilted that way). A least-squares
    fit over the indices' own "up"s, again without those far off the first fit (an index's
    "up" from its pip and rank glyph can be off by tens of degrees). None: too few indices."""
    import numpy as np
    # A 10's rank glyph is two blobs, and its index is read from its pip and either one: its
    # "up" may be off by 30 degrees. Left out where enough other indices remain.
    plain = [d for d in dets if d.code % 13 != 9]
    if len(plain) >= 4:
        dets = plain
    if len(dets) < 4:
        return None
    P = np.array([(d.x, d.y) for d in dets], np.float64)
    U = np.array([d.up for d in dets], np.float64)
    m = P.mean(0)
    scale = float(np.abs(P - m).max()) or 1.0
    Q = (P - m) / scale
    N = np.c_[-U[:, 1], U[:, 0]]                   # each line's normal
    L = np.c_[N, -(N * Q).sum(1)]                  # l . (vx, vy, w) = 0 through V
    keep = np.ones(len(L), bool)
    v = None
    for _ in range(3):
        _, _, vt = np.linalg.svd(L[keep])
        v = vt[-1]
        d = v[:2][None, :] - v[2] * Q             # direction from each index towards V
        d /= np.linalg.norm(d, axis=1, keepdims=True) + 1e-12
        off = np.abs(d[:, 0] * U[:, 1] - d[:, 1] * U[:, 0])   # sin of the angle
        new = off < max(np.sin(np.radians(UP_OFF)), 2.5 * float(np.median(off)))
        if new.sum() < 4 or (new == keep).all():
            break
        keep = new
    return v, m, scale


def up_at(vp, x, y, near):
    """The table's up at (x, y) in the photo, given :func:`vanishing`'s fit, signed like ``near``."""
    import math
    v, m, scale = vp
    qx, qy = (x - m[0]) / scale, (y - m[1]) / scale
    dx, dy = v[0] - v[2] * qx, v[1] - v[2] * qy
    n = math.hypot(dx, dy) or 1.0
    if dx * near[0] + dy * near[1] < 0:
        dx, dy = -dx, -dy
    return (dx / n, dy / n)


def column_up(pile, others, k: int = 6, vp=None):
    """The direction up a column: where the lines up all the cards meet (:func:`vanishing`,
    of ``others`` unless given as ``vp``), seen from the pile's first index; with too few
    indices for that, from the pile's lowest index to its first, when the pile has two or
    more spread along it, else the mean "up" of the ``k`` nearest indices."""
    import math
    first = pile[0]
    if vp is None:
        vp = vanishing(others)
    if vp is not None:
        near = sorted(others, key=lambda o: (o.x - first.x) ** 2 + (o.y - first.y) ** 2)[:k]
        sx = sum(o.up[0] for o in near) + first.up[0]
        sy = sum(o.up[1] for o in near) + first.up[1]
        return up_at(vp, first.x, first.y, (sx, sy))
    if len(pile) >= 2:
        last = pile[-1]
        dx, dy = first.x - last.x, first.y - last.y
        n = math.hypot(dx, dy)
        if n > 1.5 * first.size and dx * first.up[0] + dy * first.up[1] > 0.9 * n:
            return (dx / n, dy / n)
    near = sorted(others, key=lambda o: (o.x - first.x) ** 2 + (o.y - first.y) ** 2)[:k]
    sx = sum(o.up[0] for o in near) + first.up[0]
    sy = sum(o.up[1] for o in near) + first.up[1]
    n = math.hypot(sx, sy) or 1.0
    return (sx / n, sy / n)


def inward(mn, det) -> float:
    """Which way across the column the card's face lies from its index: +1 along the
    index's right (up turned a quarter clockwise in the photo), -1 the other way, 0 when
    both sides look alike. The side beside the rank glyph that shows the card's paper, not
    what lies past the card's edge. An index sits near the card's side: a band centred on it
    can slip off a column of backs that leans a little (cards dealt by hand)."""
    import numpy as np
    side = []
    for lateral in (-FACE_SIDE, FACE_SIDE):
        prof = profile(mn, det, reach=0.8, lateral=lateral)
        side.append(0.0 if np.isnan(prof).all() else float(np.nanmedian(prof)))
    if abs(side[1] - side[0]) < 0.1 * max(side):
        return 0.0
    return 1.0 if side[1] > side[0] else -1.0


def face_up_step(piles, names) -> float | None:
    """The spacing of face-up cards down a tableau column, in index sizes: the median distance
    between successive indices of the columns read (None: no column of two)."""
    import itertools
    import math
    import statistics
    gaps = []
    for name in names:
        pile = piles.get(name) or []
        if not (name.startswith("t") and name[1:].isdigit()):
            continue
        for a, b in itertools.pairwise(pile):
            gaps.append(math.hypot(a.x - b.x, a.y - b.y) / max(0.5 * (a.size + b.size), 1e-6))
    return statistics.median(gaps) if gaps else None


def _strip_above(mn, det, step: float, lateral: float):
    """The profile (:func:`profile`) ``lateral`` index sizes beside the index column, over
    the one face-up ``step`` right above the card whose index is ``det``."""
    return profile(mn, det, reach=step + 1.5, lateral=lateral)[int(1.5 / STEP):
                                                               int((step + 0.5) / STEP)]


def not_table_above(mn, det, step: float, lateral: float = 0.0) -> bool:
    """Whether something lighter than the table lies right above the card whose index is
    ``det``, one face-up ``step`` long: at least :data:`FACE_DIM` as bright as the paper, and
    :data:`FACE_VS_TABLE` (x paper) brighter than beside the column on one side or the other
    (past the card's edge: the table), so a picture card, or a face in shadow, whose index was
    not read: no backs were seen there, but they may lie further up."""
    import numpy as np
    paper = paper_level(mn, det)
    level = []
    for off in (lateral, -FACE_SIDE, FACE_SIDE):
        seg = _strip_above(mn, det, step, off)
        level.append(float(np.nanmedian(seg)) if len(seg) and not np.isnan(seg).all() else
                      float("nan"))
    if np.isnan(level).any():
        return False
    return level[0] >= FACE_DIM * paper and level[0] - min(level[1:]) >= FACE_VS_TABLE * paper


def face_above(mn, det, step: float) -> bool:
    """Whether a face-up card lies right above the one whose index is ``det`` (its index not
    read): beside the index column, on one side or the other (where the card's face lies
    depends on the deck's index corner), the strip one face-up ``step`` long above the card
    is mostly paper, where backs show their pattern."""
    import numpy as np
    paper = paper_level(mn, det)
    for lateral in (-FACE_SIDE, FACE_SIDE):
        seg = _strip_above(mn, det, step, lateral)
        if len(seg) and float(np.mean(seg > 0.8 * paper)) >= FACE_PAPER:
            return True
    return False

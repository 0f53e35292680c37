"""Face-down cards counted from their backs.

In a cascaded column the cards dealt face down lie above the first face-up card, each showing a
strip of its back. Every card back has a light edge (the white margin printed around the back's
pattern, or the card's own edge) at the top of its strip, then the darker pattern. So, walking
up from the first face-up card's index along the layout's "up", past that card's own top edge,
the profile of brightness shows one light band per face-down card, evenly spaced, and then the
table. Distances are in index sizes (the pip-rank distance), so the count does not depend on
the photo's scale; the profile is the median across a narrow band, so a back's pattern lines
do not count as edges.
"""

from __future__ import annotations

STEP = 0.05          # profile resolution, in index sizes
REACH = 16.0         # how far up to look, in index sizes
HALF_WIDTH = 0.5     # half-width of the sampled band, in index sizes
START = 0.5          # the rank glyph's centre (index sizes from the index centre)
GAP = 1.8            # the most, in index sizes, between two backs' edges (further: the table)
GAP_RATIO = 1.3      # ... or this times the spacing of the edges seen so far, when wider,
GAP_MAX = 2.6        # up to this: small indices on cards cascaded wide


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


def count_from_profile(prof, paper: float) -> int | None:
    """Light bands (the top edges of card backs) above the face-up card's top edge, before the
    table: local maxima that stand out on both sides, none further from the last than
    :data:`GAP` index sizes, or :data:`GAP_RATIO` times the spacing of the edges already seen
    when that is wider (cards cascaded wide for their indices), up to :data:`GAP_MAX`
    (further is the table), and no long light stretch between (another card's face).

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
    # ending beyond the glyph's top: the glyph may have light gaps), up to the card's top edge
    edge = None
    for is_light, start, n in _runs(light):
        if START + start * STEP > 2.0:
            break
        if is_light and n >= 3 and START + (start + n) * STEP > 1.0:
            edge = start + n
            break
    if edge is None:
        return None  # no paper above the index: not a readable column top
    near = int(0.6 / STEP)
    delta = max(12.0, 0.12 * paper)
    gap = int(GAP / STEP)
    face = int(0.9 / STEP)         # paper-bright that long since the last edge: a face
    count, prev = 0, edge
    spaced = []                    # samples between successive edges (the first: the card's)
    k = edge + 1
    lit = dark = 0                 # paper-bright and dark samples since the last edge
    while k < len(p) - 1:
        if np.isnan(p[k]):
            return None if k - prev <= gap else count  # left the photo inside the stack
        lit += bool(p[k] > 0.93 * paper)
        dark += not light[k]
        if lit > face:
            # a card's face: past a stretch of table, the next row of the layout; right
            # above the card read, a face-up card whose index was not read
            return count if dark > int(0.4 / STEP) else None
        if k - prev > gap:
            return count                       # the table
        if p[k] >= p[k - 1] and p[k] > p[k + 1]:
            below = np.nanmin(p[max(prev, k - near):k + 1])
            above = p[k:k + near + 1]
            if np.isnan(above).any():
                return None
            if p[k] - below >= delta and p[k] - above.min() >= delta:
                if k - prev > int(0.25 / STEP) or count == 0:
                    count += 1
                    spaced.append(k - prev)
                    if len(spaced) >= 2:  # evenly spaced edges: allow for their spacing
                        wide = GAP_RATIO * float(np.median(spaced))
                        gap = int(min(GAP_MAX, max(GAP, wide * STEP)) / STEP)
                prev, lit, dark = k, 0, 0
        k += 1
    return count


def paper_level(mn, det) -> float:
    """Brightness of the paper around an index (a high percentile of the index's band)."""
    from dataclasses import replace

    import numpy as np
    prof = profile(mn, det, reach=1.1)
    back = profile(mn, replace(det, up=(-det.up[0], -det.up[1])), reach=1.5)
    vals = np.concatenate([prof, back])
    vals = vals[~np.isnan(vals)]
    return float(np.percentile(vals, 90)) if len(vals) else 255.0


def count_backs(rgb, det, up=None, mn=None) -> int | None:
    """Face-down cards above the face-up card whose index is ``det`` (None: unreadable).

    ``up``: the column's direction when known better than from the one index (the line
    through the pile's indices, or the mean of its neighbours'); ``mn``: its min(R, G, B)
    when already computed."""
    from dataclasses import replace
    if mn is None:
        from .detect import min_channel
        mn = min_channel(rgb)
    if up is not None:
        det = replace(det, up=tuple(up))
    return count_from_profile(profile(mn, det), paper_level(mn, det))


def column_up(pile, others, k: int = 6):
    """The direction up a column: from the pile's lowest index to its first, when the pile
    has two or more spread along it, else the mean "up" of the ``k`` nearest indices."""
    import math
    first = pile[0]
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

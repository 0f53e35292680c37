"""Rows of fans read from a photo (the House games)."""

from __future__ import annotations

import itertools
import math
import statistics

from .frame import _clusters, _grid_columns, _put


def _along_fans(xs, ys):
    """The frame turned so that the fans run along x: a fan's cards are each other's nearest
    neighbours, so the direction between nearest neighbours (the closer half of them, taken
    modulo a half turn) is the fans' own. The photo's perspective, not wholly undone, can
    leave the rows leaning a little against the indices' up, and rows that lean merge into
    one. Within 30 degrees; else the frame as it is."""
    import numpy as np
    if len(xs) < 5:
        return xs, ys
    p = np.array([xs, ys], np.float64).T
    dist = np.hypot(*(p[None] - p[:, None]).transpose(2, 0, 1))
    np.fill_diagonal(dist, np.inf)
    j = dist.argmin(1)
    d = dist[np.arange(len(p)), j]
    v = p[j] - p
    a = (np.arctan2(v[:, 1], v[:, 0]) + math.pi / 2) % math.pi - math.pi / 2
    keep = (d > 0) & (d <= np.median(d))
    if not keep.any():
        return xs, ys
    t = float(np.median(a[keep]))
    if abs(t) > math.radians(30):
        return xs, ys
    c, s = math.cos(t), math.sin(t)
    return ([x * c + y * s for x, y in zip(xs, ys, strict=True)],
            [y * c - x * s for x, y in zip(xs, ys, strict=True)])


def _map_fans(out, upright, xs, ys, tabs, names, v):
    """Fans: rows of cards (clustered by height), split into fans where the step between
    neighbours is much wider than the fan's own; each fan's place in a grid of rows and
    columns (so an emptied fan leaves its number free) gives its pile. The bottom card lies at
    the end away from the card that shows both its corners (the top card, wholly in view);
    without that evidence, at the left. Fans are taken to spread to the right, as the player
    sees them."""
    xs, ys = _along_fans(xs, ys)
    rows = _clusters(ys, 2.5)
    fans = []             # (row centre y, [indices sorted by x])
    steps = []
    for row in rows:
        s = sorted(row, key=lambda i: xs[i])
        steps += [xs[b] - xs[a] for a, b in itertools.pairwise(s)]
    small = [st for st in steps if st <= 1.5 * min(steps)] if steps else []
    step = statistics.median(small) if small else 2.0
    for row in rows:
        s = sorted(row, key=lambda i: xs[i])
        cur = [s[0]]
        for a, b in itertools.pairwise(s):
            if xs[b] - xs[a] > max(2.5 * step, step + 2.0):
                fans.append(cur)
                cur = []
            cur.append(b)
        fans.append(cur)
    # which way the fans spread: the top card, wholly in view, shows both its corners
    vote = 0
    for f in fans:
        if len(f) > 1:
            vote += (upright[f[-1]].other is not None) - (upright[f[0]].other is not None)
    spread = -1 if vote < 0 else 1
    fans = [f if spread > 0 else f[::-1] for f in fans]
    starts = [xs[f[0]] for f in fans]
    cy = [sum(ys[i] for i in f) / len(f) for f in fans]
    # column pitch: the nearest fan starts in one row; row pitch: between row centres
    gaps_x = []
    for a, b in itertools.pairwise(range(len(fans))):
        if abs(cy[a] - cy[b]) < 2.5:
            gaps_x.append(abs(starts[b] - starts[a]))
    gaps_x = [g for g in gaps_x if g > 2.0]
    near = [g for g in gaps_x if g < 1.5 * min(gaps_x)] if gaps_x else []
    pitch = statistics.median(near) if near else 1.0
    rcy = sorted({round(sum(ys[i] for i in row) / len(row), 3) for row in rows})
    dys = [b - a for a, b in itertools.pairwise(rcy)]
    dy = statistics.median([d for d in dys if d < 1.5 * min(dys)]) if dys else 1.0
    # fans spread to the right as the player sees them: fans spreading left mean the layout
    # is read upside down, so t1 (top left for the player) is at the bottom right here
    ytop = rcy[0] if spread > 0 else rcy[-1]
    row_of = [round(abs(y - ytop) / dy) if dys else 0 for y in cy]
    column = {}
    if near:
        by_row: dict[int, list] = {}
        for k, r in enumerate(row_of):
            by_row.setdefault(r, []).append(k)
        column = _grid_columns([by_row[r] for r in sorted(by_row)], starts, pitch, len(tabs))
    ncol = max(column.values(), default=0) + 1
    placed = {}
    for k, f in enumerate(fans):
        c = column.get(k, 0)
        c = c if spread > 0 else ncol - 1 - c
        n = row_of[k] * ncol + c
        if n >= len(tabs) or n in placed:
            out.unplaced.extend(upright[i] for i in f)
            continue
        placed[n] = f
        for i in f:
            _put(out, tabs[n], upright[i], names)
    if len(fans) != len(tabs):
        out.problems.append(f"found {len(fans)} fans of cards; {v.name} deals {len(tabs)} "
                            f"(an emptied fan stays empty)")

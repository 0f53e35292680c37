"""Layouts in rows read from a photo: Gaps' grid and the Pyramid. Each card's place comes
from the whole layout's lattice (:func:`_lean_fit`), so a card or a whole row missed shifts
nothing."""

from __future__ import annotations

import itertools
import math
import statistics
from functools import partial

from .config import DEFAULT, ReadConfig
from .frame import _clusters, _corner_offset, _grid_columns, _pitch, _put, _upright_index_at
from .shape import GRID_ROWS

LEAN_TURNS = tuple(d for k in range(1, 21) for d in (k, -k))
"""Degrees the rows of a layout may still lean by after the photo is set upright, tried in
turn (by :func:`_lean_fit`) while cards are left over: the way up is taken from the indices, a
few degrees off, and a steep photo's perspective undone leaves an affine view, in which the
rows may lean well off square to the cards' up."""


def _lean_fit(xs, ys, places, gap):
    """A layout in rows (Gaps, the Pyramid) fitted to the cards at (xs, ys): rows found at
    the frame's angle, then, while cards are left over, at angles up to 20 degrees either
    side (rows that lean merge into one: :data:`LEAN_TURNS`), keeping the fit that places
    the most cards.
    ``places(rows, cy, dy, xs, pitch)`` fits one angle's rows: (place -> card, cards left
    over); ``gap``: the least step in height between two rows (index sizes). Returns the
    places, the cards left over and the number of rows found."""
    best = None
    for deg in (0,) + LEAN_TURNS:
        t = math.radians(deg)
        c, s = math.cos(t), math.sin(t)
        rx = [x * c - y * s for x, y in zip(xs, ys, strict=True)]
        ry = [x * s + y * c for x, y in zip(xs, ys, strict=True)]
        rows = _clusters(ry, gap)
        cy = [sum(ry[i] for i in row) / len(row) for row in rows]
        steps = [b - a for a, b in itertools.pairwise(cy)]
        dy = sorted(steps)[len(steps) // 2] if steps else 1.0
        pitch = _pitch(rx, rows) or 1.0
        placed, rest = places(rows, cy, dy, rx, pitch)
        if best is None or len(placed) > len(best[0]):
            best = (placed, rest, len(rows))
        if not best[1]:
            break
    return best


def _gaps_places(rows, cy, dy, xs, pitch, weak=None, grid=(4, 13)):
    """Gaps' ``grid`` (rows, columns: four rows of thirteen): (row 0-3, column 1-13) -> card,
    and the cards left over; columns numbered from the leftmost found (of any row). ``weak``
    (by index): how doubtful each card is (0 sure, higher later); a card takes a place only
    after the less doubtful of its row."""
    placed, rest = {}, []
    nrows, ncols = grid
    if len(rows) != nrows:
        return placed, [i for row in rows for i in row]
    column = _grid_columns(rows, xs, pitch, ncols)
    for r, row in enumerate(rows):
        for i in sorted(row, key=lambda i: int(weak[i]) if weak else 0):
            col = column[i] + 1
            if 1 <= col <= ncols and (r, col) not in placed:
                placed[(r, col)] = i
            else:
                rest.append(i)
    return placed, rest


def _lend_corners(dets, config) -> None:
    """Gaps' cards lie apart, both corners in view: a card read at one corner only is given
    its other corner (in place, on the rectified copies), where the cards read at both have
    theirs (the median offset, in the card's own frame), so that its reading does not
    depend on which way up the layout is taken; else one way would place the cards read at
    one corner, the other way not, and the fewer cards left over would choose the way
    instead of the photo's own up. The offset in pixels, or in each card's index size
    (``config.lend_in_pixels``)."""
    offs = []
    for d in dets:
        if d.other is not None:
            (ux, uy), dx, dy = d.up, d.other[0] - d.x, d.other[1] - d.y
            k = 1.0 if config.lend_in_pixels else d.size
            offs.append(((dy * ux - dx * uy) / k, (dx * ux + dy * uy) / k))
    if len(offs) < 3:
        return
    offset = statistics.median(o[0] for o in offs), statistics.median(o[1] for o in offs)
    for d in dets:
        if d.other is None:
            d.other = (*_upright_index_at(d, offset, d.up, config.lend_in_pixels),
                       (-d.up[0], -d.up[1]))


def _bottom_row_turned(out, placed, upright, xs, ys, dets, up, unit, config, nrows=7) -> None:
    """The Pyramid's bottom row shows its cards' lower corners too: a card read there alone
    (upside down, left over by the fit) takes the bottom row's place where its upright
    corner lies, by the deck's corner-to-corner offset and the lattice of the cards placed
    (fitted: column and row -> frame), when that place is free and the corner within a
    third of a step of it (the offset is the deck's median: the perspective is not wholly
    undone). The card moves from ``out.unplaced`` to ``upright`` and ``placed``."""
    import numpy as np
    turned = [d for d in out.unplaced if d.up[0] * up[0] + d.up[1] * up[1] < -0.5]
    offset = _corner_offset(dets, up) if turned else None
    if offset is None or len(placed) < 6:
        return
    lat = np.array([(c - r / 2, r, 1.0) for r, c in placed], np.float64)
    got = np.array([(xs[i], ys[i]) for i in placed.values()], np.float64)
    fit, *_ = np.linalg.lstsq(lat, got, rcond=None)   # (3, 2): column, row, origin
    A = fit[:2].T
    if abs(np.linalg.det(A)) < 1e-6:
        return
    Ainv = np.linalg.inv(A)
    ux, uy = up
    for u in turned:
        ex, ey = _upright_index_at(u, offset, up)
        f = np.array(((ex * -uy + ey * ux) / unit, -(ex * ux + ey * uy) / unit)) - fit[2]
        k, r = Ainv @ f
        c = k + r / 2
        rr, cc = round(r), round(c)
        last = nrows - 1
        if rr == last and 0 <= cc <= last and (last, cc) not in placed and \
                abs(r - rr) < config.bottom_row_near and abs(c - cc) < 0.35:
            placed[(last, cc)] = len(upright)
            upright.append(u)
            out.unplaced.remove(u)


def _pyramid_shear(rows, rel, first, xs) -> float:
    """How far each row's centre lies beside the row above's (least squares over the rows
    read whole, their number ``rel`` + ``first`` from the apex, 0 to 6), or 0 with fewer
    than three such rows: a whole row's centre is the apex column's place on it."""
    pts = [(r + first, sum(xs[i] for i in row) / len(row))
           for row, r in zip(rows, rel, strict=True) if len(row) == r + first + 1]
    if len(pts) < 3:
        return 0.0
    mr = sum(r for r, _ in pts) / len(pts)
    mx = sum(x for _, x in pts) / len(pts)
    den = sum((r - mr) ** 2 for r, _ in pts)
    return sum((r - mr) * (x - mx) for r, x in pts) / den if den else 0.0


def _pyramid_places(rows, cy, dy, xs, pitch, nrows=7, config: ReadConfig = DEFAULT):
    """(row, place in row) -> card, and the cards left over: the rows found are evenly spaced
    (``dy`` apart) and each card sits half a ``pitch`` to either side of the one above, so
    the fit that places the most cards is taken, over which row the first row found is
    (the apex, or a lower one when whole rows were missed), where the apex column is (a
    card missed shifts nothing) and whether the rows shear (``config.pyramid_shear``)."""
    rel = [round((c - cy[0]) / dy) if dy else k for k, c in enumerate(cy)]
    cards = [(i, r) for row, r in zip(rows, rel, strict=True) for i in row]
    best, best_score = {}, None
    for first in range(nrows):
        if rel[-1] + first > nrows - 1:
            break
        rs = [(i, r + first) for i, r in cards]
        for shear in {0.0, _pyramid_shear(rows, rel, first, xs)} if config.pyramid_shear \
                else {0.0}:
            at = {i: xs[i] - shear * r for i, r in rs}
            apexes = {round((at[i] - pitch * (c - r / 2)) / pitch * 4) / 4
                      for i, r in rs for c in range(r + 1)}
            for a in apexes:
                apex = a * pitch
                placed, off = {}, 0.0
                for i, r in rs:
                    f = (at[i] - apex) / pitch + r / 2
                    c = round(f)
                    if 0 <= c <= r and (r, c) not in placed:
                        placed[(r, c)] = i
                        off += abs(f - c)
                score = (len(placed), -off)
                if best_score is None or score > best_score:
                    best, best_score = placed, score
    used = set(best.values())
    return best, [i for i, _ in cards if i not in used]


def _map_grid(out, upright, xs, ys, dets, v, shape, names, config) -> None:
    """Gaps' grid: the cards placed in their rows and columns (``out``, in place)."""
    weak = None
    if config.place_sure_first:
        sure = {d.code for d in dets if not d.uncertain}
        weak = [2 if d.uncertain and d.confidence < config.threshold
                else 1 if config.copies_placed_last and d.uncertain and d.code in sure
                else 0
                for d in upright]
    grid_rows = shape.grid[0]
    placed, rest, nrows = _lean_fit(
        xs, ys, partial(_gaps_places, weak=weak, grid=shape.grid), gap=2.5)
    if nrows != grid_rows:
        out.problems.append(f"found {nrows} rows of cards; {v.name} has {grid_rows}")
    out.unplaced.extend(upright[i] for i in rest)
    for (r, col), i in sorted(placed.items()):
        _put(out, f"{GRID_ROWS[r]}{col}", upright[i], names)


def _map_pyramid(out, upright, xs, ys, dets, up, unit, v, shape, names, config) -> None:
    """The Pyramid's rows: the cards placed (``out``, in place)."""
    # rows are evenly spaced and each row's cards sit half a pitch to either side of the
    # apex column, so a card missed does not shift the others
    nrows = shape.pyramid
    placed, rest, _ = _lean_fit(
        xs, ys, partial(_pyramid_places, nrows=nrows, config=config), gap=1.8)
    out.unplaced.extend(upright[i] for i in rest)
    _bottom_row_turned(out, placed, upright, xs, ys, dets, up, unit, config, nrows)
    for r in range(nrows):
        got = sum(1 for (rr, _) in placed if rr == r)
        if got != r + 1:
            out.problems.append(f"row {r + 1} of the pyramid: read {got} of {r + 1} cards")
    for (r, c), i in sorted(placed.items()):
        _put(out, f"p{r * (r + 1) // 2 + c + 1}", upright[i], names)

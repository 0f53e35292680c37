"""The reading of a photo's piles (:class:`PileReading`) and the frame the layouts are read
in: coordinates in index sizes with the layout's up, clusters, lines fitted through the
cards, the columns' grid and a card's other corner. Shared by :mod:`.columns`, :mod:`.rows`
and :mod:`.fans`."""

from __future__ import annotations

import bisect
import itertools
import statistics
from dataclasses import dataclass, field


@dataclass
class PileReading:
    variant: str
    piles: dict                       # pile name -> list of Detection, bottom first
    problems: list = field(default_factory=list)
    unplaced: list = field(default_factory=list)
    position: object = None           # Position or None
    status: object = None
    face_down: dict = field(default_factory=dict)   # pile -> backs counted (None: not counted)
    room: int = 0                     # piles the columns could still shift right (t1 empty)
    as_dealt: list = field(default_factory=list)    # piles whose face-down cards are as dealt
    empty: list = field(default_factory=list)       # places taken for the deal's gaps (Gaps)
    aside: list = field(default_factory=list)       # ... and the cards the deal put aside


def _frame(dets, up, unit=None):
    """Coordinates with up = (0, -1): x right, y down, in units of the median index size."""
    if unit is None:
        unit = statistics.median(d.size for d in dets) if dets else 1.0
    ux, uy = up
    # right vector = (-uy, ux) for up in image coordinates (y down)
    rx, ry = -uy, ux
    return [((d.x * rx + d.y * ry) / unit, -(d.x * ux + d.y * uy) / unit) for d in dets]


def _clusters(values, gap):
    """Groups of indices of values split where consecutive sorted values differ by > gap."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    groups, cur = [], []
    for i in order:
        if cur and values[i] - values[cur[-1]] > gap:
            groups.append(cur)
            cur = []
        cur.append(i)
    if cur:
        groups.append(cur)
    return groups


def _put(out, name, det, names):
    if name not in names:
        out.unplaced.append(det)
        return
    out.piles.setdefault(name, []).append(det)


def _line_fit(pts):
    """(a, b) of the line y = a + b x through ``pts`` that most of them follow (Theil-Sen: the
    median slope between pairs, then the median intercept), so a few points far off it (a
    top-row column among the tableau's) do not move it; (a, 0) for fewer than two points."""
    if not pts:
        return (0.0, 0.0)
    slopes = [(y2 - y1) / (x2 - x1) for (x1, y1), (x2, y2) in itertools.combinations(pts, 2)
              if abs(x2 - x1) > 2.0]
    b = statistics.median(slopes) if slopes else 0.0
    return (statistics.median(y - b * x for x, y in pts), b)


def _at(line, x) -> float:
    return line[0] + line[1] * x


def _pitch(xs, rows):
    """The step between neighbours in a row of a layout in rows (Gaps, the Pyramid): the
    median of the steps near the median step (a missed card makes one step of two, a stray
    reading beside a card one too short to set the pitch)."""
    diffs = []
    for row in rows:
        s = sorted(xs[i] for i in row)
        diffs += [b - a for a, b in itertools.pairwise(s) if b - a > 2.0]
    if not diffs:
        return 0.0
    m = statistics.median(diffs)
    near = [d for d in diffs if 0.7 * m < d < 1.4 * m]
    return statistics.median(near or diffs)


def _column_numbers(centres, pitch, most: int) -> list[int]:
    """Each column's number (the first 0) from the steps between the columns' centres, left
    to right: a step of about two of its neighbours' is an empty column between. Each step is
    measured against the steps near it (two either side) that span one column by the photo's
    ``pitch``, not against that pitch: a perspective not wholly undone leaves the columns on
    one side further apart (up to twice as far in a steep photo). Where that numbers more
    columns than the game's ``most``, the pitch was one short step (a false reading beside a
    column): the median step is tried instead."""
    steps = [b - a for a, b in itertools.pairwise(centres)]

    def numbered(pitch):
        numbers = [0]
        for k, st in enumerate(steps):
            # the step and its neighbours that span one column, as the pitch says
            one = [steps[j] for j in range(max(0, k - 2), min(len(steps), k + 3))
                   if 0.6 * pitch <= steps[j] <= 1.5 * pitch]
            numbers.append(numbers[-1] + round(st / statistics.median(one or [pitch])))
        return numbers
    numbers = numbered(pitch)
    wide = [st for st in steps if st > 4.0]
    if numbers[-1] >= most and wide:
        other = numbered(statistics.median(wide))
        if other[-1] < numbers[-1]:
            return other
    return numbers


class _Grid:
    """Where the tableau's columns lie across the frame: a column's number at any x, from
    the columns found (their centres and numbers; a photo's perspective, not wholly undone,
    can leave the columns further apart on one side), and past either end, the step there
    (``pitch`` with one column)."""
    def __init__(self, centres, numbers, pitch):
        self.marks = []
        for cx, c in zip(centres, numbers, strict=True):
            if not self.marks or c > self.marks[-1][1]:
                self.marks.append((cx, c))
        ends = (self.marks[:2], self.marks[-2:])
        self.steps = [(m[1][0] - m[0][0]) / (m[1][1] - m[0][1]) if len(m) == 2 else pitch
                      for m in ends]

    def column(self, x) -> float:
        (a, i), (b, j) = self.marks[0], self.marks[-1]
        if x <= a:
            return i + (x - a) / self.steps[0]
        if x >= b:
            return j + (x - b) / self.steps[1]
        for (a, i), (b, j) in itertools.pairwise(self.marks):
            if x <= b:
                return i + (j - i) * (x - a) / (b - a)
        return j   # not reached


def _grid_columns(rows, xs, pitch, most) -> dict:
    """Item -> its column's number (the leftmost found 0), for items in ``rows`` (lists of
    indices into ``xs``) lying on a grid of columns about ``pitch`` apart. The columns need
    not stand square to the rows (the perspective undone leaves an affine view, which may
    shear; a hand-dealt layout drifts): each row is slid by the median offset (less than
    half a pitch) between its items and their nearest in the row above. The items of all rows are then
    grouped where they line up, and the groups numbered by the steps between them (a
    perspective not wholly undone spreads the columns on one side; see
    :func:`_column_numbers`, ``most`` columns at most)."""
    slide = [0.0]
    for above, row in itertools.pairwise(rows):
        ref = sorted(xs[i] for i in above)
        offs = []
        for i in row:
            k = bisect.bisect_left(ref, xs[i])
            near = min(ref[max(0, k - 1):k + 1], key=lambda x: abs(x - xs[i]))
            if abs(xs[i] - near) < 0.5 * pitch:
                offs.append(xs[i] - near)
        slide.append(slide[-1] + (statistics.median(offs) if offs else 0.0))
    at = {i: xs[i] - slide[r] for r, row in enumerate(rows) for i in row}
    items = list(at)
    groups = [[items[k] for k in g] for g in _clusters([at[i] for i in items], 0.45 * pitch)]
    centres = [sum(at[i] for i in g) / len(g) for g in groups]
    numbers = _column_numbers(centres, pitch, most)
    return {i: n for g, n in zip(groups, numbers, strict=True) for i in g}


def _upright_index_at(u, offset, up, pixels=True):
    """Where the upright index of the card whose upside-down index ``u`` was read lies
    (working pixels), from this deck's corner-to-corner ``offset`` (:func:`_corner_offset`;
    ``pixels``: whether it is in pixels, else in index sizes)."""
    ox, oy = offset
    rx, ry = -up[1], up[0]
    k = 1.0 if pixels else u.size
    return (u.x + (ox * rx + oy * up[0]) * k, u.y + (ox * ry + oy * up[1]) * k)


def _corner_offset(dets, up):
    """Where a card's upright index lies from its other one in this deck and photo, (right,
    up) in pixels, the median over the cards (turned to ``up``) whose two corners were
    both read; None for fewer than two such cards. In pixels, not in each card's own index
    size: that size (pip to rank glyph) grows with the rank glyph's width where the two lie
    side by side (a Q's index a third larger than a 2's); the card's does not."""
    rx, ry = -up[1], up[0]
    offs = []
    for d in dets:
        if d.other is None:
            continue
        if abs(d.other[0] - d.x) + abs(d.other[1] - d.y) > 1e-6:
            fx, fy = d.other[:2]
        else:
            src = getattr(d, "_src", d)
            fx, fy = src.x, src.y
        dx, dy = d.x - fx, d.y - fy
        offs.append((dx * rx + dy * ry, dx * up[0] + dy * up[1]))
    if len(offs) < 2:
        return None
    return statistics.median(o[0] for o in offs), statistics.median(o[1] for o in offs)

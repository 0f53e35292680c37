"""With a variant: the detections grouped into piles, and a candidate position checked by the
rules engine.

The photo is turned so that the layout's "up" points up; distances are measured in index sizes
(the pip-rank distance), so the grouping does not depend on the photo's scale. Which layout
to read is the variant's table shape (:mod:`.shape`, from its pieces, never its name):
cascaded columns (the games whose tableau piles are t1...tN, with a top row of stock, waste
and foundations where one lies above them, as in Klondike), a grid's rows (Gaps), a
pyramid's rows, rows of fans (the House games), columns with the waste below (Golf).
Face-down cards in a column are counted from their backs (:mod:`.backs`) when the photo is
given, checked against the deal (a pile never holds more face-down cards than were dealt
there); where they cannot be counted they are taken as dealt, and the reading says so.

This module reads both ways up (:func:`map_piles`); the layouts are grouped in
:mod:`.columns`, :mod:`.rows` and :mod:`.fans`, face-down cards counted in :mod:`.face_down`,
uncertain cards named in :mod:`.infer` and :mod:`.second_look`, and the position built in
:mod:`.candidate`. Their public names are importable from here too.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import replace

from ..rules import deal, load_variant
from .candidate import build_position
from .columns import _map_columns
from .config import DEFAULT, ReadConfig
from .detect import min_channel
from .face_down import count_face_down, deals_face_down, face_down_as_built, tabs_with_backs
from .fans import _map_fans
from .frame import PileReading, _frame
from .infer import (
    infer_by_elimination,
    infer_from_build,
    infer_from_foundations,
    inferred_text,
    recheck_builds,
    runs_are_builds,
)
from .resolve import dominant_up
from .rows import _lend_corners, _map_grid, _map_pyramid
from .second_look import fill_gaps, find_unread
from .shape import GRID_ROWS, table_shape

# the names callers use, from the modules that hold them
__all__ = [
    "PileReading", "angle_deg", "build_position", "count_face_down", "deals_face_down",
    "face_down_as_built", "fill_gaps", "find_unread", "infer_by_elimination",
    "infer_from_build", "infer_from_foundations", "inferred_text", "map_piles", "recheck_builds",
    "rectify", "runs_are_builds", "tabs_with_backs",
]


def map_piles(dets, variant_key: str, rgb=None, flip: bool | None = None,
              infer: bool = True, *, config: ReadConfig = DEFAULT) -> PileReading:
    """The detections grouped into the variant's piles; ``rgb`` (the working image the
    detections were read in) lets face-down cards be counted from their backs.

    The photo's perspective is undone first (:func:`rectify`); the layout is then read both
    ways up (a card whose two corners both show does not say which is its top) and the
    reading with fewer problems and fewer cards left out is kept; then the one with more
    card backs above its columns; then the one closer to the photo's own up (a layout that
    reads the same both ways, like Gaps, is taken as photographed from the player's side).
    ``flip``: force the way (False: the indices' majority up, True: the other). ``infer``:
    resolve uncertain cards from the rules where only one reading fits (the build, the
    foundations, Gaps' rows: :func:`infer_from_build` and the others; they change those
    detections in place), and look again for cards the rows must hold (:func:`find_unread`,
    which adds them to ``dets``). ``config``: the reading's thresholds and switches
    (:class:`~companion.vision.config.ReadConfig`)."""
    v = load_variant(variant_key)
    shape = table_shape(v)
    if infer:
        find_unread(dets, v, config=config)
    flat = rectify(dets)
    if _spread(flat) < 0.5 * _spread(dets) or _spread(flat) > 2 * _spread(dets):
        # a perspective fit gone wrong: the photo as it is
        flat = [replace(d) for d in dets]
    # a grid of face-up cards (Gaps) looks the same turned round (every card shows both
    # corners): each card read at one corner is given its other, and the photo's own up
    # names the way
    both_ways = shape.both_ways
    if both_ways:
        _lend_corners(flat, config)
    up = dominant_up(flat)
    up0 = dominant_up(dets)
    mn = None
    if rgb is not None:
        mn = min_channel(rgb)
    best = None
    signs = (1, -1) if flip is None else ((-1,) if flip else (1,))
    backs = rgb is not None and tabs_with_backs(v)
    for sign in signs:
        way = (sign * up[0], sign * up[1])
        turned = [_turned(d, way) for d in flat]
        first = _map(turned, way, v, config)
        # fewer columns than piles (t1 emptied, or not read): the columns may start further
        # right; the top row's places and the face-down counts say where
        for shift in range(first.room + 1):
            out = first if not shift else _map(turned, way, v, config, shift)
            score = [len(out.problems) + len(out.unplaced), 0, sign * up0[1], 0, shift]
            if both_ways:
                # the reading whose row a lies nearer the photo's top edge (where a photo
                # turned a quarter round leaves the indices' own up no guide)
                lower = _first_row_lower(_in_photo(out, flat, dets), shape) \
                    if config.rows_by_place else None
                score[0], score[2] = score[2] if lower is None else lower, score[0]
            if backs:
                # backs lie above a column's first face-up card: tells the way up when the
                # corners cannot (every card with both corners showing); counted in the
                # photo, on the detections as read there
                img_way = (sign * up0[0], sign * up0[1])
                seen = _in_photo(out, flat, dets)
                count_face_down(seen, v, rgb, img_way, problems=False, mn=mn)
                n = sum(n or 0 for n in seen.face_down.values())
                score[1] = -n
                score[3] = _over_dealt(seen, v)   # a count can be one too many: last
                # and they outweigh a card or two left over: read the wrong way up, a
                # layout shows none above its columns
                score[0] -= n // config.backs_per_card
            if best is None or score < best[0]:
                best = (score, out, sign)
    out, sign = _in_photo(best[1], flat, dets), best[2]
    way = (sign * up0[0], sign * up0[1])
    if rgb is not None:
        count_face_down(out, v, rgb, way, mn=mn)
    if infer:
        recheck_builds(out, dets, v, config=config)
        infer_from_build(out, dets, v, config=config)
        fill_gaps(out, dets, v, config=config)
        infer_from_foundations(out, dets, v, config=config)
        infer_by_elimination(out, v, dets)
    build_position(out, v)
    return out


def rectify(dets):
    """Copies of the detections with the perspective of the photo undone, up to an affine map.

    Under perspective the size of an index varies across the photo: with the table-to-photo
    homography's denominator 1 + g.p, an index's size goes as (1 + g.p)^1.5. A least-squares
    fit of size^(2/3) over the indices gives g; p -> p / (1 + g.p) then leaves an affine view
    of the table, where columns are parallel and evenly spaced."""
    import numpy as np
    if len(dets) < 8:
        return [replace(d) for d in dets]
    P = np.array([(d.x, d.y) for d in dets], np.float64)
    m = P.mean(0)
    scale = float(np.abs(P - m).max()) or 1.0
    Q = (P - m) / scale
    z = np.array([d.size for d in dets], np.float64) ** (2 / 3)
    A = np.c_[np.ones(len(Q)), Q]
    keep = np.ones(len(Q), bool)
    coef = None
    for _ in range(3):
        coef, *_ = np.linalg.lstsq(A[keep], z[keep], rcond=None)
        res = np.abs(A @ coef - z) / np.maximum(z, 1e-6)
        keep = res < max(0.08, float(np.percentile(res, 80)))
        if keep.sum() < 6:
            return [replace(d) for d in dets]
    if coef is None or coef[0] <= 0:
        return [replace(d) for d in dets]
    g = coef[1:] / coef[0]
    den = 1 + Q @ g
    if den.min() < 0.3:
        return [replace(d) for d in dets]

    def h(q):
        return q / (1 + q @ g)

    out = []
    for d, q in zip(dets, Q, strict=True):
        a = h(q)
        tip = h(q + np.array(d.up) * d.size / scale)
        vec = (tip - a) * scale
        n = float(np.hypot(*vec)) or 1.0
        other = d.other
        if other is not None:
            qo = (np.array(other[:2]) - m) / scale
            ao = h(qo) * scale
            to = h(qo + np.array(other[2]) * d.size / scale) * scale - ao
            no = float(np.hypot(*to)) or 1.0
            other = (float(ao[0]), float(ao[1]), (float(to[0] / no), float(to[1] / no)))
        out.append(replace(d, x=float(a[0] * scale), y=float(a[1] * scale),
                           up=(float(vec[0] / n), float(vec[1] / n)), size=n, other=other))
    return out


def _spread(dets) -> float:
    """The layout's extent in index sizes."""
    if len(dets) < 2:
        return 1.0
    xs, ys = [d.x for d in dets], [d.y for d in dets]
    unit = statistics.median(d.size for d in dets) or 1.0
    return max(max(xs) - min(xs), max(ys) - min(ys)) / unit


def _turned(d, way):
    """``d`` as seen with the layout's up = ``way``: a card whose two corners were read is
    placed at the corner that is upright that way."""
    if d.other is not None and d.up[0] * way[0] + d.up[1] * way[1] < 0:
        x, y, up = d.other
        t = replace(d, x=x, y=y, up=up)
    else:
        t = replace(d)
    t._src = getattr(d, "_src", d)
    return t


def _first_row_lower(out: PileReading, shape) -> float | None:
    """How much lower in the photo the first row's cards lie than the last row's (mean
    pixels; rows named by their piles' first letter, a to d in Gaps), or None with either
    empty."""
    rows: dict[str, list[float]] = {}
    for name, ds in out.piles.items():
        rows.setdefault(name[0], []).extend(d.y for d in ds)
    first, last = rows.get("a"), rows.get(GRID_ROWS[shape.grid[0] - 1])
    if not first or not last:
        return None
    return sum(first) / len(first) - sum(last) / len(last)


def _in_photo(out: PileReading, flat, dets) -> PileReading:
    """A copy of ``out`` (read on the rectified copies ``flat``) holding the detections as
    read in the photo, ``dets``."""
    orig = {id(f): d for f, d in zip(flat, dets, strict=True)}
    return replace(out, piles={name: [orig[id(getattr(d, "_src", d))] for d in ds]
                               for name, ds in out.piles.items()},
                   unplaced=[orig[id(getattr(d, "_src", d))] for d in out.unplaced],
                   problems=list(out.problems), face_down={})


def _over_dealt(out: PileReading, v) -> int:
    """How many piles have more face-down cards counted than the variant deals there."""
    t = deal(v.key, None)
    dealt = dict(zip(t.engine.names, t.down, strict=True))
    return sum(1 for name, n in out.face_down.items() if n is not None and n > dealt.get(name, 0))


def _map(dets, up, v, config, shift: int = 0) -> PileReading:
    """The grouping itself, on rectified detections, for one way up; ``shift``: the columns
    (and the top row above them) start that many piles to the right (t1 empty or unread).
    ``room`` in the result: how many piles the columns found could still shift right."""
    names = v.engine().names
    shape = table_shape(v)
    # cards whose "up" disagrees with the layout (bottom corners of top cards) carry no order
    upright = [d for d in dets if d.up[0] * up[0] + d.up[1] * up[1] > 0.5]
    ids = {id(d) for d in upright}
    out = PileReading(v.key, {}, unplaced=[d for d in dets if id(d) not in ids])
    if not upright:
        out.problems.append("no upright card index found")
        return out
    unit = statistics.median(d.size for d in upright)
    xy = _frame(upright, up, unit)
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    tabs = [n for n in names if n.startswith("t") and n[1:].isdigit()]
    if shape.grid:
        _map_grid(out, upright, xs, ys, dets, v, shape, names, config)
    elif shape.pyramid:
        _map_pyramid(out, upright, xs, ys, dets, up, unit, v, shape, names, config)
    elif shape.fans:
        _map_fans(out, upright, xs, ys, tabs, names, v)
    elif tabs:   # columns (and the layouts not read otherwise yet: wings, squared piles)
        _map_columns(out, upright, xs, ys, dets, up, unit, v, shape, tabs, names, config, shift)
    else:
        out.problems.append(f"piles of {v.name} are not mapped from photos yet; cards only")
        out.unplaced.extend(upright)
    return out


def angle_deg(up) -> float:
    return math.degrees(math.atan2(up[0], -up[1]))

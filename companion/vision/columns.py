"""Cascaded columns read from a photo (Klondike and the like): the tableau's columns, the
top row above them (stock, waste, foundations), Golf's waste below, and cards seen only by
their upside-down index."""

from __future__ import annotations

import itertools
import math
import statistics
from dataclasses import replace

from .frame import (
    _at,
    _clusters,
    _column_numbers,
    _corner_offset,
    _frame,
    _Grid,
    _line_fit,
    _put,
    _upright_index_at,
)


def _foundation_seen_turned(u, offset, up, unit, grid, shift, shape) -> bool:
    """Whether an upside-down index read in the top row belongs to a card whose upright index
    lies over a foundation's column: that card lies on a foundation, not in the waste's fan
    (which spreads from its own column, short of the foundations)."""
    if offset is None or grid is None:
        return False
    ex, ey = _upright_index_at(u, offset, up)
    fx = (ex * -up[1] + ey * up[0]) / unit
    target = shape.top_pile(math.floor(grid.column(fx) + 0.3) + shift)
    return bool(target) and target.startswith("f")


def _place_flipped(out, offset, up, unit, grid, shift, head_line, tabs, names, shape, config):
    """Cards read only by their upside-down index (the upright one covered, or not read): the
    cards whose two corners were both read show where a card's upright index lies from its
    other one in this deck and photo (``offset``, :func:`.frame._corner_offset`); a lone upside-down
    index placed there that falls on a column's top card or an empty foundation, where no card
    was read, is put in that pile; those that fall on the waste, where no card of the fan was
    read upright, make its fan, in order (the top of the waste whose upright index is out of
    the photo's reach is read by its other corner alone)."""
    rx, ry = -up[1], up[0]
    if offset is None or grid is None:
        return

    def frame(x, y):
        return (x * rx + y * ry) / unit, -(x * up[0] + y * up[1]) / unit

    def place(u, ex, ey, target):
        out.unplaced.remove(u)
        t = replace(u, x=ex, y=ey, up=up)
        t._src = getattr(u, "_src", u)
        _put(out, target, t, names)

    fan = []
    for u in [d for d in out.unplaced if d.other is None and not d.uncertain
              and d.up[0] * up[0] + d.up[1] * up[1] < -0.5]:
        ex, ey = _upright_index_at(u, offset, up)
        fx, fy = frame(ex, ey)
        if fy < _at(head_line, fx) - 3.0:   # the top row: an empty foundation
            target = shape.top_pile(math.floor(grid.column(fx) + 0.3) + shift)
            if config.flipped_fan and target == "w" and not out.piles.get("w"):
                fan.append((fx, u, ex, ey))   # the waste's fan, seen only so
                continue
            if not target or not target.startswith("f") or out.piles.get(target):
                continue
        else:
            c = round(grid.column(fx)) + shift
            if not 0 <= c < len(tabs):
                continue
            target = tabs[c]
            pile = [frame(d.x, d.y) for d in out.piles.get(target, [])]
            if any(math.hypot(px - fx, py - fy) < 1.5 for px, py in pile) \
                    or any(py > fy for _, py in pile):
                continue   # a card read there, or below: not the column's top card
            if pile and fy - max(py for _, py in pile) > config.cascade_gap:
                continue   # too far below the column's last card to lie on it
        place(u, ex, ey, target)
    for _, u, ex, ey in sorted(fan, key=lambda t: t[0]):
        place(u, ex, ey, "w")


def _top_row(xs, ys, config) -> tuple[list[int], tuple[float, float]]:
    """The top row (waste fan, foundations), lying apart above the columns: its cards' indices,
    and the line of the columns' heads (their first tableau cards)."""
    top: list[int] = []
    # per column of cards (a photo at an angle shears the rows, not the columns):
    # the cards above a wide gap at the top of the column
    cols = []    # (a column's indices, top to bottom; where the tableau starts)
    for g in _clusters(xs, 2.5):
        col = sorted(g, key=lambda i: ys[i])
        cols.append((col, next((b for a, b in itertools.pairwise(range(len(col)))
                                if ys[col[b]] - ys[col[a]] > 5.0), 0)))
    # the line of the columns' heads (their first tableau cards; sheared in a photo
    # at an angle); a gap whose upper cards lie about as low as that line is a card
    # not read in a column, not the gap below the top row
    head_line = _line_fit([(xs[col[b]], ys[col[b]]) for col, b in cols])
    cols = [(col, b if b and max(ys[i] for i in col[:b])
             < _at(head_line, xs[col[b]]) - 5.0 else 0) for col, b in cols]
    head_line = _line_fit([(xs[col[b]], ys[col[b]]) for col, b in cols])
    whole = [col for col, b in cols if not b]
    for col, b in cols:
        top += col[:b]
    # a column of cards wholly above the heads' line lies in the top row (the waste
    # fan spreads sideways), where no column showed the gap, that is: once one did,
    # the top row's own height decides, since the columns' heads lie lower the more
    # cards are face down above them (one with none can rise 5 sizes above the line)
    if not top:
        for col in whole:
            x = sum(xs[i] for i in col) / len(col)
            if max(ys[i] for i in col) < _at(head_line, x) - 5.0:
                top += col
    if top:  # and what lies about as high as the top row's cards found (the row
        # sheared as the heads are: along the line through them, as low as the lowest)
        row_line = _line_fit([(xs[i], ys[i]) for i in top])
        low = max(ys[i] - _at(row_line, xs[i]) for i in top) + 2.0
        # and a column lying wholly nearer the top row than the heads' line (the
        # row taken as sheared as the heads are): a waste fan's top card, beside the
        # stock but lower than a foundation's card in a photo turned round and
        # tilted, where the row's line through that one card is flat
        b = head_line[1]
        row_a = statistics.median(ys[i] - b * xs[i] for i in top)
        for col in whole:
            x = sum(xs[i] for i in col) / len(col)
            hi = max(ys[i] for i in col)
            rise, row = _at(head_line, x) - hi, _at(head_line, x) - (row_a + b * x)
            above = config.top_by_rise and rise > 5.0 and rise >= config.top_nearer * row
            if col[0] not in top and (hi <= _at(row_line, x) + low or above):
                top += col
    # the heads' line once more, without the columns found to lie in the top row
    in_top = set(top)
    heads = [(xs[col[b]], ys[col[b]]) for col, b in cols if col[b] not in in_top]
    head_line = _line_fit(heads) if heads else head_line
    return top, head_line


def _map_columns(out, upright, xs, ys, dets, up, unit, v, shape, tabs, names, config,
                 shift) -> None:
    """Columns (and the layouts not read otherwise yet: wings, squared piles): the cards
    placed in the tableau's columns, the top row and Golf's waste (``out``, in place)."""
    idx = list(range(len(upright)))
    top, head_line = _top_row(xs, ys, config) if shape.top_row else ([], None)
    bottom: list[int] = []
    if shape.waste_below:  # Golf's waste lies apart, below the columns
        ymax = max(ys)
        band = [i for i in idx if ys[i] > ymax - 3.0]
        above = [ys[i] for i in idx if i not in band]
        if above and min(ys[i] for i in band) - max(above) > 5.0:
            bottom = band
    tab = [i for i in idx if i not in top and i not in bottom]
    groups = [[tab[k] for k in g] for g in _clusters([xs[i] for i in tab], 2.5)]
    centres = [sum(xs[i] for i in g) / len(g) for g in groups]
    steps = [b - a for a, b in itertools.pairwise(centres) if b - a > 4.0]
    pitch = min(steps) if steps else 1.0
    near = sorted(st for st in steps if st < 1.5 * pitch)
    pitch = near[len(near) // 2] if near else pitch
    numbers = _column_numbers(centres, pitch, len(tabs)) if steps else [0] * len(centres)
    last = max(numbers, default=0)
    grid = _Grid(centres, numbers, pitch) if steps else None
    out.room = max(0, len(tabs) - 1 - last - shift) if groups else 0
    for g, number in zip(groups, numbers, strict=True):
        c = number + shift
        if c >= len(tabs):
            out.unplaced.extend(upright[i] for i in g)
            continue
        for i in sorted(g, key=lambda i: ys[i]):
            _put(out, tabs[c], upright[i], names)
    if len(groups) > len(tabs):
        out.problems.append(f"found {len(groups)} columns of cards; {v.name} has "
                            f"{len(tabs)} tableau piles")
    row: list = [(xs[i], upright[i]) for i in top]
    offset = _corner_offset(dets, up)
    waste_col, stock_col = shape.top_column("w"), shape.top_column("s")
    if top and tab:
        # cards of a fan seen by their other corner (an index at top-right shows its
        # bottom-left corner when fanned to the right): upside down, under the top row
        # (as far below as a card's lower index lies from its upper one, and 2.5 sizes
        # more for the perspective not wholly undone, or 9 sizes; never below the heads'
        # line)
        tall = max(9.0, abs(offset[1]) / unit + 2.5) \
            if offset else 9.0
        lo, hi = min(ys[i] for i in top) - 1.0, max(ys[i] for i in top) + tall
        flipped = [d for d in out.unplaced if d.up[0] * up[0] + d.up[1] * up[1] < -0.5]
        for d, (fx, fy) in zip(flipped, _frame(flipped, up, unit), strict=True):
            if _foundation_seen_turned(d, offset, up, unit, grid, shift, shape):
                continue   # left to _place_flipped: a foundation's card, not the fan's
            if waste_col is not None and lo <= fy <= min(hi, _at(head_line, fx) - 1.0):
                row.append((fx, d, "w"))   # only the waste fans out in the top row
                out.unplaced.remove(d)
    placed = [((math.floor(grid.column(fx) + 0.3) if grid else 0) + shift, d, pile)
              for fx, d, *pile in sorted(row, key=lambda t: t[0])]
    # the stock lies face down: a face-up card over its column, where the waste's column
    # has a card too, is the fan's deepest (a top row with none in the waste's column
    # tells that the columns start further right)
    fan_from_stock = config.stock_column_fan and None not in (waste_col, stock_col) \
        and any(c == waste_col and not pile for c, _, pile in placed)
    for c, d, pile in placed:
        target = pile[0] if pile else shape.top_pile(c)
        if not target and c == stock_col and fan_from_stock:
            target = "w"
        if target:
            _put(out, target, d, names)
        else:
            out.unplaced.append(d)
    for i in sorted(bottom, key=lambda i: xs[i]):  # the waste fan, left to right
        _put(out, "w", upright[i], names)
    if shape.top_row and tab:
        _place_flipped(out, offset, up, unit, grid, shift, head_line, tabs, names, shape,
                       config)

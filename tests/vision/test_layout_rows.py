"""Layouts in rows read from a photo (the Pyramid, Gaps): each card's place comes from the
whole layout's lattice, so a card or a whole row missed shifts nothing, and rows that still
lean a few degrees after the photo is set upright are not merged into one."""

from __future__ import annotations

import math

import pytest

from companion.vision.piles import _gaps_places, _lean_fit, _pyramid_places


def _turn(pts, deg):
    t = math.radians(deg)
    c, s = math.cos(t), math.sin(t)
    return [x * c - y * s for x, y in pts], [x * s + y * c for x, y in pts]


def _pyramid(drop=(), pitch=3.0, dy=3.5):
    places, pts = [], []
    for r in range(7):
        for c in range(r + 1):
            if (r, c) not in drop:
                places.append((r, c))
                pts.append((10 + pitch * (c - r / 2), 4 + dy * r))
    return places, pts


@pytest.mark.parametrize("lean", [0, 6, -9])
@pytest.mark.parametrize("drop", [(), ((0, 0),), ((0, 0), (1, 0), (1, 1), (4, 2))])
def test_pyramid_places_survive_missed_cards_and_a_lean(lean, drop):
    places, pts = _pyramid(drop)
    xs, ys = _turn(pts, lean)
    placed, rest, _ = _lean_fit(xs, ys, _pyramid_places, gap=1.8)
    assert rest == []
    assert {place: places[i] for place, i in placed.items()} == {p: p for p in places}


def test_a_missed_apex_does_not_move_the_pyramid_up_a_row():
    # Before: rows were counted from the first row found, so every card landed a row too high.
    places, pts = _pyramid(drop=((0, 0),))
    placed, _, _ = _lean_fit([x for x, _ in pts], [y for _, y in pts], _pyramid_places, gap=1.8)
    assert (0, 0) not in placed and placed[(6, 6)] == places.index((6, 6))


@pytest.mark.parametrize("lean", [0, 5, -8])
def test_gaps_rows_that_lean_are_four_rows(lean):
    gaps = {(0, 4), (1, 1), (2, 13), (3, 7)}  # the aces' places, now empty
    places = [(r, c) for r in range(4) for c in range(1, 14) if (r, c) not in gaps]
    pts = [(2.0 + 3.2 * c, 3.0 + 4.5 * r) for r, c in places]
    xs, ys = _turn(pts, lean)
    placed, rest, rows = _lean_fit(xs, ys, _gaps_places, gap=2.5)
    assert rows == 4 and rest == []
    assert {place: places[i] for place, i in placed.items()} == {p: p for p in places}

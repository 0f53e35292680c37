"""The Pyramid's rows may each lie a little to one side of the row above: the photo's
perspective undone leaves an affine view, which may shear, and over seven rows a small shear
a row puts the apex half a pitch off the place the rows below give it. The rows' own
centres measure it (`rows._pyramid_shear`, `ReadConfig.pyramid_shear`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.vision.config import DEFAULT

UNSHEARED = replace(DEFAULT, pyramid_shear=False)


def _sheared_pyramid(shear, pitch=5.76, missing=()):
    """Rows of (x) places, as the layout's frame sees them: row r's card c at
    pitch * (c - r / 2) + shear * r, the cards ``missing`` ((r, c) each) left out."""
    rows, xs = [], []
    for r in range(7):
        row = []
        for c in range(r + 1):
            if (r, c) in missing:
                continue
            row.append(len(xs))
            xs.append(pitch * (c - r / 2) + shear * r + 3.0)
        rows.append(row)
    return rows, [-15.4 + 3.85 * r for r in range(7)], 3.85, xs, pitch


def test_a_sheared_pyramid_places_every_card():
    """Check-set Pyramid scene 28 measured 0.8 index sizes a row, with 5.76 between cards:
    square to the rows, the apex is left over."""
    from companion.vision.rows import _pyramid_places
    rows, cy, dy, xs, pitch = _sheared_pyramid(-0.8)
    placed, rest = _pyramid_places(rows, cy, dy, xs, pitch, config=UNSHEARED)
    assert len(placed) < 28 and rest
    placed, rest = _pyramid_places(rows, cy, dy, xs, pitch)
    assert not rest
    assert placed == {(r, c): rows[r][c] for r in range(7) for c in range(r + 1)}


def test_the_shear_is_measured_on_whole_rows_only():
    """A row with a card missed has its centre off the apex column: it is not counted; with
    fewer than three whole rows nothing is measured."""
    from companion.vision.rows import _pyramid_shear
    rows, _, _, xs, _ = _sheared_pyramid(0.5, missing={(6, 0), (5, 5)})
    assert _pyramid_shear(rows, list(range(7)), 0, xs) == pytest.approx(0.5)
    rows, _, _, xs, _ = _sheared_pyramid(0.5, missing={(6, 0), (5, 5), (4, 1), (3, 3)})
    assert _pyramid_shear(rows, list(range(7)), 0, xs) == pytest.approx(0.5)  # rows 1-3
    rows, _, _, xs, _ = _sheared_pyramid(0.5, missing={(6, 0), (5, 5), (4, 1), (3, 3), (2, 0)})
    assert _pyramid_shear(rows, list(range(7)), 0, xs) == 0.0


def test_an_unsheared_pyramid_is_placed_as_before():
    from companion.vision.rows import _pyramid_places
    rows, cy, dy, xs, pitch = _sheared_pyramid(0.0, missing={(3, 1)})
    placed, rest = _pyramid_places(rows, cy, dy, xs, pitch)
    assert not rest and len(placed) == 27 and (3, 1) not in placed


def test_check_set_scene_28_reads_whole(held_out_scene):
    """Check-set Pyramid scene 28 (seed 7,602,028), a photo turned a third of a turn and
    tilted: its apex, the Q♦, was left in no pile."""
    from companion.vision import piles
    from companion.vision.model import load
    from companion.vision.read import read_photo
    sc = held_out_scene(7_602_028, "pyramid")
    dets = read_photo(sc.image, load())
    truth = {c["pile"]: c["code"] for c in sc.cards}
    before = piles.map_piles(dets, "pyramid", sc.image, config=UNSHEARED)
    assert not before.piles.get("p1")
    after = piles.map_piles(dets, "pyramid", sc.image)
    placed = {name: ds[0].code for name, ds in after.piles.items() if ds}
    assert placed == truth and not after.problems

"""Klondike's waste fan laid close to the stock: its deepest card lies over the stock's column
(`ReadConfig.stock_column_fan`). The stock lies face down, so a face-up card there is the waste's,
where the waste's own column has a card too; a top row with none there says the columns start
further right (t1 empty).

Held-out photos (fonts never trained on, as `bench/vision_failures.py` draws them)."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("cv2")



def _piles(sc, rule):
    from companion.vision import piles
    from companion.vision.config import DEFAULT
    from companion.vision.model import load
    from companion.vision.read import read_photo
    reading = piles.map_piles(read_photo(sc.image, load()), "klondike", sc.image,
                              config=replace(DEFAULT, stock_column_fan=rule))
    return {k: [d.code for d in ds] for k, ds in reading.piles.items()}


def _truth(sc, pile):
    return [c["code"] for c in sorted(sc.cards, key=lambda c: c["order"]) if c["pile"] == pile]


# (held-out scene 130 too until the recognizer's files of the thirty-first session, which
# place its waste's deepest card either way)
@pytest.mark.parametrize("n", [212])
def test_the_fans_deepest_card_over_the_stock_is_the_wastes(n, held_out_scene):
    sc = held_out_scene(7_000_000 + n)
    want = _truth(sc, "w")
    assert len(want) == 3
    assert _piles(sc, False).get("w") == want[1:]
    assert _piles(sc, True).get("w") == want


def test_a_top_row_with_nothing_in_the_wastes_column_still_shifts_the_columns(held_out_scene):
    """Scene 404: t1 is empty; its waste lies over the stock's column only when the columns
    are read from t1, so the rule leaves that reading alone."""
    sc = held_out_scene(7_000_404)
    assert not _truth(sc, "t1")
    got = _piles(sc, True)
    assert not got.get("t1") and got.get("t2") == _truth(sc, "t2")
    assert got.get("w") == _truth(sc, "w")

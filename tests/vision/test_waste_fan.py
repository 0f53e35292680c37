"""Klondike's waste fan read by its cards' lower corners (an index at the top right is covered
by the next card of a fan spread to the right): every card of the fan is placed in the waste,
the first one too, whose lower corner lies furthest down."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from companion.cards import code_text
from companion.vision.piles import map_piles
from companion.vision.read import read_photo
from companion.vision.synth import HELDOUT_FONTS, available_fonts, make_scene


def test_the_first_card_of_a_fan_read_upside_down_is_the_wastes():
    # held-out Klondike scene 240: the waste A♣ 4♥ 6♦, the first two read only at their
    # lower corners; the A♣'s lay 0.3 index sizes below the band the waste was looked for in
    fonts = available_fonts(HELDOUT_FONTS)
    if len(fonts) != len(HELDOUT_FONTS):
        pytest.skip("some held-out fonts are missing: the scene is drawn in another font")
    sc = make_scene(7_000_240, "klondike", fonts=fonts)
    truth = [code_text(c["code"], False)
             for c in sorted(sc.cards, key=lambda c: c["order"]) if c["pile"] == "w"]
    assert truth == ["Ac", "4h", "6d"]
    reading = map_piles(read_photo(sc.image), "klondike", sc.image)
    assert [code_text(d.code, False) for d in reading.piles["w"]] == truth
    assert not reading.unplaced

"""Where `companion scan --debug` writes a column's face-down count: over the backs beside the
column's first face-up card, the other way from the one the columns cascade (above the card in
a layout cascading down, beside it in one cascading sideways), from the card's top corner even
where it was read at its lower one (its label then fell beyond the card's foot, over the next
readings' labels)."""

from __future__ import annotations

from types import SimpleNamespace

import cv2

from companion.cli.scan_cmds import _columns_up, _columns_way, _label_at, _top_corner
from companion.vision.read import Detection


def _det(code, x, y, up, other=None):
    return Detection(code, 0.99, x, y, up, 20.0, other=other)


def test_the_layouts_up_comes_from_first_cards_whose_lower_corner_is_covered():
    up, down = (0.0, -1.0), (0.0, 1.0)
    piles = SimpleNamespace(piles={
        # t1: two cards, the first read at its top corner, the last at its lower one
        "t1": [_det(0, 100.0, 100.0, up), _det(1, 110.0, 260.0, down)],
        # t2: one card, read at its lower corner (both show): it says nothing of the way up
        "t2": [_det(2, 300.0, 260.0, down, other=(290.0, 100.0, up))],
        "w": [_det(3, 500.0, 100.0, down), _det(4, 520.0, 100.0, down)],
    })
    assert _columns_up(piles) == up
    assert _columns_up(SimpleNamespace(piles={"t1": piles.piles["t2"]})) is None


def test_a_card_read_at_its_lower_corner_is_labelled_from_its_top_one():
    up, down = (0.0, -1.0), (0.0, 1.0)
    lower = _det(2, 300.0, 260.0, down, other=(290.0, 100.0, up))
    assert _top_corner(lower, up) == (290.0, 100.0)
    assert _top_corner(_det(0, 100.0, 100.0, up), up) == (100.0, 100.0)
    # read at its lower corner alone: its own place (no other corner to go by)
    assert _top_corner(_det(5, 50.0, 50.0, down), up) == (50.0, 50.0)


def test_the_columns_way_is_from_first_cards_to_the_next():
    up = (0.0, -1.0)
    sideways = SimpleNamespace(piles={
        "t1": [_det(0, 100.0, 100.0, up), _det(1, 140.0, 100.0, up), _det(2, 180.0, 100.0, up)],
        "t2": [_det(3, 100.0, 300.0, up), _det(4, 150.0, 300.0, up)],
        "t3": [_det(5, 100.0, 500.0, up)],  # one card: no way of its own
    })
    assert _columns_way(sideways) == (1.0, 0.0)
    assert _columns_way(SimpleNamespace(piles={"t3": sideways.piles["t3"]})) is None


def _box(x, y, size, toward, text):
    scale = 0.7
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    left, base = _label_at(x, y, size, toward, text, scale)
    return left, base - h, left + w, base  # the text's box: left, top, right, bottom


def test_a_label_lies_clear_of_the_index_on_the_backs_side():
    # The index's box reaches 1.4 sizes from its centre: the label lies beyond it, towards
    # the backs, whichever way they are.
    x, y, size, text = 500.0, 400.0, 20.0, "t7: 6 down"
    left, top, right, bottom = _box(x, y, size, (-1.0, 0.0), text)  # backs to the left
    assert right < x - 1.4 * size and top < y < bottom
    left, top, right, bottom = _box(x, y, size, (0.0, -1.0), text)  # backs above
    assert bottom < y - 1.4 * size and left < x < right

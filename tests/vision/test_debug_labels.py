"""Where `companion scan --debug` writes a column's face-down count: over the backs above the
column's first face-up card, the layout's way up, even where that card was read at its lower
corner (its label then fell beyond the card's foot, over the next readings' labels)."""

from __future__ import annotations

from types import SimpleNamespace

from companion.cli.scan_cmds import _columns_up, _top_corner
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

"""The table's shape that `vision/piles.py` reads a photo by (`vision/shape.py`): derived from
the variant's pieces and pile names, never its name, so a variant laid out like another is
read like it (issues #47, #48)."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from companion.rules import load_variant
from companion.rules.variant import variant_keys
from companion.vision.shape import TableShape, table_shape

PILES_PY = Path(__file__).resolve().parents[2] / "companion" / "vision" / "piles.py"


def shape(key) -> TableShape:
    return table_shape(load_variant(key))


@pytest.mark.parametrize("key", variant_keys())
def test_every_variants_shape_is_derived_and_consistent(key):
    v = load_variant(key)
    s = table_shape(v)
    names = set(v.pile_names)
    assert {p for _, p in s.top_row} <= names
    columns = [c for c, _ in s.top_row]
    assert len(set(columns)) == len(columns) and all(0 <= c < s.columns for c in columns)
    assert {p for p, _ in s.foundation_order} <= names
    # one layout at most is read for the tableau
    assert sum(map(bool, (s.grid, s.pyramid, s.fans, s.columns))) <= 1
    assert not (s.both_ways and not s.grid)
    assert not (s.waste_below and (not s.columns or s.top_column("w") is not None))


def test_klondike_and_solitaire_are_laid_out_alike():
    k = shape("klondike")
    assert shape("solitaire") == k
    assert k.columns == 7 and not (k.grid or k.pyramid or k.fans or k.waste_below)
    assert k.top_row == ((0, "s"), (1, "w"), (3, "f1"), (4, "f2"), (5, "f3"), (6, "f4"))
    # a face-up card over the stock's column is not the stock's: it lies face down
    assert k.top_pile(0) is None and k.top_pile(1) == "w" and k.top_pile(2) is None
    assert k.top_pile(6) == "f4"
    # a foundation built up in suit from the ace holds as many cards as its top card's rank
    assert k.foundation_cards("f2", 5) == 5 and k.foundation_cards("f1", 13) == 13


def test_gaps_is_a_grid_read_both_ways():
    s = shape("gaps")
    assert s.grid == (4, 13) and s.both_ways
    assert not (s.pyramid or s.fans or s.columns or s.top_row)


def test_pyramid_is_a_pyramid_of_seven_rows():
    s = shape("pyramid")
    assert s.pyramid == 7 and not (s.grid or s.fans or s.columns or s.both_ways)
    # its foundation is a discard pile: the top card says nothing of the cards under it
    assert s.foundation_cards("f", 9) == 1


@pytest.mark.parametrize("key", ["house-in-the-wood", "house-on-the-hill", "intelligence"])
def test_fanned_tableaus_are_fans(key):
    s = shape(key)
    assert s.fans and not (s.grid or s.pyramid or s.columns or s.top_row)


def test_golfs_waste_lies_below_its_columns():
    s = shape("golf")
    assert s.columns == 7 and s.waste_below and not s.top_row


def test_other_games_with_columns_and_a_top_row_get_one():
    for key in ("forty-thieves", "spider", "german-patience"):
        s = shape(key)
        assert s.columns and s.top_row and s.top_column("s") == 0
    assert shape("forty-thieves").top_row[-1] == (9, "f8")
    assert shape("spider").top_column("w") is None
    # a foundation built down from the king (House on the Hill's second four)
    assert shape("house-on-the-hill").foundation_cards("f5", 13) == 1
    assert shape("house-on-the-hill").foundation_cards("f5", 10) == 4


def test_piles_py_never_decides_by_a_variants_name():
    """A source scan: no variant key compared to a string literal, and no variant's key or
    alias written as a string anywhere in the code (docstrings and comments aside)."""
    text = PILES_PY.read_text(encoding="utf-8")
    assert not re.search(r"key\s*(==|!=)|key\s+(not\s+)?in\s*[\(\[\{A-Z]", text)
    from companion.rules.variant import _alias_table
    names = set(_alias_table())
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    literals = {t.string.strip("\"'") for t in tokens if t.type == tokenize.STRING}
    assert not literals & names


def _scene_piles(sc, key):
    from companion.vision.piles import map_piles
    from companion.vision.read import read_photo
    reading = map_piles(read_photo(sc.image), key, sc.image)
    return ({k: [d.code for d in ds] for k, ds in reading.piles.items()},
            reading.position.to_json()["piles"] if reading.position else None)


def test_a_klondike_photo_read_as_solitaire_gives_klondikes_piles(held_out_scene):
    sc = held_out_scene(7_000_006)
    klondike = _scene_piles(sc, "klondike")
    assert {"w", "f1"} <= set(klondike[0])   # the top row was read
    assert _scene_piles(sc, "solitaire") == klondike

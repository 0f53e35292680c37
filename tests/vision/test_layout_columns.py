"""Klondike's piles from a photo: which column is which when t1 is empty, and which cards lie
in the top row (waste, foundations) rather than at the head of a column.

The readings are made by hand (index places as the reader gives them), except the last test,
which photographs a real position with the scene generator."""

from __future__ import annotations

import pytest

from companion.cards import Card, code_text
from companion.rules import deal
from companion.vision.piles import map_piles
from companion.vision.read import Detection

PITCH, STEP, SIZE = 140.0, 50.0, 20.0   # column pitch, cascade step, index size (pixels)


def _det(text, x, y, up=(0.0, -1.0)):
    return Detection(Card.parse(text).code, 0.99, float(x), float(y), up, SIZE)


def _columns(cols, x0=100.0, y0=400.0, shear=0.0):
    """Detections for columns of cards (lists of texts), left to right, each head ``shear``
    pixels lower than the one on its left (a photo taken at an angle)."""
    return [_det(t, x0 + PITCH * i, y0 + shear * i + STEP * k)
            for i, col in enumerate(cols) for k, t in enumerate(col)]


def _piles(reading):
    return {n: [code_text(d.code, False) for d in ds] for n, ds in reading.piles.items()}


@pytest.mark.parametrize("shear", [0.0, 25.0])
def test_a_waste_card_alone_above_the_columns_is_the_waste(shear):
    # the waste's top card has an index at the top right: it lies between t2 and t3, well
    # above the columns' heads, with no card of a column under it
    cols = [["Kc"], ["5c", "4d"], ["9h"], ["Qs", "Jd"], ["8c"], ["3s"], ["10d"]]
    dets = _columns(cols, shear=shear) + [_det("Qh", 100 + 1.5 * PITCH, 400 - 11 * SIZE)]
    got = _piles(map_piles(dets, "klondike"))
    assert got["w"] == ["Qh"]
    assert got["t2"] == ["5c", "4d"] and got["t3"] == ["9h"]


def test_foundations_above_the_columns_find_their_piles():
    cols = [["Kc"], ["5c", "4d"], ["9h"], ["Qs", "Jd"], ["8c"], ["3s"], ["10d"]]
    top = [_det("As", 100 + 3.1 * PITCH, 180), _det("2h", 100 + 4.1 * PITCH, 180)]
    got = _piles(map_piles(_columns(cols) + top, "klondike"))
    assert got["f1"] == ["As"] and got["f2"] == ["2h"] and got["t4"] == ["Qs", "Jd"]


def test_with_t1_empty_the_top_row_says_where_the_columns_start():
    # t1 is empty: six columns; the waste above t2 and the foundations above t4-t7 place them
    cols = [["5c", "4d"], ["9h"], ["Qs", "Jd"], ["8c"], ["3s"], ["10d"]]
    x0 = 100 + PITCH
    top = [_det("Qh", x0 + 0.1 * PITCH, 180), _det("As", x0 + 2.1 * PITCH, 180),
           _det("Ad", x0 + 5.1 * PITCH, 180)]
    got = _piles(map_piles(_columns(cols, x0=x0) + top, "klondike"))
    assert "t1" not in got
    assert got["t2"] == ["5c", "4d"] and got["t7"] == ["10d"]
    assert got["w"] == ["Qh"] and got["f1"] == ["As"] and got["f4"] == ["Ad"]


def test_with_t1_empty_the_face_down_cards_say_where_the_columns_start(tmp_path):
    # a photo of Klondike seed 1 after t1 t7 (7h onto 8c): t1 is empty, no card in the top
    # row; t2-t7 show 1-6 card backs, more than t1-t6 could hold
    synth = pytest.importorskip("companion.vision.synth")
    pytest.importorskip("cv2")
    pos = deal("klondike", 1)
    pos.play("t1 t7")

    def position_for(kind, seed, rng):
        rng.integers(0, 60)
        return pos.copy()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(synth, "position_for", position_for)
        sc = synth.make_scene(42, "klondike", size=(1400, 1000), max_tilt=10, effects=0.0)
    from companion.vision.read import read_photo
    reading = map_piles(read_photo(sc.image), "klondike", sc.image)
    want = {pos.engine.names[i]: [code_text(c, False) for c in p[pos.down[i]:]]
            for i, p in enumerate(pos.piles) if pos.engine.names[i].startswith("t") and p}
    assert _piles(reading) == want
    assert reading.face_down == {f"t{i}": i - 1 for i in range(2, 8)}


def test_a_top_card_read_only_by_its_upside_down_index_is_placed_on_its_column():
    # t1's and t3's top cards show both indices: the lower one lies 5 index sizes right of
    # and 7 below the upright one. t2's top card (4d) was read only by its lower index.
    def twin(text, x, y):
        d = _det(text, x, y)
        d.other, d.corners = (x + 5 * SIZE, y + 7 * SIZE, (0.0, 1.0)), 2
        return d
    cols = [["Kc"], ["5c"], ["9h"], ["Qs", "Jd"], ["8c"], ["3s"], ["10d"]]
    dets = _columns(cols)
    dets[0] = twin("Kc", dets[0].x, dets[0].y)
    dets[2] = twin("9h", dets[2].x, dets[2].y)
    x, y = 100 + PITCH, 400 + STEP        # where 4d's upright index lies, on 5c
    dets.append(_det("4d", x + 5 * SIZE, y + 7 * SIZE, up=(0.0, 1.0)))
    got = _piles(map_piles(dets, "klondike"))
    assert got["t2"] == ["5c", "4d"]
    assert got["t1"] == ["Kc"] and got["t3"] == ["9h"]


def test_a_card_not_read_inside_a_column_leaves_the_cards_above_it_in_the_column():
    # t5's second and third cards were not read: a gap as wide as the one below the top row,
    # but 6c lies level with the other columns' heads, not above them
    cols = [["Kc"], ["5c", "4d"], ["9h"], ["Qs", "Jd"], ["6c", "5h", "4s", "3d"], ["8c"],
            ["10d"]]
    dets = [d for d in _columns(cols) if code_text(d.code, False) not in ("5h", "4s")]
    dets.append(_det("Qh", 100 + 1.1 * PITCH, 400 - 11 * SIZE))
    got = _piles(map_piles(dets, "klondike"))
    assert got["t5"] == ["6c", "3d"]
    assert got["w"] == ["Qh"] and not any(n.startswith("f") for n in got)


def test_a_column_without_face_down_cards_is_not_taken_for_the_top_row():
    # each column's head lies one back lower than its left neighbour's (1-5 cards face down),
    # t7's none: its head rises 9 index sizes above the heads' line, yet lies far below the
    # top row (a foundation over t4)
    cols = [["Kc"], ["5c"], ["9h"], ["Qs"], ["8c"], ["3s"], ["10d"]]
    dets = [_det(t, 100 + PITCH * i, 400 + (30 * i if i < 6 else 0))
            for i, (t,) in enumerate(cols)]
    dets.append(_det("As", 100 + 3.1 * PITCH, 400 - 11 * SIZE))
    got = _piles(map_piles(dets, "klondike"))
    assert got["t7"] == ["10d"] and got["f1"] == ["As"]
    assert "f4" not in got


def test_a_waste_card_over_no_column_belongs_to_a_sheared_top_row():
    # a photo at an angle: every row rises 2 index sizes from one column to the next; the
    # waste (its top card between t2 and t3, over nothing) is lower than the foundations
    # to its right, but on their line
    rise = -2 * SIZE
    cols = [["Kc"], [], ["9h"], ["Qs", "Jd"], ["8c"], ["3s"], ["10d"]]
    dets = _columns(cols, shear=rise)
    top = [("Qh", 1.5), ("As", 3.1), ("2h", 4.1), ("Ad", 5.1)]
    dets += [_det(t, 100 + c * PITCH, 400 - 11 * SIZE + rise * c) for t, c in top]
    got = _piles(map_piles(dets, "klondike"))
    assert got["w"] == ["Qh"]
    assert got["f1"] == ["As"] and got["f3"] == ["Ad"]


def test_a_foundation_finds_its_column_where_the_columns_spread_wider_to_one_side():
    # perspective not wholly undone: the columns lie 5 % further apart at each step to the
    # right; the foundation over t4 sits half an index size left of t4's cards
    xs = [100.0]
    for k in range(6):
        xs.append(xs[-1] + 120 * 1.05 ** k)
    cols = [["Kc"], ["5c", "4d"], ["9h"], ["Qs", "Jd"], ["8c"], ["3s"], ["10d"]]
    dets = [_det(t, xs[i], 400 + STEP * k) for i, col in enumerate(cols)
            for k, t in enumerate(col)]
    dets.append(_det("As", xs[3] - 0.5 * SIZE, 400 - 11 * SIZE))
    got = _piles(map_piles(dets, "klondike"))
    assert got["f1"] == ["As"] and got["t4"] == ["Qs", "Jd"]


def _twin_top_right(text, x, y):
    """A card with its index at the top right read at both corners: the bottom-left one,
    upside down, 5 index sizes left of and 9.5 below the upright one (small indices on tall
    cards: more than the usual 9)."""
    d = _det(text, x, y)
    d.other, d.corners = (x - 5 * SIZE, y + 9.5 * SIZE, (0.0, 1.0)), 2
    return d


def _columns_under_a_top_row():
    """Seven columns, t1's card read at both corners (:func:`_twin_top_right`); and the top
    row's height above them."""
    dets = _columns([["Kc"], ["5c"], ["9h"], ["Qs", "Jd"], ["8c"], ["3s"], ["10d"]])
    dets[0] = _twin_top_right("Kc", dets[0].x, dets[0].y)
    return dets, 400 - 14 * SIZE


def test_a_waste_fan_read_by_its_lower_indices_on_tall_cards():
    # the waste fan's lower cards show their bottom-left corners
    dets, y0 = _columns_under_a_top_row()
    qx = 100 + 1.5 * PITCH
    dets.append(_twin_top_right("Qh", qx, y0))
    for k, t in enumerate(["8s", "3d"], start=1):
        dets.append(_det(t, qx - 5 * SIZE - 1.2 * SIZE * k, y0 + 9.5 * SIZE, up=(0.0, 1.0)))
    got = _piles(map_piles(dets, "klondike"))
    assert got["w"] == ["3d", "8s", "Qh"]


def test_a_foundation_card_read_by_its_lower_index_is_no_waste_card():
    # indices at the top right, as in the test above; the waste shows Qh, f1 shows Ac, and
    # f2's 3c was read only by its bottom-left corner, upside down in the top row's band
    # below the waste, where a fanned waste card's lower index would lie
    dets, y0 = _columns_under_a_top_row()
    dets.append(_twin_top_right("Qh", 100 + 1.1 * PITCH, y0))
    dets.append(_twin_top_right("Ac", 100 + 3.1 * PITCH, y0))
    fx = 100 + 4.1 * PITCH          # f2's upright index, not read
    dets.append(_det("3c", fx - 5 * SIZE, y0 + 9.5 * SIZE, up=(0.0, 1.0)))
    got = _piles(map_piles(dets, "klondike"))
    assert got["w"] == ["Qh"]
    assert got["f1"] == ["Ac"] and got["f2"] == ["3c"]


@pytest.mark.parametrize("empty", [None, 2])
def test_columns_numbered_where_a_steep_photo_leaves_them_ever_closer(empty):
    # perspective not undone: each step between columns 0.9 times the one before (8 index
    # sizes at the left, under 5 at the right); with t3 empty, a step of two columns
    cols = [["Kc"], ["5c", "4d"], ["9h"], ["Qs", "Jd"], ["8c"], ["3s"], ["10d"]]
    xs = [100.0]
    for k in range(6):
        xs.append(xs[-1] + 160 * 0.9 ** k)
    dets = [_det(t, xs[i], 400 + STEP * k) for i, col in enumerate(cols) if i != empty
            for k, t in enumerate(col)]
    got = _piles(map_piles(dets, "klondike"))
    want = {f"t{i + 1}": col for i, col in enumerate(cols) if i != empty}
    assert got == want


def test_a_waste_fan_over_empty_columns_is_not_taken_for_a_column_head():
    # a photo at an angle, three columns (t3, t4, t6): the waste's top card, over no column,
    # is a column of its own until it is found to lie in the top row; the line of the heads
    # is then drawn without it, and its fan's lower indices (index at the top right: the
    # cards under it show their bottom-left corners) are looked for below it, above the heads
    def twin(text, x, y):
        d = _det(text, x, y)
        d.other, d.corners = (x - 5 * SIZE, y + 6 * SIZE, (0.0, 1.0)), 2
        return d
    cols = [[], [], ["9h"], ["8c"], [], ["10d"], []]
    dets = _columns(cols, shear=25.0)
    dets[0] = twin("9h", dets[0].x, dets[0].y)
    qx, qy = 100 + 1.3 * PITCH, 400 - 14 * SIZE + 25.0 * 1.3
    dets.append(twin("Qh", qx, qy))
    for k, t in enumerate(["8s", "3d"], start=1):
        dets.append(_det(t, qx - 5 * SIZE - 1.2 * SIZE * k, qy + 6 * SIZE, up=(0.0, 1.0)))
    got = _piles(map_piles(dets, "klondike"))
    assert got["w"] == ["3d", "8s", "Qh"]
    assert got["t3"] == ["9h"] and got["t4"] == ["8c"] and got["t6"] == ["10d"]


def test_with_three_columns_a_step_twice_the_other_is_an_empty_column_between():
    cols = [["Kc"], ["5c", "4d"], [], ["Qs", "Jd"], [], [], []]
    got = _piles(map_piles(_columns(cols), "klondike"))
    assert got == {"t1": ["Kc"], "t2": ["5c", "4d"], "t4": ["Qs", "Jd"]}


def test_a_stray_reading_beside_the_last_column_does_not_renumber_the_columns():
    # a false reading on a card back, 0.6 of a column to the right of t7: one more group of
    # cards than columns, its step far shorter than the others
    cols = [["Kc"], ["5c", "4d"], ["9h"], ["Qs", "Jd"], ["8c"], ["3s"], ["10d"]]
    dets = _columns(cols) + [_det("6s", 100 + 6.6 * PITCH, 400 - STEP)]
    got = _piles(map_piles(dets, "klondike"))
    assert all(got[f"t{i + 1}"] == col for i, col in enumerate(cols))

"""Face-down cards counted from their backs: the profile up a column, and the check against
the deal."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from companion.vision import backs  # noqa: E402
from companion.vision.piles import PileReading, count_face_down  # noqa: E402
from companion.vision.read import Detection  # noqa: E402


def _profile(n_backs, table=40.0, paper=230.0, fill=90.0, band=0.3, strip=1.2):
    """Brightness up a column, one value per backs.STEP index sizes from the index centre:
    the rank glyph, the face-up card's paper, then ``n_backs`` strips (a light edge at the
    top of each), then the table."""
    def run(value, length):
        return [value] * round(length / backs.STEP)
    p = run(paper, 0.2) + run(60.0, 0.7) + run(paper, 0.5)   # glyph, paper to the top edge
    for _ in range(n_backs):
        p += run(fill, strip - band) + run(245.0, band)
    p += run(table, backs.REACH)
    return np.array(p[:round(backs.REACH / backs.STEP)], np.float32)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 6])
def test_each_back_is_counted_once(n):
    assert backs.count_from_profile(_profile(n), 230.0) == n


def test_backs_cascaded_wide_for_their_small_indices_are_all_counted():
    """Small indices on cards cascaded wide put the backs' edges about the usual gap apart
    (in index sizes), some of them, by the hand that dealt them, beyond it: each is still
    counted, the topmost included (as in a generated scene where 4 of 6 were counted)."""
    p = _profile(0)[:round(1.4 / backs.STEP)].tolist()
    for strip in (1.6, 1.6, 1.95, 1.6, 1.95, 1.9):
        p += [90.0] * round((strip - 0.3) / backs.STEP) + [245.0] * round(0.3 / backs.STEP)
    p += [40.0] * round(backs.REACH / backs.STEP)
    p = np.array(p[:round(backs.REACH / backs.STEP)], np.float32)
    assert backs.count_from_profile(p, 230.0) == 6


def test_a_stretch_of_table_wider_than_the_backs_spacing_ends_the_column():
    """Past the backs, the table, then a light mark at the usual gap: not another back."""
    p = _profile(3)
    end = round((1.4 + 3 * 1.2) / backs.STEP)
    at = end + round(1.75 / backs.STEP)
    p[at:at + round(0.3 / backs.STEP)] = 245.0
    assert backs.count_from_profile(p, 230.0) == 3


def test_a_light_table_is_not_a_back():
    assert backs.count_from_profile(_profile(3, table=200.0), 230.0) == 3


def test_a_card_face_right_above_is_not_counted_as_backs():
    """Right above the first card read lies another face (a face-up card whose index was
    missed): the backs cannot be counted from there."""
    p = _profile(0)
    start = round(1.4 / backs.STEP)
    p[start:start + 2] = 120.0                                   # the card's edge
    p[start + 2:start + round(3.0 / backs.STEP)] = 235.0         # the face beyond it
    assert backs.count_from_profile(p, 230.0) is None


def test_the_next_row_past_the_table_ends_the_column():
    p = _profile(2)
    end = round((1.4 + 2 * 1.2) / backs.STEP)
    p[end + round(1.0 / backs.STEP):] = 235.0    # a card of the row above, past some table
    assert backs.count_from_profile(p, 230.0) == 2


def test_a_column_leaving_the_photo_is_not_counted():
    p = _profile(4)
    p[60:] = np.nan   # the photo ends inside the stack of backs
    assert backs.count_from_profile(p, 230.0) is None


def _det(x, y):
    return Detection(0, 0.9, x, y, (0.0, -1.0), 20.0)


def test_more_backs_than_dealt_is_a_problem(monkeypatch):
    from companion.rules import load_variant
    monkeypatch.setattr(backs, "count_backs", lambda rgb, det, up=None, mn=None: 5)
    out = PileReading("klondike", {"t3": [_det(100, 100)], "t7": [_det(300, 100)]})
    count_face_down(out, load_variant("klondike"), np.zeros((200, 400, 3), np.uint8), (0, -1))
    assert out.face_down == {"t3": 5, "t7": 5}
    assert len(out.problems) == 1 and out.problems[0].startswith("t3: 5 card backs")


def test_the_position_takes_the_count_seen_or_else_the_deal(monkeypatch):
    """A count within the deal goes into the position; one beyond it (a misjudged column) is
    not used: that pile is taken as dealt and named."""
    from companion.rules import load_variant
    from companion.vision.piles import build_position
    counts = {"t3": 5, "t7": 2}
    out = PileReading("klondike", {"t3": [_det(100, 100)], "t7": [_det(300, 100)]},
                      face_down=counts)
    build_position(out, load_variant("klondike"))
    names = out.position.engine.names
    down = dict(zip(names, out.position.down, strict=True))
    assert down["t7"] == 2 and down["t3"] == 2      # t3: as dealt
    assert "t3" in out.as_dealt and "t7" not in out.as_dealt

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
    monkeypatch.setattr(backs, "count_backs", lambda rgb, det, up=None, mn=None, dealt=None,
                        step=None: 5)
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


def test_a_faint_bump_in_a_backs_pattern_is_not_an_edge():
    """A back's light edge is light: a bump in the dark pattern between two edges, however
    much it stands out of the pattern, is not another back (a generated scene counted 5 of 4)."""
    p = _profile(3, paper=158.0, fill=26.0)
    mid = round((1.4 + 1.2 + 0.5) / backs.STEP)          # inside the second back's pattern
    p[mid:mid + 2] = 55.0
    assert backs.count_from_profile(p, 158.0) == 3


def test_a_shoulder_before_a_backs_edge_is_not_another_edge():
    """Light just below a back's edge (its corner, the side of its margin), falling only a
    little before the edge itself: one edge, not two (a generated scene counted 7 of 6)."""
    p = _profile(3)
    top = round((1.4 + 2 * 1.2 + 0.9) / backs.STEP)       # the third back's edge, the last
    p[top - 6:top - 3] = 195.0                             # the shoulder
    p[top - 3:top] = 180.0                                 # the little dip before the edge
    assert backs.count_from_profile(p, 230.0) == 3


def test_paper_dimmer_than_measured_still_shows_the_card_top():
    """Light across the photo is uneven: the card's paper above its rank glyph can be well
    below the paper measured at its index; the backs above are still counted (a generated
    scene had none counted for 6)."""
    p = _profile(4)
    glyph_end = round(0.9 / backs.STEP)
    p[glyph_end:round(1.4 / backs.STEP)] = 0.8 * 230.0
    assert backs.count_from_profile(p, 230.0) == 4


S = 20.0                        # index size of the drawn columns, pixels
DET = (60.0, 500.0)             # the index read: (x, y); up is (0, -1)
CARD = (45, 165)                # the column's cards, x from .. to


def _index(img, y, value=30):
    """A dark rank glyph above and a pip below an index centred at (DET x, y)."""
    x = int(DET[0])
    img[int(y - 0.5 * S - 8):int(y - 0.5 * S + 8), x - 6:x + 6] = value
    img[int(y + 0.5 * S - 6):int(y + 0.5 * S + 6), x - 6:x + 6] = value


def _column(n_backs, hidden=False, paper=230.0, further=None, margin=245, fill=90, aside=0,
            hidden_paper=None, row_above=None):
    """A photo of one column (min(R, G, B) as grey): the face-up card whose index is read at
    DET; with ``hidden``, a face-up card above it whose index is not read, one face-up step
    (2.4 index sizes) up; then ``n_backs`` backs, 0.45 of that step apart, each with a light
    margin at its top; then the table. ``further``: the card's paper below its index (light
    that is not even). ``aside``: the backs lie that many pixels to the right of the card
    read. ``hidden_paper``: the hidden card's face this bright (a picture, a shadow), its
    index not drawn. ``row_above``: a card of the row above, its bottom edge that many index
    sizes above the column's top, with pips."""
    img = np.full((600, 220), 40, np.uint8)
    x0, x1 = CARD
    top = int(DET[1] - 1.3 * S)
    img[top:, x0:x1] = paper
    if further is not None:
        img[int(DET[1] + 0.8 * S):, x0:x1] = further
    _index(img, DET[1])
    if hidden:
        y = DET[1] - 2.4 * S
        img[int(y - 1.3 * S):top - 1, x0:x1] = paper if hidden_paper is None else hidden_paper
        if hidden_paper is None:
            _index(img, y)
        top = int(y - 1.3 * S)
    img[top - 1:top + 1, x0:x1] = 60                   # a card's edge
    h = 0.45 * 2.4 * S
    x0, x1 = x0 + aside, x1 + aside
    for k in range(n_backs):
        y1 = top - k * h
        img[int(y1 - h):int(y1) - 1, x0:x1] = fill
        img[int(y1 - h):int(y1 - h + 5), x0:x1] = margin
    if row_above is not None:
        bottom = int(top - n_backs * h - row_above * S)
        img[:bottom, x0:x1] = paper
        for k in range(1, 6):                                  # its pips
            img[bottom - int(k * 1.2 * S) - 6:bottom - int(k * 1.2 * S) + 6, 50:110] = 30
    return np.repeat(img[:, :, None], 3, axis=2)


def _read():
    return Detection(0, 0.9, DET[0], DET[1], (0.0, -1.0), S)


def test_drawn_column_is_counted():
    assert backs.count_backs(_column(3), _read()) == 3


def test_paper_is_measured_at_the_index_not_down_the_card():
    """Brighter light further down the card does not raise the paper the backs are judged
    against (a generated scene had none counted for 6: dim paper at the top of the card)."""
    rgb = _column(4, paper=140.0, further=210.0, margin=130, fill=50)
    assert backs.count_backs(rgb, _read()) == 4


def test_backs_a_little_aside_from_the_card_read_are_counted():
    """The index sits near the card's side: backs dealt a little further to that side than
    the card read leave the index's own band on the table; the band beside it, towards the
    card's middle, still crosses them (generated scenes counted 3 of 4, 4 of 6)."""
    rgb = _column(4, aside=16)
    assert backs.count_backs(rgb, _read()) == 4
    mirrored = np.ascontiguousarray(rgb[:, ::-1])          # the index at the card's right
    det = Detection(0, 0.9, rgb.shape[1] - 1 - DET[0], DET[1], (0.0, -1.0), S)
    assert backs.count_backs(mirrored, det) == 4


def test_backs_above_a_face_up_card_whose_index_was_not_read():
    """A face-up card lies between the card read and the backs, its index not read: its index
    strip is not counted as backs; the backs above it are (generated scenes counted 5 for 2,
    7 for 4, or none)."""
    rgb = _column(2, hidden=True)
    assert backs.count_backs(rgb, _read(), dealt=2, step=2.4) == 2
    assert backs.count_backs(rgb, _read(), dealt=3, step=2.4) == 2


def test_backs_only_are_not_taken_for_a_hidden_face():
    """More edges than the deal put there, with no face above: not counted again further up."""
    rgb = _column(5)
    assert backs.count_backs(rgb, _read(), dealt=4, step=2.4) == 5


def test_the_way_up_a_column_is_where_the_columns_meet():
    """A tilted camera: the lines up the cards meet at a point. The way up a column is towards
    it, even where the column's own indices (one "up" 20 degrees off, two indices a hand's
    width out of line) say otherwise."""
    import math
    vx, vy = 400.0, -2500.0

    def toward(x, y, turn=0.0):
        a = math.atan2(vy - y, vx - x) + math.radians(turn)
        return (math.cos(a), math.sin(a))
    others = [Detection(0, 0.9, x, y, toward(x, y), 20.0)
              for x in (100, 250, 400, 550, 700) for y in (300, 500, 700)]
    first = Detection(0, 0.9, 250.0, 900.0, toward(250, 900, 20.0), 20.0)
    ux, uy = toward(250, 960)
    second = Detection(0, 0.9, 250.0 - 60 * ux + 9, 900.0 - 60 * uy, toward(250, 960), 20.0)
    got = backs.column_up([first, second], others + [first, second])
    want = toward(250, 900)
    assert math.degrees(math.acos(min(1.0, got[0] * want[0] + got[1] * want[1]))) < 1.0


def _run(value, length):
    return [value] * round(length / backs.STEP)


def _backs_and_table(n_backs, strip=1.2, band=0.3, fill=90.0, table=40.0):
    p = []
    for _ in range(n_backs):
        p += _run(fill, strip - band) + _run(245.0, band)
    return p + _run(table, backs.REACH)


def _cut(p):
    return np.array(p[:round(backs.REACH / backs.STEP)], np.float32)


def test_a_card_top_right_above_its_rank_glyph_is_its_top():
    """Little paper between the rank glyph and the card's top edge: that short light strip is
    the card's top, not the first back's light edge (generated scenes counted 2 of 3, 5 of 2)."""
    p = _run(230.0, 0.2) + _run(60.0, 0.5) + _run(230.0, 0.25)   # the card ends at 0.95
    assert backs.count_from_profile(_cut(p + _backs_and_table(3)), 230.0) == 3


def test_a_line_printed_inside_the_cards_edge_is_not_its_top():
    """A card face with a border line near its edge (or a light gap in a small rank glyph):
    past the short dark line the card's paper goes on to its top edge."""
    p = _run(230.0, 0.2) + _run(60.0, 0.7) + _run(230.0, 0.4)
    p += _run(120.0, 0.1) + _run(230.0, 0.15)                     # the line, then the paper
    assert backs.count_from_profile(_cut(p + _backs_and_table(2)), 230.0) == 2
    gap = _run(230.0, 0.2) + _run(60.0, 0.25) + _run(230.0, 0.25) + _run(60.0, 0.15)
    gap += _run(230.0, 0.5)                         # a glyph with a light gap past its middle
    assert backs.count_from_profile(_cut(gap + _backs_and_table(2)), 230.0) == 2


def _face_with_pips(paper):
    """A card of the row above seen from its bottom: three pips, each after a stretch of
    paper ``paper`` long, then its paper on."""
    p = []
    for _ in range(3):
        p += _run(235.0, paper) + _run(60.0, 0.25)
    return p + _run(235.0, backs.REACH)


def test_the_row_above_past_the_table_is_not_more_backs():
    """Past the column's few backs, a stretch of table, then the bottom of a card of the row
    above with its pips: further from the last back's edge than the backs are from each
    other, so not backs (generated scenes counted 3 of 2, none for 2)."""
    p = _run(230.0, 0.2) + _run(60.0, 0.7) + _run(230.0, 0.5)
    p += _backs_and_table(2, strip=0.9, band=0.2)[:round(1.8 / backs.STEP)]
    p += _run(40.0, 1.3) + _face_with_pips(0.4)                   # the table, a face
    assert backs.count_from_profile(_cut(p), 230.0) == 2


def test_a_stretch_of_table_past_a_single_back_is_not_another_back():
    """One back, then the table, far darker than the back's pattern, then the row above: a
    light mark past the table, even at about a back's spacing, is not another back (generated
    scenes counted 5 and 4 for 1)."""
    p = _run(230.0, 0.2) + _run(60.0, 0.7) + _run(230.0, 0.5)
    p += _backs_and_table(1, strip=1.0, band=0.2, fill=90.0)[:round(1.0 / backs.STEP)]
    p += _run(30.0, 1.2) + _face_with_pips(0.3)                   # the table, a face
    assert backs.count_from_profile(_cut(p), 230.0) == 1


def test_a_table_as_light_as_paper_past_the_backs_ends_the_column():
    """Past backs' evenly spaced edges, a table as light as the cards' paper: the column's
    end, not a face-up card lying above (generated scenes had none counted for 5, 1 for 5,
    none for 2)."""
    assert backs.count_from_profile(_profile(4, table=216.0), 230.0) == 4
    assert backs.count_from_profile(_profile(2, table=216.0), 230.0) == 2
    assert backs.count_from_profile(_profile(5, table=216.0), 230.0) == 5


def test_backs_above_a_picture_card_whose_index_was_not_read():
    """A face-up card lies between the card read and the backs, its index not read, and its
    face dimmer than paper (a picture card, or in shadow), so it looks like no backs and then
    a stretch of table: the backs above it are counted (generated scenes had none for 4, 3)."""
    rgb = _column(3, hidden=True, hidden_paper=150)
    assert backs.count_backs(rgb, _read(), dealt=3, step=2.4) == 3


def test_no_backs_then_the_table_and_the_row_above_are_none():
    """No backs left above the column's first face-up card: the table, then (further up) a
    card of the row above, whose pips are not backs, from the card read or one step up."""
    rgb = _column(0, row_above=1.5)
    assert backs.count_backs(rgb, _read(), dealt=3, step=2.4) == 0
    light = _column(0, row_above=1.5)
    light[light == 40] = 160                                      # a light table
    assert backs.count_backs(light, _read(), dealt=3, step=2.4) == 0


def test_pips_past_a_long_stretch_of_table_are_not_backs():
    """No backs: past the card's top, a stretch of table longer than backs are apart,
    then a card of the row above whose pips, evenly spaced, stand in the band, and its paper:
    not backs ending at a light table (the row above's face is no table)."""
    p = _run(230.0, 0.2) + _run(60.0, 0.7) + _run(230.0, 0.5)
    p += _run(40.0, 1.2)                                          # the table
    for _ in range(3):
        p += _run(235.0, 0.55) + _run(80.0, 0.2)                  # pips, 0.75 apart
    p += _run(235.0, backs.REACH)
    assert backs.count_from_profile(_cut(p), 230.0) in (None, 0)


def test_backs_dealt_wide_for_small_indices_are_counted_with_the_face_up_spacing():
    """Small indices on cards cascaded wide: backs' edges further apart than the usual gap (in
    index sizes) from the first on; the face-up cards' spacing in the photo's columns says how
    wide the cascade is, and each is counted (a generated scene counted 1 of 3)."""
    p = _run(230.0, 0.2) + _run(60.0, 0.7) + _run(230.0, 0.7)
    p += _backs_and_table(3, strip=1.95, band=0.2)
    assert backs.count_from_profile(_cut(p), 230.0, step=3.4) == 3


def test_a_card_of_the_row_above_past_the_table_is_not_backs_by_its_pips():
    """One back, a long stretch of table (no darker than the back's pattern), then a card of
    the row above: its bottom edge and its pips, closer together than backs, are not backs
    (generated scenes counted 4 of 1)."""
    p = _run(230.0, 0.2) + _run(60.0, 0.7) + _run(230.0, 0.5)
    p += _backs_and_table(1, strip=0.9, band=0.2, fill=50.0)[:round(0.9 / backs.STEP)]
    p += _run(50.0, 1.5)                                          # the table
    for _ in range(3):                                            # the card, its pips
        p += _run(235.0, 0.25) + _run(60.0, 0.15)
    p += _run(235.0, 0.3) + _run(50.0, backs.REACH)               # its top: the table
    assert backs.count_from_profile(_cut(p), 230.0, step=3.7) == 1


def test_a_table_brighter_than_the_paper_past_a_single_back_ends_the_column():
    """One back, then a table brighter than the card's paper (uneven light, a light cloth):
    the column's end, not a face-up card lying above (a generated scene had none for 1)."""
    p = _run(170.0, 0.2) + _run(50.0, 0.7) + _run(170.0, 0.5)
    p += _backs_and_table(1, strip=1.2, band=0.2, fill=50.0, table=205.0)
    assert backs.count_from_profile(_cut(p), 170.0) == 1


def test_no_backs_then_more_table_than_the_usual_gap_and_pips_in_a_wide_cascade():
    """No backs; a wide cascade lets the first back lie past the usual gap, but what lies
    there is a card of the row above: its bottom edge and pips, closer together than any
    backs, are not backs (a generated scene counted 3 on a column without backs)."""
    p = _run(230.0, 0.2) + _run(60.0, 0.7) + _run(230.0, 0.5)
    p += _run(40.0, 1.7)                                          # the table
    for _ in range(3):                                            # the card, its pips
        p += _run(235.0, 0.25) + _run(60.0, 0.15)
    p += _run(235.0, 0.3) + _run(40.0, backs.REACH)               # its top: the table
    assert backs.count_from_profile(_cut(p), 230.0, step=3.5) == 0

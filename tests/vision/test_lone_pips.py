"""An index whose rank glyph is no blob of its own: its pip alone is found, and the glyph is
looked for where the indices read surely around it have theirs (`read._lone_pips`); and the
other way round, a rank glyph whose pip is no blob of its own (`ReadConfig.lone_glyphs`).

Held-out photos (fonts never trained on, as `bench/vision_failures.py` draws them): a rank
glyph joined to the strip of table along its card's edge, or drawn in a four-colour deck's
blue so thin and faint that it falls apart into specks, was never paired with its pip, so the
card was not read at all."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("cv2")

from companion.cards import Card, code_text
from companion.vision.config import DEFAULT


def _read(sc, lone: bool, monkeypatch, glyphs: bool = False):
    from companion.vision import detect, read
    from companion.vision.model import load
    # (the lone pips alone: scene 283's K, broken from the table's strip, is read from its
    # fragments joined as well, see test_joined.py)
    monkeypatch.setattr(detect, "JOIN_FRAGMENTS", False)
    return read.read_photo(sc.image, load(),
                           config=replace(DEFAULT, lone_pips=lone, lone_glyphs=glyphs))


def _sure(dets) -> set[str]:
    return {code_text(d.code, False) for d in dets if not d.uncertain}


def _near(sc, dets, text):
    """The reading of ``text`` lies at one of its indices in the photo (a card read at both
    its corners: either; its place is the more upright one's, which may be a little covered)."""
    code = Card.parse(text).code
    d = next(d for d in dets if d.code == code)
    at = [(ix["rank"].mean(0) + ix["pip"].mean(0)) / 2 for ix in sc.indices
          if ix["code"] == code and ix["visible"]]
    read_at = [(d.x, d.y)] + ([d.other[:2]] if d.other is not None else [])
    return any(((a - x) ** 2 + (b - y) ** 2) ** 0.5 < 0.5 * d.size
               for x, y in at for a, b in read_at)


def test_a_rank_glyph_joined_to_the_table_is_read_from_its_pip(monkeypatch, held_out_scene):
    """Held-out Klondike scene 283: the K♦ at the top of t2 has its K touching the dark
    table beside the card; only the ♦ is a blob of its own."""
    sc = held_out_scene(7_000_283, "klondike")
    assert "Kd" not in _sure(_read(sc, False, monkeypatch))
    dets = _read(sc, True, monkeypatch)
    assert "Kd" in _sure(dets) and _near(sc, dets, "Kd")


def test_a_four_colour_decks_faint_blue_ranks_are_read_from_their_pips(monkeypatch, held_out_scene):
    """Held-out Gaps scene 17 (a four-colour deck, diamonds in blue): the thin blue rank
    glyphs fall apart into specks, and of the 12 diamonds only the K♦ was read (its K is
    bold enough); the number cards' are now, each at its index, and no card is read surely
    that is not in the photo."""
    sc = held_out_scene(7_001_017, "gaps")
    before = _sure(_read(sc, False, monkeypatch))
    dets = _read(sc, True, monkeypatch)
    after = _sure(dets)
    found = {t for t in after - before if t.endswith("d")}
    assert {t for t in before if t.endswith("d")} == {"Kd"}
    assert len(found) >= 6
    assert all(_near(sc, dets, t) for t in found)
    shown = {code_text(c["code"], False) for c in sc.cards if c["visible_frac"] >= 0.5}
    assert after <= shown


@pytest.mark.parametrize("seed, card", [(7_000_447, "Qh"), (7_000_102, "Kh")])
def test_a_pip_joined_to_the_table_is_found_from_its_rank_glyph(monkeypatch, seed, card,
                                                                held_out_scene):
    """Held-out Klondike scenes 447 and 102: a court card's ♥ touches the card's edge (or its
    picture's frame) and joins the dark table in one blob, so its rank glyph had no pip to
    pair with; the pip is looked for where the indices around have theirs, and read where
    its ink is."""
    sc = held_out_scene(seed, "klondike")
    before = _sure(_read(sc, True, monkeypatch))
    assert card not in before
    dets = _read(sc, True, monkeypatch, glyphs=True)
    after = _sure(dets)
    assert card in after and _near(sc, dets, card)
    shown = {code_text(c["code"], False) for c in sc.cards if c["visible_frac"] >= 0.5}
    assert after - before <= shown


def test_a_lone_pips_own_box_does_not_hide_its_glyph(held_out_scene):
    """Held-out Gaps scene 7,601,017 (the check set's): the 8♠ lies aslant, and the corner of
    the pip's own box reached the place where its rank glyph should be, which was taken for a
    blob of its own lying there (the pair looked at already), so the pip was never read alone
    (`ReadConfig.lone_not_itself`). (The 9♥ beside it was too, with the recognizer trained before
    the twenty-fourth session; the one since reads it without.)"""
    from companion.vision import read
    from companion.vision.model import load
    sc = held_out_scene(7_601_017, "gaps")
    clf = load()
    before = _sure(read.read_photo(sc.image, clf, backs=False,
                                   config=replace(DEFAULT, lone_not_itself=False)))
    assert "8s" not in before
    dets = read.read_photo(sc.image, clf, backs=False)
    after = _sure(dets)
    assert {"8s", "9h"} <= after
    assert _near(sc, dets, "8s") and _near(sc, dets, "9h")
    shown = {code_text(c["code"], False) for c in sc.cards if c["visible_frac"] >= 0.5}
    assert after - before <= shown


def test_a_strip_of_table_beside_a_glyph_does_not_hide_its_pip(held_out_scene):
    """Held-out Gaps scene 66 (a four-colour deck, green clubs on a green table): the Q♣'s Q
    touches the strip of table along its card's edge, one blob with it, many index sizes
    long, lying where the rank glyph should be; it was taken for the glyph's own blob, so the
    pip was never read alone. A blob that large is no glyph's or pip's (`ReadConfig.lone_big`).
    (The example until the twenty-fourth session, the check set's scene 17, is read right
    either way by the recognizer trained since.)"""
    from companion.vision import read
    from companion.vision.model import load
    sc = held_out_scene(7_001_066, "gaps")
    clf = load()
    before = _sure(read.read_photo(sc.image, clf, backs=False,
                                   config=replace(DEFAULT, lone_big=0)))
    assert "Qc" not in before
    dets = read.read_photo(sc.image, clf, backs=False)
    after = _sure(dets)
    assert "Qc" in after and _near(sc, dets, "Qc")
    shown = {code_text(c["code"], False) for c in sc.cards if c["visible_frac"] >= 0.5}
    assert after - before <= shown


def test_a_glyph_joined_to_the_strip_between_two_cards_is_read_clear_of_it(held_out_scene):
    """Check-set Gaps scene 17: the K♠'s thin, faint K lies against the strip of dark table
    between its card and the next. Its pip alone is a blob; read where the indices around
    say its glyph lies, with the strip in the crop, the model is unsure; with the strip
    painted over and the glyph found where its ink is, it is read (`ReadConfig.lone_strips`), at
    its index, and no card that is not in the photo is read. (The K♣ of the same photo was
    the example until the thirty-first session, whose recognizer reads its K at 68 % at
    most, and leaves it unread either way; of 200 held-out Gaps scenes, 7,001,000 on, and
    the check set's 30, this photo is the one that turns on it. Earlier examples: scene 23's
    Q♥ until the twenty-fourth session, held-out scene 67's 3♠ until the refiner's second
    files. The recognizer's files of 2026-11-29 read the K♠ without the strip painted over
    too, and of 100 held-out Gaps scenes none turns on it: the rule is kept for real photos,
    where the table between cards lies darker, and this checks it takes nothing away.)"""
    from companion.vision import read
    from companion.vision.model import load
    sc = held_out_scene(7_601_017, "gaps")
    clf = load()
    before = _sure(read.read_photo(sc.image, clf, backs=False,
                                   config=replace(DEFAULT, lone_strips=False)))
    dets = read.read_photo(sc.image, clf, backs=False)
    after = _sure(dets)
    assert "Ks" in after and _near(sc, dets, "Ks")
    assert before <= after
    shown = {code_text(c["code"], False) for c in sc.cards if c["visible_frac"] >= 0.5}
    assert after - before <= shown


def test_a_strip_is_painted_over_and_the_glyph_beside_it_kept():
    """A dark strip of table crossing an index's window, a ring of ink (the glyph) touching
    it: the strip is painted the paper's colour, the ring is kept whole enough to be found
    where it lies; a window with no strip is left alone."""
    import cv2
    import numpy as np

    from companion.vision.detect import strips_painted
    rgb = np.full((90, 90, 3), 230, np.uint8)
    cv2.line(rgb, (0, 20), (89, 32), (60, 40, 60), 4)          # the strip, aslant
    cv2.circle(rgb, (40, 37), 7, (180, 30, 30), 3)               # the glyph, touching it
    cv2.circle(rgb, (45, 60), 6, (180, 30, 30), -1)              # the pip
    mn = rgb.min(axis=2)
    got = strips_painted(mn, rgb, np.array([45.0, 60.0]), np.array([43.0, 38.0]), 22.0)
    assert got is not None
    pmn, prgb, glyph = got
    assert pmn[20:33, 0:20].min() > 200 and pmn[28:34, 70:90].min() > 200  # the strip is gone
    assert pmn[37, 32:35].min() < 120 and pmn[43:46, 40].min() < 120       # the ring is not
    assert pmn[31, 40] < 120                                               # nor its top
    assert abs(glyph[0] - 40) < 2 and abs(glyph[1] - 37) < 2
    assert mn[25, 30] < 120                                                # (a copy)
    plain = np.full((90, 90, 3), 230, np.uint8)
    cv2.circle(plain, (40, 37), 7, (180, 30, 30), 3)
    assert strips_painted(plain.min(axis=2), plain, np.array([45.0, 60.0]),
                          np.array([43.0, 38.0]), 22.0) is None


def test_boxes_near_a_place_are_those_a_test_of_every_box_finds():
    """The blobs reaching near each place guessed, found among the boxes sorted by x, are
    those a test of every place against every box finds (boxes of all sizes, places near the
    edges and beyond)."""
    import numpy as np

    from companion.vision.read import _boxes_near
    rng = np.random.default_rng(5)
    boxes = np.column_stack([rng.integers(0, 400, 300), rng.integers(0, 300, 300),
                             rng.integers(1, 60, 300), rng.integers(1, 40, 300),
                             rng.integers(1, 500, 300)])
    at = rng.uniform(-20, 420, (200, 2))
    h = rng.uniform(1, 15, 200)
    i, k = _boxes_near(boxes, at, h)
    cb = boxes.astype(float)
    x, y, hh = at[:, :1], at[:, 1:], h[:, None]
    every = ((cb[None, :, 0] < x + hh) & (cb[None, :, 0] + cb[None, :, 2] > x - hh)
             & (cb[None, :, 1] < y + hh) & (cb[None, :, 1] + cb[None, :, 3] > y - hh))
    assert len(i) > 50
    rows, cols = np.nonzero(every)
    assert sorted(zip(i.tolist(), k.tolist(), strict=True)) == \
        sorted(zip(rows.tolist(), cols.tolist(), strict=True))


@pytest.mark.parametrize("seed, text", [(7_001_002, "Ks"), (7_001_031, "Qc")])
def test_an_index_is_read_where_its_card_was_read_at_the_other_corner(seed, text,
                                                                      held_out_scene):
    """Held-out Gaps scenes 2 and 31: the K♠ (the Q♣) was read at its corner half under the
    next card, and its wholly visible corner, found from its pip and 100 % sure, was left
    out as a card read already. It is read now (`ReadConfig.lone_twins`): the two corners make one
    card, read at both, and the photo's cards read surely are the same."""
    from companion.vision import read
    from companion.vision.model import load
    sc = held_out_scene(seed, "gaps")
    clf = load()
    code = Card.parse(text).code
    shown = [(ix["rank"].mean(0) + ix["pip"].mean(0)) / 2 for ix in sc.indices
             if ix["code"] == code and ix["visible"]]

    def at_shown(dets):
        d = next(d for d in dets if d.code == code and not d.uncertain)
        places = [(d.x, d.y)] + ([d.other[:2]] if d.other is not None else [])
        return any(((x - a) ** 2 + (y - b) ** 2) ** 0.5 < 0.5 * d.size
                   for x, y in places for a, b in shown)

    old = read.read_photo(sc.image, clf, backs=False, config=replace(DEFAULT, lone_twins=False))
    assert not at_shown(old)
    dets = read.read_photo(sc.image, clf, backs=False)
    assert at_shown(dets)
    assert sum(1 for d in dets if d.code == code) == 1
    assert next(d for d in dets if d.code == code).corners == 2
    assert _sure(dets) == _sure(old)

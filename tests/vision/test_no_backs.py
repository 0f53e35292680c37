"""Where the game deals no card face down (Gaps), no card back can lie in the photo, and two
blobs both peeled off a strip of table make a candidate index too (`detect.candidates`'
``backs``): in a Gaps layout the cards lie close together, and an index's pip and rank glyph
can both touch the table between them. Elsewhere such pairs are left out: they are more
often bits of a back's border. `scan --variant` tells the reading which (`piles.deals_face_down`).

Held-out photos (fonts never trained on, as `bench/vision_failures.py` draws them)."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("cv2")


def test_which_games_show_no_backs():
    from companion.rules import load_variant
    from companion.vision.piles import deals_face_down
    assert not deals_face_down(load_variant("gaps"))
    assert not deals_face_down(load_variant("streets-and-alleys"))
    assert deals_face_down(load_variant("klondike"))   # the columns and the stock
    assert deals_face_down(load_variant("pyramid"))    # the stock


def test_an_index_peeled_off_the_table_is_read_where_no_back_can_lie(held_out_scene):
    """Held-out Gaps scene 10: 4♠ and 3♥ are each read at one corner only, pip and glyph
    both peeled off the table's strip; nothing read is absent from the photo. (The K♠ was
    too until the recognizer's files of the thirty-first session, which read it either way.
    Their lone glyphs or pips are read too since, the strip beside them no longer taken for
    their own blob, `ReadConfig.lone_big`, and the K♠ and 4♠ from their pips with the strip
    painted over, `ReadConfig.lone_strips`, each at its index; those are left out here, to see the pairs
    alone.)"""
    from companion.cards import parse_card
    from companion.vision.config import DEFAULT
    from companion.vision.model import load
    from companion.vision.read import read_photo
    config = replace(DEFAULT, lone_big=0, lone_strips=False)
    sc = held_out_scene(7_001_010, "gaps")
    clf = load()
    want = {parse_card(t).code for t in ("4s", "3h")}
    with_backs = read_photo(sc.image, clf, backs=True, config=config)
    without = read_photo(sc.image, clf, backs=False, config=config)
    sure = {d.code for d in without if not d.uncertain}
    assert want <= sure
    assert not want & {d.code for d in with_backs if not d.uncertain}
    assert sure <= {c["code"] for c in sc.cards}
    assert {d.code for d in with_backs if not d.uncertain} <= sure

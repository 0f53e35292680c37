"""The scene generator is deterministic and its ground truth matches the deal."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from companion.vision.synth import make_scene  # noqa: E402


def test_same_seed_same_scene():
    a = make_scene(11, "gaps", size=(800, 600))
    b = make_scene(11, "gaps", size=(800, 600))
    assert np.array_equal(a.image, b.image)
    assert [i["code"] for i in a.indices] == [i["code"] for i in b.indices]
    c = make_scene(12, "gaps", size=(800, 600))
    assert not np.array_equal(a.image, c.image)


def test_ground_truth_is_the_deal():
    sc = make_scene(3, "pyramid", size=(800, 600))
    by_pile = {c["pile"]: c["code"] for c in sc.cards}
    names = sc.position.engine.names
    for i, name in enumerate(names):
        if name.startswith("p"):
            assert by_pile[name] == sc.position.piles[i][-1]
    # the rows overlap so that the index strips show: nearly every card has a visible corner
    assert sum(c["visible"] for c in sc.cards) >= 24
    # and a card covered from above never has its upper corner marked visible
    for ix in sc.indices:
        if ix["pile"] == "p1" and ix["corner"] == 1:
            assert not ix["visible"]  # the apex's lower corner lies under row 2
    assert sc.image.shape == (600, 800, 3)


def test_widened_styles_keep_the_scene_and_its_truth():
    """Training's wider rank glyphs (Hershey stroke fonts, heavier or lighter strokes, squeezed
    or stretched) change only the glyphs: the same layout, and each rank box still holds its
    glyph's ink."""
    from companion.vision import synth
    plain = make_scene(5, "klondike", size=(800, 600))
    wide = make_scene(5, "klondike", size=(800, 600), widen=True)
    assert [(c["code"], c["pile"]) for c in plain.cards] == [(c["code"], c["pile"]) for c in wide.cards]
    assert not np.array_equal(plain.image, wide.image)   # seed 5 draws a widened style
    fonts = synth.available_fonts(synth.TRAIN_FONTS)
    for face, stroke, width in ((0, 0.08, 1.0), (4, 0.15, 0.85), (None, -0.03, 1.15), (None, 0.05, 0.9)):
        style = synth.Style(font=fonts[0], hershey=face, stroke=stroke, width=width,
                            glyph_pips=False, border=False)
        assert not style.plain_rank
        for code in (0, 9, 10, 24):   # A, 10, J of spades, Q of hearts
            img, boxes = synth.render_face(style, code)
            ink = np.asarray(img).min(2) < 128
            (x0, y0, x1, y1), pip = boxes[0]
            inside = ink[int(y0):int(np.ceil(y1)) + 1, int(x0):int(np.ceil(x1)) + 1].sum()
            above_pip = ink[:int(pip[1]), :int(CORNER * synth.CW)].sum()
            assert inside > 0 and inside >= 0.97 * above_pip
            assert 0.6 < (y1 - y0) / (style.rank_h * synth.CH) < 1.5


CORNER = 0.25  # the index corner's width, of the card's (the court panel starts at 0.27)

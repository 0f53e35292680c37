"""The scene generator is deterministic and its ground truth matches the deal."""

from __future__ import annotations

import os

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


HELDOUT_FAMILIES = ("Liberation", "Arimo", "Tinos", "Cousine", "DejaVuSansMono", "DejaVuSerifCondensed",
                    "texgyreheros", "texgyretermes")
# (TeX Gyre Cursor, a Courier, is trained on: the metric clone of Liberation Mono and Cousine,
# neither of them held out; DejaVu Sans Mono, the held-out monospaced face, is another design)


def test_extra_training_fonts_are_off_by_default_and_never_held_out():
    """``extra`` (``train --fonts extra``) draws other rank fonts and pip glyphs from the same
    seed: the deal and its truth stay, a scene without it is the plain one, and none of the
    extra fonts is a held-out family or a near-clone of one, so the bench stays unseen."""
    from companion.vision import synth
    for name in synth.EXTRA_TRAIN_FONTS + synth.EXTRA_PIP_FONTS:
        assert not name.startswith(HELDOUT_FAMILIES), name
    assert not set(synth.EXTRA_TRAIN_FONTS) & set(synth.HELDOUT_FONTS + synth.TRAIN_FONTS)
    plain = make_scene(7, "klondike", size=(800, 600))
    assert np.array_equal(plain.image, make_scene(7, "klondike", size=(800, 600), extra=False).image)
    if len(synth.extra_fonts()) <= len(synth.available_fonts(synth.TRAIN_FONTS)):
        pytest.skip("the extra training fonts are not installed")
    extra = make_scene(7, "klondike", size=(800, 600), extra=True)
    assert [(c["code"], c["pile"]) for c in plain.cards] == [(c["code"], c["pile"]) for c in extra.cards]
    assert not np.array_equal(plain.image, extra.image)
    # over many seeds the rank font is mostly an extra one, and the pips vary
    styles = [make_scene(s, "klondike", size=(200, 150), effects=0, extra=True).style
              for s in range(1, 13)]
    assert sum(os.path.basename(st.font) in synth.EXTRA_TRAIN_FONTS for st in styles) >= 6
    assert len({st.pip_font for st in styles}) >= 2


def test_extra_fonts_missing_are_skipped_with_a_warning(monkeypatch, capsys):
    from companion.vision import synth
    monkeypatch.setattr(synth, "EXTRA_TRAIN_FONTS", ("NoSuchFont-Bold.ttf",))
    fonts = synth.extra_fonts()
    assert fonts == synth.available_fonts(synth.TRAIN_FONTS)
    err = capsys.readouterr().err
    assert "NoSuchFont-Bold.ttf" in err and "apt-get install" in err


def test_every_extra_font_draws_its_index_inside_the_truth():
    """Each extra typeface's rank glyph lands in the rank box the ground truth gives (OpenType
    and TrueType fonts alike), and each pip font draws the four suits."""
    from companion.vision import synth
    fonts = synth.available_fonts(synth.EXTRA_TRAIN_FONTS)
    pips = synth.available_fonts(synth.EXTRA_PIP_FONTS)
    if not fonts:
        pytest.skip("the extra training fonts are not installed")
    for i, font in enumerate(fonts):
        style = synth.Style(font=font, glyph_pips=True, pip_font=pips[i % len(pips)], border=False)
        for code in (0, 9, 10, 24, 39):   # A, 10, J of spades, Q of hearts, A of clubs
            img, boxes = synth.render_face(style, code)
            ink = np.asarray(img).min(2) < 128
            (x0, y0, x1, y1), pip = boxes[0]   # a wide "10" may reach past the card's edge
            inside = ink[int(y0):int(np.ceil(y1)) + 1, max(0, int(x0)):int(np.ceil(x1)) + 1].sum()
            above_pip = ink[:int(pip[1]), :int(CORNER * synth.CW)].sum()
            assert inside > 0 and inside >= 0.97 * above_pip, (font, code)
            pip_ink = ink[int(pip[1]):int(np.ceil(pip[3])) + 1, int(pip[0]):int(np.ceil(pip[2])) + 1]
            assert pip_ink.mean() > 0.2, (font, code)


def test_the_suites_scenes_are_drawn_in_faces_that_ship_with_it():
    """A test scene must be the same on every machine: each face the tests and benchmarks draw
    in is found in tests/fonts or the package, never taken from whatever the system has."""
    from companion.vision import synth
    tests_fonts = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fonts")
    shipped = (os.path.abspath(tests_fonts), os.path.abspath(synth.FONT_DIR))
    for name in synth.HELDOUT_FONTS + synth.TRAIN_FONTS + synth.WIDE_FONTS:
        path = synth.find_font(name)
        assert path and os.path.dirname(os.path.abspath(path)) in shipped, name


def test_a_shaken_photo_is_blurred_the_same_way_for_the_same_seed():
    import numpy as np

    from companion.vision.synth import make_scene, shake
    img = make_scene(3, "klondike", size=(400, 300)).image
    a = shake(img, np.random.default_rng(5))
    b = shake(img, np.random.default_rng(5))
    assert a.shape == img.shape and a.dtype == img.dtype
    assert np.array_equal(a, b)

    def detail(x):   # the energy of the finest detail: what a blur takes away
        g = x.astype(np.float32).mean(2)
        return float(np.abs(np.diff(g, axis=0)).mean() + np.abs(np.diff(g, axis=1)).mean())
    for seed in range(4):   # motion and focus blur both
        assert detail(shake(img, np.random.default_rng(seed))) < 0.8 * detail(img)

"""An index whose rank glyph and pip blurred into one blob is cut at the blob's waist
(`detect._waist_splits`); the convolutional recognizer reads such a cut surely, and
`ReadConfig.waist_sure` lets it, after every other reading (`read.read_cards`).

Held-out photos (fonts never trained on, as `bench/vision_failures.py` draws them): the hearts'
lobes touch their rank glyphs, so those cards were not read at all."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("cv2")

from companion.cards import code_text


def _read(sc, sure):
    from companion.vision import read
    from companion.vision.config import DEFAULT
    from companion.vision.model import load
    # (the blob whole is read as a whole index too, read._merged: the cuts alone here)
    config = replace(DEFAULT, waist_sure=sure, merged=False)
    return read.read_photo(sc.image, load(), config=config)


def _sure(dets) -> set[str]:
    return {code_text(d.code, False) for d in dets if not d.uncertain}


@pytest.mark.parametrize("seed, cards", [(7_000_024, {"7h", "5h"}), (7_000_061, {"5h"})])
def test_a_heart_blurred_into_its_rank_is_read_from_the_waist_cut(seed, cards, held_out_scene):
    sc = held_out_scene(seed)
    truth = {code_text(ix["code"], False) for ix in sc.indices if ix["visible"]}
    shown = {code_text(ix["code"], False) for ix in sc.indices if ix["visible_frac"] >= 0.5}
    assert cards <= truth
    without = _sure(_read(sc, 0.0))
    assert not cards & without
    got = _sure(_read(sc, 0.95))
    assert cards <= got
    # what the cuts add is in the photo, and nothing read before is lost
    assert got - without <= shown and without <= got


def test_the_earlier_recognizer_never_reads_a_waist_cut():
    """The HOG recognizer read bits of a back's pattern cut at a waist as cards: with it,
    those cuts stay for the layout's second look."""
    from companion.vision.model import load
    assert load().reads_waists and not load(recognizer="hog").reads_waists

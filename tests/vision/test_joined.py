"""A rank glyph broken into fragments (`detect._joined_fragments`): the blobs that join when
the ink is grown by a pixel are also taken as one blob, and an index using it is read only
when the model is sure of it (`ReadConfig.joined_sure`).

Held-out photos (fonts never trained on, as `bench/vision_failures.py` draws them)."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("cv2")

from companion.cards import code_text


def _read(sc, monkeypatch, join=True, sure=0.95):
    from companion.vision import detect, read
    from companion.vision.config import DEFAULT
    from companion.vision.model import load
    monkeypatch.setattr(detect, "JOIN_FRAGMENTS", join)
    # (the earlier, HOG recognizer, which still ships: these photos' glyphs are the cases
    # that it read wrong or not at all)
    return read.read_photo(sc.image, load(recognizer="hog"),
                           config=replace(DEFAULT, joined_sure=sure))


def _texts(dets, uncertain: bool) -> list[str]:
    return sorted(code_text(d.code, False) for d in dets if d.uncertain == uncertain)


def test_a_queen_whose_q_fell_apart_is_read(monkeypatch, held_out_scene):
    """Held-out Klondike scene 213: the Q♥ at the foot of a column (on the K♣) has a thin
    serif Q that thresholds into three specks, none of them paired with the ♥ well enough
    to read; joined, the Q reads 97 %, at one of the card's two indices."""
    sc = held_out_scene(7_000_213)
    before = _read(sc, monkeypatch, join=False)
    assert "Qh" not in _texts(before, False)
    dets = _read(sc, monkeypatch)
    assert "Qh" in _texts(dets, False)
    q = next(d for d in dets if code_text(d.code, False) == "Qh")
    at = [(ix["rank"].mean(0) + ix["pip"].mean(0)) / 2 for ix in sc.indices
          if code_text(ix["code"], False) == "Qh" and ix["visible"]]
    assert any(((q.x - x) ** 2 + (q.y - y) ** 2) ** 0.5 < 0.5 * q.size for x, y in at)
    assert set(_texts(dets, False)) - set(_texts(before, False)) == {"Qh"}


def test_two_glyphs_side_by_side_are_not_read_as_one(monkeypatch, held_out_scene):
    """Held-out Klondike scene 446: the "1" and "0" of a 10♠ join into one blob, a crop the
    model never saw, read Q♠ at 90 %, sure, in place of the 10♠ (no Q♠ is in the photo).
    Two parts each nearly as long as their union are not joined (`detect.JOIN_WHOLE`), and a
    joined blob is read only when sure (`ReadConfig.joined_sure`): either keeps the reading as it
    was without the joining. (The example until the second refiner, scene 347, whose joined
    "10" it no longer reads as a Q.)"""
    from companion.vision import detect
    sc = held_out_scene(7_000_446)
    plain = _read(sc, monkeypatch, join=False)
    assert _texts(plain, True) == [] and "10s" in _texts(plain, False)
    assert "Qs" not in _texts(plain, False)
    monkeypatch.setattr(detect, "JOIN_WHOLE", 5.0)  # (no union is too long: all joined)
    joined = _read(sc, monkeypatch, sure=0.0)
    assert "Qs" in _texts(joined, False) and "10s" not in _texts(joined, False)
    dets = _read(sc, monkeypatch)
    assert _texts(dets, True) == [] and _texts(dets, False) == _texts(plain, False)
    monkeypatch.undo()  # (the rule as it stands)
    for dets in (_read(sc, monkeypatch, sure=0.0), _read(sc, monkeypatch)):
        assert _texts(dets, True) == [] and _texts(dets, False) == _texts(plain, False)

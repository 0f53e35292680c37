"""A candidate index far larger than the photo's other indices (ink of several cards taken
together) is not offered as a reading, not even an uncertain one."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("cv2")

import companion.vision.read as read
from companion.vision.synth import HELDOUT_FONTS, available_fonts, make_scene

# A Klondike scene of the held-out set (bench/vision_failures.py, scene 24): in a green,
# shadowed light, the ink of four cards' faces made one "2♣" candidate spanning them (46 %).
SCENE = 7_000_024


def _median_size(dets) -> float:
    sizes = sorted(d.size for d in dets if not d.uncertain)
    return sizes[len(sizes) // 2]


def test_no_reading_spans_the_ink_of_several_cards(monkeypatch):
    fonts = available_fonts(HELDOUT_FONTS)
    if not fonts:
        pytest.skip("no held-out font installed")
    sc = make_scene(SCENE, "klondike", fonts=fonts)
    dets = read.read_photo(sc.image)
    med = _median_size(dets)
    assert len(dets) >= 6 and max(d.size for d in dets) <= read.SIZE_RATIO * med
    # every reading lies at one of the scene's indices
    centres = [(ix["rank"].mean(0) + ix["pip"].mean(0)) / 2 for ix in sc.indices]
    for d in dets:
        assert min(math.hypot(d.x - c[0], d.y - c[1]) for c in centres) < 1.5 * med
    # without the rule, the giant reading is offered (uncertain)
    limit = read.SIZE_RATIO
    monkeypatch.setattr(read, "SIZE_RATIO", 0.0)
    dets = read.read_photo(sc.image)
    giant = [d for d in dets if d.size > limit * _median_size(dets)]
    assert giant and all(d.uncertain for d in giant)

"""Fixtures of the vision tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def held_out_scene():
    """``scene(seed, kind="klondike")``: the generated photo drawn in the held-out fonts, as
    `bench/vision.py` and `bench/vision_failures.py` draw it (fonts never trained on); the test
    skips where those fonts are not all installed (the scene would be drawn in other faces)."""
    pytest.importorskip("cv2")
    from companion.vision.synth import HELDOUT_FONTS, available_fonts, make_scene
    fonts = available_fonts(HELDOUT_FONTS)
    if len(fonts) != len(HELDOUT_FONTS):
        pytest.skip("the held-out fonts (tests/fonts) are not all "
                    "there: the scene would be drawn in another font")

    def scene(seed, kind="klondike"):
        return make_scene(seed, kind, fonts=fonts)
    return scene

"""A whole index run into one blob (a heart's lobes touching a 3 or a K, an 8's loop and its
pip): no pair of blobs makes it, and no waist cuts it. `read._merged` reads such a blob as an
index lying along the axis of the indices read surely near it, centred on the blob, when the
recognizer is 95 % sure (`ReadConfig.merged_sure`).

Held-out photos (fonts never trained on, as `bench/vision.py` draws them)."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("cv2")

from companion.cards import code_text


def _sure(sc, merged):
    from companion.vision import read
    from companion.vision.config import DEFAULT
    from companion.vision.model import load
    return {code_text(d.code, False)
            for d in read.read_photo(sc.image, load(), config=replace(DEFAULT, merged=merged))
            if not d.uncertain}


@pytest.mark.parametrize("seed, kind, cards", [
    (7_000_336, "klondike", {"3h", "Kh"}),
    (7_000_024, "klondike", {"2c"}),
    (7_001_035, "gaps", {"2c"}),
    (7_002_006, "pyramid", {"2h"}),
])
def test_an_index_run_into_one_blob_is_read(seed, kind, cards, held_out_scene):
    sc = held_out_scene(seed, kind)
    truth = {code_text(ix["code"], False) for ix in sc.indices if ix["visible"]}
    shown = {code_text(ix["code"], False) for ix in sc.indices if ix["visible_frac"] >= 0.5}
    assert cards <= truth
    without = _sure(sc, False)
    assert not cards & without
    got = _sure(sc, True)
    assert cards <= got
    # what it adds is in the photo, and nothing read before is lost
    assert got - without <= shown and without <= got

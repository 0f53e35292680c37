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

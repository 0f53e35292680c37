"""A Gaps photo: its four gaps are part of the position. The deal puts the aces aside and
leaves four places empty (the rules say so: `companion.rules.deal`), so the places no card
was read on are those gaps when there are four of them (`piles.PileReading.empty`), and the
photo gives a position `hint --photo` and `scan` can use; with more places unread, which
are the gaps is not known, and they stay unread.

Held-out photos (fonts never trained on, as `bench/vision_failures.py` draws them)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("cv2")

SEED = 8_001_007   # a Gaps layout read exactly, every card sure


@pytest.fixture
def gaps_photo(held_out_scene, tmp_path):
    import cv2
    sc = held_out_scene(SEED, "gaps")
    path = tmp_path / "gaps.jpg"
    cv2.imwrite(str(path), sc.image[..., ::-1])
    from .test_four_colour import _bench
    places = [f"{r}{c}" for r in "abcd" for c in range(1, 14)]
    # named as the photo shows the layout (the camera stood on the far side: turned round)
    truth = _bench()._gaps_as_photographed({c["pile"]: c["code"] for c in sc.cards}, sc)
    gaps = sorted(set(places) - set(truth), key=places.index)
    return sc, path, gaps


def test_the_places_no_card_was_read_on_are_the_gaps(gaps_photo, run):
    sc, path, gaps = gaps_photo
    assert len(gaps) == 4
    code, out, err = run("scan", str(path), "--variant", "gaps", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["empty"] == gaps and doc["unread"] == [] and doc["problems"] == []
    piles = doc["position"]["piles"]
    assert all(piles[g]["cards"] == [] for g in gaps)
    assert sorted(piles["x"]["cards"]) == ["AC", "AD", "AH", "AS"]
    code, out, _ = run("--ascii", "scan", str(path), "--variant", "gaps")
    assert code == 0 and f"empty: {', '.join(gaps)}" in out and "no card read on" not in out


def test_hint_reads_a_gaps_photo(gaps_photo, run):
    _, path, gaps = gaps_photo
    code, out, err = run("hint", "--photo", str(path), "--variant", "gaps")
    assert code == 0, err
    assert "Hint:" in out and any(f"empty {g}" in out for g in gaps)


def test_a_card_not_read_leaves_five_places_unread_not_gaps(held_out_scene):
    from companion.vision.piles import map_piles
    from companion.vision.read import read_photo
    sc = held_out_scene(SEED, "gaps")
    dets = read_photo(sc.image, backs=False)
    whole = map_piles(dets, "gaps", sc.image)
    assert len(whole.empty) == 4 and whole.position is not None
    missing = max(dets, key=lambda d: d.x)          # one card of the photo not read
    less = map_piles([d for d in dets if d is not missing], "gaps", sc.image)
    assert less.empty == []
    names = less.position.engine.names
    waiting = {names[i] for i, _ in less.position.pending_reveals()}
    assert set(whole.empty) < waiting and len(waiting) == 5

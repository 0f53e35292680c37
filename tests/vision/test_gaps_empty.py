"""A Gaps photo: its four gaps are part of the position. The deal puts the aces aside and
leaves four places empty (the rules say so: `companion.rules.deal`), so the places no card
was read on are those gaps when there are four of them (`piles.PileReading.empty`), and the
photo gives a position `hint --photo`, `scan` and `play` can use; with more places unread, which
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


def test_play_enters_a_gaps_photo_with_its_gaps(held_out_scene, tmp_path):
    """`scan PHOTO` in `play gaps --physical`: the photo shows the layout with the aces out;
    its four empty places take the aces (which the deal puts aside again), so the layout is
    complete and play starts with the gaps where the photo shows them. (Held-out Gaps scene
    8,001,001: photographed from the near side, read exactly.)"""
    import cv2

    from companion.app.session import Session
    from companion.cards import Card
    sc = held_out_scene(8_001_001, "gaps")
    path = tmp_path / "gaps.jpg"
    cv2.imwrite(str(path), sc.image[..., ::-1])
    places = [f"{r}{c}" for r in "abcd" for c in range(1, 14)]
    truth = {c["pile"]: c["code"] for c in sc.cards}
    gaps = sorted(set(places) - set(truth), key=places.index)
    s = Session.physical("gaps", symbols=False)
    r = s.handle(f"scan {path}")
    assert r.ok and s.layout.complete, r.text
    assert f"Empty in the photo: {', '.join(gaps)}" in r.text
    assert s.handle("start").ok and s.phase == "play"
    names = s.engine.names
    shown = {names[i]: p[0] for i, p in enumerate(s.pos.piles) if names[i] in places and p}
    assert shown == truth
    aces = sorted(Card.parse(t).code for t in ("Ah", "Ac", "Ad", "As"))
    assert sorted(s.pos.piles[names.index("x")]) == aces

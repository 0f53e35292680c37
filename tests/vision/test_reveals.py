"""`scan` in `companion play` with several cards waiting to be named: every card the photo
shows with confidence in its pile and place is named, the rest are asked for. The readings are
made by hand (what the pile mapping gives), so the tests exercise the recorder's side only."""

from __future__ import annotations

from companion.app.session import Session
from companion.rules import deal
from companion.vision.piles import PileReading
from companion.vision.read import Detection

SEED = 5


def _reading(pos, unsure=()):
    """A photo of ``pos`` as read: each tableau pile's face-up cards, ``unsure`` piles' top
    card below the threshold."""
    piles = {}
    for i, name in enumerate(pos.engine.names):
        if name.startswith("t") and pos.piles[i]:
            piles[name] = [Detection(c, 0.99, 0.0, 0.0, (0.0, -1.0), 20.0)
                           for c in pos.piles[i][pos.down[i]:]]
            if name in unsure:
                piles[name][-1].uncertain = True
                piles[name][-1].confidence = 0.3
                piles[name][-1].note = "low confidence"
    cards = [d for ds in piles.values() for d in ds]
    return {"cards": cards, "piles": PileReading(pos.variant.key, piles)}


def test_one_photo_names_every_card_a_stock_deal_turned_up_and_asks_for_the_rest():
    truth = deal("spider", SEED)
    shown = {"photo": truth}
    s = Session.physical("spider", symbols=False,
                         scanner=lambda path, cam, key: _reading(shown["photo"], shown.get("u", ())))
    assert s.handle("scan table.jpg").ok and s.layout.complete
    assert s.handle("start").ok
    after = truth.copy()
    after.play("s")
    assert len(s.handle("s").lines) and len(s.pending) == 10
    shown.update(photo=after, u=("t4",))
    r = s.handle("scan table.jpg")
    assert r.ok and len(s.pending) == 1 and "t4" in r.text and "could not be read" in r.text
    i = after.engine.index["t4"]
    names = after.engine.names
    for j in range(10):
        if j != i:
            assert s.pos.piles[j][-1] == after.piles[j][-1], names[j]
    assert s.handle("undo").ok and len(s.pending) == 2    # as typed: undo names one less
    shown["u"] = ()   # a better photo: the rest are read
    r = s.handle("scan table.jpg")
    assert r.ok and not s.pending, r.text


def test_a_photo_that_disagrees_with_the_known_cards_names_nothing():
    truth = deal("spider", SEED)
    shown = {"photo": truth}
    s = Session.physical("spider", symbols=False,
                         scanner=lambda path, cam, key: _reading(shown["photo"]))
    assert s.handle("scan table.jpg").ok and s.handle("start").ok
    assert s.handle("s").ok and len(s.pending) == 10
    shown["photo"] = deal("spider", SEED + 1)     # another table: its cards do not fit
    r = s.handle("scan table.jpg")
    assert not r.ok and len(s.pending) == 10

"""A card read below the threshold and named from the rules (``Detection.inferred``) is never
used silently: `verify --photo` and `play`'s `scan` name it the way `hint --photo` does, so the
player checks it on the table. In `play`'s setup it is entered (nothing is recorded before
`start`, after the player has checked the layout) and named; a card that turns up in play is
recorded at once, so an inferred one is named and left for the player to type.

The readings are made by hand (what the pile mapping gives), so the tests exercise what the
commands say, not the model."""

from __future__ import annotations

import json

import pytest

from companion.app import photo as app_photo
from companion.app.session import Session
from companion.cards import Card, code_text
from companion.rules import deal
from companion.vision.piles import PileReading
from companion.vision.read import Detection

SEED = 1          # Klondike: t1 7h, t2 6h, t3 2h, t4 2s, t5 Kd, t6 Jc, t7 8c face up
T3 = "t3, card 3 from the bottom"   # where verify names t3's face-up card
WHY = "the only reading the column's build allows"


def _c(text):
    return Card.parse(text).code


def _reading(pos, inferred=()):
    """A photo of ``pos`` as read: each tableau pile's face-up cards; the top card of the
    piles in ``inferred`` read at 54% as the card of the next suit (S H D C) and named from
    the rules."""
    piles = {}
    for i, name in enumerate(pos.engine.names):
        if name.startswith("t") and pos.piles[i][pos.down[i]:]:
            piles[name] = [Detection(c, 0.99, 100.0 * i, 40.0 * k, (0.0, -1.0), 20.0)
                           for k, c in enumerate(pos.piles[i][pos.down[i]:])]
            if name in inferred:
                d = piles[name][-1]
                read = (d.code + 13) % 52   # another suit, same rank
                d.inferred = (read, 0.54, WHY)
                d.confidence = 0.3
                d.note = f"read 54% as {code_text(read, False)}; {WHY}"
    cards = [d for ds in piles.values() for d in ds]
    return {"cards": cards, "piles": PileReading(pos.variant.key, piles)}


def _said(card, read, where):
    return f"{where}: {card} was inferred from the rules (read 54% as {read}; {WHY})"


# ------------------------------------------------------------------------------ verify --photo

@pytest.fixture
def photo_of(monkeypatch):
    """`verify --photo` reads the hand-made reading of the position given."""
    shown = {}

    def fake(photo=None, camera=None, variant=None, threshold=None):
        return shown["reading"]
    monkeypatch.setattr(app_photo, "scan", fake)
    return shown


def test_verify_photo_names_every_inferred_card(photo_of, run):
    photo_of["reading"] = _reading(deal("klondike", SEED), inferred=("t3", "t6"))
    code, out, err = run("--ascii", "verify", "klondike", "--seed", str(SEED), "--photo",
                         "table.jpg")
    assert code == 0, err
    assert _said("2h", "2d", T3) + ": check it on the table" in out
    assert _said("Jc", "Js", "t6, card 6 from the bottom") + ": check it on the table" in out
    assert "all 7 cards checked" in out and "2 of them inferred from the rules" in out


def test_verify_photo_json_lists_the_inferred_cards(photo_of, run):
    photo_of["reading"] = _reading(deal("klondike", SEED), inferred=("t3",))
    code, out, _ = run("verify", "klondike", "--seed", str(SEED), "--photo", "table.jpg",
                       "--json")
    report = json.loads(out)
    [inf] = report["inferred"]
    assert inf["place"] == T3 and inf["card"] == "2H" and inf["read"] == "2D"
    assert inf["read_confidence"] == 0.54 and "check it on the table" in inf["text"]


def test_verify_photo_still_reports_an_inferred_card_that_differs(photo_of, run):
    # the rules named a card the deal does not put there: a difference, and named as inferred
    seen = deal("klondike", SEED + 1)
    photo_of["reading"] = _reading(seen, inferred=("t3",))
    code, out, _ = run("--ascii", "verify", "klondike", "--seed", str(SEED), "--photo",
                       "table.jpg")
    assert code == 1
    t3 = code_text(seen.piles[seen.engine.index["t3"]][-1], False)
    assert f"{T3}: {t3} was inferred from the rules" in out
    assert f"{T3}: expected 2h, found {t3}" in out


# ------------------------------------------------------------------------------ play: scan

def _session(shown, variant="klondike"):
    return Session.physical(variant, symbols=False,
                            scanner=lambda path, cam, key: shown["reading"])


def test_scan_in_setup_enters_an_inferred_card_and_names_it_before_start():
    truth = deal("klondike", SEED)
    shown = {"reading": _reading(truth, inferred=("t5",))}
    s = _session(shown)
    r = s.handle("scan table.jpg")
    assert r.ok and s.layout.complete and s.phase == "setup"
    said = _said("Kd", "Kc", "t5") + ": check it on the table"
    assert said in r.lines, r.lines
    # named before the line that asks the player to check the layout and type `start`
    assert r.lines.index(said) < next(k for k, t in enumerate(r.lines) if "`start`" in t)
    assert r.data["inferred"] == [said]


def test_scan_in_setup_names_no_card_it_read_sure():
    shown = {"reading": _reading(deal("klondike", SEED))}
    r = _session(shown).handle("scan table.jpg")
    assert r.ok and "inferred" not in r.text and r.data["inferred"] == []


REVEAL_SEED, REVEAL = 4, "t7 t1"    # Klondike seed 4: t7 t1 turns a card up on t7


def test_a_turned_up_card_inferred_from_the_rules_is_named_not_recorded():
    truth = deal("klondike", REVEAL_SEED)
    shown = {"reading": _reading(truth)}
    s = _session(shown)
    assert s.handle("scan table.jpg").ok and s.handle("start").ok
    assert s.handle(REVEAL).ok and len(s.pending) == 1
    after = truth.copy()
    after.play(REVEAL)
    shown["reading"] = _reading(after, inferred=("t7",))
    moves = len(s.pos.history)
    r = s.handle("scan table.jpg")
    assert not r.ok and len(s.pending) == 1 and len(s.pos.history) == moves
    top = after.piles[after.engine.index["t7"]][-1]
    said = _said(code_text(top, False), code_text((top + 13) % 52, False), "t7")
    assert said + ": check it on the table and type it" in r.lines
    assert "Type the card" in r.text
    # the same photo with the card read sure: it is recorded
    shown["reading"] = _reading(after)
    assert s.handle("scan table.jpg").ok and not s.pending


def test_several_turned_up_cards_one_inferred_the_rest_recorded():
    truth = deal("spider", SEED)
    shown = {"reading": _reading(truth)}
    s = _session(shown, "spider")
    assert s.handle("scan table.jpg").ok and s.handle("start").ok
    assert s.handle("s").ok and len(s.pending) == 10
    after = truth.copy()
    after.play("s")
    shown["reading"] = _reading(after, inferred=("t4",))
    r = s.handle("scan table.jpg")
    assert r.ok and len(s.pending) == 1 and s.pending[0][0] == after.engine.index["t4"]
    top = after.piles[after.engine.index["t4"]][-1]
    said = _said(code_text(top, False), code_text((top + 13) % 52, False), "t4")
    assert any(said + ": check it on the table and type it" in line for line in r.lines)

"""An uncertain card named from the rules (`companion scan --variant`): in a Klondike column
the face-up cards are a build, so where exactly one of a card's likely readings fits the cards
above and below it (and is not already on the table) that reading is taken and said so; where
two fit, or the variant's piles need not be builds, the card stays uncertain.

The readings are made by hand (what the model and the pile mapping give), so the tests exercise
the inference and its output, not the model."""

from __future__ import annotations

import json

import pytest

from companion.cards import Card
from companion.rules import load_variant
from companion.vision.piles import PileReading, build_position, infer_from_build
from companion.vision.read import Detection


def _c(text):
    return Card.parse(text).code


def _det(text, x, y, p=0.99, alternatives=()):
    d = Detection(_c(text), p, float(x), float(y), (0.0, -1.0), 20.0,
                  alternatives=[(_c(t), q) for t, q in alternatives])
    if p < 0.6:
        d.uncertain, d.note = True, "low confidence"
    return d


def _reading(variant, middle, elsewhere=()):
    """t3: K♥, the uncertain ``middle``, J♥ (cascaded 40 pixels apart); t1: ``elsewhere``."""
    piles = {"t3": [_det("Kh", 300, 400), middle, _det("Jh", 300, 480)]}
    if elsewhere:
        piles["t1"] = [_det(t, 100, 400 + 40 * k) for k, t in enumerate(elsewhere)]
    dets = [d for ds in piles.values() for d in ds]
    return PileReading(variant, piles), dets


def test_the_only_reading_the_build_allows_is_taken_and_said():
    # Q♦ (best, 54%) cannot lie on K♥; 10♠ cannot take J♥; Q♣ is already on the table
    middle = _det("Qd", 300, 440, 0.54, [("Qc", 0.2), ("Qs", 0.15), ("10s", 0.08)])
    out, dets = _reading("klondike", middle, elsewhere=["Qc"])
    assert infer_from_build(out, dets, load_variant("klondike")) == [middle]
    assert middle.code == _c("Qs") and not middle.uncertain
    assert middle.inferred[:2] == (_c("Qd"), 0.54)
    build_position(out, load_variant("klondike"))
    assert not any("uncertain" in p for p in out.problems)


@pytest.mark.parametrize("variant, alternatives", [
    ("klondike", [("Qc", 0.2), ("Qs", 0.15)]),      # both black queens fit: no inference
    ("klondike", [("Qh", 0.2), ("10s", 0.15)]),     # none fits
    ("klondike", [("Qs", 0.03)]),                   # the one that fits is negligible
    ("forty-thieves", [("Qh", 0.2), ("10s", 0.1)]),  # dealt face up: runs need not be builds
])
def test_no_inference_unless_exactly_one_likely_reading_fits(variant, alternatives):
    middle = _det("Qd", 300, 440, 0.54, alternatives)
    out, dets = _reading(variant, middle)
    assert infer_from_build(out, dets, load_variant(variant)) == []
    assert middle.uncertain and middle.code == _c("Qd") and middle.inferred is None


def test_a_neighbour_too_far_away_says_nothing():
    # a card may have been missed between K♥ and the uncertain one: only J♥ above constrains
    # it, and both black queens fit under J♥
    middle = _det("Qd", 300, 440, 0.54, [("Qs", 0.2), ("Qc", 0.15)])
    far = _det("Kh", 300, 280)
    out = PileReading("klondike", {"t3": [far, middle, _det("Jh", 300, 480)],
                                   "t4": [_det("9c", 500, 400), _det("8d", 500, 440)]})
    dets = [d for ds in out.piles.values() for d in ds]
    assert infer_from_build(out, dets, load_variant("klondike")) == []
    assert middle.uncertain



def test_a_card_whose_ink_overrules_the_model_is_named_from_its_readings_given_the_ink():
    # the model read J♠ (1 % once its suit was ruled out: the pip's ink is red); given the
    # red ink its suit head's odds name J♦ 0.6, J♥ 0.3; J♥ lies on t1, so J♦ is the one the
    # build between Q♠ and 10♠ allows
    middle = _det("Jd", 300, 440, 0.01)
    middle.note = "the pip's ink is red: not Js"
    middle.given_ink = [(_c("Jd"), 0.6), (_c("Jh"), 0.3)]
    piles = {"t3": [_det("Qs", 300, 400), middle, _det("10s", 300, 480)],
             "t1": [_det("Jh", 100, 400)]}
    out = PileReading("klondike", piles)
    dets = [d for ds in piles.values() for d in ds]
    assert infer_from_build(out, dets, load_variant("klondike")) == [middle]
    assert middle.code == _c("Jd") and not middle.uncertain and middle.confidence == 0.6
    # the readings as read alone (1 %) name nothing
    middle = _det("Jd", 300, 440, 0.01)
    piles["t3"][1] = middle
    out = PileReading("klondike", piles)
    assert infer_from_build(out, [d for ds in piles.values() for d in ds],
                            load_variant("klondike")) == []
    assert middle.uncertain

@pytest.fixture
def scanned(monkeypatch):
    """`companion scan` on a photo whose reading is the hand-made one above."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("cv2")
    from companion.vision import scan as scan_mod
    middle = _det("Qd", 300, 440, 0.54, [("Qc", 0.2), ("Qs", 0.15), ("10s", 0.08)])
    out, dets = _reading("klondike", middle, elsewhere=["Qc"])
    infer_from_build(out, dets, load_variant("klondike"))
    build_position(out, load_variant("klondike"))
    image = np.full((600, 600, 3), 40, np.uint8)

    def fake(photo=None, camera=None, variant=None, decks=None, threshold=None, deck=None):
        return {"image": image, "info": {"scale": 1.0, "original_size": (600, 600)},
                "sheet": None, "cards": dets, "piles": out, "variant": "klondike",
                "deck_used": None}
    monkeypatch.setattr(scan_mod, "scan_photo", fake)
    return middle


def test_scan_says_which_card_was_inferred_and_why(scanned, run, tmp_path):
    code, out, err = run("--ascii", "scan", "table.jpg", "--variant", "klondike")
    assert code == 0, err
    assert "Qs* inferred from the rules (read 54% as Qd; the only reading the column's build " \
           "allows)" in out
    assert "t3: Kh Qs* Jh" in out


def test_scan_json_names_the_inferred_card(scanned, run):
    code, out, _ = run("scan", "table.jpg", "--variant", "klondike", "--json")
    data = json.loads(out)
    # (the JSON form's card codes, as its position has them: readable by --position)
    assert data["piles"]["t3"] == ["KH", "QS", "JH"]
    [inf] = data["inferred"]
    assert inf["pile"] == "t3" and inf["card"] == "QS" and inf["read"] == "QD"
    assert inf["read_confidence"] == 0.54
    card = next(c for c in data["cards"] if c["inferred"])
    assert card["card"] == "QS" and not card["uncertain"]


def test_debug_image_marks_the_inferred_card_in_its_own_colour(scanned, run, tmp_path):
    cv2 = pytest.importorskip("cv2")
    from companion.cli.scan_cmds import INFERRED_BGR
    path = tmp_path / "read.png"
    assert run("scan", "table.jpg", "--variant", "klondike", "--debug", str(path))[0] == 0
    img = cv2.imread(str(path))
    drawn = (img == INFERRED_BGR).all(axis=2)
    ys, xs = drawn.nonzero()
    assert len(xs) and abs(xs.mean() - scanned.x) < 60 and abs(ys.mean() - scanned.y) < 40


def test_a_hint_from_the_photo_says_which_card_was_inferred():
    from companion.app.photo import photo_position
    middle = _det("Qd", 300, 440, 0.54, [("Qc", 0.2), ("Qs", 0.15), ("10s", 0.08)])
    piles = {"t3": [_det("Kh", 300, 400), middle, _det("Jh", 300, 480)]}
    for k, (name, card) in enumerate([("t1", "Qc"), ("t2", "2h"), ("t4", "3h"),
                                      ("t5", "4h"), ("t6", "5h"), ("t7", "6h")]):
        piles[name] = [_det(card, 500 + 100 * k, 400)]
    out = PileReading("klondike", piles)
    dets = [d for ds in piles.values() for d in ds]
    v = load_variant("klondike")
    assert infer_from_build(out, dets, v) == [middle]
    build_position(out, v)
    pos, warnings = photo_position({"cards": dets, "piles": out}, "table.jpg")
    assert pos is out.position
    said = [w for w in warnings if "inferred" in w]
    assert said and said[0].startswith("t3: Q♠ was inferred from the rules (read 54% as Q♦")


# ------------------------------------------------------------------------------ foundations

def _foundations(tops, elsewhere=()):
    """A Klondike reading with foundation top cards ``tops`` (name -> detection) and sure
    cards ``elsewhere`` on t1."""
    piles = {name: [d] for name, d in tops.items()}
    piles["t1"] = [_det(t, 100, 400 + 40 * k) for k, t in enumerate(elsewhere)]
    out = PileReading("klondike", piles)
    return out, [d for ds in piles.values() for d in ds]


def test_a_foundation_card_is_taken_when_only_one_reading_leaves_its_suit_free():
    # K♥, Q♥, 10♥ on a foundation would hold 6♥, which lies on t1: only A♥ remains
    from companion.vision.piles import infer_from_foundations
    top = _det("Ah", 500, 100, 0.46, [("Kh", 0.11), ("Qh", 0.10), ("10h", 0.08)])
    out, dets = _foundations({"f2": top}, elsewhere=["6h"])
    assert infer_from_foundations(out, dets, load_variant("klondike")) == [top]
    assert top.code == _c("Ah") and not top.uncertain
    assert top.inferred == (_c("Ah"), 0.46, "the only reading the foundations allow")


def test_another_foundation_holds_the_suit():
    # f1 shows 3♥, so A♥ lies under it: the uncertain ace on f2 is A♦
    from companion.vision.piles import infer_from_foundations
    top = _det("Ah", 600, 100, 0.4, [("Ad", 0.3)])
    out, dets = _foundations({"f1": _det("3h", 500, 100), "f2": top})
    assert infer_from_foundations(out, dets, load_variant("klondike")) == [top]
    assert top.code == _c("Ad")


@pytest.mark.parametrize("alternatives", [[("2s", 0.13)],     # A♠ and 2♠ both possible
                                          [("4s", 0.03)]])    # no other likely reading
def test_no_foundation_inference_unless_exactly_one_likely_reading_fits(alternatives):
    from companion.vision.piles import infer_from_foundations
    top = _det("As", 500, 100, 0.3, alternatives)
    out, dets = _foundations({"f1": top}, elsewhere=["9h"])
    assert infer_from_foundations(out, dets, load_variant("klondike")) == []
    assert top.uncertain and top.code == _c("As") and top.inferred is None


def test_no_foundation_inference_where_the_rules_do_not_fix_the_cards():
    # Spider's foundations take complete runs lifted off: a top card says nothing
    from companion.vision.piles import infer_from_foundations
    top = _det("Kh", 500, 100, 0.46, [("Ks", 0.11)])
    out = PileReading("spider", {"f1": [top], "t1": [_det("Qs", 100, 400)]})
    dets = [d for ds in out.piles.values() for d in ds]
    assert infer_from_foundations(out, dets, load_variant("spider")) == []


def _copy_too_many(text):
    from companion.vision.read import COPY_TOO_MANY
    d = _det(text, 300, 440, 0.95, [("9c", 0.02)])
    d.uncertain, d.note = True, f"{text} {COPY_TOO_MANY}"
    return d


def test_a_copy_too_many_takes_the_one_suit_of_its_rank_the_build_allows():
    # Q♣ read sure (95 %) between K♥ and J♥, but Q♣ is read on t1 too: the rank is trusted,
    # the suit is not (black suits are what the model confuses on a deck it has not seen);
    # of the queens only Q♠ is black and not on the table
    middle = _copy_too_many("Qc")
    out, dets = _reading("klondike", middle, elsewhere=["Qc"])
    assert infer_from_build(out, dets, load_variant("klondike")) == [middle]
    assert middle.code == _c("Qs") and not middle.uncertain
    assert middle.inferred == (_c("Qc"), 0.95, "a copy too many; the only card of its rank "
                                               "the column's build allows")


def test_a_copy_too_many_with_no_suit_left_that_fits_stays_uncertain():
    middle = _copy_too_many("Qc")
    out, dets = _reading("klondike", middle, elsewhere=["Qc", "Qs"])
    assert infer_from_build(out, dets, load_variant("klondike")) == []
    assert middle.uncertain and middle.code == _c("Qc")


# ------------------------------------------------------------------------------ sure misreads

def _column(middle, elsewhere=()):
    """t3: K♠, ``middle`` read sure, J♣; t1: ``elsewhere`` (read sure)."""
    d = _det(middle, 300, 440, 0.92, [("9s", 0.05)])
    piles = {"t3": [_det("Ks", 300, 400), d, _det("Jc", 300, 480)]}
    if elsewhere:
        piles["t1"] = [_det(t, 100, 400 + 40 * k) for k, t in enumerate(elsewhere)]
    return PileReading("klondike", piles), [x for ds in piles.values() for x in ds], d


def test_a_sure_card_that_breaks_the_build_both_ways_takes_the_suit_that_fits():
    # Q♠ cannot lie on K♠ nor take J♣; of the red queens Q♥ is on t1: Q♦
    from companion.vision.piles import recheck_builds
    out, dets, d = _column("Qs", elsewhere=["Qh"])
    assert recheck_builds(out, dets, load_variant("klondike")) == [d]
    assert d.code == _c("Qd") and not d.uncertain
    assert d.inferred == (_c("Qs"), 0.92, "the only card of its rank the column's build allows")


def test_a_sure_card_that_breaks_the_build_with_two_suits_possible_is_uncertain():
    from companion.vision.piles import recheck_builds
    out, dets, d = _column("Qs")
    assert recheck_builds(out, dets, load_variant("klondike")) == [d]
    assert d.uncertain and d.code == _c("Qs") and d.inferred is None
    assert "does not fit the build between K♠ and J♣" in d.note


def test_a_card_that_fits_its_neighbours_is_kept():
    # Q♥ lies on K♠ and takes J♣: nothing to correct
    from companion.vision.piles import recheck_builds
    out, dets, d = _column("Qh")
    assert recheck_builds(out, dets, load_variant("klondike")) == []
    assert not d.uncertain and d.code == _c("Qh")


def _run_on_backs(first, elsewhere=()):
    """t7: ``first`` read sure at the bottom of its run (on face-down cards), J♣ on it;
    t1, t2, ...: one card each of ``elsewhere``, texts read sure, or (text, note) read but
    left uncertain."""
    d = _det(first, 300, 400, 0.96, [("Qd", 0.03)])
    piles = {"t7": [d, _det("Jc", 300, 440), _det("10d", 300, 480)]}
    for k, t in enumerate(elsewhere):
        text, note = (t, "") if isinstance(t, str) else t
        o = _det(text, 100 + 50 * k, 400, 0.77)
        if note:
            o.uncertain, o.note = True, note
        piles[f"t{k + 1}"] = [o]
    return PileReading("klondike", piles), [x for ds in piles.values() for x in ds], d


def test_a_run_s_first_card_read_twice_that_cannot_take_its_neighbour_is_the_misread_copy():
    # Q♠ cannot take J♣, and Q♠ is read a second time on t1 (left uncertain there as a copy
    # too many): this one is the misread; of the red queens Q♥ is on t1 too: Q♦. The other
    # Q♠ is sure again.
    from companion.vision.piles import recheck_builds
    from companion.vision.read import COPY_TOO_MANY
    other = ("Qs", f"Qs {COPY_TOO_MANY}")
    out, dets, d = _run_on_backs("Qs", elsewhere=["Qh", other])
    assert recheck_builds(out, dets, load_variant("klondike")) == [d]
    assert d.code == _c("Qd") and not d.uncertain
    assert d.inferred == (_c("Qs"), 0.96, "the only card of its rank the column's build allows")
    q = out.piles["t2"][0]
    assert q.code == _c("Qs") and not q.uncertain


def test_a_run_s_first_card_read_once_that_cannot_take_its_neighbour_is_kept():
    # with one neighbour alone, either card may be the misread one: nothing is changed
    from companion.vision.piles import recheck_builds
    out, dets, d = _run_on_backs("Qs", elsewhere=["Qh"])
    assert recheck_builds(out, dets, load_variant("klondike")) == []
    assert d.code == _c("Qs") and not d.uncertain and d.inferred is None

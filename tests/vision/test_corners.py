"""A card's two index corners (`companion.vision.read.resolve`): two corners read alike are
one card; two read differently, one of them at least unsurely, are one card when they lie
across the card from each other and their readings combined agree, which is then surer than
either."""

from __future__ import annotations

from companion.cards import Card
from companion.vision.read import Detection, joint_readings, resolve


def _c(text):
    return Card.parse(text).code


def _det(text, x, y, p, alternatives=(), up=(0.0, -1.0)):
    return Detection(_c(text), p, float(x), float(y), up, 20.0,
                     alternatives=[(_c(t), q) for t, q in alternatives])


def _pair(dx, dy, a=("Ah", 0.46, [("Kh", 0.11), ("Qh", 0.08)]),
          b=("Kh", 0.40, [("Ah", 0.35), ("Qh", 0.05)])):
    """An upright corner at (100, 100) and one upside down ``dx``, ``dy`` pixels away."""
    return [_det(a[0], 100, 100, a[1], a[2]),
            _det(b[0], 100 + dx, 100 + dy, b[1], b[2], up=(0.0, 1.0))]


def test_two_unsure_corners_across_a_card_are_one_card_read_surer():
    # the other corner lies 5 index sizes across and 7 along: a card's two indices
    [d] = resolve(_pair(100, 140))
    assert d.code == _c("Ah") and d.corners == 2 and not d.uncertain
    assert d.confidence > 0.6 and d.other is not None


def test_an_unsure_corner_across_a_card_from_a_sure_one_that_it_lists_is_that_card():
    # J♥ read sure at one corner; the other corner 3♥ 57 %, J♥ 41 %: one J♥, not a J♥ and a
    # 3♥ (which, read sure elsewhere, would make this one a copy too many)
    dets = resolve(_pair(100, 140, a=("Jh", 0.99, [("3h", 0.004)]),
                         b=("3h", 0.57, [("Jh", 0.41), ("9h", 0.01)])))
    [d] = dets
    assert d.code == _c("Jh") and d.corners == 2 and not d.uncertain and d.confidence > 0.99


def test_an_unsure_corner_across_a_card_from_a_sure_one_it_does_not_list_is_another_card():
    dets = resolve(_pair(100, 140, a=("Jh", 0.99, [("3h", 0.004)]),
                         b=("9c", 0.57, [("8c", 0.41)])))
    assert len(dets) == 2


def test_two_corners_straight_along_a_column_are_two_cards():
    # cards cascaded in one column: their corners lie along it, not across
    dets = resolve(_pair(0, 140))
    assert len(dets) == 2 and all(d.uncertain for d in dets)


def test_corners_whose_readings_do_not_agree_are_two_cards():
    dets = resolve(_pair(100, 140, b=("9c", 0.40, [("8c", 0.35)])))
    assert len(dets) == 2


def test_two_corners_read_alike_are_no_surer_than_the_better():
    # the same glyph read twice is no independent evidence
    dets = resolve(_pair(100, 140, b=("Ah", 0.40, [("Kh", 0.2)])))
    [d] = dets
    assert d.corners == 2 and d.confidence == 0.46 and d.uncertain


def test_joint_readings_are_normalised_and_ordered():
    a, b = _pair(100, 140)
    reads = joint_readings(a, b)
    assert reads[0][0] == _c("Ah")
    assert [p for _, p in reads] == sorted((p for _, p in reads), reverse=True)
    # the cards the corners list hold nearly all of the combined probability
    assert 0.95 < sum(p for _, p in reads) <= 1.0

"""The pip's ink colour as evidence for the suit, on its own beside the model's reading: red ink
is no spade's or club's, black no heart's or diamond's, and a four-colour deck's green and blue
name the suit (clubs, diamonds)."""

from __future__ import annotations

import dataclasses
import math

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from companion.cards import CLUBS, DIAMONDS, HEARTS, SPADES  # noqa: E402
from companion.vision import synth  # noqa: E402
from companion.vision.read import ink_suits, read_cards  # noqa: E402

PAPER = (240, 236, 226)


def _pip(ink, light=(1.0, 1.0, 1.0), paper=PAPER):
    """A 30-pixel square of paper with a round pip of ``ink`` at its centre, lit by ``light``
    (a tint multiplying each channel)."""
    import cv2
    img = np.zeros((30, 30, 3), np.uint8)
    img[:] = paper
    cv2.circle(img, (15, 15), 5, tuple(int(v) for v in ink), -1)
    return (img * np.array(light)).clip(0, 255).astype(np.uint8)


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (1.0, 0.85, 0.65), (0.7, 0.8, 1.0)],
                         ids=["white light", "warm light", "cold light"])
@pytest.mark.parametrize("ink, colour, left", [
    ((200, 25, 40), "red", {HEARTS, DIAMONDS}),
    ((15, 130, 50), "green", {CLUBS}),
    ((30, 60, 180), "blue", {DIAMONDS}),
    ((20, 20, 28), "not red", {SPADES, CLUBS}),
])
def test_ink_rules_out_the_suits_not_printed_in_it(ink, colour, left, light):
    got, ruled_out = ink_suits(_pip(ink, light), (15, 15), 20)
    assert got == colour
    assert set(range(4)) - ruled_out == left


def test_ink_too_faint_to_judge_rules_out_nothing():
    assert ink_suits(_pip((228, 226, 220)), (15, 15), 20) == ("", set())
    assert ink_suits(_pip((0, 0, 0)), (-40, -40), 20) == ("", set())   # off the photo


class _SureOfSpades:
    """A classifier that reads every candidate as Q♠ (0.98 for the queen, 0.97 for the
    spade), whatever it shows: what a model unsure of an unseen deck's suits may do."""

    def predict_crops(self, g, c):
        n = len(g)
        pr = np.zeros((n, 14), np.float32)
        pr[:, 11], pr[:, 10] = 0.98, 0.02
        ps = np.zeros((n, 5), np.float32)
        ps[:, SPADES], ps[:, 1:4] = 0.97, 0.01
        return pr, ps


def test_a_four_colour_decks_ink_corrects_a_reading_of_the_wrong_suit():
    fonts = synth.available_fonts(synth.TRAIN_FONTS)
    by_suit: dict[int, list] = {}
    for seed in (1, 2, 5, 6):
        style = dataclasses.replace(synth.random_style(np.random.default_rng(seed), fonts),
                                    four_colour=True)
        sc = synth.make_scene(seed, "klondike", style=style, max_tilt=20)
        for d in read_cards(sc.image, _SureOfSpades(), decks=104):
            # the detections whose pip and rank glyph are a true index's
            ix = min(sc.indices, key=lambda ix: math.dist(ix["pip"].mean(0), d.pip_at))
            if math.dist(ix["pip"].mean(0), d.pip_at) < 0.3 * d.size \
                    and math.dist(ix["rank"].mean(0), d.rank_at) < 0.3 * d.size:
                by_suit.setdefault(ix["code"] // 13, []).append(d)
    assert all(len(by_suit.get(s, ())) >= 3 for s in range(4)), by_suit
    for d in by_suit[SPADES]:           # black ink: the reading stands
        assert (d.suit, d.uncertain, d.note) == (SPADES, False, "")
        # and what a copy too many or the other corner may be re-read as is black too
        assert {c // 13 for c, _ in d.alternatives} <= {SPADES, CLUBS}
    for d in by_suit[CLUBS] + by_suit[DIAMONDS]:   # green or blue: the suit, the queen sure
        assert d.code == d.suit * 13 + 11 and not d.uncertain
        assert d.note == f"the pip's ink is {'green' if d.suit == CLUBS else 'blue'}: not Q♠"
    for d in by_suit[HEARTS]:           # red: not a spade, and hearts or diamonds is unsure
        assert d.suit in (HEARTS, DIAMONDS) and d.uncertain
        assert d.note.startswith("the pip's ink is red: not Q♠")
        assert {c // 13 for c, _ in d.alternatives} <= {HEARTS, DIAMONDS}


def test_a_deck_in_its_own_colours_is_read_by_its_shapes():
    """Purple spades and orange clubs: the ink rules would make every spade a diamond and
    every club a heart or diamond. The model reads those suits surely in one ink that rules
    them out, so the photo's ink rules nothing out and the cards read as the model reads them."""
    style = synth.Style(font=synth.find_font("DejaVuSans-Bold.ttf"), four_colour=True,
                        black=(120, 30, 150), green=(210, 110, 20))
    sc = synth.make_scene(1, kind="gaps", style=style)
    truth = {ix["code"] for ix in sc.indices if ix["visible_frac"] > 0.99}

    def right(config):
        return {d.code for d in read_cards(sc.image, config=config) if not d.uncertain} & truth

    from companion.vision.config import DEFAULT
    read = right(DEFAULT)
    assert read == right(dataclasses.replace(DEFAULT, ink_rules=False))
    assert sum(c // 13 == CLUBS for c in read) >= 5   # the orange clubs
    # the ink taken as the suits' always: a third of the cards are lost
    assert len(right(dataclasses.replace(DEFAULT, ink_doubt=1.01))) < len(read) - 6

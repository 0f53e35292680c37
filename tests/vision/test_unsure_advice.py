"""A photo with many cards read unsure is itself the problem: `scan` says to retake it."""

from companion.app.photo import unsure_advice
from companion.vision.read import TOO_SMALL, Detection


def _cards(sure: int, unsure: int, small: int = 0):
    def det(uncertain, note=""):
        return Detection(code=0, confidence=0.9 if not uncertain else 0.4, x=0.0, y=0.0,
                         up=(0.0, -1.0), size=20.0, uncertain=uncertain, note=note)
    return ([det(False) for _ in range(sure)] + [det(True) for _ in range(unsure)]
            + [det(True, TOO_SMALL + ", 7 pixels") for _ in range(small)])


def test_a_photo_with_many_cards_unsure_is_to_be_retaken():
    text = unsure_advice(_cards(sure=9, unsure=4))
    assert text is not None and "4 of the 13 cards" in text and "Retake" in text


def test_a_few_unsure_cards_are_checked_on_the_table_instead():
    assert unsure_advice(_cards(sure=20, unsure=2)) is None      # under three
    assert unsure_advice(_cards(sure=30, unsure=5)) is None      # under a quarter


def test_indices_too_small_have_their_own_advice():
    cards = _cards(sure=6, unsure=1, small=5)
    assert unsure_advice(cards, too_small=5) is None
    assert unsure_advice(cards) is not None

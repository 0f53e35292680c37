"""Small indices (a whole Gaps layout in one photo) are read twice, the second time from a
finer image; the reading with more cards read sure is kept, and the finer one on a tie
(`read.read_photo`). The two readings are made by hand here (a stand-in for `read_cards`)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from companion.vision import read  # noqa: E402
from companion.vision.read import Detection, Reading  # noqa: E402


def _readings(first_sure: int, fine_sure: int):
    """A stand-in for `read_cards`: the first call (the photo) reads 10 indices 10 pixels
    from pip to rank, ``first_sure`` of them sure; the second (the finer image), at its
    scale, ``fine_sure``. Each reading's cards are told apart by their code (0-9 the first,
    20-29 the finer)."""
    calls = []

    def read_cards(rgb, clf=None, decks=1, threshold=0.6, deck=None, sizes=None):
        k = rgb.shape[1] / 200
        base, sure = (0, first_sure) if not calls else (20, fine_sure)
        calls.append(k)
        return Reading(Detection(base + i, 0.99 if i < sure else 0.3, 15.0 * i * k, 50.0 * k,
                                 (0.0, -1.0), 10.0 * k, uncertain=i >= sure)
                       for i in range(10))
    return read_cards, calls


@pytest.mark.parametrize("first, fine, kept", [(6, 7, "finer"), (7, 6, "first"),
                                               (7, 7, "finer")])
def test_the_reading_with_more_sure_cards_is_kept_and_the_finer_on_a_tie(monkeypatch, first,
                                                                         fine, kept):
    stand_in, calls = _readings(first, fine)
    monkeypatch.setattr(read, "read_cards", stand_in)
    got = read.read_photo(np.zeros((150, 200, 3), np.uint8), clf=object())
    assert len(calls) == 2 and calls[1] > 1     # a second, finer reading was made
    assert {d.code >= 20 for d in got} == {kept == "finer"}
    # in the photo's working pixels either way
    assert got[1].x == pytest.approx(15.0) and got[1].size == pytest.approx(10.0)


def test_without_the_tie_rule_the_first_reading_stays(monkeypatch):
    stand_in, _ = _readings(7, 7)
    monkeypatch.setattr(read, "read_cards", stand_in)
    monkeypatch.setattr(read, "FINER_ON_TIE", False)
    got = read.read_photo(np.zeros((150, 200, 3), np.uint8), clf=object())
    assert all(d.code < 20 for d in got)

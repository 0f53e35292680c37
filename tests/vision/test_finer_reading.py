"""Small indices (a whole Gaps layout in one photo) are read from a finer image
(`read.read_photo`): at once, the first reading stopped as soon as its candidates' sizes show
them small (`ReadConfig.finer_at_once`), and made whole only where the finer reading has no card
read sure; or (without that) read twice, the reading with more cards read sure kept, and the
finer one on a tie. The readings are made by hand here (a stand-in for `read_cards`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from companion.vision import read  # noqa: E402
from companion.vision.config import DEFAULT  # noqa: E402
from companion.vision.read import Detection, Reading  # noqa: E402


def _readings(first_sure: int, fine_sure: int):
    """A stand-in for `read_cards`: a call on the photo reads 10 indices 10 pixels from pip
    to rank, ``first_sure`` of them sure; one on the finer image, at its scale,
    ``fine_sure``. Each tells ``sizes`` its candidates' sizes first, as `read_cards` does.
    Each reading's cards are told apart by their code (0-9 the photo's, 20-29 the finer
    image's). ``calls``: the scale of each reading made whole."""
    calls = []

    def read_cards(rgb, clf=None, decks=1, threshold=None, deck=None, sizes=None, backs=True,
                   config=DEFAULT):
        k = rgb.shape[1] / 200
        if sizes is not None:
            sizes(np.full(10, 10.0 * k))
        base, sure = (0, first_sure) if k == 1 else (20, fine_sure)
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
    got = read.read_photo(np.zeros((150, 200, 3), np.uint8), clf=object(),
                          config=replace(DEFAULT, finer_at_once=False))
    assert len(calls) == 2 and calls[1] > 1     # a second, finer reading was made
    assert {d.code >= 20 for d in got} == {kept == "finer"}
    # in the photo's working pixels either way
    assert got[1].x == pytest.approx(15.0) and got[1].size == pytest.approx(10.0)


def test_without_the_tie_rule_the_first_reading_stays(monkeypatch):
    stand_in, _ = _readings(7, 7)
    monkeypatch.setattr(read, "read_cards", stand_in)
    got = read.read_photo(np.zeros((150, 200, 3), np.uint8), clf=object(),
                          config=replace(DEFAULT, finer_on_tie=False, finer_at_once=False))
    assert all(d.code < 20 for d in got)


@pytest.mark.parametrize("first", [6, 9])
def test_small_indices_are_read_from_the_finer_image_alone(monkeypatch, first):
    """The photo's reading stops at its candidates' sizes, and its cards are not kept, even
    where it would have had more read sure; ``ahead`` (the caller's early start on the finer
    image) is called first."""
    stand_in, calls = _readings(first, 7)
    monkeypatch.setattr(read, "read_cards", stand_in)
    early = []
    got = read.read_photo(np.zeros((150, 200, 3), np.uint8), clf=object(),
                          ahead=lambda: early.append(len(calls)))
    assert early == [0]                            # before any reading was made whole
    assert len(calls) == 1 and calls[0] > 1        # the finer image's alone
    assert all(d.code >= 20 for d in got) and len(got) == 10
    assert got[1].x == pytest.approx(15.0) and got[1].size == pytest.approx(10.0)


def test_where_the_finer_image_reads_no_card_sure_the_photos_reading_is_made_whole(monkeypatch):
    stand_in, calls = _readings(6, 0)
    monkeypatch.setattr(read, "read_cards", stand_in)
    got = read.read_photo(np.zeros((150, 200, 3), np.uint8), clf=object())
    assert len(calls) == 2 and calls[0] > 1 and calls[1] == 1
    assert all(d.code < 20 for d in got) and sum(not d.uncertain for d in got) == 6


def _logged(monkeypatch):
    """The model, and a log of what is done in order: ("candidates", how many) for each
    image's candidates, ("read", how many) for each set of crops the model reads."""
    from companion.vision import detect
    from companion.vision.model import load
    clf, log = load(), []
    found, predict = detect.candidates, clf.predict_crops

    def candidates(*a, **kw):
        c = found(*a, **kw)
        log.append(("candidates", len(c.pip)))
        return c

    def predict_crops(g, cc):
        log.append(("read", len(g)))
        return predict(g, cc)
    monkeypatch.setattr(detect, "candidates", candidates)
    monkeypatch.setattr(clf, "predict_crops", predict_crops)
    return clf, log


def test_where_a_sample_of_the_candidates_shows_small_indices_the_rest_are_not_read(
        monkeypatch, held_out_scene):
    """Held-out Gaps scene 0 (a whole Gaps layout: small indices): a quarter of the photo's
    candidates are read (`ReadConfig.early_sizes`), their indices are small, and the finer image
    is read at once; the rest of the photo's candidates are never read. Its cards are read
    as well as with every candidate read first: the same cards, at the same places."""
    sc = held_out_scene(7_001_000, "gaps")
    clf, log = _logged(monkeypatch)
    got = read.read_photo(sc.image, clf, backs=False)
    n = log[0][1]
    finer = next(i for i, (what, _) in enumerate(log) if what == "candidates" and i > 0)
    assert log[1:finer] == [("read", -(-n // DEFAULT.early_sizes))]

    log.clear()
    whole = read.read_photo(sc.image, clf, backs=False, config=replace(DEFAULT, early_sizes=0))
    assert ("read", n) in log          # every candidate read before the finer image
    sure = {d.code: d for d in got if not d.uncertain}
    assert len(sure) >= 45

    def places(d):  # (a card read at both corners keeps either one's place)
        return [(d.x, d.y)] + ([d.other[:2]] if d.other is not None else [])
    for d in whole:
        if not d.uncertain and d.code in sure:
            assert any(abs(x - a) + abs(y - b) < 0.3 * d.size
                       for x, y in places(d) for a, b in places(sure[d.code]))
    assert len(sure.keys() ^ {d.code for d in whole if not d.uncertain}) <= 1


def test_where_the_sample_shows_indices_large_enough_the_reading_is_the_same(monkeypatch,
                                                                             held_out_scene):
    """Held-out Klondike scene 1 (indices large enough to be read once): the sample is read
    first, then the rest; the model reads each crop alone, so the readings are those made
    with every candidate read at once, bit for bit."""
    sc = held_out_scene(7_000_001, "klondike")
    clf, log = _logged(monkeypatch)
    got = read.read_photo(sc.image, clf)
    n = log[0][1]
    every = DEFAULT.early_sizes
    assert log[1:3] == [("read", -(-n // every)), ("read", n + n // -every)]
    whole = read.read_photo(sc.image, clf, config=replace(DEFAULT, early_sizes=0))

    def key(ds):
        return [(d.code, d.x, d.y, d.confidence, d.uncertain) for d in ds]
    assert key(got) == key(whole) and len(got) >= 20

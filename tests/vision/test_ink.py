"""Ink blobs (`companion.vision.detect`): the glyphs of a card's index found one by one, even
where the index is printed so close to the card's edge that a glyph touches the dark table."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from companion.vision.detect import _pairs, ink_components  # noqa: E402

TABLE, PAPER = (40, 45, 70), (235, 232, 222)


LIGHT_TABLE = (175, 150, 165)
RED = (200, 20, 40)


def _card_on_table(glyph_x, table=TABLE, width=1500, ink=(20, 20, 25)):
    """A photo ``width`` x 1000 pixels, slightly blurred as a camera's: one card on a table
    (its left edge at x = 300; a dark table unless told), a "K" glyph (black unless told)
    drawn from ``glyph_x`` (its upright stroke about 5 pixels further on) and a red pip under
    it."""
    img = np.full((1000, width, 3), table, np.uint8)
    cv2.rectangle(img, (300, 200), (700, 800), PAPER, -1)
    cv2.putText(img, "K", (glyph_x, 260), cv2.FONT_HERSHEY_SIMPLEX, 1.4, ink, 2)
    cv2.circle(img, (318, 290), 9, (200, 20, 40), -1)
    return cv2.GaussianBlur(img, (5, 5), 1.2)


def _glyph_blob(img):
    stats, cents, peeled = ink_components(img)
    near = [(s, c, p) for s, c, p in zip(stats, cents, peeled, strict=True)
            if 295 <= c[0] <= 345 and 215 <= c[1] <= 265]
    return near


def test_a_glyph_clear_of_the_card_edge_is_a_blob_of_its_own():
    [(s, c, peeled)] = _glyph_blob(_card_on_table(310))
    assert not peeled and max(s[2], s[3]) < 60


def test_a_glyph_touching_the_card_edge_is_peeled_off_the_table():
    # the "K"'s upright stroke lies on the card's edge: its ink joins the strip of table
    # darker than the paper beside it; the rest of the glyph is still found, of a glyph's
    # size, where it was drawn
    found = _glyph_blob(_card_on_table(296))
    assert len(found) == 1
    (s, c, peeled), = found
    assert peeled and 20 <= max(s[2], s[3]) < 60
    # and it pairs with the pip under it into a candidate index
    stats, cents, flags = ink_components(_card_on_table(296))
    pi, rj = _pairs(stats, cents, flags)
    pips = [i for i, c in enumerate(cents) if abs(c[0] - 318) < 5 and abs(c[1] - 290) < 5]
    glyph = [i for i, c in enumerate(cents) if 295 <= c[0] <= 345 and 215 <= c[1] <= 265]
    assert any(p == pips[0] and r == glyph[0] for p, r in zip(pi, rj, strict=True))



def test_a_solid_pip_touching_the_card_edge_is_peeled_off_the_table():
    # a pip is solid, so what peels the table's strip off (an opening wider than a glyph's
    # stroke) keeps it too; the thin bridge to the strip does not stay: the pip comes free,
    # of a pip's size, where it was drawn (a pip 1 pixel further from the edge is its own
    # blob anyway)
    img = np.full((1000, 1500, 3), TABLE, np.uint8)
    cv2.rectangle(img, (300, 200), (700, 800), PAPER, -1)
    cv2.putText(img, "K", (312, 260), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (20, 20, 25), 2)
    cv2.circle(img, (310, 290), 9, RED, -1)
    img = cv2.GaussianBlur(img, (5, 5), 1.2)
    stats, cents, peeled = ink_components(img)
    [(s, c, p)] = [(s, c, p) for s, c, p in zip(stats, cents, peeled, strict=True)
                   if abs(c[0] - 310) < 5 and abs(c[1] - 290) < 5]
    assert p and 14 <= max(s[2], s[3]) <= 24

def test_a_glyph_touching_the_edge_of_a_card_on_a_light_table_is_peeled_off():
    # a light table (a pale mauve cloth) is darker than the paper only in a strip too thin
    # for the opening that peels a dark table's strip (in a photo this wide), but it is
    # paler than any ink: the glyph comes free of it whole, and of nothing more (its box
    # from the glyph's top at y = 229 to its baseline at 261)
    found = _glyph_blob(_card_on_table(292, LIGHT_TABLE, width=2000))
    assert len(found) == 1
    (s, c, peeled), = found
    assert peeled and s[2] >= 18 and s[1] >= 228 and s[1] + s[3] <= 263


def test_two_blobs_peeled_off_the_table_are_not_paired():
    stats = np.array([[0, 0, 10, 12, 80], [0, 20, 10, 12, 80]], np.int32)
    cents = np.array([[5.0, 6.0], [5.0, 26.0]])
    assert len(_pairs(stats, cents, np.array([False, False]))[0]) == 2
    assert len(_pairs(stats, cents, np.array([True, False]))[0]) == 2
    assert len(_pairs(stats, cents, np.array([True, True]))[0]) == 0


def _touching_index(gap):
    """An "8" and a diamond pip under it, the pip's top corner ``gap`` pixels below the
    glyph's baseline (2: the camera's blur joins them, as in a tight index), red on a card
    filling the photo."""
    img = np.full((1000, 1500, 3), PAPER, np.uint8)
    cv2.putText(img, "8", (300, 300), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (200, 20, 40), 3)
    top = 302 + gap
    diamond = np.array([(313, top), (325, top + 14), (313, top + 28), (301, top + 14)])
    cv2.fillPoly(img, [diamond.astype(np.int32)], (200, 20, 40))
    return cv2.GaussianBlur(img, (3, 3), 0.8)


@pytest.mark.parametrize("gap", [8, 2])
def test_a_rank_glyph_touching_its_pip_still_gives_the_pair(gap):
    stats, cents, peeled = ink_components(_touching_index(gap))
    glyph = [i for i, c in enumerate(cents) if abs(c[0] - 313) < 6 and abs(c[1] - 287) < 6]
    pip = [i for i, c in enumerate(cents) if abs(c[0] - 313) < 6 and abs(c[1] - 316 - gap) < 6]
    assert glyph and pip
    pi, rj = _pairs(stats, cents, peeled)
    assert any(p in pip and r in glyph for p, r in zip(pi, rj, strict=True))


class _Sure:
    """A stand-in for the model: every candidate reads as the king of hearts, at ``p`` in
    each head (no "not an index" at all)."""

    def __init__(self, p):
        self.p = p

    def predict_crops(self, g, c):
        n = len(g)
        pr = np.full((n, 14), (1 - self.p) / 13, np.float32)
        ps = np.full((n, 5), (1 - self.p) / 4, np.float32)
        pr[:, 12], ps[:, 1], pr[:, 13], ps[:, 4] = self.p, self.p, 0.0, 0.0
        return pr, ps


@pytest.mark.parametrize("p, read", [(0.99, True), (0.9, False)])
def test_an_index_with_a_glyph_peeled_off_the_table_is_read_only_when_sure(p, read):
    from companion.cards import Card
    from companion.vision.read import read_cards
    dets = read_cards(_card_on_table(296, ink=RED), _Sure(p))   # K♥, red as its pip
    here = [d for d in dets if abs(d.x - 316) < 25 and abs(d.y - 265) < 30]
    assert bool(here) == read
    assert all(d.code == Card.parse("Kh").code for d in here)


@pytest.mark.parametrize("q", [3, 95, 97, 50])
def test_percentile_of_sorted_bytes_is_numpys(q):
    # the detector's contrast, the ink check and the refiner take percentiles from rows of
    # bytes sorted once: the same values as numpy's, bit for bit (a card read otherwise
    # could change)
    from companion.vision.detect import percentile_sorted
    rng = np.random.default_rng(q)
    for cols in (1, 2, 7, 576, 1280, 6561):
        rows = rng.integers(0, 256, (9, cols)).astype(np.uint8)
        rows[:3] //= 60
        ranked = np.sort(rows, axis=1, kind="stable")
        f = rows.astype(np.float32)
        assert np.array_equal(percentile_sorted(ranked, q), np.percentile(f, q, axis=1))
        lo, hi = np.percentile(f, (q, 100 - q), axis=1)
        assert np.array_equal(percentile_sorted(ranked, q, wide=True), lo)
        assert np.array_equal(percentile_sorted(ranked, 100 - q, wide=True), hi)


def _blurred_index():
    """A "7" and a red diamond pip, the pip's top corner 2 pixels into the glyph, blurred as a
    small index in a photo is: one blob, which an erosion of a pixel does not part."""
    img = np.full((1000, 1500, 3), PAPER, np.uint8)
    cv2.putText(img, "7", (300, 300), cv2.FONT_HERSHEY_SIMPLEX, 0.8, RED, 2)
    diamond = np.array([(308, 298), (316, 308), (308, 318), (300, 308)])
    cv2.fillPoly(img, [diamond.astype(np.int32)], RED)
    return cv2.GaussianBlur(img, (5, 5), 1.2)


def test_a_rank_glyph_blurred_into_its_pip_is_cut_at_the_waist_for_a_second_look():
    img = _blurred_index()
    stats, cents, _ = ink_components(img)
    near = [c for c in cents if abs(c[0] - 308) < 20 and abs(c[1] - 300) < 25]
    assert len(near) == 1  # one blob: no pair of its own

    stats, cents, peeled, second, _ = ink_components(img, waists=True)
    glyph = [i for i, c in enumerate(cents) if abs(c[0] - 308) < 4 and 283 <= c[1] <= 290]
    pip = [i for i, c in enumerate(cents) if abs(c[0] - 308) < 4 and 304 <= c[1] <= 312]
    assert glyph and pip
    assert all(second[i] for i in glyph + pip)  # read only where a layout says a card lies
    assert not second[[i for i, c in enumerate(cents) if abs(c[0] - 308) < 20
                       and abs(c[1] - 300) < 25 and i not in glyph + pip]].any()
    pi, rj = _pairs(stats, cents, peeled)
    assert any(p in pip and r in glyph for p, r in zip(pi, rj, strict=True))


def _broken_ring(gap):
    """A red ring 16 pixels across (an "O" of an index), cut across at its top and at its
    right by ``gap`` pixels of paper: a long arc and a short one, the way a thin serif glyph's
    strokes break apart."""
    img = np.full((1000, 1500, 3), PAPER, np.uint8)
    cv2.circle(img, (400, 300), 7, RED, 2)
    img[291:291 + 4, 400 - gap // 2:400 - gap // 2 + gap] = PAPER
    img[300 - gap // 2:300 - gap // 2 + gap, 406:406 + 4] = PAPER
    return img


def _around(cents, x, y, r=12):
    return [i for i, c in enumerate(cents) if abs(c[0] - x) < r and abs(c[1] - y) < r]


def test_a_glyph_broken_into_fragments_is_joined_beside_them():
    stats, cents, _ = ink_components(_broken_ring(2))
    parts = _around(cents, 400, 300)
    assert len(parts) == 2 and min(max(stats[i, 2:4]) for i in parts) <= 10  # (an arc short)

    stats, cents, peeled, second, joined = ink_components(_broken_ring(2), waists=True)
    near = _around(cents, 400, 300)
    whole = [i for i in near if joined[i]]
    assert len(whole) == 1 and len(near) == 3  # the two arcs and the ring they make
    x, y, w, h = stats[whole[0], :4]
    assert 14 <= w <= 18 and 14 <= h <= 18 and abs(x + w / 2 - 400) <= 2
    assert not second[near].any() and not peeled[near].any()


def test_blobs_further_apart_than_a_broken_stroke_are_not_joined():
    stats, cents, peeled, second, joined = ink_components(_broken_ring(5), waists=True)
    assert len(_around(cents, 400, 300)) == 2 and not joined.any()


def test_two_whole_glyphs_side_by_side_are_not_joined():
    """The "1" and "0" of a 10 two pixels apart: joined they would be a crop the model never
    saw (read as a K)."""
    img = np.full((1000, 1500, 3), PAPER, np.uint8)
    cv2.rectangle(img, (400, 292), (401, 307), RED, -1)
    cv2.ellipse(img, (409, 300), (5, 7), 0, 0, 360, RED, 2)
    stats, cents, peeled, second, joined = ink_components(img, waists=True)
    assert len(_around(cents, 404, 300)) == 2 and not joined.any()


def test_pairs_are_every_pair_alike_and_close_within_the_cells_around():
    """The candidate pairs, found cell by cell all at once, are those a look at every pair
    finds: blobs in the same or a neighbouring cell of the grid (2.2 times the 90th
    percentile of the sizes, plus one), apart by 0.45-1.9 of the larger's size, of sizes
    within 0.35-1.7 of each other, never two peeled blobs; each blob's pairs together, the
    blobs in the order of their cells."""
    rng = np.random.default_rng(7)
    n = 700
    stats = np.column_stack([rng.integers(0, 900, n), rng.integers(0, 700, n),
                             rng.integers(2, 30, n), rng.integers(2, 30, n),
                             rng.integers(12, 400, n)])
    cents = stats[:, :2] + stats[:, 2:4] / 2 + rng.uniform(-1, 1, (n, 2))
    peeled = rng.random(n) < 0.3
    pi, rj = _pairs(stats, cents, peeled)
    size = np.maximum(stats[:, 2], stats[:, 3]).astype(np.float32)
    cell = float(np.percentile(size, 90)) * 2.2 + 1
    keys = np.floor(cents / cell).astype(np.int64)
    want = set()
    for i in range(n):
        for j in range(n):
            big = max(size[i], size[j])
            d = float(np.hypot(*(cents[j] - cents[i])))
            if (i != j and (np.abs(keys[i] - keys[j]) <= 1).all() and 0.45 * big <= d <= 1.9 * big
                    and 0.35 * size[j] <= size[i] <= 1.7 * size[j]
                    and not (peeled[i] and peeled[j])):
                want.add((i, j))
    got = list(zip(pi.tolist(), rj.tolist(), strict=True))
    assert len(want) > 300 and set(got) == want and len(got) == len(want)
    order = np.lexsort((keys[:, 1], keys[:, 0])).tolist()
    firsts = list(dict.fromkeys(i for i, _ in got))
    assert firsts == [i for i in order if i in set(firsts)]

"""Where the piles go on a sheet: every pile placed once, nothing on top of anything else."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from companion.render.layout import CARD_H, layout
from companion.rules import Position, deal, load_variant, variant_keys

CASES = [(k, {}) for k in variant_keys()] + [("accordion", {"deal": "all"})]


def _overlap(a, b) -> bool:
    eps = 1e-6
    return (a.x < b.x + b.w - eps and b.x < a.x + a.w - eps
            and a.y < b.y + b.h - eps and b.y < a.y + a.h - eps)


@pytest.mark.parametrize("key, options", CASES, ids=[f"{k}{o}" for k, o in CASES])
def test_every_pile_is_placed_once_and_apart(key, options):
    pos = deal(key, 1, options)
    d = layout(pos)
    names = [p.name for p in d.places]
    dealt = {n for i, n in enumerate(pos.engine.names) if pos.piles[i]}
    assert len(names) == len(set(names))
    assert dealt <= set(names)
    # only Accordion's empty line may be left out, and then a note says so
    missing = set(pos.engine.names) - set(names)
    assert not missing or (pos.variant.accordion and d.notes)
    pyramid = {p.name for p in d.places if pos.variant.pyramid and p.name.startswith("p")}
    for a in d.places:
        assert a.x >= -1e-6 and a.x + a.w <= d.width + 1e-6, a.name
        assert a.y >= -1e-6 and a.y + a.h <= d.height + 1e-6, a.name
        for b in d.places:
            if a is not b and not (a.name in pyramid and b.name in pyramid):
                assert not _overlap(a, b), (a.name, b.name)
    for p in d.places:
        assert [c.code for c in p.cards] == (
            list(p.all_cards[-1:]) if p.listed else list(p.all_cards))


def test_face_down_cards_are_marked():
    d = layout(deal("klondike", 1))
    t7 = d.place("t7")
    assert [c.face_up for c in t7.cards] == [False] * 6 + [True]
    assert d.place("s").listed and d.place("s").count == 24


def test_wings_grow_outwards_from_the_foundations():
    pos = deal("streets-and-alleys", 1)
    d = layout(pos)
    f1 = d.place("f1")
    left, right = d.place("t1"), d.place("t5")
    assert left.x + left.w <= f1.x <= right.x
    xs_left = [c.x for c in left.cards]
    xs_right = [c.x for c in right.cards]
    assert xs_left == sorted(xs_left, reverse=True)  # top card (last) is the outermost
    assert xs_right == sorted(xs_right)
    assert abs(left.y - f1.y) < 1e-6 and abs(right.y - f1.y) < 1e-6


def test_pyramid_rows_half_cover_the_row_above():
    d = layout(deal("pyramid", 1))
    p1, p2, p3 = d.place("p1"), d.place("p2"), d.place("p3")
    assert p2.y - p1.y == pytest.approx(CARD_H / 2)
    assert p2.x < p1.x < p3.x


def test_unknown_tableau_layout_falls_back_to_columns():
    v = load_variant("klondike")
    odd = dataclasses.replace(v, tableau=dataclasses.replace(v.tableau, layout="spiral"))
    pos = deal("klondike", 3)
    fake = Position(odd.engine(), pos.piles, pos.down, seed=3)
    d = layout(fake)
    assert {p.kind for p in d.places if p.name.startswith("t")} == {"column"}


def test_a_pile_of_an_unknown_kind_is_still_drawn_as_a_labelled_heap():
    pos = deal("klondike", 2)
    names = (*pos.engine.names, "z1", "z2")
    fake = SimpleNamespace(
        engine=SimpleNamespace(names=names, variant=pos.variant),
        piles=[*pos.piles, (1, 2, 3, 4, 5, 6, 7, 8), (9,)],
        down=[*pos.down, 8, 0])
    d = layout(fake)
    z1, z2 = d.place("z1"), d.place("z2")
    assert z1.kind == "heap" and z1.listed and z1.count == 8
    assert z2.kind == "fan" and [c.code for c in z2.cards] == [9]
    assert not any(_overlap(z1, p) for p in d.places if p is not z1)


def test_many_columns_wrap_into_rows():
    v = load_variant("klondike")
    names = tuple(f"t{k}" for k in range(1, 21))
    fake = SimpleNamespace(engine=SimpleNamespace(names=names, variant=v),
                           piles=[(k % 52,) for k in range(20)], down=[0] * 20)
    d = layout(fake)
    assert len(d.places) == 20
    assert len({p.y for p in d.places}) == 2  # two rows of ten
    assert d.width < 11 * 1.2


def test_squared_piles_are_drawn_squared_and_listed():
    # La Nivernaise's rules square the line piles up: the sheet shows their top cards only,
    # lists every card under "Squared piles", and says so under "How to deal".
    from companion.render.pdf import deal_lines
    from companion.rules import deal
    pos = deal("la-nivernaise", 1)
    d = layout(pos)
    for name in ("t1", "t6"):
        p = d.place(name)
        assert p.kind == "heap" and p.listed and len(p.cards) == 1
        assert p.cards[0].code == pos.pile(name)[-1] and p.all_cards == pos.pile(name)
    assert any("Square up each tableau pile (t1-t6)" in line for line in deal_lines(pos.variant))
    # Tournament, its parent, spreads the same piles so every card shows
    assert layout(deal("tournament", 1)).place("t1").kind == "column"

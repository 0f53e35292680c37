"""The terminal drawing in colour is the plain drawing with colour codes added: no padding
kept inside the codes (a piped `--color` showed `w  A♦` for `w A♦`)."""

from __future__ import annotations

import re

import pytest

from companion.render.text import render
from companion.rules import deal

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize("variant, seed, moves, options", [
    ("klondike", 2, ["s"], {"draw": 1}),
    ("klondike", 1, ["s", "s"], {}),
    ("spider", 1, [], {}),
    ("golf", 3, ["s"], {}),
    ("gaps", 1, [], {}),
])
def test_colour_adds_only_colour_codes(variant, seed, moves, options):
    pos = deal(variant, seed, options)
    for m in moves:
        pos.play(m)
    for symbols in (True, False):
        plain = render(pos, symbols=symbols, colour=False)
        coloured = render(pos, symbols=symbols, colour=True)
        assert ANSI.sub("", coloured) == plain


def test_a_red_waste_card_is_one_space_from_its_label():
    pos = deal("klondike", 2, {"draw": 1})
    pos.play("s")
    head = ANSI.sub("", render(pos, colour=True)).splitlines()[0]
    assert "w 3♦" in head and "w  3♦" not in head

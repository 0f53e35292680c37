"""Cutting detours out of winning lines (``search.shorten``), mirrors of a position included."""

from __future__ import annotations

from solverhelp import made

from companion.solver.search import knowledge


def test_mirror_key_renames_interchangeable_piles_only():
    pos = made("streets-and-alleys", {"f1": "Ah", "t1": "Qs", "t2": "Kh 2h"})
    renamed = made("streets-and-alleys", {"f3": "Ah", "t6": "Qs", "t4": "Kh 2h"})
    other = made("streets-and-alleys", {"f1": "Ah", "t1": "Qs 2h", "t2": "Kh"})
    kn = knowledge(pos.variant)
    assert kn.mirror_key(pos) == kn.mirror_key(renamed) != kn.mirror_key(other)
    assert pos.key() != renamed.key()
    # Klondike's canonical key leaves out where the talon's pointer is (the stock's moves
    # reach every pointer alike); no renaming of piles moves it, so the mirror key keeps it.
    k = made("klondike", {"t1": ("9h 2c 10s", 2), "s": ("5d 6d 7d", 3)})
    turned = k.copy()
    turned.push_raw(turned.raw_moves()[-1])  # the stock turned: three cards to the waste
    kn = knowledge(k.variant)
    assert kn.key(k) == kn.key(turned)
    assert kn.mirror_key(k) != kn.mirror_key(turned)

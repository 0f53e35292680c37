"""Cutting detours out of winning lines (``search.shorten``), mirrors of a position included."""

from __future__ import annotations

import itertools

import pytest
from solverhelp import made, replays_to_a_win

from companion.rules import deal
from companion.solver import Limits, search, solve
from companion.solver.search import knowledge, shorten


def exact_cut(pos, line: list) -> list:
    """The cut as it was before mirrors: a legal move that leads to the very position the line
    reaches later replaces the moves in between (the oracle for "never longer")."""
    q = pos.copy()
    keys = [q.key()]
    for m in line:
        q.push_raw(m)
        keys.append(q.key())
    last = {k: i for i, k in enumerate(keys)}
    q = pos.copy()
    out, i = [], 0
    while i < len(line):
        best_j, best_m = i + 1, line[i]
        for m in q.raw_moves():
            q.push_raw(m)
            j = last.get(q.key(), -1)
            q.pop()
            if j > best_j:
                best_j, best_m = j, m
        q.push_raw(best_m)
        out.append(best_m)
        i = best_j
    return out


def played(pos, texts: str) -> list:
    """The raw moves of ``texts`` (separated by commas), each legal where it is played."""
    q = pos.copy()
    for text in texts.split(","):
        q.play(text.strip())
    return q.history


def texts(pos, line: list) -> list[str]:
    return [pos.engine.text(m) for m in line]


def raw_line(variant: str, seed: int) -> tuple:
    """A deal and the solver's winning line for it, uncut (the same on every run: no time
    budget)."""
    pos = deal(variant, seed)
    r = solve(pos, Limits(seconds=None, nodes=200_000), short=False)
    assert r.verdict == "won"
    return pos, list(r.raw)


def test_a_detour_through_a_space_is_cut_at_its_mirror():
    # Q♠ goes from t2 onto K♥ and on into the space t3: a lone card cannot move into a space,
    # but by way of another pile it can, and the position is the first one with Q♠'s row
    # renamed. J♠ then goes up, which it could have done at once: from there the line plays
    # on the rows as they are then named (Q♠ goes up from t2, not t3).
    pos = made("streets-and-alleys", {
        "f1": "As 2s 3s 4s 5s 6s 7s 8s 9s 10s", "f2": "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh",
        "f3": "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd",
        "f4": "Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc",
        "t1": "Kh", "t2": "Qs", "t5": "Ks Js", "t6": "Kd"})
    line = played(pos, "t2 t1, t1 t3, t5 f1, t3 f1, t5 f1, t1 f2, t6 f3")
    assert exact_cut(pos, line) == line  # no position of the line comes back exactly
    short = shorten(pos, line)
    assert texts(pos, short) == ["t5 f", "t2 f", "t5 f", "t1 f", "t6 f"]
    assert replays_to_a_win(pos, texts(pos, short))


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


def test_a_streets_and_alleys_line_is_cut_shorter_through_mirrors():
    pos, line = raw_line("streets-and-alleys", 1)
    before = exact_cut(pos, line)
    short = shorten(pos, line)
    assert len(short) < len(before) <= len(line)
    assert replays_to_a_win(pos, texts(pos, short))


def test_the_tableau_alone_cuts_as_the_mirror_key_does():
    # Streets and Alleys' tableau names its positions (the foundations are the cards not on
    # it): the cut keys them by the tableau alone, which is cheaper, and cuts the same.
    for seed in (1, 39):
        pos, line = raw_line("streets-and-alleys", seed)
        kn = knowledge(pos.variant)
        assert kn.mirror_key_for(pos) != kn.mirror_key
        assert search._cut(pos, line, kn.mirror_key_for(pos), mirrors=True) \
            == search._cut(pos, line, kn.mirror_key, mirrors=True)


def test_lines_are_never_longer_than_cut_at_exact_positions():
    for seed in (3, 39):
        pos, line = raw_line("streets-and-alleys", seed)
        short = shorten(pos, line)
        assert len(short) <= len(exact_cut(pos, line))
        assert replays_to_a_win(pos, texts(pos, short))
    for seed in (3, 4, 5):
        pos, line = raw_line("klondike", seed)
        short = shorten(pos, line)
        assert len(short) <= len(exact_cut(pos, line))
        assert replays_to_a_win(pos, texts(pos, short))


def test_without_interchangeable_piles_the_cut_is_as_before():
    pos, line = raw_line("rouge-et-noir", 1)
    assert not knowledge(pos.variant).has_mirrors
    assert shorten(pos, line) == exact_cut(pos, line) != line


@pytest.mark.parametrize("wrong", ["every position alike", "no two positions alike"])
def test_a_mirror_key_gone_wrong_leaves_the_exact_cut(monkeypatch, wrong):
    # Were the mirror key to name unlike positions alike (the cut would end on a position not
    # won), or miss a renaming the rules make (no move would lead on), the line is cut at exact
    # positions alone: never a line that does not win.
    pos, line = raw_line("streets-and-alleys", 1)
    fresh = itertools.count()
    key = (lambda q: b"") if wrong == "every position alike" else (lambda q: next(fresh))
    monkeypatch.setattr(knowledge(pos.variant), "mirror_key_for", lambda root: key)
    assert search._cut(pos, line, key, mirrors=True) is None
    assert shorten(pos, line) == exact_cut(pos, line)

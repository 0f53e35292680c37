"""bench/looks.py's replay of the portfolio from its searches' runs alone (the method the
solver's NARROW_SHARES were chosen by): time shared by slices times cost a position, a narrow
look that ends without a win giving its share to the others, and only the whole search's
"lost" settling a deal."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "bench_looks", Path(__file__).parents[2] / "bench" / "looks.py")
looks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(looks)

OUT = ("unknown", 5.0, 50_000, True)  # a search whose time ran out
EACH = [1, 1, 1, 1, 1, 0]  # a slice each, the lean look left out


def runs(**by_name):
    """The six searches' runs alone, OUT where not given."""
    return [by_name.get(n, OUT) for n in looks.NAMES]


def test_a_win_comes_when_its_search_has_had_its_time_at_its_share():
    # The dive wins after 1 s alone; five searches costing the same a position, a slice
    # each: it has had 1 s after 5 s, so the portfolio wins at 5 s, within a 5-s budget.
    r = runs(dive=("won", 1.0, 10_000, False))
    verdict, t = looks.replay([(v, s, 10_000 * s, o) for v, s, _, o in r], EACH, 5.0)
    assert verdict == "won" and t == pytest.approx(5.0)
    # Two slices to the dive: 2/6 of the time, 3 s.
    verdict, t = looks.replay([(v, s, 10_000 * s, o) for v, s, _, o in r], [1, 1, 1, 2, 1, 0],
                              5.0)
    assert verdict == "won" and t == pytest.approx(3.0)


def test_a_position_that_costs_more_takes_more_of_the_time():
    # The same slices, but the dive's positions cost four times the others': it gets 4/8 of
    # the time and wins at 2 s.
    r = [("unknown", 5.0, 50_000, True)] * 3 + [("won", 1.0, 2_500, False),
                                                ("unknown", 5.0, 50_000, True), OUT]
    verdict, t = looks.replay(r, EACH, 5.0)
    assert verdict == "won" and t == pytest.approx(2.0)


def test_a_narrow_look_that_ends_gives_its_share_to_the_others():
    # Four narrow looks end without a win after 0.1 s alone each; then the whole search has
    # the machine and proves the loss it needs 2 s for.
    ended = ("lost", 0.1, 1_000, False)
    r = runs(depth=ended, best=ended, beam=ended, dive=ended,
             prover=("lost", 2.0, 20_000, False))
    verdict, t = looks.replay(r, EACH, 5.0)
    assert verdict == "lost" and t == pytest.approx(0.5 + 1.9)


def test_only_the_whole_search_proves_a_loss_and_the_budget_holds():
    ended = ("lost", 0.1, 1_000, False)
    assert looks.replay(runs(depth=ended), EACH, 5.0) == ("unknown", 5.0)
    # A win that needs more than the budget at its share is not had.
    late = runs(best=("won", 1.5, 15_000, False))
    assert looks.replay([(v, s, 10_000 * s, o) for v, s, _, o in late], EACH, 5.0)[0] \
        == "unknown"
    # The lean look is a narrow look too: its end proves nothing, its win settles the deal.
    assert looks.replay(runs(lean=ended), [1] * 6, 5.0) == ("unknown", 5.0)
    verdict, t = looks.replay(runs(lean=("won", 0.5, 5_000, False)), [1] * 6, 5.0)
    assert verdict == "won" and t == pytest.approx(3.0)

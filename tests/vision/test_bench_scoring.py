"""bench/vision.py's scoring (the figures quoted against the targets): a card is read right
where either of its corners read lies at its index in view; recalled where that index is
wholly in view, and in the "any corner" figure where it is at least half in view."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

np = pytest.importorskip("numpy")

_root = Path(__file__).parents[2]
sys.path.insert(0, str(_root))
_spec = importlib.util.spec_from_file_location("bench_vision", _root / "bench" / "vision.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def _index(code, x, y, frac):
    box = np.array([[x - 3, y - 3], [x + 3, y - 3], [x + 3, y + 3], [x - 3, y + 3]], float)
    return {"code": code, "rank": box, "pip": box, "visible": frac > 0.97, "visible_frac": frac}


def _det(code, x, y, other=None, uncertain=False):
    return SimpleNamespace(code=code, x=x, y=y, size=10.0, other=other, uncertain=uncertain)


def test_a_card_read_at_both_corners_counts_at_either():
    # a Gaps card: its top-left index wholly in view, its bottom-right one a little covered
    sc = SimpleNamespace(indices=[_index(5, 100, 100, 1.0), _index(5, 300, 400, 0.8)])
    both = _det(5, 300, 400, other=(100, 100, (0, 1)))
    assert bench.score_scene(sc, [both]) == (1, 1, 1, 0, 1, 1)
    alone = _det(5, 300, 400)   # read at the covered corner only: right, not at its index
    assert bench.score_scene(sc, [alone]) == (0, 1, 1, 0, 1, 1)
    elsewhere = _det(5, 700, 700, other=(900, 900, (0, 1)))
    assert bench.score_scene(sc, [elsewhere]) == (0, 1, 1, 0, 0, 0)
    assert bench.score_scene(sc, [_det(5, 100, 100, uncertain=True)]) == (0, 0, 1, 1, 0, 0)


def test_a_card_with_no_index_in_view_is_not_recalled():
    sc = SimpleNamespace(indices=[_index(7, 100, 100, 0.8), _index(7, 300, 400, 0.6)])
    assert bench.score_scene(sc, [_det(7, 100, 100)]) == (0, 1, 0, 0, 1, 0)

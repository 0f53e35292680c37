"""Which variants keep every tableau pile's face-up cards a build (what photo reading may use
to settle an uncertain card from its neighbours)."""

import pytest

from companion.rules import face_up_runs_are_builds, load_variant


@pytest.mark.parametrize("key, expected", [
    ("klondike", True),             # one card dealt face up on each pile, runs move as builds
    ("solitaire", True),
    ("forty-thieves", False),       # four cards dealt face up on each pile: no build
    ("spider", False),              # the stock deals onto the piles
    ("golf", False),                # no building at all
    ("streets-and-alleys", False),  # whole rows dealt face up
])
def test_face_up_runs_are_builds(key, expected):
    assert face_up_runs_are_builds(load_variant(key)) is expected
